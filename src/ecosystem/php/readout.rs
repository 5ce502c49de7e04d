//! PHPUnit: its failures and counts, from its default output.
//!
//! It prints a banner first (`PHPUnit 9.6.7 by Sebastian Bergmann and contributors.`: the marker), a dot per
//! test, then one block per kind of problem — `There was 1 failure:` / `There were 2 errors:` — each test in it
//! numbered (`1) CalcTest::testAdds`, a data-provider case as `CalcTest::testMul with data set #0 (2, 3, 6)`),
//! its message lines, a blank line and the `file.php:LINE` where it failed. Blocks of risky, skipped, incomplete
//! or warned tests (`There was 1 risky test:`) are not failures. The summary ends the run: `OK (3 tests, 5
//! assertions)`, or a verdict line (`FAILURES!`, `ERRORS!`, `OK, but incomplete, skipped, or risky tests!`)
//! followed by `Tests: 4, Assertions: 3, Failures: 1, Skipped: 1.`
//!
//! Names: the output names only the tests that failed, so it records none; the run's names are those of
//! PHPUnit's own JUnit report, which loopgate's start hook asks for (`room::Room::add_named`), as
//! `Class::method` and `Class::method with data set #0`, the form [`test_name`] gives a failure here.

use super::{Row, Runner};
use crate::readout::counts::TestCounts;
use crate::readout::lines::{Found, Lines};
use crate::readout::results::TestResults;

pub(super) fn is_marker(line: &str) -> bool {
    line.starts_with("PHPUnit ") && line.contains(" by Sebastian Bergmann")
}

/// Whether a block's header announces failures or errors (`There was 1 failure:`, `There were 2 errors:`).
fn failing_block(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("There was 1 ").or_else(|| {
        line.strip_prefix("There were ")
            .and_then(|r| r.split_once(' ').map(|(_, r)| r))
    }) else {
        return false;
    };
    matches!(rest, "failure:" | "failures:" | "error:" | "errors:")
}

/// A numbered test line of a block (`1) CalcTest::testAdds`): the test, as its report names it.
fn numbered(line: &str) -> Option<&str> {
    let (number, rest) = line.split_once(") ")?;
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) && rest.contains("::")).then(|| test_name(rest))
}

/// A test as PHPUnit's report names it: a data-provider case without the arguments its output adds
/// (`CalcTest::testMul with data set #0 (2, 3, 6)` is `CalcTest::testMul with data set #0`; a named set
/// `with data set "zero" (0, 5, 0)` keeps its quoted name).
pub(super) fn test_name(shown: &str) -> &str {
    const SET: &str = " with data set ";
    let Some(at) = shown.find(SET) else {
        return shown;
    };
    let label = &shown[at + SET.len()..];
    let label_end = match label.strip_prefix('"') {
        Some(quoted) => quoted.find("\" (").or_else(|| quoted.rfind('"')).map(|q| q + 2),
        None => label.find(' '),
    };
    match label_end {
        Some(end) => &shown[..at + SET.len() + end],
        None => shown,
    }
}

/// The failing tests PHPUnit printed, each with its first message line.
pub(super) fn failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut in_block = false;
    for i in 0..lines.len() {
        let line = lines.get(i);
        if line.starts_with("There was ") || line.starts_with("There were ") {
            in_block = failing_block(line);
            continue;
        }
        if line.starts_with("FAILURES!") || line.starts_with("ERRORS!") || line.starts_with("OK") {
            in_block = false;
        }
        if !in_block {
            continue;
        }
        if let Some(name) = numbered(line) {
            let message = (i + 1..(i + 6).min(lines.len()))
                .map(|j| lines.get(j).trim())
                .find(|l| !l.is_empty())
                .filter(|l| numbered(l).is_none())
                .map(str::to_string);
            found.add_test(name, message);
        }
    }
    found
}

/// Counts from the summary line; no names (see the module's header).
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    /// A verdict line came (`FAILURES!`, `ERRORS!`, `OK, but …`): the `Tests: …` line under it is the summary.
    verdict: bool,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, _names: &mut TestResults) -> Option<TestCounts> {
        if let Some(inner) = line.strip_prefix("OK (").and_then(|r| r.strip_suffix(')')) {
            self.verdict = false;
            let tests = inner
                .split(", ")
                .next()?
                .strip_suffix(" tests")
                .or_else(|| inner.split(", ").next()?.strip_suffix(" test"))?;
            return Some(TestCounts::new(tests.parse().ok()?, 0, 0, 0));
        }
        if line.starts_with("FAILURES!") || line.starts_with("ERRORS!") || line.starts_with("OK, but ") {
            self.verdict = true;
            return None;
        }
        if line.starts_with("No tests executed!") {
            return Some(TestCounts::default());
        }
        if !(self.verdict && line.starts_with("Tests: ")) {
            return None;
        }
        self.verdict = false;
        let mut tests = None;
        let (mut failed, mut skipped) = (0, 0);
        for item in line.trim_end_matches('.').split(", ") {
            let (word, n) = item.split_once(": ")?;
            let n: u64 = n.trim().parse().ok()?;
            match word {
                "Tests" => tests = Some(n),
                "Failures" | "Errors" => failed += n,
                "Skipped" | "Incomplete" => skipped += n,
                _ => {}
            }
        }
        let tests = tests?;
        Some(TestCounts::new(
            tests.saturating_sub(failed + skipped),
            failed,
            skipped,
            0,
        ))
    }
}

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[Row {
    runner: Runner::Phpunit,
    is_marker,
    failures,
    unless: None,
}];

#[cfg(test)]
mod tests {
    use super::*;

    const FAILED: &str = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\nFF.S  4 / 4 (100%)\n\nTime: 00:00.009, Memory: 6.00 MB\n\nThere were 2 failures:\n\n1) CalcTest::testAdds\nFailed asserting that -1 is identical to 3.\n\n/p/tests/CalcTest.php:8\n\n2) CalcTest::testMul with data set \"zero (1)\" (0, 5, 1)\nFailed asserting that 0 is identical to 1.\n\n/p/tests/CalcTest.php:14\n\n--\n\nThere was 1 risky test:\n\n1) CalcTest::testNothing\nThis test did not perform any assertions\n\nFAILURES!\nTests: 5, Assertions: 3, Failures: 2, Skipped: 1, Risky: 1.\n";

    fn counts(output: &str) -> Vec<TestCounts> {
        let mut scanner = Scanner::default();
        let mut names = TestResults::default();
        let counts = output.lines().filter_map(|l| scanner.feed(l, &mut names)).collect();
        assert!(names.is_empty(), "the output names no test: the report does");
        counts
    }

    #[test]
    fn phpunits_summary_reads_as_counts() {
        assert_eq!(counts(FAILED), vec![TestCounts::new(2, 2, 1, 0)]);
        assert_eq!(
            counts("OK (3 tests, 5 assertions)\n"),
            vec![TestCounts::new(3, 0, 0, 0)]
        );
        assert_eq!(counts("OK (1 test, 1 assertion)\n"), vec![TestCounts::new(1, 0, 0, 0)]);
        assert_eq!(
            counts("ERRORS!\nTests: 3, Assertions: 1, Errors: 1, Failures: 1, Incomplete: 1.\n"),
            vec![TestCounts::new(0, 2, 1, 0)]
        );
        assert_eq!(
            counts("OK, but incomplete, skipped, or risky tests!\nTests: 4, Assertions: 3, Skipped: 1.\n"),
            vec![TestCounts::new(3, 0, 1, 0)]
        );
        assert!(
            counts("Tests: 4, Assertions: 3\n").is_empty(),
            "a summary needs its verdict line"
        );
    }

    #[test]
    fn phpunits_failures_name_the_test_as_its_report_does() {
        let lines = Lines::new(FAILED);
        assert!(lines.iter().any(is_marker));
        let found = failures(&lines);
        let got: Vec<(&str, Option<&str>)> = found
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.message.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "CalcTest::testAdds",
                    Some("Failed asserting that -1 is identical to 3.")
                ),
                (
                    "CalcTest::testMul with data set \"zero (1)\"",
                    Some("Failed asserting that 0 is identical to 1.")
                ),
            ],
            "a risky test is no failure"
        );
    }

    #[test]
    fn data_set_arguments_are_not_the_name() {
        assert_eq!(
            test_name("A::testX with data set #12 (1, 'a b')"),
            "A::testX with data set #12"
        );
        assert_eq!(test_name("A::testX with data set #3"), "A::testX with data set #3");
        assert_eq!(
            test_name("A::testX with data set \"a\" (1)"),
            "A::testX with data set \"a\""
        );
        assert_eq!(test_name("A::testX"), "A::testX");
        assert_eq!(
            test_name("A::testX with data set \"unclosed"),
            "A::testX with data set \"unclosed"
        );
    }
}
