//! bats: its failures, counts and test names, from its TAP output (what it prints when stdout is not a
//! terminal, as in the oracle's run; `--tap` forces it).
//!
//! The plan comes first (`1..3`), then one line per test: `ok 1 adds two numbers`, `not ok 2 multiplies`,
//! `ok 3 later # skip not yet`. A failure is followed by its comment lines: `# (in test file test/calc.bats,
//! line 6)` (the marker: only bats prints it) and the command that failed, `#   \`[ "$(add 1 2)" -eq 3 ]' failed`.
//! Node's TAP puts its plan after its results, so a plan read first is bats'.
//!
//! Names: the test's own name, as `@test "name"` gives it (bats' TAP does not name the file; two files with a
//! test of the same name are one name, failed if either failed).

use super::{Row, Runner};
use crate::readout::counts::TestCounts;
use crate::readout::lines::{Found, Lines};
use crate::readout::results::{TestOutcome, TestResults};

pub(super) fn is_marker(line: &str) -> bool {
    line.starts_with("# (in test file ") || line.starts_with("# (from function ")
}

/// A result line: the outcome (`None`: skipped), the name.
fn result(line: &str) -> Option<(Option<TestOutcome>, &str)> {
    let (outcome, rest) = if let Some(rest) = line.strip_prefix("not ok ") {
        (TestOutcome::Failed, rest)
    } else {
        (TestOutcome::Passed, line.strip_prefix("ok ")?)
    };
    let (number, name) = rest.split_once(' ')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match name.split_once(" # skip") {
        Some((name, _)) => Some((None, name)),
        None => Some((Some(outcome), name)),
    }
}

/// The failing tests bats printed, each with the command that failed (or where).
pub(super) fn failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    for i in 0..lines.len() {
        let Some((Some(TestOutcome::Failed), name)) = result(lines.get(i)) else {
            continue;
        };
        let comments: Vec<&str> = (i + 1..(i + 6).min(lines.len()))
            .map(|j| lines.get(j))
            .take_while(|l| l.starts_with('#'))
            .map(|l| l.trim_start_matches('#').trim())
            .filter(|l| !l.is_empty())
            .collect();
        let message = comments
            .iter()
            .find(|l| !l.starts_with('('))
            .or(comments.first())
            .map(|l| (*l).to_string());
        found.add_test(name, message);
    }
    found
}

/// Counts and names, from the plan and the result lines under it.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    /// The plan read before any result: how many tests this bats run has.
    plan: Option<u64>,
    counts: TestCounts,
    /// A result came before any plan: another TAP producer's output (node's).
    other: bool,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        if let Some(n) = line.strip_prefix("1..").and_then(|n| n.parse::<u64>().ok()) {
            if !self.other && self.plan.is_none() {
                self.plan = Some(n);
                self.counts = TestCounts::default();
            }
            self.other = false;
            return None;
        }
        let (outcome, name) = result(line)?;
        let Some(plan) = self.plan else {
            self.other = true;
            return None;
        };
        self.counts.one(name, outcome, names);
        let c = self.counts;
        (c.passed + c.failed + c.skipped >= plan).then(|| {
            self.plan = None;
            c
        })
    }
}

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[Row {
    runner: Runner::Bats,
    is_marker,
    failures,
    unless: None,
}];

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = "1..3\nnot ok 1 adds two numbers\n# (in test file test/calc.bats, line 6)\n#   `[ \"$(add 1 2)\" -eq 3 ]' failed\nok 2 multiplies\nok 3 later # skip not yet\n";

    #[test]
    fn bats_tap_reads_as_counts_names_and_failures() {
        let mut scanner = Scanner::default();
        let mut names = TestResults::default();
        let counts: Vec<TestCounts> = OUTPUT.lines().filter_map(|l| scanner.feed(l, &mut names)).collect();
        assert_eq!(counts, vec![TestCounts::new(1, 1, 1, 0)]);
        assert_eq!(names.get("adds two numbers"), Some(TestOutcome::Failed));
        assert_eq!(names.get("multiplies"), Some(TestOutcome::Passed));
        assert_eq!(names.get("later"), None, "a skipped test did not run");
        let lines = Lines::new(OUTPUT);
        assert!(lines.iter().any(is_marker));
        let found = failures(&lines);
        assert_eq!(found.tests.len(), 1);
        assert_eq!(found.tests[0].name, "adds two numbers");
        assert_eq!(
            found.tests[0].message.as_deref(),
            Some("`[ \"$(add 1 2)\" -eq 3 ]' failed")
        );
    }

    #[test]
    fn node_tap_with_its_plan_last_is_not_read_as_bats() {
        let node = "TAP version 13\n# Subtest: adds\nok 1 - adds\n1..1\n# pass 1\n";
        let mut scanner = Scanner::default();
        let mut names = TestResults::default();
        assert!(node.lines().all(|l| scanner.feed(l, &mut names).is_none()));
        assert!(names.is_empty());
    }
}
