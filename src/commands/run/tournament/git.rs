//! The git a tournament needs: the repository and commit it starts from, a detached worktree per candidate, a
//! candidate's work committed on its own branch, the size of its diff. Run as plain `git` with the user's own
//! configuration; none of it touches the user's branch, index or working tree.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::checkpoint::GitError;
use crate::error::Error;

/// Runs `git ARGS` in `dir`; trimmed stdout on success.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String, Error> {
    let failed = |detail: String| {
        Error::Git(GitError {
            command: format!("git {}", args.join(" ")),
            detail,
        })
    };
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        return Err(failed(String::from_utf8_lossy(&out.stderr).trim().to_string()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The top of the repository holding `dir`.
pub(crate) fn toplevel(dir: &Path) -> Result<PathBuf, Error> {
    git(dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from)
}

/// Adds a detached worktree of `repo` at `path`, checked out at `commit`.
pub(crate) fn add_worktree(repo: &Path, path: &Path, commit: &str) -> Result<(), Error> {
    let path = path.to_string_lossy();
    git(repo, &["worktree", "add", "--quiet", "--detach", &path, commit]).map(|_| ())
}

/// Removes the worktree at `path` (and what it holds) from `repo`.
pub(crate) fn remove_worktree(repo: &Path, path: &Path) -> Result<(), Error> {
    git(repo, &["worktree", "remove", "--force", &path.to_string_lossy()]).map(|_| ())
}

/// Commits everything the candidate changed in its worktree (loopgate's `.claude/` left out) on `branch`, on
/// top of the commit it started from; returns the commit.
pub(crate) fn commit_candidate(tree: &Path, branch: &str, message: &str) -> Result<String, Error> {
    git(tree, &["add", "-A", "--", ".", ":(exclude).claude"])?;
    let mut args = identity(tree);
    args.extend(["commit", "--quiet", "--allow-empty", "--no-verify", "-m", message].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    git(tree, &args)?;
    git(tree, &["branch", "--force", branch, "HEAD"])?;
    git(tree, &["rev-parse", "HEAD"])
}

/// `-c user.name=… -c user.email=…` when the repository has no identity configured (a commit would fail).
fn identity(tree: &Path) -> Vec<String> {
    let mut args = Vec::new();
    if git(tree, &["config", "user.name"]).is_err() {
        args.extend(["-c".to_string(), "user.name=loopgate".to_string()]);
    }
    if git(tree, &["config", "user.email"]).is_err() {
        args.extend(["-c".to_string(), "user.email=loopgate@localhost".to_string()]);
    }
    args
}

/// Lines added plus lines removed from `base` to `commit` (binary files count one line each).
pub(crate) fn diff_lines(tree: &Path, base: &str, commit: &str) -> Result<u64, Error> {
    let numstat = git(tree, &["diff", "--numstat", base, commit])?;
    Ok(numstat
        .lines()
        .map(|line| {
            let mut parts = line.split('\t');
            let added = parts.next().and_then(|n| n.parse::<u64>().ok());
            let removed = parts.next().and_then(|n| n.parse::<u64>().ok());
            match (added, removed) {
                (Some(a), Some(r)) => a + r,
                _ => 1,
            }
        })
        .sum())
}
