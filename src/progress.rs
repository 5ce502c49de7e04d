//! A cheap fingerprint of the working tree, taken at every stop, so loopgate can tell "the agent changed
//! something" from "the agent is going round in circles" without reading file contents.
//!
//! In a git work tree the fingerprint is what `git status` would report, computed in process from git's own
//! files (`tree`: the index's stat cache, `HEAD`, the ignore rules): no git process, so a stop stays within a
//! couple of milliseconds. A repository that reader cannot vouch for (a split or sparse index, SHA-256 ids, the
//! reftable ref store, `GIT_DIR`-style variables; see `repo` and `index`) is asked with one
//! `git status --porcelain=v2` process instead, as before. Outside git: the size and modification time of every
//! file under the root, walked in order, skipping `.git`, `.claude`, `target` and `node_modules` (build output
//! and loopgate's own files are not progress). `.claude/` is excluded everywhere, so loopgate's own writes
//! never look like progress.
//!
//! With the fingerprint comes a one-line summary of the uncommitted work ([`Changes`]: files modified,
//! new and deleted against the index), which the history records at a stop that changed the tree.

mod index;
mod repo;
#[cfg(test)]
mod tests;
mod tree;
mod untracked;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

use crate::fsutil;

/// Directories never walked by the metadata fallback.
const SKIPPED: &[&str] = &[".git", ".claude", "target", "node_modules"];
/// Most files the metadata fallback looks at; past that the fingerprint covers only the first ones in order.
const MAX_FILES: usize = 200_000;

/// How the fingerprint was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// In process, from the git index and the work tree.
    Git,
    /// By a `git status` process (a repository the in-process reader does not support).
    GitStatus,
    /// File metadata, outside git.
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
pub fn observe(root: &Path, previous: Option<&str>) -> (Probe, Option<String>) {
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
    let (fingerprint, changes, method) = match git_status_fingerprint(root) {
        Some((fingerprint, changes)) => (fingerprint, Some(changes), Method::GitStatus),
        None => (metadata_fingerprint(root), None, Method::Metadata),
    };
    let probe = Probe {
        fingerprint,
        method,
        dirty: None,
    };
    (probe, changes)
}

/// The fingerprint by `git status`: `HEAD`'s id plus, for every path it reports, its status line, size and
/// modification time.
fn git_status_fingerprint(root: &Path) -> Option<(String, Changes)> {
    let out = Command::new("git")
        .args([
            "status",
            "--porcelain=v2",
            "--branch",
            "-z",
            "--untracked-files=all",
            "--",
            ".",
            ":(exclude).claude",
        ])
        .current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let mut hasher = Sha256::new();
    let mut changes = Changes::default();
    let mut items = out.stdout.split(|&b| b == 0).filter(|item| !item.is_empty());
    while let Some(item) = items.next() {
        // Of the headers only `HEAD`'s id counts: the branch name or its distance to upstream is not progress.
        if item.starts_with(b"# ") {
            if item.starts_with(b"# branch.oid ") {
                hasher.update(item);
            }
            continue;
        }
        hasher.update(item);
        hasher.update([0]);
        // A rename or copy (`2 …`) is followed by its original path as the next item.
        if item.starts_with(b"2 ") {
            hasher.update(items.next().unwrap_or_default());
        }
        count(item, &mut changes);
        let Some(path) = changed_path(item) else { continue };
        if let Ok(meta) = std::fs::symlink_metadata(root.join(String::from_utf8_lossy(path).as_ref())) {
            hash_meta(&mut hasher, &meta);
        }
    }
    Some((fsutil::hex(&hasher.finalize())[..16].to_string(), changes))
}

/// Counts one `git status --porcelain=v2` entry: its work-tree column (`1 XY …`), or an untracked `?`.
fn count(item: &[u8], changes: &mut Changes) {
    match (item.first(), item.get(3)) {
        (Some(b'?'), _) | (Some(b'1'), Some(b'A')) => changes.added += 1,
        (Some(b'1' | b'2' | b'u'), Some(b'D')) => changes.deleted += 1,
        (Some(b'1' | b'2'), Some(b'.')) => {}
        (Some(b'1' | b'2' | b'u'), Some(_)) => changes.modified += 1,
        _ => {}
    }
}

/// The path of a `git status --porcelain=v2` entry: after 8 fields for `1` (changed), 9 for `2` (renamed or
/// copied), 10 for `u` (unmerged), 1 for `?` (untracked) and `!` (ignored).
fn changed_path(item: &[u8]) -> Option<&[u8]> {
    let fields = match item.first()? {
        b'1' => 8,
        b'2' => 9,
        b'u' => 10,
        b'?' | b'!' => 1,
        _ => return None,
    };
    item.splitn(fields + 1, |&b| b == b' ').nth(fields)
}

fn metadata_fingerprint(root: &Path) -> String {
    let mut hasher = Sha256::new();
    let mut seen = 0;
    walk(root, root, &mut hasher, &mut seen);
    fsutil::hex(&hasher.finalize())[..16].to_string()
}

fn walk(root: &Path, dir: &Path, hasher: &mut Sha256, seen: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        if *seen >= MAX_FILES {
            return;
        }
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            if !SKIPPED.iter().any(|s| entry.file_name() == *s) {
                walk(root, &path, hasher, seen);
            }
            continue;
        }
        *seen += 1;
        hasher.update(path.strip_prefix(root).unwrap_or(&path).as_os_str().as_encoded_bytes());
        if let Ok(meta) = entry.metadata() {
            hash_meta(hasher, &meta);
        }
    }
}

fn hash_meta(hasher: &mut Sha256, meta: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    hasher.update(meta.len().to_le_bytes());
    hasher.update(meta.mtime().to_le_bytes());
    hasher.update(meta.mtime_nsec().to_le_bytes());
}
