//! The test fixture: a temporary project driven through the real `loopgate` binary.
//!
//! Every [`Project`] owns one shared test sandbox (`tests/support/common.rs`: the project itself, a `HOME`, a
//! `LOOPGATE_HOME`, the seal store) plus the files the harness uses for each command's stdin / stdout / stderr. Commands run with a
//! cleared environment (only `PATH`, `HOME`, `LOOPGATE_HOME` and what a test adds), so nothing from the
//! developer's shell or a surrounding Claude Code session (`CLAUDE_PROJECT_DIR`, `CLAUDE_CODE_SESSION_ID`) leaks
//! in. Output goes to files, not pipes, so a verify grandchild that keeps a pipe open can never hang the test
//! harness; a watchdog kills a command that runs past its deadline and fails the test with what it printed.
//!
//! Every run is checked for panics; the `#[track_caller]` assertions on [`Output`] print the whole command,
//! exit status, stdout and stderr when they fail.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Sandbox;
// Re-exported for the suites built on this harness; not every one of them uses each.
#[allow(unused_imports)]
pub use crate::common::{LOOPGATE, eventually, is_root};

/// The binary the commands run: this build's, or the one `LOOPGATE_UNDER_TEST` names (to play the
/// adversarial suite against an earlier release, see `tests/gaming/family_moves.rs`).
pub fn under_test() -> OsString {
    std::env::var_os("LOOPGATE_UNDER_TEST").unwrap_or_else(|| LOOPGATE.into())
}

/// How long any one command may run before the watchdog kills it (tests may lower or raise it).
const DEFAULT_DEADLINE: Duration = Duration::from_secs(60);

/// A temporary project with its own `HOME` and seal store.
pub struct Project {
    _sandbox: Sandbox,
    /// A lock the project holds while it lives ([`Project::at`]).
    _claim: Option<fs::File>,
    root: PathBuf,
    home: PathBuf,
    loopgate_home: PathBuf,
    io: PathBuf,
    base: PathBuf,
    runs: AtomicUsize,
    echo: bool,
    nobody: bool,
    /// The oracle runs in the project's own tree (`LOOPGATE_ROOM_TREE=0`, see [`Project::in_project_tree`]).
    project_tree: bool,
    /// Sessions whose last [`Project::stop`] was blocked: their next Stop continues that turn, and Claude Code
    /// says so with `stop_hook_active: true`.
    continuing: Mutex<BTreeSet<String>>,
}

impl Project {
    /// An empty project directory (nothing in it, not even `.claude/`).
    pub fn new() -> Self {
        Self::in_sandbox(Sandbox::new("loopgate-cli-"), None)
    }

    /// A project in `dir`, which the caller made and keeps, as it is (the gaming suite restores a loop set up
    /// there before, `tests/gaming/shared_setup.rs`), holding `claim` (the caller's lock on `dir`) while it lives.
    /// Only the gaming suite's.
    #[allow(dead_code)]
    pub fn at(dir: &Path, claim: fs::File) -> Self {
        Self::in_sandbox(Sandbox::at(dir), Some(claim))
    }

    fn in_sandbox(sandbox: Sandbox, claim: Option<fs::File>) -> Self {
        let io = sandbox.base.join("io");
        fs::create_dir_all(&io).expect("create fixture dir");
        Self {
            root: sandbox.project.clone(),
            home: sandbox.home.clone(),
            loopgate_home: sandbox.loopgate_home.clone(),
            io,
            base: sandbox.base.clone(),
            _sandbox: sandbox,
            _claim: claim,
            runs: AtomicUsize::new(0),
            echo: false,
            nobody: false,
            project_tree: false,
            continuing: Mutex::new(BTreeSet::new()),
        }
    }

    /// Sets loops up with the oracle in the project's own tree (`LOOPGATE_ROOM_TREE=0`), for the tests that watch
    /// the verify command through files it writes or removes in the project (a marker, a pid file): in the
    /// room's own tree (the default) those land in the room's copy.
    pub fn in_project_tree(mut self) -> Self {
        self.project_tree = true;
        self
    }

    /// Puts the seal store where a user's is by default, under `HOME` (`~/.local/state/loopgate`), so
    /// confinement meets `HOME` as an ancestor of the control plane, as on a user's machine.
    pub fn store_in_home(mut self) -> Self {
        self.loopgate_home = self.home.join(".local/state/loopgate");
        self
    }

    /// Prints every command with its stdin, stdout, stderr and exit status (visible with `--nocapture`), with
    /// temp paths and loop ids redacted, so a test reads as a transcript.
    pub fn echo(mut self) -> Self {
        self.echo = true;
        self
    }

    /// Runs every command as an unprivileged user, so file modes are enforced even when the tests run as root
    /// (as in CI containers): as root, commands run as `nobody` through `setpriv` and the fixture is chowned to
    /// it before each run. `None` when that is impossible here (the caller says why it skips).
    pub fn unprivileged(mut self) -> Option<Self> {
        if is_root() {
            let probe = Command::new("setpriv")
                .args(NOBODY)
                .arg(LOOPGATE)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            if !probe.is_ok_and(|s| s.success()) {
                return None;
            }
        }
        self.nobody = true;
        Some(self)
    }

    /// Adds a fixture file (parent directories created).
    pub fn file(self, relative: &str, contents: impl AsRef<[u8]>) -> Self {
        self.write(relative, contents);
        self
    }

    /// Writes (or overwrites) a file in the project.
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> &Self {
        let path = self.path(relative);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).expect("create parent dir");
        }
        fs::write(&path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The `HOME` every command runs with.
    pub fn home(&self) -> &Path {
        &self.home
    }

    pub fn loopgate_home(&self) -> &Path {
        &self.loopgate_home
    }

    /// A path inside the project.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    pub fn exists(&self, relative: &str) -> bool {
        self.path(relative).symlink_metadata().is_ok()
    }

    #[track_caller]
    pub fn read(&self, relative: &str) -> String {
        let path = self.path(relative);
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
    }

    /// Every file and directory in the project, relative, sorted (for "nothing was created" checks).
    pub fn tree(&self) -> BTreeSet<String> {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
            for entry in fs::read_dir(dir).expect("read dir").flatten() {
                let path = entry.path();
                let relative = path.strip_prefix(root).expect("inside root");
                out.insert(relative.to_string_lossy().into_owned());
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    walk(root, &path, out);
                }
            }
        }
        let mut out = BTreeSet::new();
        walk(&self.root, &self.root, &mut out);
        out
    }

    /// A `loopgate` command line to configure and run.
    pub fn loopgate<I, S>(&self, args: I) -> Cmd<'_>
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        Cmd {
            project: self,
            program: under_test(),
            args: args.into_iter().map(Into::into).collect(),
            stdin: Vec::new(),
            env: Vec::new(),
            dir: self.root.clone(),
            deadline: DEFAULT_DEADLINE,
            runner: false,
        }
    }

    /// `sh -c SCRIPT` in the project with the same environment, and `$LOOPGATE` naming the binary.
    pub fn sh(&self, script: &str) -> Cmd<'_> {
        let mut cmd = self.loopgate(["-c", script]);
        cmd.program = "sh".into();
        cmd.env("LOOPGATE", LOOPGATE)
    }

    /// `/bin/sh -c COMMAND` in the project with the same environment, as loopgate runs a verify command: a runner
    /// run bare, whose panics (a failing Rust test's) and exit status 101 are its own, not loopgate's.
    // The gaming suite's proofs run it (`tests/gaming.rs`, `prove`); the CLI suite runs no runner bare.
    #[allow(dead_code)]
    pub fn bare(&self, command: &str) -> Cmd<'_> {
        let mut cmd = self.loopgate(["-c", command]);
        cmd.program = "/bin/sh".into();
        cmd.runner = true;
        cmd
    }

    /// `loopgate setup --args-stdin --session-id SESSION` with the slash-command text on stdin; must succeed.
    #[track_caller]
    pub fn setup(&self, session: &str, text: &str) -> Output {
        let out = self
            .loopgate(["setup", "--args-stdin", "--session-id", session])
            .stdin(text)
            .run();
        out.success();
        out
    }

    /// `loopgate hook EVENT` with `input` as the hook JSON.
    pub fn hook(&self, event: &str, input: &Value) -> Output {
        self.loopgate(["hook", event]).stdin(input.to_string()).run()
    }

    /// The Stop hook input Claude Code sends, for `session` with `message` as the last assistant message:
    /// `stop_hook_active` is true when the session's last [`Project::stop`] was blocked (the turn goes on).
    pub fn stop_input(&self, session: &str, message: &str) -> Value {
        let continuing = self.continuing().contains(session);
        json!({
            "session_id": session,
            "transcript_path": self.io.join(format!("{session}.jsonl")),
            "cwd": self.root,
            "prompt_id": format!("prompt-{session}"),
            "permission_mode": "default",
            "hook_event_name": "Stop",
            "stop_hook_active": continuing,
            "last_assistant_message": message,
        })
    }

    /// Runs the Stop hook for `session` with `message` as the last assistant message, as the next stop of the
    /// same turn when the last one was blocked (Claude Code's count of blocks in a row without a tool call goes
    /// on; see [`Project::tool_call`]).
    pub fn stop(&self, session: &str, message: &str) -> Output {
        let out = self.stop_cmd(session, message).run();
        let blocked = serde_json::from_str::<Value>(out.stdout.trim()).is_ok_and(|json| json["decision"] == "block");
        let mut continuing = self.continuing();
        if blocked {
            continuing.insert(session.to_string());
        } else {
            continuing.remove(session);
        }
        out
    }

    /// The user typed a new prompt in `session`: its next Stop starts a new turn (`stop_hook_active: false`).
    pub fn new_prompt(&self, session: &str) {
        self.continuing().remove(session);
    }

    /// The PreToolUse hook for one tool call of `session` (`Read` of a file, by default a harmless one).
    pub fn tool_call(&self, session: &str, tool: &str, tool_input: Value) -> Output {
        let input = json!({
            "session_id": session,
            "transcript_path": self.io.join(format!("{session}.jsonl")),
            "cwd": self.root,
            "prompt_id": format!("prompt-{session}"),
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
        });
        self.hook("pre-tool-use", &input)
    }

    fn continuing(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.continuing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The Stop hook command, to configure further before running it.
    pub fn stop_cmd(&self, session: &str, message: &str) -> Cmd<'_> {
        self.loopgate(["hook", "stop"])
            .stdin(self.stop_input(session, message).to_string())
    }

    /// Runs the SessionStart hook for `session` with `source` (`startup`, `resume`, `clear`, `compact`).
    pub fn session_start(&self, session: &str, source: &str) -> Output {
        let input = json!({
            "session_id": session,
            "transcript_path": self.io.join(format!("{session}.jsonl")),
            "cwd": self.root,
            "hook_event_name": "SessionStart",
            "source": source,
        });
        self.hook("session-start", &input)
    }

    /// A file outside the project (e.g. a transcript), in the harness's own directory.
    pub fn outside(&self, name: &str) -> PathBuf {
        self.io.join(name)
    }

    /// The raw bytes of the history file (empty when there is none).
    pub fn history_bytes(&self) -> Vec<u8> {
        fs::read(self.path(HISTORY)).unwrap_or_default()
    }

    /// Every history record, each checked to be one valid JSON object with the fields every record has.
    #[track_caller]
    pub fn history(&self) -> Vec<Value> {
        let bytes = self.history_bytes();
        let text = String::from_utf8(bytes).expect("history is UTF-8");
        text.lines()
            .map(|line| {
                let record: Value =
                    serde_json::from_str(line).unwrap_or_else(|e| panic!("history line is not JSON ({e}): {line}"));
                assert_record_shape(&record);
                record
            })
            .collect()
    }

    /// The `status` of every history record, in order.
    #[track_caller]
    pub fn statuses(&self) -> Vec<String> {
        self.history()
            .iter()
            .map(|r| r["status"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// The last history record with this status.
    #[track_caller]
    pub fn last_record(&self, status: &str) -> Value {
        self.history()
            .into_iter()
            .rev()
            .find(|r| r["status"] == status)
            .unwrap_or_else(|| panic!("no `{status}` record in history: {:?}", self.statuses()))
    }

    /// The state file's text, if there is one.
    pub fn state_text(&self) -> Option<String> {
        fs::read_to_string(self.path(STATE)).ok()
    }

    /// The task part of the state file (everything after the closing `---` line of the frontmatter).
    #[track_caller]
    pub fn state_task(&self) -> String {
        let text = self.state_text().expect("state file exists");
        let rest = text.strip_prefix("---\n").expect("frontmatter opens");
        let close = rest.find("\n---\n").expect("frontmatter closes");
        rest[close + "\n---\n".len()..].to_string()
    }

    /// One frontmatter field of the state file as written (`key: value` → `value`).
    #[track_caller]
    pub fn state_field(&self, key: &str) -> String {
        let text = self.state_text().expect("state file exists");
        let prefix = format!("{key}:");
        text.lines()
            .find_map(|line| line.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no `{key}` in state file:\n{text}"))
            .trim()
            .to_string()
    }

    /// Rewrites the state file through `edit` (the agent's tools or the user's editor doing it).
    #[track_caller]
    pub fn edit_state(&self, edit: impl FnOnce(&str) -> String) {
        let text = self.state_text().expect("state file exists");
        self.write(STATE, edit(&text));
    }

    /// Seal files in the store (normally zero or one).
    pub fn seal_paths(&self) -> Vec<PathBuf> {
        let Ok(entries) = fs::read_dir(self.loopgate_home.join("seals")) else {
            return Vec::new();
        };
        let mut paths: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            // A seal's companions live beside it (`<seal>.tests.json`, `<seal>.baseline.json`, `<seal>.copies.json`,
            // …): a seal's own name has no other dot.
            .filter(|p| p.file_stem().is_some_and(|stem| !stem.to_string_lossy().contains('.')))
            .collect();
        paths.sort();
        paths
    }

    /// The one seal file of this project.
    #[track_caller]
    pub fn seal_path(&self) -> PathBuf {
        let paths = self.seal_paths();
        assert_eq!(paths.len(), 1, "expected exactly one seal: {paths:?}");
        paths.into_iter().next().expect("one seal")
    }

    /// The seal, parsed.
    #[track_caller]
    pub fn seal(&self) -> Value {
        let path = self.seal_path();
        let bytes = fs::read(&path).expect("read seal");
        serde_json::from_slice(&bytes).expect("seal is JSON")
    }

    /// The loop id of the running loop, from the state file.
    #[track_caller]
    pub fn loop_id(&self) -> String {
        self.state_field("loop_id")
    }

    /// The project's own temporary directory (`$TMPDIR` of every command): loopgate's store lies in the
    /// system's (`/tmp/…/loopgate-home`), and confinement closes every directory above the store to new entries —
    /// `/tmp` itself here, which a user's store in `~/.local/state` never makes one.
    pub fn tmp_dir(&self) -> PathBuf {
        let dir = self.loopgate_home.parent().unwrap_or(&self.root).join("tmp");
        let _ = fs::create_dir_all(&dir);
        dir
    }

    /// Replaces temp paths and loop ids with stable placeholders, for printing and snapshots.
    pub fn redact(&self, text: &str) -> String {
        let text = text
            .replace(&self.root.display().to_string(), "[PROJECT]")
            .replace(&self.loopgate_home.display().to_string(), "[LOOPGATE_HOME]")
            .replace(&self.io.display().to_string(), "[IO]");
        redact_abi(&redact_seconds(&redact_timestamps(&redact_loop_ids(&redact_rooms(
            &text,
        )))))
    }

    fn next_io(&self, kind: &str) -> PathBuf {
        let n = self.runs.fetch_add(1, Ordering::Relaxed);
        self.io.join(format!("run-{n}.{kind}"))
    }
}

/// Relative path of the state file.
pub const STATE: &str = ".claude/pua-loop.local.md";
/// Relative path of the history.
pub const HISTORY: &str = ".claude/pua-loop-history.jsonl";
/// Relative path of the context file a pause leaves.
pub const CONTEXT: &str = ".claude/pua-loop-context.md";

/// One `loopgate` invocation being configured.
pub struct Cmd<'a> {
    project: &'a Project,
    program: OsString,
    args: Vec<OsString>,
    stdin: Vec<u8>,
    env: Vec<(OsString, OsString)>,
    dir: PathBuf,
    deadline: Duration,
    /// Not loopgate but a runner ([`Project::bare`]): its output is not checked for panics.
    runner: bool,
}

impl Cmd<'_> {
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.stdin = bytes.into();
        self
    }

    pub fn env(mut self, key: &str, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Runs in this directory, relative to the project root.
    pub fn current_dir(mut self, relative: &str) -> Self {
        self.dir = self.project.path(relative);
        self
    }

    /// Kills the command (and fails the test) if it runs longer than this.
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// Runs the command to completion (or to its deadline) and checks it did not panic.
    #[track_caller]
    pub fn run(self) -> Output {
        let p = self.project;
        let (stdin_path, stdout_path, stderr_path) = (p.next_io("stdin"), p.next_io("stdout"), p.next_io("stderr"));
        fs::write(&stdin_path, &self.stdin).expect("write stdin file");
        let file = |path: &Path| fs::File::create(path).expect("create output file");
        let mut command = if p.nobody && is_root() {
            chown_tree(&p.base, NOBODY_ID);
            let mut command = Command::new("setpriv");
            command.args(NOBODY).arg(&self.program);
            command
        } else {
            Command::new(&self.program)
        };
        command
            .args(&self.args)
            .current_dir(&self.dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &p.home)
            .env("LOOPGATE_HOME", &p.loopgate_home)
            .env("TMPDIR", p.tmp_dir())
            .envs(p.project_tree.then_some(("LOOPGATE_ROOM_TREE", "0")))
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::from(fs::File::open(&stdin_path).expect("open stdin file")))
            .stdout(file(&stdout_path))
            .stderr(file(&stderr_path))
            // Its own process group, so the watchdog can kill it and whatever it started.
            .process_group(0);
        let shown = self.shown();
        let start = Instant::now();
        let mut child = command.spawn().expect("spawn loopgate");
        let mut pause = Duration::from_millis(1);
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for loopgate") {
                break status;
            }
            if start.elapsed() > self.deadline {
                kill_group(child.id());
                let _ = child.wait();
                panic!(
                    "`{shown}` did not finish within {:?}\nstdout:\n{}\nstderr:\n{}",
                    self.deadline,
                    String::from_utf8_lossy(&fs::read(&stdout_path).unwrap_or_default()),
                    String::from_utf8_lossy(&fs::read(&stderr_path).unwrap_or_default()),
                );
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        };
        let output = Output {
            command: shown,
            stdin: self.stdin,
            code: status.code(),
            signal: status.signal(),
            stdout: String::from_utf8_lossy(&fs::read(&stdout_path).expect("read stdout")).into_owned(),
            stderr: String::from_utf8_lossy(&fs::read(&stderr_path).expect("read stderr")).into_owned(),
            elapsed: start.elapsed(),
        };
        if p.echo {
            println!("{}", p.redact(&output.transcript()));
        }
        if !self.runner {
            output.no_panic();
        }
        output
    }

    /// The command as a user would type it, for messages.
    fn shown(&self) -> String {
        let args: Vec<String> = self.args.iter().map(|a| shell_quote(&a.to_string_lossy())).collect();
        let program = Path::new(&self.program)
            .file_name()
            .map_or_else(|| "?".into(), |n| n.to_string_lossy().into_owned());
        format!("{program} {}", args.join(" "))
    }
}

/// `setpriv` arguments that drop to `nobody`.
const NOBODY: [&str; 4] = ["--reuid=65534", "--regid=65534", "--clear-groups", "--"];
const NOBODY_ID: u32 = 65534;

fn chown_tree(path: &Path, id: u32) {
    let _ = std::os::unix::fs::lchown(path, Some(id), Some(id));
    if path.is_dir() && !path.is_symlink() {
        for entry in fs::read_dir(path).into_iter().flatten().flatten() {
            chown_tree(&entry.path(), id);
        }
    }
}

fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stderr(Stdio::null())
        .status();
}

fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// What a command did.
pub struct Output {
    pub command: String,
    pub stdin: Vec<u8>,
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// A Stop hook's `decision: block`.
/// Asserts that `text` contains `needle`, showing the whole text when it does not.
#[track_caller]
pub fn assert_has(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} is missing from:\n{text}");
}

pub struct Block {
    pub reason: String,
    pub system_message: String,
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "command: {}\nexit: {:?} signal: {:?} after {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.command, self.code, self.signal, self.elapsed, self.stdout, self.stderr
        )
    }
}

impl Output {
    #[track_caller]
    fn no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked") && self.code != Some(101),
            "loopgate panicked\n{self}"
        );
    }

    /// Asserts the exit code.
    #[track_caller]
    pub fn code(&self, code: i32) -> &Self {
        assert_eq!(self.code, Some(code), "unexpected exit status\n{self}");
        self
    }

    #[track_caller]
    pub fn success(&self) -> &Self {
        self.code(0)
    }

    #[track_caller]
    pub fn stdout_empty(&self) -> &Self {
        assert!(self.stdout.is_empty(), "expected no stdout\n{self}");
        self
    }

    #[track_caller]
    pub fn stderr_empty(&self) -> &Self {
        assert!(self.stderr.is_empty(), "expected no stderr\n{self}");
        self
    }

    /// stdout has `needle`, as printed or with `status`'s folded lines (a continuation under the value column,
    /// 15 spaces in: the human view fits 80 columns) joined back.
    #[track_caller]
    pub fn stdout_contains(&self, needle: &str) -> &Self {
        let unfolded = self.stdout.replace(&format!("\n{}", " ".repeat(15)), " ");
        assert!(
            self.stdout.contains(needle) || unfolded.contains(needle),
            "stdout lacks {needle:?}\n{self}"
        );
        self
    }

    /// Exit 0 and nothing printed at all: the hook's fast path.
    #[track_caller]
    pub fn silent(&self) -> &Self {
        self.success().stdout_empty().stderr_empty()
    }

    /// Exactly one line on stderr, prefixed `loopgate: `; returns it.
    #[track_caller]
    pub fn stderr_line(&self) -> &str {
        let line = self.stderr.strip_suffix('\n').unwrap_or(&self.stderr);
        assert!(
            !line.is_empty() && !line.contains('\n') && line.starts_with("loopgate: "),
            "expected one `loopgate: …` line on stderr\n{self}"
        );
        line
    }

    /// stdout as the one JSON object a hook prints.
    #[track_caller]
    pub fn json(&self) -> Value {
        assert_eq!(
            self.stdout.lines().count(),
            1,
            "expected one line of JSON on stdout\n{self}"
        );
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{self}"))
    }

    /// The PreToolUse hook's denial: exit 0, a `deny` decision; returns its reason.
    #[track_caller]
    pub fn deny_reason(&self) -> String {
        self.success();
        let json = self.json();
        assert_eq!(json["hookSpecificOutput"]["permissionDecision"], "deny", "{self}");
        json["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// stdout as one JSON document, however it is laid out (`status --json` pretty-prints).
    #[track_caller]
    pub fn stdout_json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{self}"))
    }

    /// A Stop hook that keeps the agent working.
    #[track_caller]
    pub fn blocked(&self) -> Block {
        self.success();
        let json = self.json();
        assert_eq!(json["decision"], "block", "expected a block\n{self}");
        let text = |key: &str| {
            json[key]
                .as_str()
                .unwrap_or_else(|| panic!("no `{key}` string in the block\n{self}"))
                .to_string()
        };
        Block {
            reason: text("reason"),
            system_message: text("systemMessage"),
        }
    }

    /// A Stop hook that lets the agent stop and tells the user why; returns the `systemMessage`.
    #[track_caller]
    pub fn allowed(&self) -> String {
        self.success();
        let json = self.json();
        assert!(
            json.get("decision").is_none_or(|d| d != "block"),
            "expected the stop to be allowed\n{self}"
        );
        assert!(
            json.get("reason").is_none(),
            "an allowed stop carries no reason\n{self}"
        );
        json["systemMessage"]
            .as_str()
            .unwrap_or_else(|| panic!("expected a systemMessage\n{self}"))
            .to_string()
    }

    /// SessionStart's `additionalContext`.
    #[track_caller]
    pub fn additional_context(&self) -> String {
        self.success();
        let json = self.json();
        assert_eq!(json["hookSpecificOutput"]["hookEventName"], "SessionStart", "{self}");
        json["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_else(|| panic!("no additionalContext\n{self}"))
            .to_string()
    }

    /// The command with its input and output, as a shell transcript.
    pub fn transcript(&self) -> String {
        let mut out = String::new();
        let stdin = String::from_utf8_lossy(&self.stdin);
        if stdin.is_empty() {
            out.push_str(&format!("$ {}\n", self.command));
        } else if stdin.contains('\n') {
            out.push_str(&format!("$ {} <<'END'\n{}\nEND\n", self.command, stdin.trim_end()));
        } else {
            out.push_str(&format!("$ echo {} | {}\n", shell_quote(&stdin), self.command));
        }
        out.push_str(&self.stdout);
        if let Ok(json) = serde_json::from_str::<Value>(&self.stdout)
            && let Some(reason) = json["reason"].as_str()
        {
            out.push_str("  ┌─ reason (what the model reads) ─\n");
            for line in reason.lines() {
                out.push_str(&format!("  │ {line}\n"));
            }
            out.push_str("  └─\n");
        }
        for line in self.stderr.lines() {
            out.push_str(&format!("[stderr] {line}\n"));
        }
        match (self.code, self.signal) {
            (Some(code), _) => out.push_str(&format!("[exit {code}]\n")),
            (None, signal) => out.push_str(&format!("[killed by signal {signal:?}]\n")),
        }
        out
    }
}

/// Every history record has `loop_id`, `iteration`, `status` and an RFC 3339 UTC `timestamp`.
#[track_caller]
pub fn assert_record_shape(record: &Value) {
    assert!(
        record["loop_id"].as_str().is_some_and(|id| !id.is_empty()),
        "record without loop_id: {record}"
    );
    assert!(record["iteration"].is_u64(), "record without iteration: {record}");
    assert!(
        record["status"].as_str().is_some_and(|s| !s.is_empty()),
        "record without status: {record}"
    );
    let timestamp = record["timestamp"].as_str().unwrap_or_default();
    assert!(is_rfc3339_utc(timestamp), "timestamp is not RFC 3339 UTC: {record}");
}

/// `2026-11-21T19:40:00Z`, optionally with fractional seconds, `Z` or `+00:00`.
pub fn is_rfc3339_utc(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| range.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    if b.len() < 20
        || !(digits(0..4)
            && b[4] == b'-'
            && digits(5..7)
            && b[7] == b'-'
            && digits(8..10)
            && b[10] == b'T'
            && digits(11..13)
            && b[13] == b':'
            && digits(14..16)
            && b[16] == b':'
            && digits(17..19))
    {
        return false;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let n = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    rest == "Z" || rest == "+00:00"
}

/// `lg-20261121T193700Z-3f9a1c` → `[LOOP_ID]`.
/// `Landlock ABI 6` → `Landlock ABI [N]`: the kernel's version, not loopgate's output.
fn redact_abi(text: &str) -> String {
    redact_after(text, "Landlock ABI ", "[N]", |c| c.is_ascii_digit())
}

/// Every run of characters `part_of` accepts right after `marker`, as `placeholder`.
fn redact_after(text: &str, marker: &str, placeholder: &str, part_of: fn(char) -> bool) -> String {
    let mut parts = text.split(marker);
    let mut out = parts.next().unwrap_or_default().to_string();
    for part in parts {
        out.push_str(marker);
        out.push_str(placeholder);
        out.push_str(part.trim_start_matches(part_of));
    }
    out
}

/// `rooms/0123456789abcdef` (the oracle's room, named by a hash of the temporary project's path) → `rooms/[ROOM]`.
fn redact_rooms(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("rooms/") {
        let (before, after) = rest.split_at(at + "rooms/".len());
        out.push_str(before);
        let hex = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex == 16 {
            out.push_str("[ROOM]");
            rest = &after[hex..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn redact_loop_ids(text: &str) -> String {
    const LEN: usize = "lg-20261121T193700Z-3f9a1c".len();
    let is_loop_id = |s: &str| {
        let b = s.as_bytes();
        b.len() >= LEN
            && s.starts_with("lg-")
            && b[3..11].iter().all(u8::is_ascii_digit)
            && b[11] == b'T'
            && b[12..18].iter().all(u8::is_ascii_digit)
            && b[18] == b'Z'
            && b[19] == b'-'
            && b[20..LEN].iter().all(u8::is_ascii_hexdigit)
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("lg-") {
        out.push_str(&rest[..at]);
        if is_loop_id(&rest[at..]) {
            out.push_str("[LOOP_ID]");
            rest = &rest[at + LEN..];
        } else {
            out.push_str("lg-");
            rest = &rest[at + 3..];
        }
    }
    out.push_str(rest);
    out
}

/// Measured durations (`after 0.0s`, `1.2s`, `0.0 秒`) → `[SECS]`: they differ from run to run.
fn redact_seconds(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let preceded_by_word = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        out.push_str(&rest[..at]);
        let number = &rest[at..];
        let int = number.bytes().take_while(u8::is_ascii_digit).count();
        let frac = number[int..]
            .strip_prefix('.')
            .map_or(0, |f| f.bytes().take_while(u8::is_ascii_digit).count());
        let end = int + if frac > 0 { 1 + frac } else { 0 };
        let unit = if number[end..].starts_with(" 秒") {
            " 秒".len()
        } else if number[end..].starts_with('s') && !number[end + 1..].starts_with(|c: char| c.is_alphanumeric()) {
            1
        } else {
            0
        };
        if !preceded_by_word && frac > 0 && unit > 0 {
            out.push_str("[SECS]");
            rest = &number[end + unit..];
        } else {
            out.push_str(&number[..int]);
            rest = &number[int..];
        }
    }
    out.push_str(rest);
    out
}

/// RFC 3339 timestamps and the `corrupt-20261121T194917Z` stamps → `[TIME]`.
fn redact_timestamps(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        if let Some(len) = timestamp_at(&text[i..]) {
            out.push_str("[TIME]");
            i += len;
        } else {
            let c = text[i..].chars().next().expect("char");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn timestamp_at(text: &str) -> Option<usize> {
    if !text.starts_with(|c: char| c.is_ascii_digit()) || text.len() < 16 {
        return None;
    }
    // Compact form: 20261121T194917Z
    let compact = text.as_bytes();
    if compact.len() >= 16
        && compact[..8].iter().all(u8::is_ascii_digit)
        && compact[8] == b'T'
        && compact[9..15].iter().all(u8::is_ascii_digit)
        && compact[15] == b'Z'
    {
        return Some(16);
    }
    let end = text
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || "-:T.Z+".contains(c)))
        .map_or(text.len(), |(i, _)| i);
    is_rfc3339_utc(&text[..end]).then_some(end)
}

pub fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
}

pub fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).expect("stat").permissions().mode() & 0o7777
}

/// A Claude Code transcript line for an assistant turn with one text block.
pub fn transcript_line(role: &str, text: &str) -> String {
    json!({
        "type": role,
        "message": {"role": role, "content": [{"type": "text", "text": text}]},
    })
    .to_string()
}
