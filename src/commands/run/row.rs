//! One iteration as `loopgate run` shows it — the result line, the status line's "last verify", a row of the
//! summary table — built from the agent's outcome and the history records its stop appended (the history is
//! the one source of truth for what the oracle said).

use crate::history::{Event, Record, Status, VerifyResult};

use super::agent::AgentExit;
use super::display::{Display, Style, clock, truncate};

/// Widest note shown in the table.
const NOTE_WIDTH: usize = 72;

/// One iteration.
pub(crate) struct Row {
    pub(crate) iteration: u64,
    pub(crate) agent: String,
    pub(crate) agent_ok: bool,
    pub(crate) agent_time: String,
    /// `✓ pass`, `✗ exit 1`, `– not run`, …, and whether it passed (`None`: no verify ran).
    pub(crate) verify: String,
    pub(crate) verify_passed: Option<bool>,
    pub(crate) verify_time: String,
    pub(crate) note: String,
}

impl Row {
    pub(crate) fn new(iteration: u64, outcome: &AgentExit, records: &[Record]) -> Self {
        let primary = records
            .iter()
            .find(|r| !matches!(r.status(), Status::AgentRun | Status::TamperDetected));
        let ending = records
            .iter()
            .rev()
            .find(|r| r.status().ends_loop() || matches!(r.status(), Status::Paused | Status::Stalled))
            .filter(|r| !primary.is_some_and(|p| std::ptr::eq(p, *r)));
        let (verify, verify_passed) = primary.map_or(("—".to_string(), None), verify_cell);
        let verify_time = primary
            .and_then(|r| r.event.verify())
            .map_or(String::new(), VerifyResult::duration);
        let mut notes: Vec<String> = Vec::new();
        for record in primary.into_iter().chain(ending) {
            if let Some(line) = record.event.verify().and_then(VerifyResult::headline) {
                notes.push(line.to_string());
            }
            if let Some(reason) = record.event.reason().filter(|s| !s.is_empty()) {
                notes.push(format!("{}: {reason}", record.status().as_str()));
            } else if record.status().ends_loop() && record.status() != Status::Complete {
                notes.push(record.status().as_str().to_string());
            }
        }
        if records.iter().any(|r| r.status() == Status::TamperDetected) {
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
    pub(crate) fn line(&self, display: &Display, max_iterations: u64) -> String {
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
    pub(crate) fn cells(&self) -> Vec<(String, Option<Style>)> {
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
pub(crate) const HEADER: [&str; 6] = ["iter", "agent", "time", "verify", "time", "note"];

fn verify_cell(record: &Record) -> (String, Option<bool>) {
    match &record.event {
        Event::Complete(c) if c.verify.is_some() => ("✓ pass".into(), Some(true)),
        Event::Complete(_) => ("✓ promise (no verify)".into(), None),
        Event::PromiseRejected(r) | Event::VerifyFailed(r) => (format!("✗ {}", r.verify.outcome()), Some(false)),
        Event::Continue(_) => ("– not run".into(), None),
        other => (format!("– {}", other.status().as_str()), None),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rec(fields: serde_json::Value) -> Record {
        crate::history::test_record(fields)
    }

    #[test]
    fn rows_say_what_the_oracle_said() {
        let outcome = AgentExit {
            exit_code: Some(0),
            ..AgentExit::default()
        };
        let failed = rec(json!({"status": "verify_failed", "verify_exit": 1, "duration_ms": 3100,
            "summary": "2 failed: a, b\nmore"}));
        let row = Row::new(2, &outcome, &[rec(json!({"status": "agent_run"})), failed]);
        assert_eq!(
            (row.verify.as_str(), row.verify_passed, row.verify_time.as_str()),
            ("✗ exit 1", Some(false), "3.1s")
        );
        assert_eq!(row.note, "2 failed: a, b");

        let limit = rec(json!({"status": "max_iterations"}));
        let row = Row::new(2, &outcome, &[rec(json!({"status": "continue"})), limit]);
        assert_eq!(
            (row.verify.as_str(), row.note.as_str()),
            ("– not run", "max_iterations")
        );

        let pass = rec(json!({"status": "complete", "passed": true, "verify_exit": 0, "duration_ms": 10}));
        let row = Row::new(2, &outcome, &[pass]);
        assert_eq!((row.verify.as_str(), row.verify_passed), ("✓ pass", Some(true)));

        let paused = rec(json!({"status": "paused", "reason": "the password"}));
        let row = Row::new(2, &outcome, &[paused]);
        assert_eq!(
            (row.verify.as_str(), row.note.as_str()),
            ("– paused", "paused: the password")
        );
    }
}
