//! Test names from the JavaScript runners' per-test lines.
//!
//! - **Jest**: `PASS src/sum.test.js` / `FAIL src/sum.test.js (5.2 s)` at column 0 name the *file*. Its
//!   indented `✓ adds` lines are left alone: Jest prints them only when one file ran (or with `--verbose`), so
//!   a second test file added by honest work would make them vanish.
//! - **Vitest**: ` ✓ src/math.test.js (5 tests | 1 skipped) 5ms` and ` ❯ src/sum.test.js (3 tests | 2 failed)`
//!   name the file, for the same reason.
//! - **mocha** (spec reporter) and **node's spec reporter**: `✔ adds`, `✖ adds (1.2ms)`, mocha's `1) adds`,
//!   under suite titles (mocha: plain indented lines; node: `▶ math`). A test is named by its suite titles
//!   and its own, joined with ` > `; durations and `# SKIP` / `# TODO` notes are not part of the name, and
//!   skipped or todo tests are not recorded. Mocha opens every top-level suite after a blank line, so a blank
//!   line closes the titles; a line at column 0 is never a mocha title (npm's `> mocha` banner is not a suite).
//! - **TAP** (node's test runner when not on a terminal, and other producers): `# Subtest: name` opens a
//!   test, `ok 3 - name` / `not ok 3 - name` ends it, nested four spaces deeper per level.
//! - **tape** (TAP of its own): a comment at column 0, `# adds numbers`, names the test, and the assertions
//!   under it (`ok 1 should be strictly equal`, with no ` - `) are its results: the test failed if one of them
//!   did. An assertion's message is no test name: hundreds of assertions share `should be equal`, so naming
//!   by message would make one failing assertion hide among passing ones of the same words.
//! - A TAP plan that comes *first* (`1..3` at column 0 before any result) is bats' (`src/ecosystem/shell/`
//!   reads it): its failures' comment lines are no tape titles, so its results are left to that reader.
//! - minitest's and RSpec's output (`src/ecosystem/ruby/` reads it) numbers its failures as mocha does (`  1)
//!   Failure:`, `  1) Calc adds`, and RSpec's pending examples the same way) and opens with `# Running:`, a
//!   tape title to this reader: once their headings are seen (`Run options: --seed`, `# Running:`,
//!   `Failures:`, `Pending: (Failures listed here…`) this reader stands aside.

use crate::readout::results::{TestOutcome, TestResults};

/// Titles nested deeper than this are not followed (the name keeps the outer ones).
const MAX_DEPTH: usize = 32;

/// Which runner's lines are being read: Jest's and Vitest's own per-test lines look like mocha's, so once
/// their file lines are seen the tree reader stands aside.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Open,
    Jest,
    Vitest,
    /// minitest's or RSpec's output: read by the Ruby ecosystem's reader alone.
    Ruby,
}

#[derive(Debug, Clone, Default)]
pub(super) struct State {
    mode: Mode,
    /// Suite titles above the current line, with their indentation (mocha, node spec).
    titles: Vec<(usize, String)>,
    /// Open TAP subtests, with their indentation.
    subtests: Vec<(usize, String)>,
    /// The tape test whose assertions follow (its `# title` comment), if any.
    tape_test: Option<String>,
    /// The tree reporters' per-test lines are over (mocha's `N passing`, node's `✖ failing tests:`): what
    /// follows repeats failures with other indentation.
    tree_done: bool,
    /// Results still to come of a TAP stream whose plan came first (bats'), which this reader leaves alone.
    plan_first: u64,
    /// A TAP result or comment was read since the last plan (a plan after them is node's or tape's, last).
    tap_open: bool,
}

impl State {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) {
        let t = line.trim();
        if ruby_heading(line) {
            self.mode = Mode::Ruby;
        }
        if self.mode == Mode::Ruby {
            return;
        }
        if let Some((file, outcome)) = jest_file(line) {
            self.mode = Mode::Jest;
            names.record(file, outcome);
            return;
        }
        if t.starts_with("RUN  v") {
            self.mode = Mode::Vitest;
            return;
        }
        if self.mode == Mode::Vitest {
            if let Some((file, outcome)) = vitest_file(t) {
                names.record(file, outcome);
            }
            return;
        }
        if self.mode == Mode::Jest {
            return;
        }
        if let Some(n) = line.strip_prefix("1..").and_then(|n| n.parse::<u64>().ok()) {
            if !self.tap_open {
                self.plan_first = n;
            }
            self.tap_open = false;
            return;
        }
        if self.plan_first > 0 {
            if line.starts_with("ok ") || line.starts_with("not ok ") {
                self.plan_first -= 1;
            }
            return;
        }
        if line.starts_with("ok ") || line.starts_with("not ok ") || line.starts_with("# ") {
            self.tap_open = true;
        }
        let indent = line.len() - line.trim_start().len();
        if self.tap(indent, t, names) {
            return;
        }
        self.tree(indent, t, names);
    }

    /// TAP lines; whether `t` was one.
    fn tap(&mut self, indent: usize, t: &str, names: &mut TestResults) -> bool {
        if let Some(name) = t.strip_prefix("# Subtest: ") {
            self.subtests.retain(|(at, _)| *at < indent);
            if self.subtests.len() < MAX_DEPTH {
                self.subtests.push((indent, name.trim().to_string()));
            }
            return true;
        }
        if indent == 0
            && let Some(comment) = t.strip_prefix("# ")
        {
            self.tape_test = tape_title(comment).map(str::to_string);
            return true;
        }
        let (outcome, rest) = if let Some(rest) = t.strip_prefix("not ok ") {
            (TestOutcome::Failed, rest)
        } else if let Some(rest) = t.strip_prefix("ok ") {
            (TestOutcome::Passed, rest)
        } else {
            return false;
        };
        let Some((number, title)) = rest.split_once(' ') else {
            return false;
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        let dashed = title.starts_with("- ");
        let title = title.strip_prefix("- ").unwrap_or(title);
        let (title, directive) = title.split_once(" # ").unwrap_or((title, ""));
        self.subtests.retain(|(at, _)| *at < indent);
        let skipped = {
            let directive = directive.trim_start().to_ascii_uppercase();
            directive.starts_with("SKIP") || directive.starts_with("TODO")
        };
        if skipped {
            return true;
        }
        match &self.tape_test {
            // tape's assertion (`ok 1 should be equal`, no ` - `) belongs to the test its comment named.
            Some(test) if indent == 0 && self.subtests.is_empty() && !dashed => {
                names.record(test, outcome);
            }
            _ => names.record(&joined(&self.subtests, title), outcome),
        }
        true
    }

    /// mocha's and node's spec reporter lines.
    fn tree(&mut self, indent: usize, t: &str, names: &mut TestResults) {
        if self.tree_done {
            return;
        }
        if t.is_empty() {
            self.titles.clear();
            return;
        }
        if t == "✖ failing tests:" || is_mocha_passing(t) {
            self.tree_done = true;
            return;
        }
        self.titles.retain(|(at, _)| *at < indent);
        // Mocha's `1) title` is indented under its suite; at column 0 it is any numbered list.
        let numbered = t.starts_with(|c: char| c.is_ascii_digit());
        if let Some((title, outcome)) = tree_test(t).filter(|_| !numbered || indent >= 2) {
            if let Some(outcome) = outcome {
                names.record(&joined(&self.titles, title), outcome);
            }
            return;
        }
        let title = match t.strip_prefix("▶ ") {
            Some(suite) => suite,
            None if indent >= 2 => t,
            None => return,
        };
        if self.titles.len() < MAX_DEPTH {
            self.titles.push((indent, title.to_string()));
        }
    }
}

/// A TAP comment at column 0 that names a tape test: not a summary line (`# tests 5`, `# pass  4`, `# ok`) and
/// not a skipped test (`# SKIP name`), whose assertions never run.
fn tape_title(comment: &str) -> Option<&str> {
    let comment = comment.trim();
    let summary = match comment.split_once(' ') {
        Some((key, value)) => {
            matches!(
                key,
                "tests" | "pass" | "fail" | "skip" | "todo" | "cancelled" | "suites" | "duration_ms"
            ) && value.trim().parse::<f64>().is_ok()
        }
        None => comment == "ok",
    };
    (!summary && !comment.is_empty() && !comment.starts_with("SKIP ")).then_some(comment)
}

/// `PASS src/sum.test.js` or `FAIL src/sum.test.js (5.2 s)` at column 0; with `projects`, the project's display
/// name stands between (`PASS unit src/sum.test.js`): the file is the last word before the time, so the same test
/// keeps its name whether one configuration or a project runs it.
fn jest_file(line: &str) -> Option<(&str, TestOutcome)> {
    let (word, rest) = line.split_once(' ')?;
    let outcome = match word {
        "PASS" => TestOutcome::Passed,
        "FAIL" => TestOutcome::Failed,
        _ => return None,
    };
    let rest = rest.trim();
    let before_time = match rest.rfind(" (") {
        Some(at) if rest.ends_with(')') => &rest[..at],
        _ => rest,
    };
    let file = before_time.split(' ').rfind(|word| !word.is_empty())?;
    looks_like_file(file).then_some((file, outcome))
}

/// `✓ src/math.test.js (5 tests | 1 skipped) 5ms`, `❯ src/sum.test.js (3 tests | 2 failed) 10ms`; a file
/// whose tests were all skipped (`↓`) did not run.
fn vitest_file(t: &str) -> Option<(&str, TestOutcome)> {
    let mut chars = t.chars();
    let marker = chars.next()?;
    let rest = chars.as_str().strip_prefix(' ')?;
    let (file, detail) = rest.split_once(" (")?;
    if !detail.starts_with(|c: char| c.is_ascii_digit()) || !detail.contains(" test") || !looks_like_file(file) {
        return None;
    }
    let counts = detail.split(')').next().unwrap_or(detail);
    let outcome = match marker {
        _ if counts.contains(" failed") => TestOutcome::Failed,
        '✓' | '❯' => TestOutcome::Passed,
        '×' => TestOutcome::Failed,
        _ => return None,
    };
    Some((file, outcome))
}

fn looks_like_file(word: &str) -> bool {
    word.contains('.') && !word.contains(char::is_whitespace)
}

/// `✔ adds`, `✔ adds (1.36ms)`, `✖ adds (2ms)`, `1) adds`, `﹣ divides (0.1ms) # SKIP`: the title, and how it
/// ended (`None`: skipped or todo, not recorded).
fn tree_test(t: &str) -> Option<(&str, Option<TestOutcome>)> {
    let mut chars = t.chars();
    let marker = chars.next()?;
    let after_marker = chars.as_str().strip_prefix(' ');
    let (outcome, title) = match marker {
        '✔' | '✓' => (Some(TestOutcome::Passed), after_marker?),
        '✖' | '✗' => (Some(TestOutcome::Failed), after_marker?),
        '﹣' => (None, after_marker?),
        '0'..='9' => {
            let (number, title) = t.split_once(") ")?;
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (Some(TestOutcome::Failed), title)
        }
        _ => return None,
    };
    let (title, note) = title.split_once(" # ").unwrap_or((title, ""));
    let note = note.trim_start().to_ascii_uppercase();
    let outcome = outcome.filter(|_| !note.starts_with("SKIP") && !note.starts_with("TODO"));
    Some((without_duration(title), outcome))
}

/// `adds (1.36ms)` → `adds`; mocha marks slow tests the same way.
fn without_duration(title: &str) -> &str {
    match title.rsplit_once(" (") {
        Some((before, time))
            if time.ends_with("ms)") || time.ends_with("s)") && time.starts_with(|c: char| c.is_ascii_digit()) =>
        {
            before
        }
        _ => title,
    }
}

/// A heading only minitest or RSpec prints, at column 0.
fn ruby_heading(line: &str) -> bool {
    line.starts_with("Run options: --seed")
        || line == "# Running:"
        || line == "Failures:"
        || line.starts_with("Pending: (Failures listed here")
}

/// `3 passing (8ms)`: mocha's summary begins.
fn is_mocha_passing(t: &str) -> bool {
    t.split_once(' ')
        .is_some_and(|(n, rest)| n.bytes().all(|b| b.is_ascii_digit()) && rest.starts_with("passing"))
}

fn joined(parents: &[(usize, String)], title: &str) -> String {
    let mut name = String::new();
    for (_, parent) in parents {
        name.push_str(parent);
        name.push_str(" > ");
    }
    name.push_str(title.trim());
    name
}
