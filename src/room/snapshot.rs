//! The oracle's world as a content snapshot (issue 39, item 1): what the baseline run read outside the project
//! is held **by content** in loopgate's store, and every later run of the loop in the room's namespace reads
//! that content at those paths, whatever happened to them since; the code under test is the agent's tree.
//!
//! **What is held.** Every file the traced baseline run opened for reading or executed ([`candidates`]) that
//! lies outside the project, outside the system's own directories ([`SYSTEM`]: a process that can rewrite `/usr`
//! can rewrite loopgate) and outside loopgate's home, that the run did not write itself, and that this user can
//! change (owned by them, or in a directory they own): an unpacked registry source (`~/.cargo/registry/src`),
//! Go's module cache, a sibling path dependency, a `node_modules` above the project, a venv or user
//! site-packages, runner binaries and their configuration, a preload a recorded `NODE_OPTIONS` or
//! `PYTHONPATH` names. Each is held as an object named by its SHA-256 and mode ([`objects`]), so the same
//! content is stored once; on a file system without reflinks the object of a file a package manager installed
//! (a `node_modules` package, site-packages, Cargo's registry: [`stores`]) is a hard link to the file itself
//! (nothing copied), checked by its bytes at every promise, so an edit *in place* there is a named rejection
//! rather than undone, and every other file (a dotfile, a venv's `pyvenv.cfg`: what honest work edits in place)
//! is a copy, which the agent's edit never reaches; a symbolic link on the way to a file (a venv's `bin/python`, `node_modules/.bin/*`)
//! is held as a link, and the file at its real path. The list is positive — what the run was seen to read —
//! never a list of places to protect.
//!
//! **How it is presented** (Linux, the room's tree mounted, overlays possible: `confine::mount::private`). Each
//! place holding held files is an overlay of the run's private scratch, and the snapshot is one more lower
//! layer on top of the place as it is: a tree of hard links to the objects at the held paths ([`Snapshot::layer`]).
//! So for every held path the run reads the baseline's content and mode, however the path was changed since:
//! replaced by a link or a directory, removed, renamed over, edited in place where the object is a reflink or
//! a copy, or changed while the run goes on (the layer is the store's, never the place's); a linked object
//! edited in place is named instead ([`Snapshot::changed`], before the run and after it). A directory held by the layer that is now a link elsewhere
//! is the layer's directory (overlayfs lets an upper directory hide a lower non-directory). New entries beside
//! held files are seen: a dependency the baseline never read is not the oracle's, it is the agent's world.
//! Writes land in the scratch and are thrown away. A redirect is therefore a redirect only to what the
//! baseline never read: a `[patch]` in `~/.cargo/config.toml`, a `.pth` or a `RECORD` in a user site, a
//! `go.work` or `.npmrc` above the project that the baseline read are all held as they were.
//!
//! **What is held absent.** What the run looked for outside the project and did not find is kept absent
//! ([`absent`]): where something appeared there since, the run's namespace covers it, so a runner finds on its
//! own only what it found at the baseline.
//!
//! **Where it cannot be presented** (no mount namespace: macOS, a kernel without unprivileged overlays, a file
//! larger than [`LARGE`] on a file system without reflinks, a place below another mount), the promise compares
//! by content instead ([`Snapshot::changed`]: the stat first, the content where the stat moved) and the rejection
//! names each held file that differs.
//!
//! **What still gets through** (see docs/threat-model.md): a redirect inside the project (a manifest's `path`
//! dependency, `[patch]`, `replace`, `vendor/`) to code the baseline never read — the closure's manifest rules and
//! the resolution check (`closure::resolved`) judge those; a new file where the baseline looked and found nothing
//! is covered in the run ([`absent`]) unless it is a symbolic link; a new entry in a directory a
//! runner lists and loads on its own (a new `.pth` in a venv that is not the user site); the project's own
//! dependency directories (`node_modules`, `.venv` inside the project), which the tree binds live and the observed
//! closure seals by content; files larger than [`LARGE`] where they must be compared by stat.

pub(crate) mod absent;
pub(crate) mod objects;
pub(crate) mod stores;
// The layers and binds are laid by Linux's mount namespace only; elsewhere the snapshot is compared.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
mod present;
#[cfg(test)]
mod tests;

pub(crate) use present::{Presenting, make_removable};

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::trace::{Access, Event};

/// `LOOPGATE_SNAPSHOT=0` in setup's environment takes no snapshot: what the baseline read outside the project
/// is then only what the closure seals and `room::outside` covers (for measuring, and a way out if the
/// snapshot ever stands in the way).
pub(crate) const OFF_ENV: &str = "LOOPGATE_SNAPSHOT";

/// Files above this size are held by stat alone unless the file system can reflink them (a toolchain's
/// half-gigabyte library is not copied at every setup).
pub(crate) const LARGE: u64 = 16 << 20;

/// The system's own directories: never held (their owner is not the agent, and whoever can write them can write
/// loopgate's binary).
pub(crate) const SYSTEM: &[&str] = &[
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/etc",
    "/proc",
    "/sys",
    "/dev",
    "/run",
    "/boot",
    "/nix/store",
];

/// Longest chain of links followed from one path the run read.
const MAX_LINKS: usize = 16;

/// What the baseline read outside the project, by path: a companion of the seal (`seal::SNAPSHOT`); the content
/// lives in the snapshot's store ([`objects`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Snapshot {
    pub files: BTreeMap<String, Entry>,
    /// What the baseline looked for there and did not find, kept absent for the later runs ([`absent`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
    /// The runner binaries the baseline executed, by their real paths: the start channel stands in at each in
    /// the later runs (`room::hook::binary`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binaries: Vec<PathBuf>,
}

/// One held path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Entry {
    /// A regular file held by content: its object's digest and mode, and its stat at setup; `linked`: its
    /// object is a hard link to the file (checked at every promise, [`objects::Objects::intact`]), not a copy.
    File {
        digest: String,
        mode: u32,
        stat: Stat,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        linked: bool,
    },
    /// A regular file too large to copy here: held by its stat alone (compared, never presented).
    Large { stat: Stat },
    /// A symbolic link, by its target.
    Link { target: PathBuf },
}

impl Entry {
    /// The name of its object in the store, if it is held by content.
    pub(crate) fn key(&self) -> Option<objects::Key<'_>> {
        match self {
            Entry::File {
                digest,
                mode,
                stat,
                linked,
            } => Some(objects::Key {
                digest,
                mode: *mode,
                linked: linked.then_some(stat.ino),
            }),
            Entry::Large { .. } | Entry::Link { .. } => None,
        }
    }
}

/// The stat a promise compares first: a file whose stat is unchanged is not read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stat {
    pub size: u64,
    /// Nanoseconds since the epoch (JSON holds no `i128`; an `i64` lasts until 2262).
    pub mtime: i64,
    pub ctime: i64,
    pub ino: u64,
}

impl Stat {
    pub(crate) fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            size: meta.len(),
            mtime: meta
                .mtime()
                .saturating_mul(1_000_000_000)
                .saturating_add(meta.mtime_nsec()),
            ctime: meta
                .ctime()
                .saturating_mul(1_000_000_000)
                .saturating_add(meta.ctime_nsec()),
            ino: meta.ino(),
        }
    }
}

/// What the traced baseline saw outside the project: the paths it read, to hold ([`candidates`]), and the places
/// it looked for and did not find, to keep absent ([`absent::candidates`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Saw {
    pub read: Vec<PathBuf>,
    pub absent: Vec<PathBuf>,
    /// The runner binaries it executed, by their real paths (`room::hook::binary::runners`).
    pub binaries: Vec<PathBuf>,
}

impl Saw {
    /// What `events` saw outside the project at `root`, loopgate's `home` left out.
    pub(crate) fn of(events: &[Event], root: &Path, home: &Path) -> Saw {
        Saw {
            read: candidates(events, root, home),
            absent: absent::candidates(events, root, home),
            binaries: crate::room::hook::binary::runners(
                events
                    .iter()
                    .filter(|e| e.access == Access::Executed)
                    .map(|e| e.path.clone()),
                home,
            ),
        }
    }
}

/// The paths of a baseline trace worth holding: read or executed, absolute, outside the project at `root`, the
/// system's directories, loopgate's `home` and what the run wrote itself (a build output is no input).
pub(crate) fn candidates(events: &[Event], root: &Path, home: &Path) -> Vec<PathBuf> {
    let written: HashSet<&Path> = events
        .iter()
        .filter(|e| e.access == Access::Wrote)
        .map(|e| e.path.as_path())
        .collect();
    let roots = [root.to_path_buf(), crate::plane::resolve(root)];
    let homes = [home.to_path_buf(), crate::plane::resolve(home)];
    let mut paths: Vec<PathBuf> = events
        .iter()
        .filter(|e| matches!(e.access, Access::Read | Access::Executed))
        .map(|e| e.path.clone())
        .filter(|path| {
            path.is_absolute()
                && !roots.iter().chain(&homes).any(|r| path.starts_with(r))
                && !SYSTEM.iter().any(|s| path.starts_with(s))
                && !path.ancestors().any(|a| written.contains(a))
        })
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

impl Snapshot {
    /// Holds each of `paths` that exists and this user can change (see the module doc), its content stored in
    /// `store` (the snapshot's directory). A path that is gone, unreadable or not a file is skipped: the run did
    /// not read it as a file, or it is not there to hold.
    pub(crate) fn take(paths: &[PathBuf], store: &Path, root: &Path) -> io::Result<Snapshot> {
        let objects = objects::Objects::open(store)?;
        let mut snapshot = Snapshot::default();
        let mut seen = HashSet::new();
        let at = Holding {
            objects: &objects,
            root,
            store,
            stores: stores::Memo::default(),
        };
        for path in paths {
            snapshot.hold(path, &at, &mut seen, 0)?;
        }
        Ok(snapshot)
    }

    fn hold(&mut self, path: &Path, at: &Holding, seen: &mut HashSet<PathBuf>, depth: usize) -> io::Result<()> {
        let root = at.root;
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return Ok(());
        };
        if depth > MAX_LINKS || !seen.insert(path.to_path_buf()) {
            return Ok(());
        }
        // Each link on the way is held as a link; the file itself at its real path.
        for above in parent.ancestors() {
            if seen.contains(above) || above.parent().is_none() {
                continue;
            }
            seen.insert(above.to_path_buf());
            if let Ok(target) = std::fs::read_link(above)
                && changeable(above)
                && outside(above, root)
            {
                self.insert(above, Entry::Link { target });
            }
        }
        let Ok(real_parent) = parent.canonicalize() else {
            return Ok(());
        };
        let real = real_parent.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&real) else {
            return Ok(());
        };
        if !outside(&real, root) || !changeable(&real) {
            return Ok(());
        }
        if meta.file_type().is_symlink() {
            let Ok(target) = std::fs::read_link(&real) else {
                return Ok(());
            };
            self.insert(&real, Entry::Link { target: target.clone() });
            return self.hold(&real_parent.join(target), at, seen, depth + 1);
        }
        if !meta.is_file() {
            return Ok(());
        }
        // A file in a directory that holds the project or the store is bound, not overlaid: a copy (see `put`).
        // Only a package manager's file may be linked: anything else honest work may edit in place ([`stores`]).
        let bound = [root, at.store].iter().any(|held| held.starts_with(&real_parent));
        let may_link = !bound && stores::installed(&real, &at.stores);
        if let Some(entry) = at.objects.put(&real, &meta, may_link)? {
            self.insert(&real, entry);
        }
        Ok(())
    }

    fn insert(&mut self, path: &Path, entry: Entry) {
        if let Some(key) = path.to_str() {
            self.files.insert(key.to_string(), entry);
        }
    }

    /// The held paths whose content the run cannot be shown as the baseline read it: those not `presented` (the
    /// run reads the snapshot there, whatever is on disk) that differ now from what the baseline read (by stat,
    /// then by content), and those presented from a linked object in `store` that no longer holds the bytes its
    /// name says (the user's file edited in place, [`objects::Objects::intact`]; `seen`: the stats at which each
    /// was last found intact). A copy or a reflink in the store is the store's: nothing the agent runs can write it.
    pub(crate) fn changed(&self, presented: &HashSet<&Path>, store: &Path, seen: &mut objects::Seen) -> Vec<String> {
        let objects = objects::Objects::open(store).ok();
        self.files
            .iter()
            .filter(|(path, entry)| {
                let path = Path::new(path.as_str());
                if !presented.contains(path) {
                    return differs(path, entry);
                }
                match (entry.key().filter(|key| key.linked.is_some()), &objects) {
                    (Some(key), Some(objects)) => !objects.intact(key, seen),
                    (Some(_), None) => true,
                    (None, _) => false,
                }
            })
            .map(|(path, _)| path.clone())
            .collect()
    }
}

impl Snapshot {
    /// The objects in `store` that are hard links to the user's files, each with the path it holds: what an edit
    /// in place of that file reaches (see [`objects`]).
    pub(crate) fn linked(&self, store: &Path) -> Vec<(PathBuf, String)> {
        let Ok(objects) = objects::Objects::open(store) else {
            return Vec::new();
        };
        self.files
            .iter()
            .filter_map(|(path, entry)| {
                let key = entry.key().filter(|key| key.linked.is_some())?;
                Some((objects.object(key).ok()?, path.clone()))
            })
            .collect()
    }
}

/// Where [`Snapshot::take`] holds files: the store's objects, for a project at `root`, the store at `store`.
struct Holding<'a> {
    objects: &'a objects::Objects,
    root: &'a Path,
    store: &'a Path,
    /// What was read of the package managers' records, for [`stores::installed`].
    stores: stores::Memo,
}

/// Whether `path` no longer holds what `entry` held.
fn differs(path: &Path, entry: &Entry) -> bool {
    match entry {
        Entry::Link { target } => std::fs::read_link(path).ok().as_ref() != Some(target),
        Entry::Large { stat } => std::fs::symlink_metadata(path).map_or(true, |meta| {
            let now = Stat::of(&meta);
            !meta.is_file() || (now.size, now.mtime, now.ino) != (stat.size, stat.mtime, stat.ino)
        }),
        Entry::File { digest, mode, stat, .. } => {
            let Ok(meta) = std::fs::symlink_metadata(path) else {
                return true;
            };
            if !meta.is_file() || meta.mode() & 0o7777 != *mode {
                return true;
            }
            Stat::of(&meta) != *stat && objects::digest_of(path).map_or(true, |now| now != *digest)
        }
    }
}

/// Whether the agent could change `path`: it, or the directory holding it, is this user's.
fn changeable(path: &Path) -> bool {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let owned = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.uid() == uid);
    owned(path) || path.parent().is_some_and(owned)
}

/// Whether `path` lies outside the project at `root` and the system's directories.
fn outside(path: &Path, root: &Path) -> bool {
    !path.starts_with(root) && !SYSTEM.iter().any(|s| path.starts_with(s))
}
