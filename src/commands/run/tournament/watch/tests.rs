use super::*;
use crate::history::test_record;
use serde_json::json;

fn loop_records() -> Vec<Record> {
    vec![
        test_record(json!({"status": "init", "iteration": 0,
            "baseline": {"exit": 1, "tests": 5, "failing": ["a", "b", "c"]}})),
        test_record(json!({"status": "agent_run", "iteration": 1, "agent_ms": 5,
            "receipt": {"tokens_in": 10, "cost_usd": 0.25}})),
        test_record(json!({"status": "promise_rejected", "iteration": 1, "rejections": 1,
            "verify_exit": 1, "passed": false, "counts": {"passed": 4, "failed": 1, "skipped": 0, "ignored": 0}})),
        test_record(json!({"status": "agent_run", "iteration": 2, "agent_ms": 5,
            "receipt": {"tokens_in": 10, "cost_usd": 0.5}})),
    ]
}

#[test]
fn a_row_reads_state_iteration_tests_cost_and_the_last_verdict_from_the_history() {
    let row = Row::of("c1", &loop_records(), true, 42.0);
    assert_eq!(row.state, "running");
    assert_eq!(row.iteration, 2);
    assert_eq!((row.passing, row.baseline), (Some(4), Some(2)));
    assert_eq!(row.cost_usd, Some(0.75));
    assert!(
        row.verdict
            .as_deref()
            .is_some_and(|v| v.starts_with("promise_rejected: ")),
        "{row:?}"
    );
    let waiting = Row::of("c2", &loop_records()[..1], false, 0.0);
    assert_eq!(
        (waiting.state.as_str(), waiting.passing, waiting.cost_usd),
        ("waiting", None, None)
    );
    let mut ended = loop_records();
    ended.push(test_record(json!({"status": "max_iterations", "iteration": 2})));
    assert_eq!(Row::of("c1", &ended, true, 50.0).state, "max_iterations");
}

#[test]
fn only_a_row_that_moved_is_told_and_the_clock_alone_is_not_a_move() {
    let row = Row::of("c1", &loop_records(), true, 42.0);
    let later = Row {
        seconds: 43.0,
        ..row.clone()
    };
    assert!(!later.moved(&row));
    let next = Row {
        iteration: 3,
        ..row.clone()
    };
    assert!(next.moved(&row));
}

#[test]
fn the_table_aligns_its_columns_and_the_line_says_the_same() {
    let rows = vec![
        Row::of("c1", &loop_records(), true, 42.0),
        Row::of("c10", &loop_records()[..1], false, 0.0),
    ];
    let text = table(&rows);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("candidate  state"), "{text}");
    let state_at = lines[0].find("state").expect("state column");
    assert_eq!(lines[1].find("running"), Some(state_at), "{text}");
    assert_eq!(lines[2].find("waiting"), Some(state_at), "{text}");
    assert!(
        lines[1].contains("4 / 2") && lines[1].contains("$0.7500") && lines[1].contains("42s"),
        "{text}"
    );
    let line = rows[0].line();
    assert!(
        line.starts_with("c1 running · iteration 2 · tests 4 / 2 (now / baseline) · $0.7500 · 42s · promise_rejected"),
        "{line}"
    );
}

#[test]
fn the_progress_event_is_the_row_flat_under_its_event_name() {
    let row = Row::of("c1", &loop_records(), true, 42.0);
    let value = serde_json::to_value(super::super::events::Event::Progress { row: &row }).expect("json");
    assert_eq!(value["event"], "progress");
    assert_eq!(value["name"], "c1");
    assert_eq!(value["iteration"], 2);
    assert_eq!(value["passing"], 4);
    assert_eq!(value["baseline"], 2);
    assert_eq!(value["cost_usd"], 0.75);
}

#[test]
fn erasing_moves_up_over_the_drawn_table_only() {
    assert_eq!(erase(0), "");
    assert_eq!(erase(3), "\u{1b}[3F\u{1b}[J");
}
