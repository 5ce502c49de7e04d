//! What loopgate notices at every stop, whatever the agent said: whether the working tree changed (for the
//! stall breaker and the "nothing changed" call-out) and what the session used (for `--max-tokens` and
//! `--max-cost`, see `budgets`).
//! Both are off when their limits are off, so a loop without them pays nothing here. A stop without a signal
//! tag also notes whether the agent's message gave up, asked the user or named a blocker (`giveup`). And the
//! working tree is checkpointed (`checkpoint`), when the loop takes checkpoints.

use std::path::Path;

use crate::giveup::GiveUp;
use crate::history::Record;
use crate::lifecycle::ActiveLoop;
use crate::{checkpoint, treeprobe};

use super::budgets;

/// What this stop noticed, for the iteration's history record. (Not the observed closure of a traced verify run,
/// `closure::observed`: this is the agent's work as seen at one stop.)
#[derive(Clone, Debug, Default)]
pub(crate) struct Survey {
    /// `None` when the stall breaker is off.
    pub(crate) tree_changed: Option<bool>,
    /// The uncommitted work in a git work tree (`2 files changed: 1 modified, 1 new`), taken when the tree
    /// changed; recorded as `diff_stat`.
    pub(crate) diff_stat: Option<String>,
    /// What the last message gave up on, when it carried no signal tag (set by the caller, see [`Survey::read`]).
    pub(crate) give_up: Option<GiveUp>,
    /// This stop's checkpoint: its commit, or why it could not be taken (`None`: checkpoints are off).
    pub(crate) checkpoint: Option<Result<String, String>>,
    /// Blocks in a row without a tool call, against Claude Code's cap (`None` outside a Claude Code Stop hook).
    pub(crate) tally: Option<super::block_cap::Tally>,
    /// What the turn that ended at this stop used and cost, read from the transcript (only with `--max-cost`,
    /// and only when the transcript reported usage since the last stop).
    pub(crate) usage: Option<crate::schema::Receipt>,
}

/// Looks at the working tree, takes the checkpoint and counts the tokens; updates the loop's progress and token
/// counters in memory (persisted with the stop's other changes).
pub(crate) fn take(active: &mut ActiveLoop, transcript: Option<&Path>) -> Survey {
    let root = active.project.clone();
    let f = &mut active.seal.fields;
    let mut survey = Survey::default();
    let mut probe = None;
    if f.config.limits.stall_limit > 0 {
        let (taken, diff_stat) = treeprobe::probe_since(&root.root, f.progress.stall.tree_fingerprint.as_deref());
        let changed = f.progress.stall.tree_fingerprint.as_deref() != Some(taken.fingerprint.as_str());
        f.progress.stall.unchanged_streak = if changed {
            0
        } else {
            f.progress.stall.unchanged_streak + 1
        };
        f.progress.stall.tree_fingerprint = Some(taken.fingerprint.clone());
        survey.diff_stat = diff_stat;
        survey.tree_changed = Some(changed);
        probe = Some(taken);
    }
    // With the same probe: an unchanged tree reuses the last checkpoint, a changed one re-stages its dirty paths.
    survey.checkpoint = checkpoint::at_stop(
        &root,
        &f.config.loop_id,
        f.progress.iteration,
        f.progress.checkpoints.as_mut(),
        probe,
    );
    if let Some(unmeasured) = budgets::count(f, transcript, &mut survey) {
        active.warnings.push(unmeasured);
    }
    survey
}

impl Survey {
    /// Notes a give-up in the agent's message; only a message without any signal tag is looked at.
    pub(crate) fn read(&mut self, message: &str, signal: &crate::tags::Signal) {
        if *signal == crate::tags::Signal::None {
            self.give_up = crate::giveup::classify(message);
        }
    }

    /// Adds what the survey saw (working tree, checkpoint) to the iteration's record.
    pub(crate) fn annotate(&self, mut record: Record) -> Record {
        let Some(tree) = record.event.tree_mut() else {
            return record;
        };
        match &self.checkpoint {
            Some(Ok(commit)) => tree.checkpoint = Some(commit.clone()),
            Some(Err(error)) => tree.checkpoint_error = Some(error.clone()),
            None => {}
        }
        tree.tree_changed = self.tree_changed;
        if self.tree_changed.is_some() {
            tree.diff_stat = self.diff_stat.clone();
        }
        record
    }
}
