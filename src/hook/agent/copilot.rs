//! GitHub Copilot CLI (`@github/copilot`), built from its documented hook format (the CLI hooks reference) and
//! run against the real client (1.0.102, offline against a scripted model: `tests/agents.rs`). Installed under the PascalCase event names (`Stop`, `PreToolUse`,
//! `UserPromptSubmit`, `SessionStart`), which make Copilot send its input in Claude Code's snake_case fields
//! (`session_id`, `cwd`, `transcript_path`, `tool_name`, `tool_input`). What differs:
//!
//! - the prompt: loopgate's commands are skills there (its interactive UI has no other custom `/` command), and
//!   the prompt hook of an invoked skill reads `The user explicitly invoked the "/NAME" skill. …
//!   <skill-context name="NAME"> … ARGUMENTS: ARGS\n</skill-context>` (1.0.102), which is read as `/NAME ARGS`;
//! - the tools: `bash` is Bash, `create` Write, `edit` Edit, `view` Read, their file in `path`;
//! - the last message: the stop input has none; it is the last `assistant.message` event of `transcript_path`
//!   (the session's `events.jsonl`, `{"type":"assistant.message","data":{"content":…}}`). Copilot writes that
//!   log behind its hooks (checked, 1.0.102: a stop hook read the message before the last one under load), so
//!   the hook first waits, a bounded while, for the log's record of its own call (a `hook.start` of type
//!   `agentStop` with the input's `timestamp`), which Copilot writes after the message;
//! - the answers: a stop is blocked with Claude Code's `{"decision":"block","reason":R}` (R becomes the next
//!   prompt); a tool refused with a top-level `permissionDecision: "deny"` and `permissionDecisionReason`, a
//!   command rewritten with `permissionDecision: "allow"` and `modifiedArgs`; `UserPromptSubmit` and
//!   `SessionStart` output is documented as ignored, so a `/pua-loop` is carried out but its briefing reaches
//!   the model only at the first stop;
//! - the cap: Copilot CLI ends a turn after 8 stop-hook blocks in a row and sends `stop_hook_active` (1.0.72,
//!   its release notes), like Claude Code's default, so loopgate stays ahead of that cap.

use serde_json::json;

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::output::{Answer, ToolVerdict};
use crate::hook::{HookInput, HookOutput};

pub(super) struct Copilot;

/// Copilot CLI's tool names and the Claude Code tool each one is, for the guard.
const TOOLS: &[(&str, &str)] = &[
    ("bash", "Bash"),
    ("create", "Write"),
    ("edit", "Edit"),
    ("view", "Read"),
];

impl Adapter for Copilot {
    fn read(&self, event: &HookEvent, input: &mut HookInput) {
        super::claude_tool(input, TOOLS, "path");
        if matches!(event, HookEvent::UserPromptSubmit)
            && let Some(prompt) = input.prompt.as_mut()
            && let Some(typed) = skill_invocation(prompt)
        {
            *prompt = typed;
        }
    }

    fn last_message(&self, input: &HookInput) -> Option<String> {
        if let (Some(path), Some(at)) = (input.transcript_path.as_deref(), called_at(input)) {
            wait_for_own_call(std::path::Path::new(path), &at);
        }
        super::last_in_transcript(input, assistant_message)
    }

    fn write(&self, event: &HookEvent, mut output: HookOutput) -> String {
        output.notification = None;
        let wire = match (event, &output.answer) {
            (
                HookEvent::PreToolUse,
                Answer::Tool {
                    verdict: Some(ToolVerdict::Deny { reason }),
                    ..
                },
            ) => json!({"permissionDecision": "deny", "permissionDecisionReason": reason}),
            (
                HookEvent::PreToolUse,
                Answer::Tool {
                    verdict: Some(ToolVerdict::Rewrite { input }),
                    ..
                },
            ) => json!({"permissionDecision": "allow", "modifiedArgs": input}),
            (HookEvent::PreToolUse, _) => json!({}),
            (HookEvent::Stop, Answer::Block { reason }) => json!({"decision": "block", "reason": reason}),
            _ => return output.to_json(),
        };
        wire.to_string()
    }

    /// Copilot CLI's own cap (8 blocks in a row, as Claude Code's default), which loopgate stays ahead of.
    fn block_cap(&self) -> (Option<u64>, bool) {
        (Some(crate::stop::block_cap::DEFAULT_CAP), false)
    }
}

/// The text of an `assistant.message` event of Copilot CLI's session log.
fn assistant_message(line: &[u8]) -> Option<String> {
    let value = super::transcript_entry(line, "type", "assistant.message")?;
    super::said(value.get("data")?.get("content")?)
}

/// How long a stop hook waits for Copilot CLI to log its call before reading the log as it is.
const LOG_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// When Copilot called this hook, in milliseconds since the epoch, as its session log records it.
fn called_at(input: &HookInput) -> Option<String> {
    let stamp = input.timestamp.as_ref()?.as_str()?;
    let at = chrono::DateTime::parse_from_rfc3339(stamp).ok()?;
    Some(at.timestamp_millis().to_string())
}

/// Waits (at most [`LOG_WAIT`]) until the latest stop-hook call the session log records is the one made at `at`.
fn wait_for_own_call(log: &std::path::Path, at: &str) {
    let deadline = std::time::Instant::now() + LOG_WAIT;
    while std::time::Instant::now() < deadline {
        let latest = crate::transcript::last_entry(log, stop_hook_call).ok().flatten();
        if latest.as_deref() == Some(at) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
}

/// The time (milliseconds) of a stop-hook call in Copilot CLI's session log
/// (`{"type":"hook.start","data":{"hookType":"agentStop","input":{"timestamp":…}}}`).
fn stop_hook_call(line: &[u8]) -> Option<String> {
    let value = super::transcript_entry(line, "type", "hook.start")?;
    let data = value.get("data")?;
    (data.get("hookType")?.as_str()? == "agentStop").then_some(())?;
    Some(data.get("input")?.get("timestamp")?.as_i64()?.to_string())
}

/// What the user typed, `/NAME ARGS`, when Copilot CLI's prompt is its wrapper of an invoked skill.
fn skill_invocation(prompt: &str) -> Option<String> {
    let rest = prompt.strip_prefix("The user explicitly invoked the \"/")?;
    let (name, _) = rest.split_once('"')?;
    let context = prompt.find(&format!("<skill-context name=\"{name}\">"))?;
    let end = prompt.rfind("</skill-context>")?;
    let inside = prompt.get(context..end)?;
    let args = inside
        .find("\nARGUMENTS: ")
        .map_or("", |at| &inside[at + "\nARGUMENTS: ".len()..]);
    let args = args.strip_suffix('\n').unwrap_or(args);
    Some(if args.is_empty() {
        format!("/{name}")
    } else {
        format!("/{name} {args}")
    })
}
