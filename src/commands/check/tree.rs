//! The check's own tree: a clone of the base commit in the temporary directory (`loopgate-check-<id>/tree`), never the
//! user's checkout (`run --emit-matrix` seals its oracle in one too, `commands::run::matrix`). The baseline runs in it as the base left it; then it is made to hold the head — every file
//! of the user's checkout that git tracks or would track, the base's files the head lacks removed — and the
//! oracle judges it as it judges a loop's tree at a promise.
//!
//! A clone (`--shared`: objects are borrowed, nothing is copied) rather than a worktree: the user's repository
//! gets no worktree entry that a killed check would leave behind, and removing the directory removes all of it.
//! [`Scratch`] ends the loop in it and removes it when dropped, whatever the check's end; a seal left by a check killed outright is
//! removed by the next setup's `Store::clean_stale` (its project directory is gone).

use std::path::{Path, PathBuf};

use crate::commands::run::tournament::run_git as git;
use crate::error::Error;
use crate::history::Record;
use crate::history::event::{Event, Reason};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;

/// The scratch directory of one check, removed when dropped.
pub(crate) struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Makes `loopgate-check-<time>-<pid>` in the temporary directory, private to the user. Not under
    /// loopgate's home: that is the control plane, which the oracle's run may not write where it runs in the
    /// project's own tree (`LOOPGATE_ROOM=0`, or no room at all).
    pub(crate) fn new() -> Result<Scratch, Error> {
        let id = format!(
            "loopgate-check-{}-{}",
            chrono::Utc::now().format("%Y%m%d-%H%M%S"),
            std::process::id()
        );
        let dir = std::env::temp_dir().join(id);
        crate::seal::create_private_dir(&dir).map_err(|source| Error::Io {
            action: "create the check's directory",
            path: dir.clone(),
            source,
        })?;
        Ok(Scratch {
            dir: dir.canonicalize().unwrap_or(dir),
        })
    }

    /// Where the tree is: the project the check's loop runs in.
    pub(crate) fn tree(&self) -> PathBuf {
        self.dir.join("tree")
    }

    /// Clones `repo` into the tree and checks out `commit` there.
    pub(crate) fn check_out(&self, repo: &Path, commit: &str) -> Result<(), Error> {
        let tree = self.tree();
        let tree = tree.to_string_lossy();
        let repo = repo.to_string_lossy();
        git(
            &self.dir,
            &["clone", "--quiet", "--shared", "--no-checkout", &repo, &tree],
        )?;
        git(&self.dir.join("tree"), &["checkout", "--quiet", "--detach", commit]).map(|_| ())
    }
}

impl Drop for Scratch {
    /// Ends the loop sealed in the tree (its seal, room and held-out store go; a room with no loop yet too), forgets its verify windows, and
    /// removes the directory; best effort (a seal whose project is gone is removed by the next setup anyway).
    fn drop(&mut self) {
        let project = Project { root: self.tree() };
        if let Ok(Lookup::Loop(active)) = lookup(&project) {
            let record = Record::new(
                active.loop_id(),
                1,
                Event::Cancelled(Reason::new("the scratch tree's work is done")),
            );
            let _ = active.end(&record);
        }
        // A setup stopped before its loop began (a signal during the baseline) leaves its room and the room's
        // seal files without a loop to end: they go too.
        crate::seal::Store::open().remove(&project);
        let _ = std::fs::remove_dir_all(crate::holdout::dir_for(&project));
        crate::verify_lock::forget(&project);
        // The room may have left read-only directories (the sealed test files' copies): make them writable
        // first, or the removal stops at them.
        make_writable(&self.dir);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            make_writable(&entry.path());
        }
    }
}

/// Files of loopgate's own under `.claude/` (the loop's state, history and logs): the check's loop keeps its
/// own in the tree, and the user's are not the head's work.
fn loopgate_own(path: &str) -> bool {
    path.starts_with(".claude/pua-loop") || path.starts_with(".claude/loopgate/")
}

/// The files of the checkout at `repo` that make up the head: tracked or not ignored, and present.
fn head_files(repo: &Path) -> Result<Vec<String>, Error> {
    let listed = git(repo, &["ls-files", "-z", "--cached", "--others", "--exclude-standard"])?;
    let mut files: Vec<String> = listed
        .split('\0')
        .filter(|p| !p.is_empty() && !loopgate_own(p))
        .filter(|p| {
            repo.join(p)
                .symlink_metadata()
                .is_ok_and(|m| m.is_file() || m.is_symlink())
        })
        .map(str::to_string)
        .collect();
    files.sort();
    files.dedup();
    Ok(files)
}

/// Makes `tree` (the base's clone) hold the head as the checkout at `repo` has it. Returns the paths that
/// differ from the base (added, changed or removed), for the summary.
pub(crate) fn overlay_head(repo: &Path, tree: &Path) -> Result<Vec<String>, Error> {
    let head = head_files(repo)?;
    let base = git(tree, &["ls-files", "-z"])?;
    let io = |action: &'static str, path: PathBuf| move |source| Error::Io { action, path, source };
    let mut changed = Vec::new();
    for path in base.split('\0').filter(|p| !p.is_empty()) {
        if head.binary_search_by(|h| h.as_str().cmp(path)).is_err() {
            let target = tree.join(path);
            std::fs::remove_file(&target).map_err(io("remove a file the head deleted from", target.clone()))?;
            changed.push(path.to_string());
        }
    }
    for path in &head {
        let (from, to) = (repo.join(path), tree.join(path));
        if same(&from, &to) {
            continue;
        }
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(io("create a directory of the head in", dir.to_path_buf()))?;
        }
        if to.symlink_metadata().is_ok() {
            std::fs::remove_file(&to).map_err(io("replace a file with the head's in", to.clone()))?;
        }
        let meta = from
            .symlink_metadata()
            .map_err(io("read a file of the head", from.clone()))?;
        if meta.is_symlink() {
            let link = std::fs::read_link(&from).map_err(io("read a link of the head", from.clone()))?;
            std::os::unix::fs::symlink(link, &to).map_err(io("copy a link of the head to", to.clone()))?;
        } else {
            std::fs::copy(&from, &to).map_err(io("copy a file of the head to", to.clone()))?;
        }
        changed.push(path.clone());
    }
    changed.sort();
    Ok(changed)
}

/// Whether two files hold the same bytes (and kind): the head's copy is skipped where the base's already is it.
fn same(a: &Path, b: &Path) -> bool {
    match (a.symlink_metadata(), b.symlink_metadata()) {
        (Ok(ma), Ok(mb)) if ma.is_symlink() || mb.is_symlink() => {
            ma.is_symlink() && mb.is_symlink() && std::fs::read_link(a).ok() == std::fs::read_link(b).ok()
        }
        (Ok(ma), Ok(mb)) => {
            use std::os::unix::fs::PermissionsExt;
            ma.len() == mb.len()
                && ma.permissions().mode() & 0o111 == mb.permissions().mode() & 0o111
                && std::fs::read(a).ok() == std::fs::read(b).ok()
        }
        _ => false,
    }
}
