//! Issue 5: the circuit breaker, the token budget, the score gate, zero-test passes, the end-of-loop report and
//! the trajectory in `loopgate status` — each through the real binary, as a Claude Code session drives it.

use std::io::Write;

use serde_json::json;

use crate::project::{Project, STATE, assert_has};
use crate::snapshot::assert_snapshot;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

/// No working-tree change for `--stall-limit` stops: the loop pauses as stalled (the agent may stop), the user
/// is told why and where the report is, and the loop can be resumed.
#[test]
fn stall_limit_pauses_a_loop_that_changes_nothing() {
    let p = Project::new();
    p.setup("S", "\"make progress\" --stall-limit 3");
    let first = p.stop("S", "thinking").blocked();
    assert_has(
        &first.reason,
        "Nothing in the working tree changed since the last iteration (1 in a row)",
    );
    p.stop("S", "still thinking").blocked();
    let notice = p.stop("S", "still thinking").allowed();
    assert!(
        notice.contains("STALLED") && notice.contains("no working-tree change in 3 iterations"),
        "{notice}"
    );
    let report = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(report["state"], "paused");
    assert!(
        report["pause_reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("stalled:")),
        "{report}"
    );
    let stalled = p.last_record("stalled");
    assert_eq!(stalled["iteration"], 3);
    let path = format!(".claude/loopgate/report-{}.md", p.loop_id());
    assert!(notice.contains(&path), "{notice}");
    let text = p.read(&path);
    assert!(
        text.contains("stopped without success") && text.contains("make progress"),
        "{text}"
    );
    assert!(text.contains("| 1 | continue |  |  | unchanged |"), "{text}");
    assert!(
        text.contains("What information, decision or access is it missing?"),
        "{text}"
    );
    // Paused, not ended: the loop is still there to resume.
    p.stop("S", "anyone there?").silent();
    p.loopgate(["resume", "--session-id", "S2"]).run().success();
    p.stop("S2", "back at it").blocked();
}

/// A loop that changes the working tree at every stop is never paused, however often it fails the same way.
#[test]
fn a_loop_that_keeps_changing_files_never_stalls() {
    let p = Project::new();
    p.setup("S", "\"change things\" --verify false --stall-limit 2");
    for i in 0..6 {
        p.write(&format!("work/step-{i}.txt"), "progress");
        let message = if i % 2 == 0 { PROMISE } else { "working" };
        p.stop("S", message).blocked();
    }
    assert!(
        p.history().iter().all(|r| r["status"] != "stalled"),
        "{:?}",
        p.statuses()
    );
    let changed = p.last_record("continue");
    assert_eq!(changed["tree_changed"], true, "{changed}");
}

/// The same failure N times in a row with nothing changed since the last: stalled, named as such.
#[test]
fn identical_failures_with_nothing_changed_trip_the_breaker() {
    let p = Project::new();
    p.setup("S", "\"fix it\" --verify 'echo boom; exit 1' --stall-limit 2");
    p.write("src/a.txt", "1");
    let first = p.stop("S", PROMISE).blocked();
    assert_has(&first.reason, "PROMISE REJECTED");
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("STALLED"), "{notice}");
    assert!(
        notice.contains("no working-tree change in 2 iterations") || notice.contains("the same failure 2 times"),
        "{notice}"
    );
}

/// `--max-tokens`: usage is summed from the transcript as it grows (each message once), and the loop ends at
/// the budget with a report.
#[test]
fn token_budget_ends_the_loop_from_the_transcript() {
    let p = Project::new();
    p.setup("S", "\"spend wisely\" --max-tokens 100 --stall-limit 0");
    let id = p.loop_id();
    let transcript = p.outside("S.jsonl");
    let usage = |id: &str, input: u64, output: u64| {
        json!({"type": "assistant", "message": {"id": id, "role": "assistant", "content": [{"type": "text", "text": "hi"}],
            "usage": {"input_tokens": input, "output_tokens": output}}})
        .to_string()
    };
    let mut file = std::fs::File::create(&transcript).expect("transcript");
    writeln!(file, "{}\n{}", usage("m1", 40, 20), usage("m1", 40, 20)).expect("write");
    p.stop("S", "working").blocked();
    assert_eq!(p.state_field("tokens_used"), "60");
    let status = p.loopgate(["status"]).run();
    status.stdout_contains("tokens:      60 / 100");
    writeln!(file, "{}", usage("m2", 30, 15)).expect("write");
    let notice = p.stop("S", "working").allowed();
    assert!(notice.contains("max_tokens"), "{notice}");
    let end = p.last_record("max_tokens");
    assert_eq!(end["tokens_used"], 105);
    assert!(p.exists(&format!(".claude/loopgate/report-{id}.md")));
    assert!(!p.exists(STATE));
}

/// The score gate: a verify that exits 0 below the target is a failure with the score named; reaching the
/// target completes; scores are recorded per iteration and shown in the trajectory.
#[test]
fn score_gate_completes_at_the_target() {
    let p = Project::new().file("score.txt", "accuracy: 0.50\n");
    p.setup(
        "S",
        "\"raise accuracy\" --verify 'cat score.txt' --score-regex 'accuracy: ([0-9.]+)' --target 0.9 --verify-on always",
    );
    let block = p.stop("S", "tuned it").blocked();
    assert_has(
        &block.reason,
        "Score 0.5 does not meet the target >= 0.9 (higher is better).",
    );
    assert_eq!(p.last_record("verify_failed")["score"], 0.5);
    p.write("score.txt", "accuracy: 0.93\n");
    let notice = p.stop("S", "tuned more").allowed();
    assert!(notice.contains("verified complete"), "{notice}");
    assert_eq!(p.last_record("complete")["score"], 0.93);
}

/// No better score for `--plateau` verifies: a stall.
#[test]
fn score_plateau_is_a_stall() {
    let p = Project::new().file("score.txt", "ms: 120\n");
    p.setup(
        "S",
        "\"make it faster\" --verify 'cat score.txt' --score-regex 'ms: ([0-9]+)' --target 50 --direction lower --plateau 2 --verify-on always --stall-limit 0",
    );
    p.stop("S", "try 1").blocked();
    p.write("score.txt", "ms: 130\n");
    p.stop("S", "try 2").blocked();
    p.write("score.txt", "ms: 125\n");
    let notice = p.stop("S", "try 3").allowed();
    assert!(notice.contains("no better score in 2 verifies"), "{notice}");
    let status = p.loopgate(["status"]).run();
    status.stdout_contains("✗(120)✗(130)✗(125)⏸");
}

/// A verify that passes while running no tests completes the loop with a warning; with `--require-tests` it is
/// a rejected promise that says why.
#[test]
fn a_pass_with_zero_tests_is_suspicious_and_can_be_required_to_fail() {
    let zero = "printf 'running 0 tests\\n\\ntest result: ok. 0 passed; 0 failed; 0 ignored\\n'";
    let p = Project::new();
    p.setup("S", &format!("\"add tests\" --verify \"{zero}\""));
    let notice = p.stop("S", PROMISE).allowed();
    assert!(
        notice.contains("verified complete") && notice.contains("ran no tests"),
        "{notice}"
    );
    assert_eq!(p.last_record("complete")["zero_tests"], true);

    let strict = Project::new();
    strict.setup("S", &format!("\"add tests\" --verify \"{zero}\" --require-tests"));
    let block = strict.stop("S", PROMISE).blocked();
    assert!(
        block.reason.contains("ran NO tests") && block.reason.contains("--require-tests"),
        "{}",
        block.reason
    );
    assert_eq!(strict.last_record("promise_rejected")["passed"], false);
}

/// `loopgate status` shows the trajectory strip and the escalation level, in text and JSON.
#[test]
fn status_shows_trajectory_and_escalation() {
    let p = Project::new();
    p.setup("S", "\"fix\" --verify 'sleep 5' --verify-timeout 1 --stall-limit 0");
    p.stop("S", "working").blocked();
    for _ in 0..3 {
        p.stop("S", PROMISE).blocked();
    }
    let text = p.loopgate(["status"]).run();
    text.stdout_contains("trajectory:  ·⏱⏱⏱");
    text.stdout_contains("escalation:  reassess (rejections), change approach (iterations)");
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(json["trajectory"], "·⏱⏱⏱");
}

/// The report of a loop that ran out of iterations lists the attempts and the recurring failure.
#[test]
fn report_after_max_iterations_lists_recurring_failures() {
    let p = Project::new();
    p.setup("S", "\"fix the parser\" --verify 'echo \"error: parse failed at line 3\"; exit 1' --max-iterations 3 --stall-limit 0");
    let id = p.loop_id();
    p.stop("S", PROMISE).blocked();
    p.stop("S", PROMISE).blocked();
    let notice = p.stop("S", PROMISE).allowed();
    assert!(
        notice.contains("max_iterations") && notice.contains("(report: .claude/loopgate/report-"),
        "{notice}"
    );
    let report = p.read(&format!(".claude/loopgate/report-{id}.md"));
    assert!(report.contains("## Recurring failures"), "{report}");
    assert!(
        report.contains("3× `error: parse failed at line 3` (iterations 1, 2, 3)"),
        "{report}"
    );
    assert!(report.contains("used its whole budget"), "{report}");
}

/// What the model and the user read about stalls and scores, in both languages.
#[test]
fn stall_and_score_messages_in_english_and_chinese() {
    for lang in ["en", "zh"] {
        let p = Project::new().file("score.txt", "accuracy: 0.5\n");
        p.setup(
            "S",
            &format!(
                "\"raise accuracy\" --verify 'cat score.txt' --score-regex 'accuracy: ([0-9.]+)' --target 0.9 --verify-on always --stall-limit 2 --lang {lang}"
            ),
        );
        let block = p.stop("S", "tried").blocked();
        assert_snapshot(&format!("reason_score_below_{lang}"), &p.redact(&block.reason));
        let notice = p.stop("S", "tried again").allowed();
        assert_snapshot(&format!("notice_stalled_{lang}"), &p.redact(&notice));
    }
}

/// A transcript line of an assistant message with its usage, stamped now (after the loop started).
fn priced_message(id: &str, model: &str, input: u64, output: u64) -> String {
    json!({"type": "assistant", "timestamp": "2999-01-01T00:00:00Z",
        "message": {"id": id, "role": "assistant", "model": model, "content": [{"type": "text", "text": "hi"}],
        "usage": {"input_tokens": input, "output_tokens": output}}})
    .to_string()
}

/// `--max-cost` inside Claude Code (issue 41, item 6): the transcript's usage is read at each stop (each message
/// once, what the conversation used before `/pua-loop` not at all), priced by the table sealed at setup — the
/// user's row for a model of their own, the built-in one for sonnet — recorded per turn as `usage`, shown in
/// `status`, `history` and the report, and the loop ends on its budget with the receipt added up.
#[test]
fn cost_budget_ends_the_loop_from_the_transcript_with_receipts() {
    let p = Project::new();
    std::fs::create_dir_all(p.loopgate_home()).expect("home");
    std::fs::write(
        p.loopgate_home().join("prices.json"),
        r#"{"models": {"house-model": {"input": 100, "output": 1000, "cache_write": 0, "cache_read": 0}}}"#,
    )
    .expect("prices");
    let transcript = p.outside("S.jsonl");
    let mut file = std::fs::File::create(&transcript).expect("transcript");
    // Before the loop: never counted.
    let before = priced_message("m0", "house-model", 1_000_000, 0).replace("2999-01-01", "2001-01-01");
    writeln!(file, "{before}").expect("write");
    let setup = p.setup("S", "\"spend wisely\" --max-cost 0.01 --stall-limit 0");
    setup.stdout_contains("Budget: --max-cost $0.01.");
    setup.stdout_contains("cannot be held to it");
    // The price file changed after setup does not move the sealed table.
    std::fs::write(
        p.loopgate_home().join("prices.json"),
        r#"{"models": {"house-model": {"input": 0, "output": 0, "cache_write": 0, "cache_read": 0}}}"#,
    )
    .expect("prices");
    // $0.003 (house: 10 × 100 + 2 × 1000 per million) + $0.0006 (sonnet: 100 × 3 + 20 × 15 per million).
    let m1 = priced_message("m1", "house-model", 10, 2);
    writeln!(
        file,
        "{m1}\n{m1}\n{}",
        priced_message("m2", "claude-sonnet-4-5", 100, 20)
    )
    .expect("write");
    let block = p.stop("S", "working").blocked();
    assert_has(
        &block.system_message,
        " · spent $0.0036, 110 in / 22 out of --max-cost $0.01",
    );
    let turn = p.last_record("usage");
    assert_eq!(
        (
            turn["receipt"]["tokens_in"].as_u64(),
            turn["receipt"]["tokens_out"].as_u64()
        ),
        (Some(110), Some(22))
    );
    let status = p.loopgate(["status"]).run();
    status.stdout_contains("cost:        $0.0036, 110 in / 22 out of --max-cost $0.01");
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(json["max_cost"], 0.01, "{json}");
    // The next turn crosses the budget: $0.007 more.
    writeln!(file, "{}", priced_message("m3", "house-model", 50, 2)).expect("write");
    let notice = p.stop("S", "working").allowed();
    assert!(notice.contains("max_cost"), "{notice}");
    assert_has(&notice, "Spent $0.0106, 160 in / 24 out of --max-cost $0.01.");
    let end = p.last_record("max_cost");
    assert_eq!(end["spent"]["tokens_in"], 160);
    assert!(
        (end["spent"]["cost_usd"].as_f64().unwrap_or_default() - 0.0106).abs() < 1e-9,
        "{end}"
    );
    // The receipts per turn add up to the end's.
    let turns: Vec<_> = p.history().into_iter().filter(|r| r["status"] == "usage").collect();
    assert_eq!(turns.len(), 2);
    let sum: f64 = turns
        .iter()
        .map(|t| t["receipt"]["cost_usd"].as_f64().unwrap_or_default())
        .sum();
    assert!((sum - 0.0106).abs() < 1e-9, "{turns:?}");
    let history = p.loopgate(["history"]).run();
    history.stdout_contains("usage");
    history.stdout_contains("this turn $0.0036, 110 in / 22 out");
    history.stdout_contains("spent $0.0106");
    let report = p.loopgate(["report", "--html"]).run();
    report.success();
    let html = std::fs::read_to_string(report.stdout.trim()).expect("the page");
    assert!(html.contains("Cost so far"), "the report draws the cost");
    assert!(html.contains("$0.0106"), "the cost so far at the last iteration");
    assert!(!p.exists(STATE));
}

/// An agent whose transcript reports no usage is not silently let off: the stop says the budget is not
/// enforced, and the end says it was never measured. A model no row prices is named at the stop.
#[test]
fn a_cost_budget_without_usage_or_prices_is_said_at_each_stop_and_at_the_end() {
    let p = Project::new();
    p.setup("S", "\"spend wisely\" --max-cost 5 --stall-limit 0");
    let transcript = p.outside("S.jsonl");
    std::fs::write(&transcript, "{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}\n").expect("transcript");
    let block = p.stop("S", "working").blocked();
    assert_has(&block.system_message, "`--max-cost $5.00` is not enforced yet");
    assert_has(&block.system_message, "has recorded no usage since the loop started");
    p.loopgate(["status"])
        .run()
        .stdout_contains("cost:        no usage reported yet");
    let notice = p.stop("S", PROMISE).allowed();
    assert_has(&notice, "--max-cost $5.00 was never measured");

    let q = Project::new();
    q.setup("S", "\"spend wisely\" --max-cost 5 --stall-limit 0");
    std::fs::write(
        q.outside("S.jsonl"),
        format!("{}\n", priced_message("m1", "mystery-9", 10, 10)),
    )
    .expect("write");
    let block = q.stop("S", "working").blocked();
    assert_has(
        &block.system_message,
        "`--max-cost $5.00` is not enforced: the session used `mystery-9`",
    );
}

/// `loopgate cancel` says what the loop spent as its own end would have: against `--max-cost` (or that it was
/// never measured), against `--max-tokens`, or the total of its receipts without a budget; nothing when nothing
/// was counted.
#[test]
fn cancel_says_what_the_loop_spent_in_the_words_of_its_end() {
    let cancelled = |flags: &str, transcript: &[String], receipts: bool| {
        let p = Project::new();
        let mut file = std::fs::File::create(p.outside("S.jsonl")).expect("transcript");
        p.setup("S", &format!("\"spend wisely\" {flags} --stall-limit 0"));
        for line in transcript {
            writeln!(file, "{line}").expect("write");
        }
        p.stop("S", "working").blocked();
        if receipts {
            // Two of `loopgate run`'s agent runs, as its history holds them.
            let id = p.loop_id();
            let mut history = std::fs::OpenOptions::new()
                .append(true)
                .open(p.path(crate::project::HISTORY))
                .expect("history");
            for cost in [0.25, 0.5] {
                let run = json!({"loop_id": id, "iteration": 1, "status": "agent_run", "timestamp": "2999-01-01T00:00:00Z",
                    "receipt": {"tokens_in": 1000, "tokens_out": 100, "cost_usd": cost}});
                writeln!(history, "{run}").expect("append");
            }
        }
        let out = p.loopgate(["cancel"]).run();
        out.success();
        assert!(!p.exists(STATE), "cancelled");
        out.stdout
    };
    let priced = [priced_message("m1", "claude-sonnet-4-5", 100, 20)];
    let cost = cancelled("--max-cost 5", &priced, false);
    assert_has(
        &cost,
        "at iteration 2. Spent $0.0006, 100 in / 20 out of --max-cost $5.00.",
    );
    let unmeasured = cancelled("--max-cost 5", &[], false);
    assert_has(
        &unmeasured,
        "--max-cost $5.00 was never measured: the session's transcript reported no usage.",
    );
    let tokens = cancelled("--max-tokens 1000", &priced, false);
    assert_has(&tokens, "Used 120 tokens of --max-tokens 1000.");
    let receipts = cancelled("", &[], true);
    assert_has(&receipts, "\nloopgate: cost: $0.7500, 2000 in / 200 out");
    let nothing = cancelled("", &priced, false);
    assert!(
        !nothing.contains("Spent") && !nothing.contains("cost:") && !nothing.contains("tokens"),
        "{nothing}"
    );
}
