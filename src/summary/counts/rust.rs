//! Counts from `cargo test` (libtest's `test result:` line, one per test binary and per doctest
//! run) and `cargo nextest run` (its `Summary` line).

use super::{Kind, TestCounts, tally};

/// Whether a nextest run is under way: libtest lines inside one are nextest's, not cargo's.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    in_nextest_run: bool,
}

impl State {
    pub(super) fn feed(&mut self, line: &str) -> Option<TestCounts> {
        if let Some(rest) = line.strip_prefix("test result: ") {
            return if self.in_nextest_run { None } else { libtest(rest) };
        }
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("Summary [") {
            self.in_nextest_run = false;
            return nextest(rest);
        }
        if t.starts_with("Starting ") && (t.contains(" tests across ") || t.contains(" test across ")) {
            self.in_nextest_run = true;
        }
        None
    }
}

/// `ok. 3 passed; 1 failed; 2 ignored; 0 measured; 5 filtered out; finished in 0.00s`.
fn libtest(rest: &str) -> Option<TestCounts> {
    let (verdict, items) = rest.split_once(". ")?;
    if verdict != "ok" && verdict != "FAILED" {
        return None;
    }
    let items = items.split("; ").filter(|item| !item.starts_with("finished in"));
    tally(items, true, |word| match word {
        "passed" => Some(Some(Kind::Passed)),
        "failed" => Some(Some(Kind::Failed)),
        "ignored" => Some(Some(Kind::Ignored)),
        "measured" | "filtered out" => Some(None),
        _ => None,
    })
}

/// `   0.026s] 6 tests run: 5 passed (1 slow), 1 failed, 2 skipped`, also `3/6 tests run:`.
fn nextest(rest: &str) -> Option<TestCounts> {
    let (_, rest) = rest.split_once("] ")?;
    let (run, items) = rest.split_once(" run: ")?;
    let (number, noun) = run.split_once(' ')?;
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !matches!(noun, "test" | "tests") || !number.split('/').all(all_digits) {
        return None;
    }
    // Notes in parentheses (`5 passed (1 slow, 1 leaky)`, `1 failed (1 due to being leaky)`)
    // qualify a count without adding to it.
    let items = without_parentheses(items);
    tally(items.split(", "), false, |word| match word {
        "passed" => Some(Some(Kind::Passed)),
        "failed" | "exec failed" | "timed out" => Some(Some(Kind::Failed)),
        "skipped" => Some(Some(Kind::Skipped)),
        _ => None,
    })
}

/// The text with every `(…)` group and the space before it removed.
fn without_parentheses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0_usize;
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                if depth == 1 && out.ends_with(' ') {
                    out.pop();
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
