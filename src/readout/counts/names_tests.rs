//! Test names: the real runner captures (`tests/fixtures/runner-output/`) and hand-made lines for the forms
//! they do not show. What a name must survive is honest work, so the cases also pin what is *not* part of a
//! name (hashes, line numbers, durations, counters) and what is never taken for a test.

use super::CountScanner;
use crate::readout::results::{TestOutcome, TestResults};

use TestOutcome::{Failed, Passed};

fn names(output: &str) -> Vec<(String, TestOutcome)> {
    let mut scanner = CountScanner::new();
    for line in output.lines() {
        scanner.feed_line(line.as_bytes());
    }
    let TestResults { tests, .. } = scanner.into_results();
    tests.into_iter().collect()
}

fn expect(output: &str, want: &[(&str, TestOutcome)]) {
    let want: Vec<(String, TestOutcome)> = want.iter().map(|(n, o)| ((*n).to_string(), *o)).collect();
    assert_eq!(names(output), want, "names read from:\n{output}");
}

macro_rules! capture {
    ($name:literal) => {
        include_str!(concat!("../../../tests/fixtures/runner-output/", $name, ".txt"))
    };
}

#[test]
fn cargo_test_names_carry_the_binary_without_its_hash_and_doctests_without_their_line() {
    expect(
        capture!("cargo-workspace-pass"),
        &[
            ("alpha tests::increments", Passed),
            ("alpha tests::increments_negative", Passed),
            ("api inc_from_outside", Passed),
            ("api inc_twice", Passed),
            ("beta tests::halves", Passed),
            ("doc alpha alpha/src/lib.rs - inc", Passed),
            ("doc beta beta/src/lib.rs - half", Passed),
            ("more half_of_odd", Passed),
        ],
    );
}

#[test]
fn cargo_unit_tests_of_a_binary_target_name_their_source() {
    let out = "     Running unittests src/main.rs (target/debug/deps/tool-0123456789abcdef)\n\
               test cli::parses ... FAILED\n\
               test cli::slow ... ignored, needs a network\n\
               test result: FAILED. 0 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out\n";
    expect(out, &[("tool(src/main.rs) cli::parses", Failed)]);
}

#[test]
fn nextest_names_are_its_binary_and_test_without_time_or_counter() {
    let got = names(capture!("nextest-fail"));
    assert!(
        got.contains(&("sample config::tests::parses_port".into(), Passed)),
        "{got:?}"
    );
    assert!(
        got.contains(&("sample config::tests::rejects_empty_port".into(), Failed)),
        "{got:?}"
    );
    // The libtest lines nextest shows as a test's captured output are not tests of their own.
    assert!(got.iter().all(|(name, _)| name.starts_with("sample ")), "{got:?}");
    expect(
        "        PASS [   0.004s] crate::api inc_twice\n    SIGSEGV [   0.100s] (2/3) crate boom\n     Summary [   0.2s] 2 tests run: 1 passed, 1 failed\n",
        &[("crate boom", Failed), ("crate::api inc_twice", Passed)],
    );
}

#[test]
fn pytest_names_come_from_the_short_summary_and_verbose_lines() {
    let out = "tests/test_a.py::test_v PASSED                                   [ 50%]\n\
               tests/test_a.py::test_w[1-2] FAILED                              [100%]\n\
               =========================== short test summary info ============================\n\
               PASSED tests/test_a.py::test_x\n\
               FAILED tests/test_a.py::test_y - assert 1 == 2\n\
               ERROR tests/test_b.py - ImportError: no module named calc\n\
               SKIPPED [1] tests/test_a.py:10: not on linux\n\
               XFAIL tests/test_a.py::test_z - known bug\n\
               ==================== 1 failed, 1 passed, 1 error in 0.10s =====================\n\
               PASSED after/the/summary::is_not_read\n";
    expect(
        out,
        &[
            ("tests/test_a.py::test_v", Passed),
            ("tests/test_a.py::test_w[1-2]", Failed),
            ("tests/test_a.py::test_x", Passed),
            ("tests/test_a.py::test_y", Failed),
            ("tests/test_b.py", Failed),
        ],
    );
}

#[test]
fn unittest_names_come_from_verbose_lines_only() {
    expect(capture!("unittest-fail"), &[]);
    let out = "test_add (test_calc.Calc.test_add) ... ok\n\
               test_sub (test_calc.Calc) ... FAIL\n\
               test_skip (test_calc.Calc.test_skip) ... skipped 'later'\n\
               test src/lib.rs - inc (line 3) ... ok\n\
               Ran 3 tests in 0.001s\n\nFAILED (failures=1, skipped=1)\n";
    expect(
        out,
        &[
            ("src/lib.rs - inc", Passed),
            ("test_calc.Calc.test_add", Passed),
            ("test_calc.Calc.test_sub", Failed),
        ],
    );
}

#[test]
fn go_names_wait_for_their_package_and_need_a_verbose_run() {
    expect(
        capture!("go-fail-v"),
        &[
            ("example.com/calc TestAdd", Passed),
            ("example.com/calc TestAddNegative", Failed),
            ("example.com/calc TestParsePort", Failed),
            ("example.com/calc TestParsePort/empty", Failed),
        ],
    );
    // Without -v go prints only failures: no names at all, or a later pass would look like every test went.
    expect(capture!("go-fail"), &[]);
}

#[test]
fn jest_and_vitest_are_named_by_file_whatever_their_per_test_lines() {
    expect(capture!("jest-fail"), &[("src/sum.test.js", Failed)]);
    expect(capture!("jest-pass-skipped"), &[("src/math.test.js", Passed)]);
    expect(capture!("vitest-fail"), &[("src/sum.test.js", Failed)]);
    expect(capture!("vitest-pass-skipped"), &[("src/math.test.js", Passed)]);
}

/// With `projects`, Jest prints the project's display name between the verdict and the file: the file keeps its
/// name, so a configuration turned into projects runs the same tests by name.
#[test]
fn jest_names_a_file_the_same_under_a_projects_display_name() {
    let summary = "Test Suites: 2 passed, 2 total\nTests:       3 passed, 3 total\n";
    expect(
        &format!("PASS unit test/calc.test.js\nPASS my app packages/a/x.test.js (5.2 s)\n{summary}"),
        &[("packages/a/x.test.js", Passed), ("test/calc.test.js", Passed)],
    );
}

#[test]
fn mocha_names_are_suite_and_title_and_its_failure_list_is_not_read_again() {
    expect(
        capture!("mocha-fail"),
        &[
            ("math > adds", Passed),
            ("math > subtracts", Passed),
            ("parse > parses a port", Passed),
            ("parse > rejects an empty port", Failed),
        ],
    );
    // npm's banner at column 0 is not a suite; a slow test's duration is not part of its name.
    let out =
        "\n> proj@1.0.0 test\n> mocha\n\n\n  math\n    nested\n      ✔ adds (120ms)\n    ✔ subtracts\n\n  1 passing\n";
    expect(out, &[("math > nested > adds", Passed), ("math > subtracts", Passed)]);
}

#[test]
fn node_test_names_from_tap_and_spec_skip_todo_and_skipped_tests() {
    expect(
        capture!("node-test-pass"),
        &[("adds", Passed), ("multiplies", Passed), ("subtracts", Passed)],
    );
    expect(
        capture!("node-test-spec-pass"),
        &[("adds", Passed), ("multiplies", Passed), ("subtracts", Passed)],
    );
    let tap = "TAP version 13\n# Subtest: math\n    # Subtest: adds\n    ok 1 - adds\n    # Subtest: divides\n    not ok 2 - divides\n    1..2\nnot ok 1 - math\nok  \texample.com/x\t0.01s\n# tests 2\n# pass 1\n# fail 1\n";
    expect(
        tap,
        &[("math", Failed), ("math > adds", Passed), ("math > divides", Failed)],
    );
    let spec = "▶ math\n  ✔ adds (0.5ms)\n  ✖ divides (1.1ms)\n✖ math (2ms)\nℹ tests 2\n✖ failing tests:\n\n✖ divides (1.1ms)\n";
    expect(
        spec,
        &[("math", Failed), ("math > adds", Passed), ("math > divides", Failed)],
    );
}

#[test]
fn tape_tests_are_named_by_their_comment_not_by_their_assertions_messages() {
    // A nested test's own comment names its assertions; a skipped test ran none and is not recorded.
    expect(
        capture!("tape-fail"),
        &[
            ("adds numbers", Passed),
            ("handles negatives", Failed),
            ("inner", Passed),
        ],
    );
    // Two tests whose assertions share a message stay two tests, and the failing one is not hidden.
    let out = "TAP version 13\n# parses dates\nok 1 should be equal\n# parses times\nok 2 should be equal\nnot ok 3 should be equal\n\n1..3\n# tests 3\n# pass  2\n# fail  1\n";
    expect(out, &[("parses dates", Passed), ("parses times", Failed)]);
    // node's TAP keeps naming its tests by their own lines, whatever comment came before.
    let node = "TAP version 13\n# a console.log line\n# Subtest: adds\nok 1 - adds\n1..1\n# tests 1\n# pass 1\n";
    expect(node, &[("adds", Passed)]);
}

#[test]
fn numbered_lists_and_check_marks_outside_a_runner_are_not_tests() {
    expect(
        "1) first step\n2) second step\n✔ done\n1 passing\n",
        &[("done", Passed)],
    );
    expect("Step 1) build\n- item\n1 passing\n", &[]);
}

/// A script that echoes a test-like line is not a runner: without any runner's summary no name counts, so an
/// honest pass that prints `all good` is not mistaken for one that lost its results.
#[test]
fn names_count_only_from_a_run_that_printed_a_runner_summary() {
    expect("test parser::roundtrip ... FAILED\nexpected 'fixed'\n", &[]);
    expect("✔ adds\nPASS src/a.test.js\n", &[]);
}
