//! Taking a checkpoint: the working tree (tracked and untracked files, not ignored ones, not `.claude/`) as a
//! commit under `refs/loopgate/…`, through the private index:
//!
//! `git add -A` into the private index → `git write-tree` → `git commit-tree -p HEAD` → `git update-ref`.
//!
//! The private index starts as a copy of the user's index, so its stat cache is warm from the first checkpoint on:
//! `git add -A` re-reads only files whose size or time changed, as `git status` does. It lives at
//! `.claude/loopgate/checkpoint-index` and is only used under the project lock. Any trouble with it (a stale
//! lock, a format git cannot read) is answered by starting a fresh one, at the cost of hashing every file once.

use super::git::{Git, GitError, PATHSPEC};

/// Commits the working tree and points `refname` at it; returns the commit id.
pub fn take(git: &Git, refname: &str, message: &str) -> Result<String, GitError> {
    let tree = write_tree(git)?;
    let commit = commit(git, &tree, message)?;
    set_ref(git, refname, &commit)?;
    Ok(commit)
}

/// The working tree as a tree object (written to the object store, named by nothing).
pub fn write_tree(git: &Git) -> Result<String, GitError> {
    prepare_index(git);
    let add = |git: &Git| git.run(&[&["add", "-A"][..], &PATHSPEC[..]].concat());
    if add(git).is_err() {
        // Start over from an empty index: slower once, never stuck.
        let _ = std::fs::remove_file(git.index());
        add(git)?;
    }
    git.text(&["write-tree"])
}

/// A commit of `tree` whose parent is `HEAD` (none in a repository without commits yet).
pub fn commit(git: &Git, tree: &str, message: &str) -> Result<String, GitError> {
    git.text(&["commit-tree", "--no-gpg-sign", "-p", "HEAD", "-m", message, tree])
        .or_else(|_| git.text(&["commit-tree", "--no-gpg-sign", "-m", message, tree]))
}

/// Points `refname` at `commit`.
pub fn set_ref(git: &Git, refname: &str, commit: &str) -> Result<(), GitError> {
    git.run(&["update-ref", refname, commit]).map(drop)
}

/// Makes sure the private index exists, seeded from the user's index (for its stat cache), without a lock left
/// behind by a killed process (safe: callers hold the project lock, so no other loopgate process uses it).
fn prepare_index(git: &Git) {
    let index = git.index();
    let _ = std::fs::remove_file(index.with_file_name("checkpoint-index.lock"));
    if index.exists() {
        return;
    }
    if let Some(dir) = index.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let Ok(path) = git.user(&["rev-parse", "--git-path", "index"]) else {
        return;
    };
    let path = git.root().join(String::from_utf8_lossy(&path).trim());
    let _ = std::fs::copy(path, index);
}
