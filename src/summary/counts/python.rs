//! Counts from pytest (its final `= 1 failed, 3 passed in 0.1s =` line, also without the `=` under
//! `-q`) and unittest (`Ran N tests in …` and the `OK (…)` or `FAILED (…)` line after it).

use super::{Kind, TestCounts, tally};

/// unittest's `Ran N tests` waiting for the verdict line that follows it.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    unittest_ran: Option<u64>,
}

impl State {
    pub(super) fn feed(&mut self, line: &str) -> Option<TestCounts> {
        let t = line.trim();
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
        pytest(t)
    }
}

/// `3 passed, 2 skipped, 1 deselected, 1 xfailed, 1 warning in 0.05s` inside any `=` padding.
fn pytest(t: &str) -> Option<TestCounts> {
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
