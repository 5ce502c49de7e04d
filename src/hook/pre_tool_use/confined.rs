//! While a loop is active, the agent's Bash command is rewritten (`updatedInput`) to run under
//! `loopgate confine`, so neither it nor anything it starts can write the control plane (`plane`, `confine`).
//!
//! No `permissionDecision` is given, on purpose. Checked with the real client (2.1.197 and 2.1.330, scripted
//! model): an `updatedInput` without a decision runs, and Claude Code's permission check then applies to the
//! rewritten command — a tool-wide `Bash` allow still runs it, a command needing approval still asks (in `-p`
//! mode: is refused), bypass-permissions mode runs it. With `"allow"` the command would run even where the
//! user's settings would have asked, which a rewrite must never cause.
//!
//! Nothing is rewritten where the machine cannot confine (`confine::probe`): the command would run unconfined
//! anyway, and setup, `status` and the report say so.

use std::path::PathBuf;

use serde_json::Value;

use crate::confine::rewrite;
use crate::hook::HookOutput;

/// The rewrite of a Bash call, or `None` (another tool, no command, already confined, nothing to confine with).
pub(super) fn rewrite(tool: &str, tool_input: &Value, outside: &[PathBuf]) -> Option<HookOutput> {
    if tool != "Bash" || !crate::confine::probe().is_protected() {
        return None;
    }
    let command = tool_input.get("command")?.as_str()?;
    let exe = std::env::current_exe().ok()?;
    let home = crate::project::loopgate_home();
    if rewrite::is_wrapped(&exe, &home, outside, command) {
        return None;
    }
    let mut updated = tool_input.clone();
    updated["command"] = Value::String(rewrite::wrap(&exe, &home, outside, command));
    Some(HookOutput {
        hook_specific: Some(serde_json::json!({"hookEventName": "PreToolUse", "updatedInput": updated})),
        ..HookOutput::default()
    })
}
