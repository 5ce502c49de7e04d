//! `loopgate rollback N`: the working tree back to checkpoint N. The current tree is saved first as the loop's
//! next `save-N` (so `loopgate rollback save-N` undoes it), the rollback is refused while a verify command runs
//! (it would judge a tree changing under it), and it is recorded in the history as `rolled_back`.
//!
//! Restored: every file of the checkpoint, and files created since are removed — only files git does not
//! ignore, and never `.claude/`. HEAD, the branches, the index and the stash stay as they are.

use crate::checkpoint::{Name, restore};
use crate::error::Error;
use crate::exit_codes;
use crate::history::{self, Record};
use crate::history::{Event, event::RolledBack};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;
use crate::verify_lock::TreeBusy;

use super::checkpoints::select;

/// Runs `loopgate rollback`.
pub(crate) fn run(to: &str, loop_id: Option<&str>) -> Result<u8, Error> {
    let selected = select(Project::for_terminal(), loop_id)?;
    let target = selected.find(to)?.clone();
    let project = &selected.project;
    let _lock = super::lock(project)?;
    let _busy = TreeBusy::take(project).map_err(|what| Error::VerifyRunning { what })?;
    let rolled = restore::rollback(&selected.git, &selected.loop_id, &selected.refs, &target)?;
    let iteration = match target.name {
        Name::Iteration(n) => n,
        Name::Save(_) => 0,
    };
    let record = Record::new(
        &selected.loop_id,
        iteration,
        Event::RolledBack(RolledBack {
            to: target.name.to_string(),
            commit: target.commit.clone(),
            saved: rolled.saved.to_string(),
            saved_commit: rolled.saved_commit.clone(),
        }),
    );
    // With a loop running, its history marks must cover this line too: append through the loop.
    match lookup(project)? {
        Lookup::Loop(mut active) => active.record(&record)?,
        _ => {
            history::append(&project.history_path(), &record)?;
        }
    }
    crate::say(format!(
        "loopgate: restored the working tree to checkpoint {} of loop {}; the tree before is saved as {} (`loopgate rollback {}` undoes this).",
        target.name, selected.loop_id, rolled.saved, rolled.saved
    ));
    Ok(exit_codes::OK)
}
