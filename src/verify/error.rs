//! The verify runner's errors: only what keeps the oracle from running or being recorded. A
//! command that fails, is missing (exit 127) or times out is an outcome, not an error.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why the oracle could not be run or recorded. Display reads after "error: ".
#[derive(Debug)]
pub enum VerifyError {
    /// `/bin/sh` (or the pipe and threads around it) could not be started, e.g. `cwd` is missing.
    Spawn {
        command: String,
        cwd: PathBuf,
        source: io::Error,
    },
    /// The log file could not be created or written.
    Log { path: PathBuf, source: io::Error },
    /// Waiting for the shell failed (e.g. SIGCHLD is ignored, so the child was auto-reaped).
    Wait { command: String, source: io::Error },
    /// Reading the output pipe failed.
    Read { command: String, source: io::Error },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Spawn { command, cwd, source } => {
                write!(
                    f,
                    "failed to start verify command `{command}` in `{}`: {source}",
                    cwd.display()
                )
            }
            VerifyError::Log { path, source } => {
                write!(f, "failed to write verify log `{}`: {source}", path.display())
            }
            VerifyError::Wait { command, source } => {
                write!(f, "failed to wait for verify command `{command}`: {source}")
            }
            VerifyError::Read { command, source } => {
                write!(f, "failed to read the output of verify command `{command}`: {source}")
            }
        }
    }
}

/// The cause is part of the message (cause last), so `source` is not repeated here.
impl std::error::Error for VerifyError {}
