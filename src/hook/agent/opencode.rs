//! opencode (`opencode-ai`), built from its plugin API (`@opencode-ai/plugin`: the `event`, `chat.message` and
//! `tool.execute.before` hooks; the SDK's `session.messages` and `session.prompt`). opencode has no command hooks: `loopgate install --agent opencode` writes a JavaScript plugin
//! (`commands::install`'s `opencode_plugin.js`) that hands each event to this adapter in Claude Code's field
//! names and carries out the answer, so what differs here is small:
//!
//! - the events: `session.idle` is the Stop (the plugin fetches the last assistant message and says whether the
//!   turn is one of its own follow-ups), `tool.execute.before` the PreToolUse, `chat.message` the user's prompt;
//! - the tools: `bash` is Bash, `write` Write, `edit` Edit, `read` Read, their file in `filePath`; each `bash`
//!   call is a new process, so a rewritten command runs under `loopgate confine -c` alone;
//! - the answers are Claude Code's JSON, read by the plugin: a block is sent back as the next prompt, a refusal
//!   thrown as the tool's error, a rewritten command put in the tool's `command`. The context a prompt hook
//!   gives has no way to the model with the prompt (`chat.message` can only change the user's own parts), so
//!   a `/pua-loop` is carried out and the model reads the loop's rules at the first stop;
//! - opencode has no cap on follow-ups: loopgate keeps its own;
//! - `opencode run MESSAGE` quotes its message (see [`run_quoted`]): a `/pua-loop` given that way is read as
//!   typed.
//!
//! Checked with opencode 1.18.33 (`tests/agents.rs`, `opencode_real`): the plugin's hooks, follow-ups and the
//! `session.idle` stop, in a long-lived opencode (its TUI, or `opencode serve`); `opencode run` alone exits at
//! the first idle, before the plugin's follow-up is answered.

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::pre_tool_use::confined::Shell;
use crate::hook::{HookInput, HookOutput};

pub(super) struct Opencode;

/// opencode's tool names and the Claude Code tool each one is, for the guard.
const TOOLS: &[(&str, &str)] = &[("bash", "Bash"), ("write", "Write"), ("edit", "Edit"), ("read", "Read")];

impl Adapter for Opencode {
    fn read(&self, event: &HookEvent, input: &mut HookInput) {
        super::claude_tool(input, TOOLS, "filePath");
        if matches!(event, HookEvent::UserPromptSubmit)
            && let Some(prompt) = input.prompt.as_mut()
            && let Some(typed) = run_quoted(prompt)
        {
            *prompt = typed;
        }
    }

    fn write(&self, _event: &HookEvent, mut output: HookOutput) -> String {
        output.notification = None;
        output.to_json()
    }

    fn shell(&self) -> Shell {
        Shell::Fresh
    }
}

/// The command in a prompt `opencode run` quoted. `opencode run MESSAGE…` puts each argument that has a space in
/// it between `"`, its own `"` as `\"` (checked with 1.18.33), so `opencode run '/pua-loop "task" --verify cmd'`
/// reaches the plugin as `"/pua-loop \"task\" --verify cmd"`, which no command parser would recognise: such a
/// prompt, one quoted argument that starts with `/`, is read as typed. Any other prompt is left as it is.
fn run_quoted(prompt: &str) -> Option<String> {
    let inner = prompt.trim().strip_prefix('"')?.strip_suffix('"')?;
    if inner.replace("\\\"", "").contains('"') {
        return None;
    }
    let typed = inner.replace("\\\"", "\"");
    typed.starts_with('/').then_some(typed)
}
