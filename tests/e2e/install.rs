//! The README's install (`loopgate install`) against the real client in a fresh HOME: the plugin is installed
//! from the copy embedded in the binary, the bare `/pua-loop`, `/cancel-loop` and `/loop-status` work without
//! `--plugin-dir`, the namespaced `/loopgate:…` still work, and every hook runs once per event.

use std::ffi::OsString;

use super::{TASK, assert_contains, project_with_check, rejected_then_fixed, timer};
use crate::harness::{self, Output, Project, Run, claude_bin, loopgate_bin};
use crate::mock_api::Reply;

/// Runs `loopgate install` as the README says, with the suite's `claude` on `PATH`.
#[track_caller]
pub fn readme_install(project: &Project) -> Output {
    let out = loopgate_with_claude(project, "install");
    assert!(out.status.success(), "loopgate install failed: {out:#?}");
    out
}

/// `loopgate COMMAND` in the project with the suite's `claude` first on `PATH`. `claude plugin marketplace add`
/// and `claude plugin install` contact the API when a key is set (2.1.330 waits ~18 s each for an unreachable
/// one), so the mock API answers them too.
pub fn loopgate_with_claude(project: &Project, command: &str) -> Output {
    let api = crate::mock_api::MockApi::start();
    let claude_dir = claude_bin().parent().expect("claude has a parent dir").to_path_buf();
    let mut path = vec![claude_dir];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    let path: OsString = std::env::join_paths(path).expect("join PATH");
    let child = project
        .command(loopgate_bin())
        .arg(command)
        .env("PATH", path)
        .env("ANTHROPIC_BASE_URL", api.base_url())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn loopgate");
    harness::wait_output(child, std::time::Duration::from_secs(120))
}

/// The slash commands the session offered (its `init` event), as JSON text.
#[track_caller]
fn offered_commands(run: &Run) -> String {
    let init = run.events().into_iter().find(|e| e["subtype"] == "init");
    init.expect("an init event")["slash_commands"].to_string()
}

#[test]
fn after_loopgate_install_the_bare_commands_run_the_loop_with_each_hook_once() {
    let _t = timer("loopgate install, then bare /pua-loop and /cancel-loop");
    let project = project_with_check();
    let out = readme_install(&project);
    assert!(
        out.stdout.contains("installed the plugin loopgate@loopgate"),
        "{out:#?}"
    );
    // Twice changes nothing.
    let again = readme_install(&project);
    assert!(again.stdout.contains("up to date"), "{again:#?}");

    let run = project
        .session(format!("/pua-loop \"{TASK}\" --verify 'sh check.sh'"))
        .installed_plugins_only()
        .replies(rejected_then_fixed())
        .run();
    let commands = offered_commands(&run);
    for name in [
        "\"pua-loop\"",
        "\"cancel-loop\"",
        "\"loop-status\"",
        "\"loopgate:pua-loop\"",
    ] {
        assert!(commands.contains(name), "{name} is not offered: {commands}");
    }
    assert_contains(&run.prompt_text(), "sh check.sh", "the briefing", &run);
    assert_eq!(
        project.statuses(),
        ["init", "promise_rejected", "complete"],
        "{}",
        run.describe()
    );
    // One registration of each hook: one Stop run per stop, one SessionStart, one PreToolUse per tool call.
    assert_eq!(run.hook_outputs("Stop").len(), 2, "{}", run.describe());
    assert_eq!(run.hook_outputs("SessionStart").len(), 1, "{}", run.describe());
    assert_eq!(run.hook_outputs("PreToolUse").len(), 2, "{}", run.describe());

    // A loop left running (the session ends after one turn) is ended by the bare /cancel-loop.
    let first = project
        .session(format!("/pua-loop \"{TASK}\" --verify 'sh check.sh'"))
        .installed_plugins_only()
        .max_turns(1)
        .replies([Reply::text("Looking around.")])
        .run();
    assert!(project.loop_live(), "{}", first.describe());
    let status = project
        .session("/loop-status")
        .installed_plugins_only()
        .replies([Reply::text("A loop is running.")])
        .run();
    assert_contains(&status.prompt_text(), TASK, "the status shown", &status);
    let cancel = project
        .session("/cancel-loop")
        .installed_plugins_only()
        .replies([Reply::text("Cancelled.")])
        .run();
    assert!(!project.loop_live(), "{}", cancel.describe());
    assert_eq!(project.statuses().last().map(String::as_str), Some("cancelled"));
}

#[test]
fn uninstall_removes_the_bare_commands_and_the_plugin() {
    let _t = timer("loopgate uninstall");
    let project = Project::new();
    readme_install(&project);
    let out = loopgate_with_claude(&project, "uninstall");
    assert!(out.status.success(), "{out:#?}");
    assert!(
        out.stdout.contains("uninstalled the plugin loopgate@loopgate"),
        "{out:#?}"
    );
    let run = project
        .session("hello")
        .installed_plugins_only()
        .replies([Reply::text("hello")])
        .run();
    let commands = offered_commands(&run);
    assert!(
        !commands.contains("pua-loop"),
        "no loopgate command is left: {commands}"
    );
    assert!(project.state().is_none());
    assert!(!project.home.join(".claude/commands/pua-loop.md").exists());
}
