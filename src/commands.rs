//! Terminal commands, one module each. Each returns the exit code to end with, or an error that maps to one.

pub(crate) mod accept;
pub(crate) mod allow;
pub(crate) mod cancel;
pub(crate) mod check;
pub(crate) mod checkpoints;
pub(crate) mod completions;
pub(crate) mod confine;
pub(crate) mod diff;
pub(crate) mod history;
pub mod install;
pub(crate) mod report;
pub(crate) mod resume;
pub(crate) mod rollback;
pub(crate) mod run;
pub(crate) mod setup;
pub(crate) mod status;
pub(crate) mod tournament;
pub(crate) mod verify;
pub(crate) mod warden;

use crate::lifecycle::{lock, lock_existing};

/// The session a terminal command acts for: the flag, else `$CLAUDE_CODE_SESSION_ID` (set inside Claude Code).
/// An unsubstituted `${CLAUDE_SESSION_ID}` placeholder counts as no session.
fn session_from(flag: Option<String>) -> String {
    pick_session(flag, || std::env::var("CLAUDE_CODE_SESSION_ID").ok())
}

/// [`session_from`] with the environment variable's value given, so tests need not touch the environment.
fn pick_session(flag: Option<String>, env: impl FnOnce() -> Option<String>) -> String {
    flag.or_else(env)
        .filter(|id| !id.trim().is_empty() && !id.contains("${"))
        .map(|id| id.trim().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::pick_session;

    #[test]
    fn the_flag_wins_then_the_environment_and_placeholders_are_no_session() {
        let env = || Some("from-env".to_string());
        assert_eq!(pick_session(Some(" flag ".into()), env), "flag");
        assert_eq!(pick_session(None, env), "from-env");
        assert_eq!(pick_session(None, || None), "");
        assert_eq!(pick_session(None, || Some("  ".into())), "");
        // An unsubstituted placeholder in the slash command is no session, whatever the environment says.
        assert_eq!(pick_session(Some("${CLAUDE_SESSION_ID}".into()), env), "");
        assert_eq!(pick_session(None, || Some("${CLAUDE_SESSION_ID}".into())), "");
    }
}
