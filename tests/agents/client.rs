//! Drives an agent CLI other than Claude Code (`codex exec`) in a harness [`Project`], against a scripted mock
//! model API, with loopgate's hooks installed the way a user installs them (`loopgate install --agent`).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use crate::harness::{Output, Project, repo_root, wait_output};
use crate::mock_api::{MockApi, Reply, Request, Wire};

/// An agent CLI the suite drives.
#[derive(Clone, Copy, Debug)]
pub enum Agent {
    Codex,
    Gemini,
    /// GitHub Copilot CLI, offline against the mock (its BYOK provider variables): no GitHub account.
    Copilot,
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
        }
    }

    pub fn wire(self) -> Wire {
        match self {
            Agent::Codex | Agent::Copilot => Wire::Responses,
            Agent::Gemini => Wire::Gemini,
        }
    }

    /// The versions the suite runs, as listed (`tests/e2e/<agent>-versions.txt`): the first is the pinned one,
    /// the last the newest checked.
    pub fn versions(self) -> Vec<String> {
        let list = std::fs::read_to_string(repo_root().join(format!("tests/e2e/{}-versions.txt", self.name())))
            .expect("the version list");
        list.lines()
            .map(|l| l.split('#').next().unwrap_or_default().trim())
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// The CLI binary: `$LOOPGATE_<AGENT>_BIN`, else what `scripts/install-agents.sh` installed for the first
    /// listed version (or `$LOOPGATE_<AGENT>_VERSION`).
    #[track_caller]
    pub fn bin(self) -> PathBuf {
        let upper = self.name().to_uppercase();
        if let Some(bin) = std::env::var_os(format!("LOOPGATE_{upper}_BIN")) {
            return PathBuf::from(bin);
        }
        let first = self.versions().into_iter().next().expect("a listed version");
        self.bin_of(&std::env::var(format!("LOOPGATE_{upper}_VERSION")).unwrap_or(first))
    }

    /// The CLI binary of one listed `version`, as `scripts/install-agents.sh` installed it.
    #[track_caller]
    pub fn bin_of(self, version: &str) -> PathBuf {
        let tools = std::env::var_os("LOOPGATE_TOOLS").map_or_else(|| repo_root().join(".tools"), PathBuf::from);
        let bin = tools.join(format!("{}-{version}/node_modules/.bin/{}", self.name(), self.name()));
        assert!(
            bin.is_file(),
            "{} {version} is not installed at {}: run scripts/install-agents.sh (or set LOOPGATE_{}_BIN)",
            self.name(),
            bin.display(),
            self.name().to_uppercase()
        );
        bin
    }

    /// What the agent needs in its environment to talk to `api` and to nothing else: the model API's key and
    /// address, and the mock as every proxy (it refuses and records a request for anywhere but itself).
    pub fn env(self, api: &MockApi) -> Vec<(String, OsString)> {
        let mut env: Vec<(String, OsString)> = match self {
            Agent::Codex => vec![("MOCK_API_KEY".into(), "test".into())],
            Agent::Gemini => vec![
                ("GEMINI_API_KEY".into(), "test".into()),
                ("GOOGLE_GEMINI_BASE_URL".into(), api.base_url().into()),
            ],
            // Offline: no GitHub sign-in, telemetry or update check; the model is the mock's, on the Responses
            // API; `COPILOT_ALLOW_ALL=true` trusts the folder, which loads hooks (checked with 1.0.102).
            Agent::Copilot => vec![
                ("COPILOT_OFFLINE".into(), "true".into()),
                (
                    "COPILOT_PROVIDER_BASE_URL".into(),
                    format!("{}/v1", api.base_url()).into(),
                ),
                ("COPILOT_PROVIDER_WIRE_API".into(), "responses".into()),
                ("COPILOT_PROVIDER_API_KEY".into(), "test".into()),
                ("COPILOT_MODEL".into(), "mock-model".into()),
                ("COPILOT_AUTO_UPDATE".into(), "false".into()),
                ("COPILOT_ALLOW_ALL".into(), "true".into()),
            ],
        };
        for var in ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "ALL_PROXY"] {
            env.push((var.into(), api.base_url().into()));
        }
        for var in ["NO_PROXY", "no_proxy"] {
            env.push((var.into(), "127.0.0.1,localhost".into()));
        }
        env
    }
}

/// The agent's configuration directory in the scenario's HOME.
pub fn config_dir(project: &Project, agent: Agent) -> PathBuf {
    project.home.join(format!(".{}", agent.name()))
}

/// Points the agent at `api` and turns off its background traffic (Codex 0.169.0 otherwise reaches github.com,
/// api.github.com and chatgpt.com at start: its plugin marketplaces and apps), then installs loopgate's hooks for it as a
/// user would (`loopgate install --agent`). Written once per scenario, before the first session.
pub fn prepare(project: &Project, agent: Agent, api: &MockApi) {
    let dir = config_dir(project, agent);
    std::fs::create_dir_all(&dir).expect("create the agent's config dir");
    match agent {
        Agent::Codex => {
            let config = format!(
                "model = \"mock-model\"\nmodel_provider = \"mock\"\ncheck_for_update_on_startup = false\n\
                 [model_providers.mock]\nname = \"mock\"\nbase_url = \"{}/v1\"\nenv_key = \"MOCK_API_KEY\"\n\
                 wire_api = \"responses\"\n[analytics]\nenabled = false\n[feedback]\nenabled = false\n\
                 [features]\nplugins = false\nremote_plugin = false\napps = false\n",
                api.base_url()
            );
            std::fs::write(dir.join("config.toml"), config).expect("write config.toml");
        }
        // Without `gemini-api-key` headless Gemini CLI picks another auth type and exits 41; with usage
        // statistics on it reaches play.googleapis.com.
        Agent::Gemini => {
            let settings = serde_json::json!({
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": false},
                "telemetry": {"enabled": false},
                "model": {"name": "gemini-mock"},
            });
            std::fs::write(dir.join("settings.json"), settings.to_string()).expect("write settings.json");
        }
        Agent::Copilot => {}
    }
    let out = project.loopgate(&["install", "--agent", agent.name()]);
    assert!(
        out.status.success(),
        "loopgate install --agent {}: {out:?}",
        agent.name()
    );
}

/// One run of the agent CLI, non-interactive, with one prompt.
pub struct Session<'a> {
    project: &'a Project,
    agent: Agent,
    api: MockApi,
    prompt: String,
    /// Gemini: run with `--skip-trust` (the default), as if the user trusted the folder.
    skip_trust: bool,
}

impl<'a> Session<'a> {
    pub fn new(project: &'a Project, agent: Agent, api: &MockApi, prompt: impl Into<String>) -> Self {
        Session {
            project,
            agent,
            api: api.clone(),
            prompt: prompt.into(),
            skip_trust: true,
        }
    }

    /// Gemini: run without `--skip-trust`, so the folder's trust is Gemini's own record of it.
    pub fn without_skip_trust(mut self) -> Self {
        self.skip_trust = false;
        self
    }

    pub fn replies(self, replies: impl IntoIterator<Item = Reply>) -> Self {
        self.api.push(replies);
        self
    }

    /// Answers of loopgate's reviewer (`--review`), told from the agent's requests by its questions.
    pub fn reviews(self, replies: impl IntoIterator<Item = Reply>) -> Self {
        self.api.push_review(replies);
        self
    }

    /// Runs the session to its end (a timeout fails the test).
    #[track_caller]
    pub fn run(self) -> Run {
        let before = self.api.requests().len();
        let mut cmd = self.project.command(self.agent.bin());
        // The CLI's own directory on `PATH`, as a user's shell has it (a `--review` of the agent's CLI finds it).
        let inherited = self
            .project
            .env()
            .into_iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v)
            .unwrap_or_default();
        let dirs = self.agent.bin().parent().map(std::path::Path::to_path_buf).into_iter();
        cmd.env(
            "PATH",
            std::env::join_paths(dirs.chain(std::env::split_paths(&inherited))).expect("PATH"),
        );
        match self.agent {
            Agent::Codex => {
                cmd.args([
                    "exec",
                    "--json",
                    "--skip-git-repo-check",
                    "--dangerously-bypass-approvals-and-sandbox",
                ])
                .arg("-C")
                .arg(&self.project.dir)
                .arg(&self.prompt);
            }
            Agent::Gemini => {
                cmd.args(["-o", "json", "--yolo"]);
                if self.skip_trust {
                    cmd.arg("--skip-trust");
                }
                cmd.arg("-p").arg(&self.prompt);
            }
            Agent::Copilot => {
                cmd.args(["--allow-all", "--output-format", "json", "-p"])
                    .arg(&self.prompt);
            }
        }
        cmd.envs(self.agent.env(&self.api));
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", self.agent.bin().display()));
        let output = wait_output(child, Duration::from_secs(180));
        let requests = self.api.requests()[before..].to_vec();
        let run = Run {
            output,
            requests,
            escaped: self.api.escaped(),
        };
        assert!(!run.output.timed_out, "the agent did not finish\n{}", run.describe());
        assert!(
            run.escaped.is_empty(),
            "the agent sent requests beyond 127.0.0.1: {:?}\n{}",
            run.escaped,
            run.describe()
        );
        run
    }
}

/// A finished run.
pub struct Run {
    pub output: Output,
    /// The requests of this run, in order.
    pub requests: Vec<Request>,
    pub escaped: Vec<String>,
}

impl Run {
    /// The requests the scripted agent answered.
    pub fn agent_requests(&self) -> Vec<&Request> {
        self.requests.iter().filter(|r| r.scripted).collect()
    }

    /// The text of the last agent request: the whole conversation the model was shown.
    pub fn last_text(&self) -> String {
        self.agent_requests()
            .last()
            .map(|r| r.message_text())
            .unwrap_or_default()
    }

    pub fn describe(&self) -> String {
        format!(
            "exit: {:?} ({:?})\n--- stdout ---\n{}\n--- stderr (tail) ---\n{}\n--- {} requests, {} scripted ---\n--- last request text (tail) ---\n{}",
            self.output.status.code(),
            self.output.elapsed,
            self.output.stdout.trim(),
            tail(&self.output.stderr, 3000),
            self.requests.len(),
            self.agent_requests().len(),
            tail(&self.last_text(), 3000)
        )
    }
}

fn tail(text: &str, chars: usize) -> String {
    let skip = text.chars().count().saturating_sub(chars);
    text.chars().skip(skip).collect()
}
