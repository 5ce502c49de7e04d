//! Rust: `cargo test` (libtest) and `cargo nextest run` — their failures, counts and test names — and rustc's
//! compile errors.
//!
//! Counts and test names: `cargo test` (libtest's `test result:` line, one per test binary and per doctest run;
//! `test NAME ... ok` per test) and `cargo nextest run` (its `Summary` line; `PASS [ 0.01s] BINARY NAME` per
//! test).
//!
//! Names: libtest's lines name the test within its binary only, so the name is prefixed with the binary cargo
//! announced (`     Running tests/api.rs (target/debug/deps/api-6cb4…)` → `api`; a crate's unit tests, from
//! `unittests src/lib.rs`, are the crate's name, and other unit-test targets add their source:
//! `tool(src/main.rs)`), and doctests with `doc <crate>`; the hash of the binary and a doctest's `(line N)` are
//! left out, because honest edits move them. nextest names its binaries itself (`crate::api`).

use super::{Row, Runner};
use crate::readout::counts::{Kind, TestCounts, tally};
use crate::readout::lines::{Found, Lines, details, is_noise, next_text};
use crate::readout::results::{TestOutcome, TestResults};

/// libtest or rustc output, at column 0 (nextest indents the libtest output it captures).
pub(super) fn is_cargo_marker(line: &str) -> bool {
    line.starts_with("running ") && line.contains(" test")
        || line.starts_with("test result: ")
        || line.starts_with("error[E")
        || (line.starts_with("---- ") && line.ends_with(" stdout ----"))
        || (line.starts_with("test ") && (line.ends_with(" ... FAILED") || line.ends_with(" ... ok")))
}

pub(super) fn is_nextest_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Nextest run ID")
        || (t.starts_with("Starting ") && t.contains(" tests across "))
        || failure(t).is_some()
}

/// The failing tests and compile errors `cargo test` printed.
pub(super) fn cargo_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    compile_errors(lines, &mut found);
    let mut in_list = false;
    for line in lines.iter() {
        if let Some(name) = line.strip_prefix("test ").and_then(|r| r.strip_suffix(" ... FAILED")) {
            found.add_test(name.trim_end_matches(" - should panic"), None);
        } else if line == "failures:" {
            in_list = true;
        } else if in_list {
            // libtest's closing list: four-space-indented names after `failures:`.
            match line.strip_prefix("    ") {
                Some(name) if !name.starts_with(' ') => found.add_test(name, None),
                _ => in_list = line.is_empty(),
            }
        }
    }
    panics(lines, &mut found);
    found
}

/// The failing tests and compile errors `cargo nextest run` printed.
pub(super) fn nextest_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    compile_errors(lines, &mut found);
    for line in lines.iter() {
        if let Some(name) = failure(line.trim_start()) {
            found.add_test(name, None);
        }
    }
    panics(lines, &mut found);
    found
}

/// `FAIL [   0.004s] (2/4) binary test::name` → `binary test::name`. Retries (`TRY 2 FAIL`) and
/// passes are not failures; timeouts, aborts, signals and leaks are.
fn failure(t: &str) -> Option<&str> {
    let (status, rest) = t.split_once(" [")?;
    let failed = matches!(status, "FAIL" | "LEAK-FAIL" | "TIMEOUT" | "ABORT")
        || (status.starts_with("SIG") && status.len() <= 8 && status.chars().all(|c| c.is_ascii_uppercase()));
    let (duration, rest) = rest.split_once("] ")?;
    if !failed || !duration.trim().ends_with('s') {
        return None;
    }
    let rest = rest.trim_start();
    let name = match rest.strip_prefix('(') {
        Some(counter) => counter.split_once(") ")?.1,
        None => rest,
    };
    Some(name.trim()).filter(|n| !n.is_empty())
}

/// rustc's `error[E…]:` and `error:` lines, with the ` --> file:line:col` that follows.
fn compile_errors(lines: &Lines, found: &mut Found) {
    for i in 0..lines.len() {
        let line = lines.get(i);
        if !(line.starts_with("error[E") || line.starts_with("error: ")) || is_noise(line) {
            continue;
        }
        let location = (i + 1..i + 4)
            .find_map(|j| lines.get(j).trim_start().strip_prefix("--> "))
            .map(|loc| format!(" at {}", loc.trim()))
            .unwrap_or_default();
        found.add_error(&format!("{line}{location}"));
    }
}

/// Panic messages, attached to the test whose thread panicked, else kept as error lines.
/// Formats: `thread 'T' (PID) panicked at FILE:L:C:` + message line (Rust ≥ 1.73, pid since
/// 1.88), and the older `thread 'T' panicked at 'MESSAGE', FILE:L:C`.
fn panics(lines: &Lines, found: &mut Found) {
    for i in 0..lines.len() {
        let t = lines.get(i).trim_start();
        let Some((thread, after)) = t.strip_prefix("thread '").and_then(|r| r.split_once('\'')) else {
            continue;
        };
        let Some((_, at)) = after.split_once("panicked at ") else {
            continue;
        };
        let (location, message) = if let Some(location) = at.strip_suffix(':') {
            (location, next_text(lines, i + 1, 2).map_or("", |(_, m)| m))
        } else if let Some((message, location)) = at.strip_prefix('\'').and_then(|q| q.rsplit_once("', ")) {
            (location, message)
        } else {
            (at, "")
        };
        let message = format!("{message}{} at {location}", details(lines, i + 2, 4))
            .trim_start()
            .to_owned();
        let suffix = format!(" {thread}");
        match found.test_mut(|name| name == thread || name.ends_with(&suffix)) {
            Some(test) if test.message.is_none() => test.message = Some(message),
            Some(_) => {}
            None if thread == "main" || thread.is_empty() => found.add_error(&format!("panicked: {message}")),
            None => found.add_test(thread, Some(message)),
        }
    }
}

/// The count and name scanner, fed every line. Its state: whether a nextest run is under way (libtest lines inside one are nextest's, not cargo's), and the
/// test binary cargo test announced last.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    in_nextest_run: bool,
    binary: String,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        if let Some(rest) = line.strip_prefix("test result: ") {
            return if self.in_nextest_run {
                None
            } else {
                libtest_counts(rest)
            };
        }
        if let Some(rest) = line.strip_prefix("test ") {
            if !self.in_nextest_run {
                self.libtest_line(rest, names);
            }
            return None;
        }
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("Summary [") {
            self.in_nextest_run = false;
            return nextest_counts(rest);
        }
        if let Some(rest) = t.strip_prefix("Running ") {
            if let Some(binary) = binary_of(rest) {
                self.binary = binary;
            }
        } else if let Some(krate) = t.strip_prefix("Doc-tests ") {
            self.binary = format!("doc {}", krate.trim());
        } else if t.starts_with("Starting ") && (t.contains(" tests across ") || t.contains(" test across ")) {
            self.in_nextest_run = true;
        } else if let Some((name, outcome)) = nextest_line(t) {
            names.record(name, outcome);
        }
        None
    }

    /// `tests::adds ... ok`, `tests::slow ... ignored, needs a network`, `src/lib.rs - inc (line 3) ... FAILED`.
    fn libtest_line(&self, rest: &str, names: &mut TestResults) {
        let Some((name, result)) = rest.rsplit_once(" ... ") else {
            return;
        };
        let outcome = match result.trim_end() {
            "ok" => TestOutcome::Passed,
            "FAILED" => TestOutcome::Failed,
            _ => return,
        };
        let name = strip_doctest_line(name);
        if self.binary.is_empty() {
            names.record(name, outcome);
        } else {
            names.record(&format!("{} {name}", self.binary), outcome);
        }
    }
}

/// `unittests src/lib.rs (target/debug/deps/alpha-e62994b938fd5803)` → `alpha`;
/// `unittests src/main.rs (target/debug/deps/tool-…)` → `tool(src/main.rs)`; `tests/api.rs (…/api-…)` → `api`.
fn binary_of(rest: &str) -> Option<String> {
    let (source, path) = rest.trim().rsplit_once(" (")?;
    let file = path.strip_suffix(')')?.rsplit(['/', '\\']).next()?;
    let file = file.strip_suffix(".exe").unwrap_or(file);
    let stem = match file.rsplit_once('-') {
        Some((stem, hash)) if hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => stem,
        _ => file,
    };
    Some(match source.strip_prefix("unittests ") {
        Some("src/lib.rs") | None => stem.to_string(),
        Some(source) => format!("{stem}({source})"),
    })
}

/// A doctest's name without its ` (line N)`: adding a line above the item must not rename it.
fn strip_doctest_line(name: &str) -> &str {
    match name.rsplit_once(" (line ") {
        Some((item, line)) if line.trim_end_matches(')').bytes().all(|b| b.is_ascii_digit()) => item,
        _ => name,
    }
}

/// `PASS [   0.009s] (1/4) sample config::tests::parses_port` (the counter is newer nextest's) →
/// the name after the time and counter, and how it ended. Retries (`TRY 2 PASS`) are left to the final line.
fn nextest_line(t: &str) -> Option<(&str, TestOutcome)> {
    let (status, rest) = t.split_once(" [")?;
    let outcome = match status {
        "PASS" | "LEAK" => TestOutcome::Passed,
        "FAIL" | "TIMEOUT" | "ABORT" | "LEAK-FAIL" => TestOutcome::Failed,
        _ if status.starts_with("SIG") && status.len() > 3 && status[3..].bytes().all(|b| b.is_ascii_uppercase()) => {
            TestOutcome::Failed
        }
        _ => return None,
    };
    let (time, rest) = rest.split_once("] ")?;
    if !time.trim().ends_with('s') {
        return None;
    }
    let rest = rest.trim();
    let rest = match rest.strip_prefix('(').and_then(|r| r.split_once(") ")) {
        Some((counter, after)) if counter.contains('/') => after,
        _ => rest,
    };
    // The binary and the test, separated by a space; a lone word is not a nextest test line.
    rest.contains(' ').then_some((rest, outcome))
}

/// `ok. 3 passed; 1 failed; 2 ignored; 0 measured; 5 filtered out; finished in 0.00s`.
fn libtest_counts(rest: &str) -> Option<TestCounts> {
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
fn nextest_counts(rest: &str) -> Option<TestCounts> {
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

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[
    Row {
        runner: Runner::Nextest,
        is_marker: is_nextest_marker,
        failures: nextest_failures,
        unless: None,
    },
    Row {
        runner: Runner::Cargo,
        is_marker: is_cargo_marker,
        failures: cargo_failures,
        unless: Some(Runner::Nextest),
    },
];
