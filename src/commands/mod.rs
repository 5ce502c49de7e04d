//! Terminal commands, one module each. Each returns the exit code to end with, or an error that maps to one.

pub mod cancel;
pub mod history;
pub mod resume;
pub mod setup;
pub mod status;
pub mod verify;

use crate::error::Error;
use crate::fsutil::LockGuard;
use crate::project::Project;

/// Takes the project lock for a terminal command.
fn lock(project: &Project) -> Result<LockGuard, Error> {
    LockGuard::acquire(&project.lock_path()).map_err(|source| Error::Io {
        action: "lock",
        path: project.lock_path(),
        source,
    })
}

/// The session a terminal command acts for: the flag, else `$CLAUDE_CODE_SESSION_ID` (set inside Claude Code).
/// An unsubstituted `${CLAUDE_SESSION_ID}` placeholder counts as no session.
fn session_from(flag: Option<String>) -> String {
    flag.or_else(|| std::env::var("CLAUDE_CODE_SESSION_ID").ok())
        .filter(|id| !id.trim().is_empty() && !id.contains("${"))
        .map(|id| id.trim().to_string())
        .unwrap_or_default()
}
