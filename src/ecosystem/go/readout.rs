//! Go: `go test` — its failures, counts and test names.
//!
//! Failures: `--- FAIL: TestX (0.00s)` with the `file_test.go:12: message` line under it, build errors
//! (`./x.go:3:1: undefined: y`), panics, and `FAIL\tpkg` lines as a last resort. Under `-v` a test's log lines
//! come between its `=== RUN   TestX` line and its result instead.
//!
//! Counts, from `go test -v`: one `--- PASS:`, `--- FAIL:` or `--- SKIP:` line per test, subtests
//! indented four spaces per level under their parent's line. Only the leaves count (a parent is
//! known as one when the next result line is indented deeper), and only once `=== RUN` lines show
//! the run is verbose: without `-v` go prints the failures alone (loopgate asks for `-v` through `GOFLAGS`,
//! see `crate::verify::reporting`).
//!
//! Names: `example.com/calc TestParsePort/empty` — the test's own name (subtests carry their parents') and the
//! package, which go prints only after the package's tests (`ok  \texample.com/calc\t0.002s`, `FAIL\t…`), so a
//! package's results wait for that line. Parents are recorded too: they fail when a subtest does.

use std::collections::HashMap;

use super::{Row, Runner};
use crate::readout::counts::{Kind, TestCounts, one_of};
use crate::readout::lines::{Found, Lines};
use crate::readout::results::{TestOutcome, TestResults};

pub(super) fn is_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("--- FAIL: ")
        || t.starts_with("=== RUN ")
        || line.starts_with("FAIL\t")
        || line.starts_with("ok  \t")
        || line.ends_with("[no test files]")
}

/// The failing tests and build errors `go test` printed.
pub(super) fn failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut packages = Vec::new();
    let mut runs: HashMap<&str, usize> = HashMap::new();
    for i in 0..lines.len() {
        let line = lines.get(i);
        let t = line.trim_start();
        if let Some(name) = t.strip_prefix("=== RUN ") {
            runs.insert(name.trim(), i);
        } else if let Some(rest) = t.strip_prefix("--- FAIL: ") {
            let name = rest.split(" (").next().unwrap_or(rest);
            let message = runs
                .get(name)
                .and_then(|&run| verbose_message(lines, run + 1))
                .or_else(|| message(lines, i + 1));
            found.add_test(name, message);
        } else if line.starts_with("panic: ") || is_go_location(line) {
            found.add_error(line);
        } else if let Some(package) = line.strip_prefix("FAIL\t") {
            packages.push(package.split('\t').next().unwrap_or(package).to_owned());
        }
    }
    // A failing subtest fails its parent too; the leaf names the failure.
    let names: Vec<String> = found.tests.iter().map(|t| t.name.clone()).collect();
    found.tests.retain(|t| {
        !names
            .iter()
            .any(|n| n.len() > t.name.len() && n.starts_with(&format!("{}/", t.name)))
    });
    if found.is_empty() {
        for package in packages {
            found.add_error(&format!("FAIL {package}"));
        }
    }
    found
}

/// The message under a `--- FAIL:` line: its first `file.go:N: …` line or a panic (which `-v`
/// prints there too), before the next test's lines.
fn message(lines: &Lines, from: usize) -> Option<String> {
    (from..(from + 8).min(lines.len()))
        .map(|i| lines.get(i))
        .take_while(|l| {
            let t = l.trim_start();
            !t.starts_with("--- ") && !t.starts_with("=== ") && !l.starts_with("FAIL")
        })
        .map(str::trim)
        .find(|t| t.starts_with("panic: ") || is_go_location(t))
        .map(str::to_owned)
}

/// Under `-v`: the first `file.go:N: …` line or panic between a test's `=== RUN` line and the
/// next `=== ` or `--- ` line.
fn verbose_message(lines: &Lines, from: usize) -> Option<String> {
    (from..lines.len())
        .map(|i| lines.get(i).trim())
        .take_while(|t| !t.starts_with("=== ") && !t.starts_with("--- "))
        .find(|t| t.starts_with("panic: ") || is_go_location(t))
        .map(str::to_owned)
}

/// `name.go:12: …` or `./dir/name.go:3:14: …`.
fn is_go_location(t: &str) -> bool {
    let Some((file, rest)) = t.split_once(".go:") else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    !file.is_empty() && !file.contains(' ') && digits > 0 && rest[digits..].starts_with(':')
}

/// A package's results held at most, waiting for its `ok` / `FAIL` line.
const MAX_WAITING: usize = 100_000;

/// The count and name scanner, fed every line: whether the run is verbose, the result line waiting to be
/// known as a leaf, and the package's results waiting for its `ok` / `FAIL` line.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    verbose: bool,
    /// The last result line (its indentation and kind), counted once the next one shows it is a leaf.
    pending: Option<(usize, Kind)>,
    /// This package's tests by name, until the package's result line names the package.
    waiting: Vec<(String, TestOutcome)>,
}

impl Scanner {
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
            Kind::Passed => TestOutcome::Passed,
            Kind::Failed => TestOutcome::Failed,
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

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[Row {
    runner: Runner::Go,
    is_marker,
    failures,
    unless: None,
}];
