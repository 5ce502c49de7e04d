//! Whether loopgate's hooks in an agent CLI will run: asked by a `/pua-loop` carried out from that CLI (a loop
//! whose Stop hook cannot run must not start), by `loopgate status` (no protection is claimed for it) and at a
//! stop.
//!
//! - Codex CLI runs a hook only while `config.toml` trusts it with the hash of the hook as `hooks.json` now reads
//!   (`codex_trust`); an edited hook is skipped without a word by `codex exec`.
//! - Gemini CLI loads settings hooks only in a trusted folder: `GEMINI_CLI_TRUST_WORKSPACE` (`true`/`false`),
//!   `GEMINI_RESTRICTED_MODE=true`, `security.folderTrust.enabled = false` in its settings (no folder trust at
//!   all), else the longest rule of `trustedFolders.json` (`$GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else beside
//!   `settings.json`) that holds the folder: `TRUST_FOLDER` (the folder and below), `TRUST_PARENT` (the rule's
//!   parent and below), `DO_NOT_TRUST` (read from Gemini CLI 0.61.0's `packages/core/src/utils/trust.ts`). A
//!   folder no rule names is asked about by the interactive UI and refused by `gemini -p` unless `--skip-trust`
//!   is given, which leaves no trace: only a folder known to be untrusted is reported.
//!
//! Only the hooks that hold the loop are checked: the stop-like one and the pre-tool one (the guard).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Found, config_dir, loopgate_handlers, read_json, read_text, spec};
use crate::cli::{Agent, HookEvent};
use crate::commands::install::codex_trust;

/// What the check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ready {
    /// loopgate is not installed into this CLI (none of its hooks are in the CLI's configuration).
    NotInstalled,
    /// Its hooks are in place and will run.
    Yes,
    /// They will not: why (after "control plane: unprotected (") and the fix.
    No { why: String, fix: String },
}

/// The hooks checked: the stop-like one, then the guard's.
const HELD: [HookEvent; 2] = [HookEvent::Stop, HookEvent::PreToolUse];

/// Whether loopgate's hooks in `agent` will run for a session in `folder`. `in_hook`: asked from one of the
/// CLI's own hooks, which proves the folder is trusted where that is what the CLI asks.
pub(crate) fn check(agent: Agent, folder: &Path, in_hook: bool) -> Ready {
    let (Ok(spec), Some(name)) = (spec(agent), display_name(agent)) else {
        return Ready::NotInstalled;
    };
    let Ok(dir) = config_dir(spec) else {
        return Ready::NotInstalled;
    };
    let hooks_path = dir.join(spec.hooks_file);
    let config = read_json(&hooks_path).unwrap_or(Value::Null);
    let found = loopgate_handlers(spec, &config);
    if found.is_empty() {
        return Ready::NotInstalled;
    }
    let install = format!("run `loopgate install --agent {}`", agent.name());
    let mut held = Vec::new();
    for event in HELD {
        let Some(event_name) = agent.event_name(&event) else {
            continue;
        };
        let hook = found.iter().find(|f| {
            f.event == event_name
                && f.handler["command"]
                    .as_str()
                    .is_some_and(|c| c.ends_with(&format!(" {}", event.arg())))
        });
        let Some(hook) = hook else {
            return Ready::No {
                why: format!(
                    "{name}'s {event_name} hook is not loopgate's in `{}`",
                    hooks_path.display()
                ),
                fix: install,
            };
        };
        held.push((event_name, hook));
    }
    match agent {
        Agent::Codex => codex_trusted(name, &dir, &hooks_path, &held),
        Agent::Gemini if !in_hook => gemini_folder(name, &dir, &config, folder),
        _ => Ready::Yes,
    }
}

fn display_name(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Codex => Some("Codex"),
        Agent::Gemini => Some("Gemini CLI"),
        Agent::Cursor => Some("Cursor"),
        Agent::Copilot => Some("Copilot CLI"),
        Agent::Claude | Agent::Opencode => None,
    }
}

/// Codex: each held hook's trusted hash in `config.toml` is the one Codex computes for it as it reads now.
fn codex_trusted(name: &str, dir: &Path, hooks_path: &Path, held: &[(&str, &Found<'_>)]) -> Ready {
    let toml_path = dir.join("config.toml");
    let trusted = codex_trust::trusted(&read_text(&toml_path).unwrap_or_default());
    for (event, hook) in held {
        let key = codex_trust::key(hooks_path, &hook.event, hook.group, hook.index);
        let hash = codex_trust::codex_hook_hash(event, hook.handler);
        let why = match trusted.get(&key) {
            Some(recorded) if *recorded == hash => continue,
            Some(_) => "it changed since it was trusted, and Codex skips it without a word",
            None => "Codex skips it without a word",
        };
        return Ready::No {
            why: format!(
                "{name}'s {event} hook is not trusted in `{}`: {why}",
                toml_path.display()
            ),
            fix: "run `loopgate install --agent codex`, or review the hooks with /hooks in Codex and trust them"
                .to_string(),
        };
    }
    Ready::Yes
}

/// Gemini CLI: the folder is not known to be untrusted (see the module's header).
fn gemini_folder(name: &str, dir: &Path, settings: &Value, folder: &Path) -> Ready {
    let untrusted = |how: String| Ready::No {
        why: format!("{name} runs no hooks in `{}`: {how}", folder.display()),
        fix: "trust the folder in Gemini CLI (`/permissions`), or start it with `--skip-trust`".to_string(),
    };
    let env = |name| std::env::var(name).ok();
    if env("GEMINI_RESTRICTED_MODE").as_deref() == Some("true") {
        return untrusted("`GEMINI_RESTRICTED_MODE=true`".into());
    }
    match env("GEMINI_CLI_TRUST_WORKSPACE").as_deref() {
        Some("false") => return untrusted("`GEMINI_CLI_TRUST_WORKSPACE=false`".into()),
        Some("true") => return Ready::Yes,
        _ => {}
    }
    if settings["security"]["folderTrust"]["enabled"] == Value::Bool(false) {
        return Ready::Yes;
    }
    let rules_path = env("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .filter(|p| !p.is_empty())
        .map_or_else(|| dir.join("trustedFolders.json"), PathBuf::from);
    let rules = read_json(&rules_path).unwrap_or(Value::Null);
    match folder_rule(&rules, folder) {
        Some("DO_NOT_TRUST") => untrusted(format!("it is not trusted in `{}`", rules_path.display())),
        _ => Ready::Yes,
    }
}

/// The trust level of the longest rule that holds `folder` (Gemini CLI's `isPathTrusted`).
fn folder_rule<'a>(rules: &'a Value, folder: &Path) -> Option<&'a str> {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let folder = real(folder);
    let mut best: Option<(usize, &str)> = None;
    for (rule, level) in rules.as_object()? {
        let Some(level) = level.as_str() else {
            continue;
        };
        let rule_path = Path::new(rule);
        let effective = if level == "TRUST_PARENT" {
            rule_path.parent().unwrap_or(rule_path)
        } else {
            rule_path
        };
        if folder.starts_with(real(effective)) && best.is_none_or(|(len, _)| rule.len() > len) {
            best = Some((rule.len(), level));
        }
    }
    best.map(|(_, level)| level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_longest_rule_holding_the_folder_wins() {
        let rules = json!({"/w": "TRUST_FOLDER", "/w/p": "DO_NOT_TRUST", "/x/y": "TRUST_PARENT"});
        assert_eq!(folder_rule(&rules, Path::new("/w/q")), Some("TRUST_FOLDER"));
        assert_eq!(folder_rule(&rules, Path::new("/w/p/sub")), Some("DO_NOT_TRUST"));
        assert_eq!(folder_rule(&rules, Path::new("/x/z")), Some("TRUST_PARENT"));
        assert_eq!(folder_rule(&rules, Path::new("/v")), None);
    }
}
