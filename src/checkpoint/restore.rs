//! `loopgate rollback`: the working tree back to a checkpoint, after saving the current one as the loop's next
//! `save-N` — so a rollback can itself be rolled back, and no work is ever lost.
//!
//! Restoring goes through the private index, which the save has just made equal to the working tree: `git
//! restore --source=CHECKPOINT --worktree` writes every file of the checkpoint and removes the files the
//! checkpoint does not have (empty directories go with them). Ignored files are in neither, so they stay as they
//! are; so do `.claude/`, the user's index, HEAD and the branches.

use super::git::{Git, GitError, PATHSPEC};
use super::list::Ref;
use super::{Name, refname, snapshot};

/// What a rollback did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rolled {
    /// The save holding the working tree as it was before.
    pub(crate) saved: Name,
    pub(crate) saved_commit: String,
}

/// Saves the working tree as the next `save-N` of `loop_id` (after those in `existing`), then restores `target`.
pub(crate) fn rollback(git: &Git, loop_id: &str, existing: &[Ref], target: &Ref) -> Result<Rolled, GitError> {
    let next = existing
        .iter()
        .filter_map(|r| match r.name {
            Name::Save(n) => Some(n),
            Name::Iteration(_) => None,
        })
        .max()
        .map_or(1, |n| n + 1);
    let saved = Name::Save(next);
    let message = format!(
        "loopgate: working tree saved before rollback to {} (loop {loop_id})",
        target.name
    );
    let saved_commit = snapshot::take(git, None, &refname(loop_id, saved), &message)?;
    let args = [
        &["restore", "--source", &target.commit, "--worktree"][..],
        &PATHSPEC[..],
    ]
    .concat();
    git.run(&args)?;
    Ok(Rolled { saved, saved_commit })
}

/// The working tree as a tree object, for comparing a checkpoint with it (`loopgate diff N`).
pub(crate) fn working_tree(git: &Git) -> Result<String, GitError> {
    snapshot::write_tree(git)
}
