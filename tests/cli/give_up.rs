//! Issue 13: give-up and confusion detection at a stop — a last message that gives up, asks the user or names an
//! external blocker without a `<loop-pause>` / `<loop-abort>` tag is recorded as `gave_up`, answered with
//! guidance in the block reason, counted by the stall breaker and quoted in the report.

use crate::project::{Project, assert_has};

/// A blocker named without a pause tag: the loop goes on, the agent is told to pause if truly blocked.
#[test]
fn a_named_blocker_without_a_pause_tag_gets_guidance_and_a_gave_up_record() {
    let p = Project::new();
    p.setup("S", "\"wire up the payment client\"");
    let block = p
        .stop(
            "S",
            "The client is written, but the tests need credentials for the Stripe sandbox. I can't go further.",
        )
        .blocked();
    assert_has(
        &block.reason,
        "You named something outside your reach (\"need credentials\")",
    );
    assert_has(&block.reason, "<loop-pause>exactly what you need</loop-pause>");
    assert!(
        block.reason.contains("wire up the payment client"),
        "the task is still there"
    );
    let record = p.last_record("gave_up");
    assert_eq!(record["kind"], "external_blocker", "{record}");
    assert_eq!(record["phrase"], "need credentials", "{record}");
    assert_eq!(record["give_up_streak"], 1, "{record}");
    assert!(
        record["sentence"]
            .as_str()
            .is_some_and(|s| s.contains("Stripe sandbox")),
        "{record}"
    );
    assert_eq!(p.statuses(), ["init", "gave_up"]);
}

/// A question to the user: decide yourself, or pause with the question. In Chinese with `--lang zh`.
#[test]
fn a_question_to_the_user_is_answered_in_the_loop_s_language() {
    let p = Project::new();
    p.setup("S", "\"实现导出功能\" --lang zh");
    let block = p.stop("S", "导出已经完成一半。请问 CSV 要不要包含表头？").blocked();
    assert_has(&block.reason, "你向用户提了问题(“请问”)");
    assert_has(&block.reason, "<loop-pause>你的问题</loop-pause>");
    assert_eq!(p.last_record("gave_up")["kind"], "asking_user");
}

/// Ordinary progress messages, and messages with a tag, are not give-ups.
#[test]
fn progress_and_tagged_messages_are_not_give_ups() {
    let p = Project::new();
    p.setup("S", "\"fix the parser\" --stall-limit 0");
    let block = p
        .stop(
            "S",
            "The network is not available in this sandbox, so I mocked the HTTP client. Next I'll run the suite.",
        )
        .blocked();
    assert!(!block.reason.contains("<loop-pause>exactly"), "{}", block.reason);
    assert_eq!(p.statuses(), ["init", "continue"]);
    p.stop(
        "S",
        "I cannot proceed without the database password.\n\n<loop-pause>the staging DB password</loop-pause>",
    )
    .allowed();
    assert_eq!(
        p.statuses(),
        ["init", "continue", "paused"],
        "the tag decides, not the words"
    );
}

/// Three give-ups in a row with nothing changed pause the loop as stalled (below the default stall limit of 10);
/// the report quotes what the agent said.
#[test]
fn repeated_give_ups_with_nothing_changed_stall_the_loop() {
    let p = Project::new();
    p.setup("S", "\"deploy the service\"");
    let message = "I'm stuck: the deploy check needs an AWS profile that is not configured on this machine.";
    p.stop("S", message).blocked();
    let second = p.stop("S", message).blocked();
    assert_has(&second.reason, "That is 2 in a row");
    let notice = p.stop("S", message).allowed();
    assert!(
        notice.contains("STALLED") && notice.contains("blocked 3 times in a row without pausing"),
        "{notice}"
    );
    assert_eq!(p.statuses(), ["init", "gave_up", "gave_up", "gave_up", "stalled"]);
    let report = p.read(&format!(".claude/loopgate/report-{}.md", p.loop_id()));
    assert!(report.contains("## What the agent said it was blocked on"), "{report}");
    assert!(report.contains("The agent last said: \"I'm stuck"), "{report}");
    // Resuming starts the count over.
    p.loopgate(["resume", "--session-id", "S2"]).run().success();
    p.stop("S2", message).blocked();
    assert_eq!(p.last_record("gave_up")["give_up_streak"], 1);
}

/// Give-ups at stops that changed the working tree never pause the loop: the agent is still working.
#[test]
fn give_ups_while_the_tree_changes_never_stall() {
    let p = Project::new();
    p.setup("S", "\"deploy the service\"");
    for i in 0..5 {
        p.write(&format!("notes-{i}.txt"), "tried something");
        p.stop("S", "Should I use the staging or the production profile?")
            .blocked();
    }
    assert!(p.statuses().iter().all(|s| s != "stalled"), "{:?}", p.statuses());
    assert_eq!(p.last_record("gave_up")["give_up_streak"], 5);
}

/// Issue 23: a give-up is seen by behaviour, not only by words. Sent back by a block, the agent stops again with
/// no tool call and no tag — in words the classifier has never seen, in any language: each such stop is
/// answered with the give-up guidance and counted, and the third in a row with nothing changed pauses the loop
/// as stalled, with the agent's words in the report — long before Claude Code's block cap (8).
#[test]
fn talk_only_stops_are_give_ups_whatever_the_words() {
    let p = Project::new();
    p.setup("S", "\"port the parser\" --verify false");
    p.stop("S", "Je regarde le code.").blocked();
    // A tool call between stops is work: that stop is an ordinary continue.
    p.tool_call("S", "Read", serde_json::json!({"file_path": "/etc/hostname"}));
    p.stop("S", "Je réfléchis encore.").blocked();
    assert_eq!(p.statuses().last().map(String::as_str), Some("continue"));
    let first = p
        .stop("S", "Je pense que la tâche dépasse ce que je peux faire ici.")
        .blocked();
    assert_has(&first.reason, "you used no tool and wrote no tag");
    let record = p.last_record("gave_up");
    assert_eq!(record["kind"], "talk_only", "{record}");
    assert_eq!(record["give_up_streak"], 1, "{record}");
    p.stop("S", "这个任务我做不到。").blocked();
    let notice = p.stop("S", "Honestly the approach is still unclear to me").allowed();
    assert!(notice.contains("STALLED"), "{notice}");
    assert_eq!(
        p.statuses(),
        [
            "init", "continue", "continue", "gave_up", "gave_up", "gave_up", "stalled"
        ]
    );
    let report = p.read(&format!(".claude/loopgate/report-{}.md", p.loop_id()));
    assert!(
        report.contains("Honestly the approach is still unclear to me"),
        "{report}"
    );
}
