//! Python: pytest and unittest — their failures, counts and test names.
//!
//! Failures (pytest): the `short test summary info` lines (`FAILED nodeid - message`), with the `E   …` lines
//! of the failure sections filling in messages, or standing in when `-rN` hid the summary.
//!
//! Counts: pytest (its final `= 1 failed, 3 passed in 0.1s =` line, also without the `=` under
//! `-q`) and unittest (`Ran N tests in …` and the `OK (…)` or `FAILED (…)` line after it).
//!
//! Names: pytest's node ids (`tests/test_calc.py::test_add[2-3]`) from its short test summary
//! (`PASSED tests/…::test_add`; loopgate asks for every outcome there with `-rap`, see
//! `crate::verify::reporting`) and from `-v` lines (`tests/…::test_add PASSED [ 50%]`); unittest's
//! `module.Class.test` from `-v` lines (`test_add (test_calc.Calc.test_add) ... ok`) — without `-v`
//! unittest prints no names, so only its totals count.

use super::{Row, Runner};
use crate::readout::counts::{Kind, TestCounts, tally};
use crate::readout::lines::{Found, Lines};
use crate::readout::results::{TestOutcome, TestResults};

pub(super) fn is_marker(line: &str) -> bool {
    line.contains("test session starts")
        || line.contains("short test summary info")
        || ((line.starts_with("FAILED ") || line.starts_with("ERROR ")) && line.contains(".py"))
        || (line.starts_with('=') && line.contains(" no tests ran in "))
}

/// The failing tests pytest printed.
pub(super) fn failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    for line in lines.iter() {
        let Some(rest) = line.strip_prefix("FAILED ").or_else(|| line.strip_prefix("ERROR ")) else {
            continue;
        };
        let (node, message) = match rest.split_once(" - ") {
            Some((node, message)) => (node, Some(message.trim().to_owned())),
            None => (rest, None),
        };
        if node.contains(".py") && !node.contains(' ') {
            found.add_test(node, message);
        }
    }
    for (title, message) in sections(lines) {
        // Section titles: `test_x`, `TestClass.test_x`, `test_x[param]`, `ERROR collecting path.py`.
        let title = title.strip_prefix("ERROR collecting ").unwrap_or(&title);
        let suffix = format!("::{}", title.replace('.', "::"));
        let matches = |node: &str| node == title || node.ends_with(&suffix);
        match found.test_mut(matches) {
            Some(test) => {
                if test.message.is_none() {
                    test.message = message;
                }
            }
            None => found.add_test(title, message),
        }
    }
    found
}

/// `____ title ____` sections and the first `E   ` line in each.
fn sections(lines: &Lines) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for line in lines.iter() {
        if line.len() > 6 && line.starts_with("___") && line.ends_with("___") {
            let title = line.trim_matches('_').trim();
            if !title.is_empty() {
                out.push((title.to_owned(), None));
            }
        } else if let Some(error) = line.strip_prefix("E ").map(str::trim).filter(|e| !e.is_empty())
            && let Some((_, message @ None)) = out.last_mut()
        {
            *message = Some(error.to_owned());
        }
    }
    out
}

/// The count and name scanner, fed every line. Its state: unittest's `Ran N tests` waiting for the verdict line that follows it; whether pytest's short test
/// summary section is under way.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    unittest_ran: Option<u64>,
    in_short_summary: bool,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        let t = line.trim();
        self.names(t, names);
        if let Some(ran) = self.unittest_ran {
            if t.is_empty() {
                return None;
            }
            self.unittest_ran = None;
            if let Some(counts) = unittest_verdict(ran, t) {
                return Some(counts);
            }
        }
        if let Some(rest) = t.strip_prefix("Ran ") {
            self.unittest_ran = unittest_ran(rest);
            return None;
        }
        pytest_counts(t)
    }
}

impl Scanner {
    fn names(&mut self, t: &str, names: &mut TestResults) {
        if t.starts_with('=') {
            self.in_short_summary = t.trim_matches(|c: char| c == '=' || c == ' ') == "short test summary info";
            return;
        }
        if self.in_short_summary {
            if let Some((name, outcome)) = short_summary_line(t) {
                names.record(name, outcome);
            }
        } else if let Some((name, outcome)) = pytest_verbose_line(t).or_else(|| unittest_verbose_line(t)) {
            names.record(&name, outcome);
        }
    }
}

/// pytest's outcome words; skipped and expected failures did not run as tests that must pass.
fn pytest_outcome(word: &str) -> Option<Option<TestOutcome>> {
    Some(match word {
        "PASSED" | "XPASS" => Some(TestOutcome::Passed),
        "FAILED" | "ERROR" => Some(TestOutcome::Failed),
        "SKIPPED" | "XFAIL" => None,
        _ => return None,
    })
}

/// `FAILED tests/test_calc.py::test_add - assert 1 == 2`, `PASSED tests/test_calc.py::test_sub`,
/// `ERROR tests/test_broken.py - ImportError: …` (a module that did not import: the file is the name).
fn short_summary_line(t: &str) -> Option<(&str, TestOutcome)> {
    let (word, rest) = t.split_once(' ')?;
    let outcome = pytest_outcome(word)??;
    let name = rest.split_once(" - ").map_or(rest, |(name, _)| name).trim();
    (!name.starts_with('[')).then_some((name, outcome))
}

/// `tests/test_calc.py::test_add[1-2] PASSED   [ 50%]` (pytest `-v`).
fn pytest_verbose_line(t: &str) -> Option<(String, TestOutcome)> {
    let (name, rest) = t.split_once(' ')?;
    if !name.contains("::") {
        return None;
    }
    let word = rest.split_whitespace().next()?;
    Some((name.to_string(), pytest_outcome(word)??))
}

/// `test_add (test_calc.Calc.test_add) ... ok` (Python 3.11+) or `test_add (test_calc.Calc) ... FAIL`
/// (older) → `test_calc.Calc.test_add`.
fn unittest_verbose_line(t: &str) -> Option<(String, TestOutcome)> {
    let (left, result) = t.split_once(" ... ")?;
    let (method, qualified) = left.strip_suffix(')')?.split_once(" (")?;
    let identifier = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    if !identifier(method) || !identifier(qualified) {
        return None;
    }
    let outcome = match result.trim() {
        "ok" | "unexpected success" => TestOutcome::Passed,
        "FAIL" | "ERROR" => TestOutcome::Failed,
        _ => return None,
    };
    let name = if qualified.ends_with(&format!(".{method}")) {
        qualified.to_string()
    } else {
        format!("{qualified}.{method}")
    };
    Some((name, outcome))
}

/// `3 passed, 2 skipped, 1 deselected, 1 xfailed, 1 warning in 0.05s` inside any `=` padding.
fn pytest_counts(t: &str) -> Option<TestCounts> {
    let t = t.trim_matches(|c: char| c == '=' || c == ' ');
    // Most lines end otherwise: spare them the search for ` in `.
    if !t.ends_with('s') && !t.ends_with(')') {
        return None;
    }
    let (head, duration) = t.rsplit_once(" in ")?;
    let duration = duration.split(' ').next().unwrap_or(duration);
    if !duration.starts_with(|c: char| c.is_ascii_digit()) || !duration.ends_with('s') {
        return None;
    }
    if head == "no tests ran" {
        return Some(TestCounts::default());
    }
    tally(head.split(", "), true, |word| match word {
        "passed" | "xpassed" => Some(Some(Kind::Passed)),
        "failed" | "error" | "errors" => Some(Some(Kind::Failed)),
        "skipped" | "xfailed" => Some(Some(Kind::Skipped)),
        "deselected" | "warning" | "warnings" | "rerun" | "reruns" => Some(None),
        _ => None,
    })
}

/// `10 tests in 0.01s` → 10.
fn unittest_ran(rest: &str) -> Option<u64> {
    let (number, rest) = rest.split_once(' ')?;
    let rest = rest
        .strip_prefix("tests in ")
        .or_else(|| rest.strip_prefix("test in "))?;
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    number.parse().ok()
}

/// `OK`, `OK (skipped=2)`, `FAILED (failures=1, errors=1, skipped=1, expected failures=1)` or
/// `NO TESTS RAN`, for a run of `ran` tests.
fn unittest_verdict(ran: u64, t: &str) -> Option<TestCounts> {
    let details = match t {
        "OK" | "NO TESTS RAN" => "",
        _ => t
            .strip_prefix("OK (")
            .or_else(|| t.strip_prefix("FAILED ("))?
            .strip_suffix(')')?,
    };
    let mut counts = TestCounts::default();
    for item in details.split(", ").filter(|item| !item.is_empty()) {
        let (key, n) = item.split_once('=')?;
        let n: u64 = n.parse().ok()?;
        match key {
            "failures" | "errors" => counts.failed = counts.failed.saturating_add(n),
            "skipped" | "expected failures" => counts.skipped = counts.skipped.saturating_add(n),
            // Unexpected successes ran and passed: they stay in the passed remainder.
            _ => {}
        }
    }
    counts.passed = ran.saturating_sub(counts.failed).saturating_sub(counts.skipped);
    Some(counts)
}

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[Row {
    runner: Runner::Pytest,
    is_marker,
    failures,
    unless: None,
}];
