//! One adapter per agent CLI: the seam between an agent's hook wire format and loopgate's hooks.
//!
//! The decision (`stop::Outcome`, the guard's verdict, the carried-out `/pua-loop`) is the same for every agent;
//! an adapter owns only what differs (the agent's names for the events are `cli::Agent::event_name`, the table
//! install writes from): how its input becomes a [`HookInput`]
//! (field names, the last message, whether `stop_hook_active` can be trusted, the tool names), how a
//! [`HookOutput`] becomes its JSON, and its cap on stop-hook blocks in a row (or that it has none, and loopgate
//! keeps its own). Installing an agent's hooks is `commands::install::agents`.
//!
//! A new agent is a variant of `cli::Agent` (with its event names and run command), one module here implementing
//! [`Adapter`], its row in [`of`], its row in `commands::install::agents::SPECS`, and a line in `tests/agents.rs`.

mod claude;
mod codex;
mod gemini;

use crate::cli::{Agent, HookEvent};
use crate::hook::pre_tool_use::confined::Shell;
use crate::hook::{HookInput, HookOutput};

/// What one agent CLI's hooks differ in.
pub(crate) trait Adapter: Sync {
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

/// The adapter of `agent`.
pub(crate) fn of(agent: Agent) -> &'static dyn Adapter {
    match agent {
        Agent::Claude => &claude::Claude,
        Agent::Codex => &codex::Codex,
        Agent::Gemini => &gemini::Gemini,
    }
}

#[cfg(test)]
mod tests;
