//! The interactive Claude Code UI in a pseudo-terminal, driven through tmux (`send-keys` types, `capture-pane`
//! reads the screen): a fresh HOME, the README's install, then a user typing the bare `/pua-loop "…" --verify
//! '…'` and `/cancel-loop`, against the mock model.
//!
//! tmux runs on a socket of the scenario's own (`-S`), without any configuration (`-f /dev/null`), and is killed
//! when the scenario ends. Without tmux the scenario fails and says how to install it: it never skips.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;

use super::install::readme_install;
use super::{TASK, project_with_check, rejected_then_fixed, timer};
use crate::harness::{Project, claude_bin, claude_version};
use crate::mock_api::{MockApi, Reply};

/// A `claude` running interactively in a tmux pane.
struct Tui {
    socket: PathBuf,
    /// Everything the screen showed, in the order it was captured (for failure messages).
    seen: String,
}

impl Tui {
    /// Starts `claude ARGS` in the project, with the scenario's environment and the mock API.
    fn start(project: &Project, api: &MockApi, args: &[&str]) -> Self {
        let base = project.dir.parent().expect("scenario dir").to_path_buf();
        let socket = base.join("tmux.sock");
        // What Claude Code's first run asks once (theme, trust this folder, use this API key) is answered
        // beforehand, as for a user who has used Claude Code before.
        let config = json!({
            "hasCompletedOnboarding": true,
            "theme": "dark",
            "customApiKeyResponses": {"approved": ["test"], "rejected": []},
            "projects": {project.dir.to_string_lossy(): {"hasTrustDialogAccepted": true}},
        });
        std::fs::write(project.home.join(".claude.json"), config.to_string()).expect("write .claude.json");
        let mut script = String::from("#!/bin/sh\n");
        for (key, value) in project.env() {
            script.push_str(&format!("export {key}={}\n", quote(&value.to_string_lossy())));
        }
        script.push_str(&format!("export ANTHROPIC_BASE_URL={}\n", quote(&api.base_url())));
        script.push_str("export TERM=xterm-256color\n");
        script.push_str(&format!("cd {}\n", quote(&project.dir.to_string_lossy())));
        let args: Vec<String> = args.iter().map(|a| quote(a)).collect();
        script.push_str(&format!(
            "exec {} {}\n",
            quote(&claude_bin().to_string_lossy()),
            args.join(" ")
        ));
        let launcher = base.join("start-claude.sh");
        std::fs::write(&launcher, script).expect("write the launcher");
        let tui = Tui {
            socket,
            seen: String::new(),
        };
        tui.tmux(&[
            "new-session",
            "-d",
            "-x",
            "180",
            "-y",
            "50",
            "-s",
            "e2e",
            "sh",
            &launcher.to_string_lossy(),
        ]);
        tui
    }

    fn tmux(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .arg("-f")
            .arg("/dev/null")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap_or_else(|e| {
                panic!("failed to run tmux ({e}): the interactive scenario needs it (`apt-get install tmux`)")
            });
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The visible screen.
    fn screen(&mut self) -> String {
        let screen = self.tmux(&["capture-pane", "-p", "-t", "e2e"]);
        if !self.seen.ends_with(&screen) {
            self.seen.push_str("\n=== screen ===\n");
            self.seen.push_str(&screen);
        }
        screen
    }

    /// Types `text` literally and, once the input box shows it, presses Enter.
    #[track_caller]
    fn type_line(&mut self, text: &str) {
        self.tmux(&["send-keys", "-t", "e2e", "-l", text]);
        let start: String = text.chars().take(12).collect();
        self.wait_until(
            &format!("the input box to show {start:?}"),
            Duration::from_secs(30),
            |s| s.lines().any(|line| line.starts_with('❯') && line.contains(&start)),
        );
        // Let the completion menu settle before Enter.
        std::thread::sleep(Duration::from_millis(300));
        self.tmux(&["send-keys", "-t", "e2e", "Enter"]);
    }

    /// Waits until `done` holds, reading the screen meanwhile; fails with everything seen.
    #[track_caller]
    fn wait_until(&mut self, what: &str, timeout: Duration, mut done: impl FnMut(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out after {timeout:?} waiting for {what}; the screen showed:\n{}",
                self.seen
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        if std::env::var_os("LOOPGATE_E2E_TRACE").is_some() {
            eprintln!("{}", self.seen);
        }
        self.tmux(&["kill-server"]);
    }
}

/// Single-quotes a word for sh.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
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
    let mut tui = Tui::start(&project, &api, &["--allowedTools", "Bash"]);
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
