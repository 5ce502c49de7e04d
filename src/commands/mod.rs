//! Terminal commands, one module each. Each returns the exit code to end with, or an error that maps to one.

pub mod allow;
pub mod cancel;
pub mod checkpoints;
pub mod diff;
pub mod history;
pub mod install;
pub mod resume;
pub mod rollback;
pub mod run;
pub mod setup;
pub mod status;
pub mod verify;

use crate::lifecycle::lock;

/// The session a terminal command acts for: the flag, else `$CLAUDE_CODE_SESSION_ID` (set inside Claude Code).
/// An unsubstituted `${CLAUDE_SESSION_ID}` placeholder counts as no session.
fn session_from(flag: Option<String>) -> String {
    flag.or_else(|| std::env::var("CLAUDE_CODE_SESSION_ID").ok())
        .filter(|id| !id.trim().is_empty() && !id.contains("${"))
        .map(|id| id.trim().to_string())
        .unwrap_or_default()
}
