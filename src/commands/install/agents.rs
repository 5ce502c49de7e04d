//! `loopgate install --agent codex|gemini|cursor|copilot|opencode`: the hooks of an agent CLI other than Claude
//! Code, and its commands.
//!
//! What each agent's hooks are called is `cli::Agent::event_name`, how they answer the adapter's (`hook::agent`);
//! this module writes
//! the configuration that makes the agent call them, from one table ([`SPECS`]):
//!
//! - the hook configuration (Codex: `$CODEX_HOME/hooks.json`, Gemini: `~/.gemini/settings.json`, key `hooks`, in
//!   Claude Code's groups; Cursor: `~/.cursor/hooks.json`, Copilot CLI: `~/.copilot/hooks/loopgate.json`, one
//!   entry per hook in a `"version": 1` file): one hook per event that runs `loopgate hook --agent A EVENT` by
//!   this binary's absolute path. Hooks loopgate wrote before are replaced, everything else in the file is kept.
//!   opencode has no hook configuration: its hooks are a JavaScript plugin, written whole
//!   (`opencode_plugin.js`), that runs the same command;
//! - Codex runs a hook only once it is trusted, and skips an untrusted one without a word. Trust is a
//!   `[hooks.state."FILE:EVENT:GROUP:INDEX"] trusted_hash` table in `config.toml`, the hash Codex computes
//!   itself (checked with 0.169.0: a hook with that entry runs with no `--dangerously-bypass-hook-trust`);
//!   install writes one such table per hook and uninstall removes exactly those, editing the file structurally
//!   (`codex_trust`): the user's tables and the ones Codex appends later stay, byte for byte;
//! - uninstall removes loopgate's groups (and an event's list or `hooks` that held only them), its command files,
//!   and the files and directories that leaves empty: install then uninstall in a fresh `$HOME` leaves nothing;
//! - the commands that start, cancel and resume a loop: Gemini's prompts that expand to `/pua-loop ARGS`,
//!   `/cancel-loop`, `/resume-loop`, and Codex's skills `$pua-loop`, `$cancel-loop`, `$resume-loop`, which the
//!   prompt hook (run for the user's prompts only) carries out.
//!   Typed as such in `codex exec` or `gemini -p` they work the same.
//!
//! Gemini CLI loads settings hooks only in a trusted folder; install says so (it cannot trust a folder it does
//! not know).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

pub(crate) mod ready;

use super::codex_trust;
use crate::cli::{Agent, HookEvent};
use crate::error::Error;

/// How one agent is configured.
struct Spec {
    agent: Agent,
    /// Its configuration directory: the variable that moves it (if it has one), and its name under `$HOME` — or
    /// under the home the CLI's own variable names (`home_var`: Gemini CLI's `GEMINI_CLI_HOME` stands for `~`,
    /// read from its `homedir()`, 0.61.0).
    dir_var: Option<&'static str>,
    home_var: Option<&'static str>,
    dir_name: &'static str,
    /// The hook configuration file in that directory.
    hooks_file: &'static str,
    /// How the file lists hooks: Claude Code's groups (`EVENT[].hooks[]`) or one entry per hook under a
    /// `"version": 1` file (`EVENT[]`: Cursor, Copilot CLI).
    shape: Shape,
    /// One hook's entry: the command and its timeout in seconds; `stop`: it is the stop hook.
    handler: fn(command: String, seconds: u64, stop: bool) -> Value,
    /// Codex's hook trust must be recorded in `config.toml`, or the hooks never run.
    trust: bool,
    /// The commands directory and how one command file reads (`None`: the agent has no such commands; the
    /// user types `/pua-loop …` as the prompt, which the prompt hook carries out all the same).
    commands: Option<(&'static str, CommandFile)>,
    /// A commands directory earlier versions of loopgate wrote `NAME.md` files into and this one no longer does
    /// (Codex's `prompts/`, which no Codex checked loads): install and uninstall remove those files.
    retired: Option<&'static str>,
}

type CommandFile = fn(name: &str, expands_to: &str) -> (String, String);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Groups,
    Flat,
    /// No hook configuration: the file is a plugin of the agent's own (opencode's JavaScript), written whole
    /// from [`OPENCODE_PLUGIN`] and handing each event to `loopgate hook --agent A EVENT`.
    Plugin,
}

/// opencode's plugin, `@LOOPGATE@` standing for this binary's path.
const OPENCODE_PLUGIN: &str = include_str!("opencode_plugin.js");

/// Claude Code's handler, in `per_second` units of time.
fn command_handler(command: String, seconds: u64, per_second: u64) -> Value {
    json!({"type": "command", "command": command, "timeout": seconds * per_second})
}

const SPECS: [Spec; 5] = [
    Spec {
        agent: Agent::Codex,
        dir_var: Some("CODEX_HOME"),
        home_var: None,
        dir_name: ".codex",
        hooks_file: "hooks.json",
        shape: Shape::Groups,
        handler: |command, seconds, _| command_handler(command, seconds, 1),
        trust: true,
        // Codex's interactive UI (0.169.0, 0.171.0) runs no custom `/` command: its own commands are skills
        // (`$CODEX_HOME/skills/NAME/SKILL.md`), which the user names with `$NAME` (the `$` key lists them). The
        // prompt hook carries out `$pua-loop …` as `/pua-loop …`; the skill's text is what the model reads.
        commands: Some(("skills", |name, _| skill(Agent::Codex, name))),
        retired: Some("prompts"),
    },
    Spec {
        agent: Agent::Gemini,
        dir_var: None,
        home_var: Some("GEMINI_CLI_HOME"),
        dir_name: ".gemini",
        hooks_file: "settings.json",
        shape: Shape::Groups,
        handler: |command, seconds, _| command_handler(command, seconds, 1000),
        trust: false,
        commands: Some(("commands", |name, body| {
            let mut body = body.replace("$ARGUMENTS", "{{args}}");
            if name == "pua-loop" {
                body = format!("{body}\n\n{}", crate::messages::agents::GEMINI_NO_HOOKS_NOTE);
            }
            let quoted = Value::String(body).to_string();
            (format!("{name}.toml"), format!("# {MARK}\nprompt = {quoted}\n"))
        })),
        retired: None,
    },
    // Cursor: `timeout` in seconds; `loop_limit: null` lifts Cursor's cap of 5 follow-ups per conversation
    // (which a tool call does not reset), loopgate keeping its own.
    Spec {
        agent: Agent::Cursor,
        dir_var: None,
        home_var: None,
        dir_name: ".cursor",
        hooks_file: "hooks.json",
        shape: Shape::Flat,
        handler: |command, seconds, stop| {
            let mut entry = json!({"command": command, "timeout": seconds});
            if stop {
                entry["loop_limit"] = Value::Null;
            }
            entry
        },
        trust: false,
        commands: None,
        retired: None,
    },
    // Copilot CLI: personal hooks in `~/.copilot/hooks/*.json`, the command under `bash`. Its interactive UI
    // answers an unknown `/pua-loop` with "Unknown command" (1.0.102); a user-invocable skill is a `/` command
    // there, which the prompt hook reads (`hook::agent::copilot`).
    Spec {
        agent: Agent::Copilot,
        dir_var: Some("COPILOT_HOME"),
        home_var: None,
        dir_name: ".copilot",
        hooks_file: "hooks/loopgate.json",
        shape: Shape::Flat,
        handler: |command, seconds, _| json!({"type": "command", "bash": command, "timeoutSec": seconds}),
        trust: false,
        commands: Some(("skills", |name, _| skill(Agent::Copilot, name))),
        retired: None,
    },
    // opencode: global plugins in `~/.config/opencode/plugin/`, loaded at start.
    Spec {
        agent: Agent::Opencode,
        dir_var: None,
        home_var: None,
        dir_name: ".config/opencode",
        hooks_file: "plugin/loopgate.js",
        shape: Shape::Plugin,
        handler: |_, _, _| Value::Null,
        trust: false,
        commands: None,
        retired: None,
    },
];

/// A loopgate command as a skill of `agent` (`skills/NAME/SKILL.md`): named and described in its frontmatter, as
/// the CLI lists it; its text is what the model reads when the user invokes it.
fn skill(agent: Agent, name: &str) -> (String, String) {
    let text = format!(
        "---\nname: {name}\ndescription: {}\n# {MARK}\n---\n{}\n",
        Value::String(crate::messages::agents::skill_summary(agent, name)),
        crate::messages::agents::skill_body(agent, name)
    );
    (format!("{name}/SKILL.md"), text)
}

/// The first line of every file install writes (a command file without it is the user's own).
const MARK: &str = "loopgate-installed: loopgate install --agent rewrites this file";

/// The hook events loopgate installs, in loopgate's names, with the agent's matcher (`None`: every call).
const INSTALLED: [(HookEvent, Option<&str>); 4] = [
    (HookEvent::SessionStart, None),
    (HookEvent::UserPromptSubmit, None),
    (HookEvent::PreToolUse, None),
    (HookEvent::Stop, None),
];

/// The Stop hook runs the verify command: its timeout must be above the longest verify (3600 s).
const STOP_TIMEOUT_S: u64 = 3700;
const OTHER_TIMEOUT_S: u64 = 60;

/// The commands, and the prompt each expands to.
const COMMANDS: [(&str, &str); 4] = [
    ("pua-loop", "/pua-loop $ARGUMENTS"),
    ("cancel-loop", "/cancel-loop"),
    ("resume-loop", "/resume-loop"),
    ("loop-status", "Run `loopgate status` and show me its output as it is."),
];

fn spec(agent: Agent) -> Result<&'static Spec, Error> {
    SPECS
        .iter()
        .find(|spec| spec.agent == agent)
        .ok_or_else(|| Error::Usage(format!("no agent install for `{}`", agent.name())))
}

fn config_dir(spec: &Spec) -> Result<PathBuf, Error> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = spec.dir_var.and_then(var) {
        return Ok(dir);
    }
    spec.home_var
        .and_then(var)
        .or_else(|| var("HOME"))
        .map(|home| home.join(spec.dir_name))
        .ok_or_else(|| Error::Usage("failed to find the home directory: `HOME` is not set".to_string()))
}

/// `loopgate install --agent A`: hooks, trust (Codex) and commands; prints what it did.
pub(crate) fn install(agent: Agent, binary: &str) -> Result<(), Error> {
    let spec = spec(agent)?;
    let dir = config_dir(spec)?;
    let hooks_path = dir.join(spec.hooks_file);
    if spec.shape == Shape::Plugin {
        let quoted = Value::String(binary.to_string()).to_string();
        let text = OPENCODE_PLUGIN.replace("\"@LOOPGATE@\"", &quoted);
        write(&hooks_path, &text)?;
        crate::say(crate::messages::agents::installed(agent, &hooks_path));
        return Ok(());
    }
    let mut config = read_json(&hooks_path)?;
    let before = trust_keys(spec, &hooks_path, &config);
    let placed = place_hooks(spec, &mut config, binary)?;
    write_json(&hooks_path, &config)?;
    if spec.trust {
        let toml_path = dir.join("config.toml");
        let text = read_text(&toml_path)?;
        let trusted: Vec<(String, String)> = placed
            .iter()
            .map(|hook| {
                let key = codex_trust::key(&hooks_path, hook.event, hook.group, 0);
                (key, codex_trust::codex_hook_hash(hook.event, &hook.handler))
            })
            .collect();
        let edited = codex_trust::with_trust(&text, &before, &trusted).map_err(|why| {
            Error::Usage(format!(
                "failed to record hook trust in `{}`: {}; trust loopgate's hooks with Codex's `/hooks` instead",
                toml_path.display(),
                why.0
            ))
        })?;
        if edited != text {
            write(&toml_path, &edited)?;
        }
    }
    for (name, body) in COMMANDS {
        let Some((commands, command_file)) = spec.commands else {
            break;
        };
        let (file, text) = command_file(name, body);
        let path = dir.join(commands).join(file);
        match std::fs::read_to_string(&path) {
            Ok(old) if !old.contains(MARK) => {
                crate::say(format!(
                    "loopgate: kept `{}`: it is not one loopgate wrote",
                    path.display()
                ));
            }
            _ => write(&path, &text)?,
        }
    }
    remove_retired(spec, &dir)?;
    crate::say(crate::messages::agents::installed(agent, &hooks_path));
    Ok(())
}

/// `loopgate uninstall --agent A`: removes loopgate's hook groups, its trust tables and its command files.
pub(crate) fn uninstall(agent: Agent) -> Result<(), Error> {
    let spec = spec(agent)?;
    let dir = config_dir(spec)?;
    let hooks_path = dir.join(spec.hooks_file);
    if spec.shape == Shape::Plugin {
        if std::fs::read_to_string(&hooks_path).is_ok_and(|text| text.contains(MARK)) {
            let _ = std::fs::remove_file(&hooks_path);
        }
    } else if hooks_path.exists() {
        let mut config = read_json(&hooks_path)?;
        let before = trust_keys(spec, &hooks_path, &config);
        if remove_ours(spec, &mut config, true) {
            // Nothing left but what install adds to an empty file: the file was install's.
            let bare = config == json!({}) || (spec.shape == Shape::Flat && config == json!({"version": 1}));
            if bare {
                remove_file(&hooks_path)?;
            } else {
                write_json(&hooks_path, &config)?;
            }
        }
        let toml_path = dir.join("config.toml");
        if spec.trust && toml_path.exists() {
            let text = read_text(&toml_path)?;
            // A file Codex cannot read is left as it is (Codex would not run the hooks it trusts anyway).
            // One that held only loopgate's tables goes (Codex made none of it).
            match codex_trust::without_trust(&text, &before) {
                Ok(edited) if edited == text => {}
                Ok(edited) if edited.trim().is_empty() => remove_file(&toml_path)?,
                Ok(edited) => write(&toml_path, &edited)?,
                Err(_) => {}
            }
        }
    }
    for (name, body) in COMMANDS {
        let Some((commands, command_file)) = spec.commands else {
            break;
        };
        let path = dir.join(commands).join(command_file(name, body).0);
        if std::fs::read_to_string(&path).is_ok_and(|text| text.contains(MARK)) {
            remove_file(&path)?;
            // A command that is a directory of its own (a Codex skill), where nothing else is left in it.
            if let Some(own) = path.parent().filter(|p| *p != dir.join(commands)) {
                let _ = std::fs::remove_dir(own);
            }
        }
    }
    remove_retired(spec, &dir)?;
    // The directories install made, where nothing is left in them (`remove_dir` leaves one with anything in it).
    let made = spec.commands.map(|(commands, _)| dir.join(commands));
    let parent = hooks_path.parent().filter(|p| *p != dir);
    // `~/.config/opencode`: `~/.config` too, when it was made for it.
    let nested = dir.ends_with(spec.dir_name).then(|| dir.ancestors().skip(1));
    let nested = nested.into_iter().flatten().take(spec.dir_name.matches('/').count());
    for empty in made
        .iter()
        .map(PathBuf::as_path)
        .chain(parent)
        .chain([dir.as_path()])
        .chain(nested)
    {
        let _ = std::fs::remove_dir(empty);
    }
    crate::say(crate::messages::agents::uninstalled(agent));
    Ok(())
}

/// Removes the command files an earlier version wrote where this one writes none (`Spec::retired`), and their
/// directory if that leaves it empty; a file without loopgate's mark is the user's and stays.
fn remove_retired(spec: &Spec, dir: &Path) -> Result<(), Error> {
    let Some(retired) = spec.retired else {
        return Ok(());
    };
    let retired = dir.join(retired);
    let mut removed = false;
    for (name, _) in COMMANDS {
        let path = retired.join(format!("{name}.md"));
        if std::fs::read_to_string(&path).is_ok_and(|text| text.contains(MARK)) {
            remove_file(&path)?;
            removed = true;
        }
    }
    if removed {
        let _ = std::fs::remove_dir(&retired);
    }
    Ok(())
}

/// A hook group (or, in a flat file, a hook) loopgate wrote for this agent.
fn ours(spec: &Spec, group: &Value) -> bool {
    let needle = format!(" hook --agent {} ", spec.agent.name());
    let runs_loopgate = |h: &Value| {
        ["command", "bash"]
            .iter()
            .any(|key| h[key].as_str().is_some_and(|c| c.contains(&needle)))
    };
    runs_loopgate(group)
        || group["hooks"]
            .as_array()
            .is_some_and(|hooks| hooks.iter().any(runs_loopgate))
}

/// Removes loopgate's groups; with `prune` (uninstall), an event's list that held only loopgate's goes too, and
/// `hooks` if that leaves it empty, as install found the file (install keeps them, so that the lists and keys
/// stay where they are). Says whether anything was removed.
fn remove_ours(spec: &Spec, config: &mut Value, prune: bool) -> bool {
    let Some(object) = config.as_object_mut() else {
        return false;
    };
    let Some(hooks) = object.get_mut("hooks").and_then(Value::as_object_mut) else {
        return false;
    };
    let mut removed = false;
    hooks.retain(|_, groups| {
        let Some(groups) = groups.as_array_mut() else {
            return true;
        };
        let count = groups.len();
        groups.retain(|group| !ours(spec, group));
        removed |= groups.len() != count;
        !(prune && groups.is_empty() && count > 0)
    });
    if prune && removed && hooks.is_empty() {
        object.remove("hooks");
    }
    removed
}

/// The trust keys of loopgate's hooks as `config` holds them (Codex: `FILE:EVENT:GROUP:INDEX`).
fn trust_keys(spec: &Spec, hooks_path: &Path, config: &Value) -> Vec<String> {
    loopgate_handlers(spec, config)
        .into_iter()
        .map(|h| codex_trust::key(hooks_path, &h.event, h.group, h.index))
        .collect()
}

/// One of loopgate's handlers in an agent's hook file (Claude Code's groups), where it sits.
pub(super) struct Found<'a> {
    event: String,
    group: usize,
    index: usize,
    handler: &'a Value,
}

fn loopgate_handlers<'a>(spec: &Spec, config: &'a Value) -> Vec<Found<'a>> {
    let needle = format!(" hook --agent {} ", spec.agent.name());
    let mut found = Vec::new();
    let Some(hooks) = config.get("hooks").and_then(Value::as_object) else {
        return found;
    };
    for (event, groups) in hooks {
        for (group, entry) in groups.as_array().into_iter().flatten().enumerate() {
            for (index, handler) in entry["hooks"].as_array().into_iter().flatten().enumerate() {
                if handler["command"].as_str().is_some_and(|c| c.contains(&needle)) {
                    found.push(Found {
                        event: event.clone(),
                        group,
                        index,
                        handler,
                    });
                }
            }
        }
    }
    found
}

/// One hook loopgate placed: the agent's event name, the group's index, the handler.
struct Placed {
    event: &'static str,
    group: usize,
    handler: Value,
}

/// Puts loopgate's groups in `config` (replacing its earlier ones) and says where each went.
fn place_hooks(spec: &Spec, config: &mut Value, binary: &str) -> Result<Vec<Placed>, Error> {
    if !config.is_object() {
        *config = json!({});
    }
    remove_ours(spec, config, false);
    if spec.shape == Shape::Flat
        && let Some(object) = config.as_object_mut()
    {
        object.entry("version").or_insert_with(|| json!(1));
    }
    let hooks = config
        .as_object_mut()
        .map(|object| object.entry("hooks").or_insert_with(|| json!({})))
        .filter(|hooks| hooks.is_object())
        .ok_or_else(|| Error::Usage("the agent's hook configuration has a `hooks` that is not an object".into()))?;
    let mut placed = Vec::new();
    for (event, matcher) in INSTALLED {
        let Some(name) = spec.agent.event_name(&event) else {
            continue;
        };
        let seconds = if matches!(event, HookEvent::Stop) {
            STOP_TIMEOUT_S
        } else {
            OTHER_TIMEOUT_S
        };
        let command = format!(
            "{} hook --agent {} {}",
            crate::confine::rewrite::quote(binary),
            spec.agent.name(),
            event.arg()
        );
        let handler = (spec.handler)(command, seconds, matches!(event, HookEvent::Stop));
        let mut group = match spec.shape {
            Shape::Groups => json!({"hooks": [handler.clone()]}),
            Shape::Flat | Shape::Plugin => handler.clone(),
        };
        if let Some(matcher) = matcher {
            group["matcher"] = matcher.into();
        }
        let groups = hooks
            .as_object_mut()
            .map(|h| h.entry(name).or_insert_with(|| json!([])))
            .and_then(Value::as_array_mut)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "the agent's hook configuration has a `hooks.{name}` that is not a list"
                ))
            })?;
        groups.push(group);
        placed.push(Placed {
            event: name,
            group: groups.len() - 1,
            handler,
        });
    }
    Ok(placed)
}

fn read_text(path: &Path) -> Result<String, Error> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(source) => Err(Error::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        }),
    }
}

fn read_json(path: &Path) -> Result<Value, Error> {
    let text = read_text(path)?;
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_str(&text).map_err(|e| Error::Usage(format!("`{}` is not valid JSON: {e}", path.display())))
}

fn write_json(path: &Path, config: &Value) -> Result<(), Error> {
    write(path, &(serde_json::to_string_pretty(config).unwrap_or_default() + "\n"))
}

fn remove_file(path: &Path) -> Result<(), Error> {
    match std::fs::remove_file(path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(Error::Io {
            action: "remove",
            path: path.to_path_buf(),
            source,
        }),
        _ => Ok(()),
    }
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    let io = |source| Error::Io {
        action: "write",
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    crate::fsutil::write_atomic(path, text.as_bytes(), 0o644).map_err(io)
}

#[cfg(test)]
mod tests {
    /// What install writes that runs later (each CLI's hook file and commands) is control plane: the agent's
    /// commands may not rewrite it (`plane::ROWS`, read by the confinement and the guard).
    #[test]
    fn every_hook_file_and_command_directory_install_writes_is_control_plane() {
        let home = std::path::Path::new("/nonexistent-store");
        let entries = crate::plane::entries(home);
        for spec in &super::SPECS {
            let dir = super::config_dir(spec).expect("HOME is set in tests");
            let mut written = vec![dir.join(spec.hooks_file)];
            written.extend(spec.commands.map(|(commands, _)| dir.join(commands)));
            for path in written {
                assert!(
                    entries
                        .iter()
                        .any(|e| path.starts_with(&e.path) && e.reach != crate::plane::Reach::Guard),
                    "{} is not in the plane the confinement keeps",
                    path.display()
                );
            }
        }
    }
}
