//! `loopgate history`: the project's loops, one line per record (`--json`: the records as stored).

use serde_json::Value;

use crate::error::Error;
use crate::exit_codes;
use crate::history::{self, Record};
use crate::project::Project;

/// Runs `loopgate history`.
pub fn run(json: bool, loop_id: Option<&str>) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let path = project.history_path();
    let read = history::read(&path).map_err(|source| Error::Io {
        action: "read",
        path: path.clone(),
        source,
    })?;
    if !read.bad_lines.is_empty() {
        eprintln!(
            "loopgate: skipped unreadable line(s) {:?} of `{}`",
            read.bad_lines,
            path.display()
        );
    }
    let records = read.records.iter().filter(|r| loop_id.is_none_or(|id| r.loop_id == id));
    let mut out = std::io::stdout().lock();
    for record in records {
        let line = if json {
            serde_json::to_string(record).unwrap_or_default()
        } else {
            human(record)
        };
        if crate::write_line(&mut out, &line).is_err() {
            break;
        }
    }
    Ok(exit_codes::OK)
}

/// `2026-11-21T19:40:00Z  lg-…  #3  promise_rejected  exit 101, 3.2s · 2 failed: …`
fn human(r: &Record) -> String {
    let mut detail = Vec::new();
    if let Some(reason) = r.get("reason").and_then(Value::as_str) {
        detail.push(reason.to_string());
    }
    if let Some(what) = r.get("what").and_then(Value::as_str) {
        detail.push(what.to_string());
    }
    if let (Some(kind), Some(sentence)) = (
        r.get("kind").and_then(Value::as_str),
        r.get("sentence").and_then(Value::as_str),
    ) {
        detail.push(format!("{}: \"{sentence}\"", kind.replace('_', " ")));
    }
    if let (Some(to), Some(saved)) = (
        r.get("to").and_then(Value::as_str),
        r.get("saved").and_then(Value::as_str),
    ) {
        detail.push(format!("to checkpoint {to}, the tree before saved as {saved}"));
    }
    if r.get("timed_out").and_then(Value::as_bool) == Some(true) {
        detail.push("timed out".into());
    } else if let Some(code) = r.get("verify_exit").and_then(Value::as_i64) {
        detail.push(format!("exit {code}"));
    }
    if let Some(ms) = r.get("duration_ms").and_then(Value::as_u64) {
        detail.push(format!("{:.1}s", ms as f64 / 1000.0));
    }
    if let Some(changes) = r.get("sealed_changes").and_then(Value::as_array) {
        detail.push(format!("{} sealed file(s) changed", changes.len()));
    }
    if let Some(summary) = r.get("summary").and_then(Value::as_str).and_then(|s| s.lines().next()) {
        detail.push(summary.to_string());
    }
    if r.status == crate::history::Status::AgentRun {
        let result = match (
            r.get("agent_timed_out").and_then(Value::as_bool),
            r.get("agent_exit").and_then(Value::as_i64),
        ) {
            (Some(true), _) => "timed out".to_string(),
            (_, Some(code)) => format!("exit {code}"),
            _ => "killed".to_string(),
        };
        let secs = r.get("agent_ms").and_then(Value::as_u64).unwrap_or(0) as f64 / 1000.0;
        detail.push(format!("agent {result}, {secs:.1}s"));
    }
    if let Some(cmd) = r.get("verify_command").and_then(Value::as_str) {
        detail.push(format!("verify: {cmd}"));
    }
    let line = format!(
        "{}  {}  #{:<3} {:<17} {}",
        r.timestamp,
        r.loop_id,
        r.iteration,
        r.status.as_str(),
        detail.join(" · ")
    );
    line.trim_end().to_string()
}
