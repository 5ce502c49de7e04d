//! The adapters on hook inputs recorded from the real clients (Codex CLI 0.169.0; Gemini CLI 0.61.0 as
//! `docs/agents.md` records its fields), and on inputs built from the documented schema for Cursor (its hooks
//! documentation) and GitHub Copilot CLI (its CLI hooks reference), which have not been run here.

use serde_json::{Value, json};

use super::of;
use crate::cli::{Agent, HookEvent};
use crate::hook::{HookOutput, input};

fn read(agent: Agent, event: &HookEvent, raw: &Value) -> crate::hook::HookInput {
    let adapter = of(agent);
    let name = agent.event_name(event).expect("the agent has this event");
    let translate = |fields: &mut serde_json::Map<String, Value>| adapter.translate(event, fields);
    let mut input = input::parse_with(raw.to_string().as_bytes(), name, &translate).expect("parses");
    adapter.read(event, &mut input);
    input
}

fn written(agent: Agent, event: &HookEvent, output: HookOutput) -> Value {
    serde_json::from_str(&of(agent).write(event, output)).expect("JSON")
}

/// Recorded from Codex CLI 0.169.0 (`codex exec`, a scripted model), paths shortened.
const CODEX_STOP: &str = r#"{"session_id":"01a21644-9a13-7af0-a903-ee0b864865df","turn_id":"01a21644-9a42-7a42-9122-7eeae0a4b94b","transcript_path":"/h/.codex/sessions/2026/11/26/rollout-2026-11-26T05-12-04-01a21644.jsonl","cwd":"/p","hook_event_name":"Stop","model":"mock-model","permission_mode":"bypassPermissions","stop_hook_active":false,"last_assistant_message":"hello there"}"#;

#[test]
fn codex_stop_input_reads_like_claude_codes_with_its_turn_id_as_the_prompt() {
    let raw: Value = serde_json::from_str(CODEX_STOP).expect("recorded JSON");
    let input = read(Agent::Codex, &HookEvent::Stop, &raw);
    assert_eq!(
        input.session().expect("session"),
        "01a21644-9a13-7af0-a903-ee0b864865df"
    );
    assert_eq!(input.last_assistant_message.as_deref(), Some("hello there"));
    assert_eq!(input.prompt_id.as_deref(), Some("01a21644-9a42-7a42-9122-7eeae0a4b94b"));
    assert_eq!(input.stop_hook_active, Some(false));
    // A Claude Code input is refused by the Codex hook only for its event name, never for its fields.
    let err = input::parse(br#"{"hook_event_name":"AfterAgent"}"#, "Stop").expect_err("another event");
    assert!(err.contains("AfterAgent"), "{err}");
}

#[test]
fn codex_output_drops_the_notification_and_allows_a_rewritten_command() {
    let out = written(
        Agent::Codex,
        &HookEvent::Stop,
        HookOutput::allow("done".into()).with_notification("loop complete"),
    );
    assert_eq!(out, json!({"systemMessage": "done"}));
    let rewrite = HookOutput::rewrite_tool(json!({"command": "confined"}));
    let out = written(Agent::Codex, &HookEvent::PreToolUse, rewrite);
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "allow");
    assert_eq!(out["hookSpecificOutput"]["updatedInput"]["command"], "confined");
    let deny = written(Agent::Codex, &HookEvent::PreToolUse, HookOutput::deny_tool("no".into()));
    assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
    // Claude Code's own output is untouched.
    let claude = written(
        Agent::Claude,
        &HookEvent::Stop,
        HookOutput::allow("done".into()).with_notification("x"),
    );
    assert!(claude["terminalSequence"].is_string());
}

/// Codex XML-escapes a Stop hook's reason, Gemini CLI the `<`, `>` of every `additionalContext`: what each gets has
/// nothing it would escape (`entities`); the rest of its output is as before.
#[test]
fn text_a_cli_would_html_escape_reaches_it_with_nothing_to_escape() {
    let reason = "expected <5> && done. Reply with <promise>LOOP_DONE</promise>.";
    let out = written(
        Agent::Codex,
        &HookEvent::Stop,
        HookOutput::block(reason.into(), "shown".into()),
    );
    let sent = out["reason"].as_str().expect("a reason");
    assert!(
        !sent.contains(['<', '>', '&']) && sent.contains("LOOP_DONE in a promise tag"),
        "{sent}"
    );
    assert_eq!(out["decision"], "block");
    // Gemini reads a Stop reason verbatim, and escapes its contexts.
    let gemini = written(
        Agent::Gemini,
        &HookEvent::Stop,
        HookOutput::block(reason.into(), "x".into()),
    );
    assert_eq!(gemini["reason"], reason);
    let briefing = HookOutput::prompt_context(reason.into(), "sealed".into());
    let gemini = written(Agent::Gemini, &HookEvent::UserPromptSubmit, briefing.clone());
    let context = gemini["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("context");
    assert!(
        context.starts_with("expected ‹5› && done. Reply with LOOP_DONE in a promise tag."),
        "{context}"
    );
    // Codex passes a prompt hook's context as it is.
    let codex = written(Agent::Codex, &HookEvent::UserPromptSubmit, briefing);
    assert_eq!(codex["hookSpecificOutput"]["additionalContext"], reason);
}

/// Copilot CLI hands the prompt hook its wrapper of an invoked skill (recorded from 1.0.102's interactive UI):
/// it is read as the command the user typed; any other prompt is left as it is.
#[test]
fn copilot_reads_an_invoked_skill_as_the_command_typed() {
    let wrapped = |args: &str| {
        format!(
            "The user explicitly invoked the \"/pua-loop\" skill. Follow its instructions now.\n\n<skill-context name=\"pua-loop\">\nBase directory for this skill: /h/.copilot/skills/pua-loop\n\nThe user's message is loopgate's command.\n\n{args}</skill-context>"
        )
    };
    let prompt = |text: String| {
        let raw = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "prompt": text});
        read(Agent::Copilot, &HookEvent::UserPromptSubmit, &raw)
            .prompt
            .expect("a prompt")
    };
    assert_eq!(
        prompt(wrapped("\nARGUMENTS: \"fix </skill-context> it\" --verify 'x'\n")),
        "/pua-loop \"fix </skill-context> it\" --verify 'x'"
    );
    assert_eq!(prompt(wrapped("")), "/pua-loop");
    assert_eq!(prompt("hello /pua-loop".into()), "hello /pua-loop");
}

/// The note that ends Gemini's `/pua-loop` command (for the model, where the hooks did not run) is no part of the
/// task.
#[test]
fn gemini_prompt_hook_cuts_off_the_note_for_an_untrusted_folder() {
    let prompt = format!(
        "/pua-loop \"fix it\" --verify 'true'\n\n{}",
        crate::messages::agents::GEMINI_NO_HOOKS_NOTE
    );
    let raw = json!({"session_id": "g1", "hook_event_name": "BeforeAgent", "cwd": "/p", "prompt": prompt});
    let input = read(Agent::Gemini, &HookEvent::UserPromptSubmit, &raw);
    assert_eq!(input.prompt.as_deref(), Some("/pua-loop \"fix it\" --verify 'true'"));
}

#[test]
fn gemini_reads_the_tail_of_the_cumulative_response_and_not_stop_hook_active() {
    let old = "<promise>LOOP_DONE</promise> earlier turn. ".repeat(100);
    let raw = json!({
        "session_id": "g1", "hook_event_name": "AfterAgent", "cwd": "/p", "timestamp": "2026-11-26T05:00:00Z",
        "prompt": "/pua-loop fix it", "prompt_response": format!("{old}now still working"),
        "stop_hook_active": true,
    });
    let input = read(Agent::Gemini, &HookEvent::Stop, &raw);
    let last = of(Agent::Gemini).last_message(&input).expect("a last message");
    assert!(last.ends_with("now still working") && last.chars().count() == super::gemini::TAIL_CHARS);
    assert_eq!(input.stop_hook_active, None, "unreliable in Gemini CLI: not read");
    let again = read(Agent::Gemini, &HookEvent::Stop, &raw);
    assert_eq!(input.prompt_id, again.prompt_id, "every stop of one prompt is one turn");
    assert!(input.prompt_id.is_some_and(|id| !id.contains("fix")));
}

#[test]
fn gemini_tools_are_guarded_as_claude_codes_and_answered_in_its_format() {
    let raw = json!({"session_id": "g1", "hook_event_name": "BeforeTool", "tool_name": "write_file",
                     "tool_input": {"file_path": "/p/tests/a.py", "content": "x"}});
    let input = read(Agent::Gemini, &HookEvent::PreToolUse, &raw);
    assert_eq!(input.tool_name.as_deref(), Some("Write"));
    let raw = json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                     "tool_input": {"command": "ls", "description": "list"}});
    assert_eq!(
        read(Agent::Gemini, &HookEvent::PreToolUse, &raw).tool_name.as_deref(),
        Some("Bash")
    );
    let deny = written(
        Agent::Gemini,
        &HookEvent::PreToolUse,
        HookOutput::deny_tool("sealed".into()),
    );
    assert_eq!(deny, json!({"decision": "deny", "reason": "sealed"}));
    let rewrite = HookOutput::rewrite_tool(json!({"command": "confined"}));
    let out = written(Agent::Gemini, &HookEvent::PreToolUse, rewrite);
    assert_eq!(out["hookSpecificOutput"]["tool_input"]["command"], "confined");
    let block = written(
        Agent::Gemini,
        &HookEvent::Stop,
        HookOutput::block("fix it".into(), "n".into()),
    );
    assert_eq!(block["decision"], "block");
    assert_eq!(block["reason"], "fix it");
}

#[test]
fn each_agent_without_a_cap_of_its_own_gets_loopgates() {
    assert!(!of(Agent::Claude).block_cap().1);
    for agent in [Agent::Codex, Agent::Gemini, Agent::Cursor, Agent::Opencode] {
        assert!(of(agent).block_cap().1, "{agent:?}");
    }
    assert_eq!(
        of(Agent::Copilot).block_cap(),
        (Some(8), false),
        "Copilot CLI 1.0.72 caps at 8"
    );
}

/// A transcript as Gemini CLI 0.61.0 writes it (`~/.gemini/tmp/<project>/chats/session-….jsonl`, shortened).
const GEMINI_TRANSCRIPT: &str = r#"{"id":"a","type":"gemini","content":"done <promise>LOOP_DONE</promise>","model":"gemini-mock"}
{"$set":{"lastUpdated":"2026-11-26T05:31:07.672Z"}}
{"id":"b","type":"user","content":[{"text":"[loopgate] iteration 2 · PROMISE REJECTED"}]}
{"id":"c","type":"gemini","content":"ok, still fixing","model":"gemini-mock"}
{"$set":{"lastUpdated":"2026-11-26T05:31:07.731Z"}}
"#;

#[test]
fn gemini_last_message_is_the_transcripts_last_model_entry_not_an_earlier_promise() {
    let dir = tempfile::tempdir().expect("temp dir");
    let transcript = dir.path().join("session.jsonl");
    std::fs::write(&transcript, GEMINI_TRANSCRIPT).expect("write");
    let raw = json!({
        "session_id": "g1", "hook_event_name": "AfterAgent", "transcript_path": transcript,
        "prompt": "/pua-loop fix it", "prompt_response": "done <promise>LOOP_DONE</promise>ok, still fixing",
    });
    let input = read(Agent::Gemini, &HookEvent::Stop, &raw);
    assert_eq!(
        of(Agent::Gemini).last_message(&input).as_deref(),
        Some("ok, still fixing")
    );
    // A transcript that lags behind the response is not trusted: the tail of the response is read instead.
    let lagging = json!({"session_id": "g1", "hook_event_name": "AfterAgent", "transcript_path": transcript,
                         "prompt_response": "…and now a newer message"});
    let input = read(Agent::Gemini, &HookEvent::Stop, &lagging);
    assert_eq!(
        of(Agent::Gemini).last_message(&input).as_deref(),
        Some("…and now a newer message")
    );
}

#[test]
fn gemini_prompt_is_read_after_a_session_start_context() {
    let raw = json!({"session_id": "g2", "hook_event_name": "BeforeAgent",
                     "prompt": "<hook_context>[loopgate] resumed loop …\nYour task: x</hook_context>\n\n/cancel-loop"});
    let input = read(Agent::Gemini, &HookEvent::UserPromptSubmit, &raw);
    assert_eq!(input.prompt.as_deref(), Some("/cancel-loop"));
    let plain = json!({"session_id": "g2", "hook_event_name": "BeforeAgent", "prompt": "fix <hook_context>"});
    let input = read(Agent::Gemini, &HookEvent::UserPromptSubmit, &plain);
    assert_eq!(input.prompt.as_deref(), Some("fix <hook_context>"));
}

/// Cursor's `stop` and `beforeShellExecution`, as its hooks documentation lists the fields.
#[test]
fn cursor_input_is_read_by_conversation_and_workspace_and_its_command_is_bash() {
    let stop = json!({"hook_event_name": "stop", "conversation_id": "c1", "generation_id": "g2",
                      "workspace_roots": ["/p"], "status": "completed", "loop_count": 2});
    let input = read(Agent::Cursor, &HookEvent::Stop, &stop);
    assert_eq!(input.session().expect("session"), "c1");
    assert_eq!(input.cwd.as_deref(), Some("/p"));
    assert_eq!(input.stop_hook_active, Some(true), "a follow-up already sent");
    let shell = json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c1", "generation_id": "g",
                       "workspace_roots": ["/p"], "command": "rm -rf tests", "cwd": "/p/sub"});
    let input = read(Agent::Cursor, &HookEvent::PreToolUse, &shell);
    assert_eq!(input.tool_name.as_deref(), Some("Bash"));
    assert_eq!(input.tool_input, Some(json!({"command": "rm -rf tests"})));
    assert_eq!(input.cwd.as_deref(), Some("/p/sub"), "the command's own directory wins");
}

#[test]
fn cursor_output_is_a_follow_up_a_permission_or_nothing_it_cannot_carry() {
    let block = written(
        Agent::Cursor,
        &HookEvent::Stop,
        HookOutput::block("fix it".into(), "n".into()),
    );
    assert_eq!(block, json!({"followup_message": "fix it"}));
    let done = written(Agent::Cursor, &HookEvent::Stop, HookOutput::allow("done".into()));
    assert_eq!(done, json!({}));
    let deny = written(
        Agent::Cursor,
        &HookEvent::PreToolUse,
        HookOutput::deny_tool("sealed".into()),
    );
    assert_eq!(deny["permission"], "deny");
    assert_eq!(deny["agent_message"], "sealed");
    let rewrite = HookOutput::rewrite_tool(json!({"command": "confined"}));
    assert_eq!(
        written(Agent::Cursor, &HookEvent::PreToolUse, rewrite),
        json!({"permission": "allow"}),
        "beforeShellExecution cannot rewrite: the command runs as it is"
    );
}

/// A transcript line as Cursor's `transcript_path` holds the model's message.
#[test]
fn cursor_and_copilot_last_message_is_their_transcripts_last_model_entry() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cursor = dir.path().join("cursor.jsonl");
    std::fs::write(
        &cursor,
        "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"old <promise>LOOP_DONE</promise>\"}]}}\n\
         {\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"rejected\"}]}}\n\
         {\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"still fixing\"}]}}\n",
    )
    .expect("write");
    let raw = json!({"hook_event_name": "stop", "conversation_id": "c1", "transcript_path": cursor});
    let input = read(Agent::Cursor, &HookEvent::Stop, &raw);
    assert_eq!(of(Agent::Cursor).last_message(&input).as_deref(), Some("still fixing"));
    let copilot = dir.path().join("events.jsonl");
    std::fs::write(
        &copilot,
        "{\"type\":\"assistant.message\",\"data\":{\"content\":\"working <promise>LOOP_DONE</promise>\"}}\n\
         {\"type\":\"tool.execution_start\",\"data\":{\"toolName\":\"bash\"}}\n\
         {\"type\":\"assistant.message\",\"data\":{\"content\":\"\",\"toolRequests\":[{\"name\":\"bash\"}]}}\n",
    )
    .expect("write");
    let raw = json!({"hook_event_name": "Stop", "session_id": "s", "transcript_path": copilot});
    let input = read(Agent::Copilot, &HookEvent::Stop, &raw);
    assert_eq!(
        of(Agent::Copilot).last_message(&input).as_deref(),
        Some("working <promise>LOOP_DONE</promise>"),
        "a message with only tool requests has no text"
    );
}

/// Copilot CLI's PascalCase `PreToolUse` input (the CLI hooks reference) and its decision control.
#[test]
fn copilot_tools_are_guarded_as_claude_codes_and_answered_in_its_format() {
    let raw = json!({"hook_event_name": "PreToolUse", "session_id": "s", "timestamp": "2026-11-26T08:00:00.000Z",
                     "cwd": "/p", "tool_name": "create", "tool_input": {"path": "/p/tests/a.py", "file_text": "x"}});
    let input = read(Agent::Copilot, &HookEvent::PreToolUse, &raw);
    assert_eq!(input.tool_name.as_deref(), Some("Write"));
    assert_eq!(input.tool_input.expect("args")["file_path"], "/p/tests/a.py");
    let deny = written(
        Agent::Copilot,
        &HookEvent::PreToolUse,
        HookOutput::deny_tool("sealed".into()),
    );
    assert_eq!(
        deny,
        json!({"permissionDecision": "deny", "permissionDecisionReason": "sealed"})
    );
    let rewrite = HookOutput::rewrite_tool(json!({"command": "confined"}));
    let out = written(Agent::Copilot, &HookEvent::PreToolUse, rewrite);
    assert_eq!(
        out,
        json!({"permissionDecision": "allow", "modifiedArgs": {"command": "confined"}})
    );
    let block = written(
        Agent::Copilot,
        &HookEvent::Stop,
        HookOutput::block("fix it".into(), "n".into()),
    );
    assert_eq!(block, json!({"decision": "block", "reason": "fix it"}));
}

/// What loopgate's opencode plugin sends for `tool.execute.before` (opencode's tool names and `filePath`).
#[test]
fn opencode_tools_are_guarded_as_claude_codes() {
    let raw = json!({"hook_event_name": "tool.execute.before", "session_id": "ses_1", "cwd": "/p",
                     "tool_name": "edit", "tool_input": {"filePath": "/p/check.sh", "oldString": "a", "newString": "b"}});
    let input = read(Agent::Opencode, &HookEvent::PreToolUse, &raw);
    assert_eq!(input.tool_name.as_deref(), Some("Edit"));
    assert_eq!(input.tool_input.expect("args")["file_path"], "/p/check.sh");
    let deny = written(
        Agent::Opencode,
        &HookEvent::PreToolUse,
        HookOutput::deny_tool("sealed".into()),
    );
    assert_eq!(
        deny["hookSpecificOutput"]["permissionDecision"], "deny",
        "the plugin reads Claude Code's JSON"
    );
}
