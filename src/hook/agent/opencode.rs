//! opencode (`opencode-ai`), built from its plugin API (`@opencode-ai/plugin`: the `event`, `chat.message` and
//! `tool.execute.before` hooks; the SDK's `session.messages` and `session.prompt`) and **not yet run against the
//! real client**. opencode has no command hooks: `loopgate install --agent opencode` writes a JavaScript plugin
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
//! - opencode has no cap on follow-ups: loopgate keeps its own.

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::pre_tool_use::confined::Shell;
use crate::hook::{HookInput, HookOutput};

pub(super) struct Opencode;

/// opencode's tool names and the Claude Code tool each one is, for the guard.
const TOOLS: &[(&str, &str)] = &[("bash", "Bash"), ("write", "Write"), ("edit", "Edit"), ("read", "Read")];

impl Adapter for Opencode {
    fn read(&self, _event: &HookEvent, input: &mut HookInput) {
        super::claude_tool(input, TOOLS, "filePath");
    }

    fn write(&self, _event: &HookEvent, mut output: HookOutput) -> String {
        output.notification = None;
        output.to_json()
    }

    fn shell(&self) -> Shell {
        Shell::Fresh
    }
}
