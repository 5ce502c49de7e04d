//! The interactive Claude Code UI in a pseudo-terminal, driven through tmux (`tests/support/tmux.rs`): a fresh
//! HOME, the README's install, then a user typing the bare `/pua-loop "…" --verify '…'` and `/cancel-loop`,
//! against the mock model.

use std::time::Duration;

use serde_json::json;

use super::install::readme_install;
use super::{TASK, project_with_check, rejected_then_fixed, timer};
use crate::harness::{Project, claude_bin, claude_version};
use crate::mock_api::{MockApi, Reply};
use crate::tmux::Pane;

/// Starts `claude ARGS` interactively in the project, with the scenario's environment and the mock API.
fn start(project: &Project, api: &MockApi, args: &[&str]) -> Pane {
    // What Claude Code's first run asks once (theme, trust this folder, use this API key) is answered
    // beforehand, as for a user who has used Claude Code before.
    let config = json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "customApiKeyResponses": {"approved": ["test"], "rejected": []},
        "projects": {project.dir.to_string_lossy(): {"hasTrustDialogAccepted": true}},
    });
    std::fs::write(project.home.join(".claude.json"), config.to_string()).expect("write .claude.json");
    let mut env = project.env();
    env.push(("ANTHROPIC_BASE_URL".into(), api.base_url().into()));
    let base = project.dir.parent().expect("scenario dir");
    Pane::start(base, &env, &project.dir, &claude_bin(), args, "❯")
}

fn statuses_end_with(project: &Project, status: &str) -> bool {
    project.statuses().last().is_some_and(|s| s == status)
}

#[test]
fn a_user_types_the_bare_pua_loop_and_cancel_loop_in_the_interactive_ui_after_the_readme_install() {
    let _t = timer("interactive UI: bare /pua-loop and /cancel-loop");
    let project = project_with_check();
    readme_install(&project);
    let api = MockApi::start();
    api.push(rejected_then_fixed());
    api.push([
        Reply::text("I need the release date first.\n<loop-pause>the release date</loop-pause>"),
        Reply::text("The loop is cancelled."),
    ]);
    // Bash is allowed up front so that no permission prompt waits for a keypress.
    let mut tui = start(&project, &api, &["--allowedTools", "Bash"]);
    let minute = Duration::from_secs(60);
    tui.wait_until("the input prompt", minute, |s| s.contains('❯'));

    tui.type_line(&format!("/pua-loop \"{TASK}\" --verify 'sh check.sh'"));
    tui.wait_until("the loop to complete", minute * 2, |_| {
        statuses_end_with(&project, "complete")
    });
    let screen = tui.wait_until("the completion notice", minute, |s| s.contains("verified complete"));
    assert!(!tui.seen.contains("Unknown command"), "{}", tui.seen);
    assert_eq!(project.statuses(), ["init", "promise_rejected", "complete"], "{screen}");
    assert_eq!(project.read("src.txt"), "fixed\n");

    tui.type_line("/pua-loop \"write the release notes\" --verify 'sh check.sh'");
    tui.wait_until("the agent to pause the loop", minute * 2, |_| {
        statuses_end_with(&project, "paused")
    });
    tui.type_line("/cancel-loop");
    tui.wait_until("the loop to be cancelled", minute * 2, |_| {
        statuses_end_with(&project, "cancelled")
    });
    tui.wait_until("the model's answer", minute, |s| s.contains("The loop is cancelled."));
    assert!(!project.loop_live());
    assert!(!tui.seen.contains("Unknown command"), "{}", tui.seen);
    assert_eq!(
        project.statuses(),
        ["init", "promise_rejected", "complete", "init", "paused", "cancelled"],
        "on Claude Code {}:\n{}",
        claude_version(),
        tui.seen
    );
    assert_eq!((api.remaining(), api.exhausted()), (0, 0), "{}", tui.seen);
}
