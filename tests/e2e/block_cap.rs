//! Claude Code's stop-hook block cap, against the real client: Claude Code ends a turn after 8 Stop-hook blocks
//! in a row without a tool call (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`). loopgate warns the model at the last block
//! Claude Code honors and lets the turn end itself at the cap, the loop still running; a tool call resets the
//! count; a turn the cap ends anyway is recorded as `turn_ended` and the user is told.
//!
//! Talk-only stops pause a loop as stalled after three (issue 23), long before the cap; these scenarios turn the
//! stall breaker off (`--stall-limit 0`), which leaves the cap as the only limit on an agent that only talks.

use serde_json::json;

use super::{TASK, assert_contains, project_with_check, promise, timer};
use crate::harness::{self, Run};
use crate::mock_api::Reply;

const LAST_WARNING: &str = "LAST CONTINUATION WITHOUT A TOOL";
/// How Claude Code (2.1.330 prints it in `-p` mode; 2.1.197 only in the interactive UI) says it overrode a block.
const OVERRIDE: &str = "overriding and ending turn";

fn talk(n: usize) -> Vec<Reply> {
    (1..=n)
        .map(|i| Reply::text(format!("Let me think about it some more ({i}).")))
        .collect()
}

fn overridden(run: &Run) -> bool {
    run.output.stdout.contains(OVERRIDE)
}

#[test]
fn an_agent_that_only_talks_is_let_go_at_the_cap_and_the_next_message_continues_the_loop() {
    let _t = timer("block cap: talk-only agent, then continue");
    let project = project_with_check();
    let session = "dddddddd-0000-4000-8000-000000000004";
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --stall-limit 0"
        ))
        .session_id(session)
        .replies(talk(12))
        .run();

    // Eight blocks reached the model, the last with the warning; the ninth stop was let go by loopgate itself.
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 8, "{}", run.describe());
    for (i, reason) in feedback.iter().enumerate() {
        assert_eq!(reason.contains(LAST_WARNING), i == 7, "block {}:\n{reason}", i + 1);
    }
    assert_eq!(run.agent_requests().len(), 9, "{}", run.describe());
    assert!(
        !overridden(&run),
        "Claude Code had to override a block\n{}",
        run.describe()
    );
    let shown = run.system_messages().join("\n");
    assert_contains(
        &shown,
        "no tool in its last 8 continuation(s)",
        "what the user saw",
        &run,
    );
    assert_contains(&shown, "still running", "what the user saw", &run);
    let statuses = project.statuses();
    assert_eq!(statuses.first().map(String::as_str), Some("init"));
    assert_eq!(statuses.last().map(String::as_str), Some("block_cap"), "{statuses:?}");
    assert!(project.loop_live(), "{}", run.describe());

    // The user says "continue" in the same session: the loop goes on and completes.
    let next = project
        .session("continue")
        .arg("--resume")
        .arg(session)
        .replies([Reply::bash("echo fixed > src.txt"), promise()])
        .run();
    // (The resumed conversation still holds the first turn's feedback, so count this session's Stop outputs.)
    assert!(
        next.hook_outputs("Stop").iter().all(|out| out["decision"] != "block"),
        "{}",
        next.describe()
    );
    let statuses = project.statuses();
    assert_eq!(statuses.last().map(String::as_str), Some("complete"), "{statuses:?}");
    assert!(
        !statuses.iter().any(|s| s == "turn_ended"),
        "loopgate let that turn end itself: {statuses:?}"
    );
    assert!(!project.loop_live());
}

#[test]
fn a_tool_call_resets_the_count_and_the_cap_comes_from_the_environment() {
    let _t = timer("block cap: a Read resets the count, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=3");
    let project = project_with_check();
    let mut replies = talk(2);
    replies.push(Reply::tool("Read", json!({"file_path": project.path("src.txt")})));
    replies.extend(talk(6));
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --stall-limit 0"
        ))
        .env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "3")
        .arg("--allowedTools")
        .arg("Read")
        .replies(replies)
        .run();
    // talk, talk (2 blocks), Read (count back to 0), talk ×3 (3 blocks, the last warned), talk (let go).
    let feedback = run.stop_feedback();
    let warned: Vec<bool> = feedback.iter().map(|r| r.contains(LAST_WARNING)).collect();
    assert_eq!(warned, [false, false, false, false, true], "{}", run.describe());
    assert_eq!(run.agent_requests().len(), 7, "{}", run.describe());
    assert!(!overridden(&run), "{}", run.describe());
    let history = project.history();
    let cap = history
        .iter()
        .find(|r| r["status"] == "block_cap")
        .expect("a block_cap record");
    assert_eq!(
        (&cap["cap"], &cap["blocks_without_tool"]),
        (&json!(3), &json!(3)),
        "{cap}"
    );
}

#[test]
fn a_turn_the_cap_ends_anyway_is_recorded_and_the_user_is_told_when_the_session_resumes() {
    let _t = timer("block cap: the turn ended anyway");
    let project = project_with_check();
    // A plugin whose Stop hook believes the cap is 100 while Claude Code applies its default of 8: loopgate keeps
    // blocking, and Claude Code overrides the ninth block.
    let plugin = project.home.join("plugin-with-wrong-cap");
    super::copy_plugin(&plugin);
    let hooks = plugin.join("hooks/hooks.json");
    let text = std::fs::read_to_string(&hooks).expect("read hooks.json");
    let text = text.replace(
        "\"\\\"${CLAUDE_PLUGIN_ROOT}/hooks/loopgate.sh\\\" hook stop\"",
        "\"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=100 \\\"${CLAUDE_PLUGIN_ROOT}/hooks/loopgate.sh\\\" hook stop\"",
    );
    assert!(
        text.contains("=100"),
        "the Stop hook command was not rewritten:\n{text}"
    );
    std::fs::write(&hooks, text).expect("write hooks.json");
    let session = "eeeeeeee-0000-4000-8000-000000000005";
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --stall-limit 0"
        ))
        .session_id(session)
        .plugin_dir(&plugin)
        .replies(talk(12))
        .run();
    assert_eq!(run.agent_requests().len(), 9, "{}", run.describe());
    if harness::claude_version() != "2.1.197" {
        assert!(overridden(&run), "{}", run.describe());
    }
    assert!(project.loop_live());
    assert!(!project.statuses().iter().any(|s| s == "turn_ended"));

    let next = project
        .session("continue")
        .arg("--resume")
        .arg(session)
        .plugin_dir(&plugin)
        .replies([Reply::bash("echo fixed > src.txt"), promise()])
        .run();
    let shown = next.system_messages().join("\n");
    assert_contains(
        &shown,
        "previous turn ended although loopgate had asked it to continue",
        "what the user saw",
        &next,
    );
    let history = project.history();
    let ended: Vec<_> = history.iter().filter(|r| r["status"] == "turn_ended").collect();
    assert_eq!(ended.len(), 1, "{history:?}");
    assert_eq!(ended[0]["blocks_without_tool"], 9, "{}", ended[0]);
    assert_eq!(
        project.statuses().last().map(String::as_str),
        Some("complete"),
        "{}",
        next.describe()
    );
}
