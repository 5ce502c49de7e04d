//! Every transition of the ratchet: first run, more, same, fewer ran, more skipped, failing runs,
//! no counts, a rejected pass, an allowed pass, and the record's serialized form.

use super::{Best, Count, MovedCount, RunVerdict};
use crate::messages;
use crate::readout::TestCounts;
use crate::schema::Speech;

fn run(passed: u64, failed: u64, skipped: u64, ignored: u64) -> Option<TestCounts> {
    Some(TestCounts::new(passed, failed, skipped, ignored))
}

/// The record after these passing runs.
fn after_passes(runs: &[Option<TestCounts>]) -> Best {
    let mut best = Best::default();
    for counts in runs {
        best.record(*counts, RunVerdict::Passed);
    }
    best
}

fn moved(count: Count, best: u64, now: u64) -> MovedCount {
    MovedCount { count, best, now }
}

#[test]
fn the_first_run_has_nothing_to_compare_with() {
    assert_eq!(Best::default().check(run(3, 0, 5, 1)), vec![]);
    assert_eq!(Best::default().check(run(0, 0, 0, 0)), vec![]);
}

#[test]
fn more_tests_or_the_same_are_fine_and_raise_the_record() {
    let mut best = after_passes(&[run(40, 0, 2, 0)]);
    assert_eq!(best.check(run(40, 0, 2, 0)), vec![], "the same");
    assert_eq!(best.check(run(45, 0, 1, 0)), vec![], "more ran, fewer skipped");
    best.record(run(45, 0, 1, 0), RunVerdict::Passed);
    assert_eq!(
        best,
        Best {
            most_ran: Some(45),
            fewest_skipped: Some(1)
        }
    );
    assert_eq!(
        best.check(run(40, 0, 2, 0)),
        vec![moved(Count::Ran, 45, 40), moved(Count::Skipped, 1, 2)]
    );
}

#[test]
fn fewer_ran_is_reported_with_both_numbers() {
    let best = after_passes(&[run(40, 0, 0, 0)]);
    assert_eq!(best.check(run(37, 0, 0, 0)), vec![moved(Count::Ran, 40, 37)]);
}

#[test]
fn more_skipped_or_ignored_is_reported_even_when_as_many_ran() {
    let best = after_passes(&[run(40, 0, 0, 0)]);
    assert_eq!(best.check(run(40, 0, 3, 0)), vec![moved(Count::Skipped, 0, 3)]);
    assert_eq!(
        best.check(run(41, 0, 0, 1)),
        vec![moved(Count::Skipped, 0, 1)],
        "ignored counts as skipped"
    );
    assert_eq!(
        best.check(run(37, 0, 2, 1)),
        vec![moved(Count::Ran, 40, 37), moved(Count::Skipped, 0, 3)]
    );
}

#[test]
fn a_failing_run_still_raises_the_most_ran() {
    let mut best = Best::default();
    best.record(run(38, 2, 0, 0), RunVerdict::Failed);
    assert_eq!(best.most_ran, Some(40));
    // The failing test deleted: the pass ran one test fewer.
    assert_eq!(best.check(run(39, 0, 0, 0)), vec![moved(Count::Ran, 40, 39)]);
    // The failing test skipped: it ran fewer, and (no pass yet) skipped is not compared.
    assert_eq!(best.check(run(39, 0, 1, 0)), vec![moved(Count::Ran, 40, 39)]);
    assert_eq!(best.check(run(40, 0, 0, 0)), vec![], "fixed");
}

#[test]
fn a_failing_run_that_stopped_early_does_not_lower_the_fewest_skipped() {
    // cargo stopped at the first failing binary: the ignored tests of the next one never showed.
    let mut best = Best::default();
    best.record(run(3, 1, 0, 0), RunVerdict::Failed);
    assert_eq!(best.fewest_skipped, None);
    assert_eq!(
        best.check(run(20, 0, 0, 2)),
        vec![],
        "the first pass sets the fewest skipped"
    );
    best.record(run(20, 0, 0, 2), RunVerdict::Passed);
    best.record(run(5, 1, 0, 0), RunVerdict::Failed);
    assert_eq!(
        best,
        Best {
            most_ran: Some(20),
            fewest_skipped: Some(2)
        }
    );
}

#[test]
fn no_counts_is_no_ratchet_and_no_record() {
    let mut best = after_passes(&[run(40, 0, 0, 0)]);
    assert_eq!(best.check(None), vec![]);
    let before = best;
    best.record(None, RunVerdict::Passed);
    best.record(None, RunVerdict::Failed);
    assert_eq!(best, before);
    let mut empty = Best::default();
    empty.record(None, RunVerdict::Failed);
    assert_eq!(empty, Best::default());
}

#[test]
fn recording_a_rejected_pass_changes_nothing() {
    let mut best = after_passes(&[run(40, 0, 1, 0)]);
    let before = best;
    let worse = run(37, 0, 4, 0);
    assert_eq!(best.check(worse).len(), 2);
    best.record(worse, RunVerdict::Passed);
    assert_eq!(best, before);
    assert_eq!(best.check(worse).len(), 2, "still rejected the next time");
}

#[test]
fn an_allowed_pass_becomes_the_record() {
    let mut best = after_passes(&[run(40, 0, 0, 0)]);
    best.rebase(TestCounts::new(37, 0, 3, 0));
    assert_eq!(best.check(run(37, 0, 3, 0)), vec![]);
    assert_eq!(
        best.check(run(36, 0, 4, 0)),
        vec![moved(Count::Ran, 37, 36), moved(Count::Skipped, 3, 4)]
    );
}

#[test]
fn what_moved_reads_in_both_languages() {
    let both = [moved(Count::Ran, 40, 37), moved(Count::Skipped, 0, 3)];
    assert_eq!(messages::counts_moved(Speech::En, &both), "ran 40 → 37; skipped 0 → 3");
    assert_eq!(
        messages::counts_moved(Speech::Zh, &both),
        "运行的测试 40 → 37;跳过的测试 0 → 3"
    );
    assert_eq!(messages::counts_moved(Speech::En, &[]), "");
    let en = messages::counts_regressed(Speech::En, &messages::counts_moved(Speech::En, &both));
    assert!(
        en.contains("(ran 40 → 37; skipped 0 → 3)") && en.contains("restore the tests"),
        "{en}"
    );
    let zh = messages::counts_regressed(Speech::Zh, &messages::counts_moved(Speech::Zh, &both));
    assert!(zh.contains("(运行的测试 40 → 37;跳过的测试 0 → 3)"), "{zh}");
    assert!(
        messages::counts_result(Speech::En, "ran 2 → 1")
            .contains("but ran 2 → 1; if that is intended, accept it with `loopgate allow --counts`")
    );
    assert!(messages::counts_result(Speech::Zh, "x").contains("loopgate allow --counts"));
}

#[test]
fn the_record_serializes_for_the_seal_and_reads_older_seals() {
    let best = after_passes(&[run(40, 1, 2, 1)]);
    let json = serde_json::to_string(&best).expect("serializes");
    assert_eq!(json, r#"{"most_ran":41,"fewest_skipped":3}"#);
    assert_eq!(serde_json::from_str::<Best>(&json).expect("parses"), best);
    assert_eq!(
        serde_json::from_str::<Best>("{}").expect("an older seal"),
        Best::default()
    );
    let moved = serde_json::to_string(&moved(Count::Ran, 40, 37)).expect("serializes");
    assert_eq!(moved, r#"{"count":"ran","best":40,"now":37}"#);
}
