//! A cheap fingerprint of the working tree, taken at every stop, so loopgate can tell "the agent changed
//! something" from "the agent is going round in circles" without reading file contents.
//!
//! In a git work tree: `HEAD`'s id plus, for every path `git status` reports (modified, staged, untracked), its
//! status, size and modification time — one `git status --porcelain=v2 --branch` process (its `branch.oid` header
//! is `HEAD`'s id), whose index stat cache keeps it fast on large repositories. When the fingerprint changed, the
//! stop also records `git diff --shortstat`; [`observe`] starts that process alongside `git status` rather than
//! after it, and kills it unread when nothing changed, so a stop waits for one git process, not two or three. Elsewhere: the size and modification time of every file under the root, walked in order and
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
    git(root, DIFF_STAT).map(|out| shortstat_text(&out))
}

/// The fingerprint, and the `git diff --shortstat` line when the fingerprint differs from `previous` (`None`
/// outside git). Same results as [`probe`] then [`diff_stat`], in about the time of one git process: the diff runs
/// side by side with `git status` and is killed unread when nothing changed.
pub fn observe(root: &Path, previous: Option<&str>) -> (Probe, Option<String>) {
    let diff = spawn_git(root, DIFF_STAT).ok();
    let probe = probe(root);
    let changed = previous != Some(probe.fingerprint.as_str());
    let stat = diff.and_then(|mut child| {
        if !changed || probe.method != Method::Git {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        let out = child.wait_with_output().ok()?;
        out.status.success().then(|| shortstat_text(&out.stdout))
    });
    (probe, stat)
}

const DIFF_STAT: &[&str] = &["diff", "--shortstat", "HEAD", "--", ".", ":(exclude).claude"];

fn shortstat_text(out: &[u8]) -> String {
    let text = String::from_utf8_lossy(out).trim().to_string();
    if text.is_empty() {
        "no changes against HEAD".to_string()
    } else {
        text
    }
}

fn git_fingerprint(root: &Path) -> Option<String> {
    let status = git(
        root,
        &[
            "status",
            "--porcelain=v2",
            "--branch",
            "-z",
            "--untracked-files=all",
            "--",
            ".",
            ":(exclude).claude",
        ],
    )?;
    let mut hasher = Sha256::new();
    let mut items = status.split(|&b| b == 0).filter(|item| !item.is_empty());
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
        let Some(path) = changed_path(item) else { continue };
        if let Ok(meta) = std::fs::symlink_metadata(root.join(String::from_utf8_lossy(path).as_ref())) {
            hash_meta(&mut hasher, &meta);
        }
    }
    Some(fsutil::hex(&hasher.finalize())[..16].to_string())
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

fn git_command(root: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("git");
    cmd.args(args)
        .current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

fn spawn_git(root: &Path, args: &[&str]) -> std::io::Result<std::process::Child> {
    git_command(root, args).stdout(Stdio::piped()).spawn()
}

fn git(root: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = git_command(root, args).output().ok()?;
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
        let third = probe(root);
        assert_ne!(third, second);
        assert!(diff_stat(root).is_some());
        run(root, &["add", "a.txt"]);
        let staged = probe(root);
        assert_ne!(staged, third, "staging is a change");
        run(
            root,
            &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "1"],
        );
        assert_ne!(probe(root), staged, "a commit moves HEAD");
        run(root, &["mv", "a.txt", "b c.txt"]);
        let renamed = probe(root);
        assert_eq!(probe(root), renamed, "stable with a rename staged");
        std::fs::write(root.join("b c.txt"), "33").expect("write");
        assert_ne!(
            probe(root),
            renamed,
            "a renamed file (with a space in its name) is still watched"
        );
    }

    #[test]
    fn observe_takes_the_diff_only_when_the_tree_changed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        run(root, &["init", "-q"]);
        std::fs::write(root.join("a.txt"), "1\n").expect("write");
        run(root, &["add", "a.txt"]);
        run(
            root,
            &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "0"],
        );
        std::fs::write(root.join("a.txt"), "1\n2\n").expect("write");
        let (first, stat) = observe(root, None);
        assert_eq!(first, probe(root));
        assert_eq!(stat.as_deref(), Some("1 file changed, 1 insertion(+)"));
        let (again, stat) = observe(root, Some(&first.fingerprint));
        assert_eq!((again, stat), (first, None), "nothing changed: no diff");
        let plain = tempfile::tempdir().expect("tempdir");
        let (outside, stat) = observe(plain.path(), None);
        assert_eq!((outside.method, stat), (Method::Metadata, None));
    }
}
