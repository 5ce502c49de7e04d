//! minitest and RSpec: their failures, counts and the tests they name, from their default output.
//!
//! minitest prints `Run options: --seed N` and `# Running:` (its markers), a dot per test, then each failure as
//! `  1) Failure:` (or `Error:`) over `CalcTest#test_add [test/calc_test.rb:6]:` and its message, and ends on
//! `4 runs, 2 assertions, 1 failures, 1 errors, 1 skips`. With `--verbose` it names every test:
//! `CalcTest#test_add = 0.00 s = .` (`F`, `E`, `S` for the others).
//!
//! RSpec prints a dot per example, then `Failures:` with `  1) Calc when wrong fails` over `Failure/Error: …`,
//! `N examples, N failures, N pending` and, last, `Failed examples:` with one `rspec ./spec/calc_spec.rb:7 #
//! Calc when wrong fails` per failure (its marker).
//!
//! Names are the runner's own: `Class#method` for minitest, the example's full description for RSpec — the names
//! loopgate's start hook records for every test (`report.rb`), which is where the passing ones come from.

use super::{Row, Runner};
use crate::readout::counts::TestCounts;
use crate::readout::lines::{Found, Lines};
use crate::readout::results::{TestOutcome, TestResults};

pub(super) fn is_minitest_marker(line: &str) -> bool {
    line.starts_with("Run options: --seed") || line == "# Running:"
}

pub(super) fn is_rspec_marker(line: &str) -> bool {
    line == "Failed examples:" || (line.starts_with("Finished in ") && line.contains("(files took "))
}

/// `CalcTest#test_add [test/calc_test.rb:6]:` or `CalcTest#test_add:` under a failure header: the name.
fn minitest_failed_name(line: &str) -> Option<&str> {
    let line = line.strip_suffix(':')?;
    let name = line.split_once(" [").map_or(line, |(name, _)| name);
    let (class, method) = name.split_once('#')?;
    (!class.is_empty() && !method.is_empty() && !name.contains(' ')).then_some(name)
}

/// `  1) Failure:` / `  1) Error:`.
fn minitest_header(line: &str) -> bool {
    let Some((number, kind)) = line.trim_start().split_once(") ") else {
        return false;
    };
    !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) && matches!(kind, "Failure:" | "Error:")
}

/// `CalcTest#test_add = 0.00 s = .`: the name and outcome (`None`: skipped).
fn minitest_verbose(line: &str) -> Option<(&str, Option<TestOutcome>)> {
    let (name, rest) = line.split_once(" = ")?;
    let (seconds, mark) = rest.rsplit_once(" = ")?;
    if !seconds.ends_with(" s") || !name.contains('#') || name.contains(' ') {
        return None;
    }
    let outcome = match mark {
        "." => Some(TestOutcome::Passed),
        "F" | "E" => Some(TestOutcome::Failed),
        "S" => None,
        _ => return None,
    };
    Some((name, outcome))
}

/// `rspec ./spec/calc_spec.rb:7 # Calc when wrong fails`: the example's description.
fn rspec_failed_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("rspec ")?;
    let (location, name) = rest.split_once(" # ")?;
    (location.contains(".rb") && !name.trim().is_empty()).then_some(name.trim())
}

/// The failing tests minitest printed, each with the first line of its message.
pub(super) fn minitest_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    for i in 1..lines.len() {
        if !minitest_header(lines.get(i - 1)) {
            continue;
        }
        let Some(name) = minitest_failed_name(lines.get(i)) else {
            continue;
        };
        let message = (i + 1 < lines.len())
            .then(|| lines.get(i + 1).trim())
            .filter(|l| !l.is_empty())
            .map(str::to_string);
        found.add_test(name, message);
    }
    found
}

/// The failing examples RSpec printed under `Failures:`, each with what failed (`Failure/Error: …` and the
/// line under it, `expected: 4`).
pub(super) fn rspec_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let Some(start) = lines.iter().position(|l| l == "Failures:") else {
        return found;
    };
    for i in start + 1..lines.len() {
        let line = lines.get(i);
        let Some((number, name)) = line.trim_start().split_once(") ") else {
            continue;
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || !line.starts_with("  ") {
            continue;
        }
        let texts: Vec<&str> = (i + 1..(i + 6).min(lines.len()))
            .map(|j| lines.get(j).trim())
            .filter(|l| !l.is_empty())
            .take(2)
            .collect();
        let message = (!texts.is_empty()).then(|| texts.join(" — "));
        found.add_test(name, message);
    }
    found
}

/// Counts and names of both runners, from their summaries and the lines that name tests.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    /// The last line was a minitest failure header: this line names the test.
    header: bool,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        let header = std::mem::replace(&mut self.header, minitest_header(line));
        if header && let Some(name) = minitest_failed_name(line) {
            names.record(name, TestOutcome::Failed);
            return None;
        }
        if let Some((name, outcome)) = minitest_verbose(line) {
            if let Some(outcome) = outcome {
                names.record(name, outcome);
            }
            return None;
        }
        if let Some(name) = rspec_failed_name(line) {
            names.record(name, TestOutcome::Failed);
            return None;
        }
        minitest_summary(line).or_else(|| rspec_summary(line))
    }
}

/// `4 runs, 2 assertions, 1 failures, 1 errors, 1 skips`.
fn minitest_summary(line: &str) -> Option<TestCounts> {
    let items: Vec<(u64, &str)> = line
        .split(", ")
        .map(crate::readout::counts::number_word)
        .collect::<Option<_>>()?;
    let [
        (runs, "runs" | "run"),
        (_, "assertions" | "assertion"),
        (failures, "failures" | "failure"),
        (errors, "errors" | "error"),
        (skips, "skips" | "skip"),
    ] = items.as_slice()
    else {
        return None;
    };
    let failed = failures + errors;
    Some(TestCounts::new(runs.saturating_sub(failed + skips), failed, *skips, 0))
}

/// `4 examples, 1 failure, 2 pending` (`, 1 error occurred outside of examples` counts a failure).
fn rspec_summary(line: &str) -> Option<TestCounts> {
    let mut items = line.split(", ");
    let (examples, "example" | "examples") = crate::readout::counts::number_word(items.next()?)? else {
        return None;
    };
    let mut failed = 0;
    let mut pending = 0;
    for item in items {
        match crate::readout::counts::number_word(item)? {
            (n, "failure" | "failures") => failed += n,
            (n, "pending") => pending += n,
            (n, word) if word.starts_with("error") && word.contains("outside of examples") => failed += n,
            _ => return None,
        }
    }
    Some(TestCounts::new(
        examples.saturating_sub(failed + pending),
        failed,
        pending,
        0,
    ))
}

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[
    Row {
        runner: Runner::Minitest,
        is_marker: is_minitest_marker,
        failures: minitest_failures,
        unless: None,
    },
    Row {
        runner: Runner::Rspec,
        is_marker: is_rspec_marker,
        failures: rspec_failures,
        unless: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(output: &str) -> (Vec<TestCounts>, TestResults) {
        let mut scanner = Scanner::default();
        let mut names = TestResults::default();
        let counts = output.lines().filter_map(|l| scanner.feed(l, &mut names)).collect();
        (counts, names)
    }

    /// minitest 5.17's output, as ruby printed it here for a file with a pass, a failure, an error and a skip.
    const MINITEST: &str = "Run options: --seed 38071\n\n# Running:\n\nF.ES\n\nFinished in 0.000735s, 5445.2811 runs/s, 2722.6405 assertions/s.\n\n  1) Failure:\nCalcTest#test_bad [test/calc_test.rb:8]:\nExpected: 4\n  Actual: 3\n\n  2) Error:\nCalcTest#test_err:\nRuntimeError: boom\n    test/calc_test.rb:14:in `test_err'\n\n4 runs, 2 assertions, 1 failures, 1 errors, 1 skips\n\nYou have skipped tests. Run with --verbose for details.\n";

    /// RSpec 3.12's progress output for a pass, a failure in a context, an `xit` and a `pending`.
    const RSPEC: &str = ".**F\n\nPending: (Failures listed here are expected and do not affect your suite's status)\n\n  1) Calc skipped\n     # Temporarily skipped with xit\n     # ./spec/calc_spec.rb:11\n\nFailures:\n\n  1) Calc when wrong fails\n     Failure/Error: expect(add(1, 2)).to eq 4\n\n       expected: 4\n            got: 3\n\n       (compared using ==)\n     # ./spec/calc_spec.rb:8:in `block (3 levels) in <top (required)>'\n\nFinished in 0.01247 seconds (files took 0.07662 seconds to load)\n4 examples, 1 failure, 2 pending\n\nFailed examples:\n\nrspec ./spec/calc_spec.rb:7 # Calc when wrong fails\n";

    #[test]
    fn minitest_output_reads_as_counts_failed_names_and_failures() {
        let (counts, names) = scan(MINITEST);
        assert_eq!(counts, vec![TestCounts::new(1, 2, 1, 0)]);
        assert_eq!(names.get("CalcTest#test_bad"), Some(TestOutcome::Failed));
        assert_eq!(names.get("CalcTest#test_err"), Some(TestOutcome::Failed));
        assert_eq!(names.tests.len(), 2, "the dots name no test: {names:?}");
        let lines = Lines::new(MINITEST);
        assert!(lines.iter().any(is_minitest_marker) && !lines.iter().any(is_rspec_marker));
        let found = minitest_failures(&lines);
        let shown: Vec<(&str, Option<&str>)> = found
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.message.as_deref()))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("CalcTest#test_bad", Some("Expected: 4")),
                ("CalcTest#test_err", Some("RuntimeError: boom"))
            ]
        );
    }

    #[test]
    fn minitest_verbose_lines_name_every_test() {
        let output = "CalcTest#test_add = 0.00 s = .\nCalcTest#test_bad = 0.00 s = F\nCalcTest#test_skip = 0.00 s = S\n3 runs, 2 assertions, 1 failures, 0 errors, 1 skips\n";
        let (counts, names) = scan(output);
        assert_eq!(counts, vec![TestCounts::new(1, 1, 1, 0)]);
        assert_eq!(names.get("CalcTest#test_add"), Some(TestOutcome::Passed));
        assert_eq!(names.get("CalcTest#test_bad"), Some(TestOutcome::Failed));
        assert_eq!(names.get("CalcTest#test_skip"), None, "a skipped test did not run");
    }

    #[test]
    fn rspec_output_reads_as_counts_failed_names_and_failures() {
        let (counts, names) = scan(RSPEC);
        assert_eq!(counts, vec![TestCounts::new(1, 1, 2, 0)]);
        assert_eq!(names.get("Calc when wrong fails"), Some(TestOutcome::Failed));
        assert_eq!(names.tests.len(), 1, "{names:?}");
        let lines = Lines::new(RSPEC);
        assert!(lines.iter().any(is_rspec_marker) && !lines.iter().any(is_minitest_marker));
        let found = rspec_failures(&lines);
        assert_eq!(found.tests.len(), 1, "the pending list is not the failures: {found:?}");
        assert_eq!(found.tests[0].name, "Calc when wrong fails");
        assert_eq!(
            found.tests[0].message.as_deref(),
            Some("Failure/Error: expect(add(1, 2)).to eq 4 — expected: 4")
        );
    }

    /// Every family reads every line: mocha's reader must not take minitest's `1) Failure:` or RSpec's pending
    /// list (`1) Calc skipped`) for failed tests, nor tape's for `# Running:`.
    #[test]
    fn the_whole_readout_names_only_the_failures_the_runner_names() {
        for (output, failed) in [
            (MINITEST, vec!["CalcTest#test_bad", "CalcTest#test_err"]),
            (RSPEC, vec!["Calc when wrong fails"]),
        ] {
            let mut scanner = crate::readout::CountScanner::new();
            for line in output.lines() {
                scanner.feed_line(line.as_bytes());
            }
            let names = scanner.into_results();
            let got: Vec<&str> = names.tests.keys().map(String::as_str).collect();
            assert_eq!(got, failed);
        }
    }

    #[test]
    fn lines_that_only_resemble_the_summaries_are_not_counts() {
        for line in [
            "4 runs, 2 assertions",
            "3 runs, 2 assertions, 1 failures, 0 errors",
            "4 examples, 1 failure, 2 apples",
            "examples, 1 failure",
            "Finished in 0.1 seconds",
            "rspec --version # prints it",
        ] {
            let (counts, names) = scan(line);
            assert!(counts.is_empty() && names.is_empty(), "{line}");
        }
        assert_eq!(scan("0 examples, 0 failures").0, vec![TestCounts::new(0, 0, 0, 0)]);
        assert_eq!(
            scan("1 example, 0 failures, 1 error occurred outside of examples").0,
            vec![TestCounts::new(0, 1, 0, 0)]
        );
    }
}
