use super::*;

fn results(tests: &[(&str, TestOutcome)]) -> TestResults {
    let mut results = TestResults::default();
    for (name, outcome) in tests {
        results.record(name, *outcome);
    }
    results
}

fn baseline(tests: &[(&str, TestOutcome)]) -> Baseline {
    let results = results(tests);
    let counts = Some(TestCounts::new(1, 1, 0, 0));
    Baseline::of_run(0, Some(1), false, 1200, counts, results)
}

use TestOutcome::{Failed, Passed};

#[test]
fn every_baseline_test_ran_and_passed_holds_and_new_tests_are_welcome() {
    let base = baseline(&[("a", Passed), ("b", Failed)]);
    let now = results(&[("a", Passed), ("b", Passed), ("c_new", Passed)]);
    assert_eq!(base.judge(Some(TestCounts::new(3, 0, 0, 0)), &now), Judged::Held);
}

#[test]
fn a_missing_or_failing_baseline_test_falls_short_whatever_the_totals() {
    // Two new trivial tests pay for the removed one in the totals, not by name.
    let base = baseline(&[("a", Passed), ("b", Failed)]);
    let now = results(&[("a", Failed), ("new1", Passed), ("new2", Passed)]);
    let Judged::Short(short) = base.judge(Some(TestCounts::new(2, 1, 0, 0)), &now) else {
        panic!("expected a shortfall");
    };
    assert_eq!(
        short,
        vec![
            Shortfall {
                name: "a".into(),
                was: Passed,
                now: Some(Failed)
            },
            Shortfall {
                name: "b".into(),
                was: Failed,
                now: None
            },
        ]
    );
}

#[test]
fn a_run_with_neither_names_nor_totals_after_a_baseline_with_them_is_no_result() {
    let base = baseline(&[("a", Failed)]);
    assert_eq!(base.judge(None, &TestResults::default()), Judged::NoResults);
    // Totals without names: the names were not printed this time; the totals judge (count ratchet).
    assert_eq!(
        base.judge(Some(TestCounts::new(1, 0, 0, 0)), &TestResults::default()),
        Judged::Held
    );
}

#[test]
fn a_baseline_that_read_nothing_asks_nothing() {
    let base = Baseline::of_run(0, Some(101), false, 10, None, TestResults::default());
    assert_eq!(base.judge(None, &TestResults::default()), Judged::Held);
    assert_eq!(base.tests_ran(), None);
}

#[test]
fn a_baseline_without_names_adopts_the_first_run_that_has_them_and_only_that_one() {
    let mut base = Baseline::of_run(0, Some(101), false, 10, None, TestResults::default());
    assert!(!base.adopt(1, None, &TestResults::default()));
    assert!(base.adopt(
        2,
        Some(TestCounts::new(1, 1, 0, 0)),
        &results(&[("a", Passed), ("b", Failed)])
    ));
    assert_eq!(base.iteration, 2);
    assert!(
        !base.adopt(3, None, &results(&[("a", Passed)])),
        "a baseline with names is kept"
    );
    assert_eq!(base.results.len(), 2);
}

#[test]
fn allowed_tests_are_no_longer_required_and_unknown_names_are_returned() {
    let mut base = baseline(&[("a", Passed), ("b", Failed)]);
    let names = vec!["b".to_string(), "nope".to_string()];
    assert_eq!(base.allow(&names), vec!["nope"]);
    let now = results(&[("a", Passed)]);
    assert_eq!(base.judge(None, &now), Judged::Held);
}

#[test]
fn a_test_skipped_at_baseline_is_not_required() {
    // Skipped tests are not recorded by name at all; only what ran is required.
    let base = baseline(&[("a", Passed)]);
    assert_eq!(base.judge(None, &results(&[("a", Passed)])), Judged::Held);
    assert_eq!(base.tests_ran(), Some(1));
    assert_eq!(base.failing(), Vec::<&str>::new());
}

#[test]
fn a_quiet_run_that_names_no_test_still_counts_its_failures() {
    // `cargo test -q` prints `test result: FAILED. 2 passed; 2 failed; …` but no `test NAME ... ok` lines: the
    // briefing said "4 test(s) ran, 0 failed" (issue 32).
    let quiet = Baseline::of_run(
        0,
        Some(101),
        false,
        300,
        Some(TestCounts::new(2, 2, 0, 0)),
        TestResults::default(),
    );
    assert_eq!((quiet.tests_ran(), quiet.tests_failed()), (Some(4), 2));
    let text = crate::messages::baseline::at_setup(crate::schema::Speech::En, &quiet, "LOG");
    assert!(text.contains("4 test(s) ran, 2 failed"), "{text}");
    // Where names were reported, the count is by name, as `tests_ran` is.
    let named = baseline(&[("a", Passed), ("b", Failed)]);
    assert_eq!((named.tests_ran(), named.tests_failed()), (Some(2), 1));
}
