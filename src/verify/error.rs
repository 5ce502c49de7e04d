//! The verify runner's errors: only what keeps the oracle from running or being recorded. A
//! command that fails, is missing (exit 127) or times out is an outcome, not an error.

use std::io;
use std::path::PathBuf;

/// Why the oracle could not be run or recorded. Display reads after "error: " and ends with the cause.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// `/bin/sh` (or the pipe and threads around it) could not be started, e.g. `cwd` is missing.
    #[error("failed to start verify command `{command}` in `{}`: {source}", cwd.display())]
    Spawn {
        command: String,
        cwd: PathBuf,
        source: io::Error,
    },
    /// The log file could not be created or written.
    #[error("failed to write verify log `{}`: {source}", path.display())]
    Log { path: PathBuf, source: io::Error },
    /// Waiting for the shell failed (e.g. SIGCHLD is ignored, so the child was auto-reaped).
    #[error("failed to wait for verify command `{command}`: {source}")]
    Wait { command: String, source: io::Error },
    /// loopgate was interrupted (Ctrl-C, SIGTERM, SIGHUP; see `crate::interrupt`): the command was not started,
    /// or was stopped; the log of the last complete run is untouched.
    #[error("verify command `{command}` was stopped: loopgate was interrupted ({})", crate::interrupt::name(*signal))]
    Interrupted { command: String, signal: i32 },
    /// Reading the output pipe failed.
    #[error("failed to read the output of verify command `{command}`: {source}")]
    Read { command: String, source: io::Error },
}
