//! A cheap fingerprint of the working tree, taken at every stop, so loopgate can tell "the agent changed
//! something" from "the agent is going round in circles" without reading file contents.
//!
//! In a git work tree: `HEAD`'s id plus, for every path `git status` reports (modified, staged, untracked), its
//! status, size and modification time — one `git` process, whose index stat cache keeps it fast on large
//! repositories. Elsewhere: the size and modification time of every file under the root, walked in order and
//! skipping `.git`, `.claude`, `target` and `node_modules` (build output and loopgate's own files are not
//! progress). `.claude/` is excluded in both, so loopgate's own writes never look like progress.

use std::path::Path;
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
    Git,
    Metadata,
}

/// The working tree's fingerprint (16 hex digits) and how it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub fingerprint: String,
    pub method: Method,
}

/// Fingerprints the working tree under `root`.
pub fn probe(root: &Path) -> Probe {
    match git_fingerprint(root) {
        Some(fingerprint) => Probe {
            fingerprint,
            method: Method::Git,
        },
        None => Probe {
            fingerprint: metadata_fingerprint(root),
            method: Method::Metadata,
        },
    }
}

/// `git diff --stat HEAD` summary line (e.g. `3 files changed, 12 insertions(+), 4 deletions(-)`), if in git.
pub fn diff_stat(root: &Path) -> Option<String> {
    let out = git(root, &["diff", "--shortstat", "HEAD", "--", ".", ":(exclude).claude"])?;
    let text = String::from_utf8_lossy(&out).trim().to_string();
    Some(if text.is_empty() {
        "no changes against HEAD".to_string()
    } else {
        text
    })
}

fn git_fingerprint(root: &Path) -> Option<String> {
    let status = git(
        root,
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--",
            ".",
            ":(exclude).claude",
        ],
    )?;
    let head = git(root, &["rev-parse", "-q", "--verify", "HEAD"]).unwrap_or_default();
    let mut hasher = Sha256::new();
    hasher.update(&head);
    for entry in status.split(|&b| b == 0).filter(|e| e.len() > 3) {
        hasher.update(entry);
        let path = root.join(String::from_utf8_lossy(&entry[3..]).as_ref());
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            hash_meta(&mut hasher, &meta);
        }
    }
    Some(fsutil::hex(&hasher.finalize())[..16].to_string())
}

fn git(root: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(root: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args(args)
            .current_dir(root)
            .stdout(Stdio::null())
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    }

    #[test]
    fn metadata_probe_sees_changes_but_not_loopgate_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "1").expect("write");
        let first = probe(dir.path());
        assert_eq!(first.method, Method::Metadata);
        std::fs::create_dir_all(dir.path().join(".claude/loopgate")).expect("mkdir");
        std::fs::write(dir.path().join(".claude/pua-loop-history.jsonl"), "{}").expect("write");
        assert_eq!(probe(dir.path()), first, "loopgate's own files are not progress");
        std::fs::write(dir.path().join("a.txt"), "22").expect("write");
        assert_ne!(probe(dir.path()), first);
    }

    #[test]
    fn git_probe_sees_edits_new_files_and_commits() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        run(root, &["init", "-q"]);
        run(
            root,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "0",
            ],
        );
        std::fs::write(root.join("a.txt"), "1").expect("write");
        let first = probe(root);
        assert_eq!(first.method, Method::Git);
        assert_eq!(probe(root), first, "stable when nothing changed");
        std::fs::write(root.join(".claude-not-ignored.txt"), "x").expect("write");
        let second = probe(root);
        assert_ne!(second, first);
        std::fs::create_dir_all(root.join(".claude")).expect("mkdir");
        std::fs::write(root.join(".claude/pua-loop.local.md"), "state").expect("write");
        assert_eq!(probe(root), second, "loopgate's own files are not progress");
        std::fs::write(root.join("a.txt"), "2").expect("write");
        assert_ne!(probe(root), second);
        assert!(diff_stat(root).is_some());
    }
}
