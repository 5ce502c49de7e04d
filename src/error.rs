//! The crate's error type: one variant per area, each carrying the path or command it concerns, and the one
//! exhaustive mapping from errors to exit codes.

use std::fmt;
use std::path::PathBuf;

use crate::exit_codes;
use crate::history::HistoryError;
use crate::seal::SealError;
use crate::state::StateError;
use crate::verify::VerifyError;

#[derive(Debug)]
pub enum Error {
    /// Bad flags or /pua-loop text; the message names the flag.
    Usage(String),
    /// The command needs a loop and the project has none.
    NoLoop {
        root: PathBuf,
    },
    /// Another session's loop is running in this project.
    Conflict {
        session: String,
        loop_id: String,
        /// The process id of the `loopgate run` that drives that loop, if one does.
        run_pid: Option<u32>,
        /// Whether that process still runs (a killed `run` leaves its loop behind).
        run_alive: bool,
    },
    /// `loopgate run` could not start the agent command.
    AgentStart {
        command: String,
        source: std::io::Error,
        /// What to do about it, appended after the cause.
        hint: &'static str,
    },
    State(StateError),
    Seal(SealError),
    History(HistoryError),
    Verify(VerifyError),
    /// A checkpoint command found nothing to work on (no git, no checkpoints); the message says why.
    NoCheckpoints(String),
    /// `loopgate rollback` refused: a verify command is running (`what`: its pid and command, if known).
    VerifyRunning {
        what: Option<String>,
    },
    /// A git command behind the checkpoints failed.
    Git(crate::checkpoint::GitError),
    /// An outside program (the Claude Code CLI for `loopgate install`) failed; `problem` says how.
    Tool {
        command: String,
        problem: String,
    },
    /// Any other file operation; `action` reads after "failed to".
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Error {
    /// The exit code a terminal command ends with for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => exit_codes::USAGE,
            Self::NoLoop { .. } => exit_codes::NO_LOOP,
            Self::Conflict { .. } | Self::VerifyRunning { .. } => exit_codes::CONFLICT,
            Self::NoCheckpoints(_) => exit_codes::NO_LOOP,
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(message) => f.write_str(message),
            Self::NoLoop { root } => write!(
                f,
                "no loop in `{}` (start one with /loopgate:pua-loop in Claude Code)",
                root.display()
            ),
            Self::Conflict {
                loop_id,
                run_pid: Some(pid),
                run_alive: true,
                ..
            } => write!(
                f,
                "a `loopgate run` loop (`{loop_id}`) is running in this project (pid {pid}); stop it with Ctrl-C in its terminal or `loopgate cancel`, or pass `--force` to replace it"
            ),
            Self::Conflict {
                loop_id,
                run_pid: Some(pid),
                ..
            } => write!(
                f,
                "a `loopgate run` loop (`{loop_id}`) was left behind by pid {pid}, which is gone; continue it with `loopgate run --resume -- AGENT…`, end it with `loopgate cancel`, or pass `--force` to replace it"
            ),
            Self::Conflict { session, loop_id, .. } => write!(
                f,
                "a loop (`{loop_id}`) is already running in this project for session `{session}`; cancel it with `loopgate cancel`, or pass `--force` to replace it"
            ),
            Self::AgentStart { command, source, hint } => {
                write!(f, "failed to start the agent `{command}`: {source}{hint}")
            }
            Self::NoCheckpoints(why) => f.write_str(why),
            Self::VerifyRunning { what: Some(what) } => write!(
                f,
                "a verify command is running in this project ({what}); roll back when it has finished (`loopgate status` shows the loop)"
            ),
            Self::VerifyRunning { what: None } => f.write_str(
                "a verify command is running in this project; roll back when it has finished (`loopgate status` shows the loop)",
            ),
            Self::Git(err) => err.fmt(f),
            Self::State(err) => err.fmt(f),
            Self::Seal(err) => err.fmt(f),
            Self::History(err) => err.fmt(f),
            Self::Verify(err) => err.fmt(f),
            Self::Tool { command, problem } => write!(f, "failed to run `{command}`: {problem}"),
            Self::Io { action, path, source } => write!(f, "failed to {action} `{}`: {source}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

impl From<StateError> for Error {
    fn from(err: StateError) -> Self {
        Self::State(err)
    }
}

impl From<SealError> for Error {
    fn from(err: SealError) -> Self {
        Self::Seal(err)
    }
}

impl From<HistoryError> for Error {
    fn from(err: HistoryError) -> Self {
        Self::History(err)
    }
}

impl From<crate::checkpoint::GitError> for Error {
    fn from(err: crate::checkpoint::GitError) -> Self {
        Self::Git(err)
    }
}

impl From<VerifyError> for Error {
    fn from(err: VerifyError) -> Self {
        Self::Verify(err)
    }
}
