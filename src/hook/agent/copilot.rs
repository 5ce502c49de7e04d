//! GitHub Copilot CLI (`@github/copilot`), built from its documented hook format (the CLI hooks reference) and
//! **not yet run against the real client**. Installed under the PascalCase event names (`Stop`, `PreToolUse`,
//! `UserPromptSubmit`, `SessionStart`), which make Copilot send its input in Claude Code's snake_case fields
//! (`session_id`, `cwd`, `transcript_path`, `tool_name`, `tool_input`). What differs:
//!
//! - the tools: `bash` is Bash, `create` Write, `edit` Edit, `view` Read, their file in `path`;
//! - the last message: the stop input has none; it is the last `assistant.message` event of `transcript_path`
//!   (the session's `events.jsonl`, `{"type":"assistant.message","data":{"content":…}}`);
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
    fn read(&self, _event: &HookEvent, input: &mut HookInput) {
        super::claude_tool(input, TOOLS, "path");
    }

    fn last_message(&self, input: &HookInput) -> Option<String> {
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
