//! ctest and GoogleTest: their failures, counts and test names, from their output.
//!
//! ctest prints one line per test (`1/4 Test #1: Calc.Adds ....***Failed    0.00 sec`, `Passed`, `***Skipped`,
//! `***Not Run (Disabled)`), framed by `Test project DIR` and its summary (`67% tests passed, 1 tests failed out
//! of 3`), then the failed tests' list (`The following tests FAILED:` / `  1 - Calc.Adds (Failed)`). Its test
//! names are GoogleTest's where the project registers them with `gtest_discover_tests`, else whole binaries
//! (`add_test`). A GoogleTest binary prints `[ RUN      ] Calc.Adds`, the failure's lines, then `[  FAILED  ]
//! Calc.Adds (0 ms)` (`[       OK ]`, `[  SKIPPED ]`), and its summary `[==========] 2 tests from 1 test suite
//! ran.`. Inside ctest's frame (`--output-on-failure` shows the binaries' output) only ctest's lines are counted
//! and named, so a test is never counted twice and the names do not change with which tests failed; GoogleTest's
//! lines there still give a failure its message.

use super::{Row, Runner};
use crate::readout::counts::TestCounts;
use crate::readout::lines::{Found, Lines};
use crate::readout::results::{TestOutcome, TestResults};

/// How long a failure's message may get in the summary.
const MESSAGE_MAX: usize = 200;

pub(super) fn is_marker(line: &str) -> bool {
    line.starts_with("[==========] ") || line.starts_with("Test project /") || ctest_test(line).is_some()
}

/// A ctest result line: the test's name and how it ended (`None`: skipped or disabled).
fn ctest_test(line: &str) -> Option<(&str, Option<TestOutcome>)> {
    let (_, rest) = line.trim_start().split_once(" Test ")?;
    let rest = rest.trim_start().strip_prefix('#')?;
    let (number, rest) = rest.split_once(": ")?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The name may hold spaces (Catch2's `adds two numbers`): it ends where ctest's padding of dots, or the
    // status, begins.
    let end = [" ..", " ***", "   "].iter().filter_map(|pad| rest.find(pad)).min()?;
    let (name, status) = (rest[..end].trim_end(), &rest[end..]);
    let status = status.trim_start_matches([' ', '.', '*']);
    let outcome = if status.starts_with("Passed") {
        Some(TestOutcome::Passed)
    } else if status.starts_with("Skipped") || status.starts_with("Not Run (Disabled)") {
        None
    } else if status.starts_with("Failed")
        || status.starts_with("Not Run")
        || status.starts_with("Timeout")
        || status.starts_with("Exception")
        || status.contains("Fault")
        || status.starts_with("Subprocess")
        || status.starts_with("Child aborted")
        || status.starts_with("Illegal")
        || status.starts_with("Interrupt")
        || status.starts_with("Bus error")
        || status.starts_with("Numerical")
    {
        Some(TestOutcome::Failed)
    } else {
        return None;
    };
    Some((name, outcome))
}

/// A GoogleTest result line with its time (`[       OK ] Calc.Zero (0 ms)`): the name and how it ended (`None`:
/// skipped). The list at a summary's end names the tests again without a time, and is not read.
fn gtest_test(line: &str) -> Option<(&str, Option<TestOutcome>)> {
    let (outcome, rest) = if let Some(rest) = line.strip_prefix("[       OK ] ") {
        (Some(TestOutcome::Passed), rest)
    } else if let Some(rest) = line.strip_prefix("[  FAILED  ] ") {
        (Some(TestOutcome::Failed), rest)
    } else {
        (None, line.strip_prefix("[  SKIPPED ] ")?)
    };
    let (name, time) = rest.rsplit_once(" (")?;
    time.ends_with(" ms)")
        .then_some((name.split(", where ").next().unwrap_or(name), outcome))
}

/// The failing tests: GoogleTest's, each with the lines its failure printed, and ctest's failed list.
pub(super) fn failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut running: Option<(String, Vec<String>)> = None;
    let mut failed_list = false;
    for line in lines.iter() {
        if let Some(name) = line.strip_prefix("[ RUN      ] ") {
            running = Some((name.to_string(), Vec::new()));
            continue;
        }
        if let Some((name, Some(TestOutcome::Failed))) = gtest_test(line) {
            let said = running
                .take()
                .filter(|(running, _)| running == name)
                .map(|(_, said)| said)
                .unwrap_or_default();
            found.add_test(name, message(&said));
            continue;
        }
        if let Some((_, said)) = running.as_mut() {
            let t = line.trim();
            if !t.is_empty() && said.len() < 6 {
                said.push(t.to_string());
            }
            continue;
        }
        if line.starts_with("The following tests FAILED:") {
            failed_list = true;
            continue;
        }
        if failed_list {
            // `	  1 - Calc.Adds (Failed)`
            match line.trim().split_once(" - ") {
                Some((number, rest)) if number.bytes().all(|b| b.is_ascii_digit()) => {
                    let name = rest.rsplit_once(" (").map_or(rest, |(name, _)| name);
                    found.add_test(name, None);
                }
                _ => failed_list = false,
            }
        }
    }
    found
}

/// A failure's lines as one message: where (`calc_test.cc:3: Failure`) and what (`Expected equality …`).
fn message(said: &[String]) -> Option<String> {
    let mut text = said.join(" ");
    if text.len() > MESSAGE_MAX {
        let mut cut = MESSAGE_MAX;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    (!text.is_empty()).then_some(text)
}

/// Counts and names, from ctest's lines inside its frame, else from GoogleTest's.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    /// Inside ctest's frame (`Test project DIR` up to its summary).
    ctest: bool,
    counts: TestCounts,
}

impl Scanner {
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        if line.starts_with("Test project /") {
            self.ctest = true;
            self.counts = TestCounts::default();
            return None;
        }
        if self.ctest {
            if line.contains("% tests passed, ") && line.contains(" tests failed out of ") {
                self.ctest = false;
                return Some(std::mem::take(&mut self.counts));
            }
            if let Some((name, outcome)) = ctest_test(line) {
                self.counts.one(name, outcome, names);
            }
            return None;
        }
        if let Some((name, outcome)) = gtest_test(line) {
            self.counts.one(name, outcome, names);
            return None;
        }
        (line.starts_with("[==========] ") && line.contains(" ran.")).then(|| std::mem::take(&mut self.counts))
    }
}

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[Row {
    runner: Runner::Ctest,
    is_marker,
    failures,
    unless: None,
}];

#[cfg(test)]
mod tests {
    use super::*;

    /// `ctest --output-on-failure` over `gtest_discover_tests`, as ctest 3.25 and GoogleTest 1.12 print it.
    const CTEST: &str = "Test project /tmp/p/build
    Start 1: Calc.Adds
1/4 Test #1: Calc.Adds ........................***Failed    0.00 sec
Running main() from ./googletest/src/gtest_main.cc
Note: Google Test filter = Calc.Adds
[==========] Running 1 test from 1 test suite.
[----------] 1 test from Calc
[ RUN      ] Calc.Adds
/tmp/p/tests/calc_test.cc:3: Failure
Expected equality of these values:
  add(1, 2)
    Which is: -1
  3
[  FAILED  ] Calc.Adds (0 ms)
[----------] 1 test from Calc (0 ms total)

[==========] 1 test from 1 test suite ran. (0 ms total)
[  PASSED  ] 0 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Calc.Adds

 1 FAILED TEST

    Start 2: Calc.Zero
2/4 Test #2: Calc.Zero ........................   Passed    0.00 sec
    Start 3: Calc.Later
3/4 Test #3: Calc.Later .......................***Skipped   0.00 sec
    Start 4: Calc.Off
4/4 Test #4: Calc.Off .........................***Not Run (Disabled)   0.00 sec

67% tests passed, 1 tests failed out of 3

Total Test time (real) =   0.01 sec

The following tests did not run:
\t  3 - Calc.Later (Skipped)
\t  4 - Calc.Off (Disabled)

The following tests FAILED:
\t  1 - Calc.Adds (Failed)
Errors while running CTest
";

    fn scan(output: &str) -> (Vec<TestCounts>, TestResults) {
        let mut scanner = Scanner::default();
        let mut names = TestResults::default();
        let counts = output.lines().filter_map(|l| scanner.feed(l, &mut names)).collect();
        (counts, names)
    }

    #[test]
    fn ctests_lines_are_counted_and_named_once() {
        let (counts, names) = scan(CTEST);
        assert_eq!(counts, vec![TestCounts::new(1, 1, 2, 0)]);
        assert_eq!(names.tests.len(), 2, "{names:?}");
        assert_eq!(names.get("Calc.Adds"), Some(TestOutcome::Failed));
        assert_eq!(names.get("Calc.Zero"), Some(TestOutcome::Passed));
        assert!(CTEST.lines().any(is_marker));
    }

    #[test]
    fn a_failure_carries_what_googletest_said() {
        let found = failures(&Lines::new(CTEST));
        assert_eq!(found.tests.len(), 1, "{found:?}");
        assert_eq!(found.tests[0].name, "Calc.Adds");
        let message = found.tests[0].message.as_deref().unwrap_or_default();
        assert!(
            message.starts_with("/tmp/p/tests/calc_test.cc:3: Failure Expected equality of these values:"),
            "{message}"
        );
    }

    #[test]
    fn ctests_list_names_a_failure_it_showed_no_output_of() {
        let plain = "Test project /tmp/p/build\n1/1 Test #1: calc_test ....***Failed    0.01 sec\n\n0% tests passed, 1 tests failed out of 1\n\nThe following tests FAILED:\n\t  1 - calc_test (Failed)\nErrors while running CTest\n";
        let found = failures(&Lines::new(plain));
        assert_eq!(found.tests.len(), 1);
        assert_eq!(found.tests[0].name, "calc_test");
        let (counts, names) = scan(plain);
        assert_eq!(counts, vec![TestCounts::new(0, 1, 0, 0)]);
        assert_eq!(names.get("calc_test"), Some(TestOutcome::Failed));
    }

    /// Catch2's tests through `catch_discover_tests`: names with spaces, and ctest's padding of any length.
    #[test]
    fn ctest_names_with_spaces_are_whole() {
        let catch2 = "Test project /tmp/c/build\n1/3 Test #1: adds two numbers ...............***Failed    0.05 sec\n2/3 Test #2: adds zero ........................   Passed    0.05 sec\n3/3 Test #3: a name as long as ctest's column   Passed    0.01 sec\n\n67% tests passed, 1 tests failed out of 3\n";
        let (counts, names) = scan(catch2);
        assert_eq!(counts, vec![TestCounts::new(2, 1, 0, 0)]);
        assert_eq!(names.get("adds two numbers"), Some(TestOutcome::Failed));
        assert_eq!(names.get("adds zero"), Some(TestOutcome::Passed));
        assert_eq!(names.get("a name as long as ctest's column"), Some(TestOutcome::Passed));
    }

    #[test]
    fn a_binary_run_directly_is_read_by_googletests_lines() {
        let direct = "[==========] Running 3 tests from 1 test suite.\n[ RUN      ] Calc.Adds\n[       OK ] Calc.Adds (0 ms)\n[ RUN      ] Calc.Later\n[  SKIPPED ] Calc.Later (0 ms)\n[ RUN      ] Sq/Param.Works/0\n[  FAILED  ] Sq/Param.Works/0, where GetParam() = 2 (0 ms)\n[==========] 3 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] Sq/Param.Works/0, where GetParam() = 2\n";
        let (counts, names) = scan(direct);
        assert_eq!(counts, vec![TestCounts::new(1, 1, 1, 0)]);
        assert_eq!(names.get("Calc.Adds"), Some(TestOutcome::Passed));
        assert_eq!(names.get("Sq/Param.Works/0"), Some(TestOutcome::Failed));
        assert_eq!(names.tests.len(), 2);
        let found = failures(&Lines::new(direct));
        assert_eq!(found.tests.len(), 1);
        assert_eq!(found.tests[0].name, "Sq/Param.Works/0");
    }
}
