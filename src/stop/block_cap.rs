//! Claude Code's stop-hook block cap, and how loopgate stays ahead of it.
//!
//! Claude Code (checked in 2.1.197 and 2.1.330) ends a turn when Stop hooks have blocked it more than
//! `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` times in a row (default 8; 0 or a negative number disables the cap) with
//! no tool call in between: the hook still runs at the ninth stop, but its block is overridden, the turn ends
//! and Claude Code shows only a generic warning. Any tool call resets the count, and so does a new user
//! prompt. Left alone, an agent that only talks for nine stops would have its turn ended while the loop
//! stays active, the history silent and the user believing the agent finished.
//!
//! So loopgate keeps the same count:
//! - every block is remembered in the seal as the *pending block*: the prompt id of the stop and the number of
//!   blocks in a row without a tool call, this one included;
//! - the PreToolUse hook of the loop's session leaves a marker file (`.claude/loopgate/tool-ran`) when a tool
//!   is called while a block is pending; the next stop consumes it and starts counting from zero;
//! - a stop that belongs to a new prompt (`stop_hook_active: false`, or another `prompt_id`) starts from zero
//!   too — and if a block was pending, the turn it continued ended without coming back to the Stop hook (the
//!   cap when loopgate's count missed something, an interruption, an error, `--max-turns`): that is recorded as
//!   `turn_ended` and the user is told. A SessionStart of the same session (`--resume`) notices it as well.
//!
//! At a stop where one more block would pass the cap, loopgate does not block: it records `block_cap`, lets
//! the turn end and tells the user how to continue; the loop keeps running and the next message in the
//! session continues it. The block before that one — the last Claude Code honors — carries a last warning for
//! the model. `hookSpecificOutput.additionalContext` on Stop output (Claude Code ≥ 2.1.163) continues a turn
//! exactly like a block and counts toward the same cap, so it changes nothing here; loopgate keeps
//! `decision: block`, which every version honors.
//!
//! Invariant: the count only ever errs high (a tool call loopgate did not see leaves it high), so loopgate
//! lets the agent stop early rather than late; a count that errs low shows up afterwards as `turn_ended`.

use crate::history::{
    Event,
    event::{BlockCap, TurnEnded},
};

use crate::error::Error;
use crate::history::Record;
use crate::lifecycle::ActiveLoop;
use crate::messages;
use crate::project::Project;
use crate::state::{LoopProgress, LoopStatus};

pub(crate) use crate::schema::PendingBlock;

/// The environment variable Claude Code reads its cap from.
pub(crate) const CAP_VAR: &str = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP";
/// Claude Code's cap when the variable is unset or not a number.
pub const DEFAULT_CAP: u64 = 8;
/// The marker a tool call of the loop's session leaves in `.claude/loopgate/`.
const TOOL_MARK: &str = "tool-ran";

/// What the Stop hook input says about the turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct Turn {
    pub(crate) prompt_id: Option<String>,
    pub(crate) stop_hook_active: Option<bool>,
    /// The cap on blocks in a row without a tool call in force for this agent; `None` when there is none.
    pub(crate) cap: Option<u64>,
    /// The cap is loopgate's own (`LOOPGATE_BLOCK_CAP`): the agent has none and would follow an always-blocking
    /// hook forever (Codex CLI, Gemini CLI), so loopgate stops the runaway itself.
    pub(crate) own_cap: bool,
}

/// The count at one stop, carried from arrival to the block decision.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// The cap in force; `None` when disabled.
    pub(crate) cap: Option<u64>,
    /// Blocks in a row without a tool call before this stop.
    pub(crate) without_tool: u64,
    pub(crate) prompt_id: Option<String>,
    /// The cap is loopgate's own (see [`Turn::own_cap`]).
    pub(crate) own_cap: bool,
}

/// What loopgate does instead of, or with, a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Block as usual; `last_warning`: this is the last block Claude Code will honor without a tool call.
    Block { last_warning: bool },
    /// Do not block: Claude Code would override it. Let the turn end, the loop still running.
    Yield,
}

/// The cap Claude Code applies, read the way Claude Code reads it: a leading integer (`parseInt`), anything
/// else means the default; zero or less disables it (`None`).
pub fn cap_from(value: Option<&str>) -> Option<u64> {
    let Some(value) = value else {
        return Some(DEFAULT_CAP);
    };
    let text = value.trim_start();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let end = digits.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return Some(DEFAULT_CAP);
    }
    if negative {
        return None;
    }
    // A number too large for u64 is as good as no cap.
    let cap = digits[..end].parse::<u64>().unwrap_or(u64::MAX);
    (cap > 0).then_some(cap)
}

/// The cap in this process's environment (the hook inherits Claude Code's).
pub(crate) fn cap_from_env() -> Option<u64> {
    cap_from(std::env::var(CAP_VAR).ok().as_deref())
}

/// The variable loopgate reads its own cap from, for agents that have none.
pub(crate) const OWN_CAP_VAR: &str = "LOOPGATE_BLOCK_CAP";

/// loopgate's own cap on blocks in a row without a tool call, for an agent that has none (Codex CLI ran an
/// always-blocking hook 393 times in two minutes): `LOOPGATE_BLOCK_CAP`, read like Claude Code's variable
/// (default 8, 0 turns it off).
pub(crate) fn own_cap_from_env() -> Option<u64> {
    cap_from(std::env::var(OWN_CAP_VAR).ok().as_deref())
}

/// Arriving at a stop of the loop's own session: consumes the pending block and the tool marker, and returns
/// the count so far — and the pending block, when the turn it continued never came back (see
/// [`report_unanswered`]).
pub(crate) fn arrive(active: &mut ActiveLoop, turn: &Turn, cap: Option<u64>) -> (Tally, Option<PendingBlock>) {
    let tool_ran = crate::fsutil::remove_file(&tool_mark(&active.project)).is_ok();
    let mut tally = Tally {
        cap,
        without_tool: 0,
        prompt_id: turn.prompt_id.clone(),
        own_cap: turn.own_cap,
    };
    let Some(pending) = active.seal.fields.progress.pending_block.take() else {
        return (tally, None);
    };
    if same_turn(&pending, turn) {
        tally.without_tool = if tool_ran { 0 } else { pending.without_tool };
        return (tally, None);
    }
    (tally, Some(pending))
}

/// A session start of the loop's own session (a resumed conversation, not a compaction inside a turn): a block
/// still pending means the turn it continued never came back.
pub(crate) fn unanswered_at_session_start(progress: &mut LoopProgress, source: Option<&str>) -> Option<PendingBlock> {
    if source == Some("compact") {
        return None;
    }
    progress.pending_block.take()
}

/// Records `turn_ended` for a block whose turn never came back (`noticed_at`: `stop` or `session_start`; the
/// seal is written by the caller) and returns what to tell the user. `cap` is the cap in force for the agent and
/// whether it is loopgate's own (see [`Turn`]).
pub(crate) fn report_unanswered(
    active: &mut ActiveLoop,
    pending: &PendingBlock,
    noticed_at: &str,
    (cap, own): (Option<u64>, bool),
) -> Result<String, Error> {
    let f = &active.seal.fields;
    let (lang, iteration) = (f.config.lang, f.progress.iteration);
    let ended = TurnEnded {
        blocks_without_tool: pending.without_tool,
        cap,
        noticed_at: noticed_at.to_string(),
    };
    let record = Record::new(active.loop_id(), iteration, Event::TurnEnded(ended));
    active.record_unsaved(&record)?;
    Ok(messages::cap::turn_ended(
        lang,
        pending.without_tool,
        cap,
        iteration,
        own,
    ))
}

/// Whether to block at this stop, given the count before it.
pub(crate) fn decide(tally: &Tally) -> Decision {
    let next = tally.without_tool.saturating_add(1);
    match tally.cap {
        Some(cap) if next > cap => Decision::Yield,
        Some(cap) => Decision::Block {
            last_warning: next == cap,
        },
        None => Decision::Block { last_warning: false },
    }
}

/// Remembers a block about to be issued.
pub(crate) fn remember(progress: &mut LoopProgress, tally: &Tally) {
    progress.pending_block = Some(PendingBlock {
        prompt_id: tally.prompt_id.clone(),
        without_tool: tally.without_tool.saturating_add(1),
    });
}

/// The `block_cap` record of a stop at which loopgate let the turn end.
pub(crate) fn yielded(loop_id: &str, iteration: u64, tally: &Tally) -> Record {
    let yielded = BlockCap {
        blocks_without_tool: tally.without_tool,
        cap: tally.cap,
    };
    Record::new(loop_id, iteration, Event::BlockCap(yielded))
}

/// Called by PreToolUse for every tool call while a loop exists: a call of the loop's own session after a block
/// leaves the marker the next stop consumes. Cheap (one `open` at most) and silent: a marker that cannot be
/// written only leaves the count high.
pub(crate) fn note_tool_call(active: &ActiveLoop, session: &str) {
    let f = &active.seal.fields;
    if f.progress.pending_block.is_none()
        || f.progress.session_id != session
        || f.progress.status != LoopStatus::Running
    {
        return;
    }
    let _ = crate::fsutil::create_new(&tool_mark(&active.project), 0o644);
}

fn tool_mark(project: &Project) -> std::path::PathBuf {
    project.work_dir().join(TOOL_MARK)
}

/// Whether this stop continues the turn the pending block was issued in: Claude Code says so with
/// `stop_hook_active` (true for every stop after a hook's block until the next user prompt).
fn same_turn(pending: &PendingBlock, turn: &Turn) -> bool {
    match turn.stop_hook_active {
        Some(active) => active,
        // Older clients: only the prompt id can tell; without one, assume the same turn (the count errs high).
        None => ids_agree(pending, turn),
    }
}

fn ids_agree(pending: &PendingBlock, turn: &Turn) -> bool {
    match (&pending.prompt_id, &turn.prompt_id) {
        (Some(was), Some(now)) => was == now,
        _ => true,
    }
}

#[cfg(test)]
mod tests;
