//! Watching a tournament: one row per candidate — its state, iteration, tests passing now and at the baseline,
//! cost, time and last verdict — read from what its loop records in its clone (the history), so the tournament
//! and `loopgate status` (in another terminal) see the same thing.
//!
//! Three renderers of the same rows (events in, renderers out): a table redrawn in place at least once a second
//! when stderr is a terminal, one line per change of a row when it is not (a log, CI), and `--json`'s `progress`
//! events on stdout. A row "changes" when anything but its clock moved, so a quiet candidate writes nothing.

use std::io::{IsTerminal, Write};
use std::path::Path;

use serde::Serialize;

use crate::history::{self, Event, Record, Status};
use crate::project::Project;

/// One candidate, now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Row {
    pub(crate) name: String,
    /// `waiting` (not started), `running`, or how its loop ended (`complete`, `max_iterations`, `cancelled`, …).
    pub(crate) state: String,
    pub(crate) iteration: u64,
    /// Tests its last verify passed, when the runner's totals were read.
    pub(crate) passing: Option<u64>,
    /// Tests that passed at the baseline (the oracle's run at setup), when known.
    pub(crate) baseline: Option<u64>,
    /// Dollars its agent's runs cost so far, when the agent reported its usage.
    pub(crate) cost_usd: Option<f64>,
    pub(crate) seconds: f64,
    /// The status of its last verdict (`promise_rejected`, `verify_failed`, `complete`) and what it said.
    pub(crate) verdict: Option<String>,
}

impl Row {
    /// The row of candidate `name`, loop `loop_id` in the clone `tree`; `started`: whether its run has begun.
    pub(crate) fn read(name: &str, tree: &Path, loop_id: &str, started: bool, seconds: f64) -> Self {
        Self::of(name, &records(tree, loop_id), started, seconds)
    }

    /// The row from the loop's records.
    pub(crate) fn of(name: &str, records: &[Record], started: bool, seconds: f64) -> Self {
        let ended = records.iter().rev().find(|r| r.status().ends_loop());
        let state = match (ended, started) {
            (Some(end), _) => end.status().as_str().to_string(),
            (None, true) => "running".to_string(),
            (None, false) => "waiting".to_string(),
        };
        let baseline = records.iter().find_map(|r| match &r.event {
            Event::Init(init) => init
                .baseline
                .as_ref()
                .and_then(|b| b.tests.map(|t| t.saturating_sub(b.failing.len() as u64))),
            _ => None,
        });
        let last_verdict = records.iter().rev().find(|r| r.event.verify().is_some());
        let passing = last_verdict.and_then(|r| r.event.verify()?.counts.map(|c| c.passed));
        let verdict = last_verdict.map(|r| {
            let said = r
                .event
                .verify()
                .map(history::VerifyResult::describe)
                .unwrap_or_default();
            crate::commands::run::display::truncate(&format!("{}: {said}", r.status().as_str()), 72)
        });
        let spent = crate::commands::run::spent_of(records);
        Row {
            name: name.to_string(),
            state,
            iteration: records.iter().map(|r| r.iteration).max().unwrap_or(0),
            passing,
            baseline,
            cost_usd: (spent.1 > 0).then_some(spent.0.cost_usd).flatten(),
            seconds,
            verdict,
        }
    }

    /// Whether anything but the clock differs.
    fn moved(&self, other: &Self) -> bool {
        Self {
            seconds: 0.0,
            ..self.clone()
        } != Self {
            seconds: 0.0,
            ..other.clone()
        }
    }

    /// `c1  running  3  2/5 (baseline 1)  $0.0123  42s  promise_rejected: …`, columns for [`table`].
    fn cells(&self) -> [String; 7] {
        let tests = match (self.passing, self.baseline) {
            (Some(now), Some(base)) => format!("{now} / {base}"),
            (None, Some(base)) => format!("- / {base}"),
            (Some(now), None) => format!("{now} / ?"),
            (None, None) => "-".to_string(),
        };
        [
            self.name.clone(),
            self.state.clone(),
            self.iteration.to_string(),
            tests,
            self.cost_usd.map_or_else(|| "-".to_string(), |c| format!("${c:.4}")),
            format!("{:.0}s", self.seconds),
            self.verdict.clone().unwrap_or_else(|| "-".to_string()),
        ]
    }

    /// One line for a log: `c1 running · iteration 3 · tests 2 / 5 (now / baseline) · $0.0123 · 42s · …`.
    pub(crate) fn line(&self) -> String {
        let [name, state, iteration, tests, cost, time, verdict] = self.cells();
        format!("{name} {state} · iteration {iteration} · tests {tests} (now / baseline) · {cost} · {time} · {verdict}")
    }
}

/// The rows as a table with a header, columns aligned.
pub(crate) fn table(rows: &[Row]) -> String {
    const HEAD: [&str; 7] = [
        "candidate",
        "state",
        "iter",
        "tests now / base",
        "cost",
        "time",
        "last verdict",
    ];
    let cells: Vec<[String; 7]> = rows.iter().map(Row::cells).collect();
    let width = |i: usize| {
        cells
            .iter()
            .map(|c| c[i].chars().count())
            .chain([HEAD[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..6).map(width).collect();
    let line = |c: &[&str]| {
        let mut out = String::new();
        for (i, cell) in c.iter().enumerate() {
            if i < 6 {
                out.push_str(&format!("{cell:<w$}  ", w = widths[i]));
            } else {
                out.push_str(cell);
            }
        }
        out.trim_end().to_string()
    };
    let mut out = vec![line(&HEAD)];
    out.extend(cells.iter().map(|c| line(&c.each_ref().map(String::as_str))));
    out.join("\n")
}

/// What the tournament shows while it runs: the table in a terminal, lines in a log, events for `--json`.
pub(crate) struct Board {
    terminal: bool,
    /// Lines of the table on the screen now (erased before anything else is written).
    drawn: usize,
    last: Vec<Row>,
    events: super::events::Events,
}

impl Board {
    pub(crate) fn new(events: super::events::Events) -> Self {
        Board {
            terminal: std::io::stderr().is_terminal(),
            drawn: 0,
            last: Vec::new(),
            events,
        }
    }

    /// Shows `rows`: redraws the table (terminal), writes a line per row that moved (not a terminal), emits a
    /// `progress` event per row that moved (`--json`).
    pub(crate) fn show(&mut self, rows: Vec<Row>) {
        let moved: Vec<&Row> = rows
            .iter()
            .enumerate()
            .filter(|(i, row)| self.last.get(*i).is_none_or(|before| row.moved(before)))
            .map(|(_, row)| row)
            .collect();
        for row in &moved {
            self.events.emit(&super::events::Event::Progress { row });
        }
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let text = table(&rows);
            let _ = writeln!(err, "{}{text}", erase(self.drawn));
            self.drawn = text.lines().count();
        } else {
            for row in moved {
                let _ = writeln!(err, "loopgate: {}", row.line());
            }
        }
        let _ = err.flush();
        self.last = rows;
    }

    /// Writes `line` to stderr, above the table when one is drawn (it is drawn again at the next [`Board::show`]).
    pub(crate) fn say(&mut self, line: &str) {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{}{line}", erase(self.drawn));
        self.drawn = 0;
    }

    /// Leaves the last table on the screen as it is (the report follows it).
    pub(crate) fn finish(&mut self) {
        self.drawn = 0;
    }
}

/// The terminal sequence that moves up over `lines` lines and clears to the end of the screen.
fn erase(lines: usize) -> String {
    if lines == 0 {
        String::new()
    } else {
        format!("\x1b[{lines}F\x1b[J")
    }
}

/// The rows of a running tournament, for `loopgate status` in its repository: each candidate as its history
/// says (a candidate with no records yet is waiting).
pub(crate) fn rows_of(tournament: &super::record::Tournament) -> Vec<Row> {
    tournament
        .candidates
        .iter()
        .map(|c| {
            let records = records(&c.worktree, &c.loop_id);
            let started = records.iter().any(|r| r.status() != Status::Init);
            let seconds = records
                .first()
                .zip(records.last())
                .map_or(0.0, |(a, b)| (b.timestamp - a.timestamp).num_seconds().max(0) as f64);
            Row::of(&c.name, &records, started, seconds)
        })
        .collect()
}

/// The records of loop `loop_id` in the clone `tree` (none when its history cannot be read).
fn records(tree: &Path, loop_id: &str) -> Vec<Record> {
    let path = Project {
        root: tree.to_path_buf(),
    }
    .history_path();
    // Outside the tournament's namespace a layered tree is an empty directory: its history is in its layer.
    let path = super::layer::outside(tree, &path);
    history::read_loop(&path, loop_id)
        .map(|read| read.records)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
