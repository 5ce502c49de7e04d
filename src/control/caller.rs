//! Who runs a control command, as far as the environment tells: inside Claude Code (the agent's tools and a
//! slash command's block) or not, and inside Claude Code's OS sandbox or not.
//!
//! Checked against the real client (2.1.197 and 2.1.330, Linux): the Bash tool and a slash command's `!` block
//! both get `CLAUDECODE=1`, `CLAUDE_CODE_SESSION_ID` and `CLAUDE_CODE_ENTRYPOINT`; with `sandbox.enabled` both
//! also get `SANDBOX_RUNTIME=1`. Hooks get the session id but run outside the sandbox. Children inherit all of
//! it, so it survives scripts, interpreters, background jobs and double forks; only an explicit scrub removes it.

/// What the environment says about the caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Caller {
    /// Started (directly or not) by Claude Code.
    pub(crate) in_claude_code: bool,
    /// Which variable said so (for the error message).
    pub(crate) marker: Option<&'static str>,
    /// Inside Claude Code's OS sandbox (bubblewrap on Linux, Seatbelt on macOS).
    pub(crate) sandboxed: bool,
}

/// The variables Claude Code sets for every command it runs, the most specific first.
const MARKERS: [&str; 3] = ["CLAUDE_CODE_SESSION_ID", "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"];

impl Caller {
    /// The caller of this process.
    pub(crate) fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// The caller as `get` reports the environment (tests pass a map).
    pub(crate) fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let set = |name: &str| get(name).is_some_and(|v| !v.trim().is_empty());
        let marker = MARKERS.into_iter().find(|name| set(name));
        Self {
            in_claude_code: marker.is_some(),
            marker,
            sandboxed: get("SANDBOX_RUNTIME").is_some_and(|v| v.trim() == "1"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Caller;

    fn caller(vars: &[(&str, &str)]) -> Caller {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        Caller::from_lookup(|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    #[test]
    fn any_claude_code_marker_makes_the_caller_the_agents_and_the_sandbox_is_seen() {
        assert_eq!(caller(&[]), Caller::default());
        let inside = caller(&[("CLAUDECODE", "1")]);
        assert!(inside.in_claude_code && !inside.sandboxed);
        assert_eq!(inside.marker, Some("CLAUDECODE"));
        assert_eq!(
            caller(&[("CLAUDE_CODE_ENTRYPOINT", "sdk-cli")]).marker,
            Some("CLAUDE_CODE_ENTRYPOINT")
        );
        let both = caller(&[
            ("CLAUDECODE", "1"),
            ("CLAUDE_CODE_SESSION_ID", "s"),
            ("SANDBOX_RUNTIME", "1"),
        ]);
        assert_eq!(both.marker, Some("CLAUDE_CODE_SESSION_ID"));
        assert!(both.sandboxed);
        // Empty values are no marker; only `SANDBOX_RUNTIME=1` is the sandbox (hooks get `IS_SANDBOX=yes`
        // while running outside it).
        assert!(!caller(&[("CLAUDECODE", " ")]).in_claude_code);
        assert!(!caller(&[("SANDBOX_RUNTIME", "0"), ("IS_SANDBOX", "yes")]).sandboxed);
    }
}
