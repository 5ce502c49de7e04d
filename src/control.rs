//! The loop's control plane belongs to the user: what the oracle is (`setup`, which replaces a running loop)
//! and what it accepts (`allow`) are changed only by a person, never by the loop's own agent.
//!
//! Two mechanisms, by what the platform offers:
//!
//! - **Where the caller runs.** Claude Code puts `CLAUDECODE`, `CLAUDE_CODE_SESSION_ID` and
//!   `CLAUDE_CODE_ENTRYPOINT` in the environment of every command it runs (the agent's Bash tool and a slash
//!   command's pre-executed block alike), and `SANDBOX_RUNTIME=1` when its OS sandbox wraps the command. Every
//!   process the agent starts inherits them: a script, an interpreter, a name assembled at run time, a
//!   background job, a double fork. So `allow` refuses to act with them set, and `setup` and `cancel` never
//!   act by themselves from inside Claude Code. A process that scrubs its environment (`env -u …`, `env -i`)
//!   gets past this check — which is why it is not the boundary, only the first refusal.
//! - **The user's prompt.** A slash command's block and the agent's Bash are indistinguishable to the process,
//!   but only the user submits prompts: Claude Code runs the `UserPromptSubmit` hook (outside its sandbox) with
//!   the typed text. So `/pua-loop` and `/cancel-loop` from inside Claude Code leave a [`Request`] that a hook
//!   carries out only when the prompt the user submitted is that very command with that very text: the prompt
//!   hook itself when it runs after the block (Claude Code 2.1.197), else — it ran first (2.1.330) and left a
//!   ticket in the store — the block acts at once outside the sandbox, or the PreToolUse or Stop hook does
//!   inside it. An agent can write a request; it cannot submit the prompt that carries it out.
//!
//! With Claude Code's sandbox on (`loopgate install --sandbox`) the operating system is the boundary: the seal
//! store lies outside the directories a sandboxed command may write, so `allow`, `setup` or `cancel` run by
//! the agent — however started — fail to write it. Without the sandbox a same-user process can write the seal
//! store directly, and nothing here stops that (the README's threat model says so).

mod caller;
mod defer;
pub(crate) mod request;

pub(crate) use caller::Caller;
pub(crate) use defer::{defer_setup, defer_to_prompt};
pub(crate) use request::{Kind, Request};

use crate::error::Error;

/// Refuses `action` (e.g. "accept changes to the oracle's inputs") to a caller inside Claude Code.
pub(crate) fn refuse_inside_claude_code(caller: &Caller, action: &'static str) -> Result<(), Error> {
    if caller.in_claude_code {
        return Err(Error::ControlRefused {
            action,
            marker: caller.marker.unwrap_or("CLAUDECODE"),
        });
    }
    Ok(())
}
