//! One adapter per agent CLI: the seam between an agent's hook wire format and loopgate's hooks.
//!
//! The decision (`stop::Outcome`, the guard's verdict, the carried-out `/pua-loop`) is the same for every agent;
//! an adapter owns only what differs (the agent's names for the events are `cli::Agent::event_name`, the table
//! install writes from): how its input becomes a [`HookInput`]
//! (field names, renamed before the input is read where the typed input cannot say them, the last message,
//! whether `stop_hook_active` can be trusted, the tool names), how a
//! [`HookOutput`] becomes its JSON, and its cap on stop-hook blocks in a row (or that it has none, and loopgate
//! keeps its own). Installing an agent's hooks is `commands::install::agents`.
//!
//! A new agent is a variant of `cli::Agent` (with its event names and run command), one module here implementing
//! [`Adapter`], its row in [`of`], its row in `commands::install::agents::SPECS`, and its tests (`tests/agents.rs`
//! against the real client; `tests/cli/documented_agents.rs` on documented inputs where it cannot run here).

mod claude;
mod codex;
mod copilot;
mod cursor;
mod entities;
mod gemini;
mod opencode;

use crate::cli::{Agent, HookEvent};
use crate::hook::pre_tool_use::confined::Shell;
use crate::hook::{HookInput, HookOutput};

/// What one agent CLI's hooks differ in.
pub(crate) trait Adapter: Sync {
    /// Puts the agent's raw input object into Claude Code's field names, for what the typed input cannot say
    /// (another name for the session, a command outside `tool_input`). Runs before the input is read.
    fn translate(&self, _event: &HookEvent, _fields: &mut serde_json::Map<String, serde_json::Value>) {}

    /// Fills loopgate's view of the input from the agent's own fields.
    fn read(&self, _event: &HookEvent, _input: &mut HookInput) {}

    /// The JSON line the agent reads for `output`.
    fn write(&self, event: &HookEvent, output: HookOutput) -> String;

    /// The agent's last message at a stop, when its input has no `last_assistant_message` (asked only once the
    /// stop is known to be a loop's); `None`: Claude Code's transcript, read from its end.
    fn last_message(&self, _input: &HookInput) -> Option<String> {
        None
    }

    /// How the agent's shell tool runs a command (the Bash rewrite differs).
    fn shell(&self) -> Shell {
        Shell::Kept
    }

    /// The cap on stop-hook blocks in a row without a tool call, and whether it is loopgate's own (the agent
    /// has none).
    fn block_cap(&self) -> (Option<u64>, bool) {
        (crate::stop::block_cap::own_cap_from_env(), true)
    }
}

/// Renames an agent's tool to the Claude Code tool it is (`tools`: its name, Claude Code's), for the guard, and
/// copies its path argument (`path_key`) to `file_path` when the call has none.
fn claude_tool(input: &mut HookInput, tools: &[(&str, &str)], path_key: &str) {
    let Some(name) = &input.tool_name else {
        return;
    };
    let Some((_, claude)) = tools.iter().find(|(theirs, _)| theirs == name) else {
        return;
    };
    input.tool_name = Some((*claude).to_string());
    if let Some(serde_json::Value::Object(args)) = input.tool_input.as_mut()
        && !args.contains_key("file_path")
        && let Some(path) = args.get(path_key).cloned()
    {
        args.insert("file_path".into(), path);
    }
}

/// The last entry of the input's transcript that `entry` makes a message of (another agent's transcript format).
fn last_in_transcript(input: &HookInput, entry: fn(&[u8]) -> Option<String>) -> Option<String> {
    let path = input.transcript_path.as_deref()?;
    crate::transcript::last_entry(std::path::Path::new(path), entry)
        .ok()
        .flatten()
}

/// A transcript line's JSON when its `field` is `kind` (the bytes are searched first: most lines are not parsed).
fn transcript_entry(line: &[u8], field: &str, kind: &str) -> Option<serde_json::Value> {
    if !crate::transcript::contains(line, kind.as_bytes()) {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(line).ok()?;
    (value.get(field)?.as_str()? == kind).then_some(value)
}

/// The text of a message's content: a string, or the `text` of its parts (empty for a turn of tool calls only).
fn content_text(content: &serde_json::Value) -> Option<String> {
    let text = match content {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(serde_json::Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => return None,
    };
    Some(text)
}

/// [`content_text`], `None` when it is blank: the reader goes back to an earlier message with text.
fn said(content: &serde_json::Value) -> Option<String> {
    content_text(content).filter(|text| !text.trim().is_empty())
}

/// The adapter of `agent`.
pub(crate) fn of(agent: Agent) -> &'static dyn Adapter {
    match agent {
        Agent::Claude => &claude::Claude,
        Agent::Codex => &codex::Codex,
        Agent::Gemini => &gemini::Gemini,
        Agent::Cursor => &cursor::Cursor,
        Agent::Copilot => &copilot::Copilot,
        Agent::Opencode => &opencode::Opencode,
    }
}

#[cfg(test)]
mod tests;
