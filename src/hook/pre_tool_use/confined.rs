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

/// loopgate's own commands that the agent may run and that must keep writing loopgate's records (`rollback`
/// records its restore in the seal): a command that is exactly `loopgate SUBCOMMAND WORDS…`, with words of plain
/// characters only (nothing a shell would expand or chain), runs this binary by its absolute path, unconfined —
/// so no other program can run outside the domain through it. Anything else is confined.
const OWN_COMMANDS: &[&str] = &["rollback", "verify", "status", "history", "checkpoints", "diff"];

fn own_command(exe: &std::path::Path, command: &str) -> Option<String> {
    let plain = |word: &str| {
        !word.is_empty()
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._/=:,+-".contains(&b))
    };
    let mut words = command.split([' ', '\t']).filter(|w| !w.is_empty());
    let (Some("loopgate"), Some(sub)) = (words.next(), words.next()) else {
        return None;
    };
    let rest: Vec<&str> = words.collect();
    (OWN_COMMANDS.contains(&sub) && rest.iter().all(|w| plain(w))).then(|| {
        format!("{} {sub} {}", rewrite::quote(&exe.to_string_lossy()), rest.join(" "))
            .trim_end()
            .to_string()
    })
}

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
    let rewritten = own_command(&exe, command).unwrap_or_else(|| rewrite::wrap(&exe, &home, outside, command));
    let mut updated = tool_input.clone();
    updated["command"] = Value::String(rewritten);
    Some(HookOutput {
        hook_specific: Some(serde_json::json!({"hookEventName": "PreToolUse", "updatedInput": updated})),
        ..HookOutput::default()
    })
}

#[cfg(test)]
mod tests {
    use super::own_command;
    use std::path::Path;

    #[test]
    fn only_a_plain_own_command_runs_unconfined_and_by_absolute_path() {
        let exe = Path::new("/opt/lg/loopgate");
        assert_eq!(
            own_command(exe, "loopgate rollback 1").as_deref(),
            Some("'/opt/lg/loopgate' rollback 1")
        );
        assert_eq!(
            own_command(exe, "loopgate verify").as_deref(),
            Some("'/opt/lg/loopgate' verify")
        );
        for confined in [
            "loopgate rollback 1; touch x",
            "loopgate rollback $(touch x)",
            "loopgate allow --all",
            "loopgate verify && sh evil.sh",
            "loopgate status\nrm -rf ~",
            "loopgate diff `x`",
            "./loopgate rollback 1",
            "loopgate",
        ] {
            assert_eq!(own_command(exe, confined), None, "{confined}");
        }
    }
}
