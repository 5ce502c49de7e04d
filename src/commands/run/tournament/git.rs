//! The git a tournament needs: the repository and commit it starts from, a private clone per candidate, a
//! candidate's work committed on its own branch of the user's repository, the size of its diff.
//!
//! **Each candidate has a git directory of its own**: a clone that borrows the user's objects read-only
//! (`git clone --shared`: an alternates file, no copy), checked out detached at the commit the tournament
//! starts from, with no remote. Nothing of it is registered in the user's repository (no worktree, no ref), so
//! whatever the candidate does to its clone — hooks, config, `update-ref`, `gc` — stays in it, and the user's
//! `.git` is bound read-only in its world (`plane::Plane`).
//!
//! **Only loopgate writes refs the user sees.** The candidate's work is taken from its *working tree*, never
//! from its git directory: loopgate stages the tree into a private index against the user's own git directory
//! (`GIT_INDEX_FILE`, `--work-tree`), writes the tree and a commit with plumbing (`write-tree`, `commit-tree`:
//! no hook, no config of the candidate's runs) and sets `loopgate/<tournament>/cK`. Running git *in* the
//! candidate's clone would run its config (`core.fsmonitor`, hooks) unconfined.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::checkpoint::GitError;
use crate::error::Error;

/// Runs `git ARGS` in `dir`; trimmed stdout on success.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String, Error> {
    git_with(dir, args, &[])
}

/// [`git`] with extra environment variables.
fn git_with(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Result<String, Error> {
    let failed = |detail: String| {
        Error::Git(GitError {
            // The error's text adds the `git ` itself.
            command: args.join(" "),
            detail,
        })
    };
    let mut command = Command::new("git");
    command.args(args).current_dir(dir).stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        return Err(failed(String::from_utf8_lossy(&out.stderr).trim().to_string()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The top of the repository holding `dir`.
pub(crate) fn toplevel(dir: &Path) -> Result<PathBuf, Error> {
    git(dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from)
}

/// The git directory of `repo` that holds its objects and refs (the common one, for a linked worktree).
pub(crate) fn common_dir(repo: &Path) -> Result<PathBuf, Error> {
    git(repo, &["rev-parse", "--path-format=absolute", "--git-common-dir"]).map(PathBuf::from)
}

/// Makes the candidate's clone of `repo` at `path`, checked out detached at `commit` (module docs), and keeps a
/// copy of the index the checkout wrote as loopgate's private index of it ([`private_index`]).
pub(crate) fn clone_candidate(repo: &Path, path: &Path, commit: &str) -> Result<(), Error> {
    let source = repo.to_string_lossy();
    let target = path.to_string_lossy();
    git(
        repo,
        &[
            "clone",
            "--quiet",
            "--shared",
            "--no-checkout",
            "--origin",
            "user",
            &source,
            &target,
        ],
    )?;
    git(path, &["remote", "remove", "user"])?;
    git(path, &["checkout", "--quiet", "--detach", commit])?;
    let index = path.join(".git/index");
    std::fs::copy(&index, private_index(path)).map_err(|source| Error::Io {
        action: "keep a copy of the index of",
        path: index,
        source,
    })?;
    Ok(())
}

/// Gives the candidate whose tree is `tree`, an overlay of the checkout `shared` (`layer`), loopgate's private
/// index of it: a copy of the checkout's, whose stat data the overlay shows unchanged for every file the
/// candidate did not write (the lower layer's inode, times and size), so staging its work hashes only what it
/// changed, as for a clone.
pub(crate) fn share_index(shared: &Path, tree: &Path) -> Result<(), Error> {
    let index = private_index(shared);
    std::fs::copy(&index, private_index(tree)).map_err(|source| Error::Io {
        action: "copy loopgate's index of the shared checkout",
        path: index,
        source,
    })?;
    Ok(())
}

/// loopgate's own index of the candidate whose clone is `tree`, beside the clone in the store (out of the
/// agent's reach). Copied from the checkout before any agent ran, it holds the files' stat data as checked out,
/// so staging the candidate's work hashes only the files that changed since (and those git's racy-timestamp
/// rule sends to a content check) — a candidate cannot make a changed file look unchanged, since a write always
/// moves its ctime, which git compares. The candidate's own index is never used: what it claims would be
/// committed instead of the files the oracle judged.
fn private_index(tree: &Path) -> PathBuf {
    tree.with_extension("index")
}

/// Commits the working tree at `tree` (loopgate's `.claude/` left out) into the user's repository `repo`, on
/// top of `base`, through loopgate's private index of it, and points `branch` at it; returns the commit.
/// `changed`: where a layered candidate's work can lie, if that is known (`changed`): only those paths are
/// staged; else the whole tree.
pub(crate) fn commit_candidate(
    repo: &Path,
    tree: &Path,
    base: &str,
    changed: Option<&[PathBuf]>,
    branch: &str,
    message: &str,
) -> Result<String, Error> {
    let index = private_index(tree);
    let index = index.as_path();
    let git_dir = common_dir(repo)?;
    let env = [("GIT_INDEX_FILE", index)];
    let dirs = [
        format!("--git-dir={}", git_dir.display()),
        format!("--work-tree={}", tree.display()),
    ];
    let run = |args: &[&str]| {
        let all: Vec<&str> = dirs.iter().map(String::as_str).chain(args.iter().copied()).collect();
        git_with(tree, &all, &env)
    };
    if !index.exists() {
        run(&["read-tree", base])?;
    }
    let staged = changed.is_some_and(|paths| stage_only(tree, &dirs, index, paths).is_ok());
    if !staged {
        run(&["add", "-A", "--", ".", ":(exclude).claude"])?;
    }
    let written = run(&["write-tree"])?;
    let mut args = identity(repo);
    args.extend(["commit-tree", written.as_str(), "-p", base, "-m", message].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let commit = run(&args)?;
    git(repo, &["update-ref", &format!("refs/heads/{branch}"), &commit])?;
    Ok(commit)
}

/// Re-stages in `index` what differs from it below `paths` of `tree` (`git` with `dirs`): modified, deleted and
/// untracked files that are not ignored, as `git add -A` would (`changed`'s module docs). An error (a path git
/// takes otherwise, a nested repository) leaves the index as it was: git writes it whole or not at all.
fn stage_only(
    tree: &Path,
    dirs: &[String],
    index: &Path,
    paths: &[PathBuf],
) -> Result<(), crate::checkpoint::GitError> {
    if paths.is_empty() {
        return Ok(());
    }
    let not_text = || crate::checkpoint::GitError {
        command: "ls-files".to_string(),
        detail: "a path that is not UTF-8".to_string(),
    };
    let paths: Vec<&str> = paths
        .iter()
        .map(|p| p.to_str().ok_or_else(not_text))
        .collect::<Result<_, _>>()?;
    let git = |args: &[&str], input: Option<Vec<u8>>| {
        let all: Vec<&str> = dirs.iter().map(String::as_str).chain(args.iter().copied()).collect();
        let mut command = Command::new("git");
        command
            .args(&all)
            .current_dir(tree)
            .env("GIT_INDEX_FILE", index)
            // The paths are names, never patterns.
            .env("GIT_LITERAL_PATHSPECS", "1");
        crate::checkpoint::git::output(command, args, input)
    };
    let list = [
        "ls-files",
        "-z",
        "--modified",
        "--deleted",
        "--others",
        "--exclude-standard",
        "--",
    ];
    let differing = git(&[&list[..], &paths].concat(), None)?;
    if differing.is_empty() {
        return Ok(());
    }
    git(
        &["update-index", "--add", "--remove", "--replace", "-z", "--stdin"],
        Some(differing),
    )
    .map(drop)
}

/// `-c user.name=… -c user.email=…` when the repository has no identity configured (a commit would fail).
fn identity(repo: &Path) -> Vec<String> {
    let mut args = Vec::new();
    if git(repo, &["config", "user.name"]).is_err() {
        args.extend(["-c".to_string(), "user.name=loopgate".to_string()]);
    }
    if git(repo, &["config", "user.email"]).is_err() {
        args.extend(["-c".to_string(), "user.email=loopgate@localhost".to_string()]);
    }
    args
}

/// The files that would conflict were `branch` merged into `HEAD` of `repo`, computed in the object store
/// (`git merge-tree --write-tree`: neither the index nor the working tree is touched); empty when it merges
/// cleanly.
pub(crate) fn merge_conflicts(repo: &Path, branch: &str) -> Result<Vec<String>, Error> {
    let args = ["merge-tree", "--write-tree", "--name-only", "HEAD", branch];
    let out = Command::new("git")
        .args(args)
        .current_dir(repo)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            Error::Git(GitError {
                command: args.join(" "),
                detail: e.to_string(),
            })
        })?;
    match out.status.code() {
        Some(0) => Ok(Vec::new()),
        // Conflicts: the tree's id, then the conflicted files, then a blank line and git's messages.
        Some(1) => Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1)
            .take_while(|l| !l.is_empty())
            .map(str::to_string)
            .collect()),
        _ => Err(Error::Git(GitError {
            command: args.join(" "),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })),
    }
}

/// Lines added plus lines removed from `base` to `commit` in `repo` (binary files count one line each).
pub(crate) fn diff_lines(repo: &Path, base: &str, commit: &str) -> Result<u64, Error> {
    let numstat = git(repo, &["diff", "--numstat", base, commit])?;
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
