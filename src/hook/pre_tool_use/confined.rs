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
//!
//! Nor in Claude Code's `auto` permission mode (2.1.330's interactive default). There Claude Code approves
//! commands it judges safe by their text, and a rewritten command is never one of them: every Bash call would
//! ask the user (measured: `tests/e2e/tui.rs`). A guard that asks at every command gets turned off, so in that
//! mode the agent's commands run as typed; the oracle's own run stays confined, and the README's threat model
//! says what that leaves open.

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

/// The permission modes in which a rewritten command would make Claude Code ask where the original did not.
const MODES_THAT_JUDGE_THE_TEXT: &[&str] = &["auto"];

/// How an agent's shell tool runs a command, as far as the rewrite cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shell {
    /// One shell for the session (Claude Code, Codex CLI): the rewrite carries the command's last directory
    /// back to it, through a command substitution.
    Kept,
    /// A fresh shell per command that refuses command substitution (Gemini CLI 0.61.0: "Command injection
    /// detected"): the command runs under `loopgate confine -c` with nothing around it.
    Fresh,
}

/// The notice for a Bash call that runs unconfined because of auto mode, the first time in this loop (`None`
/// after that, in another mode, or where the machine cannot confine anyway: setup said so already).
pub(super) fn auto_mode_notice(
    active: &crate::lifecycle::ActiveLoop,
    tool: &str,
    permission_mode: Option<&str>,
) -> Option<String> {
    let judged = permission_mode.is_some_and(|mode| MODES_THAT_JUDGE_THE_TEXT.contains(&mode));
    if tool != "Bash" || !judged || !crate::confine::probe().is_protected() {
        return None;
    }
    let loop_id = &active.seal.fields.config.loop_id;
    let seen: Option<String> = active
        .store
        .load_companion(&active.project, crate::confine::UNCONFINED)
        .ok()
        .flatten();
    if seen.as_ref() == Some(loop_id) {
        return None;
    }
    // Not written: the notice comes again at the next call, which is better than never.
    let _ = active
        .store
        .save_companion(&active.project, crate::confine::UNCONFINED, loop_id);
    Some(crate::messages::control_plane_unprotected(
        active.seal.fields.config.lang,
        crate::confine::AUTO_MODE,
    ))
}

/// The rewrite of a Bash call, or `None` (another tool, no command, already confined, nothing to confine with,
/// a permission mode that judges commands by their text).
pub(super) fn rewrite(
    tool: &str,
    tool_input: &Value,
    outside: &[PathBuf],
    permission_mode: Option<&str>,
    shell: Shell,
) -> Option<HookOutput> {
    if tool != "Bash"
        || permission_mode.is_some_and(|mode| MODES_THAT_JUDGE_THE_TEXT.contains(&mode))
        || !crate::confine::probe().is_protected()
    {
        return None;
    }
    let command = tool_input.get("command")?.as_str()?;
    let exe = std::env::current_exe().ok()?;
    let home = crate::project::loopgate_home();
    let fresh = fresh_head(&exe, &home, outside);
    if rewrite::is_wrapped(&exe, &home, outside, command) || command.starts_with(&fresh) {
        return None;
    }
    let rewritten = own_command(&exe, command).unwrap_or_else(|| match shell {
        Shell::Kept => rewrite::wrap(&exe, &home, outside, command),
        Shell::Fresh => format!("{fresh}{}", rewrite::quote(command)),
    });
    let mut updated = tool_input.clone();
    updated["command"] = Value::String(rewritten);
    Some(HookOutput::rewrite_tool(updated))
}

/// The start of a [`Shell::Fresh`] rewrite: `loopgate confine` by its absolute path, what it protects, `-c`.
fn fresh_head(exe: &std::path::Path, home: &std::path::Path, outside: &[PathBuf]) -> String {
    let mut head = format!(
        "{} confine --loop-home {}",
        rewrite::quote(&exe.to_string_lossy()),
        rewrite::quote(&home.to_string_lossy())
    );
    for path in outside {
        head.push_str(" --protect ");
        head.push_str(&rewrite::quote(&path.to_string_lossy()));
    }
    head.push_str(" -c ");
    head
}

#[cfg(test)]
mod tests {
    use super::{Shell, own_command, rewrite};
    use std::path::Path;

    #[test]
    fn a_bash_call_is_rewritten_unless_claude_code_judges_commands_by_their_text() {
        let input = serde_json::json!({"command": "echo hi > out.txt"});
        if !crate::confine::probe().is_protected() {
            // Nothing to confine with (qemu-user emulates neither Landlock nor, there, is the namespace probe's
            // child sure to run): nothing is rewritten, whatever the mode.
            assert!(
                !crate::confine::landlock_expected(),
                "no confinement on a machine that has it"
            );
            assert!(rewrite("Bash", &input, &[], Some("default"), Shell::Kept).is_none());
            return;
        }
        let rewritten =
            rewrite("Bash", &input, &[], Some("default"), Shell::Kept).expect("rewritten in the default mode");
        let wire: serde_json::Value = serde_json::from_str(&rewritten.to_json()).expect("json");
        let command = wire["hookSpecificOutput"]["updatedInput"]["command"].clone();
        assert!(command.as_str().is_some_and(|c| c.contains("confine")), "{command}");
        assert!(rewrite("Bash", &input, &[], Some("bypassPermissions"), Shell::Kept).is_some());
        assert!(rewrite("Bash", &input, &[], None, Shell::Kept).is_some());
        assert!(
            rewrite("Bash", &input, &[], Some("auto"), Shell::Kept).is_none(),
            "auto mode asks at every rewritten command"
        );
        assert!(rewrite("Read", &input, &[], Some("default"), Shell::Kept).is_none());
        // A fresh shell per command that refuses `$(…)` (Gemini CLI): the command under confine, nothing more.
        let fresh = rewrite("Bash", &input, &[], None, Shell::Fresh).expect("rewritten");
        let wire: serde_json::Value = serde_json::from_str(&fresh.to_json()).expect("json");
        let command = wire["hookSpecificOutput"]["updatedInput"]["command"].clone();
        let command = command.as_str().expect("a command");
        assert!(
            command.ends_with(" -c 'echo hi > out.txt'") && !command.contains("$("),
            "{command}"
        );
        let again = serde_json::json!({"command": command});
        assert!(
            rewrite("Bash", &again, &[], None, Shell::Fresh).is_none(),
            "not wrapped twice"
        );
    }

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
