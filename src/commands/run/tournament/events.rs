//! What happens in a tournament, as typed events, and their machine renderer: `--json` writes each as one JSON
//! object a line on stdout, for a script or a dashboard to follow a tournament as it runs; the text for people
//! stays on stderr. One event a line, each written whole and flushed, so a reader never sees half of one.

use std::io::Write;

use serde::Serialize;

use super::record::{Candidate, Status};

/// One thing that happened.
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum Event<'a> {
    /// The clones are ready and the oracle sealed; the candidates are about to start.
    Started {
        tournament: &'a str,
        base: &'a str,
        candidates: usize,
        jobs: usize,
        /// What keeps the candidates apart on this machine, in words.
        isolation: &'a str,
    },
    /// A candidate's `loopgate run` started.
    CandidateStarted { name: &'a str, loop_id: &'a str },
    /// A candidate's row moved (its state, iteration, tests, cost or last verdict; see `watch`): the same row
    /// the live table shows, checked about once a second.
    Progress {
        #[serde(flatten)]
        row: &'a super::watch::Row,
    },
    /// A candidate's `loopgate run` ended: its exit code (none when a signal ended it) and time.
    CandidateEnded {
        name: &'a str,
        exit: Option<u8>,
        seconds: f64,
    },
    /// The tournament ended: how, the winner's name, and every candidate's result.
    Ended {
        tournament: &'a str,
        status: Status,
        winner: Option<&'a str>,
        candidates: &'a [Candidate],
    },
}

/// Where events go: nowhere, or stdout as JSON lines (`--json`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Events {
    pub(crate) json: bool,
}

impl Events {
    pub(crate) fn emit(self, event: &Event<'_>) {
        if !self.json {
            return;
        }
        if let Ok(mut line) = serde_json::to_vec(event) {
            line.push(b'\n');
            let mut out = std::io::stdout().lock();
            // A closed stdout (the reader went away) must not stop the tournament.
            let _ = out.write_all(&line).and_then(|()| out.flush());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_is_one_object_named_by_its_event_field() {
        let started = serde_json::to_value(Event::Started {
            tournament: "t-1",
            base: "abc",
            candidates: 3,
            jobs: 3,
            isolation: "protected",
        })
        .expect("json");
        assert_eq!(started["event"], "started");
        assert_eq!(started["candidates"], 3);
        let ended = serde_json::to_value(Event::CandidateEnded {
            name: "c2",
            exit: None,
            seconds: 1.5,
        })
        .expect("json");
        assert_eq!(
            ended,
            serde_json::json!({"event": "candidate_ended", "name": "c2", "exit": null, "seconds": 1.5})
        );
        let text = serde_json::to_string(&Event::Ended {
            tournament: "t-1",
            status: Status::Interrupted,
            winner: None,
            candidates: &[],
        })
        .expect("json");
        assert!(!text.contains('\n'));
        assert!(text.contains(r#""status":"interrupted""#), "{text}");
    }
}
