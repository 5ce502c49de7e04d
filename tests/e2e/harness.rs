//! Runs the real Claude Code CLI against the mock API, with this repository loaded as a plugin.
//!
//! Each [`Project`] owns a temp directory holding the project, a scratch `HOME` (transcripts and Claude Code's
//! own config go there) and a `LOOPGATE_HOME` (the seal store), so scenarios run in parallel without sharing
//! anything. Each [`Session`] gets its own mock server, so its recorded requests are its own.
//!
//! Which Claude Code: the versions the suite runs against are listed once, in `tests/e2e/claude-versions.txt`
//! (the first is the default); `LOOPGATE_CLAUDE_VERSION` picks another of them. The binary is
//! `$LOOPGATE_CLAUDE_BIN` if set, else `<repo>/.tools/VERSION/node_modules/.bin/claude` (what
//! `scripts/install-claude.sh` installs), else `claude` on `PATH`; it must report a listed version (the chosen
//! one, when `LOOPGATE_CLAUDE_VERSION` is set). None found is a test failure that says how to install it: the
//! suite never skips.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{Sandbox, alive, eventually};
use crate::mock_api::{MockApi, Reply, Request};

/// The list of Claude Code versions the suite runs against (comments and blank lines aside).
const VERSION_LIST: &str = include_str!("claude-versions.txt");

/// The versions the suite runs against, the default first.
pub fn listed_versions() -> Vec<&'static str> {
    VERSION_LIST
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty())
        .collect()
}

/// The repository root: the plugin directory handed to `--plugin-dir`.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The test build of loopgate.
pub fn loopgate_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_loopgate"))
}

/// The Claude Code CLI this run of the suite drives, checked once per test binary.
#[track_caller]
pub fn claude_bin() -> PathBuf {
    found_claude().0.clone()
}

/// The version of [`claude_bin`], e.g. `2.1.330` (for the few assertions that differ between versions).
#[track_caller]
pub fn claude_version() -> &'static str {
    found_claude().1
}

#[track_caller]
fn found_claude() -> &'static (PathBuf, &'static str) {
    static FOUND: OnceLock<Result<(PathBuf, &'static str), String>> = OnceLock::new();
    match FOUND.get_or_init(find_claude) {
        Ok(found) => found,
        Err(message) => panic!("{message}"),
    }
}

fn find_claude() -> Result<(PathBuf, &'static str), String> {
    let listed = listed_versions();
    let chosen = match std::env::var("LOOPGATE_CLAUDE_VERSION").ok().filter(|v| !v.is_empty()) {
        Some(wanted) => Some(*listed.iter().find(|v| **v == wanted).ok_or_else(|| {
            format!("LOOPGATE_CLAUDE_VERSION is `{wanted}`, which is not in tests/e2e/claude-versions.txt ({listed:?})")
        })?),
        None => None,
    };
    let version = chosen.unwrap_or(listed[0]);
    let install = format!(
        "run `scripts/install-claude.sh` (installs @anthropic-ai/claude-code@{version} into .tools/{version}/) \
         or set LOOPGATE_CLAUDE_BIN to a claude binary"
    );
    let local = repo_root()
        .join(".tools")
        .join(version)
        .join("node_modules/.bin/claude");
    let candidate = if let Some(path) = std::env::var_os("LOOPGATE_CLAUDE_BIN").filter(|p| !p.is_empty()) {
        PathBuf::from(path)
    } else if local.exists() {
        local
    } else {
        which("claude").ok_or_else(|| {
            format!("the end-to-end suite needs the Claude Code CLI {version} and found none: {install}")
        })?
    };
    let output = Command::new(&candidate)
        .arg("--version")
        .env("DISABLE_AUTOUPDATER", "1")
        .output()
        .map_err(|e| format!("failed to run `{} --version`: {e}; {install}", candidate.display()))?;
    let reported = String::from_utf8_lossy(&output.stdout);
    let reported = reported.split_whitespace().next().unwrap_or_default();
    let accepted: Vec<&'static str> = chosen.map_or(listed.clone(), |v| vec![v]);
    let Some(version) = accepted.into_iter().find(|v| *v == reported) else {
        return Err(format!(
            "`{}` is Claude Code `{reported}`, the suite runs against {} (tests/e2e/claude-versions.txt): {install}",
            candidate.display(),
            chosen.map_or_else(|| listed.join(" or "), str::to_string),
        ));
    };
    Ok((candidate, version))
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A temp project with its own HOME and seal store.
pub struct Project {
    sandbox: Sandbox,
    pub dir: PathBuf,
    pub home: PathBuf,
    pub loopgate_home: PathBuf,
}

impl Project {
    /// Where the oracle's run writes what a test must read (see `Sandbox::signals`).
    pub fn signals(&self) -> PathBuf {
        self.sandbox.signals()
    }

    pub fn new() -> Self {
        let sandbox = Sandbox::new("loopgate-e2e-");
        Project {
            dir: sandbox.project.clone(),
            home: sandbox.home.clone(),
            loopgate_home: sandbox.loopgate_home.clone(),
            sandbox,
        }
    }

    /// A temp project that lies under its own `HOME` (`~/work/app`), with the store in its default place
    /// (`~/.local/state/loopgate`): the layout of most users, where the control plane and the project share `$HOME`.
    pub fn under_home() -> Self {
        let mut sandbox = Sandbox::new("loopgate-e2e-");
        sandbox.project = sandbox.home.join("work/app");
        sandbox.loopgate_home = sandbox.home.join(".local/state/loopgate");
        std::fs::create_dir_all(&sandbox.project).expect("create the project under HOME");
        Project {
            dir: sandbox.project.clone(),
            home: sandbox.home.clone(),
            loopgate_home: sandbox.loopgate_home.clone(),
            sandbox,
        }
    }

    /// Makes the project a git repository with one commit of whatever it holds now.
    pub fn git_init(&self) -> &Self {
        let git = |args: &[&str]| {
            let status = Command::new("git")
                .args(args)
                .current_dir(&self.dir)
                .env("HOME", &self.home)
                .env("GIT_AUTHOR_NAME", "e2e")
                .env("GIT_AUTHOR_EMAIL", "e2e@example.com")
                .env("GIT_COMMITTER_NAME", "e2e")
                .env("GIT_COMMITTER_EMAIL", "e2e@example.com")
                .stdout(Stdio::null())
                .status()
                .expect("run git");
            assert!(status.success(), "git {args:?} failed");
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["add", "-A"]);
        git(&["commit", "-q", "--allow-empty", "-m", "fixture"]);
        self
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Writes a file (parents created), executable if it starts with `#!`.
    pub fn write(&self, rel: &str, contents: &str) -> &Self {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create parent dir");
        }
        fs::write(&path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        if contents.starts_with("#!") {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod +x");
        }
        self
    }

    #[track_caller]
    pub fn read(&self, rel: &str) -> String {
        let path = self.path(rel);
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// The loop history, one JSON value per line; every line must parse.
    #[track_caller]
    pub fn history(&self) -> Vec<Value> {
        let path = self.path(".claude/pua-loop-history.jsonl");
        let Ok(text) = fs::read_to_string(&path) else {
            return Vec::new();
        };
        text.lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("history line is not JSON ({e}): {line}")))
            .collect()
    }

    /// The loop's state file, if there is one.
    pub fn state(&self) -> Option<String> {
        fs::read_to_string(self.path(".claude/pua-loop.local.md")).ok()
    }

    /// Whether a loop is still live: a state file that is not marked ended.
    pub fn loop_live(&self) -> bool {
        self.state()
            .is_some_and(|s| !s.lines().any(|l| l.trim() == "active: false"))
    }

    /// The `status` of each history record, in order.
    #[track_caller]
    pub fn statuses(&self) -> Vec<String> {
        self.history()
            .iter()
            .map(|r| r["status"].as_str().unwrap_or("<none>").to_string())
            .collect()
    }

    /// The environment every process of a scenario gets (Claude Code, hooks, loopgate).
    pub fn env(&self) -> Vec<(String, OsString)> {
        let bin_dir = loopgate_bin()
            .parent()
            .expect("loopgate has a parent dir")
            .to_path_buf();
        let mut path = vec![bin_dir];
        path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        vec![
            ("HOME".into(), self.home.clone().into()),
            ("PATH".into(), std::env::join_paths(path).expect("join PATH")),
            ("LOOPGATE_HOME".into(), self.loopgate_home.clone().into()),
            ("LOOPGATE_BIN".into(), loopgate_bin().into()),
            // Confinement closes the directories above the store and `~/.claude` to new entries — here the
            // system temp directory itself, which a real user's store (`~/.local/state`) never makes one.
            ("TMPDIR".into(), self.tmp_dir().into()),
            ("ANTHROPIC_API_KEY".into(), "test".into()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC".into(), "1".into()),
            ("DISABLE_AUTOUPDATER".into(), "1".into()),
            ("DISABLE_TELEMETRY".into(), "1".into()),
            ("DISABLE_ERROR_REPORTING".into(), "1".into()),
            ("NO_COLOR".into(), "1".into()),
        ]
    }

    /// The scenario's own temporary directory (`$TMPDIR` of every process it starts).
    fn tmp_dir(&self) -> PathBuf {
        let dir = self.sandbox.base.join("tmp");
        let _ = fs::create_dir_all(&dir);
        dir
    }

    /// A command with the scenario's environment and nothing inherited from an enclosing Claude Code session.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = self.sandbox.command(program);
        cmd.envs(self.env());
        cmd
    }

    /// Runs `loopgate ARGS` in the project, as a user at a terminal would.
    pub fn loopgate(&self, args: &[&str]) -> Output {
        let started = Instant::now();
        let child = self
            .command(loopgate_bin())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn loopgate");
        wait(child, Duration::from_secs(60), started)
    }

    /// A Claude Code session (`claude -p PROMPT`) in this project.
    pub fn session(&self, prompt: impl Into<String>) -> Session<'_> {
        Session {
            project: self,
            prompt: prompt.into(),
            replies: Vec::new(),
            reviews: Vec::new(),
            max_turns: None,
            timeout: Duration::from_secs(120),
            extra_args: vec!["--allowedTools".into(), "Bash".into()],
            cwd: None,
            plugin_dir: Some(repo_root()),
            env: Vec::new(),
        }
    }
}

impl Project {
    /// Processes still running that this scenario started (directly or not): every process of a scenario
    /// inherits its unique `LOOPGATE_HOME`, so they are found in `/proc/*/environ` with no pid bookkeeping.
    /// (No portable call lists another process's environment; elsewhere than Linux this finds nothing.)
    pub fn leftover_processes(&self) -> Vec<(u32, String)> {
        let marker = format!("LOOPGATE_HOME={}", self.loopgate_home.display());
        let Ok(entries) = fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| pid != std::process::id() && alive(pid))
            .filter(|pid| {
                fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == marker.as_bytes()))
            })
            .map(|pid| {
                let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                (
                    pid,
                    String::from_utf8_lossy(&cmdline).replace('\0', " ").trim().to_string(),
                )
            })
            .collect()
    }

    fn kill_leftovers(&self) {
        for (pid, _) in self.leftover_processes() {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
        }
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        self.kill_leftovers();
    }
}

/// What a finished process left.
#[derive(Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    pub timed_out: bool,
}

/// Waits for a child started now, killing it (and its process group) after `timeout`.
pub fn wait_output(child: std::process::Child, timeout: Duration) -> Output {
    wait(child, timeout, Instant::now())
}

fn wait(mut child: std::process::Child, timeout: Duration, started: Instant) -> Output {
    let (stdout, stderr) = crate::common::drain_output(&mut child);
    let deadline = started + timeout;
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for child") {
            break status;
        }
        if Instant::now() >= deadline {
            timed_out = true;
            // The child leads its own process group: take the hooks and tools it started down with it.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            break child.wait().expect("reap child");
        }
        thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed: started.elapsed(),
        timed_out,
    }
}

/// A `claude -p` run being set up.
pub struct Session<'a> {
    project: &'a Project,
    prompt: String,
    replies: Vec<Reply>,
    /// Answers of loopgate's reviewer (`--review`), told from the agent's requests by the system prompt.
    reviews: Vec<Reply>,
    max_turns: Option<u32>,
    timeout: Duration,
    extra_args: Vec<String>,
    cwd: Option<PathBuf>,
    plugin_dir: Option<PathBuf>,
    env: Vec<(String, OsString)>,
}

impl Session<'_> {
    /// Sets an environment variable for Claude Code and everything it starts.
    pub fn env(mut self, key: &str, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Uses this session id (a UUID) instead of a random one.
    pub fn session_id(self, id: &str) -> Self {
        self.arg("--session-id").arg(id)
    }

    /// Loads the plugin from this directory instead of the repository.
    pub fn plugin_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.plugin_dir = Some(dir.into());
        self
    }

    /// Loads no plugin with `--plugin-dir`: only what is installed in the scenario's HOME (`loopgate install`).
    pub fn installed_plugins_only(mut self) -> Self {
        self.plugin_dir = None;
        self
    }

    /// Starts Claude Code in this subdirectory of the project instead of its root.
    pub fn cwd(mut self, rel: &str) -> Self {
        self.cwd = Some(self.project.path(rel));
        self
    }

    /// Appends scripted model turns.
    pub fn replies(mut self, replies: impl IntoIterator<Item = Reply>) -> Self {
        self.replies.extend(replies);
        self
    }

    /// Appends the reviewer's scripted answers.
    pub fn reviews(mut self, replies: impl IntoIterator<Item = Reply>) -> Self {
        self.reviews.extend(replies);
        self
    }

    pub fn max_turns(mut self, n: u32) -> Self {
        self.max_turns = Some(n);
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Drops the default `--allowedTools Bash` (to see what the plugin's own `allowed-tools` permit).
    pub fn without_allowed_tools(mut self) -> Self {
        self.extra_args.retain(|a| a != "--allowedTools" && a != "Bash");
        self
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.extra_args.push(arg.into());
        self
    }

    /// Runs the session to its end (or the timeout, which fails the test).
    #[track_caller]
    pub fn run(self) -> Run {
        let api = MockApi::start();
        api.push(self.replies);
        api.push_review(self.reviews);
        let mut cmd = self.project.command(claude_bin());
        cmd.arg("-p")
            .arg(&self.prompt)
            .args(["--output-format", "stream-json", "--verbose", "--include-hook-events"])
            .args(
                self.plugin_dir
                    .iter()
                    .flat_map(|dir| [OsString::from("--plugin-dir"), dir.into()]),
            )
            .args(&self.extra_args)
            .env("ANTHROPIC_BASE_URL", api.base_url())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        if let Some(n) = self.max_turns {
            cmd.args(["--max-turns", &n.to_string()]);
        }
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let started = Instant::now();
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", claude_bin().display()));
        let output = wait(child, self.timeout, started);
        let requests = api.requests();
        let run = Run { output, requests, api };
        if run.output.timed_out {
            let leftovers = self.project.leftover_processes();
            self.project.kill_leftovers();
            panic!(
                "claude did not finish within {:?}; still running: {leftovers:?}\n{}",
                self.timeout,
                run.describe()
            );
        }
        // Claude Code waits for its hooks, so nothing a scenario started may outlive the session.
        let mut leftovers = Vec::new();
        let clean = eventually(Duration::from_secs(3), || {
            leftovers = self.project.leftover_processes();
            leftovers.is_empty()
        });
        if !clean {
            self.project.kill_leftovers();
            panic!("processes outlived the session: {leftovers:?}\n{}", run.describe());
        }
        if std::env::var_os("LOOPGATE_E2E_TRACE").is_some() {
            eprintln!("{}", run.transcript(&self.prompt));
        }
        run
    }
}

/// A finished `claude -p` run.
pub struct Run {
    pub output: Output,
    /// Every request this run sent to the mock API.
    pub requests: Vec<Request>,
    pub api: MockApi,
}

impl Run {
    /// The `--output-format stream-json` events, one JSON value per line (non-JSON lines are skipped).
    pub fn events(&self) -> Vec<Value> {
        self.output
            .stdout
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()
    }

    /// The final `result` event (`subtype` is `success`, `error_max_turns`, …).
    #[track_caller]
    pub fn result(&self) -> Value {
        self.events()
            .into_iter()
            .rev()
            .find(|e| e["type"] == "result")
            .unwrap_or_else(|| {
                panic!("claude printed no result event\n{}", self.describe());
            })
    }

    /// What each run of a hook printed, parsed as JSON (`Value::Null` when it printed nothing), in order.
    /// `hook` is an event ("Stop", "PreToolUse", "SessionStart") or an event with its matcher as Claude Code
    /// names it ("SessionStart:compact", "PreToolUse:Bash").
    pub fn hook_outputs(&self, hook: &str) -> Vec<Value> {
        self.events()
            .into_iter()
            .filter(|e| e["subtype"] == "hook_response" && (e["hook_event"] == hook || e["hook_name"] == hook))
            .map(|e| {
                let stdout = e["stdout"].as_str().unwrap_or_default().trim().to_string();
                if stdout.is_empty() {
                    Value::Null
                } else {
                    serde_json::from_str(&stdout).unwrap_or(Value::String(stdout))
                }
            })
            .collect()
    }

    /// Every `systemMessage` the hooks showed the user, in order.
    pub fn system_messages(&self) -> Vec<String> {
        ["SessionStart", "PreToolUse", "Stop"]
            .iter()
            .flat_map(|event| self.hook_outputs(event))
            .filter_map(|out| out["systemMessage"].as_str().map(str::to_string))
            .collect()
    }

    /// What a failed pre-executed block of a slash command showed the user (`<local-command-stderr>`): a user
    /// event's content in 2.1.197, a synthetic assistant event's `local_command_source` in 2.1.330.
    pub fn local_command_errors(&self) -> String {
        let mut out = String::new();
        for event in self.events() {
            let text = match event["type"].as_str() {
                Some("user") => event["message"]["content"].as_str(),
                Some("assistant") => event["local_command_source"].as_str(),
                _ => None,
            };
            if let Some(text) = text.filter(|t| t.contains("<local-command-stderr>")) {
                out.push_str(text);
                out.push('\n');
            }
        }
        out
    }

    /// The agent's tool results as (is_error, text), in order.
    pub fn tool_results(&self) -> Vec<(bool, String)> {
        let mut out = Vec::new();
        for event in self.events().iter().filter(|e| e["type"] == "user") {
            for block in event["message"]["content"].as_array().into_iter().flatten() {
                if block["type"] == "tool_result" {
                    let mut text = String::new();
                    crate::mock_api::collect_text(&block["content"], &mut text);
                    out.push((block["is_error"] == true, text));
                }
            }
        }
        out
    }

    /// The requests the scripted agent answered, in order.
    pub fn agent_requests(&self) -> Vec<&Request> {
        self.requests.iter().filter(|r| r.scripted).collect()
    }

    /// The text of the first agent request: what the model received as the prompt.
    #[track_caller]
    pub fn prompt_text(&self) -> String {
        self.agent_requests()
            .first()
            .map(|r| r.message_text())
            .unwrap_or_else(|| {
                panic!("no agent request reached the mock API\n{}", self.describe());
            })
    }

    /// Every "Stop hook feedback" the model received, in order (the hook's `reason`s), without duplicates
    /// from the conversation being re-sent.
    pub fn stop_feedback(&self) -> Vec<String> {
        let Some(last) = self.agent_requests().into_iter().next_back() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for message in last.body["messages"].as_array().into_iter().flatten() {
            if message["role"] != "user" {
                continue;
            }
            let mut text = String::new();
            crate::mock_api::collect_text(&message["content"], &mut text);
            if let Some(at) = text.find(STOP_FEEDBACK) {
                out.push(text[at + STOP_FEEDBACK.len()..].trim().to_string());
            }
        }
        out
    }

    /// The session as a readable transcript: the prompt, the agent's turns and tool calls, what the hooks
    /// said to the model (block reasons) and to the user (`systemMessage`). Printed for every session when
    /// `LOOPGATE_E2E_TRACE` is set.
    pub fn transcript(&self, prompt: &str) -> String {
        let mut out = format!("> {prompt}\n");
        for event in self.events() {
            match (event["type"].as_str(), event["subtype"].as_str()) {
                (Some("assistant"), _) => {
                    for block in event["message"]["content"].as_array().into_iter().flatten() {
                        match block["type"].as_str() {
                            Some("text") => out.push_str(&format!("agent: {}\n", block["text"].as_str().unwrap_or(""))),
                            Some("tool_use") => {
                                out.push_str(&format!("agent: {}({})\n", block["name"], block["input"]))
                            }
                            _ => {}
                        }
                    }
                }
                (Some("user"), _) => {
                    if let Some(text) = event["message"]["content"].as_str() {
                        out.push_str(&format!("[slash command] {text}\n"));
                    }
                    for block in event["message"]["content"].as_array().into_iter().flatten() {
                        if block["type"] == "tool_result" {
                            let mut text = String::new();
                            crate::mock_api::collect_text(&block["content"], &mut text);
                            let error = if block["is_error"] == true { " (error)" } else { "" };
                            out.push_str(&format!("  tool result{error}: {}\n", text.trim()));
                        }
                    }
                }
                (Some("system"), Some("hook_response")) => {
                    let stdout = event["stdout"].as_str().unwrap_or_default().trim();
                    if stdout.is_empty() {
                        continue;
                    }
                    let name = event["hook_name"].as_str().unwrap_or("hook");
                    let parsed: Value = serde_json::from_str(stdout).unwrap_or(Value::String(stdout.into()));
                    if let Some(reason) = parsed["reason"].as_str() {
                        out.push_str(&format!(
                            "[{name} -> model, decision {}]\n{reason}\n",
                            parsed["decision"]
                        ));
                    }
                    if let Some(context) = parsed["hookSpecificOutput"]["additionalContext"].as_str() {
                        out.push_str(&format!("[{name} -> model context]\n{context}\n"));
                    }
                    if let Some(reason) = parsed["hookSpecificOutput"]["permissionDecisionReason"].as_str() {
                        out.push_str(&format!("[{name} -> model, deny] {reason}\n"));
                    }
                    if let Some(message) = parsed["systemMessage"].as_str() {
                        out.push_str(&format!("[{name} -> user] {message}\n"));
                    }
                }
                (Some("result"), subtype) => out.push_str(&format!("(session ended: {})\n", subtype.unwrap_or("?"))),
                _ => {}
            }
        }
        out
    }

    /// A summary for assertion messages.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "exit: {:?} ({:?}{})\n--- stdout ---\n{}\n--- stderr ---\n{}\n",
            self.output.status.code(),
            self.output.elapsed,
            if self.output.timed_out { ", TIMED OUT" } else { "" },
            self.output.stdout.trim(),
            self.output.stderr.trim()
        );
        s.push_str(&format!(
            "--- {} requests ({} scripted, script left {}, exhausted {}) ---\n",
            self.requests.len(),
            self.agent_requests().len(),
            self.api.remaining(),
            self.api.exhausted()
        ));
        let other: Vec<String> = self
            .requests
            .iter()
            .filter(|r| !r.scripted)
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        s.push_str(&format!("--- unscripted requests: {other:?} ---\n"));
        if let Some(last) = self.agent_requests().last() {
            let text = last.message_text();
            let tail: String = text
                .chars()
                .rev()
                .take(4000)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            s.push_str(&format!("--- last agent request, text tail ---\n{tail}\n"));
        }
        s
    }
}

/// How Claude Code (2.1.197 and 2.1.330 alike) hands a Stop hook's block `reason` to the model.
pub const STOP_FEEDBACK: &str = "Stop hook feedback:";

/// Anything path-like as a `&str` for argument lists.
pub fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}
