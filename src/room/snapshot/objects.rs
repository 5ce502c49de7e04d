//! The snapshot's store: content-addressed objects (`objects/<2 hex>/<62 hex>.<mode>`), and the layers that
//! present them (`layers/<place id>`, trees of hard links to the objects).
//!
//! An object is the file's content under its SHA-256 and its mode, so the same content with the same mode is
//! stored once however many paths held it. How it is made, cheapest first that the file system allows:
//! - a **reflink** of the file (`FICLONE`: no block is copied while neither side changes): a true snapshot;
//! - a **hard link** to the user's file itself (`<digest>.<mode>.<inode>.l`), only for a file a package manager
//!   installed into its store (`super::stores`: the caller's `may_link`): no byte is copied, and the store
//!   holds the file's inode even when its path is removed or renamed over (a package manager's write-new-then-
//!   rename, `rm`): the object keeps the baseline's bytes. Only an edit *in place* reaches it. So a linked
//!   object is never trusted by name alone: [`Objects::intact`] checks it at every promise, before the run and
//!   after it. The inode's change time, which no user can set, is the hint: where it did not move since the
//!   content was last read, nothing wrote the file. Where it moved, the content is **read again** and compared
//!   with the name (its SHA-256), because the change time moves for much that is no edit — another loop
//!   linking the same toolchain file into its own store, a `chmod`, a `touch`, the link count of a `pnpm`
//!   store. Equal bytes are no change whatever moved the stat, and the new stat is recorded ([`Seen`]) so the
//!   next promise does not read it again. Different bytes mean the held file was edited in place: the
//!   baseline's bytes are gone, the run cannot be shown them, so the promise is rejected naming the file,
//!   exactly as where the snapshot cannot be presented at all, and an edit during the run is caught by the
//!   check after it. Where a link is refused (another file system than the store's, a file the kernel's
//!   `protected_hardlinks` keeps from this user, a file at its link count limit, any error), or the file is
//!   larger than [`LARGE`]:
//! - a **copy**, hashed after it is made, from the copy, so what is stored is exactly what its name says.
//!
//! Why the first attempt at links was taken back, and why this one cannot falsely reject in the same way: it
//! required the stat to stay still between the check before the run and the one after it, so another loop's
//! setup linking the same file during the run (the suite's concurrent cases, all reading one toolchain) moved
//! the change time and was read as an edit. Here a moved stat only ever costs a read; a rejection needs bytes that
//! differ from the name. What it gives up: an edit in place of a held file (in `~/.cargo/registry`, a
//! `node_modules` above the project) is now a named rejection rather than invisible to the run, since the
//! baseline's bytes are gone (an honest agent that edits such a file to debug and reverts it is unaffected: the
//! check is by bytes); an edit in place of any other held file — a dotfile under `npm config set` or
//! `git config --global`, a venv's `pyvenv.cfg` — cannot reach the run at all, since those are copied
//! (`super::stores`: what honest work edits in place is small; what is large is replaced, never edited); an edit
//! reverted within one run is seen only by the watch during the run
//! (`oracle::watch`, the linked objects watched by inode); a linked file's mode is the file's own (a `chmod` of
//! it reaches the run; its bytes cannot).
//!
//! So on a file system without reflinks (ext4) the snapshot costs reading what it holds, not writing it again.
//! Layers link the objects (same file system: the store's), so a place's layer costs directory entries, not
//! content. The store lives beside the room, not in it: the room is visible to the run (its caches), the store is
//! hidden from it with the rest of loopgate's home (`confine::mount`), and the agent's commands cannot write
//! loopgate's home (`confine::world`).

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Entry, LARGE, Stat};

/// What names an object: its content's SHA-256, its mode, and for a linked object the inode it is (see the
/// module doc).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key<'a> {
    pub digest: &'a str,
    pub mode: u32,
    pub linked: Option<u64>,
}

/// One snapshot store (a loop's: `<room>.snapshot`).
pub(crate) struct Objects {
    dir: PathBuf,
    /// Whether a reflink from each file system (by device) into the store worked when first tried: a refused one
    /// is not tried again with a file made and removed per object (on ext4, creating files where many were just
    /// removed was most of a snapshot's system time).
    reflinks: std::cell::RefCell<std::collections::HashMap<u64, bool>>,
}

impl Objects {
    /// The store at `dir`, made (private) where missing.
    pub(crate) fn open(dir: &Path) -> io::Result<Objects> {
        private_dir(&dir.join("objects"))?;
        private_dir(&dir.join("layers"))?;
        Ok(Objects {
            dir: dir.to_path_buf(),
            reflinks: Default::default(),
        })
    }

    /// Where the object `key` lives.
    pub(crate) fn object(&self, key: Key) -> io::Result<PathBuf> {
        let Key { digest, mode, linked } = key;
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("`{digest}` is no SHA-256 digest"),
            ));
        }
        // A linked object is one user's file, named apart from a copy of the same content and from another file
        // with that content: an edit in place of one names that one alone.
        let suffix = linked.map_or_else(String::new, |ino| format!(".{ino}.l"));
        Ok(self
            .dir
            .join("objects")
            .join(&digest[..2])
            .join(format!("{}.{mode:o}{suffix}", &digest[2..])))
    }

    /// Stores the file at `path` (stat `meta`) and returns how it is held: by content (a reflink, a link or a
    /// copy: see the module doc), or by stat alone where it is larger than [`LARGE`] and cannot be reflinked;
    /// `None` where this user cannot read it or it is no longer a file (it is not held). An error is the store's
    /// (full, read-only).
    /// `may_link`: false where the file is presented by a bind of its object rather than through a place's
    /// overlay (a file in a directory that holds the project, `Snapshot::file_binds`): a bind would let the run
    /// write the object, so only a copy may be bound.
    pub(crate) fn put(&self, path: &Path, meta: &std::fs::Metadata, may_link: bool) -> io::Result<Option<Entry>> {
        let stat = Stat::of(meta);
        let mode = meta.mode() & 0o7777;
        let opened = std::fs::File::options()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path);
        let mut source = match opened {
            Ok(source) => source,
            Err(err)
                if matches!(err.kind(), io::ErrorKind::PermissionDenied | io::ErrorKind::NotFound)
                    || err.raw_os_error() == Some(libc::ELOOP) =>
            {
                return Ok(None);
            }
            Err(err) => return Err(err),
        };
        let temp = self
            .dir
            .join("objects")
            .join(format!(".incoming-{}-{}", std::process::id(), stat.ino));
        crate::fsutil::remove_any(&temp)?;
        let stored = self.take(&mut source, &temp, meta, may_link).and_then(|how| {
            let Some(linked) = how else { return Ok(None) };
            let digest = digest_of(&temp)?;
            // A linked object is the user's file: what was hashed is what the stat said, or it is copied.
            if linked && !unmoved(&temp, meta) {
                std::fs::remove_file(&temp)?;
                self.copy(&mut source, &temp, meta)?;
                return Ok(Some((digest_of(&temp)?, false)));
            }
            Ok(Some((digest, linked)))
        });
        let (digest, linked) = match stored {
            Ok(Some(stored)) => stored,
            Ok(None) => return Ok(Some(Entry::Large { stat })),
            Err(err) => {
                let _ = std::fs::remove_file(&temp);
                return Err(err);
            }
        };
        let object = self.object(Key {
            digest: &digest,
            mode,
            linked: linked.then_some(stat.ino),
        })?;
        if std::fs::symlink_metadata(&object).is_ok() {
            std::fs::remove_file(&temp)?;
        } else {
            private_dir(object.parent().unwrap_or(&self.dir))?;
            std::fs::rename(&temp, &object)?;
        }
        Ok(Some(Entry::File {
            digest,
            mode,
            stat,
            linked,
        }))
    }

    /// Makes `temp` hold what `source` holds (see the module doc): `Some(false)` a reflink or a copy, `Some(true)`
    /// a hard link to the file itself, `None` nothing (too large to copy).
    fn take(
        &self,
        source: &mut std::fs::File,
        temp: &Path,
        meta: &std::fs::Metadata,
        may_link: bool,
    ) -> io::Result<Option<bool>> {
        let tried = self.reflinks.borrow().get(&meta.dev()).copied();
        if tried != Some(false) {
            let copy = new_file(temp)?;
            let reflinked = crate::room::tree::reflink(source, &copy);
            drop(copy);
            self.reflinks.borrow_mut().insert(meta.dev(), reflinked);
            if reflinked {
                stamp(temp, meta)?;
                return Ok(Some(false));
            }
            std::fs::remove_file(temp)?;
        }
        if meta.len() > LARGE {
            return Ok(None);
        }
        if may_link && link_opened(source, temp) {
            return Ok(Some(true));
        }
        self.copy(source, temp, meta)?;
        Ok(Some(false))
    }

    /// Copies `source` into a new file at `temp`, with the mode and modification time of `meta`.
    fn copy(&self, source: &mut std::fs::File, temp: &Path, meta: &std::fs::Metadata) -> io::Result<()> {
        use std::io::Seek;
        let mut copy = new_file(temp)?;
        source.rewind()?;
        io::copy(source, &mut copy)?;
        drop(copy);
        stamp(temp, meta)
    }

    /// Whether the object `key` still holds its name's content (see the module doc). Its stat is only a hint: where
    /// it is the one `seen` last recorded with that content, the object is trusted unread; where it moved (an edit,
    /// or just another link, a `chmod`, a `touch`) the content is read again and compared with the name, and a
    /// match records the new stat, so the next check does not read it again.
    pub(crate) fn intact(&self, key: Key, seen: &mut Seen) -> bool {
        let Ok(object) = self.object(key) else {
            return false;
        };
        let stat = |object: &Path| {
            std::fs::symlink_metadata(object)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map(|meta| Stat::of(&meta))
        };
        let Some(before) = stat(&object) else {
            return false;
        };
        let name = object.strip_prefix(&self.dir).unwrap_or(&object).display().to_string();
        if seen.last.get(&name) == Some(&before) {
            return true;
        }
        let reading = now_ns();
        if !digest_of(&object).is_ok_and(|digest| digest == key.digest) {
            return false;
        }
        // The stat taken before the read is what the read vouches for: a write during the read moved it, and the
        // next check reads again. A change time within the clock's coarse tick of the read is not recorded: a
        // write in that same tick would leave it where it was ("racily clean", as git calls it).
        if before.ctime < reading.saturating_sub(RACY_NS) {
            seen.moved |= seen.last.insert(name, before) != Some(before);
        }
        true
    }

    /// Where the layer of `place` lives (Linux: where the snapshot is presented) (named by the place's path, so each place has one).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub(crate) fn layer_dir(&self, place: &Path) -> PathBuf {
        let id = Sha256::digest(place.as_os_str().as_encoded_bytes());
        let id: String = id[..8].iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join("layers").join(id)
    }

    /// Puts the object `key` at `at` in a layer: a hard link, or a copy where the file system refuses the link.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub(crate) fn link(&self, key: Key, at: &Path) -> io::Result<()> {
        let object = self.object(key)?;
        if !object.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the snapshot's object `{}` is missing", object.display()),
            ));
        }
        match std::fs::hard_link(&object, at) {
            Ok(()) => Ok(()),
            Err(_) => {
                std::fs::copy(&object, at)?;
                Ok(())
            }
        }
    }
}

/// The SHA-256 of the file at `path`, in hex.
pub(crate) fn digest_of(path: &Path) -> io::Result<String> {
    let mut file = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// What [`Objects::intact`] has seen of a store's linked objects: the stat each had when its content was last
/// read and found to be its name's (kept in the store, `seen.json`, so an unmoved object is not read again at the
/// next promise). Only a cache: losing it costs a read of each object, never a verdict.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    last: BTreeMap<String, Stat>,
    moved: bool,
}

/// How far the change time recorded for an object must lie before its content was read (nanoseconds): the
/// kernel stamps change times from a coarse clock (a tick of up to 10 ms), so a write in the tick of the read may
/// leave the change time unchanged; well past any tick.
const RACY_NS: i64 = 100_000_000;

/// The wall clock now, in nanoseconds since the epoch (as [`Stat`] holds change times).
fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

impl Seen {
    /// What the store at `dir` recorded; nothing where it recorded nothing or cannot be read (every object is
    /// then read once more).
    pub(crate) fn load(dir: &Path) -> Seen {
        let last = std::fs::read(dir.join(SEEN))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Seen { last, moved: false }
    }

    /// Records in the store at `dir` what was read afresh, where anything was. A store this process cannot write
    /// (the agent's own `loopgate verify` in its world) keeps what it had: the next check reads again.
    pub(crate) fn save(&mut self, dir: &Path) {
        if !self.moved {
            return;
        }
        let Ok(bytes) = serde_json::to_vec(&self.last) else {
            return;
        };
        let temp = dir.join(format!(".{SEEN}-{}", std::process::id()));
        if std::fs::write(&temp, bytes).is_ok() && std::fs::rename(&temp, dir.join(SEEN)).is_ok() {
            self.moved = false;
        } else {
            let _ = std::fs::remove_file(&temp);
        }
    }
}

/// The store's record of [`Seen`].
const SEEN: &str = "seen.json";

/// A new private file at `path`, for writing.
fn new_file(path: &Path) -> io::Result<std::fs::File> {
    std::fs::File::options()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

/// Gives the copy at `path` the mode and modification time of `meta` (a copy's, never the user's file's).
fn stamp(path: &Path, meta: &std::fs::Metadata) -> io::Result<()> {
    let file = std::fs::File::options()
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(meta.mode() & 0o7777))?;
    file.set_modified(meta.modified()?)
}

/// Links the very file `source` has open at `at` (through `/proc/self/fd`, so a path swapped since it was opened
/// is not what is linked); false where the kernel refuses (another file system, `protected_hardlinks`, no
/// `/proc`).
fn link_opened(source: &std::fs::File, at: &Path) -> bool {
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let (Ok(from), Ok(to)) = (
        std::ffi::CString::new(format!("/proc/self/fd/{}", source.as_raw_fd())),
        std::ffi::CString::new(at.as_os_str().as_bytes()),
    ) else {
        return false;
    };
    // SAFETY: linkat(2) with two NUL-terminated strings that outlive the call.
    unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        ) == 0
    }
}

/// Whether the file at `path` still has the content-bearing stat of `meta` (size, modification time, inode).
fn unmoved(path: &Path, meta: &std::fs::Metadata) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|now| {
        let (now, then) = (Stat::of(&now), Stat::of(meta));
        (now.size, now.mtime, now.ino) == (then.size, then.mtime, then.ino)
    })
}

/// A directory made with its parents, private (0700).
pub(crate) fn private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}
