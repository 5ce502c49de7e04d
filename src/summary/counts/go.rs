//! Counts from `go test -v`: one `--- PASS:`, `--- FAIL:` or `--- SKIP:` line per test, subtests
//! indented four spaces per level under their parent's line. Only the leaves count (a parent is
//! known as one when the next result line is indented deeper), and only once `=== RUN` lines show
//! the run is verbose: without `-v` go prints the failures alone.

use super::{Kind, TestCounts, one_of};

#[derive(Debug, Clone, Default)]
pub(super) struct State {
    verbose: bool,
    /// The last result line (its indentation and kind), counted once the next one shows it is a leaf.
    pending: Option<(usize, Kind)>,
}

impl State {
    pub(super) fn feed(&mut self, line: &str) -> Option<TestCounts> {
        let t = line.trim_start_matches(' ');
        if t.starts_with("=== RUN ") {
            self.verbose = true;
            return None;
        }
        if !self.verbose {
            return None;
        }
        let kind = if t.starts_with("--- PASS: ") {
            Kind::Passed
        } else if t.starts_with("--- FAIL: ") {
            Kind::Failed
        } else if t.starts_with("--- SKIP: ") {
            Kind::Skipped
        } else {
            return None;
        };
        let indent = line.len() - t.len();
        match self.pending.replace((indent, kind)) {
            Some((before, _)) if indent > before => None,
            Some((_, leaf)) => Some(one_of(leaf, 1)),
            None => None,
        }
    }

    /// The last result line, a leaf since nothing came under it.
    pub(super) fn pending(&self) -> Option<TestCounts> {
        self.pending.map(|(_, kind)| one_of(kind, 1))
    }
}
