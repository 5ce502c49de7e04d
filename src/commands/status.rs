//! `loopgate status`: the project's loop at a glance, for people (`--json` for scripts).
//!
//! Everything shown comes from the seal (authoritative) and the history; the state file is not trusted here
//! either. With no loop running, the outcome of the last loop is shown instead. The human view fits 80 columns:
//! a longer line folds under the value column. It shows the baseline until the first verify, a verify running
//! now (`verify_lock`), who ran the last verify (a self-check, or a stop at a promise) and a legend of the
//! trajectory's glyphs.

mod holdout;
mod inputs;
mod room;

use serde_json::{Value, json};

use crate::error::Error;
use crate::exit_codes;
use crate::history::{self, Record, Status};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;
use crate::state::{LoopStatus, State, VerifyOn};

/// The terminal width the human view fits (longer lines fold under the value column).
const WIDTH: usize = 80;
/// Where the values of `  label:      value` lines start.
const VALUE_COLUMN: usize = 15;

/// Runs `loopgate status`.
pub(crate) fn run(json_out: bool) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let history_path = project.history_path();
    let io = |source| Error::Io {
        action: "read",
        path: history_path.clone(),
        source,
    };
    // Only the records of one loop are parsed (the history holds every loop the project ever ran).
    let report = match lookup(&project)? {
        Lookup::Loop(active) => {
            // The latest events and the last verify, read backwards.
            let floor = active.seal.history.as_ref().map_or(0, |mark| mark.start);
            let tail = history::read_tail(&history_path, active.loop_id(), floor).map_err(io)?;
            let events = Trajectory {
                events: tail.records,
                truncated: tail.truncated,
            };
            let mut report = loop_report(
                &active.state(),
                &events,
                tail.last_verify.as_ref(),
                active.seal.files.len(),
            );
            report["turn_ended"] = turn_ended(&active.seal.fields, events.events.last()).into();
            report["baseline"] = baseline(&events.events);
            report["verify_running"] = crate::verify_lock::running(&project).into();
            // A companion that cannot be read leaves the seal's own inputs to show.
            let sealed = crate::inputs::Inputs::load_to_describe(&active)
                .unwrap_or_else(|_| crate::inputs::Inputs::in_seal(&active.seal));
            report["oracle_inputs"] = inputs::report(&active.seal, &sealed);
            report["room"] = room::report(&active).into();
            if let Some(held) = &active.seal.holdout {
                report["holdout"] = holdout::report(held);
            }
            let plane = active.store.control_plane(&active.project, &active.seal.fields.loop_id);
            report["control_plane"] = plane.to_string().into();
            let (spent, runs) = crate::commands::run::spent_in(&project, active.loop_id());
            if runs > 0 {
                report["cost"] = serde_json::to_value(&spent).unwrap_or_default();
            }
            report
        }
        Lookup::Unsealed(path) => json!({"state": "unsealed", "state_file": path}),
        Lookup::None => {
            let last_loop = match history::read_last(&history_path).map_err(io)? {
                Some(last) => {
                    let records = history::read_loop(&history_path, &last.loop_id).map_err(io)?.records;
                    Some(last_loop(&records, &last))
                }
                None => None,
            };
            json!({"state": "none", "last_loop": last_loop})
        }
    };
    if json_out {
        crate::say(serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        crate::say(crate::printable::printable(&render(&report, &project)));
    }
    Ok(exit_codes::OK)
}

/// `events`: the loop's records (at least the fields the trajectory reads); `last_verify`: its last record with
/// a verify result (`duration_ms`) or a broken seal (`sealed_changes`), whole.
/// The latest events of the running loop, and whether earlier ones were left out.
struct Trajectory {
    events: Vec<Record>,
    truncated: bool,
}

fn loop_report(state: &State, trajectory: &Trajectory, last_verify: Option<&Record>, sealed_files: usize) -> Value {
    let f = &state.fields;
    let elapsed = f
        .started()
        .map(|start| chrono::Utc::now().signed_duration_since(start).num_seconds().max(0))
        .ok();
    let last_verify = last_verify.map(verify_summary);
    json!({
        "state": if f.status == LoopStatus::Paused { "paused" } else { "running" },
        "loop_id": f.loop_id,
        "task": state.task,
        "iteration": f.iteration,
        "max_iterations": f.max_iterations,
        "elapsed_secs": elapsed,
        "max_duration_secs": f.max_duration,
        "promise_rejections": f.promise_rejections,
        "rejections_in_a_row": f.rejections_in_a_row,
        "verify_command": f.verify_command,
        "verify_timeout": f.verify_timeout,
        "verify_on": if f.verify_on == VerifyOn::Always { "always" } else { "promise" },
        "completion_promise": f.completion_promise,
        "session_id": f.session_id,
        "driver": f.driver.map(|crate::schema::Driver::Run { pid }| {
            json!({"kind": "run", "pid": pid, "running": crate::process::alive(pid)})
        }),
        "pause_reason": f.pause_reason,
        "sealed": f.sealed,
        "sealed_files": sealed_files,
        "last_verify": last_verify,
        "trajectory": format!(
            "{}{}",
            if trajectory.truncated { "…" } else { "" },
            crate::trajectory::strip(history::of_loop(&trajectory.events, &f.loop_id))
        ),
        "escalation": crate::trajectory::escalation(f.promise_rejections, f.iteration),
        "unchanged_streak": f.unchanged_streak,
        "stall_limit": f.stall_limit,
        "tokens_used": f.max_tokens.map(|_| f.tokens_used),
        "max_tokens": f.max_tokens,
        "best_score": f.best_score,
    })
}

/// What ended the agent's last turn, when the loop's latest record says a turn ended that loopgate had asked to
/// go on: Claude Code's block cap, or anything else (`turn_ended`). `None` once the loop moved on.
fn turn_ended(fields: &crate::state::StateFields, latest: Option<&Record>) -> Option<String> {
    let latest = latest?;
    let cap_reached = match latest.status() {
        Status::BlockCap => true,
        Status::TurnEnded => false,
        Status::StopFailure => {
            let line = crate::messages::cap::stop_failure(fields.lang, None, latest.iteration);
            return Some(line.trim_start_matches("loopgate: ").to_string());
        }
        _ => return None,
    };
    Some(crate::messages::cap::status_line(
        fields.lang,
        cap_reached,
        latest.iteration,
    ))
}

/// The baseline run at setup (from the loop's `init` record, when the tail still holds it), with its description.
fn baseline(events: &[Record]) -> Value {
    let run = events.iter().find_map(|r| match &r.event {
        history::Event::Init(init) => init.baseline.as_ref(),
        _ => None,
    });
    run.map_or(Value::Null, |run| {
        let mut value = serde_json::to_value(run).unwrap_or_default();
        value["describe"] = run.describe().into();
        value
    })
}

/// The last verify in `--json`: the record's verify result under the history's keys, with its iteration, status,
/// time and its description (the one `loopgate history` and the `run` table use).
fn verify_summary(record: &Record) -> Value {
    let mut value = json!({
        "iteration": record.iteration,
        "status": record.status().as_str(),
        "timestamp": record.time(),
        "passed": record.status() == Status::Complete,
        // Who ran it: `loopgate verify` (a self-check), or a stop (at a promise, or every stop with `verify_on:
        // always`).
        "kind": match record.status() {
            Status::SelfCheck => "self-check",
            Status::PromiseRejected | Status::Complete => "promise",
            _ => "stop",
        },
    });
    if let (Some(map), Some(verify)) = (value.as_object_mut(), record.event.verify()) {
        if let Ok(Value::Object(fields)) = serde_json::to_value(verify) {
            map.extend(fields.into_iter().filter(|(key, _)| key != "verify_tail"));
        }
        map.insert("describe".into(), Value::from(verify.describe()));
        // `exit` was this object's name for `verify_exit` before the history was typed; kept for `jq` users.
        map.insert("exit".into(), json!(verify.exit));
        map.insert(
            "passed".into(),
            Value::from(verify.passed || record.status() == Status::Complete),
        );
    }
    value
}

fn last_loop(records: &[Record], last: &Record) -> Value {
    let final_record = history::of_loop(records, &last.loop_id)
        .filter(|r| r.status().ends_loop())
        .last();
    json!({
        "loop_id": last.loop_id,
        "outcome": final_record.map(|r| r.status().as_str()),
        "iteration": final_record.map_or(last.iteration, |r| r.iteration),
        "timestamp": final_record.map_or(last.time(), Record::time),
    })
}

/// The human view of a report.
fn render(report: &Value, project: &Project) -> String {
    let s = |key: &str| report.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |key: &str| report.get(key).and_then(Value::as_u64).unwrap_or(0);
    match s("state").as_str() {
        "none" => {
            let mut out = format!("loopgate: no loop in {}", project.root.display());
            if let Some(last) = report.get("last_loop").filter(|v| !v.is_null()) {
                let outcome = last
                    .get("outcome")
                    .and_then(Value::as_str)
                    .unwrap_or("still open (no final record)");
                out.push_str(&format!(
                    "\nlast loop: {} — {outcome} at iteration {}",
                    last.get("loop_id").and_then(Value::as_str).unwrap_or("?"),
                    last.get("iteration").and_then(Value::as_u64).unwrap_or(0)
                ));
            }
            out
        }
        "unsealed" => format!(
            "loopgate: `{}` has no seal and is not enforced; `loopgate cancel` removes it",
            s("state_file")
        ),
        state => {
            let max = n("max_iterations");
            let of = if max > 0 {
                format!(" / {max}")
            } else {
                " (no limit)".to_string()
            };
            let elapsed = report
                .get("elapsed_secs")
                .and_then(Value::as_u64)
                .map_or("?".into(), crate::duration::format_secs);
            let limit = report
                .get("max_duration_secs")
                .and_then(Value::as_u64)
                .map_or(String::new(), |d| format!(" of {}", crate::duration::format_secs(d)));
            let verify = report.get("verify_command").and_then(Value::as_str).map_or_else(
                || "none (honor system)".to_string(),
                |cmd| format!("{cmd}  (timeout {}s, on {})", n("verify_timeout"), s("verify_on")),
            );
            let task = s("task");
            let task_line = task.lines().next().unwrap_or("");
            let more = if task.lines().count() > 1 { " …" } else { "" };
            let mut out = format!(
                "loopgate: loop {} — {state}\n  task:        {task_line}{more}\n  iteration:   {}{of}\n  elapsed:     {elapsed}{limit}\n  rejections:  {} ({} in a row)\n  verify:      {verify}\n  session:     {}",
                s("loop_id"),
                n("iteration"),
                n("promise_rejections"),
                n("rejections_in_a_row"),
                if s("session_id").is_empty() {
                    "none (waiting to be adopted)".to_string()
                } else {
                    s("session_id")
                },
            );
            if let Some(plane) = report.get("control_plane").and_then(Value::as_str) {
                out.push_str(&format!("\n  control plane: {plane}"));
            }
            if let Some(driver) = report.get("driver").filter(|d| !d.is_null()) {
                let pid = driver.get("pid").and_then(Value::as_u64).unwrap_or(0);
                let gone = if driver.get("running").and_then(Value::as_bool) == Some(false) {
                    ", not running: `loopgate run --resume -- AGENT…` continues the loop"
                } else {
                    ""
                };
                out.push_str(&format!("\n  driver:      loopgate run (pid {pid}{gone})"));
            }
            let strip = s("trajectory");
            if !strip.is_empty() {
                out.push_str(&format!("\n  trajectory:  {strip}"));
                out.push_str(&format!("\n  legend:      {}", crate::trajectory::legend(&strip)));
            }
            out.push_str(&format!("\n  escalation:  {}", s("escalation")));
            if let Some(ended) = report.get("turn_ended").and_then(Value::as_str) {
                out.push_str(&format!("\n  turn:        {ended}"));
            }
            if let Some(max) = report.get("max_tokens").and_then(Value::as_u64) {
                out.push_str(&format!("\n  tokens:      {} / {max}", n("tokens_used")));
            }
            if let Some(spent) = report
                .get("cost")
                .and_then(|c| serde_json::from_value::<crate::cost::Receipt>(c.clone()).ok())
            {
                out.push_str(&format!("\n  cost:        {}", crate::cost::describe(&spent)));
            }
            if let Some(running) = report.get("verify_running").and_then(Value::as_str) {
                out.push_str(&format!("\n  verifying:   now ({running})"));
            }
            match report.get("last_verify").filter(|v| !v.is_null()) {
                Some(last) => out.push_str(&format!("\n  last verify: {}", describe_verify(last))),
                None => {
                    if let Some(baseline) = report.pointer("/baseline/describe").and_then(Value::as_str) {
                        out.push_str(&format!("\n  baseline:    {baseline}"));
                    }
                }
            }
            if state == "paused" {
                out.push_str(&format!("\n  paused for:  {}", s("pause_reason")));
            }
            let sealed = report
                .get("sealed")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            if !sealed.is_empty() {
                let count = n("sealed_files");
                let plural = if count == 1 { "" } else { "s" };
                out.push_str(&format!("\n  user glob:   {sealed} ({count} file{plural})"));
            }
            if let Some(inputs) = report.get("oracle_inputs") {
                out.push_str(&inputs::render(inputs));
            }
            if let Some(room) = report.get("room").filter(|r| !r.is_null()) {
                out.push_str(&room::render(room));
            }
            if let Some(held) = report.get("holdout") {
                out.push_str(&holdout::render(held));
            }
            crate::printable::wrap(&out, WIDTH, VALUE_COLUMN)
        }
    }
}

/// `iteration 3 (promise): exit 1, 0.2s — 2 failed: …` (from the `describe` [`verify_summary`] put in the
/// report).
fn describe_verify(v: &Value) -> String {
    let iteration = v.get("iteration").and_then(Value::as_u64).unwrap_or(0);
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("stop");
    let text = v.get("describe").and_then(Value::as_str).unwrap_or("no verify");
    format!("iteration {iteration} ({kind}): {text}")
}
