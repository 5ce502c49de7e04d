//! The snapshot's store: content-addressed objects (`objects/<2 hex>/<62 hex>.<mode>`), and the layers that
//! present them (`layers/<place id>`, trees of hard links to the objects).
//!
//! An object is the file's content under its SHA-256 and its mode, so the same content with the same mode is
//! stored once however many paths held it. It is made by a reflink of the file (`FICLONE`: no block is copied
//! while neither side changes) where the file system has them, else by a copy — never by a hard link to the
//! user's file, which an edit in place would change under the snapshot. A copy is hashed after it is made, from
//! the copy, so what is stored is exactly what its name says. Layers link the objects (same file system: the
//! store's), so a place's layer costs directory entries, not content. The store lives beside the room, not in
//! it: the room is visible to the run (its caches), the store is hidden from it with the rest of loopgate's home
//! (`confine::mount`), and the agent's commands cannot write loopgate's home (`confine::world`).

use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Entry, LARGE, Stat};

/// One snapshot store (a loop's: `<room>.snapshot`).
pub(crate) struct Objects {
    dir: PathBuf,
}

impl Objects {
    /// The store at `dir`, made (private) where missing.
    pub(crate) fn open(dir: &Path) -> io::Result<Objects> {
        private_dir(&dir.join("objects"))?;
        private_dir(&dir.join("layers"))?;
        Ok(Objects { dir: dir.to_path_buf() })
    }

    /// Where the object of `digest` with `mode` lives.
    pub(crate) fn object(&self, digest: &str, mode: u32) -> io::Result<PathBuf> {
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("`{digest}` is no SHA-256 digest"),
            ));
        }
        Ok(self
            .dir
            .join("objects")
            .join(&digest[..2])
            .join(format!("{}.{mode:o}", &digest[2..])))
    }

    /// Stores the file at `path` (stat `meta`) and returns how it is held: by content, or by stat alone where it
    /// is larger than [`LARGE`] and cannot be reflinked; `None` where this user cannot read it or it is no longer
    /// a file (it is not held). An error is the store's (full, read-only).
    pub(crate) fn put(&self, path: &Path, meta: &std::fs::Metadata) -> io::Result<Option<Entry>> {
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
        let mut copy = std::fs::File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)?;
        let stored = (|| -> io::Result<Option<(String, u32)>> {
            if !crate::room::tree::reflink(&source, &copy) {
                if meta.len() > LARGE {
                    return Ok(None);
                }
                io::copy(&mut source, &mut copy)?;
            }
            let digest = digest_of(&temp)?;
            copy.set_permissions(std::fs::Permissions::from_mode(mode))?;
            copy.set_modified(meta.modified()?)?;
            Ok(Some((digest, mode)))
        })();
        drop(copy);
        let stored = match stored {
            Ok(Some(stored)) => stored,
            Ok(None) => {
                std::fs::remove_file(&temp)?;
                return Ok(Some(Entry::Large { stat }));
            }
            Err(err) => {
                let _ = std::fs::remove_file(&temp);
                return Err(err);
            }
        };
        let (digest, mode) = stored;
        let object = self.object(&digest, mode)?;
        if std::fs::symlink_metadata(&object).is_ok() {
            std::fs::remove_file(&temp)?;
        } else {
            private_dir(object.parent().unwrap_or(&self.dir))?;
            std::fs::rename(&temp, &object)?;
        }
        Ok(Some(Entry::File { digest, mode, stat }))
    }

    /// Where the layer of `place` lives (Linux: where the snapshot is presented) (named by the place's path, so each place has one).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub(crate) fn layer_dir(&self, place: &Path) -> PathBuf {
        let id = Sha256::digest(place.as_os_str().as_encoded_bytes());
        let id: String = id[..8].iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join("layers").join(id)
    }

    /// Puts the object `digest` (`mode`) at `at` in a layer: a hard link, or a copy where the file system
    /// refuses the link.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub(crate) fn link(&self, digest: &str, mode: u32, at: &Path) -> io::Result<()> {
        let object = self.object(digest, mode)?;
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

/// A directory made with its parents, private (0700).
pub(crate) fn private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}
