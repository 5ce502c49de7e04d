//! An interactive agent CLI in a pseudo-terminal, driven through tmux: `send-keys` types, `capture-pane` reads
//! the screen. Shared by the Claude Code suite (`tests/e2e/tui.rs`) and the other agents' (`tests/agents/tui.rs`).
//!
//! tmux runs on a socket of the scenario's own (`-S`), without any configuration (`-f /dev/null`), and is killed
//! when the pane is dropped. Without tmux the scenario fails and says how to install it: it never skips.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A program running in a tmux pane.
pub struct Pane {
    socket: PathBuf,
    /// What starts the line the user types into, in this CLI's input box (Claude Code `❯`, Codex `›`).
    input_mark: &'static str,
    /// Everything the screen showed, in the order it was captured (for failure messages).
    pub seen: String,
}

impl Pane {
    /// Starts `program ARGS` in `cwd` with `env` (and `TERM=xterm-256color`, without CI's markers) in a 180×50 pane; the launcher
    /// script and the socket go in `base`.
    pub fn start(
        base: &Path,
        env: &[(String, OsString)],
        cwd: &Path,
        program: &Path,
        args: &[&str],
        input_mark: &'static str,
    ) -> Self {
        // A terminal user's session is not a CI job: CI's markers (`CI`, `CONTINUOUS_INTEGRATION`, `CI_*`), which
        // the tmux server inherits from the test run, make Ink-based UIs (Gemini CLI) draw nothing until they exit.
        let mut script = String::from(
            "#!/bin/sh\nunset CI CONTINUOUS_INTEGRATION $(env | sed -n 's/^\\(CI_[A-Za-z0-9_]*\\)=.*/\\1/p')\n",
        );
        for (key, value) in env {
            script.push_str(&format!("export {key}={}\n", quote(&value.to_string_lossy())));
        }
        script.push_str("export TERM=xterm-256color\n");
        script.push_str(&format!("cd {}\n", quote(&cwd.to_string_lossy())));
        let args: Vec<String> = args.iter().map(|a| quote(a)).collect();
        script.push_str(&format!(
            "exec {} {}\n",
            quote(&program.to_string_lossy()),
            args.join(" ")
        ));
        let launcher = base.join("start-agent.sh");
        std::fs::write(&launcher, script).expect("write the launcher");
        let pane = Pane {
            socket: base.join("tmux.sock"),
            input_mark,
            seen: String::new(),
        };
        pane.tmux(&[
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
        pane
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
    pub fn screen(&mut self) -> String {
        let screen = self.tmux(&["capture-pane", "-p", "-t", "e2e"]);
        if !self.seen.ends_with(&screen) {
            self.seen.push_str("\n=== screen ===\n");
            self.seen.push_str(&screen);
        }
        screen
    }

    /// Presses a key by its tmux name (`Enter`, `Escape`, `Tab`).
    pub fn press(&self, key: &str) {
        self.tmux(&["send-keys", "-t", "e2e", key]);
    }

    /// Presses `key` until `done` holds (at most four times, each given 20 s to show): a key that answers a dialog
    /// can be lost on a loaded machine when it arrives while the dialog still draws.
    #[track_caller]
    #[allow(dead_code)] // the Claude Code suite answers no dialog
    pub fn press_until(&mut self, key: &str, what: &str, done: impl Fn(&str) -> bool) -> String {
        for _ in 0..3 {
            self.press(key);
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                let screen = self.screen();
                if done(&screen) {
                    return screen;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        self.press(key);
        self.wait_until(what, Duration::from_secs(20), done)
    }

    /// Types `text` literally and waits until the input box shows its start and the screen its end (wrapped
    /// lines compared by their letters and digits alone, so a box's border or padding where a line wraps counts
    /// for nothing): a key pressed next then reaches the CLI after the text, not in
    /// the same read. On a loaded machine a CLI that is slow to read gets the text and a following Enter at once,
    /// which Codex takes for a paste (the Enter a newline in the box, nothing sent).
    #[track_caller]
    pub fn type_text(&mut self, text: &str) {
        self.tmux(&["send-keys", "-t", "e2e", "-l", text]);
        let start: String = text.chars().take(12).collect();
        let bare = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
        let whole = bare(text);
        let end: String = whole.chars().skip(whole.chars().count().saturating_sub(12)).collect();
        let mark = self.input_mark;
        self.wait_until(
            &format!("the input box to show {start:?} … {end:?}"),
            // An Ink UI (Gemini CLI, Claude Code) draws the box again at every key: on a machine whose cores the
            // gaming lanes keep busy a long line takes many seconds to show.
            Duration::from_secs(90),
            |s| {
                s.lines()
                    .any(|line| line.find(mark).is_some_and(|at| line[at..].contains(&start)))
                    && bare(s).contains(&end)
            },
        );
    }

    /// Types `text` and, once the input box shows it, presses Enter.
    #[track_caller]
    pub fn type_line(&mut self, text: &str) {
        self.type_text(text);
        // Let the completion menu settle before Enter.
        std::thread::sleep(Duration::from_millis(300));
        self.press("Enter");
    }

    /// Waits until `done` holds, reading the screen meanwhile; fails with everything seen.
    #[track_caller]
    pub fn wait_until(&mut self, what: &str, timeout: Duration, mut done: impl FnMut(&str) -> bool) -> String {
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

impl Drop for Pane {
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
