//! `loopgate run`: the sealed loop around any agent CLI, with a fresh agent process (a fresh context) each
//! iteration — the original Ralph loop, on the same engine as the Stop hook.
//!
//! The loop is started exactly as `setup` starts one (same validation, seal, state file, `init` record), bound
//! to a session id of this process (`run-<pid>-…`) that no Claude Code session ever has, so no Stop hook claims
//! it and `setup` refuses to replace it without `--force`. Each iteration runs the agent with the prompt, records
//! an `agent_run` history record (exit, signal, duration, output tail), then hands the agent's output to
//! [`crate::stop::at_stop`] — the very decision table of the Stop hook, with its abort / pause / promise
//! signals, the sealed verify, limits, stall breaker and tamper checks. Its [`crate::stop::Outcome`] is read
//! directly: a block means another iteration, whose prompt is the block's `reason`; a let-go ends the run with
//! how the loop ended (complete, a limit, aborted, paused or stalled) as the exit code.
//!
//! Modules: `options` (flags → config), `prompt` (what the agent gets, and which of its output counts),
//! `agent` (the process), `owner` (our loop in the project), `row` (one iteration's result), `screen` (what is
//! printed) and `display` (how: status line, colors); Ctrl-C is `crate::interrupt`.

mod agent;
pub(crate) mod agents;
mod display;
mod matrix;
mod options;
mod owner;
mod prompt;
mod row;
mod screen;
pub(crate) mod tournament;

use std::sync::Arc;
use std::time::Duration;

use crate::cli::RunArgs;
use crate::commands::setup;
use crate::error::Error;
use crate::exit_codes;
use crate::interrupt;
use crate::project::Project;
use crate::state::StateFields;
use crate::stop::Outcome;

use display::{Display, Phase, Style};
use options::{Options, Start};
use owner::{Ending, Owner};
pub(crate) use owner::{spent_in, spent_of};

/// What a loop's agent runs cost, as the end of `loopgate run` (and `loopgate cancel`) says it.
pub(crate) fn cost_line(spent: &crate::cost::Receipt) -> String {
    format!("loopgate: cost: {}", crate::cost::describe(spent))
}
use prompt::Via;
use row::Row;

/// The same agent failure (exit code and output) this many iterations in a row ends the run: the agent is not
/// working at all (bad flags, no credentials), and an unlimited loop would spin on it.
const MAX_SAME_AGENT_FAILURES: u32 = 3;

/// Runs `loopgate run`.
pub(crate) fn run(mut args: RunArgs) -> Result<u8, Error> {
    // A run seals (or, with `--force` / `--resume`, takes over) a loop itself: from inside Claude Code that
    // would let the agent replace its own oracle (see `control`).
    crate::control::refuse_inside_claude_code(
        &crate::control::Caller::from_env(),
        "start or take over a loop with `loopgate run`",
    )?;
    if let Some(dir) = &args.matrix.collect {
        return matrix::collect(dir);
    }
    if let Some(dir) = args.matrix.emit_matrix.clone() {
        return matrix::emit(args, &dir);
    }
    if let Some(dir) = args.matrix.oracle.take() {
        matrix::adopt(&dir, &Project::for_terminal())?;
        args.resume = true;
    }
    if args.setup.candidates.is_some() {
        return tournament::run(args);
    }
    if !args.tournament.agents.is_empty() {
        let t = &args.tournament;
        args.agent = agents::per_candidate(1, &t.agents, &t.models, &args.agent)?.remove(0);
    }
    let options = Options::from_args(args)?;
    let project = Project::for_terminal();
    let owner = Arc::new(Owner {
        project: project.clone(),
        session: options.session.clone(),
    });
    {
        let owner = Arc::clone(&owner);
        interrupt::install(move |signal| {
            let _ = owner.cancel(&format!("interrupted ({})", interrupt::name(signal)));
        })
        .map_err(|source| Error::Io {
            action: "install signal handlers for the loop in",
            path: project.root.clone(),
            source,
        })?;
    }
    let (state, first_prompt) = match &options.start {
        Start::New(config) => {
            let started = setup::start(config, project)?;
            let prompt = prompt::opening(&started.state);
            (started.state, prompt)
        }
        Start::Resume { force } => {
            let (state, pause_reason) = owner.adopt(*force)?;
            // A loop no agent has worked on yet (a tournament's candidate, set up and released: its history holds
            // its `init` and this adoption alone) opens with the task, not a handover: there is nothing to take
            // over.
            let untouched =
                crate::history::read_loop(&project.history_path(), &state.fields.config.loop_id).is_ok_and(|read| {
                    use crate::history::Status::{Init, Resumed};
                    read.records.iter().all(|r| matches!(r.status(), Init | Resumed))
                });
            let prompt = if untouched && pause_reason.is_none() {
                prompt::opening(&state)
            } else {
                prompt::resumed(&state, pause_reason.as_deref())
            };
            (state, prompt)
        }
    };
    let display = Display::new(options.verbosity);
    let mut runner = Runner {
        loop_id: state.fields.config.loop_id.clone(),
        max_iterations: state.fields.config.limits.max_iterations,
        options,
        owner,
        display,
        rows: Vec::new(),
        same_failures: 0,
        last_failure: None,
    };
    screen::header(&runner.display, &state, &runner.options);
    runner.display.start_ticker();
    // Killed outright (a tournament stopping a candidate past its grace, `kill -9`), this run cannot stop its
    // agent and verify: its warden does (`process::tether`).
    let _tether = crate::process::tether::arm(&runner.owner.project.root);
    Ok(runner.drive(first_prompt))
}

struct Runner {
    options: Options,
    owner: Arc<Owner>,
    display: Arc<Display>,
    loop_id: String,
    max_iterations: u64,
    rows: Vec<Row>,
    /// Iterations in a row in which the agent failed the same way, and how.
    same_failures: u32,
    last_failure: Option<(Option<i32>, Vec<u8>)>,
}

impl Runner {
    /// Iterates until the loop ends; returns the exit code.
    fn drive(&mut self, mut prompt: String) -> u8 {
        loop {
            if let Some(signal) = interrupt::requested() {
                return self.interrupted(signal);
            }
            let Some(fields) = self.owner.fields() else {
                let ending = self.owner.ending(&self.loop_id);
                return self.finish(&ending, None);
            };
            let iteration = fields.progress.iteration;
            screen::iteration(&self.display, &fields, &prompt);
            screen::status(&self.display, &fields, self.rows.last());
            let outcome = match self.run_agent(&prompt, &fields) {
                Ok(outcome) => outcome,
                Err(err) => return self.fail(&err, "the agent could not be started"),
            };
            if let Some(signal) = interrupt::requested() {
                return self.interrupted(signal);
            }
            let tail = outcome.tail_text();
            let receipt = crate::cost::from_output(&tail, &self.options.cost.prices);
            match self
                .owner
                .record_agent(iteration, &self.agent_text(), &outcome, receipt)
            {
                Ok(true) if !outcome.stopped => {}
                Ok(_) => {
                    let ending = self.owner.ending(&self.loop_id);
                    return self.finish(&ending, None);
                }
                Err(err) => return self.fail(&err, "loopgate could not record the agent's run"),
            }
            // A timed-out agent's output is cut short: the iteration counts as one without a signal.
            // An agent that reports in JSON (`claude -p --output-format json`) says its last message in `result`.
            let message = if outcome.timed_out {
                String::new()
            } else {
                prompt::agent_message(&crate::cost::result_text(&tail).unwrap_or(tail), &prompt)
            };
            let offset = self.owner.history_len();
            self.display.phase(Phase::Checking);
            let stop = crate::stop::at_stop(&self.owner.project, &self.owner.session, None, None, || message);
            if let Some(signal) = interrupt::requested() {
                return self.interrupted(signal);
            }
            let stop = match stop {
                Ok(stop) => stop,
                Err(err) => return self.fail(&err, "loopgate failed at the end of an iteration"),
            };
            let row = Row::new(iteration, &outcome, &self.owner.records_since(&self.loop_id, offset));
            self.display.line(&row.line(&self.display, self.max_iterations));
            self.rows.push(row);
            if let Some(fields) = self.owner.fields() {
                screen::status(&self.display, &fields, self.rows.last());
            }
            match stop {
                Some(Outcome::Block { reason, .. }) => {
                    prompt = reason;
                    if let Some(code) = self.over_budget() {
                        return code;
                    }
                    if let Some(code) = self.agent_keeps_failing(&outcome) {
                        return code;
                    }
                }
                Some(Outcome::LetGo { how, notice, .. }) => {
                    let ending = Ending::of(how).unwrap_or_else(|| self.owner.ending(&self.loop_id));
                    return self.finish(&ending, Some(notice));
                }
                // Not decided here: the loop was cancelled or taken over meanwhile.
                None => {
                    let ending = self.owner.ending(&self.loop_id);
                    return self.finish(&ending, None);
                }
            }
        }
    }

    fn run_agent(&self, prompt: &str, fields: &StateFields) -> Result<agent::AgentExit, Error> {
        let argv = prompt::argv(&self.options.agent, prompt, self.options.via);
        let env = [
            ("LOOPGATE_LOOP_ID", fields.config.loop_id.clone()),
            ("LOOPGATE_ITERATION", fields.progress.iteration.to_string()),
        ];
        let protect = self.owner.sealed_outside();
        let spec = agent::Spec {
            argv: &argv,
            protect: &protect,
            stdin: (self.options.via == Via::Stdin).then_some(prompt),
            cwd: &self.owner.project.root,
            env: &env,
            timeout: self.agent_deadline(fields),
        };
        self.display.phase(Phase::Agent);
        agent::run(&spec, &mut |bytes| self.display.agent_output(bytes), || {
            self.owner.still_running()
        })
        .map_err(|source| {
            let hint = match source.kind() {
                _ if source.raw_os_error() == Some(libc::E2BIG) => {
                    "; the prompt is too long to pass as an argument: use `--stdin`"
                }
                std::io::ErrorKind::NotFound => "; check that it is installed and on `PATH`",
                std::io::ErrorKind::PermissionDenied => "; check that it is an executable file",
                _ => "",
            };
            Error::AgentStart {
                command: self.options.agent[0].clone(),
                source,
                hint,
            }
        })
    }

    /// `--agent-timeout`, shortened to what is left of `--max-duration`.
    fn agent_deadline(&self, fields: &StateFields) -> Option<Duration> {
        let left = fields.config.limits.max_duration.and_then(|max| {
            // An unreadable `started_at` is reported by the Stop hook, which measures `--max-duration`; here the
            // agent just runs to `--agent-timeout`.
            let started = fields.started().ok()?;
            let elapsed = chrono::Utc::now()
                .signed_duration_since(started)
                .to_std()
                .unwrap_or_default();
            Some(
                Duration::from_secs(max)
                    .saturating_sub(elapsed)
                    .max(Duration::from_secs(1)),
            )
        });
        match (self.options.agent_timeout, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Counts iterations in which the agent failed exactly as the one before; ends the run at the limit.
    fn agent_keeps_failing(&mut self, outcome: &agent::AgentExit) -> Option<u8> {
        if outcome.succeeded() || outcome.timed_out {
            self.same_failures = 0;
            self.last_failure = None;
            return None;
        }
        let tail = outcome.tail.len().saturating_sub(1024);
        let failure = (outcome.exit_code, outcome.tail[tail..].to_vec());
        self.same_failures = if self.last_failure.as_ref() == Some(&failure) {
            self.same_failures + 1
        } else {
            1
        };
        self.last_failure = Some(failure);
        if self.same_failures < MAX_SAME_AGENT_FAILURES {
            return None;
        }
        let tail = outcome.tail_text();
        let said = tail
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map_or(String::new(), |line| format!(": {}", display::truncate(line, 160)));
        let reason = format!(
            "the agent `{}` failed the same way {} iterations in a row ({}{said}); check that it works on its own",
            self.options.agent[0],
            self.same_failures,
            outcome.result_text()
        );
        let _ = self.owner.cancel(&reason);
        self.finish(&Ending::Cancelled(reason.clone()), None);
        Some(exit_codes::FAILURE)
    }

    /// Ends the loop when `--max-cost` is spent (checked between iterations: the one that crossed it finished).
    fn over_budget(&self) -> Option<u8> {
        let max = self.options.cost.max_cost?;
        let (spent, _) = self.owner.spent(&self.loop_id);
        let dollars = spent.cost_usd.unwrap_or(0.0);
        if dollars < max {
            return None;
        }
        let reason = format!("the cost budget is spent: ${dollars:.4} of --max-cost ${max:.2}");
        let _ = self.owner.cancel(&reason);
        self.finish(&Ending::Cancelled(reason), None);
        Some(exit_codes::LIMIT_REACHED)
    }

    /// Prints the summary and the final line; returns the exit code of `ending`.
    fn finish(&self, ending: &Ending, system_message: Option<String>) -> u8 {
        self.display.finish();
        screen::summary(&self.display, &self.rows);
        let (spent, runs) = self.owner.spent(&self.loop_id);
        if runs > 0 {
            self.display.line(&cost_line(&spent));
        }
        screen::final_line(&self.display, ending, system_message, &self.loop_id, &self.agent_text());
        if let Ending::Paused { .. } = ending {
            let _ = self.owner.release();
        }
        ending.exit_code()
    }

    /// Ends the run on an error: the loop is recorded as cancelled with the reason, never left running.
    fn fail(&self, err: &Error, what: &str) -> u8 {
        let _ = self.owner.cancel(&format!("{what}: {err}"));
        self.display.finish();
        screen::summary(&self.display, &self.rows);
        self.display.line(&format!("loopgate: {err}"));
        err.exit_code()
    }

    /// The first Ctrl-C: wait for the watcher's bookkeeping, make sure the loop is cancelled, report, re-raise.
    fn interrupted(&self, signal: i32) -> u8 {
        interrupt::wait_handled();
        let _ = self.owner.cancel(&format!("interrupted ({})", interrupt::name(signal)));
        self.display.finish();
        screen::summary(&self.display, &self.rows);
        self.display.line(&self.display.paint(
            &format!(
                "loopgate: interrupted ({}): loop `{}` cancelled; the agent and the verify command were stopped",
                interrupt::name(signal),
                self.loop_id
            ),
            Style::Yellow,
        ));
        interrupt::reraise(signal)
    }

    /// The agent command as typed (prompt not filled in).
    fn agent_text(&self) -> String {
        self.options.agent.join(" ")
    }
}
