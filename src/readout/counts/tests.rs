//! Test counts of hand-made lines: the formats and variants the stored captures do not show (other
//! versions, plugins, flags), the scanner's line handling, and how summaries add up. The real
//! runner output is checked in `readout::tests`, together with its failure summary.

use super::{CountScanner, TestCounts, counts};

fn n(passed: u64, failed: u64, skipped: u64, ignored: u64) -> Option<TestCounts> {
    Some(TestCounts::new(passed, failed, skipped, ignored))
}

#[test]
fn ran_and_not_run_add_up_the_four_counts() {
    let c = TestCounts::new(7, 2, 3, 1);
    assert_eq!((c.ran(), c.not_run()), (9, 4));
    let huge = TestCounts::new(u64::MAX, 1, u64::MAX, 1);
    assert_eq!((huge.ran(), huge.not_run()), (u64::MAX, u64::MAX));
}

#[test]
fn counts_serialize_as_four_named_numbers() {
    let c = n(3, 1, 2, 0).expect("counts");
    let json = serde_json::to_string(&c).expect("serializes");
    assert_eq!(json, r#"{"passed":3,"failed":1,"skipped":2,"ignored":0}"#);
    assert_eq!(serde_json::from_str::<TestCounts>(&json).expect("parses"), c);
}

#[test]
fn libtest_result_lines_add_up_and_filtered_out_does_not_count() {
    let out = "test result: ok. 3 passed; 1 failed; 2 ignored; 4 measured; 5 filtered out; finished in 0.01s\n\
               test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out\n";
    assert_eq!(counts(out), n(4, 3, 0, 2));
    // Indented (nextest's captured output), or not libtest's words: not a count.
    assert_eq!(
        counts("    test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"),
        None
    );
    assert_eq!(counts("test result: ok. 3 passed; 0 failed; 9 flaked"), None);
    assert_eq!(counts("test result: maybe. 3 passed; 0 failed"), None);
}

#[test]
fn nextest_summary_variants() {
    let summary = |rest: &str| counts(&format!("     Summary [   0.026s] {rest}"));
    assert_eq!(summary("1 test run: 1 passed, 0 skipped"), n(1, 0, 0, 0));
    assert_eq!(summary("3/6 tests run: 2 passed, 1 failed, 3 skipped"), n(2, 1, 3, 0));
    assert_eq!(
        summary(
            "9 tests run: 5 passed (1 slow, 1 flaky, 1 leaky), 2 failed (1 due to being leaky), 1 exec failed, 1 timed out, 2 skipped"
        ),
        n(5, 4, 2, 0)
    );
    assert_eq!(summary("0 tests run: 0 passed, 0 skipped"), n(0, 0, 0, 0));
    assert_eq!(summary("many tests run: 1 passed"), None);
    assert_eq!(counts("Summary of the release: 3 tests run: 3 passed"), None);
}

#[test]
fn doctests_before_a_nextest_run_count_and_libtest_lines_inside_it_do_not() {
    let out = "   Doc-tests alpha\n\nrunning 2 tests\n\n\
               test result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.1s\n\
               ────────────\n    Starting 2 tests across 1 binary\n       START [         ] (1/2) alpha a\n\n\
               running 1 test\ntest a ... ok\n\n\
               test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.00s\n\n\
               \x20       PASS [   0.008s] (1/2) alpha a\n\
               test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
               \x20    Summary [   0.026s] 2 tests run: 2 passed, 0 skipped\n\
               test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
    assert_eq!(counts(out), n(1 + 2 + 4, 0, 0, 1));
}

#[test]
fn pytest_summary_variants() {
    assert_eq!(
        counts(
            "== 1 failed, 10 passed, 2 skipped, 1 xfailed, 1 xpassed, 3 errors, 1 deselected, 2 warnings in 0.1s =="
        ),
        n(11, 4, 3, 0)
    );
    assert_eq!(
        counts("1 failed, 1 passed, 1 error, 1 rerun in 65.12s (0:01:05)"),
        n(1, 2, 0, 0)
    );
    assert_eq!(counts("============ no tests ran in 0.01s ============"), n(0, 0, 0, 0));
    assert_eq!(counts("====== 2 deselected in 0.01s ======"), n(0, 0, 0, 0));
    // A plugin's word the mapping does not know: no count rather than a wrong one.
    assert_eq!(counts("== 3 passed, 2 subtests passed in 0.1s =="), None);
    // Lines that only look alike.
    for line in [
        "    Finished `test` profile [unoptimized] target(s) in 0.05s",
        "3 passed in the last build",
        "3 passed in total",
        "Compiled 3 files in 0.2s",
    ] {
        assert_eq!(counts(line), None, "{line}");
    }
}

#[test]
fn unittest_needs_its_verdict_line() {
    assert_eq!(counts("Ran 10 tests in 0.01s\n\nOK\n"), n(10, 0, 0, 0));
    assert_eq!(counts("Ran 1 test in 0.000s\n\nOK (skipped=1)\n"), n(0, 0, 1, 0));
    assert_eq!(counts("Ran 0 tests in 0.000s\n\nNO TESTS RAN\n"), n(0, 0, 0, 0));
    assert_eq!(
        counts("Ran 10 tests in 0.5s\n\nFAILED (failures=1, errors=1, skipped=1, expected failures=1)\n"),
        n(6, 2, 2, 0)
    );
    // Cut before the verdict, or followed by something else: the outcome is unknown.
    assert_eq!(counts("Ran 10 tests in 0.01s\n"), None);
    assert_eq!(counts("Ran 10 tests in 0.01s\nsomething else\nOK\n"), None);
    assert_eq!(counts("Ran away from home in 1999\n\nOK\n"), None);
}

#[test]
fn jest_vitest_mocha_and_node_lines() {
    assert_eq!(
        counts("Tests:       1 failed, 2 skipped, 1 todo, 10 passed, 14 total"),
        n(10, 1, 3, 0)
    );
    assert_eq!(counts("Tests:       0 total"), n(0, 0, 0, 0));
    assert_eq!(
        counts("      Tests  1 failed | 10 passed | 2 skipped | 1 todo (14)"),
        n(10, 1, 3, 0)
    );
    assert_eq!(counts("Tests  3 passed"), None, "vitest's total is part of the line");
    assert_eq!(
        counts("\n  10 passing (20ms)\n  2 pending\n  1 failing\n"),
        n(10, 1, 2, 0)
    );
    assert_eq!(
        counts("  2 pending\n  1 failing\n"),
        None,
        "mocha's block opens with passing"
    );
    assert_eq!(
        counts("  10 passing (20ms)\n\n  1 failing\n"),
        n(10, 0, 0, 0),
        "the block is contiguous"
    );
    let tap =
        "1..10\n# tests 10\n# suites 2\n# pass 7\n# fail 1\n# cancelled 1\n# skipped 0\n# todo 1\n# duration_ms 12.5\n";
    assert_eq!(counts(tap), n(7, 2, 1, 0));
    let spec = tap.replace("# ", "ℹ ");
    assert_eq!(counts(&spec), n(7, 2, 1, 0));
    assert_eq!(counts("# pass 3\n# fail 1\n"), None, "TAP counts follow `# tests`");
    assert_eq!(counts("# tests 3\nnot a summary\n# pass 3\n"), n(0, 0, 0, 0));
}

#[test]
fn go_counts_leaves_of_verbose_runs_only() {
    let verbose = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n\
                   --- FAIL: TestB (0.00s)\n    --- PASS: TestB/x (0.00s)\n    --- FAIL: TestB/y (0.00s)\n\
                   \x20       --- SKIP: TestB/y/deep (0.00s)\n        --- PASS: TestB/y/deeper (0.00s)\n\
                   \x20   --- PASS: TestB/z (0.00s)\n--- SKIP: TestC (0.00s)\nFAIL\n";
    // Leaves: TestA, TestB/x, TestB/y/deep, TestB/y/deeper, TestB/z, TestC.
    assert_eq!(counts(verbose), n(4, 0, 2, 0));
    let quiet = "--- FAIL: TestB (0.00s)\n    x_test.go:3: no\nFAIL\nFAIL\texample.com/x\t0.01s\n";
    assert_eq!(counts(quiet), None, "without -v go prints only the failures");
}

#[test]
fn summaries_of_several_runners_add_up() {
    let out = "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out\n\
               ===== 2 passed, 1 skipped in 0.1s =====\n\
               Tests:       1 skipped, 4 passed, 5 total\n";
    assert_eq!(counts(out), n(9, 0, 2, 1));
}

#[test]
fn colors_carriage_returns_line_endings_and_bad_bytes_do_not_matter() {
    let mut scanner = CountScanner::new();
    scanner.feed_line(b"\x1b[32m===== \x1b[1m3 passed\x1b[0m, \x1b[33m1 skipped\x1b[0m in 0.1s =====\x1b[0m\r\n");
    scanner.feed_line(
        b"collecting ...\r\x1b[2Ktest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
    );
    scanner.feed_line(b"\xff\xfe garbage \xc3\x28");
    scanner.feed_line(b"");
    assert_eq!(scanner.finish(), n(5, 0, 1, 0));
    assert_eq!(CountScanner::new().finish(), None);
}

#[test]
fn numbers_too_large_are_no_count_and_sums_saturate() {
    assert_eq!(counts("== 99999999999999999999999 passed in 0.1s =="), None);
    let max = format!("== {} passed in 0.1s ==\n", u64::MAX);
    assert_eq!(counts(&max.repeat(2)), n(u64::MAX, 0, 0, 0));
}

#[test]
fn finish_does_not_consume_the_scanner() {
    let mut scanner = CountScanner::new();
    for line in ["=== RUN   TestA", "--- PASS: TestA (0.00s)"] {
        scanner.feed_line(line.as_bytes());
    }
    assert_eq!(scanner.finish(), n(1, 0, 0, 0));
    scanner.feed_line(b"--- SKIP: TestB (0.00s)");
    assert_eq!(scanner.finish(), n(1, 0, 1, 0));
}
