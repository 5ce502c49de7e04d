//! A cheap fingerprint of the working tree, taken at every stop, so loopgate can tell "the agent changed
//! something" from "the agent is going round in circles" without reading file contents.
//!
//! One probe, in two forms. In a git work tree the fingerprint is what `git status` would report, computed in
//! process from git's own files (`tree`: the index's stat cache, `HEAD`, the ignore rules): no git process, so a
//! stop stays within a couple of milliseconds. Everywhere else — outside git, and in a repository that reader
//! cannot vouch for (a split or sparse index, SHA-256 ids, the reftable ref store, `GIT_DIR`-style variables;
//! see `repo` and `index`) — it is the size and modification time of every file under the root, walked in
//! order, skipping `.git`, `.claude`, `target` and `node_modules` (build output and loopgate's own files are not
//! progress). `.claude/` is excluded everywhere, so loopgate's own writes never look like progress.
//!
//! There used to be a third form, one `git status` process for the repositories the reader does not support.
//! It went (issue 19, figures in `BENCHMARKS.md`): one process per stop was 5× slower than the reader on a
//! 50-file tree and level with it at 2,000–5,000 files, and the reader sees edits `git status` misses (a
//! same-size rewrite with the modification time set back, in the second of the index's refresh). `git status`
//! stays in the tests, as the reader's oracle.
//!
//! With the fingerprint comes a one-line summary of the uncommitted work ([`Changes`]: files modified,
//! new and deleted against the index), which the history records at a stop that changed the tree.
//!
//! Not the loop's progress (`state::LoopProgress`, the counters the stops keep) nor the live line of a verify run
//! (`verify::liveline`): this is the probe of the working tree.

mod index;
mod repo;
#[cfg(test)]
mod tests;
mod tree;
mod untracked;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::fsutil;
use crate::walk::{self, Walker};

/// The metadata fallback's walk: in name order (the fingerprint hashes the files in the order met), links not
/// followed (a link counts by its own metadata), never into `.git`, `.claude`, `target` or `node_modules`.
const METADATA_WALK: Walker = Walker::skipping(&[".git", ".claude", "target", "node_modules"]).sorted();
/// Most files the metadata fallback looks at; past that the fingerprint covers only the first ones in order.
const MAX_FILES: usize = 200_000;

/// How the fingerprint was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// In process, from the git index and the work tree.
    Git,
    /// File metadata: outside git, or in a repository the in-process reader does not support.
    Metadata,
}

/// The working tree's fingerprint (16 hex digits) and how it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub fingerprint: String,
    pub method: Method,
    /// The paths found dirty, when taken in process ([`Method::Git`]).
    pub dirty: Option<Dirty>,
}

/// What the in-process probe found differing from the user's git index, so a checkpoint can re-stage just
/// those paths on a copy of that index (what `git add -A` would do, without scanning every file again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dirty {
    /// The index file the probe read (it may not exist yet, in a repository where nothing was ever added).
    pub index: PathBuf,
    /// The project root in the work tree: `/`-separated, empty or ending in `/`.
    pub prefix: Vec<u8>,
    /// Paths from the work tree's root, sorted, under the prefix and outside its `.claude/`: tracked files
    /// modified, deleted, unmerged or intent-to-add, every submodule (its checked-out commit is not read),
    /// and untracked files that are not ignored.
    pub paths: Vec<Vec<u8>>,
}

/// Uncommitted work against the git index: what `git status` lists as not staged, plus untracked files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Tracked files whose content (or mode) differs from the index.
    pub modified: u64,
    /// Untracked files that are not ignored, and intent-to-add ones.
    pub added: u64,
    /// Tracked files missing from the work tree.
    pub deleted: u64,
}

impl Changes {
    /// `3 files changed: 1 modified, 1 new, 1 deleted` (zero parts left out), or `no unstaged changes`.
    pub fn summary(&self) -> String {
        let total = self.modified + self.added + self.deleted;
        if total == 0 {
            return "no unstaged changes".to_string();
        }
        let parts: Vec<String> = [
            (self.modified, "modified"),
            (self.added, "new"),
            (self.deleted, "deleted"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        let files = if total == 1 { "file" } else { "files" };
        format!("{total} {files} changed: {}", parts.join(", "))
    }
}

/// Fingerprints the working tree under `root`.
pub fn probe(root: &Path) -> Probe {
    take(root).0
}

/// The fingerprint, and the summary of uncommitted work when the fingerprint differs from `previous` (`None`
/// outside git, and when nothing changed).
pub fn probe_since(root: &Path, previous: Option<&str>) -> (Probe, Option<String>) {
    let (probe, changes) = take(root);
    let summary = changes
        .filter(|_| previous != Some(probe.fingerprint.as_str()))
        .map(|c| c.summary());
    (probe, summary)
}

fn take(root: &Path) -> (Probe, Option<Changes>) {
    let in_process = repo::find(root).and_then(|repo| tree::fingerprint(&repo));
    if let Some((fingerprint, changes, dirty)) = in_process {
        let probe = Probe {
            fingerprint,
            method: Method::Git,
            dirty: Some(dirty),
        };
        return (probe, Some(changes));
    }
    let probe = Probe {
        fingerprint: metadata_fingerprint(root),
        method: Method::Metadata,
        dirty: None,
    };
    (probe, None)
}

fn metadata_fingerprint(root: &Path) -> String {
    let mut hasher = Sha256::new();
    let mut seen = 0;
    let _ = METADATA_WALK.walk(root, |entry| {
        seen += 1;
        let path = entry.path;
        hasher.update(path.strip_prefix(root).unwrap_or(path).as_os_str().as_encoded_bytes());
        if let Ok(meta) = entry.metadata() {
            hash_meta(&mut hasher, &meta);
        }
        Ok(walk::until(seen >= MAX_FILES))
    });
    fsutil::hex(&hasher.finalize())[..16].to_string()
}

fn hash_meta(hasher: &mut Sha256, meta: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    hasher.update(meta.len().to_le_bytes());
    hasher.update(meta.mtime().to_le_bytes());
    hasher.update(meta.mtime_nsec().to_le_bytes());
}
