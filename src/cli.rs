//! Command-line surface (stage one of two): clap derive structs whose doc comments are the help text.
//! Commands validate these into typed configs (e.g. `setup::Config`) before doing anything.

use clap::{Args, Parser, Subcommand};

use crate::schema::Speech;
use crate::state::VerifyOn;

pub(crate) mod run;
pub(crate) use run::{Rank, RunArgs, Until};

/// Keep a coding agent working until an independent, sealed oracle says the task is done.
#[derive(Debug, Parser)]
#[command(name = "loopgate", version, about, propagate_version = true)]
pub struct Cli {
    /// The project root, as the slash commands pass it (`${CLAUDE_PROJECT_DIR}`); empty is ignored
    /// [default: $CLAUDE_PROJECT_DIR, else the nearest directory up from here with loopgate files].
    #[arg(long, global = true, value_name = "DIR")]
    pub project_dir: Option<std::ffi::OsString>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

impl Cli {
    /// Parses the process's command line. A hook's own command line, `loopgate hook EVENT` and nothing more (as
    /// `hooks/loopgate.sh` runs it, at every stop and before every tool call), is read without building clap's
    /// whole command tree, which took a sixth of a stop's CPU; every other command line goes to clap.
    pub fn from_env() -> Self {
        Self::hook_line(std::env::args_os().skip(1)).unwrap_or_else(<Self as Parser>::parse)
    }

    /// `hook EVENT` or `hook --agent AGENT EVENT`, EVENT and AGENT spelled as clap spells [`HookEvent`]'s and
    /// [`Agent`]'s names (a test holds them together).
    fn hook_line(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<Self> {
        let args: Vec<_> = args.into_iter().take(5).collect();
        let (hook, agent, event) = match args.as_slice() {
            [hook, event] => (hook, Agent::Claude, event),
            [hook, flag, agent, event] if flag == "--agent" => (hook, Agent::from_name(agent.to_str()?)?, event),
            _ => return None,
        };
        let event = match (hook.to_str()?, event.to_str()?) {
            ("hook", "stop") => HookEvent::Stop,
            ("hook", "pre-tool-use") => HookEvent::PreToolUse,
            ("hook", "session-start") => HookEvent::SessionStart,
            ("hook", "stop-failure") => HookEvent::StopFailure,
            ("hook", "user-prompt-submit") => HookEvent::UserPromptSubmit,
            _ => return None,
        };
        Some(Self {
            project_dir: None,
            command: Command::Hook { agent, event },
        })
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Start a loop in this project (called by the /loopgate:pua-loop slash command).
    Setup(Box<SetupArgs>),
    /// Run an agent CLI in a loop, a fresh process each iteration, until the sealed verify command passes.
    Run(Box<RunArgs>),
    /// Judge the checked-out head against a base commit, as a CI check: the base's tests by name, its test side
    /// and its `.loopgate.toml`, in the oracle's room (exit 0 pass, 1 fail, 2 bad input).
    Check(Box<CheckArgs>),
    /// Agent hook entry points (read hook JSON on stdin, print hook JSON).
    Hook {
        /// The agent CLI whose hook this is (its input and output format).
        #[arg(long, value_enum, default_value_t = Agent::Claude)]
        agent: Agent,
        #[command(subcommand)]
        event: HookEvent,
    },
    /// Show the loop of this project: task, iteration, rejections, last verify result.
    Status {
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Show the history of loops in this project.
    History {
        /// Print the raw JSON records, one per line.
        #[arg(long)]
        json: bool,
        /// Only this loop (default: every loop).
        #[arg(long = "loop", value_name = "LOOP_ID")]
        loop_id: Option<String>,
    },
    /// Run the sealed verify command exactly as the oracle would; never completes the loop.
    Verify {
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// List the working-tree checkpoints of a loop: iteration, time, verify result, what changed.
    Checkpoints {
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
        /// This loop's checkpoints (default: the running loop, else the latest with checkpoints).
        #[arg(long = "loop", value_name = "LOOP_ID")]
        loop_id: Option<String>,
    },
    /// Show what changed from checkpoint FROM to checkpoint TO (default: to the working tree now).
    Diff {
        /// A checkpoint: an iteration number (`3`, `0` = the start) or a save (`save-1`).
        from: String,
        /// Another checkpoint (default: the working tree as it is now).
        to: Option<String>,
        /// Only the files and line counts, not the patch.
        #[arg(long)]
        stat: bool,
        /// Print JSON for scripts (files, counts and the patch).
        #[arg(long)]
        json: bool,
        /// The loop the checkpoints belong to (default: as for `checkpoints`).
        #[arg(long = "loop", value_name = "LOOP_ID")]
        loop_id: Option<String>,
    },
    /// Restore the working tree to a checkpoint; the current tree is saved first as `save-N`.
    Rollback {
        /// The checkpoint: an iteration number (`3`, `0` = the start) or a save (`save-1`).
        to: String,
        /// The loop the checkpoint belongs to (default: as for `checkpoints`).
        #[arg(long = "loop", value_name = "LOOP_ID")]
        loop_id: Option<String>,
    },
    /// End the loop now and record `cancelled`.
    Cancel,
    /// Draw a loop's page (or a tournament's): the task, verify command, budget and outcome, each iteration's
    /// verdict and what the oracle said, and charts of tests passing, score, cost and time; one self-contained
    /// offline HTML file; prints its path.
    Report {
        /// Write the HTML page (the one format so far).
        #[arg(long)]
        html: bool,
        /// This loop (default: the running loop, else the latest of the history).
        #[arg(long = "loop", value_name = "LOOP_ID", conflicts_with = "tournament")]
        loop_id: Option<String>,
        /// A tournament instead (default with no id: the latest of this repository).
        #[arg(long, value_name = "ID", num_args = 0..=1, default_missing_value = "")]
        tournament: Option<String>,
    },
    /// Tournaments of this repository (`loopgate run --candidates N`): list, show, clean up, accept.
    #[command(subcommand)]
    Tournament(TournamentCommand),
    /// Take the winner of the last tournament (`loopgate run --candidates N`) into your branch (you only: the
    /// agent cannot). The same as `loopgate tournament accept`.
    Accept {
        /// The tournament (default: the latest of this repository).
        #[arg(value_name = "TOURNAMENT")]
        id: Option<String>,
    },
    /// Run a command confined so that it cannot write the control plane (loopgate's store, its binary, Claude
    /// Code's user settings and plugins); the exit code is the command's. The agent's Bash commands run this way.
    Confine(ConfineArgs),
    /// Accept changes to the oracle's sealed inputs as the new baseline (you only: the agent cannot).
    Allow {
        /// Files to accept as they are now. Without any, list what changed since the loop started.
        #[arg(value_name = "PATH")]
        paths: Vec<std::path::PathBuf>,
        /// Accept the test counts of the last verify as the count ratchet's new baseline.
        #[arg(long)]
        counts: bool,
        /// Accept every sealed input as it is now (the test counts included).
        #[arg(long)]
        all: bool,
        /// Accept that these baseline tests no longer run (as named in the rejection or `loopgate status`).
        #[arg(long, value_name = "NAME", num_args = 1..)]
        tests: Vec<String>,
    },
    /// Make `/pua-loop`, `/cancel-loop` and `/loop-status` work in Claude Code: install the plugin (hooks,
    /// namespaced commands, skill) unless one is installed, and write the bare user-level commands.
    Install(InstallArgs),
    /// Remove exactly what `loopgate install` wrote (never a command file of your own).
    Uninstall(InstallArgs),
    /// Print a shell completion script, e.g. `loopgate completions bash > ~/.local/share/bash-completion/completions/loopgate`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Adopt a paused or orphaned loop into the current Claude Code session.
    Resume {
        /// Session to bind the loop to (default: `$CLAUDE_CODE_SESSION_ID`).
        #[arg(long)]
        session_id: Option<String>,
        /// Take the loop even when another session is running it (not paused).
        #[arg(long)]
        force: bool,
    },
    /// Internal: the warden of a Stop hook or `loopgate verify` (`process::tether`), started by loopgate itself.
    /// It reads the tethered process's notes on stdin and, if that process dies without saying it is done,
    /// stops its verify and puts the set-aside test files back in the project at ROOT.
    #[command(name = WARDEN, hide = true)]
    Warden {
        /// The project whose loop the tethered process was judging.
        root: std::path::PathBuf,
    },
}

/// `loopgate tournament …`.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum TournamentCommand {
    /// List this repository's tournaments, latest last: id, candidates, winner, state.
    List,
    /// Show one tournament: each candidate, how its loop ended, its diff, cost and time, and its branch; and its
    /// report page.
    Show {
        /// The tournament (default: the latest of this repository).
        #[arg(value_name = "TOURNAMENT")]
        id: Option<String>,
    },
    /// Remove a finished or interrupted tournament's clones, branches (`loopgate/<id>/*`), seals and rooms;
    /// its record stays for `list` and `report`.
    Clean {
        /// The tournament (default: the latest of this repository).
        #[arg(value_name = "TOURNAMENT")]
        id: Option<String>,
    },
    /// Take the winner into your branch (you only: the agent cannot).
    Accept {
        /// The tournament (default: the latest of this repository).
        #[arg(value_name = "TOURNAMENT")]
        id: Option<String>,
    },
}

/// The hidden subcommand that runs a warden (`process::tether`).
pub(crate) const WARDEN: &str = "warden";

/// Flags of `loopgate install` and `loopgate uninstall`.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct InstallArgs {
    /// The agent CLI to install loopgate's hooks and commands for (`codex`: `~/.codex/hooks.json`, its trust in
    /// `config.toml`, the skills `$pua-loop`, `$cancel-loop`, `$resume-loop`, `$loop-status`; `gemini`:
    /// `~/.gemini/settings.json` and `/pua-loop`, `/cancel-loop`, `/resume-loop`, `/loop-status`; `copilot`:
    /// `~/.copilot/hooks/loopgate.json` and the same four as skills).
    #[arg(long, value_enum, default_value_t = Agent::Claude)]
    pub(crate) agent: Agent,
    /// The Claude Code CLI that registers the plugin [default: `claude` on PATH].
    #[arg(long, value_name = "PATH")]
    pub(crate) claude: Option<std::path::PathBuf>,
    /// (install) Also turn on Claude Code's OS sandbox in your user settings, so the agent's commands cannot
    /// write loopgate's seal store (bubblewrap on Linux, Seatbelt on macOS).
    #[arg(long)]
    pub(crate) sandbox: bool,
    /// (uninstall) Also remove loopgate's own state: its store of loops (seals, held-out tests, requests; shared by
    /// every agent CLI, so a loop still running anywhere loses its oracle — cancel it first).
    #[arg(long)]
    pub(crate) purge: bool,
}

/// The agent CLI this process answers: set once by `loopgate hook --agent A` (a hook process serves one CLI), so
/// that what the user reads names that CLI's commands; Claude Code when unset.
static CLIENT: std::sync::OnceLock<Agent> = std::sync::OnceLock::new();

/// Records the CLI this process answers (the first call wins).
pub(crate) fn set_client(agent: Agent) {
    let _ = CLIENT.set(agent);
}

/// The CLI this process answers ([`set_client`]).
pub(crate) fn client() -> Agent {
    CLIENT.get().copied().unwrap_or_default()
}

/// How the user types loopgate's command `name` (`pua-loop`) in the CLI this process answers ([`client`]). In
/// Claude Code: the bare `/pua-loop` when a user-level command of that name is installed (`loopgate install`
/// writes them), else the plugin's `/loopgate:pua-loop` (plugin commands are always namespaced); elsewhere
/// `cli::Agent::command`. Hints name the one that works as printed.
pub(crate) fn slash_command(name: &str) -> String {
    let client = client();
    if client != Agent::Claude {
        return client.command(name);
    }
    let bare = crate::project::claude_config_dir()
        .is_some_and(|dir| dir.join("commands").join(format!("{name}.md")).is_file());
    if bare {
        format!("/{name}")
    } else {
        format!("/loopgate:{name}")
    }
}

/// The agent CLIs loopgate has a hook adapter for (`hook::agent`): each reads its own hook input and writes its own
/// output; the decision under them is the same.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Agent {
    /// Claude Code (the plugin's hooks).
    #[default]
    Claude,
    /// OpenAI Codex CLI (`~/.codex/hooks.json`).
    Codex,
    /// Google Gemini CLI (`~/.gemini/settings.json`).
    Gemini,
    /// Cursor's agent (`~/.cursor/hooks.json`; built from its documented hook format, not yet run against it).
    Cursor,
    /// GitHub Copilot CLI (`~/.copilot/hooks/loopgate.json`, its skills `/pua-loop`, `/cancel-loop`, …).
    Copilot,
    /// opencode (a plugin in `~/.config/opencode/plugin/`; checked with opencode 1.18.33 headless).
    Opencode,
}

impl Agent {
    /// Every agent, in the order the docs list them.
    pub(crate) const ALL: [Agent; 6] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Cursor,
        Agent::Copilot,
        Agent::Opencode,
    ];

    /// The name on the command line (`--agent NAME`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
            Agent::Copilot => "copilot",
            Agent::Opencode => "opencode",
        }
    }

    /// The CLI's name as its users know it, in what loopgate tells them.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini CLI",
            Agent::Cursor => "Cursor",
            Agent::Copilot => "Copilot CLI",
            Agent::Opencode => "opencode",
        }
    }

    /// How the user types loopgate's command `name` (`cancel-loop`) in this CLI, where it is not Claude Code
    /// (whose spelling depends on what is installed, `cli::slash_command`): Codex's interactive UI runs no
    /// custom `/` command and loopgate's are skills, `$cancel-loop`; the others take `/cancel-loop` (a command
    /// install wrote, or the prompt the prompt hook reads).
    pub(crate) fn command(self, name: &str) -> String {
        match self {
            Agent::Codex => format!("${name}"),
            _ => format!("/{name}"),
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|agent| agent.name() == name)
    }

    /// The agent's name for a loopgate hook event (what its input's `hook_event_name` says), or `None` when it
    /// has no such event. One table: the adapters (`hook::agent`) check inputs by it, install writes it.
    pub(crate) fn event_name(self, event: &HookEvent) -> Option<&'static str> {
        let claude = match event {
            HookEvent::Stop => "Stop",
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::StopFailure => "StopFailure",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
        };
        match (self, event) {
            (Agent::Claude, _) => Some(claude),
            (_, HookEvent::StopFailure) => None,
            (Agent::Codex, _) => Some(claude),
            (Agent::Gemini, HookEvent::Stop) => Some("AfterAgent"),
            (Agent::Gemini, HookEvent::PreToolUse) => Some("BeforeTool"),
            (Agent::Gemini, HookEvent::UserPromptSubmit) => Some("BeforeAgent"),
            (Agent::Gemini, HookEvent::SessionStart) => Some("SessionStart"),
            // Cursor: the shell's own pre-hook (its only one that sees the command before it runs, since 1.7).
            (Agent::Cursor, HookEvent::Stop) => Some("stop"),
            (Agent::Cursor, HookEvent::PreToolUse) => Some("beforeShellExecution"),
            (Agent::Cursor, HookEvent::UserPromptSubmit) => Some("beforeSubmitPrompt"),
            (Agent::Cursor, HookEvent::SessionStart) => Some("sessionStart"),
            // Copilot CLI: the PascalCase names select its input in Claude Code's snake_case fields.
            (Agent::Copilot, _) => Some(claude),
            // opencode: the plugin's names for the events it hands over (it has no SessionStart hook).
            (Agent::Opencode, HookEvent::Stop) => Some("session.idle"),
            (Agent::Opencode, HookEvent::PreToolUse) => Some("tool.execute.before"),
            (Agent::Opencode, HookEvent::UserPromptSubmit) => Some("chat.message"),
            (Agent::Opencode, HookEvent::SessionStart) => None,
        }
    }

    /// The command that runs the agent once, non-interactively, the prompt added as its last argument
    /// (`loopgate run --agent`).
    pub(crate) fn run_command(self) -> &'static [&'static str] {
        match self {
            Agent::Claude => &["claude", "-p"],
            Agent::Codex => &["codex", "exec"],
            Agent::Gemini => &["gemini", "-p"],
            Agent::Cursor => &["cursor-agent", "--force", "-p"],
            Agent::Copilot => &["copilot", "--allow-all-tools", "-p"],
            Agent::Opencode => &["opencode", "run"],
        }
    }
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub(crate) enum HookEvent {
    /// The Stop hook: decide whether the agent may stop.
    Stop,
    /// The PreToolUse hook: keep the agent's tools off the oracle's files.
    PreToolUse,
    /// The SessionStart hook: resume paused loops, re-inject the loop after compaction.
    SessionStart,
    /// The StopFailure hook: the turn ended on an API error; record it, keep the loop resumable.
    StopFailure,
    /// The UserPromptSubmit hook: carry out a /pua-loop or /cancel-loop that had to wait for the user's prompt.
    UserPromptSubmit,
}

impl HookEvent {
    /// The event on the command line (`loopgate hook [--agent A] EVENT`), as clap spells it.
    pub(crate) fn arg(self) -> &'static str {
        match self {
            HookEvent::Stop => "stop",
            HookEvent::PreToolUse => "pre-tool-use",
            HookEvent::SessionStart => "session-start",
            HookEvent::StopFailure => "stop-failure",
            HookEvent::UserPromptSubmit => "user-prompt-submit",
        }
    }
}

/// Flags of `loopgate check`. What to verify and how it is sealed come from `.loopgate.toml` on the base commit
/// (`commands::check::config`), never from the head.
#[derive(Debug, Clone, Args)]
pub(crate) struct CheckArgs {
    /// The base commit (branch, tag or sha) whose tests, test side and `.loopgate.toml` judge the head.
    #[arg(long, value_name = "REF")]
    pub(crate) base: String,
    /// Use this verify command instead of the base's `.loopgate.toml` one (for local use; CI should not).
    #[arg(long, value_name = "CMD")]
    pub(crate) verify: Option<String>,
    /// Held-out tests: a directory outside the repository that mirrors its layout (e.g. written from a CI secret).
    #[arg(long, value_name = "DIR")]
    pub(crate) holdout_from: Option<std::path::PathBuf>,
    /// Write the Markdown summary here (default: `$GITHUB_STEP_SUMMARY` when it is set).
    #[arg(long, value_name = "PATH")]
    pub(crate) summary: Option<std::path::PathBuf>,
    /// Write the HTML report here (default: the base's `.loopgate.toml` `report.html`, else none).
    #[arg(long, value_name = "PATH")]
    pub(crate) html: Option<std::path::PathBuf>,
    /// Print the result as JSON on stdout instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Flags of `loopgate setup`; the same names are recognized in the slash command's text.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct SetupArgs {
    /// Shell command that decides whether the task is done (exit 0 = done). Sealed outside the agent's reach.
    #[arg(long, value_name = "CMD")]
    pub(crate) verify: Option<String>,
    /// Stop after this many iterations (0 = unlimited).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub(crate) max_iterations: Option<u64>,
    /// Text the agent must put in <promise>…</promise> to claim completion [default: LOOP_DONE].
    #[arg(long, value_name = "TEXT")]
    pub(crate) completion_promise: Option<String>,
    /// Seconds the verify command may run before it is killed [default: 600, at most 3600].
    #[arg(long, value_name = "SECS", value_parser = seconds, allow_negative_numbers = true)]
    pub(crate) verify_timeout: Option<u64>,
    /// Files the agent must not change (gitignore-style glob, repeatable), e.g. 'tests/**'.
    #[arg(long, value_name = "GLOB")]
    pub(crate) seal: Vec<String>,
    /// Acceptance tests the agent never sees (repeatable): a glob inside the project ('tests/acceptance/**'),
    /// whose files wait outside the project until the loop ends, or a directory outside it (~/acceptance/proj),
    /// laid over the project's layout. They run only at a promise, in a private copy of the project.
    #[arg(long, value_name = "GLOB|DIR")]
    pub(crate) holdout: Vec<String>,
    /// A reviewer reads the change at a passing promise, before the loop completes: `auto` (the agent CLI on
    /// PATH: claude, codex or gemini, with a small model and no tools), a MODEL for that CLI, a 'CMD' that reads
    /// the input on stdin and prints the answer, or `off` [default: off] (docs/review.md).
    #[arg(long, value_name = "auto|off|MODEL|CMD")]
    pub(crate) review: Option<String>,
    /// Seconds the reviewer may take before the promise stands unreviewed [default: 180, at most 600].
    #[arg(long, value_name = "SECS", value_parser = seconds, allow_negative_numbers = true)]
    pub(crate) review_timeout: Option<u64>,
    /// Run the verify command only at a promise, or at every stop.
    #[arg(long, value_enum, value_name = "WHEN")]
    pub(crate) verify_on: Option<VerifyOn>,
    /// End the loop after this much wall time, e.g. 45m, 8h, 1h30m.
    #[arg(long, value_name = "DUR", allow_hyphen_values = true)]
    pub(crate) max_duration: Option<String>,
    /// Treat a verify that passes while running no tests ("running 0 tests", "no tests ran") as a failure.
    #[arg(long)]
    pub(crate) require_tests: bool,
    /// Send no desktop notification when the loop completes, pauses, stalls or ends (Claude Code shows one in
    /// terminals that support it).
    #[arg(long)]
    pub(crate) no_notify: bool,
    /// Pause the loop as stalled after N iterations without a working-tree change, or N identical failures
    /// with no change since the last [default: 10; 0 disables].
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub(crate) stall_limit: Option<u64>,
    /// End the loop once the session transcript records this many tokens (input, output and cache).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub(crate) max_tokens: Option<u64>,
    /// End the loop once the agent's usage has cost this many US dollars, e.g. 5 or 2.50, priced by the table of
    /// docs/cost.md. Inside Claude Code it is read from the session transcript at each stop; `loopgate run` reads
    /// it from the agent's JSON output after each iteration (and spends it over every candidate of a tournament).
    #[arg(long, value_name = "USD", value_parser = dollars, allow_negative_numbers = true)]
    pub(crate) max_cost: Option<f64>,
    /// Read a score from the verify output (last match; first capture group if any); completes at --target.
    #[arg(long, value_name = "RE", requires = "target")]
    pub(crate) score_regex: Option<String>,
    /// The score that completes the loop (with --score-regex).
    #[arg(long, value_name = "X", requires = "score_regex", allow_negative_numbers = true)]
    pub(crate) target: Option<f64>,
    /// Whether a higher or a lower score is better [default: higher].
    #[arg(long, value_enum, requires = "score_regex")]
    pub(crate) direction: Option<crate::score::Direction>,
    /// Verifies in a row without a better score that count as a stall (with --score-regex; 0 disables).
    #[arg(long, value_name = "N", requires = "score_regex", value_parser = count, allow_negative_numbers = true)]
    pub(crate) plateau: Option<u64>,
    /// The structured report the verify command writes itself, read test by test: `junit:PATH` (the JUnit XML
    /// at PATH, relative to the project) judges a runner loopgate has no reader for by the names in its report.
    #[arg(long, value_name = "KIND:PATH")]
    pub(crate) report: Option<String>,
    /// Which per-iteration checkpoints of the working tree to keep when the loop ends: the start, the last and
    /// the best-scoring (best), all, or none [default: best].
    #[arg(long, value_enum, value_name = "WHICH")]
    pub(crate) keep_checkpoints: Option<crate::checkpoint::Keep>,
    /// Take no checkpoints of the working tree (`loopgate rollback` then has nothing to restore).
    #[arg(long, conflicts_with = "keep_checkpoints")]
    pub(crate) no_checkpoints: bool,
    /// Do not seal the files that define what the verify command runs (its npm script, pytest.ini, conftest.py,
    /// .cargo/config.toml, the Makefile recipe, scripts it names).
    #[arg(long)]
    pub(crate) no_closure_seal: bool,
    /// Let the agent edit or delete existing tests (adding new tests is always allowed).
    #[arg(long)]
    pub(crate) no_test_seal: bool,
    /// Accept a passing verify that ran fewer tests, or skipped more, than the most this loop has seen.
    #[arg(long)]
    pub(crate) no_count_ratchet: bool,
    /// Accept skip / ignore / xfail / only markers added to the tests, and tests deleted.
    #[arg(long)]
    pub(crate) no_skip_check: bool,
    /// Accept new code under test that knows it is being tested (a `cfg(test)` branch outside the test module,
    /// the runner's variables, modules or flags) or that reads the test files.
    #[arg(long)]
    pub(crate) no_test_awareness_check: bool,
    /// Do not run the verify command at setup; the first verify of the loop becomes the baseline instead.
    #[arg(long)]
    pub(crate) no_baseline: bool,
    /// Judge a pass by its exit code and totals only, not test by test against the baseline.
    #[arg(long)]
    pub(crate) no_test_verdict: bool,
    /// Let the agent's new test files take part in the oracle's run (by default they sit it out).
    #[arg(long)]
    pub(crate) with_new_tests: bool,
    /// Language of the feedback and messages.
    #[arg(long, value_enum)]
    pub(crate) lang: Option<Speech>,
    /// Claude Code session that owns the loop (default: `$CLAUDE_CODE_SESSION_ID`).
    #[arg(long, value_name = "ID")]
    pub(crate) session_id: Option<String>,
    /// Replace a loop that another session is running in this project.
    #[arg(long)]
    pub(crate) force: bool,
    /// Best of N (`loopgate run` only): N loops from one commit, each in its own worktree, under one sealed
    /// oracle. From /pua-loop it starts no loop and prints the terminal command instead (docs/tournament.md).
    #[arg(long, value_name = "N", value_parser = small_count, allow_negative_numbers = true)]
    pub(crate) candidates: Option<u32>,
    /// Read the raw /pua-loop text from stdin and split it without a shell.
    #[arg(long)]
    pub(crate) args_stdin: bool,
    /// The task, as words (or read from stdin with --args-stdin).
    #[arg(value_name = "TASK")]
    pub(crate) task: Vec<String>,
}

/// A count given to a flag (`--max-iterations`, `--max-tokens`, `--stall-limit`, …): a whole number, 0 or more.
/// The numeric flags take a value that starts with `-` (`allow_negative_numbers`) so that `-1` reaches this
/// parser: otherwise clap reads it as an unknown flag and its error ("unexpected argument '-1'") names neither
/// the flag nor what to give. Clap prefixes the message with the flag and the value.
pub(crate) fn count(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| "give a whole number, 0 or more".to_string())
}

/// `--max-cost`: dollars above 0 (a budget of 0 or less could only end the loop at once).
pub(crate) fn dollars(text: &str) -> Result<f64, String> {
    match text.trim().trim_start_matches('$').parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
        _ => Err("give a number of US dollars above 0, e.g. 5 or 2.50".to_string()),
    }
}

/// [`count`] for the flags clap keeps as `u32` (`--candidates`, `--jobs`).
pub(crate) fn small_count(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .map_err(|_| "give a whole number, e.g. 3".to_string())
}

/// `--verify-timeout`: whole seconds (setup then checks the range and says it).
fn seconds(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| "give a whole number of seconds, e.g. 600".to_string())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// Every hook event clap knows is read the same way without it; anything more on the line goes to clap.
    #[test]
    fn a_hook_line_reads_as_clap_reads_it() {
        let cli = Cli::command();
        let hook = cli.find_subcommand("hook").expect("the hook command");
        let names: Vec<&str> = hook.get_subcommands().map(clap::Command::get_name).collect();
        for name in names {
            let fast = Cli::hook_line(["hook", name].map(Into::into))
                .expect("read without clap (a new event: add it to `Cli::hook_line`)");
            let clap = Cli::try_parse_from(["loopgate", "hook", name]).expect("parses");
            assert_eq!(format!("{fast:?}"), format!("{clap:?}"), "{name}");
            for agent in Agent::ALL {
                let line = ["hook", "--agent", agent.name(), name];
                let fast = Cli::hook_line(line.map(Into::into)).expect("read without clap");
                let clap = Cli::try_parse_from(std::iter::once("loopgate").chain(line)).expect("parses");
                assert_eq!(format!("{fast:?}"), format!("{clap:?}"), "{line:?}");
            }
        }
        for other in [
            &["hook", "stop", "--project-dir", "x"][..],
            &["hook", "nope"],
            &["hook", "--agent", "nope", "stop"],
            &["hook", "--agnt", "codex", "stop"],
            &["hook"],
            &["status", "stop"],
            &["--project-dir", "x"],
        ] {
            assert!(Cli::hook_line(other.iter().map(Into::into)).is_none(), "{other:?}");
        }
    }
}

/// `loopgate confine`: a command, or a shell script (`-c`), and what it may not write.
#[derive(Debug, clap::Args)]
pub(crate) struct ConfineArgs {
    /// The loopgate store to protect (default: `$LOOPGATE_HOME` or the platform's state directory).
    #[arg(long, value_name = "DIR")]
    pub(crate) loop_home: Option<std::path::PathBuf>,
    /// Another path to protect (the loop's sealed files outside the project); repeatable.
    #[arg(long, value_name = "PATH")]
    pub(crate) protect: Vec<std::path::PathBuf>,
    /// With `-c`: the shell that runs the script (the calling shell's `$0`; an unknown name runs `sh`).
    #[arg(long, value_name = "SHELL", requires = "script")]
    pub(crate) shell: Option<String>,
    /// Run this script in the shell and report its last directory on descriptor 3 when that is open.
    #[arg(short = 'c', value_name = "SCRIPT", conflicts_with = "command")]
    pub(crate) script: Option<String>,
    /// The command and its arguments.
    #[arg(last = true, value_name = "CMD", required_unless_present = "script")]
    pub(crate) command: Vec<std::ffi::OsString>,
}
