//! Counts from `go test -v`: one `--- PASS:`, `--- FAIL:` or `--- SKIP:` line per test, subtests
//! indented four spaces per level under their parent's line. Only the leaves count (a parent is
//! known as one when the next result line is indented deeper), and only once `=== RUN` lines show
//! the run is verbose: without `-v` go prints the failures alone (loopgate asks for `-v` through `GOFLAGS`,
//! see `crate::verify::reporting`).
//!
//! Names: `example.com/calc TestParsePort/empty` — the test's own name (subtests carry their parents') and the
//! package, which go prints only after the package's tests (`ok  \texample.com/calc\t0.002s`, `FAIL\t…`), so a
//! package's results wait for that line. Parents are recorded too: they fail when a subtest does.

use super::{Kind, TestCounts, one_of};
use crate::summary::results::{Outcome, TestResults};

/// A package's results held at most, waiting for its `ok` / `FAIL` line.
const MAX_WAITING: usize = 100_000;

#[derive(Debug, Clone, Default)]
pub(super) struct State {
    verbose: bool,
    /// The last result line (its indentation and kind), counted once the next one shows it is a leaf.
    pending: Option<(usize, Kind)>,
    /// This package's tests by name, until the package's result line names the package.
    waiting: Vec<(String, Outcome)>,
}

impl State {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        if let Some(package) = package_line(line) {
            for (name, outcome) in self.waiting.drain(..) {
                names.record(&format!("{package} {name}"), outcome);
            }
            return None;
        }
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
        self.wait(t, kind);
        let indent = line.len() - t.len();
        match self.pending.replace((indent, kind)) {
            Some((before, _)) if indent > before => None,
            Some((_, leaf)) => Some(one_of(leaf, 1)),
            None => None,
        }
    }

    /// Holds `--- PASS: TestAdd (0.00s)`'s name until the package is known; skips are not results.
    fn wait(&mut self, t: &str, kind: Kind) {
        let outcome = match kind {
            Kind::Passed => Outcome::Passed,
            Kind::Failed => Outcome::Failed,
            Kind::Skipped | Kind::Ignored => return,
        };
        let name = t.get(10..).unwrap_or_default();
        let name = name.rsplit_once(" (").map_or(name, |(name, _)| name);
        if self.waiting.len() < MAX_WAITING {
            self.waiting.push((name.to_string(), outcome));
        }
    }

    /// Records tests whose package line never came (the output was cut), under no package.
    pub(super) fn flush_into(&self, names: &mut TestResults) {
        for (name, outcome) in &self.waiting {
            names.record(name, *outcome);
        }
    }

    /// The last result line, a leaf since nothing came under it.
    pub(super) fn pending(&self) -> Option<TestCounts> {
        self.pending.map(|(_, kind)| one_of(kind, 1))
    }
}

/// `ok  \texample.com/calc\t0.002s`, `FAIL\texample.com/calc\t0.002s`, `ok  \tpkg\t(cached)` → the package.
fn package_line(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("ok  \t").or_else(|| line.strip_prefix("FAIL\t"))?;
    let package = rest.split('\t').next()?.trim();
    (!package.is_empty()).then_some(package)
}
