//! A temp project for `loopgate run` in the shared test sandbox (`tests/support/common.rs`: its own `HOME` and
//! seal store), scripted fake agents (small shell scripts), and the real binary run in the foreground or the
//! background (for Ctrl-C and concurrent commands).

use std::fs;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

pub use crate::common::{CHECK_SH, TASK, alive, eventually};
use crate::common::{Sandbox, write_file};

pub struct Project {
    sandbox: Sandbox,
    pub dir: PathBuf,
}

impl Project {
    /// A project holding `check.sh` and a broken `src.txt`.
    pub fn new() -> Self {
        let sandbox = Sandbox::new("loopgate-run-");
        let project = Self {
            dir: sandbox.project.clone(),
            sandbox,
        };
        project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
        project
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// The sandbox's own directory (for a tmux socket and launcher).
    pub fn base(&self) -> &std::path::Path {
        &self.sandbox.base
    }

    /// What a command of the sandbox sees: `HOME`, `LOOPGATE_HOME`, `TMPDIR` and `PATH` (for a terminal's shell).
    pub fn env(&self) -> Vec<(String, std::ffi::OsString)> {
        vec![
            ("HOME".into(), self.sandbox.home.clone().into()),
            ("LOOPGATE_HOME".into(), self.sandbox.loopgate_home.clone().into()),
            ("TMPDIR".into(), self.sandbox.base.join("tmp").into()),
            ("PATH".into(), std::env::var_os("PATH").unwrap_or_default()),
        ]
    }

    /// loopgate's store (`LOOPGATE_HOME`) of this sandbox.
    pub fn store(&self) -> PathBuf {
        self.sandbox.loopgate_home.clone()
    }

    /// Writes a file, executable when it starts with `#!`.
    pub fn write(&self, rel: &str, contents: &str) -> &Self {
        write_file(&self.path(rel), contents);
        self
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// A fake agent: `#!/bin/sh` plus `body`, in `agents/NAME`; returns its absolute path.
    pub fn agent(&self, name: &str, body: &str) -> String {
        let rel = format!("agents/{name}");
        self.write(&rel, &format!("#!/bin/sh\n{body}\n"));
        self.path(&rel).to_str().expect("utf-8 path").to_string()
    }

    /// `loopgate ARGS` in the project with the test's environment and nothing from the caller's loopgate or
    /// Claude Code.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = self.program(env!("CARGO_BIN_EXE_loopgate"));
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// `program` in the project with the test's environment.
    pub fn program(&self, program: &str) -> Command {
        self.sandbox.command(program)
    }

    /// Runs `loopgate ARGS` to its end (at most a minute).
    #[track_caller]
    pub fn loopgate(&self, args: &[&str]) -> Output {
        self.start(args).wait(Duration::from_secs(60))
    }

    /// Starts `loopgate ARGS` in the background, in a process group of its own like a shell job.
    pub fn start(&self, args: &[&str]) -> Running {
        self.start_with(self.command(args))
    }

    pub fn start_with(&self, mut cmd: Command) -> Running {
        cmd.process_group(0);
        let mut child = cmd.spawn().expect("spawn loopgate");
        let (stdout, stderr) = crate::common::drain_output(&mut child);
        Running {
            child,
            stdout,
            stderr,
            started: Instant::now(),
        }
    }

    /// The history records, every line parsed.
    pub fn history(&self) -> Vec<Value> {
        let Ok(text) = fs::read_to_string(self.path(".claude/pua-loop-history.jsonl")) else {
            return Vec::new();
        };
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("history line is not JSON ({e}): {l}")))
            .collect()
    }

    pub fn statuses(&self) -> Vec<String> {
        self.history()
            .iter()
            .map(|r| r["status"].as_str().unwrap_or("?").to_string())
            .collect()
    }

    /// The last record with this status.
    #[track_caller]
    pub fn last(&self, status: &str) -> Value {
        self.history()
            .into_iter()
            .rev()
            .find(|r| r["status"] == status)
            .unwrap_or_else(|| panic!("no `{status}` record in {:?}", self.statuses()))
    }

    pub fn state(&self) -> Option<String> {
        fs::read_to_string(self.path(".claude/pua-loop.local.md")).ok()
    }

    /// Waits for a pid file the fake agent writes; returns the pid.
    #[track_caller]
    pub fn wait_pid(&self, rel: &str) -> i32 {
        self.wait_pid_at(&self.path(rel))
    }

    /// A file in a folder of cargo's directory for tests' files (made here, one per sandbox): where a verify
    /// command writes what a test must read, since the oracle's run stands in the room's own copy of the project
    /// and writes `$HOME` and `/tmp` into a scratch of its own, so what it writes there never reaches the test.
    pub fn signal_path(&self, name: &str) -> PathBuf {
        self.sandbox.signals().join(name)
    }

    /// The pid written to `path`, waited for.
    pub fn wait_pid_at(&self, path: &Path) -> i32 {
        let mut pid = None;
        let found = eventually(Duration::from_secs(20), || {
            pid = fs::read_to_string(path).ok().and_then(|t| t.trim().parse().ok());
            pid.is_some()
        });
        assert!(found, "`{}` was never written", path.display());
        pid.expect("pid")
    }
}

/// A background `loopgate`.
pub struct Running {
    pub child: Child,
    stdout: JoinHandle<String>,
    stderr: JoinHandle<String>,
    started: Instant,
}

impl Running {
    pub fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).expect("pid fits")
    }

    pub fn signal(&self, signal: i32) {
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(self.pid(), signal) };
    }

    /// Waits for the end (killing its group after `timeout`, which fails the test).
    #[track_caller]
    pub fn wait(mut self, timeout: Duration) -> Output {
        let deadline = self.started + timeout;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() >= deadline {
                // SAFETY: killing the group we created.
                unsafe { libc::killpg(self.pid(), libc::SIGKILL) };
                let _ = self.child.wait();
                panic!(
                    "loopgate did not finish within {timeout:?}\nstderr:\n{}",
                    self.stderr.join().unwrap_or_default()
                );
            }
            thread::sleep(Duration::from_millis(20));
        };
        Output {
            status,
            stdout: self.stdout.join().unwrap_or_default(),
            stderr: self.stderr.join().unwrap_or_default(),
            elapsed: self.started.elapsed(),
        }
    }
}

#[derive(Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Output {
    #[track_caller]
    pub fn code(&self, expected: i32) -> &Self {
        assert_eq!(self.status.code(), Some(expected), "unexpected exit: {self:#?}");
        self
    }

    /// Died of SIGINT, as a shell reports 130.
    #[track_caller]
    pub fn interrupted(&self) -> &Self {
        let shell_status = self.status.code().or(self.status.signal().map(|s| 128 + s));
        assert_eq!(shell_status, Some(130), "unexpected exit: {self:#?}");
        self
    }

    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(self.stderr.contains(needle), "stderr lacks {needle:?}: {self:#?}");
        self
    }
}

/// The path as `&str`.
pub fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}
