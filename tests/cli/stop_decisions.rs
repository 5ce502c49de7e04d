//! The Stop hook's decision table (`ARCHITECTURE.md`, "The loop, per Stop event"), one row per test.

use std::time::Duration;

use serde_json::json;

use crate::project::{CONTEXT, HISTORY, Project, STATE, assert_has, transcript_line};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

/// Row 1, no loop: exit 0, print nothing, create nothing — for every hook.
#[test]
fn no_loop_is_silent_and_creates_no_files() {
    let p = Project::new().file("README.md", "hello\n");
    let before = p.tree();
    p.stop("S", PROMISE).silent();
    p.stop("S", "just chatting").silent();
    p.session_start("S", "startup").silent();
    p.hook(
        "pre-tool-use",
        &json!({
            "session_id": "S",
            "cwd": p.root(),
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": p.path(STATE), "content": "x"},
        }),
    )
    .silent();
    assert_eq!(p.tree(), before, "a hook with no loop created files");
    assert!(
        !p.loopgate_home().exists(),
        "a hook with no loop created the seal store"
    );
}

/// Row 1, another session's loop: silent, and nothing of the loop changes.
#[test]
fn another_sessions_loop_is_left_alone() {
    let p = Project::new();
    p.setup("S", "task --verify 'touch verify-ran; true' --no-baseline");
    let (state, history, seal) = (p.state_text(), p.history_bytes(), p.seal());
    p.stop("OTHER", PROMISE).silent();
    p.stop("OTHER", "no signal").silent();
    assert_eq!(p.state_text(), state);
    assert_eq!(p.history_bytes(), history);
    assert_eq!(p.seal(), seal);
    assert!(!p.exists("verify-ran"), "another session's promise ran the oracle");
}

/// A paused loop waits for a session to adopt it; its own session's stops are not judged meanwhile.
#[test]
fn paused_loop_is_silent() {
    let p = Project::new();
    p.setup("S", "task");
    p.stop("S", "<loop-pause>the database password</loop-pause>").allowed();
    let history = p.history_bytes();
    p.stop("S", "still here").silent();
    p.stop("S", PROMISE).silent();
    assert_eq!(p.history_bytes(), history);
    assert_eq!(p.state_field("status"), "paused");
}

/// Abort beats pause and promise: the loop ends, `aborted` is recorded with the reason, the user is told.
#[test]
fn abort_tag_ends_the_loop_with_the_reason() {
    let p = Project::new();
    p.setup("S", "task --verify 'touch verify-ran; true' --no-baseline");
    let message = p
        .stop(
            "S",
            "<promise>LOOP_DONE</promise> <loop-pause>x</loop-pause> <loop-abort> the API it needs does not exist </loop-abort>",
        )
        .allowed();
    assert!(message.contains("the API it needs does not exist"), "{message}");
    assert!(!p.exists(STATE), "state file removed");
    assert!(p.seal_paths().is_empty(), "seal removed");
    assert!(!p.exists("verify-ran"), "an abort does not run the oracle");
    let aborted = p.last_record("aborted");
    assert_eq!(aborted["reason"], "the API it needs does not exist");
    assert_eq!(p.statuses(), ["init", "aborted"]);
    // Over: the next stop is the fast path again.
    p.stop("S", "anything").silent();
}

/// Pause: `status: paused`, a context file for the next session, `paused` recorded with the reason.
#[test]
fn pause_tag_keeps_the_loop_paused_and_leaves_context() {
    let p = Project::new();
    p.setup("S", "wire up the payment API --verify 'false'");
    let message = p
        .stop(
            "S",
            "<promise>LOOP_DONE</promise><loop-pause>an API key for the sandbox</loop-pause>",
        )
        .allowed();
    assert!(message.contains("an API key for the sandbox"), "{message}");
    assert_eq!(p.state_field("status"), "paused");
    assert_eq!(p.seal()["fields"]["status"], "paused");
    let context = p.read(CONTEXT);
    assert!(context.contains("an API key for the sandbox"), "{context}");
    assert!(context.contains("wire up the payment API"), "{context}");
    let paused = p.last_record("paused");
    assert_eq!(paused["reason"], "an API key for the sandbox");
    assert_eq!(p.statuses(), ["init", "paused"], "no verify ran at a pause");
}

/// The agent's own notes in `.claude/pua-loop-context.md` are not overwritten by the pause.
#[test]
fn pause_keeps_the_agents_own_context_notes() {
    let p = Project::new();
    p.setup("S", "task");
    let notes = "# Notes\nTried A and B; need the staging URL.\n";
    p.write(CONTEXT, notes);
    p.stop("S", "<loop-pause>the staging URL</loop-pause>").allowed();
    assert_eq!(p.read(CONTEXT), notes);
}

/// No verify command: the promise alone completes the loop.
#[test]
fn honor_system_promise_completes() {
    let p = Project::new();
    p.setup("S", "write the changelog");
    p.stop("S", "working on it").blocked();
    let message = p.stop("S", &format!("Done.\n{PROMISE}")).allowed();
    assert!(message.contains("honor system"), "{message}");
    assert!(!p.exists(STATE));
    assert!(p.seal_paths().is_empty());
    assert_eq!(p.statuses(), ["init", "continue", "complete"]);
    assert_eq!(p.last_record("complete")["promise_rejections"], 0);
}

/// Only a whole tag with the right text is a promise (on the honor system, a promise would end the loop).
#[test]
fn bare_loop_done_without_tags_does_not_complete() {
    let p = Project::new();
    // Six stops without a tool call would pause the loop as stalled (talk-only) at the fourth.
    p.setup("S", "task --stall-limit 0");
    for message in [
        "LOOP_DONE",
        "I am done. LOOP_DONE",
        "<promise>LOOP_DONE",
        "LOOP_DONE</promise>",
        "<promise>NOT_DONE</promise>",
        "<promise></promise>",
    ] {
        let block = p.stop("S", message).blocked();
        assert!(block.reason.contains("not done yet"), "{message}: {}", block.reason);
    }
    assert!(p.exists(STATE));
    assert!(!p.statuses().contains(&"complete".to_string()));
}

/// `--verify-on always`: the oracle runs at every stop; a failure blocks with its output, a pass completes.
#[test]
fn verify_on_always_runs_at_a_plain_stop() {
    let p = Project::new();
    p.setup(
        "S",
        r#"task --verify-on always --verify 'test -f done.txt || { echo "done.txt: not yet"; exit 2; }'"#,
    );
    let block = p.stop("S", "made some progress").blocked();
    assert_has(&block.reason, "done.txt: not yet");
    assert_has(&block.reason, "exit 2");
    let failed = p.history().last().cloned().expect("a record");
    assert_eq!(failed["verify_exit"], 2, "{failed}");
    assert_eq!(failed["rejections"], 0, "a plain stop is no rejected promise: {failed}");

    p.write("done.txt", "");
    let message = p.stop("S", "made more progress").allowed();
    assert!(message.contains("verified complete"), "{message}");
    assert!(!p.exists(STATE));
    assert_eq!(p.history().last().expect("a record")["status"], "complete");
}

/// `max_iterations` ends the loop, lets the agent stop and says the task was not verified.
#[test]
fn max_iterations_ends_the_loop() {
    let p = Project::new();
    p.setup("S", "task --max-iterations 2 --verify false");
    let block = p.stop("S", "one").blocked();
    assert_has(&block.reason, "iteration 2/2");
    let message = p.stop("S", "two").allowed();
    assert!(message.contains("max_iterations"), "{message}");
    assert!(message.contains("NOT verified"), "{message}");
    assert!(!p.exists(STATE));
    assert!(p.seal_paths().is_empty());
    let end = p.last_record("max_iterations");
    assert_eq!(end["iteration"], 2);
    p.stop("S", "three").silent();
}

/// `max_duration` ends the loop at the first stop after the time is up.
#[test]
fn max_duration_ends_the_loop() {
    let p = Project::new();
    p.setup("S", "task --max-duration 1s");
    std::thread::sleep(Duration::from_millis(1100));
    let message = p.stop("S", "still going").allowed();
    assert!(message.contains("max_duration"), "{message}");
    assert!(!p.exists(STATE));
    assert!(p.seal_paths().is_empty());
    assert_eq!(p.history().last().expect("a record")["status"], "max_duration");
}

/// The promise text is compared after trimming and collapsing white space on both sides.
#[test]
fn promise_text_is_compared_with_collapsed_white_space() {
    let p = Project::new();
    p.setup("S", "task --completion-promise '  all   tests  pass '");
    p.stop("S", "<promise>all tests passed</promise>").blocked();
    let message = p.stop("S", "<promise>\n  all tests\tpass \n</promise>").allowed();
    assert!(message.contains("complete"), "{message}");
}

/// Without `last_assistant_message` the last assistant turn is read from the transcript, and only that turn.
#[test]
fn transcript_is_read_when_last_assistant_message_is_absent() {
    let p = Project::new();
    p.setup("S", "task");
    let transcript = p.outside("transcript.jsonl");
    let input = |p: &Project| {
        let mut input = p.stop_input("S", "");
        input.as_object_mut().expect("object").remove("last_assistant_message");
        input["transcript_path"] = json!(transcript);
        input
    };
    // An earlier turn promised; the last one did not: not a promise.
    let lines = [
        transcript_line("user", "please do the task"),
        transcript_line("assistant", PROMISE),
        transcript_line("user", "are you sure?"),
        transcript_line("assistant", "Not yet, still working."),
    ];
    std::fs::write(&transcript, lines.join("\n") + "\n").expect("write transcript");
    p.hook("stop", &input(&p)).blocked();

    let mut lines = lines.to_vec();
    lines.push(transcript_line("assistant", &format!("Now it is.\n{PROMISE}")));
    std::fs::write(&transcript, lines.join("\n") + "\n").expect("write transcript");
    let message = p.hook("stop", &input(&p)).allowed();
    assert!(message.contains("complete"), "{message}");
    assert!(p.read(HISTORY).contains("\"complete\""));
}
