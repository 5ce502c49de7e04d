//! Taking a checkpoint: the working tree (tracked and untracked files, not ignored ones, not `.claude/`) as a
//! commit under `refs/loopgate/…`, through the private index:
//!
//! `git add -A` into the private index → `git write-tree` → `git commit-tree -p HEAD` → `git update-ref`.
//!
//! At a stop the in-process progress probe has just listed the paths that differ from the user's index
//! ([`Dirty`]), so the stop's checkpoint skips the scan: the private index becomes a copy of the user's index,
//! `git update-index --add --remove --replace` re-stages exactly those paths, and the tree is the one `git add
//! -A` would have written (files the probe found clean are, by git's own stat check or by content, what the
//! index holds). Any failure on that path falls back to `git add -A`.
//!
//! The private index starts as a copy of the user's index, so its stat cache is warm from the first checkpoint on:
//! `git add -A` re-reads only files whose size or time changed, as `git status` does. It lives at
//! `.claude/loopgate/checkpoint-index` and is only used under the project lock. Any trouble with it (a stale
//! lock, a format git cannot read) is answered by starting a fresh one, at the cost of hashing every file once.

use std::path::Path;

use super::git::{Git, GitError, PATHSPEC};
use crate::treeprobe::Dirty;

/// Commits the working tree and points `refname` at it; returns the commit id. `dirty`: what a progress probe
/// just found differing from the user's index, if one was taken ([`tree`]).
pub fn take(git: &Git, dirty: Option<&Dirty>, refname: &str, message: &str) -> Result<String, GitError> {
    let tree = tree(git, dirty)?;
    let commit = commit(git, &tree, message)?;
    set_ref(git, refname, &commit)?;
    Ok(commit)
}

/// The working tree as a tree object: from `dirty`'s paths on a copy of the user's index where a probe listed
/// them ([`write_tree_from`]), else by `git add -A` ([`write_tree`]).
pub(crate) fn tree(git: &Git, dirty: Option<&Dirty>) -> Result<String, GitError> {
    match dirty {
        Some(dirty) => write_tree_from(git, dirty),
        None => write_tree(git),
    }
}

/// The working tree as a tree object (written to the object store, named by nothing).
pub(crate) fn write_tree(git: &Git) -> Result<String, GitError> {
    prepare_index(git)?;
    let add = |git: &Git| git.run(&[&["add", "-A"][..], &PATHSPEC[..]].concat());
    if add(git).is_err() {
        // Start over from an empty index: slower once, never stuck.
        let _ = crate::fsutil::remove_file(git.index());
        add(git)?;
    }
    git.text(&["write-tree"])
}

/// The working tree as a tree object, re-staging only `dirty`'s paths on a copy of the user's index; `git add
/// -A` ([`write_tree`]) when that fails.
pub(crate) fn write_tree_from(git: &Git, dirty: &Dirty) -> Result<String, GitError> {
    staged_tree(git, dirty).or_else(|_| write_tree(git))
}

/// The fast path of [`write_tree_from`], without its fallback: a copy of the user's index, `dirty`'s paths
/// re-staged, `git write-tree`.
pub(crate) fn staged_tree(git: &Git, dirty: &Dirty) -> Result<String, GitError> {
    let index = git.index();
    index_dir(index)?;
    let _ = crate::fsutil::remove_file(&index.with_file_name("checkpoint-index.lock"));
    // No index yet (nothing was ever added): an empty private index.
    let copied = if dirty.index.exists() {
        copy_index(&dirty.index, index)
    } else {
        crate::fsutil::remove_file(index).or_else(|err| match err.kind() {
            std::io::ErrorKind::NotFound => Ok(()),
            _ => Err(err),
        })
    };
    copied.map_err(|err| GitError {
        command: "update-index".to_string(),
        detail: format!(
            "cannot copy `{}` to `{}`: {err}",
            dirty.index.display(),
            index.display()
        ),
    })?;
    // Relative to the project root, where git runs.
    let input: Vec<u8> = dirty
        .paths
        .iter()
        .filter_map(|path| path.strip_prefix(dirty.prefix.as_slice()))
        .flat_map(|path| path.iter().copied().chain([0]))
        .collect();
    if !input.is_empty() {
        git.run_with_input(
            &["update-index", "--add", "--remove", "--replace", "-z", "--stdin"],
            input,
        )?;
    }
    git.text(&["write-tree"])
}

/// A commit of `tree` whose parent is `HEAD` (none in a repository without commits yet).
pub(crate) fn commit(git: &Git, tree: &str, message: &str) -> Result<String, GitError> {
    git.text(&["commit-tree", "--no-gpg-sign", "-p", "HEAD", "-m", message, tree])
        .or_else(|_| git.text(&["commit-tree", "--no-gpg-sign", "-m", message, tree]))
}

/// Points `refname` at `commit`.
pub(crate) fn set_ref(git: &Git, refname: &str, commit: &str) -> Result<(), GitError> {
    git.run(&["update-ref", refname, commit]).map(drop)
}

/// Points each `(refname, commit)` at its commit, in one `git update-ref --stdin`.
pub(crate) fn set_refs(git: &Git, refs: &[(String, String)]) -> Result<(), GitError> {
    let input: String = refs
        .iter()
        .map(|(refname, commit)| format!("update {refname} {commit}\n"))
        .collect();
    git.run_with_input(&["update-ref", "--stdin"], input.into_bytes())
        .map(drop)
}

/// Makes sure the private index exists, seeded from the user's index (for its stat cache), without a lock left
/// behind by a killed process (safe: callers hold the project lock, so no other loopgate process uses it).
fn prepare_index(git: &Git) -> Result<(), GitError> {
    let index = git.index();
    index_dir(index)?;
    let _ = crate::fsutil::remove_file(&index.with_file_name("checkpoint-index.lock"));
    if std::fs::symlink_metadata(index).is_ok() {
        return Ok(());
    }
    let Ok(path) = git.user(&["rev-parse", "--git-path", "index"]) else {
        return Ok(());
    };
    let path = git.root().join(String::from_utf8_lossy(&path).trim());
    let _ = copy_index(&path, index);
    Ok(())
}

/// Makes the private index's directory (`.claude/loopgate`) without following a link, before git writes there:
/// git writes `checkpoint-index.lock` and renames it over the index (neither follows a link at those names),
/// but it reaches the directory by its path, so a link planted in place of it is refused here first.
fn index_dir(index: &Path) -> Result<(), GitError> {
    let Some(dir) = index.parent() else { return Ok(()) };
    crate::fsutil::create_dirs(dir).map_err(|err| GitError {
        command: "update-index".to_string(),
        detail: format!("cannot use `{}`: {err}", dir.display()),
    })
}

/// Copies the user's index to `to` with its modification time: git trusts an entry's stat data only when the
/// entry is older than the index file ("racy git"), so a copy dated now would vouch for a file changed in the
/// same instant the user's index was written.
pub(super) fn copy_index(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::io::Write;
    let bytes = std::fs::read(from)?;
    let modified = std::fs::metadata(from)?.modified()?;
    // A new file renamed over the copy, in a directory reached without following links: a link planted at
    // `checkpoint-index` is replaced, never written through (see `fsutil::nofollow`).
    let (dir, name) = crate::fsutil::nofollow::parent_of(to, true)?;
    let (mut file, tmp) = dir.temp(&name, 0o644)?;
    let written = file
        .write_all(&bytes)
        .and_then(|()| file.set_modified(modified))
        .and_then(|()| dir.rename(&tmp, &name));
    if written.is_err() {
        let _ = dir.remove(&tmp);
    }
    written
}
