//! `loopgate setup`: starts a loop — validates the flags into a [`Config`], seals the oracle outside the
//! project, writes the state file, records `init`, and prints the briefing the agent reads.
//!
//! With `--args-stdin` the raw /pua-loop text is read from stdin and split by `args::split` (no shell ever sees
//! it); flags given on the command line (the slash command passes `--session-id`) fill in what the text lacks.

use crate::history::{
    Event,
    event::{BaselineRun, Init, Reason},
};
use std::io::Read;

use clap::Parser;

use crate::args::{self, FlagSpec};
use crate::cli::SetupArgs;
use crate::error::Error;
use crate::history::Record;
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::messages;
use crate::project::Project;
use crate::schema::{Check, Driver};
use crate::score::ScoreGate;
use crate::seal::{Seal, SealedFiles, Store};
use crate::state::{self, Limits, LoopConfig, LoopProgress, State, StateFields, VerifyConfig, VerifyOn};
use crate::{duration, exit_codes};

/// The largest verify timeout accepted: the Stop hook's own timeout in `hooks/hooks.json` (3700 s) must stay
/// above it, or Claude Code kills the hook mid-verify.
pub(crate) const MAX_VERIFY_TIMEOUT: u64 = 3600;
/// Seconds the baseline may run when setup runs inside the slash command's pre-executed block. Claude Code
/// (checked with 2.1.197 and 2.1.330) moves a pre-executed block that runs past two minutes to the background
/// and sends the prompt to the model without waiting, so a longer baseline would run while the agent edits. A
/// baseline that needs longer is cut here and the loop's first verify becomes its baseline; from a terminal
/// (no session yet, the next session adopts the loop) the baseline has the whole verify timeout.
pub(crate) const SLASH_COMMAND_BUDGET: u64 = 100;
/// [`SLASH_COMMAND_BUDGET`], or `LOOPGATE_SLASH_COMMAND_BUDGET` (seconds) where a client waits otherwise.
fn slash_command_budget() -> u64 {
    std::env::var("LOOPGATE_SLASH_COMMAND_BUDGET")
        .ok()
        .and_then(|secs| secs.trim().parse().ok())
        .filter(|&secs| secs > 0)
        .unwrap_or(SLASH_COMMAND_BUDGET)
}

/// Most bytes of /pua-loop text read from stdin.
const MAX_ARGS_BYTES: u64 = 1024 * 1024;

/// Flags recognized in the slash command's text: exactly `SetupArgs`'s long flags, read from its clap
/// definition so the two can never drift apart (`--args-stdin` itself is not one of them).
fn known_flags() -> Vec<FlagSpec> {
    use clap::Args;
    SetupArgs::augment_args(clap::Command::new("setup"))
        .get_arguments()
        .filter_map(|arg| {
            let name = arg.get_long()?;
            (name != "args-stdin").then(|| FlagSpec {
                name: name.to_string(),
                takes_value: arg.get_action().takes_values(),
            })
        })
        .collect()
}

/// Validated setup options: what the command code works with. What the loop is sealed with is the loop's own
/// configuration type, [`LoopConfig`], filled by [`Config::validate`] and written as it is into the state file
/// and the seal (its `loop_id` and `started_at` are set as the loop starts); the rest only steers setup.
#[derive(Debug)]
pub(crate) struct Config {
    pub(crate) task: String,
    pub(crate) loop_config: LoopConfig,
    /// `--holdout` values: globs inside the project, directories outside it (see `holdout`).
    pub(crate) holdout: Vec<String>,
    pub(crate) session_id: String,
    pub(crate) force: bool,
    /// Set by `loopgate run`, which drives the loop itself; `None` for a Claude Code session's loop.
    pub(crate) driver: Option<Driver>,
    /// What `--verify auto` chose and why (see [`Config::resolve_auto_verify`]); `verify_command` holds the
    /// command.
    pub(crate) verify_detected: Option<crate::detect::Detected>,
    /// Which checkpoints to keep at the end; `None` with `--no-checkpoints`.
    pub(crate) checkpoints: Option<crate::checkpoint::Keep>,
    /// Run the verify command once at setup (off with `--no-baseline`).
    pub(crate) baseline: bool,
    /// Setup runs inside the slash command (`--args-stdin`), which Claude Code waits for only so long.
    pub(crate) from_slash_command: bool,
    /// `--candidates N`: a tournament, which `loopgate run` runs; setup only names the command.
    pub(crate) candidates: Option<u32>,
    /// `--review auto` was asked for and found no reviewer CLI (setup says so).
    pub(crate) review_none_found: bool,
    /// `loopgate run --max-cost`: the run's own dollar budget (it prices the agent's reports; not sealed for the
    /// Stop hook), kept only to be recorded in the loop's `init` with the other budgets, for the report.
    pub(crate) run_max_cost: Option<f64>,
    /// Hold what the baseline read outside the project by content (`room::snapshot`), for the later runs.
    /// `loopgate check` takes none: its judged run follows the baseline with no code of the change run in
    /// between, so the world outside is still the one the baseline read.
    pub(crate) snapshot: bool,
}

#[derive(Parser)]
#[command(name = "/pua-loop", no_binary_name = true, disable_help_flag = true)]
struct TextArgs {
    #[command(flatten)]
    args: SetupArgs,
}

impl Config {
    /// Reads stdin if asked, then validates.
    pub(crate) fn from_args(args: SetupArgs, stdin: impl Read) -> Result<Self, Error> {
        let from_slash_command = args.args_stdin;
        let args = if from_slash_command {
            merge_text(args, stdin)?
        } else {
            args
        };
        Ok(Self {
            from_slash_command,
            ..Self::validate(args)?
        })
    }

    fn validate(args: SetupArgs) -> Result<Self, Error> {
        let usage = |m: String| Err(Error::Usage(m));
        let args_flags = [
            (args.no_closure_seal, Check::Closure),
            (args.no_test_seal, Check::Tests),
            (args.no_count_ratchet, Check::Counts),
            (args.no_skip_check, Check::Skips),
            (args.no_test_awareness_check, Check::TestAwareness),
            (args.no_test_verdict, Check::ByName),
            (args.with_new_tests, Check::NewTestsAside),
        ];
        let task = args.task.join(" ");
        if task.trim().is_empty() {
            return usage(format!(
                "no task given: say what the agent should do, e.g. /loopgate:pua-loop \"fix the parser\" --verify '{}'",
                crate::messages::EXAMPLE_VERIFY
            ));
        }
        // An empty command (a script passing an unset `$TEST_CMD`) would silently turn the oracle off.
        if args.verify.as_deref().is_some_and(|v| v.trim().is_empty()) {
            return usage(format!(
                "`--verify` is empty: give the command that checks the work (e.g. `--verify '{}'`), or leave the flag out for a loop on the honor system",
                crate::messages::EXAMPLE_VERIFY
            ));
        }
        let verify = args.verify;
        let verify_timeout = args.verify_timeout.unwrap_or(state::DEFAULT_VERIFY_TIMEOUT);
        if verify_timeout == 0 || verify_timeout > MAX_VERIFY_TIMEOUT {
            return usage(format!(
                "`--verify-timeout {verify_timeout}` is out of range: use 1 to {MAX_VERIFY_TIMEOUT} seconds (the Stop hook itself times out after 3700 s)"
            ));
        }
        let verify_on = args.verify_on.unwrap_or_default();
        if verify_on == VerifyOn::Always && verify.is_none() {
            return usage("`--verify-on always` needs a `--verify` command".into());
        }
        let promise = args
            .completion_promise
            .unwrap_or_else(|| state::DEFAULT_PROMISE.to_string());
        if promise.trim().is_empty() {
            return usage("`--completion-promise` must not be empty".into());
        }
        SealedFiles::new(&args.seal).map_err(Error::Usage)?;
        if !args.holdout.is_empty() && verify.is_none() {
            return usage("`--holdout` needs a `--verify` command to run the held-out tests with".into());
        }
        let max_duration = match args.max_duration.as_deref() {
            Some(text) => Some(duration::parse_secs(text).map_err(|e| Error::Usage(format!("`--max-duration`: {e}")))?),
            None => None,
        };
        let score = match (args.score_regex, args.target) {
            (Some(regex), Some(target)) => {
                if verify.is_none() {
                    return usage("`--score-regex` needs a `--verify` command to read the score from".into());
                }
                let gate = ScoreGate {
                    regex,
                    target,
                    direction: args.direction.unwrap_or_default(),
                    plateau: args.plateau.unwrap_or(0),
                };
                gate.validate().map_err(Error::Usage)?;
                Some(gate)
            }
            _ => None,
        };
        let report = match args.report.as_deref() {
            Some(_) if verify.is_none() => {
                return usage("`--report` needs a `--verify` command that writes the report".into());
            }
            Some(text) => Some(
                crate::schema::VerifyReport::parse(text, Some(&Project::for_terminal().root))
                    .map_err(|e| Error::Usage(format!("`--report {text}`: {e}")))?,
            ),
            None => None,
        };
        let (review, review_none_found) = review(args.review.as_deref(), args.review_timeout, verify.is_some())?;
        // The budget's table is sealed with it: the user's rows as they are now (a bad file is refused here, not
        // at the first stop).
        let prices = match args.max_cost {
            Some(_) => crate::cost::Prices::load(None).map_err(Error::Usage)?.rows(),
            None => std::collections::BTreeMap::new(),
        };
        Ok(Self {
            task,
            loop_config: LoopConfig {
                completion_promise: crate::tags::collapse(&promise),
                sealed: args.seal,
                lang: args.lang.unwrap_or_default(),
                notify: !args.no_notify,
                opt_out: opt_outs(&args_flags),
                review,
                verify: VerifyConfig {
                    verify_command: verify,
                    verify_timeout,
                    verify_on,
                    require_tests: args.require_tests,
                    score,
                    report,
                },
                limits: Limits {
                    max_iterations: args.max_iterations.unwrap_or(0),
                    max_duration: max_duration.filter(|&secs| secs > 0),
                    max_tokens: args.max_tokens.filter(|&n| n > 0),
                    max_cost: args.max_cost,
                    prices,
                    stall_limit: args.stall_limit.unwrap_or(state::DEFAULT_STALL_LIMIT),
                },
                ..LoopConfig::default()
            },
            holdout: args.holdout,
            session_id: super::session_from(args.session_id),
            force: args.force,
            driver: None,
            verify_detected: None,
            checkpoints: (!args.no_checkpoints).then(|| args.keep_checkpoints.unwrap_or_default()),
            baseline: !args.no_baseline,
            from_slash_command: false,
            candidates: args.candidates.filter(|&n| n > 0),
            review_none_found,
            run_max_cost: None,
            snapshot: true,
        })
    }

    /// Turns `--verify auto` into the command detected in `root` (or refuses: nothing fits); from here on it is
    /// an ordinary verify command, sealed like a typed one.
    pub(crate) fn resolve_auto_verify(&mut self, root: &std::path::Path) -> Result<(), Error> {
        let command = &mut self.loop_config.verify.verify_command;
        if command.as_deref().map(str::trim) != Some(crate::detect::AUTO) {
            return Ok(());
        }
        let found = crate::detect::detect(root).map_err(Error::Usage)?;
        *command = Some(found.command.clone());
        self.verify_detected = Some(found);
        Ok(())
    }
}

/// `--review` and `--review-timeout`: the sealed reviewer, and whether `auto` found none.
fn review(
    text: Option<&str>,
    timeout: Option<u64>,
    has_verify: bool,
) -> Result<(Option<crate::schema::Reviewer>, bool), Error> {
    use crate::review::choice::{Choice, MAX_TIMEOUT};
    let usage = |m: String| Err(Error::Usage(m));
    let Some(text) = text else {
        if timeout.is_some() {
            return usage("`--review-timeout` needs `--review` (e.g. `--review auto`)".into());
        }
        return Ok((None, false));
    };
    let Some(choice) = Choice::parse(text) else {
        return usage(
            "`--review` is empty: give `auto`, `off`, a model (`haiku`) or a command (`'./my-reviewer'`)".into(),
        );
    };
    let timeout = timeout.unwrap_or(crate::schema::DEFAULT_REVIEW_TIMEOUT);
    if timeout == 0 || timeout > MAX_TIMEOUT {
        return usage(format!(
            "`--review-timeout {timeout}` is out of range: use 1 to {MAX_TIMEOUT} seconds"
        ));
    }
    if choice != Choice::Off && !has_verify {
        return usage(
            "`--review` needs a `--verify` command: the reviewer reads a change the oracle has passed".into(),
        );
    }
    let auto = choice == Choice::Auto;
    let reviewer = choice
        .resolve(None, timeout, crate::detect::on_path)
        .map_err(Error::Usage)?;
    Ok((reviewer.clone(), auto && reviewer.is_none()))
}

/// The checks whose `--no-…` flag is set.
fn opt_outs(flags: &[(bool, Check)]) -> Vec<Check> {
    flags.iter().filter(|(set, _)| *set).map(|(_, check)| *check).collect()
}

/// Splits the stdin text and lets the command-line flags fill in what it does not say: the text is parsed by
/// clap ([`text_command`]) and laid over the command line's flags with clap's own `update_from_arg_matches`, so
/// every flag of [`SetupArgs`] — a new one too — is merged the same way (the text wins where it gives a flag).
fn merge_text(mut cli: SetupArgs, stdin: impl Read) -> Result<SetupArgs, Error> {
    use clap::FromArgMatches;
    if !cli.task.is_empty() {
        return Err(Error::Usage(
            "give the task either as words or on stdin with `--args-stdin`, not both".into(),
        ));
    }
    let raw = read_text(stdin)?;
    let split = args::split(&raw, &known_flags()).map_err(Error::Usage)?;
    let mut argv: Vec<String> = Vec::new();
    for (flag, value) in split.flags {
        argv.push(flag);
        argv.extend(value);
    }
    argv.push("--".into());
    argv.push(split.task);
    let matches = text_command()
        .try_get_matches_from(argv)
        .map_err(|e| Error::Usage(clap_line(&e)))?;
    cli.update_from_arg_matches(&matches)
        .map_err(|e| Error::Usage(clap_line(&e)))?;
    Ok(cli)
}

/// The parser of the slash command's text: [`SetupArgs`]' flags, except that a switch (`--force`) the text does
/// not give has no value at all rather than a default `false`, so `update_from_arg_matches` leaves the command
/// line's value alone (clap updates a field whenever its argument has a value, a default one included).
fn text_command() -> clap::Command {
    use clap::{ArgAction, CommandFactory};
    TextArgs::command().mut_args(|arg| {
        if matches!(arg.get_action(), ArgAction::SetTrue) {
            arg.action(ArgAction::Set)
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("true")
        } else {
            arg
        }
    })
}

/// The first line of a clap error, without its `error: ` prefix.
fn clap_line(err: &clap::Error) -> String {
    let text = err.to_string();
    let line = text.lines().next().unwrap_or("invalid arguments");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// Reads the raw /pua-loop text (at most [`MAX_ARGS_BYTES`]).
fn read_text(stdin: impl Read) -> Result<String, Error> {
    let mut raw = String::new();
    stdin
        .take(MAX_ARGS_BYTES)
        .read_to_string(&mut raw)
        .map_err(|e| Error::Usage(format!("failed to read the /pua-loop text from stdin: {e}")))?;
    Ok(raw)
}

/// Runs `loopgate setup`. From inside Claude Code it may leave the loop to the user's prompt instead (under the
/// sandbox, or to replace a running loop: see `control::defer_setup`).
pub(crate) fn run(args: SetupArgs) -> Result<u8, Error> {
    let text = if args.args_stdin {
        Some(read_text(std::io::stdin().lock())?)
    } else {
        None
    };
    let mut config = Config::from_args(args, text.as_deref().unwrap_or_default().as_bytes())?;
    if let Some(n) = config.candidates {
        // A tournament's candidates are agent processes of their own, outside this session: the user starts it.
        println!(
            "{}",
            messages::tournament_from_slash_command(config.loop_config.lang, &terminal_command(&config, n))
        );
        return Ok(exit_codes::OK);
    }
    let project = Project::for_terminal();
    let caller = crate::control::Caller::from_env();
    if crate::control::defer_setup(&caller, &project, &config.session_id, text.as_deref())? {
        return Ok(exit_codes::OK);
    }
    config.resolve_auto_verify(&project.root)?;
    let started = start(&config, project)?;
    println!("{}", crate::printable::printable(&report(&config, &started)));
    Ok(exit_codes::OK)
}

/// Starts the loop a `/pua-loop` text asks for, for `session` (the `UserPromptSubmit` hook carrying out a
/// deferred setup); what the agent reads.
pub(crate) fn start_from_text(project: Project, session: &str, text: &str) -> Result<String, Error> {
    let args = SetupArgs {
        args_stdin: true,
        session_id: Some(session.to_string()),
        ..SetupArgs::default()
    };
    let mut config = Config::from_args(args, text.as_bytes())?;
    if let Some(n) = config.candidates {
        return Ok(messages::tournament_from_slash_command(
            config.loop_config.lang,
            &terminal_command(&config, n),
        ));
    }
    config.resolve_auto_verify(&project.root)?;
    let started = start(&config, project)?;
    Ok(report(&config, &started))
}

/// The `loopgate run --candidates N …` command a `/pua-loop … --candidates N` stands for: the oracle's flags
/// and the task, each quoted for a POSIX shell, and Claude Code as the agent.
fn terminal_command(config: &Config, n: u32) -> String {
    let quote = |text: &str| format!("'{}'", text.replace('\'', "'\\''"));
    let mut words = vec![
        "loopgate".to_string(),
        "run".into(),
        "--candidates".into(),
        n.to_string(),
    ];
    if let Some(verify) = &config.loop_config.verify.verify_command {
        words.extend(["--verify".into(), quote(verify)]);
    }
    if let Some(report) = &config.loop_config.verify.report {
        words.extend(["--report".into(), quote(&report.to_string())]);
    }
    if config.loop_config.limits.max_iterations > 0 {
        words.extend([
            "--max-iterations".into(),
            config.loop_config.limits.max_iterations.to_string(),
        ]);
    }
    if let Some(secs) = config.loop_config.limits.max_duration {
        words.extend(["--max-duration".into(), format!("{secs}s")]);
    }
    if let Some(max) = config.loop_config.limits.max_cost {
        words.extend(["--max-cost".into(), max.to_string()]);
    }
    for glob in &config.loop_config.sealed {
        words.extend(["--seal".into(), quote(glob)]);
    }
    words.push(quote(&config.task));
    words.extend(["--", "claude", "-p", "--allowedTools", "Bash,Edit,Write"].map(String::from));
    words.join(" ")
}

/// What setup prints for the agent: the detected verify command, the briefing, the checkpoints line, the baseline.
fn report(config: &Config, started: &Started) -> String {
    let mut out = String::new();
    if let Some(found) = &config.verify_detected {
        out.push_str(&format!(
            "{}\n\n",
            messages::verify_detected(config.loop_config.lang, found)
        ));
    }
    out.push_str(&messages::briefing(
        &started.state,
        started.sealed_files,
        started.closure_files,
        started.tests,
    ));
    out.push_str(&format!(
        "\n\n{}",
        messages::checkpoints_at_setup(config.loop_config.lang, &started.checkpoints)
    ));
    if let crate::confine::Protection::Unprotected { why } = crate::confine::probe() {
        out.push_str(&format!(
            "\n\n{}",
            messages::control_plane_unprotected(config.loop_config.lang, why)
        ));
    }
    if config.loop_config.verify.verify_command.is_some() {
        let baseline = match &started.baseline {
            Some(baseline) => {
                let log = started.project.verify_log_path(&started.state.fields.config.loop_id, 0);
                let log = log
                    .strip_prefix(&started.project.root)
                    .unwrap_or(&log)
                    .display()
                    .to_string();
                let mut said = messages::baseline::at_setup(config.loop_config.lang, baseline, &log);
                if let Some(report) = &config.loop_config.verify.report
                    && baseline.results.is_empty()
                    && baseline.cut.is_none()
                {
                    said.push('\n');
                    said.push_str(&messages::room::own_report_unread(
                        config.loop_config.lang,
                        &report.path,
                    ));
                }
                said
            }
            None => messages::baseline::skipped(config.loop_config.lang).to_string(),
        };
        out.push_str(&format!("\n\n{baseline}"));
        out.push_str(&format!(
            "\n\n{}",
            messages::room::at_setup(config.loop_config.lang, started.room.as_ref())
        ));
    }
    if let Some(max) = config.loop_config.limits.max_cost {
        let rows = config.loop_config.limits.prices.len();
        let said = crate::stop::budgets::at_setup(config.loop_config.lang, max, rows);
        out.push_str(&format!("\n\n{said}"));
    }
    if let Some(reviewer) = &config.loop_config.review {
        let said = messages::review::at_setup(config.loop_config.lang, Some(reviewer), &reviewer.describe(), "");
        out.push_str(&format!("\n\n{said}"));
    } else if config.review_none_found {
        let programs = crate::review::clis::program_list();
        out.push_str(&format!(
            "\n\n{}",
            messages::review::at_setup(config.loop_config.lang, None, "", &programs)
        ));
    }
    if let Some((holdout, tests)) = &started.holdout {
        out.push_str(&format!(
            "\n\n{}",
            messages::holdout::at_setup(config.loop_config.lang, holdout, *tests)
        ));
        if !holdout.in_git.is_empty() {
            // For the user's terminal only: the model is not told which committed files to look for.
            eprintln!(
                "{}",
                messages::holdout::in_git(config.loop_config.lang, holdout.in_git.len())
            );
        }
    }
    out
}

/// A loop just started.
pub(crate) struct Started {
    pub(crate) state: State,
    /// How many files the `--seal` globs matched.
    pub(crate) sealed_files: usize,
    /// Whether the loop takes checkpoints (and why not).
    pub(crate) checkpoints: crate::checkpoint::Setup,
    /// How many files of the verify command's closure exist, and how many it names (absent ones included).
    pub(crate) closure_files: (usize, usize),
    /// How many test files and tests are sealed.
    pub(crate) tests: (usize, usize),
    /// The verify run at setup, if one was made.
    pub(crate) baseline: Option<crate::testjudge::baseline::Baseline>,
    /// The oracle's room (none without a verify command, or with `LOOPGATE_ROOM=0`).
    pub(crate) room: Option<crate::room::Described>,
    /// The held-out tests, and how many of them the held-out run at setup reported by name.
    pub(crate) holdout: Option<(crate::schema::Holdout, Option<usize>)>,
    pub(crate) project: Project,
}

/// Starts a loop in `project`, as `setup` does and `loopgate run` reuses: refuses or replaces the loop already
/// there, seals the oracle, runs the verify command once as the baseline (unless `--no-baseline`), writes the
/// state file and records `init`. Prints nothing, but the baseline's status line on a terminal.
pub(crate) fn start(config: &Config, project: Project) -> Result<Started, Error> {
    let store = Store::open();
    store.clean_stale();
    let _lock = super::lock(&project)?;
    project.ignore_work_dir();
    replace_existing(&project, config)?;
    // Held-out files a crashed loop left out go back before anything of the new loop is taken.
    let restored = crate::holdout::restore(&project)?;
    eprint!("{}", messages::holdout::restored(config.loop_config.lang, &restored));
    let state = new_state(config);
    let holdout = if config.holdout.is_empty() {
        None
    } else {
        Some(crate::holdout::take(
            &project,
            &config.holdout,
            &state.fields.config.loop_id,
        )?)
    };
    let root = project.root.clone();
    let started = seal_and_start(config, project, store, state, holdout);
    if started.is_err() {
        // Nothing of a loop that did not start keeps the user's files.
        let _ = crate::holdout::restore(&Project { root });
    }
    started
}

/// The rest of [`start`], under the project lock, once the held-out files are out of the tree.
fn seal_and_start(
    config: &Config,
    project: Project,
    store: Store,
    mut state: State,
    holdout: Option<crate::schema::Holdout>,
) -> Result<Started, Error> {
    let on = |check| !config.loop_config.opt_out.contains(&check);
    let mut taking = crate::inputs::Taking {
        root: &project.root,
        command: config.loop_config.verify.verify_command.as_deref(),
        patterns: &config.loop_config.sealed,
        checks: &on,
        handed: crate::inputs::Handed::default(),
    };
    let mut inputs = crate::inputs::Inputs::take(&mut taking)?;
    if config.loop_config.limits.stall_limit > 0 {
        state.fields.progress.stall.tree_fingerprint = Some(crate::treeprobe::probe(&project.root).fingerprint);
    }
    let fingerprint = state.fields.progress.stall.tree_fingerprint.as_deref();
    let (checkpoints, track) =
        crate::checkpoint::start(&project, &state.fields.config.loop_id, fingerprint, config.checkpoints);
    state.fields.progress.checkpoints = track;
    let closure_files = inputs
        .derived
        .as_ref()
        .map_or((0, 0), |c| (c.existing_files(), c.files.len()));
    let tests = inputs
        .tests
        .inventory
        .as_ref()
        .map_or((0, 0), |i| (i.files.len(), i.test_count()));
    let own_tests = taking.handed.own_tests;
    let stamps = inputs.data.copies.stamps(&project.root);
    let mut room = build_room(&store, &project, config)?;
    let placed = match &mut room {
        Some((room, recorded, env)) => {
            let inline = inputs
                .tests
                .inventory
                .as_ref()
                .map(|i| i.inline_sources().cloned().collect());
            let placed = build_tree(&store, &project, room, recorded, &inputs.data.copies, inline)?;
            let mut plane = crate::oracle::room_plane(room.dir());
            if let Some(placed) = &placed {
                placed.confine(&project.root, env, &mut plane);
            }
            placed.map(|placed| (placed, plane))
        }
        None => None,
    };
    // The baseline runs on the tree as the user left it, before the agent's first turn (the slash command's
    // pre-executed block finishes before the model is asked anything).
    let baseline_began = std::time::Instant::now();
    let baseline = if config.baseline {
        let budget = config.from_slash_command.then(slash_command_budget);
        let env = room.as_ref().map(|(_, _, env)| env.as_slice());
        let plane = match (&placed, &room) {
            (Some((_, plane)), _) => Some(plane.clone()),
            (None, Some((room, _, _))) => Some(crate::oracle::room_plane(room.dir())),
            (None, None) => None,
        };
        let placed = placed
            .as_ref()
            .zip(room.as_ref())
            .map(|((placed, _), (room, _, _))| (placed, room.dir()));
        crate::oracle::baseline(
            &project,
            &state.fields,
            budget,
            inputs.derived.as_ref(),
            env,
            plane.as_ref(),
            placed,
        )?
    } else {
        None
    };
    let baseline = match baseline {
        Some((mut baseline, observed, saw_outside)) => {
            // The room's records of the run (minitest's and RSpec's events, PHPUnit's own reports, GoogleTest's) name the tests
            // their runners' output does not (see `room::Room::add_named`); `--report` names them itself, and a
            // cut baseline keeps none.
            if let Some((room, _, _)) = &room
                && state.fields.config.verify.report.is_none()
                && baseline.cut.is_none()
            {
                let runners = inputs.derived.as_ref().map_or(&[][..], |c| c.runners.as_slice());
                room.add_named(runners, &mut baseline.results);
            }
            store.save_baseline(&project, &baseline)?;
            // Where make's plan for the verify's goals was recorded, it judges the makefiles.
            if let (Some(plan), Some(derived)) = (&baseline.make, inputs.derived.as_mut()) {
                derived.leave_makefiles_to(plan);
            }
            // Where a runner's configuration was resolved, the resolution judges its files key by key.
            if let Some(derived) = inputs.derived.as_mut() {
                derived.leave_configs_to(&baseline.js_configs, &project.root);
                carry_judged_configs(&store, &project, &baseline.js_configs, derived)?;
                // Where the baseline was traced, a runner's resolved configuration is judged by the version that ran
                // and the modules its tests imported.
                if let crate::closure::observed::Tracing::Traced { .. } = observed.tracing {
                    derived.pin_resolution(baseline.runner_version, &observed.used, &project.root);
                }
            }
            inputs.observed = Some(observed);
            if let Some((room, _, _)) = &room
                && config.snapshot
            {
                take_snapshot(&store, &project, room, &saw_outside)?;
            }
            inputs
                .data
                .copies
                .drop_run_outputs(&project.root, &stamps, |path| own_tests.iter().any(|t| t == path));
            if let (Some((room, _, _)), Some(_)) = (&room, &placed) {
                let inventory = inputs.tests.inventory.as_ref();
                let new_test = inventory.map(crate::testseal::Inventory::new_test_namer);
                release_run_outputs(
                    &store,
                    &project,
                    room,
                    |path| own_tests.iter().any(|t| t == path),
                    |path| new_test.as_ref().is_some_and(|named| named(path)),
                )?;
            }
            if let Some((room, recorded, _)) = &mut room {
                recorded.take_report(room, &baseline.results);
                store.save_companion(&project, crate::seal::ROOM, recorded)?;
            }
            Some(baseline)
        }
        None => None,
    };
    let holdout_tests = match (&holdout, &config.loop_config.verify.verify_command) {
        (Some(holdout), Some(command)) if config.baseline => {
            // Inside the slash command both runs share its budget; with none left, the names stay unknown.
            let left = config
                .from_slash_command
                .then(|| slash_command_budget().saturating_sub(baseline_began.elapsed().as_secs()));
            match left.map_or(config.loop_config.verify.verify_timeout, |left| {
                left.min(config.loop_config.verify.verify_timeout)
            }) {
                0 => None,
                timeout => Some(
                    crate::oracle::holdout::baseline(
                        &project,
                        holdout,
                        command,
                        &state.fields.config.loop_id,
                        timeout,
                        baseline.as_ref(),
                        room.as_ref()
                            .map(|(room, _, env)| (env.as_slice(), room.dir().to_path_buf())),
                    )?
                    .results
                    .len(),
                ),
            }
        }
        _ => None,
    };
    let seal = Seal {
        project_root: project.canonical_root(),
        fields: state.fields.clone(),
        task: state.task.clone(),
        files: Default::default(),
        ended: false,
        history: None,
        logs: Vec::new(),
        closure: None,
        test_files: Vec::new(),
        mirror_unwritten: false,
        mirror_sha256: None,
        last_stop: None,
        holdout: holdout.clone(),
    };
    let mut active = ActiveLoop {
        project,
        store,
        seal,
        tamper: Vec::new(),
        warnings: Vec::new(),
    };
    inputs.store(&mut active)?;
    let sealed_files = active.seal.files.len();
    active.save(&state)?;
    let start_commit = state.fields.progress.checkpoints.as_ref().and_then(|t| t.last.as_ref());
    let init = Init {
        verify_command: config.loop_config.verify.verify_command.clone(),
        session_id: config.session_id.clone(),
        max_iterations: config.loop_config.limits.max_iterations,
        sealed_files: sealed_files as u64,
        closure_files: closure_files.0 as u64,
        test_files: tests.0 as u64,
        tests: tests.1 as u64,
        verify_detected: config
            .verify_detected
            .as_ref()
            .map(|found| crate::messages::detect_reason(crate::schema::Speech::En, &found.why)),
        driver: config.driver,
        checkpoint: start_commit.map(|taken| taken.commit.clone()),
        baseline: baseline.as_ref().map(|b| BaselineRun {
            exit: b.exit,
            timed_out: b.timed_out,
            duration_ms: b.duration_ms,
            tests: b.tests_ran(),
            failing: b.failing().into_iter().take(20).map(str::to_string).collect(),
        }),
        task: Some(config.task.clone()),
        max_duration: config.loop_config.limits.max_duration,
        max_tokens: config.loop_config.limits.max_tokens,
        max_cost: config.loop_config.limits.max_cost.or(config.run_max_cost),
    };
    let record = Record::new(&state.fields.config.loop_id, 1, Event::Init(init));
    active.record(&record)?;
    let project = active.project;
    Ok(Started {
        state,
        sealed_files,
        checkpoints,
        closure_files,
        tests,
        baseline,
        room: room.map(|(room, recorded, _)| recorded.describe(&room)),
        holdout: holdout.map(|h| (h, holdout_tests)),
        project,
    })
}

/// Records the environment of this setup and builds the loop's oracle room, empty (see `room`); with the
/// environment of the baseline run. `None` without a verify command, or with `LOOPGATE_ROOM=0` (the run is then
/// as before the room: the process's environment and the shared caches).
fn build_room(
    store: &Store,
    project: &Project,
    config: &Config,
) -> Result<Option<(crate::room::Room, crate::room::Recorded, crate::room::Env)>, Error> {
    let Some(command) = &config.loop_config.verify.verify_command else {
        return Ok(None);
    };
    if std::env::var_os(crate::room::OFF_ENV).is_some_and(|v| v == "0") {
        return Ok(None);
    }
    let recorded = crate::room::Recorded::take(std::env::vars_os(), &project.root, command);
    let room = crate::room::Room::at(store.room_dir(project));
    room.rebuild(&recorded).map_err(|source| Error::Io {
        action: "build the oracle's room",
        path: room.dir().to_path_buf(),
        source,
    })?;
    room.seed(&recorded, &crate::room::caches::seeds_dir(), &project.root);
    store.save_companion(project, crate::seal::ROOM, &recorded)?;
    let env = room.env(&recorded, |name| std::env::var_os(name));
    Ok(Some((room, recorded, env)))
}

/// Holds by content what the baseline read outside the project, and keeps absent what it looked for there in
/// vain (`saw`), for the loop's later runs (see `room::snapshot`). A snapshot that cannot be taken (the store's file system full) fails setup: a loop whose
/// oracle would read the agent's edits outside the project is not one to start silently.
fn take_snapshot(
    store: &Store,
    project: &Project,
    room: &crate::room::Room,
    saw: &crate::room::snapshot::Saw,
) -> Result<(), Error> {
    if std::env::var_os(crate::room::snapshot::OFF_ENV).is_some_and(|v| v == "0") {
        return Ok(());
    }
    let dir = room.snapshot_dir();
    let root = project.root.canonicalize().unwrap_or_else(|_| project.root.clone());
    let mut snapshot = crate::room::snapshot::Snapshot::take(&saw.read, &dir, &root).map_err(|source| Error::Io {
        action: "hold what the baseline read outside the project in",
        path: dir.clone(),
        source,
    })?;
    snapshot.absent = saw
        .absent
        .iter()
        .filter_map(|path| path.to_str().map(str::to_string))
        .collect();
    snapshot.binaries.clone_from(&saw.binaries);
    store.save_companion(project, crate::seal::SNAPSHOT, &snapshot)?;
    Ok(())
}

/// Leaves writable, in the oracle's later runs, the test data the baseline run wrote in the room's tree (a report
/// or a log its tests write beside themselves: output, not the tests' input), and records what it made there
/// that a sync would not carry (`Synced::made_by_run`; `is_new_test` names a new test file): the user's run makes
/// it again at every promise.
fn release_run_outputs(
    store: &Store,
    project: &Project,
    room: &crate::room::Room,
    is_test: impl Fn(&str) -> bool,
    is_new_test: impl Fn(&str) -> bool,
) -> Result<(), Error> {
    let tree = room.dir().join(crate::room::tree::PLACE);
    if let Some(mut synced) = store.load_companion::<crate::room::Synced>(project, crate::seal::ROOM_TREE)? {
        let released = synced.release_run_outputs(&tree, is_test);
        let made = synced.made_by_run(&tree, is_new_test).unwrap_or_default();
        if !(released.is_empty() && made.is_empty()) {
            synced.made_by_baseline = made.into_iter().collect();
            store.save_companion(project, crate::seal::ROOM_TREE, &synced)?;
        }
    }
    Ok(())
}

/// Has the room's tree carry the configuration files left to what their runner resolves (`closure::js_config`)
/// when they are new, and those the closure reads whole as data, key by key (`Scope::reads_all_of_it`: a
/// `.cargo/config.toml`): the reading before each promise's run, and the run, must see them.
fn carry_judged_configs(
    store: &Store,
    project: &Project,
    resolved: &[crate::closure::js_config::Resolved],
    derived: &crate::closure::Closure,
) -> Result<(), Error> {
    let read_whole: Vec<String> = derived
        .files
        .iter()
        .filter(|f| f.scope.reads_all_of_it() && !std::path::Path::new(&f.path).is_absolute())
        .map(|f| f.path.clone())
        .collect();
    if resolved.is_empty() && read_whole.is_empty() {
        return Ok(());
    }
    if let Some(mut synced) = store.load_companion::<crate::room::Synced>(project, crate::seal::ROOM_TREE)? {
        synced
            .judged
            .extend(resolved.iter().flat_map(|r| r.files.iter().cloned()).chain(read_whole));
        store.save_companion(project, crate::seal::ROOM_TREE, &synced)?;
    }
    Ok(())
}

/// The room's tree for the baseline run (see `room::tree`), mounted where this machine can, else at the copy's
/// own path: the baseline's files are recorded (what is absent now stays out of later runs where a runner would
/// load it on its own) and the tree is copied. Where it cannot be prepared after all, the loop's runs stand in
/// the project's own tree and the room says why (setup's line and `status`).
///
/// Read-only in the later runs: the sealed test files and data (`copies`), and the source files that hold
/// sealed inline tests (`inline`, Rust's `mod tests`). Those are the agent's code, carried as the agent left
/// them, but nothing of a run — a build script, new or old — may rewrite their tests after the promise judged
/// them; a run writes nothing else there (build scripts generate code into `OUT_DIR` or files of their own).
fn build_tree(
    store: &Store,
    project: &Project,
    room: &crate::room::Room,
    recorded: &mut crate::room::Recorded,
    copies: &crate::testswap::Copies,
    inline: Option<Vec<String>>,
) -> Result<Option<crate::room::Placed>, Error> {
    if !crate::room::TreeState::in_tree(recorded.tree.as_ref()) {
        return Ok(None);
    }
    let sealed = copies.files.keys().chain(&copies.uncopied);
    let built = crate::room::Synced::baseline(&project.root, sealed).and_then(|mut synced| {
        synced.sealed.extend(inline.into_iter().flatten());
        synced.outside = crate::room::outside::Outside::take(&recorded.vars, &project.root.canonicalize()?);
        // The baseline is the user's own run before the agent's first turn: nothing is bound read-only for it,
        // so what its tests write beside themselves (a report, a log) can be told apart afterwards
        // (`release_run_outputs`).
        let read_only = std::mem::take(&mut synced.sealed);
        let placed = room.place_tree(
            recorded.tree.as_ref(),
            &project.root,
            &recorded.vars,
            &mut synced,
            None,
            &[],
        )?;
        synced.sealed = read_only;
        Ok((placed.map(|(placed, _)| placed), synced))
    });
    match built {
        Ok((placed, synced)) => {
            store.save_companion(project, crate::seal::ROOM_TREE, &synced)?;
            Ok(placed)
        }
        Err(err) => {
            recorded.tree = Some(crate::room::TreeState::Fallback {
                why: format!("its tree could not be built: {err}"),
            });
            store.save_companion(project, crate::seal::ROOM, recorded)?;
            Ok(None)
        }
    }
}

/// Refuses to replace another session's loop without `--force`; ends a replaced loop as `cancelled`.
fn replace_existing(project: &Project, config: &Config) -> Result<(), Error> {
    match lookup(project)? {
        Lookup::None => Ok(()),
        Lookup::Unsealed(path) => std::fs::remove_file(&path).map_err(|source| Error::Io {
            action: "remove unsealed state file",
            path,
            source,
        }),
        Lookup::Loop(active) => {
            let fields = &active.seal.fields;
            let other = !fields.progress.session_id.is_empty() && fields.progress.session_id != config.session_id;
            if other && !config.force {
                let run_pid = fields.progress.driver.map(|Driver::Run { pid }| pid);
                return Err(Error::Conflict {
                    session: fields.progress.session_id.clone(),
                    loop_id: fields.config.loop_id.clone(),
                    run_pid,
                    run_alive: run_pid.is_some_and(crate::process::alive),
                });
            }
            let record = Record::new(
                active.loop_id(),
                fields.progress.iteration,
                Event::Cancelled(Reason::new("replaced by a new loop")),
            );
            eprint!("{}", active.end(&record)?);
            Ok(())
        }
    }
}

/// The loop's first state: the configuration setup validated, with its id and start time, and fresh progress.
fn new_state(config: &Config) -> State {
    let now = chrono::Utc::now();
    let fields = StateFields {
        config: LoopConfig {
            loop_id: new_loop_id(now),
            started_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            ..config.loop_config.clone()
        },
        progress: LoopProgress {
            session_id: config.session_id.clone(),
            driver: config.driver,
            ..LoopProgress::default()
        },
    };
    State {
        fields,
        task: config.task.clone(),
    }
}

/// `lg-20261121T193700Z-3f9a1c`: sortable by start time, unique enough to tell loops apart in one history.
fn new_loop_id(now: chrono::DateTime<chrono::Utc>) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_i64(now.timestamp_nanos_opt().unwrap_or_default());
    format!(
        "lg-{}-{:06x}",
        now.format("%Y%m%dT%H%M%SZ"),
        hasher.finish() & 0xff_ffff
    )
}

#[cfg(test)]
mod tests;
