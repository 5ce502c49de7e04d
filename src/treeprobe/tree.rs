//! The in-process fingerprint of a git work tree: what `git status` would tell, without starting git.
//!
//! - **HEAD and the index's content**: `HEAD`'s commit id, and each index entry's path, mode, object id and
//!   stage — so a commit or a `git add` is a change, but git refreshing its stat cache is not.
//! - **Tracked files**, as git checks them: each file's `lstat` against the stat data the index cached
//!   (mtime, ctime, size, inode, owner, mode). A match means clean — unless the entry is *racy* (modified in
//!   the same instant the index was written, so a later edit could leave the same stat data), in which case,
//!   as for a mismatch, the file's content is hashed as a git blob and compared with the index's object id.
//!   Equal is clean (an edit undone, a `touch`); different, or too big to hash (over 4 MiB, or past 32 MiB
//!   hashed in one probe), adds the file's stat data to the fingerprint, so every further edit changes it.
//! - **Untracked files** that are not ignored (`.gitignore` files, `.git/info/exclude`, the global excludes
//!   file, matched as git does with the `ignore` crate's gitignore matcher): each one's path and stat data.
//!
//! Clean files add nothing but their index entry, so the fingerprint is stable while nothing changes. Only the
//! project root's subtree counts, and never its `.claude/` directory (loopgate's own files). Submodules are
//! taken as they are recorded (their inner changes are not looked at); a nested repository that is not a
//! submodule counts by its path only, as `git status` shows it.

use std::fs::{self, Metadata};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use sha1::Digest as _;
use sha2::Sha256;

use super::index::{self, Entry};
use super::repo::Repo;
use super::untracked::untracked;
use super::{Changes, Dirty};

/// Files up to this size are hashed when their stat data cannot vouch for them; bigger ones count by stat.
const HASH_LIMIT: u64 = 4 * 1024 * 1024;
/// At most this many bytes are hashed per probe (on each thread); past it, changed files count by stat.
const HASH_BUDGET: u64 = 32 * 1024 * 1024;
/// Index entries above which the `lstat`s are spread over threads.
const PARALLEL_FROM: usize = 4096;
/// Threads for the `lstat`s of a large index.
const THREADS: usize = 4;

const MODE_TYPE: u32 = 0o170_000;
const MODE_LINK: u32 = 0o120_000;
const MODE_GITLINK: u32 = 0o160_000;
const MODE_FILE: u32 = 0o100_000;

/// What one tracked file looks like next to its index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Worktree {
    Clean,
    Deleted,
    /// Changed (or not provably unchanged): its stat data goes into the fingerprint.
    Changed(Stat),
}

/// The stat data that identifies one version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stat {
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    ino: u64,
    mode: u32,
}

impl Stat {
    pub(super) fn of(meta: &Metadata) -> Stat {
        Stat {
            size: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
            mode: meta.mode(),
        }
    }

    fn hash_into(&self, hasher: &mut Sha256) {
        for value in [self.mtime.0, self.mtime.1, self.ctime.0, self.ctime.1] {
            hasher.update(value.to_le_bytes());
        }
        hasher.update(self.size.to_le_bytes());
        hasher.update(self.ino.to_le_bytes());
        hasher.update(self.mode.to_le_bytes());
    }
}

/// Fingerprints the project in `repo`, with the paths found dirty; `None` when the index cannot be read by
/// [`index::parse`] (the caller then falls back to file metadata).
pub(super) fn fingerprint(repo: &Repo) -> Option<(String, Changes, Dirty)> {
    let index_path = repo.git_dir.join("index");
    let (entries, index_mtime) = match fs::read(&index_path) {
        Ok(data) => {
            let mtime = fs::metadata(&index_path).ok().map(|m| (m.mtime(), m.mtime_nsec()))?;
            (index::parse(&data)?.entries, mtime)
        }
        // A repository without an index yet (nothing was ever added) has no tracked files.
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => (Vec::new(), (0, 0)),
        Err(_) => return None,
    };
    let own = [repo.prefix.as_slice(), b".claude/"].concat();
    let entries: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.path.starts_with(&repo.prefix) && !e.path.starts_with(&own))
        .collect();
    // The two halves are system calls (an `lstat` per tracked file, a `readdir` per directory): run them side by
    // side, the walk on a thread of its own — except in a small repository, where starting the thread costs more
    // than it saves (it showed up on every stop of the default configuration).
    let tracked: Vec<&[u8]> = entries.iter().map(|e| e.path.as_slice()).collect();
    let (states, untracked) = if entries.len() < PARALLEL_FROM {
        (
            check_all(&repo.work_tree, &entries, index_mtime),
            untracked(repo, &tracked),
        )
    } else {
        std::thread::scope(|scope| {
            let walk = scope.spawn(|| untracked(repo, &tracked));
            let states = check_all(&repo.work_tree, &entries, index_mtime);
            (states, walk.join().unwrap_or_default())
        })
    };

    let mut hasher = Sha256::new();
    hasher.update(b"loopgate-git-1\0");
    hasher.update(repo.head()?.as_bytes());
    let mut changes = Changes::default();
    let mut dirty = Dirty {
        index: index_path.clone(),
        prefix: repo.prefix.clone(),
        paths: Vec::new(),
    };
    for (entry, state) in entries.iter().zip(&states) {
        let gitlink = entry.mode & MODE_TYPE == MODE_GITLINK;
        if gitlink || *state != Worktree::Clean {
            // A submodule's checked-out commit is not read here: `git update-index` reads it.
            dirty.paths.push(entry.path.clone());
        }
        hasher.update([0, entry.stage]);
        hasher.update(&entry.path);
        hasher.update(entry.mode.to_le_bytes());
        hasher.update(entry.oid);
        match state {
            Worktree::Clean => hasher.update([0]),
            Worktree::Deleted => {
                hasher.update([1]);
                changes.deleted += 1;
            }
            Worktree::Changed(stat) => {
                hasher.update([2]);
                stat.hash_into(&mut hasher);
                if entry.intent_to_add {
                    changes.added += 1;
                } else {
                    changes.modified += 1;
                }
            }
        }
    }
    for (path, stat) in untracked {
        hasher.update([3]);
        hasher.update(&path);
        hasher.update([0]);
        if let Some(stat) = stat {
            stat.hash_into(&mut hasher);
        }
        changes.added += 1;
        dirty.paths.push(path);
    }
    dirty.paths.dedup();
    let fingerprint = crate::fsutil::hex(&hasher.finalize())[..16].to_string();
    Some((fingerprint, changes, dirty))
}

/// Checks every entry against the work tree, on several threads when there are many.
fn check_all(work_tree: &Path, entries: &[&Entry], index_mtime: (i64, i64)) -> Vec<Worktree> {
    if entries.len() < PARALLEL_FROM {
        let mut budget = HASH_BUDGET;
        return entries
            .iter()
            .map(|e| check(work_tree, e, index_mtime, &mut budget))
            .collect();
    }
    let chunk = entries.len().div_ceil(THREADS);
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut budget = HASH_BUDGET;
                    part.iter()
                        .map(|e| check(work_tree, e, index_mtime, &mut budget))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// One tracked file next to its index entry, the way git's `ie_match_stat` decides.
fn check(work_tree: &Path, entry: &Entry, index_mtime: (i64, i64), budget: &mut u64) -> Worktree {
    if entry.skip {
        return Worktree::Clean;
    }
    let path = work_tree.join(bytes_path(&entry.path));
    let Ok(meta) = fs::symlink_metadata(&path) else {
        return Worktree::Deleted;
    };
    if entry.mode & MODE_TYPE == MODE_GITLINK {
        return if meta.is_dir() {
            Worktree::Clean
        } else {
            Worktree::Changed(Stat::of(&meta))
        };
    }
    if entry.stage != 0 || entry.intent_to_add || worktree_mode(&meta) != Some(entry.mode) {
        return Worktree::Changed(Stat::of(&meta));
    }
    let racy = (i64::from(entry.mtime.0), i64::from(entry.mtime.1)) >= index_mtime;
    if stat_matches(entry, &meta) && !racy {
        return Worktree::Clean;
    }
    if meta.len() <= HASH_LIMIT.min(*budget) {
        *budget -= meta.len();
        if blob_id(&path, &meta).is_some_and(|oid| oid == entry.oid) {
            return Worktree::Clean;
        }
    }
    Worktree::Changed(Stat::of(&meta))
}

/// The index mode git would record for this file: a symlink, or a regular file with or without its
/// executable bit; `None` for anything else (a directory where a file was).
fn worktree_mode(meta: &Metadata) -> Option<u32> {
    let kind = meta.file_type();
    if kind.is_symlink() {
        Some(MODE_LINK)
    } else if kind.is_file() {
        Some(MODE_FILE | if meta.mode() & 0o100 != 0 { 0o755 } else { 0o644 })
    } else {
        None
    }
}

/// Git's stat check: times (nanoseconds only when the index has them), size, inode and owner.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // the index keeps the low 32 bits of each
fn stat_matches(entry: &Entry, meta: &Metadata) -> bool {
    let time = |cached: (u32, u32), secs: i64, nanos: i64| {
        cached.0 == secs as u32 && (cached.1 == 0 || cached.1 == nanos as u32)
    };
    time(entry.mtime, meta.mtime(), meta.mtime_nsec())
        && time(entry.ctime, meta.ctime(), meta.ctime_nsec())
        && entry.size == meta.len() as u32
        && entry.ino == meta.ino() as u32
        && entry.uid == meta.uid()
        && entry.gid == meta.gid()
}

/// The git blob id of a file's content (or a symlink's target): SHA-1 of `blob LEN\0` and the bytes.
fn blob_id(path: &Path, meta: &Metadata) -> Option<[u8; 20]> {
    let content = if meta.file_type().is_symlink() {
        fs::read_link(path).ok()?.into_os_string().into_encoded_bytes()
    } else {
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).ok()?);
        fs::File::open(path).ok()?.read_to_end(&mut bytes).ok()?;
        bytes
    };
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", content.len()).as_bytes());
    hasher.update(&content);
    Some(hasher.finalize().into())
}

pub(super) fn bytes_path(bytes: &[u8]) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(bytes))
}
