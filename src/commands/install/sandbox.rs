//! `loopgate install --sandbox`: turn on Claude Code's OS sandbox in the user's settings so that the agent's
//! commands — and everything they start — cannot write loopgate's seal store.
//!
//! Measured with the real client (2.1.197 and 2.1.330, Linux, bubblewrap 0.8 from Debian, as root in a
//! container): with `sandbox.enabled` every Bash command of the agent, and a slash command's `!` block, runs in
//! bubblewrap (`SANDBOX_RUNTIME=1`, its own PID namespace) and may write only the project and
//! `$TMPDIR` (`/tmp/claude-<uid>`); the home directory, `/tmp` at large and `sandbox.filesystem.denyWrite`
//! paths fail with "Read-only file system"; `.claude/settings*.json` are always read-only. Hooks run outside it.
//! The settings written:
//!
//! - `enabled: true`;
//! - `allowUnsandboxedCommands: false`: otherwise the model may ask for `dangerouslyDisableSandbox` and run a
//!   command outside the sandbox;
//! - `filesystem.denyWrite` += `$LOOPGATE_HOME`: already outside the writable set by default, listed in case
//!   it is moved under the project or the temp directory.
//!
//! `excludedCommands` is left alone but warned about: Claude Code runs a whole command line unsandboxed when
//! any one of its subcommands matches (read from 2.1.197's command matcher), so it is an escape hatch.
//! Rules for the project's own files (the sealed tests) belong in the project's `.claude/settings.json`:
//! Claude Code reads sandbox rules at session start — a rule a hook wrote mid-session into the project's
//! `settings.json` or `settings.local.json` was not applied to later commands in 2.1.197 or 2.1.330 — so a loop
//! cannot add them for itself.

use std::path::Path;

use serde_json::{Value, json};

use crate::error::Error;

/// The `sandbox` settings loopgate asks for, keeping `store` read-only.
pub fn settings(store: &Path) -> Value {
    json!({
        "enabled": true,
        "allowUnsandboxedCommands": false,
        "filesystem": {"denyWrite": [store.to_string_lossy()]},
    })
}

/// `existing` settings with loopgate's sandbox settings merged in (every other key kept); a warning for the
/// user when something in them still opens the sandbox.
pub(crate) fn merge(mut existing: Value, store: &Path) -> Result<(Value, Option<String>), String> {
    let root = existing.as_object_mut().ok_or("it is not a JSON object")?;
    let sandbox = root.entry("sandbox").or_insert_with(|| json!({}));
    let sandbox = sandbox.as_object_mut().ok_or("its `sandbox` is not a JSON object")?;
    sandbox.insert("enabled".into(), Value::Bool(true));
    sandbox.insert("allowUnsandboxedCommands".into(), Value::Bool(false));
    let filesystem = sandbox.entry("filesystem").or_insert_with(|| json!({}));
    let filesystem = filesystem
        .as_object_mut()
        .ok_or("its `sandbox.filesystem` is not a JSON object")?;
    let deny = filesystem.entry("denyWrite").or_insert_with(|| json!([]));
    let deny = deny
        .as_array_mut()
        .ok_or("its `sandbox.filesystem.denyWrite` is not a JSON array")?;
    let store = Value::String(store.to_string_lossy().into_owned());
    if !deny.contains(&store) {
        deny.push(store);
    }
    let excluded = sandbox
        .get("excludedCommands")
        .and_then(Value::as_array)
        .filter(|list| !list.is_empty())
        .map(|list| {
            format!(
                "`sandbox.excludedCommands` ({}) runs any command line containing one of them outside the sandbox, where the agent can reach loopgate's store; remove what you can",
                list.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
            )
        });
    Ok((existing, excluded))
}

/// Merges the sandbox settings into the user settings file at `path` (created if missing).
pub(crate) fn apply(path: &Path, store: &Path) -> Result<(), Error> {
    let problem = |problem: String| {
        Error::Usage(format!(
            "failed to update `{}`: {problem}; fix or move it, then run `loopgate install --sandbox` again",
            path.display()
        ))
    };
    let existing = match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| problem(format!("it is not valid JSON ({e})")))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(problem(e.to_string())),
    };
    let (merged, warning) = merge(existing, store).map_err(|p| problem(p.to_string()))?;
    let text = serde_json::to_string_pretty(&merged).map_err(|e| problem(e.to_string()))? + "\n";
    super::write_file(path, &text, 0o600)?;
    crate::say(format!(
        "loopgate: turned on Claude Code's sandbox in `{}`: the agent's commands cannot write `{}` (start a new session)",
        path.display(),
        store.display()
    ));
    if let Some(warning) = warning {
        eprintln!("loopgate: {warning}");
    }
    if cfg!(target_os = "linux") && !on_path("bwrap") {
        eprintln!(
            "loopgate: `bwrap` is not on PATH: Claude Code's sandbox needs bubblewrap and socat on Linux (`apt-get install bubblewrap socat`), else it warns and runs commands unsandboxed"
        );
    }
    Ok(())
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_keeps_the_users_settings_and_is_idempotent() {
        let store = Path::new("/home/u/.local/state/loopgate");
        let user = json!({"model": "x", "sandbox": {"enabled": false, "allowUnsandboxedCommands": true,
            "filesystem": {"denyWrite": ["./secrets"], "allowWrite": ["/opt/cache"]}, "network": {"allowedDomains": ["a"]}}});
        let (merged, warning) = merge(user, store).expect("merge");
        assert_eq!(warning, None);
        let expected = json!({"model": "x", "sandbox": {"enabled": true, "allowUnsandboxedCommands": false,
            "filesystem": {"denyWrite": ["./secrets", "/home/u/.local/state/loopgate"], "allowWrite": ["/opt/cache"]},
            "network": {"allowedDomains": ["a"]}}});
        assert_eq!(merged, expected);
        assert_eq!(
            merge(merged, store).expect("again").0,
            expected,
            "twice changes nothing"
        );
        assert_eq!(
            merge(json!({}), store).expect("empty").0,
            json!({"sandbox": settings(store)})
        );
    }

    #[test]
    fn excluded_commands_are_warned_about_and_malformed_settings_are_named() {
        let store = Path::new("/s");
        let (_, warning) = merge(json!({"sandbox": {"excludedCommands": ["docker"]}}), store).expect("merge");
        assert!(warning.is_some_and(|w| w.contains("\"docker\"") && w.contains("outside the sandbox")));
        assert_eq!(
            merge(json!([]), store).expect_err("an array"),
            "it is not a JSON object"
        );
        assert_eq!(
            merge(json!({"sandbox": {"filesystem": {"denyWrite": "x"}}}), store).expect_err("a string"),
            "its `sandbox.filesystem.denyWrite` is not a JSON array"
        );
    }
}
