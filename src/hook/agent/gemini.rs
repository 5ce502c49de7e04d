//! Google Gemini CLI (facts checked with the real client 0.61.0 in `docs/agents.md`): `AfterAgent` is its Stop,
//! `BeforeTool` its PreToolUse, `BeforeAgent` its UserPromptSubmit. What differs from Claude Code:
//!
//! - the last message: `prompt_response` is the model's text over the **whole run**, not its last message (a
//!   promise the oracle rejected earlier would still be in it). The last message is the last `gemini` entry of
//!   the session's transcript (`transcript_path`, JSONL), taken when `prompt_response` ends with it (the
//!   transcript is written before the hook runs; one that lags is not trusted); otherwise the tail of
//!   `prompt_response` ([`TAIL_CHARS`]);
//! - `stop_hook_active` is unreliable (false again after a continued turn that used a tool), so it is not read:
//!   whether a stop follows loopgate's block comes from loopgate's own record, and the turn from the user's
//!   `prompt` (the same for every stop of one prompt);
//! - the prompt: a SessionStart hook's context comes first in the user's prompt, as `<hook_context>…
//!   </hook_context>` (checked: a session that resumed a paused loop, then `/cancel-loop`), so the prompt
//!   hook reads what follows it;
//! - the tools: `run_shell_command` is Bash, `write_file` Write, `replace` Edit, `read_file` Read;
//! - the answers: a tool is refused with `{"decision":"deny","reason":…}` and a command rewritten with
//!   `hookSpecificOutput.tool_input`;
//! - no cap on blocks in a row, so loopgate keeps its own;
//! - `additionalContext` reaches the model with `<` and `>` as entities, so it is handed over with none
//!   (`entities`);
//! - the `/pua-loop` command install writes ends with a note for the model, read only where the hooks did not run
//!   (an untrusted folder, `messages::agents::GEMINI_NO_HOOKS_NOTE`): the prompt hook cuts it off.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::output::{Answer, ToolVerdict};
use crate::hook::pre_tool_use::confined::Shell;
use crate::hook::{HookInput, HookOutput};

pub(super) struct Gemini;

/// How much of the end of `prompt_response` is the agent's last message, for the signals.
pub(super) const TAIL_CHARS: usize = 2000;

/// Gemini's tool names and the Claude Code tool each one is, for the guard.
const TOOLS: &[(&str, &str)] = &[
    ("run_shell_command", "Bash"),
    ("write_file", "Write"),
    ("replace", "Edit"),
    ("read_file", "Read"),
];

impl Adapter for Gemini {
    fn read(&self, event: &HookEvent, input: &mut HookInput) {
        super::claude_tool(input, TOOLS, "absolute_path");
        if matches!(event, HookEvent::UserPromptSubmit)
            && let Some(prompt) = input.prompt.as_mut()
            && let Some(typed) = after_hook_context(prompt)
        {
            *prompt = typed.to_string();
        }
        if matches!(event, HookEvent::UserPromptSubmit)
            && let Some(prompt) = input.prompt.as_mut()
            && let Some(at) = prompt.find(crate::messages::agents::GEMINI_NO_HOOKS_NOTE)
        {
            prompt.truncate(at);
            prompt.truncate(prompt.trim_end().len());
        }
        if matches!(event, HookEvent::Stop) {
            input.stop_hook_active = None;
            input.prompt_id = input.prompt.as_deref().map(prompt_key);
        }
    }

    fn last_message(&self, input: &HookInput) -> Option<String> {
        let response = input.prompt_response.as_deref()?;
        let from_transcript = input
            .transcript_path
            .as_deref()
            .and_then(|path| {
                crate::transcript::last_entry(std::path::Path::new(path), model_text)
                    .ok()
                    .flatten()
            })
            .filter(|text| !text.trim().is_empty() && response.trim_end().ends_with(text.trim_end()));
        Some(from_transcript.unwrap_or_else(|| tail(response)))
    }

    fn shell(&self) -> Shell {
        Shell::Fresh
    }

    /// Gemini CLI's own keys: a refused tool is `decision: deny` with the reason, a rewritten one
    /// `hookSpecificOutput.tool_input`, context `hookSpecificOutput.additionalContext`; a Stop answer and the
    /// user's line are as in Claude Code; no desktop notification.
    fn write(&self, event: &HookEvent, mut output: HookOutput) -> String {
        output.notification = None;
        let name = crate::cli::Agent::Gemini.event_name(event).unwrap_or_default();
        let mut wire = serde_json::Map::new();
        let context = match &output.answer {
            Answer::Allow | Answer::Block { .. } => return output.to_json(),
            Answer::Tool {
                verdict: Some(ToolVerdict::Deny { reason }),
                ..
            } => {
                wire.insert("decision".into(), "deny".into());
                wire.insert("reason".into(), reason.as_str().into());
                None
            }
            Answer::Tool {
                verdict: Some(ToolVerdict::Rewrite { input }),
                ..
            } => Some(json!({"hookEventName": name, "tool_input": input})),
            Answer::Tool { verdict: None, context } => context
                .as_ref()
                .map(|context| json!({"hookEventName": name, "additionalContext": unescapable(context)})),
            Answer::Context { context, .. } => {
                Some(json!({"hookEventName": name, "additionalContext": unescapable(context)}))
            }
        };
        if let Some(notice) = &output.notice {
            wire.insert("systemMessage".into(), notice.as_str().into());
        }
        if let Some(specific) = context {
            wire.insert("hookSpecificOutput".into(), specific);
        }
        Value::Object(wire).to_string()
    }
}

/// Gemini CLI turns `<` and `>` of every `additionalContext` into entities before the model reads it (0.61.0,
/// `getAdditionalContext`); a Stop reason it passes as it is.
fn unescapable(context: &str) -> String {
    super::entities::survive(context, &['<', '>'], "Gemini CLI")
}

/// The text of a `gemini` entry of Gemini CLI's transcript (`{"type":"gemini","content":…}`, the content a
/// string or a list of parts).
fn model_text(line: &[u8]) -> Option<String> {
    let value = super::transcript_entry(line, "type", "gemini")?;
    super::content_text(value.get("content")?)
}

/// What the user typed after the context a SessionStart hook put before it, if there is such a context.
fn after_hook_context(prompt: &str) -> Option<&str> {
    let rest = prompt.trim_start().strip_prefix("<hook_context>")?;
    let (_, typed) = rest.split_once("</hook_context>")?;
    Some(typed.trim_start())
}

/// The last [`TAIL_CHARS`] characters of the run's text.
fn tail(response: &str) -> String {
    let skip = response.chars().count().saturating_sub(TAIL_CHARS);
    response.chars().skip(skip).collect()
}

/// A short key for the user's prompt: every stop of one prompt shares it, and the seal holds no user text.
fn prompt_key(prompt: &str) -> String {
    let digest = Sha256::digest(prompt.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}
