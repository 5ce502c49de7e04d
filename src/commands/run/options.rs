//! `loopgate run`'s flags, validated (stage two of the CLI): the setup [`Config`] the loop starts with, the
//! agent command and how it gets its prompt, and how the run is shown.

use std::time::Duration;

use crate::cli::{RunArgs, SetupArgs};
use crate::commands::setup::Config;
use crate::error::Error;
use crate::schema::Driver;
use crate::state::VerifyOn;

use super::prompt::{self, Via};

/// Most bytes of a `--task-file`.
const MAX_TASK_BYTES: u64 = 1024 * 1024;

/// How much of the run is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verbosity {
    /// No agent output: one line per iteration and the summary.
    Quiet,
    /// The agent's output streamed, one line per iteration, the summary.
    Normal,
    /// Also every prompt.
    Verbose,
}

/// Start a new loop, or continue this project's paused or left-behind one.
#[derive(Debug)]
pub(crate) enum Start {
    New(Box<Config>),
    Resume { force: bool },
}

/// Everything `loopgate run` works with.
#[derive(Debug)]
pub(crate) struct Options {
    pub(crate) start: Start,
    /// The session id the loop is bound to: `run-<pid>-<random>`, which no Claude Code session ever has.
    pub(crate) session: String,
    pub(crate) agent: Vec<String>,
    pub(crate) via: Via,
    pub(crate) agent_timeout: Option<Duration>,
    pub(crate) verbosity: Verbosity,
    pub(crate) cost: Budget,
}

/// The run's dollar budget and the table that prices the agent's usage.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    pub(crate) max_cost: Option<f64>,
    pub(crate) prices: crate::cost::Prices,
}

impl Budget {
    /// `--max-cost` (checked by its parser) with `--prices` (or the default file) read; errors name the file.
    pub(crate) fn from_args(max_cost: Option<f64>, args: &crate::cli::run::CostArgs) -> Result<Self, Error> {
        Ok(Self {
            max_cost,
            prices: crate::cost::Prices::load(args.prices.as_deref()).map_err(Error::Usage)?,
        })
    }
}

impl Options {
    pub(crate) fn from_args(args: RunArgs) -> Result<Self, Error> {
        let usage = |m: &str| Err(Error::Usage(m.to_string()));
        let setup = args.setup;
        if setup.session_id.is_some() || setup.args_stdin {
            return usage(
                "`--session-id` and `--args-stdin` belong to `loopgate setup`; `loopgate run` binds its loop to itself",
            );
        }
        if args.agent.first().is_none_or(|program| program.trim().is_empty()) {
            return usage(&format!(
                "no agent command after `--`: e.g. `loopgate run --verify '{}' TASK -- claude -p`",
                crate::messages::EXAMPLE_VERIFY
            ));
        }
        let placeholder = args.agent[1..].iter().any(|a| a.contains(prompt::PLACEHOLDER));
        let via = match (args.stdin, placeholder) {
            (true, true) => {
                return usage(
                    "the agent arguments hold `{prompt}` and `--stdin` was given: choose one way to pass the prompt",
                );
            }
            (true, false) => Via::Stdin,
            (false, true) => Via::Placeholder,
            (false, false) => Via::LastArg,
        };
        let agent_timeout = match args.agent_timeout.as_deref() {
            Some(text) => {
                let secs =
                    crate::duration::parse_secs(text).map_err(|e| Error::Usage(format!("`--agent-timeout`: {e}")))?;
                if secs == 0 {
                    return usage("`--agent-timeout` must be more than 0 seconds");
                }
                Some(Duration::from_secs(secs))
            }
            None => None,
        };
        let verbosity = match (args.quiet, args.verbose) {
            (true, _) => Verbosity::Quiet,
            (false, true) => Verbosity::Verbose,
            (false, false) => Verbosity::Normal,
        };
        // `loopgate run` prices each iteration from the agent's own report, so the budget is its own, not sealed
        // for the Stop hook (which prices Claude Code's transcript, which a run has not).
        let mut setup = setup;
        let cost = Budget::from_args(setup.max_cost.take(), &args.cost)?;
        let session = new_session();
        let start = if args.resume {
            if args.task_file.is_some() || args.require_promise || shapes_the_loop(&setup) {
                return usage(
                    "`--resume` continues the loop as it was sealed: give no task and no loop flags (only `--force` and the run flags)",
                );
            }
            Start::Resume { force: setup.force }
        } else {
            let mut config = new_loop(setup, args.task_file.as_deref(), args.require_promise, &session)?;
            config.run_max_cost = cost.max_cost;
            Start::New(Box::new(config))
        };
        let mut agent = args.agent;
        // The agent runs in the project root, which may be above the current directory: a relative path to the
        // program (`./agent.sh`) means the one the user sees from here.
        if agent[0].contains('/')
            && std::path::Path::new(&agent[0]).is_relative()
            && let Ok(cwd) = std::env::current_dir()
        {
            agent[0] = cwd.join(&agent[0]).to_string_lossy().into_owned();
        }
        Ok(Self {
            start,
            session,
            agent,
            via,
            agent_timeout,
            verbosity,
            cost,
        })
    }
}

/// The setup config of a new loop driven by this process.
fn new_loop(
    mut setup: SetupArgs,
    task_file: Option<&std::path::Path>,
    require_promise: bool,
    session: &str,
) -> Result<Config, Error> {
    if setup.max_tokens.is_some() {
        return Err(Error::Usage(
            "`--max-tokens` needs a Claude Code transcript, and `loopgate run` cannot count an arbitrary agent's tokens: use `--max-iterations` or `--max-duration`".into(),
        ));
    }
    if let Some(path) = task_file {
        if !setup.task.is_empty() {
            return Err(Error::Usage(
                "give the task either as words or with `--task-file`, not both".into(),
            ));
        }
        setup.task = vec![read_task(path)?];
    }
    if setup.task.join(" ").trim().is_empty() {
        return Err(Error::Usage(format!(
            "no task given: put it before `--` (`loopgate run --verify '{}' 'fix the parser' -- claude -p`) or use `--task-file FILE`",
            crate::messages::EXAMPLE_VERIFY
        )));
    }
    // Without `--require-promise`, a passing verify after any iteration completes the loop; with it (or with
    // no verify command at all: the honor system) the agent's promise is what asks for the verdict.
    setup.verify_on = match (require_promise, setup.verify_on) {
        (true, Some(VerifyOn::Always)) => {
            return Err(Error::Usage(
                "`--require-promise` and `--verify-on always` contradict each other: drop one".into(),
            ));
        }
        (true, _) => Some(VerifyOn::Promise),
        (false, Some(on)) => Some(on),
        (false, None) if setup.verify.as_deref().is_some_and(|v| !v.trim().is_empty()) => Some(VerifyOn::Always),
        (false, None) => Some(VerifyOn::Promise),
    };
    let mut config = Config::from_args(setup, std::io::empty())?;
    config.resolve_auto_verify(&crate::project::Project::for_terminal().root)?;
    config.session_id = session.to_string();
    config.driver = Some(Driver::Run {
        pid: std::process::id(),
    });
    Ok(config)
}

fn read_task(path: &std::path::Path) -> Result<String, Error> {
    use std::io::Read;
    let io = |source| Error::Io {
        action: "read the task file",
        path: path.to_path_buf(),
        source,
    };
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_TASK_BYTES)
        .read_to_string(&mut text)
        .map_err(io)?;
    Ok(text)
}

/// Whether any flag that shapes a loop (the oracle, the limits, the task) was given.
fn shapes_the_loop(setup: &SetupArgs) -> bool {
    // Compared through `Debug` so that a flag added to `SetupArgs` later is covered without touching this.
    let without_force = SetupArgs {
        force: false,
        ..setup.clone()
    };
    format!("{without_force:?}") != format!("{:?}", SetupArgs::default())
}

/// `run-<pid>-<6 hex digits>`: unique per process, and never a Claude Code session id (those are UUIDs), so no
/// Stop hook ever claims a `loopgate run` loop.
fn new_session() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    format!("run-{}-{:06x}", std::process::id(), hasher.finish() & 0xff_ffff)
}
