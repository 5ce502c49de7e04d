//! The crate's error type: one variant per area, each carrying the path or command it concerns, and the one
//! exhaustive mapping from errors to exit codes.

use std::path::PathBuf;

use crate::exit_codes;
use crate::history::HistoryError;
use crate::seal::SealError;
use crate::state::StateError;
use crate::verify::VerifyError;

/// Display is one line that reads after "loopgate: " and ends with its cause, so only Display is printed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// Bad flags or /pua-loop text; the message names the flag.
    #[error("{0}")]
    Usage(String),
    /// The command needs a loop and the project has none.
    #[error("no loop in `{}` (start one with {} in Claude Code)", root.display(), crate::cli::slash_command("pua-loop"))]
    NoLoop { root: PathBuf },
    /// Another session's loop, or a `loopgate run`'s, is running in this project.
    #[error("{}", conflict_text(session, loop_id, *run_pid, *run_alive))]
    Conflict {
        session: String,
        loop_id: String,
        /// The process id of the `loopgate run` that drives that loop, if one does.
        run_pid: Option<u32>,
        /// Whether that process still runs (a killed `run` leaves its loop behind).
        run_alive: bool,
    },
    /// A control command (one that changes what the oracle is or accepts) ran inside Claude Code.
    #[error(
        "refused to {action} from inside Claude Code (`{marker}` is set, so the loop's agent may have run this): only you may, from your own terminal outside Claude Code"
    )]
    ControlRefused {
        /// What was refused, reading after "refused to".
        action: &'static str,
        /// The environment variable that placed the caller inside Claude Code.
        marker: &'static str,
    },
    /// A user's command (`accept`) ran inside a process a loop's agent started.
    #[error(
        "refused to {action} from inside a loop's agent (`{marker}` is set, so the agent may have run this): only you may, from your own terminal"
    )]
    AgentRefused {
        /// What was refused, reading after "refused to".
        action: &'static str,
        /// The environment variable that marks the agent's processes.
        marker: &'static str,
    },
    /// `loopgate run` could not start the agent command.
    #[error("failed to start the agent `{command}`: {source}{hint}")]
    AgentStart {
        command: String,
        source: std::io::Error,
        /// What to do about it, appended after the cause.
        hint: &'static str,
    },
    #[error(transparent)]
    State(#[from] StateError),
    #[error(transparent)]
    Seal(#[from] SealError),
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// A checkpoint command found nothing to work on (no git, no checkpoints); the message says why.
    #[error("{0}")]
    NoCheckpoints(String),
    /// `loopgate rollback` refused: a verify command is running (`what`: its pid and command, if known).
    #[error("a verify command is running in this project{}; roll back when it has finished (`loopgate status` shows the loop)", .what.as_ref().map(|w| format!(" ({w})")).unwrap_or_default())]
    VerifyRunning { what: Option<String> },
    /// A git command behind the checkpoints failed.
    #[error(transparent)]
    Git(#[from] crate::checkpoint::GitError),
    /// An outside program (the Claude Code CLI for `loopgate install`) failed; `problem` says how.
    #[error("failed to run `{command}`: {problem}")]
    Tool { command: String, problem: String },
    /// Any other file operation; `action` reads after "failed to".
    #[error("failed to {action} `{}`: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Error {
    /// The exit code a terminal command ends with for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => exit_codes::USAGE,
            Self::NoLoop { .. } => exit_codes::NO_LOOP,
            Self::Conflict { .. } | Self::VerifyRunning { .. } => exit_codes::CONFLICT,
            Self::NoCheckpoints(_) => exit_codes::NO_LOOP,
            Self::ControlRefused { .. } | Self::AgentRefused { .. } => exit_codes::CONTROL_REFUSED,
            Self::State(_)
            | Self::Seal(_)
            | Self::History(_)
            | Self::Verify(_)
            | Self::Io { .. }
            | Self::Git(_)
            | Self::AgentStart { .. }
            | Self::Tool { .. } => exit_codes::FAILURE,
        }
    }
}

fn conflict_text(session: &str, loop_id: &str, run_pid: Option<u32>, run_alive: bool) -> String {
    match run_pid {
        Some(pid) if run_alive => format!(
            "a `loopgate run` loop (`{loop_id}`) is running in this project (pid {pid}); stop it with Ctrl-C in its terminal or `loopgate cancel`, or pass `--force` to replace it"
        ),
        Some(pid) => format!(
            "a `loopgate run` loop (`{loop_id}`) was left behind by pid {pid}, which is gone; continue it with `loopgate run --resume -- AGENT…`, end it with `loopgate cancel`, or pass `--force` to replace it"
        ),
        None => format!(
            "a loop (`{loop_id}`) is already running in this project for session `{session}`; cancel it with `loopgate cancel`, or pass `--force` to replace it"
        ),
    }
}
