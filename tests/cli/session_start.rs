//! The SessionStart hook: paused loops are adopted, a session's own loop is re-injected after compaction,
//! another session's running loop is left alone.

use crate::project::Project;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
const FAILING: &str = r#"test -f done.txt || { echo "FAIL: done.txt is missing"; exit 1; }"#;

/// A new session adopts a paused loop: the model gets the task and why it was paused; `resumed` is recorded.
#[test]
fn paused_loop_is_adopted_by_a_new_session() {
    let p = Project::new();
    p.setup("S", &format!("\"migrate the billing tables\" --verify '{FAILING}'"));
    p.stop("S", PROMISE).blocked();
    p.stop("S", "<loop-pause>the production DB URL</loop-pause>").allowed();

    let out = p.session_start("NEW", "startup");
    let context = out.additional_context();
    for needle in [
        "migrate the billing tables",
        "the production DB URL",
        "done.txt is missing",
        "<promise>LOOP_DONE</promise>",
        "taken over a paused loop",
    ] {
        assert!(context.contains(needle), "context lacks {needle:?}:\n{context}");
    }
    let system = out.json()["systemMessage"]
        .as_str()
        .expect("the user is told")
        .to_string();
    assert!(system.contains(&p.loop_id()), "{system}");
    let resumed = p.last_record("resumed");
    assert_eq!(resumed["from_session"], "S");
    assert_eq!(resumed["session_id"], "NEW");
    assert_eq!(resumed["source"], "startup");
    assert_eq!(p.state_field("status"), "running");

    p.stop("S", PROMISE).silent();
    p.stop("NEW", "picking it up").blocked();
}

/// After compaction the owning session is reminded of the task, the iteration and the last failure; nothing is
/// recorded and nothing changes hands.
#[test]
fn compact_reinjects_task_iteration_and_last_failure() {
    let p = Project::new();
    p.setup("S", &format!("\"make the parser total\" --verify '{FAILING}'"));
    p.stop("S", "no signal").blocked();
    p.stop("S", PROMISE).blocked();
    let history = p.history_bytes();

    let context = p.session_start("S", "compact").additional_context();
    for needle in [
        "make the parser total",
        "iteration 3",
        "FAIL: done.txt is missing",
        "<promise>LOOP_DONE</promise>",
    ] {
        assert!(context.contains(needle), "context lacks {needle:?}:\n{context}");
    }
    assert_eq!(p.history_bytes(), history, "a reminder records nothing");
    assert_eq!(p.state_field("session_id"), "S");
}

/// Another session's running loop: that session gets nothing, and the loop stays where it is.
#[test]
fn another_sessions_running_loop_gets_nothing() {
    let p = Project::new();
    p.setup("S", "task");
    let (state, history) = (p.state_text(), p.history_bytes());
    for source in ["startup", "resume", "clear", "compact"] {
        p.session_start("OTHER", source).silent();
    }
    assert_eq!(p.state_text(), state);
    assert_eq!(p.history_bytes(), history);
}

/// A loop started without a session (an unsubstituted `${CLAUDE_SESSION_ID}`) is adopted by the next session.
#[test]
fn unbound_loop_is_adopted_by_the_next_session() {
    let p = Project::new();
    let out = p.setup("${CLAUDE_SESSION_ID}", "task from a terminal");
    out.stdout_contains("adopts the loop");
    assert_eq!(p.seal()["fields"]["session_id"], "");

    let context = p.session_start("FIRST", "startup").additional_context();
    assert!(context.contains("task from a terminal"), "{context}");
    // Issue 33, item 9: it was never paused, so it is not "taken over a paused loop".
    assert!(!context.contains("paused"), "{context}");
    assert!(context.contains("started from a terminal"), "{context}");
    assert_eq!(p.state_field("session_id"), "FIRST");
    p.stop("FIRST", "working").blocked();
    p.session_start("SECOND", "startup").silent();
}
