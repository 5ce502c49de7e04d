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
//! Install says each setting it changes (old value → new), and records the old values in its manifest
//! ([`Prior`]) so `loopgate uninstall` puts them back; the settings file keeps the user's key order (serde_json's
//! `preserve_order`).
//!
//! `excludedCommands` is left alone but warned about: Claude Code runs a whole command line unsandboxed when
//! any one of its subcommands matches (read from 2.1.197's command matcher), so it is an escape hatch.
//! Rules for the project's own files (the sealed tests) belong in the project's `.claude/settings.json`:
//! Claude Code reads sandbox rules at session start — a rule a hook wrote mid-session into the project's
//! `settings.json` or `settings.local.json` was not applied to later commands in 2.1.197 or 2.1.330 — so a loop
//! cannot add them for itself.

use std::path::Path;

use serde::{Deserialize, Serialize};
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

/// The sandbox settings as they were before the first `install --sandbox` changed them (`None`: unset), so
/// `uninstall` can put them back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Prior {
    pub(crate) enabled: Option<Value>,
    pub(crate) allow_unsandboxed_commands: Option<Value>,
    /// Install added the store to `sandbox.filesystem.denyWrite` (it was not listed).
    pub(crate) added_deny_write: bool,
}

impl Prior {
    fn of(settings: &Value, store: &Path) -> Prior {
        let sandbox = settings.get("sandbox");
        let listed = sandbox
            .and_then(|s| s.pointer("/filesystem/denyWrite"))
            .and_then(Value::as_array)
            .is_some_and(|deny| deny.iter().any(|v| v.as_str() == Some(&*store.to_string_lossy())));
        Prior {
            enabled: sandbox.and_then(|s| s.get("enabled")).cloned(),
            allow_unsandboxed_commands: sandbox.and_then(|s| s.get("allowUnsandboxedCommands")).cloned(),
            added_deny_write: !listed,
        }
    }

    /// Whether the settings were already as install wants them.
    pub(crate) fn changes_nothing(&self) -> bool {
        self.changes(Path::new("")).is_empty()
    }

    /// One line per setting install changes, old → new, with what it means.
    fn changes(&self, store: &Path) -> Vec<String> {
        let shown = |v: &Option<Value>| v.as_ref().map_or("unset".to_string(), Value::to_string);
        let mut out = Vec::new();
        if self.enabled != Some(Value::Bool(true)) {
            out.push(format!(
                "sandbox.enabled: {} → true (the agent's commands run in Claude Code's OS sandbox)",
                shown(&self.enabled)
            ));
        }
        if self.allow_unsandboxed_commands != Some(Value::Bool(false)) {
            out.push(format!(
                "sandbox.allowUnsandboxedCommands: {} → false (no command runs outside the sandbox, even when the model asks)",
                shown(&self.allow_unsandboxed_commands)
            ));
        }
        if self.added_deny_write {
            out.push(format!(
                "sandbox.filesystem.denyWrite: + {} (loopgate's seal store)",
                store.display()
            ));
        }
        out
    }
}

/// `settings` with what install changed put back as `prior` says (every other key kept).
pub(crate) fn restore(mut settings: Value, store: &Path, prior: &Prior) -> Result<Value, String> {
    let root = settings.as_object_mut().ok_or("it is not a JSON object")?;
    let Some(sandbox) = root.get_mut("sandbox") else {
        return Ok(settings);
    };
    let sandbox = sandbox.as_object_mut().ok_or("its `sandbox` is not a JSON object")?;
    for (key, old) in [
        ("enabled", &prior.enabled),
        ("allowUnsandboxedCommands", &prior.allow_unsandboxed_commands),
    ] {
        match old {
            Some(old) => {
                sandbox.insert(key.into(), old.clone());
            }
            None => {
                sandbox.shift_remove(key);
            }
        }
    }
    if prior.added_deny_write
        && let Some(filesystem) = sandbox.get_mut("filesystem").and_then(Value::as_object_mut)
    {
        if let Some(deny) = filesystem.get_mut("denyWrite").and_then(Value::as_array_mut) {
            deny.retain(|v| v.as_str() != Some(&*store.to_string_lossy()));
            if deny.is_empty() {
                filesystem.shift_remove("denyWrite");
            }
        }
        if filesystem.is_empty() {
            sandbox.shift_remove("filesystem");
        }
    }
    if sandbox.is_empty() {
        root.shift_remove("sandbox");
    }
    Ok(settings)
}

/// Puts back the settings `prior` records in the file at `path`; the line to show. An error says plainly why
/// not (the file is gone, or no longer JSON), and changes nothing.
pub(crate) fn unapply(path: &Path, store: &Path, prior: &Prior) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("`{}` cannot be read ({e})", path.display()))?;
    let settings: Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("`{}` is not valid JSON ({e})", path.display()))?;
    let restored = restore(settings, store, prior).map_err(|p| format!("`{}`: {p}", path.display()))?;
    let text = serde_json::to_string_pretty(&restored).map_err(|e| e.to_string())? + "\n";
    super::write_file(path, &text, 0o600).map_err(|e| e.to_string())?;
    Ok(format!(
        "loopgate: put Claude Code's sandbox settings in `{}` back as they were before `loopgate install --sandbox`",
        path.display()
    ))
}

/// Merges the sandbox settings into the user settings file at `path` (created if missing), saying every
/// setting it changes; returns the settings as they were.
pub(crate) fn apply(path: &Path, store: &Path) -> Result<Prior, Error> {
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
    let prior = Prior::of(&existing, store);
    let (merged, warning) = merge(existing, store).map_err(|p| problem(p.to_string()))?;
    let changes = prior.changes(store);
    if changes.is_empty() {
        crate::say(format!(
            "loopgate: Claude Code's sandbox is already on in `{}`: nothing changed",
            path.display()
        ));
    } else {
        let text = serde_json::to_string_pretty(&merged).map_err(|e| problem(e.to_string()))? + "\n";
        super::write_file(path, &text, 0o600)?;
        crate::say(format!(
            "loopgate: turned on Claude Code's sandbox in `{}`, for every project (start a new session); changed:\n  {}\n`loopgate uninstall` puts these back.",
            path.display(),
            changes.join("\n  ")
        ));
    }
    if let Some(warning) = warning {
        eprintln!("loopgate: {warning}");
    }
    if cfg!(target_os = "linux") && !on_path("bwrap") {
        eprintln!(
            "loopgate: `bwrap` is not on PATH: Claude Code's sandbox needs bubblewrap and socat on Linux (`apt-get install bubblewrap socat`), else it warns and runs commands unsandboxed"
        );
    }
    Ok(prior)
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
    fn restoring_puts_back_what_install_changed_in_the_users_order() {
        let store = Path::new("/s");
        let user = json!({"z": 1, "sandbox": {"enabled": false, "network": {"a": 1}}, "a": 2});
        let prior = Prior::of(&user, store);
        let (merged, _) = merge(user.clone(), store).expect("merge");
        let keys: Vec<&String> = merged.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["z", "sandbox", "a"], "the user's key order is kept");
        assert_eq!(prior.changes(store).len(), 3, "{:?}", prior.changes(store));
        let restored = restore(merged, store, &prior).expect("restore");
        assert_eq!(
            serde_json::to_string(&restored).expect("text"),
            serde_json::to_string(&user).expect("text"),
            "back as it was, in its order"
        );
        let untouched = json!({"sandbox": {"enabled": true, "allowUnsandboxedCommands": false, "filesystem": {"denyWrite": ["/s"]}}});
        assert!(Prior::of(&untouched, store).changes(store).is_empty());
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
