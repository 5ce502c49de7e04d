//! The name of each kind of history record (the `status` key), and which of them end a loop.

use serde::{Deserialize, Serialize};

/// What happened at one point of a loop. Serialized in snake_case (`promise_rejected`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Init,
    Continue,
    PromiseRejected,
    Complete,
    MaxIterations,
    MaxDuration,
    /// The token budget (`--max-tokens`) ran out.
    MaxTokens,
    /// The dollar budget (`--max-cost`, inside Claude Code) was spent: `tokens_used`, `spent`.
    MaxCost,
    Aborted,
    Paused,
    Resumed,
    Cancelled,
    Stalled,
    TamperDetected,
    /// The agent ran `loopgate verify` itself; recorded, never completes the loop.
    SelfCheck,
    /// A verify run at a stop with `verify_on: always` that did not pass.
    VerifyFailed,
    /// The user accepted changes to the oracle's sealed inputs (`loopgate allow`): `accepted`.
    Allowed,
    /// `loopgate run` ran the agent command once (before the stop it leads to): `agent_exit`, `agent_signal`,
    /// `agent_timed_out`, `agent_ms`, `agent_tail`.
    AgentRun,
    /// A stop whose last message gave up, asked the user or named an external blocker without a pause or abort
    /// tag (see `giveup`): `kind`, `phrase`, `sentence`, `give_up_streak`. Recorded instead of `continue`.
    GaveUp,
    /// `loopgate rollback` restored the working tree to a checkpoint: `to`, `saved`, `loop_of_checkpoint`.
    RolledBack,
    /// loopgate let a stop through because one more block would pass Claude Code's stop-hook block cap; the loop
    /// keeps running: `blocks_without_tool`, `cap`.
    BlockCap,
    /// A turn loopgate had blocked ended without coming back to the Stop hook (noticed at the session's next
    /// stop or session start): `blocks_without_tool`, `cap`, `noticed_at`.
    TurnEnded,
    /// The agent's turn ended on an API error (Claude Code's `StopFailure` hook); the loop keeps running:
    /// `error`, `error_details`.
    StopFailure,
    /// What the agent's turn that ended at a stop used and cost, read from Claude Code's transcript (with
    /// `--max-cost`): `receipt`, `spent` (the loop's total so far).
    Usage,
}

impl Status {
    /// The name used in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Init => "init",
            Self::Continue => "continue",
            Self::PromiseRejected => "promise_rejected",
            Self::Complete => "complete",
            Self::MaxIterations => "max_iterations",
            Self::MaxDuration => "max_duration",
            Self::MaxTokens => "max_tokens",
            Self::MaxCost => "max_cost",
            Self::Aborted => "aborted",
            Self::Paused => "paused",
            Self::Resumed => "resumed",
            Self::Cancelled => "cancelled",
            Self::Stalled => "stalled",
            Self::TamperDetected => "tamper_detected",
            Self::SelfCheck => "self_check",
            Self::VerifyFailed => "verify_failed",
            Self::AgentRun => "agent_run",
            Self::GaveUp => "gave_up",
            Self::RolledBack => "rolled_back",
            Self::Allowed => "allowed",
            Self::BlockCap => "block_cap",
            Self::TurnEnded => "turn_ended",
            Self::StopFailure => "stop_failure",
            Self::Usage => "usage",
        }
    }

    /// Statuses after which the loop is over.
    pub fn ends_loop(self) -> bool {
        matches!(
            self,
            Self::Complete
                | Self::MaxIterations
                | Self::MaxDuration
                | Self::MaxTokens
                | Self::MaxCost
                | Self::Aborted
                | Self::Cancelled
        )
    }
}
