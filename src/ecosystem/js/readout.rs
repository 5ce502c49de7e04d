//! JavaScript: Jest, Vitest, mocha and node's built-in runner — their failures, counts and test names.
//!
//! Failures: Jest (`● Suite › test` blocks, `✕ test` lines, `FAIL file`) and Vitest (`FAIL  file > suite >
//! test` blocks, `× test` lines).
//!
//! Counts: Jest (`Tests:       1 failed, 3 passed, 4 total`), Vitest
//! (`Tests  1 failed | 3 passed (4)`), mocha (`3 passing (8ms)`, then `2 pending`, `1 failing`)
//! and node's built-in runner (`# pass 3` … after `# tests 5` in TAP, `ℹ pass 3` in its spec
//! reporter; other TAP producers print the same lines, tape with the value padded: `# pass  3`).
//!
//! Names (see `names.rs` beside this file): Jest and Vitest by test *file* (`PASS src/sum.test.js`,
//! ` ✓ src/math.test.js (5 tests) 5ms`), because their per-test lines come and go with the number of files
//! that ran (Jest lists a file's tests only when it is the only one); mocha, node's spec reporter and TAP by
//! test, the enclosing `describe` titles joined with ` > `.

#[path = "readout/names.rs"]
mod names;

use super::{Row, Runner};
use crate::readout::counts::{Kind, TestCounts, number_word, one_of, tally};
use crate::readout::lines::{Found, Lines, details, next_text};
use crate::readout::results::TestResults;

/// Jest's summary lines end with a total (`Tests:       1 failed, 2 passed, 3 total`); PHPUnit's `Tests: 4,
/// Assertions: 3, Failures: 1.` does not.
pub(super) fn is_jest_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Test Suites:")
        || (t.starts_with("Tests:") && t.trim_end().ends_with(" total"))
        || t.starts_with("No tests found, exiting")
        || (t.starts_with("● ") && !t.starts_with("● Console"))
}

pub(super) fn is_vitest_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("RUN  v")
        || t.starts_with("Test Files  ")
        || t.starts_with("No test files found, exiting")
        || (t.starts_with("FAIL  ") && t.contains(" > "))
}

/// The failing tests Jest printed.
pub(super) fn jest_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut file = "";
    let mut files = Vec::new();
    for i in 0..lines.len() {
        let t = lines.get(i).trim();
        if let Some(path) = t.strip_prefix("FAIL ") {
            file = path.trim();
            files.push(file);
        } else if let Some(title) = t.strip_prefix("● ") {
            if title.starts_with("Console") {
                continue;
            }
            let name = if title == "Test suite failed to run" {
                format!("{file} (test suite failed to run)")
            } else {
                title.to_owned()
            };
            found.add_test(&name, message(lines, i + 1));
        }
    }
    if found.tests.is_empty() {
        for line in lines.iter() {
            if let Some(name) = line.trim().strip_prefix("✕ ") {
                found.add_test(without_duration(name), None);
            }
        }
    }
    if found.tests.is_empty() {
        for file in files {
            found.add_test(file, None);
        }
    }
    found
}

/// The failing tests Vitest printed.
pub(super) fn vitest_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    for i in 0..lines.len() {
        let t = lines.get(i).trim();
        if let Some(name) = t.strip_prefix("FAIL ") {
            found.add_test(name, message(lines, i + 1));
        }
    }
    if found.tests.is_empty() {
        for line in lines.iter() {
            if let Some(name) = line.trim().strip_prefix("× ") {
                found.add_test(without_duration(name), None);
            }
        }
    }
    found
}

/// The first line of a failure block plus its Expected/Received (or diff) details.
fn message(lines: &Lines, from: usize) -> Option<String> {
    let (at, first) = next_text(lines, from, 4)?;
    Some(format!("{first}{}", details(lines, at + 1, 14)))
}

/// `adds numbers (3 ms)` or `adds numbers 4ms` → `adds numbers`.
fn without_duration(name: &str) -> &str {
    let name = name.trim();
    if let Some(stripped) = name.strip_suffix(" ms)").and_then(|n| n.rsplit_once(" (")) {
        return stripped.0;
    }
    match name.rsplit_once(' ') {
        Some((head, last)) if last.ends_with('s') && last.starts_with(|c: char| c.is_ascii_digit()) => head,
        _ => name,
    }
}

/// The count and name scanner, fed every line. Its state: the multi-line summaries under way: mocha's and node's lines after their first; the per-test lines.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    in_mocha_summary: bool,
    in_node_summary: bool,
    names: names::State,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        let t = line.trim();
        self.names.feed(line, names);
        let mocha = self.mocha(t);
        let node = self.node(line);
        mocha.or(node).or_else(|| jest_counts(t)).or_else(|| vitest_counts(t))
    }

    /// `N passing (…)` opens mocha's summary; `N pending` and `N failing` right after it add to it.
    fn mocha(&mut self, t: &str) -> Option<TestCounts> {
        let item = if t.starts_with(|c: char| c.is_ascii_digit()) {
            number_word(t)
        } else {
            None
        };
        let kind = match item {
            Some((_, word)) if word == "passing" || word.starts_with("passing (") && word.ends_with(')') => {
                self.in_mocha_summary = true;
                Kind::Passed
            }
            Some((_, "pending")) if self.in_mocha_summary => Kind::Skipped,
            Some((_, "failing")) if self.in_mocha_summary => Kind::Failed,
            _ => {
                self.in_mocha_summary = false;
                return None;
            }
        };
        item.map(|(n, _)| one_of(kind, n))
    }

    /// `# tests N` (or `ℹ tests N`) at column 0 opens node's summary; the lines after it add up.
    fn node(&mut self, line: &str) -> Option<TestCounts> {
        if !self.in_node_summary && !line.starts_with('#') && !line.starts_with('ℹ') {
            return None;
        }
        let Some((key, value)) = line
            .strip_prefix("# ")
            .or_else(|| line.strip_prefix("ℹ "))
            .and_then(|rest| rest.split_once(' '))
        else {
            self.in_node_summary = false;
            return None;
        };
        // tape pads the value to line the numbers up: `# pass  738`.
        let value = value.trim_start();
        if key == "tests" && value.parse::<u64>().is_ok() {
            self.in_node_summary = true;
            return Some(TestCounts::default());
        }
        let kind = match key {
            "pass" => Kind::Passed,
            "fail" | "cancelled" => Kind::Failed,
            "skipped" | "todo" => Kind::Skipped,
            "suites" | "duration_ms" if self.in_node_summary => return None,
            _ => {
                self.in_node_summary = false;
                return None;
            }
        };
        match value.parse() {
            Ok(n) if self.in_node_summary => Some(one_of(kind, n)),
            _ => {
                self.in_node_summary = false;
                None
            }
        }
    }
}

/// `Tests:       1 failed, 2 skipped, 1 todo, 10 passed, 14 total`.
fn jest_counts(t: &str) -> Option<TestCounts> {
    let rest = t.strip_prefix("Tests:")?.trim();
    if !rest.ends_with(" total") {
        return None;
    }
    tally(rest.split(", "), false, kind_of)
}

/// `Tests  1 failed | 10 passed | 2 skipped | 1 todo (14)`.
fn vitest_counts(t: &str) -> Option<TestCounts> {
    let rest = t.strip_prefix("Tests  ")?.trim();
    let (items, total) = rest.rsplit_once(" (")?;
    let total = total.strip_suffix(')')?;
    if total.is_empty() || !total.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    tally(items.split(" | "), false, kind_of)
}

/// Jest's and Vitest's words (both ignore their total).
fn kind_of(word: &str) -> Option<Option<Kind>> {
    match word {
        "passed" => Some(Some(Kind::Passed)),
        "failed" => Some(Some(Kind::Failed)),
        "skipped" | "todo" => Some(Some(Kind::Skipped)),
        _ => None,
    }
}

/// What npm prints after a failing script that says nothing about the failure (`readout::runner::NOISE`).
pub(super) const NOISE: &[&str] = &[
    "npm ERR! code ",
    "npm ERR! errno",
    "npm ERR! Lifecycle",
    "npm error code ",
    "npm error command failed",
];

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[
    Row {
        runner: Runner::Vitest,
        is_marker: is_vitest_marker,
        failures: vitest_failures,
        unless: None,
    },
    Row {
        runner: Runner::Jest,
        is_marker: is_jest_marker,
        failures: jest_failures,
        unless: Some(Runner::Vitest),
    },
];
