//! Test counts: how many tests passed, failed, were skipped or ignored, read from the summary lines
//! the runners print. The count ratchet (`crate::testjudge::ratchet`) compares them between verifies, so a
//! "pass" reached by deleting or skipping tests is caught.
//!
//! The scanner is incremental and line-oriented: the verify output is kept with bounded memory
//! (head and tail), so the caller feeds it every line of the full stream as it goes by and the
//! middle of a long output (cargo prints one `test result:` line per test binary) still counts.
//! Its state is a few counters, whatever the output's size. Lines are cleaned like the failure
//! summary's (ANSI escapes removed, `\r` progress rewrites resolved), any bytes are accepted, and
//! nothing panics: numbers that do not fit a `u64` make their line unrecognized, sums saturate.
//!
//! Every summary found is added up, so `cargo test && npm test` counts both, and a cargo workspace
//! counts every test binary and the doctests. No summary at all gives `None`: no count is better
//! than a wrong one.
//!
//! How each runner's words map onto the four counts:
//!
//! | runner | passed | failed | skipped | ignored | not counted |
//! |---|---|---|---|---|---|
//! | `cargo test` (`test result:` at column 0) | passed | failed | | ignored | measured, filtered out |
//! | `cargo nextest` (`Summary [...] N tests run:`) | passed | failed, exec failed, timed out | skipped | | notes in parentheses (slow, flaky, leaky) |
//! | pytest (`= 1 failed, 2 passed in 0.1s =`, also `-q`) | passed, xpassed | failed, errors | skipped, xfailed | | deselected, warnings, reruns |
//! | unittest (`Ran N tests` + `OK (…)` / `FAILED (…)`) | the rest of N (unexpected successes included) | failures, errors | skipped, expected failures | | |
//! | Jest (`Tests: …, N total`) | passed | failed | skipped, todo | | total |
//! | Vitest (`Tests  … (N)`) | passed | failed | skipped, todo | | the total in parentheses |
//! | mocha (`N passing (…)`, `N pending`, `N failing`) | passing | failing | pending | | |
//! | `node --test` (TAP `# pass N`, spec `ℹ pass N`) | pass | fail, cancelled | skipped, todo | | tests, suites, duration_ms |
//! | `go test -v` (`--- PASS:` …) | PASS leaves | FAIL leaves | SKIP leaves | | parents of subtests |
//!
//! Why:
//! - *Filtered out* (libtest) and *deselected* (pytest) are the sealed command's own selection, not
//!   tests that declined to run; counting them would make a new test outside the filter look like
//!   one more skipped. nextest folds both `#[ignore]` and filtered-out tests into its `skipped`,
//!   and its summary does not tell them apart: with a filter in the verify command, a new test the
//!   filter leaves out raises nextest's skipped count.
//! - *xfailed*, *expected failures*, *todo* and *pending* tests exist but check nothing: marking a
//!   failing test so is a way of skipping it, so they count as skipped. *xpassed* and unittest's
//!   *unexpected successes* ran and passed (the runner may still fail the run for them).
//! - *Errors* and *cancelled* tests did not pass, so they count as failed. pytest reports an error
//!   in a test's teardown besides the test's own outcome, so such a test counts twice.
//! - `ignored` is libtest's own word (`#[ignore]`, ```` ```ignore ```` doctests); every other runner's
//!   "not run" is `skipped`. The ratchet adds the two.
//! - `go test -v` prints a parent test's line, then its subtests' lines indented under it: a table
//!   test's cases are the tests, so a parent with subtests is not counted, its leaves are. Without
//!   `-v` go prints only the failures (no `=== RUN` lines): that is no count at all, since a run
//!   of three failed tests out of three would be a lie.
//! - libtest lines between nextest's `Starting N tests across` and its `Summary` belong to nextest
//!   (captured output, or `--no-capture`'s pass-through: one libtest run per test) and are not
//!   counted again; `cargo test --doc && cargo nextest run` counts the doctests and nextest's run.

#[cfg(test)]
mod names_tests;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use super::lines::clean;
use super::results::TestResults;
use super::runner::Scanners;

/// What a verify's test runners reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct TestCounts {
    /// Tests that ran and passed.
    pub passed: u64,
    /// Tests that ran and failed (errors and cancelled tests included).
    pub failed: u64,
    /// Tests the runner reports as skipped, todo, pending or expected to fail.
    pub skipped: u64,
    /// Tests libtest reports as ignored (`#[ignore]`).
    pub ignored: u64,
}

impl TestCounts {
    /// Counts from the four numbers, in the fields' order.
    pub const fn new(passed: u64, failed: u64, skipped: u64, ignored: u64) -> TestCounts {
        TestCounts {
            passed,
            failed,
            skipped,
            ignored,
        }
    }

    /// Counts one test that ended as `outcome` (`None`: skipped) and records its name in `names` where it ran:
    /// what every reader of per-test lines does with one.
    pub(crate) fn one(&mut self, name: &str, outcome: Option<super::results::TestOutcome>, names: &mut TestResults) {
        use super::results::TestOutcome;
        match outcome {
            Some(TestOutcome::Passed) => self.passed += 1,
            Some(TestOutcome::Failed) => self.failed += 1,
            None => self.skipped += 1,
        }
        if let Some(outcome) = outcome {
            names.record(name, outcome);
        }
    }

    /// Tests that ran: passed plus failed.
    pub(crate) fn ran(&self) -> u64 {
        self.passed.saturating_add(self.failed)
    }

    /// Tests that exist but did not run: skipped plus ignored.
    pub(crate) fn not_run(&self) -> u64 {
        self.skipped.saturating_add(self.ignored)
    }

    pub(super) fn add(&mut self, other: TestCounts) {
        self.passed = self.passed.saturating_add(other.passed);
        self.failed = self.failed.saturating_add(other.failed);
        self.skipped = self.skipped.saturating_add(other.skipped);
        self.ignored = self.ignored.saturating_add(other.ignored);
    }
}

/// Reads test counts, and the tests by name, from a verify output one line at a time; see the module doc and
/// `super::results` for what it recognizes. Memory is bounded whatever the output's size: a few counters, and
/// at most `results::MAX_NAMES` names.
#[derive(Debug, Clone, Default)]
pub struct CountScanner {
    total: TestCounts,
    seen: bool,
    /// The tests reported by name (see `super::results`), from the same lines.
    results: TestResults,
    /// Each runner family's own scanner (`super::runner`).
    runners: Scanners,
}

impl CountScanner {
    /// A scanner that has seen nothing.
    pub fn new() -> CountScanner {
        CountScanner::default()
    }

    /// Feeds one line of output, with or without its line ending; any bytes (invalid UTF-8 is
    /// read lossily).
    pub fn feed_line(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        self.feed_clean(&clean(&text));
    }

    /// Feeds a line already cleaned of escapes and `\r` rewrites.
    pub(super) fn feed_clean(&mut self, line: &str) {
        for counts in self.runners.feed(line, &mut self.results).into_iter().flatten() {
            self.total.add(counts);
            self.seen = true;
        }
    }

    /// The counts of every runner summary seen so far, summed; `None` when no summary was seen.
    pub fn finish(&self) -> Option<TestCounts> {
        let mut total = self.total;
        let mut seen = self.seen;
        if let Some(last) = self.runners.pending() {
            total.add(last);
            seen = true;
        }
        seen.then_some(total)
    }

    /// The tests reported by name (a go package whose result line never came included) — only when some runner's
    /// summary was recognized too: a line that merely looks like a test's (a custom script echoing `test x ...
    /// FAILED`) is not a runner's report, and names from it would make an honest pass that prints none look
    /// like one that lost its results.
    pub fn into_results(mut self) -> TestResults {
        if self.finish().is_none() {
            return TestResults::default();
        }
        self.runners.flush_into(&mut self.results);
        self.results
    }
}

/// The test counts a whole output reports (see [`CountScanner`]).
pub fn counts(output: &str) -> Option<TestCounts> {
    let mut scanner = CountScanner::new();
    for line in output.lines() {
        scanner.feed_line(line.as_bytes());
    }
    scanner.finish()
}

/// `12 passed` → `(12, "passed")`; `None` unless the text is a number, a space and a word.
pub(super) fn number_word(item: &str) -> Option<(u64, &str)> {
    let (number, word) = item.trim().split_once(' ')?;
    let word = word.trim();
    (!word.is_empty()).then_some((number.parse().ok()?, word))
}

/// Counts of one kind of test, for the runners that report one word at a time.
pub(super) fn one_of(kind: Kind, n: u64) -> TestCounts {
    let mut counts = TestCounts::default();
    *match kind {
        Kind::Passed => &mut counts.passed,
        Kind::Failed => &mut counts.failed,
        Kind::Skipped => &mut counts.skipped,
        Kind::Ignored => &mut counts.ignored,
    } += n;
    counts
}

/// Which of the four counts a runner's word adds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Passed,
    Failed,
    Skipped,
    Ignored,
}

/// Adds up `N word` items with `kind_of` naming each word's count (`Some(None)`: a word known not
/// to count). `None` when an item is not `N word` or a word is unknown and `strict`.
pub(super) fn tally<'a>(
    items: impl Iterator<Item = &'a str>,
    strict: bool,
    kind_of: impl Fn(&str) -> Option<Option<Kind>>,
) -> Option<TestCounts> {
    let mut counts = TestCounts::default();
    for item in items {
        let (n, word) = number_word(item)?;
        match kind_of(word) {
            Some(Some(kind)) => counts.add(one_of(kind, n)),
            Some(None) => {}
            None if strict => return None,
            None => {}
        }
    }
    Some(counts)
}
