//! OpenAI Codex CLI (checked with the real client, 0.169.0): its hooks take Claude Code's input fields
//! (`session_id`, `transcript_path`, `cwd`, `stop_hook_active`, `last_assistant_message`, `tool_name: "Bash"`
//! with `tool_input.command`) plus `turn_id` (one per user prompt, as Claude Code's `prompt_id`), and Claude
//! Code's output, with two differences:
//!
//! - its output schemas refuse unknown fields, so `terminalSequence` (Claude Code's desktop notification) is
//!   left out;
//! - a rewritten command (`updatedInput`) runs only with `permissionDecision: "allow"`.
//!
//! `apply_patch`, Codex's file-editing tool, reaches PreToolUse as `tool_name: "apply_patch"` with the patch in
//! `tool_input.command` (checked with 0.169.0, a model whose tool set has it): it is guarded as `ApplyPatch`,
//! every file the patch names. `write_stdin` (keys sent to a running command) reaches no PreToolUse at all.
//!
//! Codex hands a Stop hook's reason to the model inside `<hook_prompt …>…</hook_prompt>`, XML-escaped (checked,
//! 0.169.0 and 0.171.0: the model read `&lt;promise&gt;`), and a Stop hook has no other channel to the model. So
//! the reason carries none of the characters XML escapes (`entities::survive`). The loop's briefing, which the prompt
//! hook hands over as context, reaches the model as it is, tags included.
//!
//! Codex has no cap on stop-hook blocks in a row (an always-blocking hook ran 393 times in two minutes), so
//! loopgate keeps its own (`LOOPGATE_BLOCK_CAP`).

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::output::{Answer, ToolVerdict};
use crate::hook::{HookInput, HookOutput};

pub(super) struct Codex;

impl Adapter for Codex {
    fn read(&self, _event: &HookEvent, input: &mut HookInput) {
        if input.prompt_id.is_none() {
            input.prompt_id = input.turn_id.clone();
        }
        // Checked with 0.169.0: PreToolUse of the `apply_patch` tool has the patch as `tool_input.command`.
        if input.tool_name.as_deref() == Some("apply_patch") {
            input.tool_name = Some("ApplyPatch".to_string());
        }
    }

    fn write(&self, _event: &HookEvent, mut output: HookOutput) -> String {
        output.notification = None;
        if let Answer::Block { reason } = &mut output.answer {
            *reason = super::entities::survive(reason, &['<', '>', '&'], "Codex");
        }
        let rewrite = matches!(
            output.answer,
            Answer::Tool {
                verdict: Some(ToolVerdict::Rewrite { .. }),
                ..
            }
        );
        let text = output.to_json();
        if !rewrite {
            return text;
        }
        let Ok(mut wire) = serde_json::from_str::<serde_json::Value>(&text) else {
            return text;
        };
        wire["hookSpecificOutput"]["permissionDecision"] = "allow".into();
        wire.to_string()
    }
}
