//! What a stop decided, in loopgate's own terms: keep the agent working (with the reason the model reads), or let
//! it go (with how the loop ended, or that it goes on later). The Stop hook turns an [`Outcome`] into Claude
//! Code's JSON (`hook::stop`); `loopgate run` reads it directly (the next prompt, or the run's exit code).

use crate::history::Status;

/// The decision at one stop.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// Keep the agent working: the model reads `reason`, the user `notice`.
    Block { reason: String, notice: String },
    /// Let the agent stop: `how` the loop ended (or that it waits), what the user reads, and the desktop
    /// notification's text (`None` with `--no-notify`, or when the loop simply goes on later).
    LetGo {
        how: LetGo,
        notice: String,
        notification: Option<String>,
    },
}

/// Why a stop let the agent go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LetGo {
    /// The oracle passed (or there is none): the loop is done.
    Complete,
    /// A limit ended the loop: `max_iterations`, `max_duration`, `max_tokens`.
    Limit(Status),
    /// The agent gave up with `<loop-abort>`; the loop ended.
    Aborted(String),
    /// The agent paused with `<loop-pause>`; the loop waits with its state kept.
    Paused(String),
    /// The stall breaker paused the loop; the loop waits with its state kept.
    Stalled(String),
    /// The turn ends but the loop keeps running, and the next message in the session continues it (Claude
    /// Code's stop-hook block cap, or a turn that ended on an API error).
    GoesOn,
}

impl Outcome {
    /// Puts `notice` before whatever this outcome already tells the user.
    #[must_use]
    pub(crate) fn with_notice_first(mut self, first: String) -> Self {
        let (Self::Block { notice, .. } | Self::LetGo { notice, .. }) = &mut self;
        *notice = format!("{first} {notice}");
        self
    }
}
