//! `loopgate checkpoints`: a loop's checkpoints, one line each — the iteration, when it was taken, how that stop
//! ended, what the verify said, and what changed since the checkpoint before (`--json` for scripts).
//!
//! Times, stops and verify results come from the history (the stop's own record); the checkpoints themselves
//! from git. A checkpoint that reused the one before (nothing changed) says so.

mod select;

use crate::printable::{pad, truncate};
use serde_json::{Value, json};

pub(crate) use select::{Selected, select};

use crate::checkpoint::Name;
use crate::checkpoint::list::{self, Change, Ref};
use crate::error::Error;
use crate::exit_codes;
use crate::history::{self, Event, Record, Status};
use crate::project::Project;

/// Runs `loopgate checkpoints`.
pub(crate) fn run(json_out: bool, loop_id: Option<&str>) -> Result<u8, Error> {
    let selected = select(Project::for_terminal(), loop_id)?;
    let records = history::read_loop(&selected.project.history_path(), &selected.loop_id)
        .map(|read| read.records)
        .unwrap_or_default();
    let rows = rows(&selected, &records)?;
    let report = json!({
        "loop_id": selected.loop_id,
        "running": selected.running,
        "keep": selected.keep.map(|k| format!("{k:?}").to_lowercase()),
        "checkpoints": rows,
        "other_loops": selected.others,
    });
    if json_out {
        crate::say(serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        crate::say(render(&report));
    }
    Ok(exit_codes::OK)
}

/// One JSON object per checkpoint.
fn rows(selected: &Selected, records: &[Record]) -> Result<Vec<Value>, Error> {
    let refs = &selected.refs;
    // What each checkpoint is compared with: the iteration before it; for a save, the latest iteration then.
    let from: Vec<Option<&Ref>> = refs
        .iter()
        .enumerate()
        .map(|(i, r)| match r.name {
            Name::Iteration(_) => refs[..i].iter().rev().find(|p| matches!(p.name, Name::Iteration(_))),
            Name::Save(_) => refs
                .iter()
                .rev()
                .find(|p| matches!(p.name, Name::Iteration(_)) && p.time <= r.time),
        })
        .collect();
    let pairs: Vec<(&str, &str)> = refs
        .iter()
        .zip(&from)
        .filter_map(|(r, from)| from.map(|f| (f.tree.as_str(), r.tree.as_str())))
        .collect();
    let mut changes = list::changes(&selected.git, &pairs)?.into_iter();
    Ok(refs
        .iter()
        .zip(&from)
        .map(|(r, from)| {
            let change = from.map(|f| (f, changes.next().unwrap_or_default()));
            row(r, change, records)
        })
        .collect())
}

fn row(r: &Ref, change: Option<(&Ref, Change)>, records: &[Record]) -> Value {
    let (stop, verify, time, note) = match r.name {
        Name::Iteration(0) => {
            let init = records.iter().find(|rec| rec.status() == Status::Init);
            (Some("start".to_string()), None, init.map(|rec| rec.time()), None)
        }
        Name::Iteration(n) => {
            let mine: Vec<&Record> = records.iter().filter(|rec| rec.iteration == n).collect();
            let stop = mine.iter().rev().find(|rec| is_stop(rec.status()));
            let verdict = mine.iter().rev().find(|rec| {
                matches!(
                    rec.status(),
                    Status::PromiseRejected | Status::VerifyFailed | Status::Complete
                ) && rec.event.verify().is_some()
            });
            (
                stop.map(|rec| rec.status().as_str().to_string()),
                verdict.map(|rec| verify_of(rec)),
                stop.map(|rec| rec.time()),
                None,
            )
        }
        Name::Save(_) => {
            let saved = r.name.to_string();
            let rolled = records.iter().find_map(|rec| match &rec.event {
                Event::RolledBack(back) if back.saved == saved => Some((rec, back)),
                _ => None,
            });
            let to = rolled.map(|(_, back)| back.to.as_str());
            let rolled = rolled.map(|(rec, _)| rec);
            (
                None,
                None,
                rolled.map(|rec| rec.time()),
                Some(to.map_or("saved before a rollback".to_string(), |to| {
                    format!("saved before rollback to {to}")
                })),
            )
        }
    };
    let time = time.unwrap_or_else(|| {
        chrono::DateTime::from_timestamp(r.time, 0)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default()
    });
    let same_as = change
        .filter(|(from, _)| from.commit == r.commit)
        .map(|(from, _)| from.name.to_string());
    json!({
        "name": r.name.to_string(),
        "iteration": match r.name { Name::Iteration(n) => Some(n), Name::Save(_) => None },
        "commit": r.commit,
        "time": time,
        "stop": stop,
        "verify": verify,
        "changes": change.map(|(from, c)| json!({
            "from": from.name.to_string(),
            "files": c.files,
            "insertions": c.insertions,
            "deletions": c.deletions,
        })),
        "same_as": same_as,
        "note": note,
    })
}

/// Statuses that end a stop (what the stop decided), as opposed to events recorded along the way.
fn is_stop(status: Status) -> bool {
    !matches!(
        status,
        Status::Init
            | Status::Resumed
            | Status::TamperDetected
            | Status::SelfCheck
            | Status::AgentRun
            | Status::RolledBack
    )
}

/// A checkpoint's verify in `--json`: the keys it always had, and the one description of the result.
fn verify_of(r: &Record) -> Value {
    let Some(v) = r.event.verify() else {
        return Value::Null;
    };
    json!({
        "passed": r.status() == Status::Complete || v.passed,
        "exit": v.exit,
        "timed_out": v.timed_out,
        "score": v.score,
        "sealed_changes": v.sealed_changes.as_ref().map(Vec::len),
        "describe": v.brief(),
    })
}

/// Column widths of the human table (cells): with the two-space margin and a space between columns, 80 in all.
const NAME: usize = 6;
const TIME: usize = 11;
const STOP: usize = 16;
const VERIFY: usize = 21;
const CHANGES: usize = 80 - 2 - NAME - TIME - STOP - VERIFY - 4;

/// The human view.
fn render(report: &Value) -> String {
    let s = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let state = if report["running"] == true { "running" } else { "ended" };
    let keep = report["keep"].as_str().map_or(String::new(), |k| format!(", keep {k}"));
    // The table fits 80 columns: the time without its year and seconds (`--json` has them), the verify and
    // the changes cut with `…` to their columns.
    let mut out = format!(
        "loopgate: checkpoints of loop {} ({state}{keep})\n  {} {} {} {} changes",
        s(report, "loop_id"),
        pad("#", NAME),
        pad("time (UTC)", TIME),
        pad("stop", STOP),
        pad("verify", VERIFY),
    );
    for row in report["checkpoints"].as_array().into_iter().flatten() {
        let time = s(row, "time");
        let time = time.get(5..16).unwrap_or(&time).replace('T', " ");
        let stop = row["stop"].as_str().map_or_else(|| s(row, "note"), str::to_string);
        let verify = describe_verify(&row["verify"]);
        let changes = describe_changes(row);
        out.push_str(&format!(
            "\n  {} {} {} {} {}",
            pad(&truncate(&s(row, "name"), NAME), NAME),
            pad(&time, TIME),
            pad(&truncate(&stop, STOP), STOP),
            pad(&truncate(&verify, VERIFY), VERIFY),
            truncate(&changes, CHANGES)
        ));
    }
    out.push_str(
        "\nCompare with `loopgate diff N [M]`; restore with `loopgate rollback N`\n(the tree now is saved first).",
    );
    if let Some(others) = report["other_loops"].as_array().filter(|o| !o.is_empty()) {
        let names: Vec<&str> = others.iter().filter_map(Value::as_str).collect();
        out.push_str(&format!(
            "\nOther loops with checkpoints (`--loop ID`): {}",
            names.join(", ")
        ));
    }
    crate::printable::wrap(&out, 80, 2)
}

fn describe_verify(v: &Value) -> String {
    v["describe"].as_str().unwrap_or("—").to_string()
}

fn describe_changes(row: &Value) -> String {
    if let Some(same) = row["same_as"].as_str() {
        return format!("same as {same}");
    }
    let c = &row["changes"];
    if c.is_null() {
        return "—".into();
    }
    let files = c["files"].as_u64().unwrap_or(0);
    if files == 0 {
        return format!("no change since {}", c["from"].as_str().unwrap_or("?"));
    }
    let plural = if files == 1 { "" } else { "s" };
    format!(
        "{files} file{plural} +{} −{} vs {}",
        c["insertions"].as_u64().unwrap_or(0),
        c["deletions"].as_u64().unwrap_or(0),
        c["from"].as_str().unwrap_or("?")
    )
}
