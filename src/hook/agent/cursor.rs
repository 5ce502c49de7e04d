//! Cursor's agent (the editor and `cursor-agent`), built from Cursor's documented hook format (`hooks.json`,
//! version 1) and **not yet run against the real client**. What differs from Claude Code:
//!
//! - the names: the session is `conversation_id` (stable over the conversation; `generation_id` changes with
//!   every message, a follow-up included, so it is no turn id), the project `workspace_roots[0]`;
//! - the stop: `stop` with `status` and `loop_count` (how many follow-ups the stop hook has already sent in
//!   this conversation): a follow-up in progress is `loop_count > 0`, which errs high after a new prompt of
//!   the user — a count that errs high only ends a runaway early (`stop::block_cap`). A block is
//!   `followup_message`, which Cursor submits as the next user message; the stop hook's output has no line for
//!   the user, so loopgate's notices at a stop are not shown there;
//! - the last message: the stop input has none; it is the last `assistant` entry of `transcript_path` (JSONL,
//!   `{"role":"assistant","message":{"content":[{"type":"text","text":…}]}}`), when Cursor writes one;
//! - the guard: `beforeShellExecution` (the command at the top level, not in `tool_input`) is the only pre-hook
//!   that sees a command before it runs, and its answer is `permission` with no way to rewrite the command: the
//!   guard denies, Bash is not confined. Edits with Cursor's own edit tool have no pre-hook that can refuse them
//!   (`afterFileEdit` comes after): a sealed file changed that way is caught by the seal at the promise;
//! - the prompt: `beforeSubmitPrompt` can only let a prompt through or refuse it (`continue`), so a `/pua-loop`
//!   is carried out but its briefing does not reach the model with the prompt; the model reads the user's
//!   `/pua-loop` line itself, and the first stop sends it the loop's rules;
//! - the cap: Cursor stops following up after `loop_limit` follow-ups (5 when not set), a count that a tool call
//!   does not reset; install sets `"loop_limit": null` on loopgate's stop hook, and loopgate keeps its own cap.

use serde_json::{Map, Value, json};

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::output::{Answer, ToolVerdict};
use crate::hook::{HookInput, HookOutput};

pub(super) struct Cursor;

impl Adapter for Cursor {
    fn translate(&self, event: &HookEvent, fields: &mut Map<String, Value>) {
        if !fields.contains_key("session_id")
            && let Some(id) = fields.get("conversation_id").cloned()
        {
            fields.insert("session_id".into(), id);
        }
        if !fields.contains_key("cwd")
            && let Some(root) = fields.get("workspace_roots").and_then(|roots| roots.get(0)).cloned()
        {
            fields.insert("cwd".into(), root);
        }
        match event {
            HookEvent::PreToolUse => {
                if let Some(command) = fields.get("command").cloned() {
                    fields.insert("tool_name".into(), "Bash".into());
                    fields.insert("tool_input".into(), json!({ "command": command }));
                }
            }
            HookEvent::Stop => {
                if let Some(count) = fields.get("loop_count").and_then(Value::as_u64) {
                    fields.insert("stop_hook_active".into(), (count > 0).into());
                }
            }
            _ => {}
        }
    }

    fn last_message(&self, input: &HookInput) -> Option<String> {
        super::last_in_transcript(input, assistant_text)
    }

    /// Cursor's own keys per event; what one cannot carry (a notice at a stop, a rewrite, context with a
    /// prompt) is left out, as the module docs say.
    fn write(&self, event: &HookEvent, output: HookOutput) -> String {
        let wire = match (event, output.answer) {
            (HookEvent::Stop, Answer::Block { reason }) => json!({ "followup_message": reason }),
            (HookEvent::PreToolUse, answer) => match answer {
                Answer::Tool {
                    verdict: Some(ToolVerdict::Deny { reason }),
                    ..
                } => json!({"permission": "deny", "user_message": reason, "agent_message": reason}),
                _ => json!({"permission": "allow"}),
            },
            (HookEvent::UserPromptSubmit, _) => json!({"continue": true}),
            (HookEvent::SessionStart, Answer::Context { context, .. }) => json!({ "additional_context": context }),
            _ => json!({}),
        };
        wire.to_string()
    }
}

/// The text of an `assistant` entry of Cursor's transcript (`role` at the top, the content under `message` or
/// not).
fn assistant_text(line: &[u8]) -> Option<String> {
    let value = super::transcript_entry(line, "role", "assistant")?;
    super::said(value.get("message").unwrap_or(&value).get("content")?)
}
