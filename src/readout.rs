//! Failure synthesis: what a failed verify says, in a few hundred characters, and a fingerprint
//! that stays the same while the failure does.
//!
//! The model reads the summary at the top of the block reason, so it carries what is most useful
//! first: compile errors, then failing tests with their first error line, then other error lines.
//! Parsing is line-based and forgiving (no regex engine, no panics on any input): runners are
//! recognized by their own markers, and each recognized runner's extractor runs, so a verify like
//! `cargo test && npm test` is summarized by whichever of the two failed. When no runner says
//! anything useful, a generic pass picks up `error:`, `FAILED`, `panicked at` and assertion lines.
//!
//! The fingerprint hashes the *normalized* failure (numbers, durations, hex addresses, temp paths,
//! timestamps and pids masked; test order ignored), so "the same failure as last time" is
//! recognized although every run prints different timings.
//!
//! The test counts (`counts`: passed, failed, skipped, ignored from the runners' summary lines)
//! come with the summary, and from a scanner the caller can feed the full output line by line.
//!
//! Layout: `runner` (one module per runner family — its markers, failures, counts and test names — and the
//! table that registers them), `lines` (the cleaned lines and helpers the runner modules share), `generic`
//! (the fallback), `counts` (the totals and the line-by-line scanner), `results` (tests by name),
//! `fingerprint`.
//!
//! A leaf beside the runner table (`runner`), whose `Runner` keys its readers: it reads a run's output and knows
//! nothing of loops, seals or sentences.

mod counts;
mod fingerprint;
mod generic;
mod lines;
mod results;
mod runner;
#[cfg(test)]
mod tests;

pub use counts::{CountScanner, TestCounts, counts};
use lines::{Failure, Found, Lines};
pub use results::{TestOutcome, TestResults};
pub(crate) use runner::Runner;

/// Upper bound of [`FailureSummary::text`], in characters.
pub(crate) const SUMMARY_MAX_CHARS: usize = 500;
/// Upper bound of one line of the summary, in characters.
const LINE_MAX_CHARS: usize = 200;

/// What a verify output says went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FailureSummary {
    /// At most [`SUMMARY_MAX_CHARS`] characters, one item per line, most useful first; empty when
    /// nothing recognizable was found.
    pub(crate) text: String,
    /// The runner the summary comes from (the first recognized runner that reported a failure); `None`
    /// when no runner was recognized and the generic reading made the summary.
    pub(crate) runner: Option<Runner>,
    /// Failing test names as the runner prints them (`tests::foo`, `tests/x.py::test_y`, …).
    pub(crate) failing_tests: Vec<String>,
    /// First error lines: the failing tests' messages, compile errors, generic error lines.
    pub(crate) errors: Vec<String>,
    /// The output says no test ran (`running 0 tests`, `no tests ran`, `[no test files]`, …) and
    /// nothing says one did: a pass like that is suspicious.
    pub(crate) zero_tests: bool,
    /// The test counts the runners' summary lines report in this text (see [`counts`]); `None`
    /// when no summary line was recognized. When the text is the head and tail of a longer
    /// output, the summaries in the middle are missing: a [`CountScanner`] fed the whole stream
    /// has the full count.
    pub counts: Option<TestCounts>,
}

/// Summarizes a verify output (head, `…`, tail as lossy UTF-8; colors and `\r` are tolerated).
pub fn summarize(output: &str) -> FailureSummary {
    let lines = Lines::new(output);
    let detected = runner::detect(&lines);
    let mut found = Found::default();
    let mut runner = None;
    for &candidate in &detected {
        let part = runner::failures(candidate, &lines);
        if runner.is_none() && !part.is_empty() {
            runner = Some(candidate);
        }
        found.merge(part);
    }
    if found.is_empty() {
        found = generic::extract(&lines);
    }
    let runner = runner.or_else(|| detected.first().copied());
    let zero = generic::zero_tests(&lines);
    let mut scanner = CountScanner::new();
    for line in lines.iter() {
        scanner.feed_clean(line);
    }
    let text = render(&found, zero);
    let errors = found
        .tests
        .iter()
        .filter_map(|t| t.message.clone())
        .chain(found.errors.iter().cloned())
        .collect();
    FailureSummary {
        text,
        runner,
        failing_tests: found.tests.into_iter().map(|t| t.name).collect(),
        errors,
        zero_tests: zero.is_some(),
        counts: scanner.finish(),
    }
}

/// A 16-hex-digit fingerprint of the normalized failure: the failing tests and error lines when
/// the summary found any, else the last lines of the output. Equal fingerprints mean "the same
/// failure again", whatever the timings, pids, addresses and temp paths.
pub(crate) fn fingerprint(output: &str) -> String {
    fingerprint_of(&summarize(output), output)
}

/// [`fingerprint`] from the output's summary, when the caller has it already (summarizing is the costly part).
pub(crate) fn fingerprint_of(summary: &FailureSummary, output: &str) -> String {
    fingerprint::of(summary, output)
}

/// Renders the items, compile errors first, within [`SUMMARY_MAX_CHARS`].
fn render(found: &Found, zero: Option<&str>) -> String {
    let (compile, other): (Vec<&String>, Vec<&String>) = found.errors.iter().partition(|e| e.starts_with("error"));
    let test_line = |t: &Failure| match &t.message {
        Some(message) => format!("{}: {message}", t.name),
        None => t.name.clone(),
    };
    let mut items: Vec<String> = compile.into_iter().cloned().collect();
    let first_test = items.len();
    items.extend(found.tests.iter().map(test_line));
    let tests_end = items.len();
    items.extend(other.into_iter().cloned());
    if items.is_empty()
        && let Some(evidence) = zero
    {
        items.push(format!("no tests ran (the output says `{evidence}`)"));
    }

    // Lines in item order while they fit; then, if failing tests were left out, room is made
    // for a last line that says how many.
    let mut kept: Vec<String> = Vec::new();
    let mut used = 0;
    let mut omitted = 0;
    for (i, item) in items.iter().enumerate() {
        let line = clip(item, LINE_MAX_CHARS);
        let cost = line.chars().count() + usize::from(!kept.is_empty());
        if used + cost > SUMMARY_MAX_CHARS {
            if kept.is_empty() {
                kept.push(clip(&line, SUMMARY_MAX_CHARS));
            }
            omitted = tests_end.saturating_sub(i.max(first_test));
            break;
        }
        kept.push(line);
        used += cost;
    }
    if omitted > 0 {
        loop {
            let more = format!("… and {omitted} more failing");
            if used + 1 + more.chars().count() <= SUMMARY_MAX_CHARS {
                kept.push(more);
                break;
            }
            if kept.len() <= 1 {
                break;
            }
            if let Some(line) = kept.pop() {
                used -= line.chars().count() + usize::from(!kept.is_empty());
                if (first_test..tests_end).contains(&kept.len()) {
                    omitted += 1;
                }
            }
        }
    }
    kept.join("\n")
}

/// `s` cut to at most `max` characters, ending in `…` when cut.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
