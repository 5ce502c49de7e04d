use serde_json::json;

use super::*;
use crate::history::{Record, test_record_of};

fn records() -> Vec<Record> {
    let mk = |i, fields| test_record_of("lg-1", i, fields);
    vec![
        mk(1, json!({"status": "init"})),
        mk(
            1,
            json!({"status": "continue", "tree_changed": true, "diff_stat": "1 file changed, 2 insertions(+)"}),
        ),
        mk(
            2,
            json!({"status": "promise_rejected", "verify_exit": 101, "summary": "parser::unicode: left != right",
                "fingerprint": "aaa"}),
        ),
        mk(
            3,
            json!({"status": "promise_rejected", "timed_out": true, "summary": "parser::unicode: left != right",
                "fingerprint": "aaa"}),
        ),
        mk(4, json!({"status": "continue", "tree_changed": false})),
        test_record_of("other-loop", 9, json!({"status": "continue"})),
    ]
}

#[test]
fn report_lists_attempts_recurring_failures_and_the_question() {
    let mut state = crate::state::tests::sample("make the parser handle unicode");
    state.fields.config.loop_id = "lg-1".into();
    state.fields.progress.iteration = 4;
    let text = render(
        &state,
        &records(),
        Status::MaxIterations,
        "max_iterations reached",
        crate::confine::probe(),
    );
    assert!(text.contains("# loopgate: loop `lg-1` stopped without success"));
    assert!(text.contains("| 2 | promise_rejected | exit 101 | parser::unicode: left != right |"));
    assert!(text.contains("| 3 | promise_rejected | timed out |"));
    assert!(text.contains("| 4 | continue |  |  | unchanged |"));
    assert!(text.contains("2× `parser::unicode: left != right` (iterations 2, 3)"));
    assert!(text.contains("whole budget") && text.contains("The last failure was"));
    assert!(!text.contains("other-loop"));
}

#[test]
fn give_ups_are_quoted_and_feed_the_question() {
    let state = crate::state::tests::sample("t");
    let records = [
        test_record_of(
            "lg-test",
            2,
            json!({"status": "gave_up", "kind": "external_blocker", "phrase": "needs credentials",
                "sentence": "This needs credentials for the staging DB."}),
        ),
        test_record_of(
            "lg-test",
            3,
            json!({"status": "gave_up", "kind": "asking_user", "sentence": "Which one should I keep?"}),
        ),
    ];
    let text = render(
        &state,
        &records,
        Status::Stalled,
        "the agent said it was blocked 3 times",
        crate::confine::probe(),
    );
    assert!(text.contains("## What the agent said it was blocked on"), "{text}");
    assert!(text.contains("2 stop(s) gave up"), "{text}");
    assert!(text.contains("- iteration 2 (external blocker): \"This needs credentials for the staging DB.\""));
    assert!(text.contains("| 3 | gave_up |  | Which one should I keep? |"), "{text}");
    assert!(
        text.contains("The agent last said: \"Which one should I keep?\""),
        "{text}"
    );
}

#[test]
fn question_depends_on_how_the_loop_ended() {
    let state = crate::state::tests::sample("t");
    let aborted = render(
        &state,
        &[],
        Status::Aborted,
        "the API does not exist",
        crate::confine::probe(),
    );
    assert!(aborted.contains("judged the task impossible: \"the API does not exist\""));
    let stalled = render(
        &state,
        &[],
        Status::Stalled,
        "no working-tree change in 10 iterations",
        crate::confine::probe(),
    );
    assert!(stalled.contains("stopped making progress"));
}

#[test]
fn write_puts_it_under_the_work_dir() {
    let dir = tempfile::tempdir().expect("tempdir");
    let project = Project {
        root: dir.path().to_path_buf(),
    };
    let state = crate::state::tests::sample("t");
    let path = write(&project, &state, &records(), Status::MaxDuration, "45m").expect("write");
    assert_eq!(path, PathBuf::from(".claude/loopgate/report-lg-test.md"));
    assert!(dir.path().join(&path).exists());
}

#[test]
fn the_report_shows_tests_passing_score_and_cost_per_iteration_when_recorded() {
    let mut state = crate::state::tests::sample("make it fast");
    state.fields.config.loop_id = "lg-1".into();
    let mk = |i, fields| test_record_of("lg-1", i, fields);
    let records = vec![
        mk(0, json!({"status": "init"})),
        mk(
            1,
            json!({"status": "agent_run", "receipt": {"tokens_in": 5, "cost_usd": 0.25}}),
        ),
        mk(
            1,
            json!({"status": "verify_failed", "verify_exit": 1, "score": 0.5,
                "counts": {"passed": 3, "failed": 2, "skipped": 0, "ignored": 0}}),
        ),
    ];
    let text = render(
        &state,
        &records,
        Status::MaxIterations,
        "max_iterations reached",
        crate::confine::probe(),
    );
    assert!(text.contains("## Progress"), "{text}");
    assert!(text.contains("| 1 | 3 | 0.5 | $0.2500 |"), "{text}");
    let quiet = render(
        &state,
        &self::records(),
        Status::MaxIterations,
        "max_iterations reached",
        crate::confine::probe(),
    );
    assert!(!quiet.contains("## Progress"), "nothing to show, no section:\n{quiet}");
}
