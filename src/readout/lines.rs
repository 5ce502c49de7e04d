//! What the runner modules share: the output's cleaned lines, what a failure extractor finds ([`Found`]), and
//! the line helpers the extractors use. Everything is plain string matching on single lines, so no input can
//! make it slow or panic.

use std::borrow::Cow;

/// Test names kept at most (the summary shows a few; the history keeps these).
const MAX_TESTS: usize = 200;
/// Error lines kept at most.
const MAX_ERRORS: usize = 20;

/// The output's lines with ANSI escapes removed and `\r` progress rewrites resolved.
pub(super) struct Lines<'a> {
    lines: Vec<Cow<'a, str>>,
}

impl<'a> Lines<'a> {
    pub(super) fn new(output: &'a str) -> Lines<'a> {
        Lines {
            lines: output.lines().map(clean).collect(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.lines.len()
    }

    /// Line `i`, or "" past the end.
    pub(super) fn get(&self, i: usize) -> &str {
        self.lines.get(i).map_or("", |l| l)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(|l| &**l)
    }
}

/// `line` without ANSI escapes, and only its last `\r`-separated rewrite (a trailing `\r` dropped).
pub(super) fn clean(line: &str) -> Cow<'_, str> {
    let line = line.trim_end_matches('\r');
    let line = line.rsplit('\r').find(|part| !part.is_empty()).unwrap_or(line);
    if !line.contains('\x1b') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
        } else if chars.as_str().starts_with('[') {
            // CSI: parameters and intermediates, then one final byte in '@'..='~'.
            chars.next();
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        }
    }
    Cow::Owned(out)
}

/// One failing test and its first error line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Failure {
    pub(crate) name: String,
    pub(crate) message: Option<String>,
}

/// What an extractor found: failing tests in output order, and error lines not tied to a test.
#[derive(Debug, Default)]
pub(super) struct Found {
    pub(crate) tests: Vec<Failure>,
    pub(crate) errors: Vec<String>,
}

impl Found {
    pub(super) fn is_empty(&self) -> bool {
        self.tests.is_empty() && self.errors.is_empty()
    }

    /// Adds a failing test once; a message fills in a test that has none yet.
    pub(super) fn add_test(&mut self, name: &str, message: Option<String>) {
        let name = name.trim();
        if name.is_empty() {
            return;
        }
        if let Some(test) = self.tests.iter_mut().find(|t| t.name == name) {
            if test.message.is_none() {
                test.message = message;
            }
        } else if self.tests.len() < MAX_TESTS {
            self.tests.push(Failure {
                name: name.to_owned(),
                message,
            });
        }
    }

    /// The test `matches` selects, if any.
    pub(super) fn test_mut(&mut self, matches: impl Fn(&str) -> bool) -> Option<&mut Failure> {
        self.tests.iter_mut().find(|t| matches(&t.name))
    }

    pub(super) fn add_error(&mut self, line: &str) {
        let line = line.trim();
        if !line.is_empty() && self.errors.len() < MAX_ERRORS && !self.errors.iter().any(|e| e == line) {
            self.errors.push(line.to_owned());
        }
    }

    pub(super) fn merge(&mut self, other: Found) {
        for test in other.tests {
            self.add_test(&test.name, test.message);
        }
        for error in &other.errors {
            self.add_error(error);
        }
    }
}

/// Lines the runners print after every failure that say nothing about it (and those of an ecosystem's own tools,
/// `super::runner::is_noise`).
pub(super) fn is_noise(line: &str) -> bool {
    const NOISE: &[&str] = &[
        "error: could not compile",
        "error: test failed, to rerun pass",
        "error: aborting due to",
        "error: build failed",
        "error: test run failed",
        "error: Recipe `",
        "error: process didn't exit successfully",
        "error Command failed with exit code",
        "make: *** [",
    ];
    let t = line.trim_start();
    NOISE.iter().any(|n| t.starts_with(n))
        || super::runner::is_noise(t)
        || (t.starts_with("error: ") && t.contains(" target") && t.ends_with("failed:"))
}

/// `left: 1` / `Expected: 2` style lines of an assertion message, normalized as `label: value`.
pub(super) fn detail_of(t: &str) -> Option<String> {
    const LABELS: &[&str] = &[
        "left:",
        "right:",
        "Expected:",
        "Received:",
        "expected:",
        "received:",
        "actual:",
        "Actual:",
    ];
    LABELS
        .iter()
        .find(|l| t.starts_with(**l))
        .map(|_| t.trim_end_matches(',').split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Assertion details in the `window` lines from `from`: ` (left: -1, right: -5)`, or diff lines
/// as ` (expected: X, received: Y)`; empty when there are none.
pub(super) fn details(lines: &Lines, from: usize, window: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let (mut minus, mut plus) = (None, None);
    for i in from..(from + window).min(lines.len()) {
        let t = lines.get(i).trim();
        if starts_new_item(t) {
            break;
        }
        if let Some(detail) = detail_of(t) {
            parts.push(detail);
        } else if let Some(v) = t.strip_prefix("- ").filter(|v| !v.starts_with("Expected")) {
            minus.get_or_insert_with(|| format!("expected: {}", v.trim().trim_end_matches(',')));
        } else if let Some(v) = t.strip_prefix("+ ").filter(|v| !v.starts_with("Received")) {
            plus.get_or_insert_with(|| format!("received: {}", v.trim().trim_end_matches(',')));
        }
        if parts.len() >= 2 {
            break;
        }
    }
    if parts.is_empty() {
        parts.extend(minus.into_iter().chain(plus));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

fn starts_new_item(t: &str) -> bool {
    ["● ", "---- ", "--- FAIL", "thread '", "FAIL ", "× ", "✕ ", "____", "⎯⎯"]
        .iter()
        .any(|m| t.starts_with(m))
}

/// The first non-blank line in `from..from + window`, trimmed, with its index.
pub(super) fn next_text<'l>(lines: &'l Lines, from: usize, window: usize) -> Option<(usize, &'l str)> {
    (from..(from + window).min(lines.len()))
        .map(|i| (i, lines.get(i).trim()))
        .find(|(_, t)| !t.is_empty())
}
