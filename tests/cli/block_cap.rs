//! Issue 12: Claude Code's stop-hook block cap. Claude Code ends a turn after 8 Stop-hook blocks in a row without
//! a tool call (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`); loopgate counts the same blocks (tool calls seen by the
//! PreToolUse hook reset the count, a new prompt too), warns the model at the last block Claude Code honors,
//! lets the turn end itself at the cap with `block_cap` recorded, and records `turn_ended` when a blocked turn
//! never came back.

use serde_json::json;

use crate::project::{Project, assert_has};

const LAST_WARNING: &str = "LAST CONTINUATION WITHOUT A TOOL";

#[test]
fn an_agent_that_only_talks_is_warned_at_the_last_block_and_let_go_at_the_cap_with_the_loop_still_running() {
    let p = Project::new();
    // Talk-only stops pause a loop as stalled after three (`giveup::STALL_AFTER`), long before the cap; with the
    // stall breaker off, the cap is what is left, and loopgate still stays ahead of it.
    p.setup("S", "\"make progress\" --verify false --stall-limit 0");
    for i in 1..=8 {
        let block = p.stop("S", "thinking it over").blocked();
        assert_eq!(
            block.reason.contains(LAST_WARNING),
            i == 8,
            "stop {i}: the last warning belongs to the 8th block only\n{}",
            block.reason
        );
    }
    let notice = p.stop("S", "still thinking").allowed();
    assert!(
        notice.contains("no tool in its last 8 continuation(s)")
            && notice.contains("still running")
            && notice.contains("/cancel-loop"),
        "{notice}"
    );
    let record = p.last_record("block_cap");
    assert_eq!(
        (&record["blocks_without_tool"], &record["cap"], &record["iteration"]),
        (&json!(8), &json!(8), &json!(9)),
        "{record}"
    );
    assert_eq!(p.state_field("active"), "true");
    assert_eq!(p.state_field("iteration"), "10");
    // A person in a terminal is told what ended the turn and what to do (issue 23: it said only `running`).
    let status = p.loopgate(["status"]).run();
    status
        .success()
        .stdout_contains("turn:        the agent's turn ended at iteration 9: Claude Code's stop-hook block cap");
    assert_has(&status.stdout, "send a message in the session");
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    assert!(
        json["turn_ended"].as_str().is_some_and(|t| t.contains("block cap")),
        "{json}"
    );
    // The user sends a message: a new turn, the loop goes on from a count of zero, nothing reported missing.
    p.new_prompt("S");
    let block = p.stop("S", "continuing").blocked();
    assert!(!block.reason.contains(LAST_WARNING), "{}", block.reason);
    assert!(!p.statuses().contains(&"turn_ended".to_string()), "{:?}", p.statuses());
    assert_eq!(p.statuses().last().map(String::as_str), Some("continue"));
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    assert!(json["turn_ended"].is_null(), "the loop moved on: {json}");
}

#[test]
fn a_tool_call_of_the_loop_session_resets_the_count_and_another_session_does_not() {
    let p = Project::new();
    p.setup("S", "\"make progress\" --stall-limit 0");
    for _ in 0..5 {
        p.stop("S", "talking").blocked();
    }
    // Another session's tool call is not this turn's.
    p.tool_call("OTHER", "Read", json!({"file_path": "/etc/hostname"}))
        .success()
        .stdout_empty();
    for _ in 0..3 {
        p.stop("S", "talking").blocked();
    }
    p.stop("S", "talking").allowed();
    assert_eq!(p.last_record("block_cap")["blocks_without_tool"], 8);

    // A read-only tool is seen (it resets Claude Code's count) and allowed without a word.
    p.new_prompt("S");
    for _ in 0..7 {
        p.stop("S", "talking").blocked();
    }
    for tool in ["Read", "Grep"] {
        p.tool_call("S", tool, json!({"file_path": "/etc/hostname", "pattern": "x"}))
            .success()
            .stdout_empty();
    }
    for i in 1..=8 {
        let block = p.stop("S", "talking").blocked();
        assert_eq!(block.reason.contains(LAST_WARNING), i == 8, "stop {i}");
    }
    p.stop("S", "talking").allowed();
    assert_eq!(
        p.statuses().iter().filter(|s| *s == "block_cap").count(),
        2,
        "{:?}",
        p.statuses()
    );
}

#[test]
fn the_cap_comes_from_the_environment_and_zero_disables_it() {
    let p = Project::new();
    p.setup("S", "\"make progress\" --stall-limit 0");
    let stop = |cap: &str| {
        p.stop_cmd("S", "talking")
            .env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", cap)
            .run()
    };
    // stop_cmd does not track the turn: say by hand that these stops continue it.
    let mut input = p.stop_input("S", "talking");
    input["stop_hook_active"] = json!(true);
    let next = |cap: &str| {
        p.loopgate(["hook", "stop"])
            .stdin(input.to_string())
            .env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", cap)
            .run()
    };
    let first = stop("2");
    first.blocked();
    let second = next("2").blocked();
    assert_has(&second.reason, LAST_WARNING);
    next("2").allowed();
    assert_eq!(p.last_record("block_cap")["cap"], 2);
    // Disabled: no warning, no yield, however long the agent talks.
    stop("0").blocked();
    for _ in 0..12 {
        let block = next("0").blocked();
        assert!(!block.reason.contains(LAST_WARNING), "{}", block.reason);
    }
    assert_eq!(p.statuses().iter().filter(|s| *s == "block_cap").count(), 1);
}

#[test]
fn a_blocked_turn_that_never_came_back_is_recorded_at_the_next_stop_and_the_loop_goes_on() {
    let p = Project::new();
    p.setup("S", "\"make progress\"");
    p.stop("S", "working").blocked();
    p.stop("S", "working").blocked();
    // The turn ended without another Stop (the cap with another hook blocking too, Esc, an error, --max-turns);
    // the user types again and the agent stops.
    p.new_prompt("S");
    let block = p.stop("S", "hello again").blocked();
    assert!(
        block
            .system_message
            .contains("previous turn ended although loopgate had asked it to continue")
            && block.system_message.contains("still running"),
        "{}",
        block.system_message
    );
    let record = p.last_record("turn_ended");
    assert_eq!(record["blocks_without_tool"], 2, "{record}");
    assert_eq!(record["noticed_at"], "stop", "{record}");
    assert_eq!(record["cap"], 8, "{record}");
    // The second stop came back without a tool call: a talk-only stop, recorded as `gave_up`.
    assert_eq!(p.statuses(), ["init", "continue", "gave_up", "turn_ended", "continue"]);
}

#[test]
fn a_resumed_session_notices_the_unanswered_block_but_a_compaction_does_not() {
    let p = Project::new();
    p.setup("S", "\"make progress\"");
    p.stop("S", "working").blocked();
    // Compaction happens inside a turn: the block is still being answered.
    p.session_start("S", "compact").success();
    assert!(!p.statuses().contains(&"turn_ended".to_string()), "{:?}", p.statuses());
    // `claude --resume` of the same session: the turn is over.
    let resumed = p.session_start("S", "resume");
    let shown = resumed.json()["systemMessage"].as_str().unwrap_or_default().to_string();
    assert!(shown.contains("turn_ended"), "{resumed}");
    assert!(resumed.additional_context().contains("make progress"));
    assert_eq!(p.last_record("turn_ended")["noticed_at"], "session_start");
    // Noticed once: the next stop (a new turn) does not record it again.
    p.new_prompt("S");
    p.stop("S", "back").blocked();
    let ended = p.statuses().iter().filter(|s| *s == "turn_ended").count();
    assert_eq!(ended, 1, "{:?}", p.statuses());
}

#[test]
fn a_rejected_promise_at_the_cap_is_recorded_before_the_turn_is_let_go() {
    let p = Project::new();
    p.setup("S", "\"fix it\" --verify false --stall-limit 0");
    for _ in 0..8 {
        p.stop("S", "<promise>LOOP_DONE</promise>").blocked();
    }
    let notice = p.stop("S", "<promise>LOOP_DONE</promise>").allowed();
    assert!(notice.contains("still running"), "{notice}");
    let statuses = p.statuses();
    assert_eq!(
        &statuses[statuses.len() - 2..],
        ["promise_rejected", "block_cap"],
        "{statuses:?}"
    );
    assert_eq!(p.last_record("promise_rejected")["rejections"], 9);
}

/// What the model and the user read about the cap, in both languages.
#[test]
fn the_cap_messages_read_well_in_english_and_chinese() {
    for lang in ["en", "zh"] {
        let p = Project::new();
        p.setup("S", &format!("\"make progress\" --lang {lang} --stall-limit 0"));
        let stop = |cap: &str| {
            p.stop_cmd("S", "talking")
                .env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", cap)
                .run()
        };
        stop("1").blocked();
        let mut input = p.stop_input("S", "talking");
        input["stop_hook_active"] = json!(true);
        let notice = p
            .loopgate(["hook", "stop"])
            .stdin(input.to_string())
            .env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "1")
            .run()
            .allowed();
        let warning = {
            p.new_prompt("S");
            let reason = stop("1").blocked().reason;
            reason[reason.rfind("\n\n").map_or(0, |at| at + 2)..].to_string()
        };
        // A turn that never came back: the user typed again.
        input["stop_hook_active"] = json!(false);
        let ended = p
            .loopgate(["hook", "stop"])
            .stdin(input.to_string())
            .run()
            .blocked()
            .system_message;
        let text =
            format!("last warning (model):\n{warning}\n\nat the cap (user):\n{notice}\n\nturn ended (user):\n{ended}");
        crate::snapshot::assert_snapshot(&format!("block_cap_{lang}"), &p.redact(&text));
    }
}
