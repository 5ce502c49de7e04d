//! `loopgate status`: the project's loop at a glance, for people (`--json` for scripts).
//!
//! Everything shown comes from the seal (authoritative) and the history; the state file is not trusted here
//! either. With no loop running, the outcome of the last loop is shown instead. The human view fits 80 columns:
//! a longer line folds under the value column. It shows the baseline until the first verify, a verify running
//! now (`verify_lock`), who ran the last verify (a self-check, or a stop at a promise) and a legend of the
//! trajectory's glyphs.
//!
//! One typed [`StatusReport`] is built, then rendered twice: by serde for `--json` (a public interface: its keys
//! are the serde names of these structs, pinned by the `status_*_json` snapshots in `tests/cli/`) and by
//! [`render`] for people, which reads the same fields — so a renamed key cannot show a silently wrong screen.

mod holdout;
mod inputs;
mod room;

use std::path::PathBuf;

use serde::{Serialize, Serializer};

use crate::error::Error;
use crate::exit_codes;
use crate::history::event::BaselineRun;
use crate::history::{self, Record, Status, VerifyResult};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;
use crate::state::{LoopStatus, State, VerifyOn};

/// The terminal width the human view fits (longer lines fold under the value column).
const WIDTH: usize = 80;
/// Where the values of `  label:      value` lines start.
const VALUE_COLUMN: usize = 15;

/// What `loopgate status` reports, whichever way it is shown; `state` names the variant in the JSON.
#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
enum StatusReport {
    Running(Box<LoopReport>),
    Paused(Box<LoopReport>),
    /// A state file without a seal: shown, never enforced.
    Unsealed {
        state_file: PathBuf,
    },
    /// No loop: the outcome of the last one the history holds, if any.
    None {
        last_loop: Option<LastLoop>,
        /// A tournament running in this repository (`loopgate run --candidates`): its candidates' rows.
        #[serde(skip_serializing_if = "Option::is_none")]
        tournament: Option<TournamentReport>,
    },
}

/// A running tournament as `status` shows it: the rows of its live table (`run::tournament::watch`).
#[derive(Debug, Serialize)]
struct TournamentReport {
    id: String,
    pid: Option<u32>,
    candidates: Vec<crate::commands::run::tournament::watch::Row>,
}

/// The tournament running in `project`'s repository, if one is (the latest running record of it).
fn running_tournament(project: &Project) -> Option<TournamentReport> {
    use crate::commands::run::tournament::record::{Status, Tournament};
    let repo = std::fs::canonicalize(&project.root).ok()?;
    let running = Tournament::all_of(&repo)
        .into_iter()
        .rfind(|t| t.status_now() == Status::Running)?;
    Some(TournamentReport {
        candidates: crate::commands::run::tournament::watch::rows_of(&running),
        id: running.id,
        pid: running.pid,
    })
}

/// The running (or paused) loop, in the order `--json` has always listed its keys.
#[derive(Debug, Serialize)]
struct LoopReport {
    loop_id: String,
    task: String,
    iteration: u64,
    max_iterations: u64,
    elapsed_secs: Option<u64>,
    max_duration_secs: Option<u64>,
    promise_rejections: u64,
    rejections_in_a_row: u64,
    verify_command: Option<String>,
    verify_timeout: u64,
    verify_on: VerifyOn,
    /// The verify command's own report the verdict reads (`--report junit:PATH`).
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<String>,
    completion_promise: String,
    session_id: String,
    driver: Option<DriverReport>,
    pause_reason: Option<String>,
    sealed: Vec<String>,
    sealed_files: usize,
    last_verify: Option<VerifySummary>,
    trajectory: String,
    escalation: String,
    unchanged_streak: u64,
    stall_limit: u64,
    tokens_used: Option<u64>,
    max_tokens: Option<u64>,
    /// The dollar budget (`--max-cost`, sealed with a loop inside Claude Code).
    #[serde(skip_serializing_if = "Option::is_none")]
    max_cost: Option<f64>,
    best_score: Option<f64>,
    /// What ended the agent's last turn (see [`turn_ended`]).
    turn_ended: Option<String>,
    baseline: Option<BaselineReport>,
    /// Who runs a verify now (`verify_lock`).
    verify_running: Option<String>,
    oracle_inputs: inputs::InputsReport,
    room: Option<room::RoomReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    holdout: Option<holdout::HoldoutReport>,
    /// The reviewer at a passing promise (`--review`) and what it last decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<ReviewReport>,
    control_plane: String,
    /// What the loop's agent runs cost so far (`loopgate run`'s receipts, or the turns' read from Claude Code's
    /// transcript with `--max-cost`), when any was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<crate::cost::Receipt>,
}

/// The loop's reviewer and its last decision.
#[derive(Debug, Serialize)]
struct ReviewReport {
    by: String,
    timeout_secs: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    last: Option<String>,
}

/// What drives the loop when it is not a Claude Code session.
#[derive(Debug, Serialize)]
struct DriverReport {
    kind: &'static str,
    pid: u32,
    running: bool,
}

/// The baseline run at setup, under the history's keys, with its description.
#[derive(Debug, Serialize)]
struct BaselineReport {
    #[serde(flatten)]
    run: BaselineRun,
    describe: String,
}

/// The last verify in `--json`: its record's iteration, status and time, who ran it, and the verify result under
/// the history's keys (without the output's tail) with its description — the one `loopgate history` and the
/// `run` table use.
#[derive(Debug, Serialize)]
struct VerifySummary {
    iteration: u64,
    status: &'static str,
    timestamp: String,
    passed: bool,
    /// Who ran it: `self-check` (`loopgate verify`), `promise` (a stop at a promise) or `stop` (every stop with
    /// `verify_on: always`).
    kind: &'static str,
    #[serde(flatten)]
    result: Option<VerifyDetail>,
}

/// The verify result part of [`VerifySummary`].
#[derive(Debug, Serialize)]
struct VerifyDetail {
    #[serde(flatten, serialize_with = "history_keys")]
    result: VerifyResult,
    describe: String,
    /// `exit` was this object's name for `verify_exit` before the history was typed; kept for `jq` users.
    exit: Option<i32>,
}

/// A verify result under the history's keys, less `passed` (the summary's own, which also counts a `complete`
/// record) and `verify_tail` (the log holds the output).
fn history_keys<S: Serializer>(result: &VerifyResult, serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = match serde_json::to_value(result) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    map.shift_remove("passed");
    map.shift_remove("verify_tail");
    map.serialize(serializer)
}

/// How the project's last loop ended, when none runs.
#[derive(Debug, Serialize)]
struct LastLoop {
    loop_id: String,
    /// The status of its final record; `None` when the loop has none (still open).
    outcome: Option<&'static str>,
    iteration: u64,
    timestamp: String,
    /// What the reviewer decided at its final promise (`--review`), as a line.
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<String>,
}

/// Runs `loopgate status`.
pub(crate) fn run(json_out: bool) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let report = report(&project)?;
    if json_out {
        crate::say(serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        crate::say(crate::printable::printable(&render(&report, &project)));
    }
    Ok(exit_codes::OK)
}

/// The report of the project's loop, from the seal and the history. Only the records of one loop are parsed
/// (the history holds every loop the project ever ran).
fn report(project: &Project) -> Result<StatusReport, Error> {
    let history_path = project.history_path();
    let io = |source| Error::Io {
        action: "read",
        path: history_path.clone(),
        source,
    };
    Ok(match lookup(project)? {
        Lookup::Loop(active) => {
            // The latest events and the last verify, read backwards.
            let floor = active.seal.history.as_ref().map_or(0, |mark| mark.start);
            let tail = history::read_tail(&history_path, active.loop_id(), floor).map_err(io)?;
            let events = Trajectory {
                events: tail.records,
                truncated: tail.truncated,
            };
            // A companion that cannot be read leaves the seal's own inputs to show.
            let sealed = crate::inputs::Inputs::load_to_describe(&active)
                .unwrap_or_else(|_| crate::inputs::Inputs::in_seal(&active.seal));
            let extra = Extra {
                sealed_files: active.seal.files.len(),
                turn_ended: turn_ended(&active.seal.fields, events.events.last()),
                baseline: baseline(&events.events),
                verify_running: crate::verify_lock::running(project),
                oracle_inputs: inputs::report(&active.seal, &sealed),
                room: room::report(
                    &active,
                    matches!(
                        sealed.observed.as_ref().map(|o| &o.tracing),
                        Some(crate::closure::observed::Tracing::Traced { .. })
                    ),
                ),
                holdout: active.seal.holdout.as_ref().map(holdout::report),
                review: active.seal.fields.config.review.as_ref().map(|r| ReviewReport {
                    by: r.describe(),
                    timeout_secs: r.timeout,
                    last: events
                        .events
                        .iter()
                        .rev()
                        .find_map(|e| e.event.review())
                        .map(history::event::describe_review),
                }),
                control_plane: control_plane(&active),
                cost: {
                    let (spent, runs) = crate::commands::run::spent_in(project, active.loop_id());
                    (runs > 0).then_some(spent)
                },
            };
            let state = active.state();
            let report = Box::new(loop_report(&state, &events, tail.last_verify.as_ref(), extra));
            if state.fields.progress.status == LoopStatus::Paused {
                StatusReport::Paused(report)
            } else {
                StatusReport::Running(report)
            }
        }
        Lookup::Unsealed(state_file) => StatusReport::Unsealed { state_file },
        Lookup::None => {
            let last_loop = match history::read_last(&history_path).map_err(io)? {
                Some(last) => {
                    let records = history::read_loop(&history_path, &last.loop_id).map_err(io)?.records;
                    Some(last_loop(&records, &last))
                }
                None => None,
            };
            StatusReport::None {
                last_loop,
                tournament: running_tournament(project),
            }
        }
    })
}

/// The latest events of the running loop, and whether earlier ones were left out.
struct Trajectory {
    events: Vec<Record>,
    truncated: bool,
}

/// The parts of a loop's report that come from beside the state: the seal, its companions, the project.
struct Extra {
    sealed_files: usize,
    turn_ended: Option<String>,
    baseline: Option<BaselineReport>,
    verify_running: Option<String>,
    oracle_inputs: inputs::InputsReport,
    room: Option<room::RoomReport>,
    holdout: Option<holdout::HoldoutReport>,
    review: Option<ReviewReport>,
    control_plane: String,
    cost: Option<crate::cost::Receipt>,
}

/// `last_verify`: the loop's last record with a verify result (`duration_ms`) or a broken seal
/// (`sealed_changes`), whole.
/// How the loop's control plane is protected: the machine's confinement (`Store::control_plane`), unless the
/// agent CLI the loop was started from will not run loopgate's hooks (`install::ready`): then no protection is
/// claimed, and the line says why.
fn control_plane(active: &crate::lifecycle::ActiveLoop) -> String {
    let loop_id = &active.seal.fields.config.loop_id;
    let agent: Option<(String, String)> = active
        .store
        .load_companion(&active.project, crate::seal::AGENT)
        .ok()
        .flatten();
    if let Some((id, name)) = agent
        && id == *loop_id
        && let Some(agent) = crate::cli::Agent::from_name(&name)
        && let crate::commands::install::ready::Ready::No { why, fix } =
            crate::commands::install::ready::check(agent, &active.project.root, false)
    {
        return format!("unprotected ({why}; fix: {fix})");
    }
    active.store.control_plane(&active.project, loop_id).to_string()
}

fn loop_report(state: &State, trajectory: &Trajectory, last_verify: Option<&Record>, extra: Extra) -> LoopReport {
    let f = &state.fields;
    let elapsed = f
        .started()
        .map(|start| chrono::Utc::now().signed_duration_since(start).num_seconds().max(0))
        .ok()
        .and_then(|secs| u64::try_from(secs).ok());
    LoopReport {
        loop_id: f.config.loop_id.clone(),
        task: state.task.clone(),
        iteration: f.progress.iteration,
        max_iterations: f.config.limits.max_iterations,
        elapsed_secs: elapsed,
        max_duration_secs: f.config.limits.max_duration,
        promise_rejections: f.progress.rejections.promise_rejections,
        rejections_in_a_row: f.progress.rejections.rejections_in_a_row,
        verify_command: f.config.verify.verify_command.clone(),
        verify_timeout: f.config.verify.verify_timeout,
        verify_on: f.config.verify.verify_on,
        report: f.config.verify.report.as_ref().map(ToString::to_string),
        completion_promise: f.config.completion_promise.clone(),
        session_id: f.progress.session_id.clone(),
        driver: f
            .progress
            .driver
            .map(|crate::schema::Driver::Run { pid }| DriverReport {
                kind: "run",
                pid,
                running: crate::process::alive(pid),
            }),
        pause_reason: f.progress.pause_reason.clone(),
        sealed: f.config.sealed.clone(),
        sealed_files: extra.sealed_files,
        last_verify: last_verify.map(verify_summary),
        trajectory: format!(
            "{}{}",
            if trajectory.truncated { "…" } else { "" },
            crate::trajectory::strip(history::of_loop(&trajectory.events, &f.config.loop_id))
        ),
        escalation: crate::trajectory::escalation(f.progress.rejections.promise_rejections, f.progress.iteration),
        unchanged_streak: f.progress.stall.unchanged_streak,
        stall_limit: f.config.limits.stall_limit,
        tokens_used: f.config.limits.max_tokens.map(|_| f.progress.tokens.tokens_used),
        max_tokens: f.config.limits.max_tokens,
        max_cost: f.config.limits.max_cost,
        best_score: f.progress.score.best_score,
        turn_ended: extra.turn_ended,
        baseline: extra.baseline,
        verify_running: extra.verify_running,
        oracle_inputs: extra.oracle_inputs,
        room: extra.room,
        holdout: extra.holdout,
        review: extra.review,
        control_plane: extra.control_plane,
        cost: extra.cost,
    }
}

/// What ended the agent's last turn, when the loop's latest record says a turn ended that loopgate had asked to
/// go on: Claude Code's block cap, or anything else (`turn_ended`). `None` once the loop moved on.
fn turn_ended(fields: &crate::state::StateFields, latest: Option<&Record>) -> Option<String> {
    let latest = latest?;
    let cap_reached = match latest.status() {
        Status::BlockCap => true,
        Status::TurnEnded => false,
        Status::StopFailure => {
            let line = crate::messages::cap::stop_failure(fields.config.lang, None, latest.iteration);
            return Some(line.trim_start_matches("loopgate: ").to_string());
        }
        _ => return None,
    };
    Some(crate::messages::cap::status_line(
        fields.config.lang,
        cap_reached,
        latest.iteration,
    ))
}

/// The baseline run at setup (from the loop's `init` record, when the tail still holds it), with its description.
fn baseline(events: &[Record]) -> Option<BaselineReport> {
    let run = events.iter().find_map(|r| match &r.event {
        history::Event::Init(init) => init.baseline.as_ref(),
        _ => None,
    })?;
    Some(BaselineReport {
        run: run.clone(),
        describe: run.describe(),
    })
}

/// The last verify of a loop's report.
fn verify_summary(record: &Record) -> VerifySummary {
    let verify = record.event.verify();
    VerifySummary {
        iteration: record.iteration,
        status: record.status().as_str(),
        timestamp: record.time(),
        passed: verify.is_some_and(|v| v.passed) || record.status() == Status::Complete,
        kind: match record.status() {
            Status::SelfCheck => "self-check",
            Status::PromiseRejected | Status::Complete => "promise",
            _ => "stop",
        },
        result: verify.map(|verify| VerifyDetail {
            result: verify.clone(),
            describe: verify.describe(),
            exit: verify.exit,
        }),
    }
}

fn last_loop(records: &[Record], last: &Record) -> LastLoop {
    let final_record = history::of_loop(records, &last.loop_id)
        .filter(|r| r.status().ends_loop())
        .last();
    LastLoop {
        loop_id: last.loop_id.clone(),
        outcome: final_record.map(|r| r.status().as_str()),
        iteration: final_record.map_or(last.iteration, |r| r.iteration),
        timestamp: final_record.map_or(last.time(), Record::time),
        review: final_record
            .and_then(|r| r.event.review())
            .map(history::event::describe_review),
    }
}

/// The human view of a report.
fn render(report: &StatusReport, project: &Project) -> String {
    match report {
        StatusReport::None { last_loop, tournament } => {
            let mut out = format!("loopgate: no loop in {}", project.root.display());
            if let Some(t) = tournament {
                let pid = t.pid.map_or(String::new(), |pid| format!(" (pid {pid})"));
                out.push_str(&format!(
                    "\ntournament {} running{pid}:\n{}",
                    t.id,
                    crate::commands::run::tournament::watch::table(&t.candidates)
                ));
            }
            if let Some(last) = last_loop {
                let outcome = last.outcome.unwrap_or("still open (no final record)");
                out.push_str(&format!(
                    "\nlast loop: {} — {outcome} at iteration {}",
                    last.loop_id, last.iteration
                ));
                if let Some(review) = &last.review {
                    out.push_str(&format!("\n  {review}"));
                }
            }
            out
        }
        StatusReport::Unsealed { state_file } => format!(
            "loopgate: `{}` has no seal and is not enforced; `loopgate cancel` removes it",
            state_file.display()
        ),
        StatusReport::Running(report) => render_loop(report, "running"),
        StatusReport::Paused(report) => render_loop(report, "paused"),
    }
}

/// The human view of a running or paused loop.
fn render_loop(r: &LoopReport, state: &str) -> String {
    let of = if r.max_iterations > 0 {
        format!(" / {}", r.max_iterations)
    } else {
        " (no limit)".to_string()
    };
    let elapsed = r.elapsed_secs.map_or("?".into(), crate::duration::format_secs);
    let limit = r
        .max_duration_secs
        .map_or(String::new(), |d| format!(" of {}", crate::duration::format_secs(d)));
    let verify_on = if r.verify_on == VerifyOn::Always {
        "always"
    } else {
        "promise"
    };
    let verify = r.verify_command.as_ref().map_or_else(
        || "none (honor system)".to_string(),
        |cmd| format!("{cmd}  (timeout {}s, on {verify_on})", r.verify_timeout),
    );
    let task_line = r.task.lines().next().unwrap_or("");
    let more = if r.task.lines().count() > 1 { " …" } else { "" };
    let session = if r.session_id.is_empty() {
        "none (waiting to be adopted)"
    } else {
        &r.session_id
    };
    let mut out = format!(
        "loopgate: loop {} — {state}\n  task:        {task_line}{more}\n  iteration:   {}{of}\n  elapsed:     {elapsed}{limit}\n  rejections:  {} ({} in a row)\n  verify:      {verify}\n  session:     {session}",
        r.loop_id, r.iteration, r.promise_rejections, r.rejections_in_a_row,
    );
    if let Some(report) = &r.report {
        out.push_str(&format!(
            "\n  report:      {report}  (the verdict reads the tests from this JUnit XML, test by test)"
        ));
    }
    out.push_str(&format!("\n  control plane: {}", r.control_plane));
    if let Some(driver) = &r.driver {
        let gone = if driver.running {
            ""
        } else {
            ", not running: `loopgate run --resume -- AGENT…` continues the loop"
        };
        out.push_str(&format!("\n  driver:      loopgate run (pid {}{gone})", driver.pid));
    }
    if !r.trajectory.is_empty() {
        out.push_str(&format!("\n  trajectory:  {}", r.trajectory));
        out.push_str(&format!(
            "\n  legend:      {}",
            crate::trajectory::legend(&r.trajectory)
        ));
    }
    out.push_str(&format!("\n  escalation:  {}", r.escalation));
    if let Some(ended) = &r.turn_ended {
        out.push_str(&format!("\n  turn:        {ended}"));
    }
    if let Some(max) = r.max_tokens {
        out.push_str(&format!("\n  tokens:      {} / {max}", r.tokens_used.unwrap_or(0)));
    }
    match (&r.cost, r.max_cost) {
        (Some(spent), None) => out.push_str(&format!("\n  cost:        {}", crate::cost::describe(spent))),
        (Some(spent), Some(max)) => out.push_str(&format!(
            "\n  cost:        {} of --max-cost {}",
            crate::cost::describe(spent),
            crate::cost::dollars(max)
        )),
        (None, Some(max)) => out.push_str(&format!(
            "\n  cost:        no usage reported yet (--max-cost {} is measured from the agent's transcript)",
            crate::cost::dollars(max)
        )),
        (None, None) => {}
    }
    if let Some(running) = &r.verify_running {
        out.push_str(&format!("\n  verifying:   now ({running})"));
    }
    match &r.last_verify {
        Some(last) => out.push_str(&format!("\n  last verify: {}", describe_verify(last))),
        None => {
            if let Some(baseline) = &r.baseline {
                out.push_str(&format!("\n  baseline:    {}", baseline.describe));
            }
        }
    }
    if state == "paused" {
        out.push_str(&format!("\n  paused for:  {}", r.pause_reason.as_deref().unwrap_or("")));
    }
    if !r.sealed.is_empty() {
        let count = r.sealed_files;
        let plural = if count == 1 { "" } else { "s" };
        out.push_str(&format!(
            "\n  user glob:   {} ({count} file{plural})",
            r.sealed.join(", ")
        ));
    }
    out.push_str(&inputs::render(&r.oracle_inputs));
    if let Some(room) = &r.room {
        out.push_str(&room::render(room));
    }
    if let Some(review) = &r.review {
        let last = review.last.as_deref().map_or(String::new(), |l| format!("; last: {l}"));
        out.push_str(&format!(
            "\n  reviewer:    {} (timeout {}s){last}",
            review.by, review.timeout_secs
        ));
    }
    if let Some(held) = &r.holdout {
        out.push_str(&holdout::render(held));
    }
    crate::printable::wrap(&out, WIDTH, VALUE_COLUMN)
}

/// `iteration 3 (promise): exit 1, 0.2s — 2 failed: …` (the verify's description, or `no verify` for a record
/// without one).
fn describe_verify(v: &VerifySummary) -> String {
    let text = v.result.as_ref().map_or("no verify", |r| r.describe.as_str());
    format!("iteration {} ({}): {text}", v.iteration, v.kind)
}
