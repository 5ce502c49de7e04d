//! One iteration as `loopgate run` shows it — the result line, the status line's "last verify", a row of the
//! summary table — built from the agent's outcome and the history records its stop appended (the history is
//! the one source of truth for what the oracle said).

use serde_json::Value;

use crate::history::{Record, Status};

use super::agent::Outcome;
use super::display::{Display, Style, clock, truncate};

/// Widest note shown in the table.
const NOTE_WIDTH: usize = 72;

/// One iteration.
pub struct Row {
    pub iteration: u64,
    pub agent: String,
    pub agent_ok: bool,
    pub agent_time: String,
    /// `✓ pass`, `✗ exit 1`, `– not run`, …, and whether it passed (`None`: no verify ran).
    pub verify: String,
    pub verify_passed: Option<bool>,
    pub verify_time: String,
    pub note: String,
}

impl Row {
    pub fn new(iteration: u64, outcome: &Outcome, records: &[Record]) -> Self {
        let primary = records
            .iter()
            .find(|r| !matches!(r.status, Status::AgentRun | Status::TamperDetected));
        let ending = records
            .iter()
            .rev()
            .find(|r| r.status.ends_loop() || matches!(r.status, Status::Paused | Status::Stalled))
            .filter(|r| !primary.is_some_and(|p| std::ptr::eq(p, *r)));
        let (verify, verify_passed) = primary.map_or(("—".to_string(), None), verify_cell);
        let verify_time = primary
            .and_then(|r| r.get("duration_ms"))
            .and_then(Value::as_u64)
            .map_or(String::new(), |ms| format!("{:.1}s", ms as f64 / 1000.0));
        let mut notes: Vec<String> = Vec::new();
        for record in primary.into_iter().chain(ending) {
            let text = |key| record.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
            if let Some(line) = text("summary").and_then(|s| s.lines().next()) {
                notes.push(line.to_string());
            }
            if let Some(reason) = text("reason") {
                notes.push(format!("{}: {reason}", record.status.as_str()));
            } else if record.status.ends_loop() && record.status != Status::Complete {
                notes.push(record.status.as_str().to_string());
            }
        }
        if records.iter().any(|r| r.status == Status::TamperDetected) {
            notes.push("tampering detected".into());
        }
        Self {
            iteration,
            agent: outcome.result_text(),
            agent_ok: outcome.succeeded(),
            agent_time: clock(outcome.duration),
            verify,
            verify_passed,
            verify_time,
            note: truncate(&notes.join(" · "), NOTE_WIDTH),
        }
    }

    /// The line printed when the iteration is over.
    pub fn line(&self, display: &Display, max_iterations: u64) -> String {
        let mut text = format!(
            "{} agent {} in {} · verify {}",
            display.paint(
                &format!("iteration {}{}:", self.iteration, super::screen::of(max_iterations)),
                Style::Bold
            ),
            self.agent,
            self.agent_time,
            display.paint(&self.verify, self.verify_style()),
        );
        if !self.verify_time.is_empty() {
            text.push_str(&format!(" ({})", self.verify_time));
        }
        if !self.note.is_empty() {
            text.push_str(&format!(" · {}", self.note));
        }
        text
    }

    /// The cells of the summary table.
    pub fn cells(&self) -> Vec<(String, Option<Style>)> {
        vec![
            (self.iteration.to_string(), None),
            (
                self.agent.clone(),
                Some(if self.agent_ok { Style::Green } else { Style::Yellow }),
            ),
            (self.agent_time.clone(), None),
            (self.verify.clone(), Some(self.verify_style())),
            (self.verify_time.clone(), None),
            (self.note.clone(), Some(Style::Dim)),
        ]
    }

    fn verify_style(&self) -> Style {
        match self.verify_passed {
            Some(true) => Style::Green,
            Some(false) => Style::Red,
            None => Style::Dim,
        }
    }
}

/// The summary table's header, matching [`Row::cells`].
pub const HEADER: [&str; 6] = ["iter", "agent", "time", "verify", "time", "note"];

fn verify_cell(record: &Record) -> (String, Option<bool>) {
    let exit = record.get("verify_exit").and_then(Value::as_i64);
    match record.status {
        Status::Complete if record.get("verify_exit").is_some() => ("✓ pass".into(), Some(true)),
        Status::Complete => ("✓ promise (no verify)".into(), None),
        Status::PromiseRejected | Status::VerifyFailed => {
            let what = if record.get("sealed_changes").is_some() {
                "sealed files changed".to_string()
            } else if record.get("timed_out").and_then(Value::as_bool) == Some(true) {
                "timed out".to_string()
            } else if let Some(code) = exit {
                format!("exit {code}")
            } else if let Some(signal) = record.get("verify_signal").and_then(Value::as_i64) {
                format!("signal {signal}")
            } else {
                "failed".to_string()
            };
            (format!("✗ {what}"), Some(false))
        }
        Status::Continue => ("– not run".into(), None),
        other => (format!("– {}", other.as_str()), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(status: Status) -> Record {
        Record::new("lg", 2, status)
    }

    #[test]
    fn rows_say_what_the_oracle_said() {
        let outcome = Outcome {
            exit_code: Some(0),
            ..Outcome::default()
        };
        let failed = rec(Status::VerifyFailed)
            .with("verify_exit", 1)
            .with("duration_ms", 3100)
            .with("summary", "2 failed: a, b\nmore");
        let row = Row::new(2, &outcome, &[rec(Status::AgentRun), failed]);
        assert_eq!(
            (row.verify.as_str(), row.verify_passed, row.verify_time.as_str()),
            ("✗ exit 1", Some(false), "3.1s")
        );
        assert_eq!(row.note, "2 failed: a, b");

        let limit = rec(Status::MaxIterations);
        let row = Row::new(2, &outcome, &[rec(Status::Continue), limit]);
        assert_eq!(
            (row.verify.as_str(), row.note.as_str()),
            ("– not run", "max_iterations")
        );

        let pass = rec(Status::Complete).with("verify_exit", 0).with("duration_ms", 10);
        let row = Row::new(2, &outcome, &[pass]);
        assert_eq!((row.verify.as_str(), row.verify_passed), ("✓ pass", Some(true)));

        let paused = rec(Status::Paused).with("reason", "the password");
        let row = Row::new(2, &outcome, &[paused]);
        assert_eq!(
            (row.verify.as_str(), row.note.as_str()),
            ("– paused", "paused: the password")
        );
    }
}
