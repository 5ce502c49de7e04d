//! Issue 34, item 4: the agents whose adapter is built from their documented hook format and not yet run against
//! the real client (Cursor, GitHub Copilot CLI). Each hook input here is the documented schema filled in (Cursor:
//! its hooks docs, `stop` with `conversation_id`/`status`/`loop_count`, `beforeShellExecution` with `command`;
//! Copilot CLI: its CLI hooks reference, the PascalCase events' snake_case input), fed to the built binary as the
//! agent would run it (`loopgate hook --agent A EVENT`), with each agent's transcript for the last message.
//! Per agent: a loop started by the user's prompt, a promise rejected then accepted, a session that is not the
//! loop's left alone, the guard of a sealed input, the block cap, and cancel.

use serde_json::{Value, json};

use crate::project::Project;

const PROMISE: &str = "Done, I believe.\n<promise>LOOP_DONE</promise>";

#[derive(Clone, Copy, Debug)]
enum Agent {
    Cursor,
    Copilot,
}

impl Agent {
    fn name(self) -> &'static str {
        match self {
            Agent::Cursor => "cursor",
            Agent::Copilot => "copilot",
        }
    }

    /// One line of the agent's transcript holding the model's message.
    fn transcript_line(self, message: &str) -> Value {
        match self {
            Agent::Cursor => json!({"role": "assistant", "message": {"content": [{"type": "text", "text": message}]}}),
            Agent::Copilot => json!({"type": "assistant.message", "data": {"content": message, "toolRequests": []}}),
        }
    }

    fn prompt(self, p: &Project, session: &str, prompt: &str) -> Value {
        match self {
            Agent::Cursor => json!({
                "hook_event_name": "beforeSubmitPrompt", "conversation_id": session, "generation_id": "g1",
                "workspace_roots": [p.root()], "prompt": prompt, "attachments": [],
            }),
            Agent::Copilot => json!({
                "hook_event_name": "UserPromptSubmit", "session_id": session,
                "timestamp": "2026-11-26T08:00:00.000Z", "cwd": p.root(), "prompt": prompt,
            }),
        }
    }

    /// The stop input; `continued`: how many follow-ups the stop hook sent before in this turn.
    fn stop(self, p: &Project, session: &str, transcript: &std::path::Path, continued: u64) -> Value {
        match self {
            Agent::Cursor => json!({
                "hook_event_name": "stop", "conversation_id": session, "generation_id": format!("g{continued}"),
                "workspace_roots": [p.root()], "status": "completed", "loop_count": continued,
                "transcript_path": transcript,
            }),
            Agent::Copilot => json!({
                "hook_event_name": "Stop", "session_id": session, "timestamp": "2026-11-26T08:00:00.000Z",
                "cwd": p.root(), "transcript_path": transcript, "stop_reason": "end_turn",
                "stop_hook_active": continued > 0,
            }),
        }
    }

    fn shell(self, p: &Project, session: &str, command: &str) -> Value {
        match self {
            Agent::Cursor => json!({
                "hook_event_name": "beforeShellExecution", "conversation_id": session, "generation_id": "g1",
                "workspace_roots": [p.root()], "command": command, "cwd": p.root(),
            }),
            Agent::Copilot => json!({
                "hook_event_name": "PreToolUse", "session_id": session, "timestamp": "2026-11-26T08:00:00.000Z",
                "cwd": p.root(), "tool_name": "bash", "tool_input": {"command": command, "description": "run"},
            }),
        }
    }

    /// The reason the model reads when the stop was blocked, or `None` when the agent may stop.
    fn blocked(self, out: &Value) -> Option<String> {
        let reason = match self {
            Agent::Cursor => &out["followup_message"],
            Agent::Copilot if out["decision"] == "block" => &out["reason"],
            Agent::Copilot => &Value::Null,
        };
        reason.as_str().map(str::to_string)
    }

    fn denied(self, out: &Value) -> bool {
        match self {
            Agent::Cursor => out["permission"] == "deny" && out["agent_message"].is_string(),
            Agent::Copilot => out["permissionDecision"] == "deny" && out["permissionDecisionReason"].is_string(),
        }
    }
}

/// Runs one hook of `agent` on `input`; its stdout as JSON (`{}` when it printed nothing).
fn hook(p: &Project, agent: Agent, event: &str, input: &Value) -> Value {
    let out = p
        .loopgate(["hook", "--agent", agent.name(), event])
        .stdin(input.to_string())
        .run();
    out.success();
    let text = out.stdout.trim();
    if text.is_empty() {
        return json!({});
    }
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{agent:?} {event}: not JSON ({e}): {text}"))
}

/// The Stop hook of `session` with `message` as the model's last message in the agent's transcript.
fn stop(p: &Project, agent: Agent, session: &str, message: &str, continued: u64) -> Option<String> {
    let transcript = p.tmp_dir().join(format!("{}-{session}.jsonl", agent.name()));
    let mut lines = std::fs::read_to_string(&transcript).unwrap_or_default();
    lines.push_str(&format!("{}\n", agent.transcript_line(message)));
    std::fs::write(&transcript, lines).expect("write the transcript");
    let input = agent.stop(p, session, &transcript, continued);
    agent.blocked(&hook(p, agent, "stop", &input))
}

fn start(p: &Project, agent: Agent, session: &str, flags: &str) {
    let prompt = format!("/pua-loop \"make ok exist\" --verify 'sh check.sh' {flags}");
    hook(p, agent, "user-prompt-submit", &agent.prompt(p, session, &prompt));
    assert_eq!(
        p.state_field("active"),
        "true",
        "{agent:?}: the prompt started the loop"
    );
}

fn project() -> Project {
    let p = Project::new().file("check.sh", "test -f ok\n");
    p.sh("git init -q . && git add -A && git -c user.email=a@b -c user.name=n commit -qm i")
        .run()
        .success();
    p
}

fn rejected_then_completed_other_sessions_alone_and_the_guard(agent: Agent) {
    let p = project();
    start(&p, agent, "S", "");
    assert_eq!(
        stop(&p, agent, "T", PROMISE, 0),
        None,
        "{agent:?}: another session is left alone"
    );
    let reason = stop(&p, agent, "S", PROMISE, 0).expect("the promise is rejected: the oracle fails");
    assert!(
        reason.contains("REJECTED") || reason.contains("rejected"),
        "{agent:?}: {reason}"
    );
    let out = hook(
        &p,
        agent,
        "pre-tool-use",
        &agent.shell(&p, "S", "echo 'exit 0' > check.sh"),
    );
    assert!(
        agent.denied(&out),
        "{agent:?}: a write to the sealed verify script is refused: {out}"
    );
    assert_eq!(p.read("check.sh"), "test -f ok\n");
    p.write("ok", "yes\n");
    assert_eq!(stop(&p, agent, "S", PROMISE, 1), None, "{agent:?}: the oracle passes");
    assert!(
        p.statuses().contains(&"complete".to_string()),
        "{agent:?}: {:?}",
        p.statuses()
    );
}

fn runaway_stops_at_the_cap_then_cancel(agent: Agent) {
    let p = project();
    start(&p, agent, "S", "--stall-limit 0");
    let mut blocks = 0;
    while let Some(_reason) = stop(&p, agent, "S", "still thinking", blocks) {
        blocks += 1;
        assert!(blocks <= 8, "{agent:?}: no runaway past the cap");
    }
    assert_eq!(blocks, 8, "{agent:?}");
    assert!(
        p.statuses().contains(&"block_cap".to_string()),
        "{agent:?}: {:?}",
        p.statuses()
    );
    assert_eq!(p.state_field("active"), "true", "{agent:?}: the loop is still running");
    hook(&p, agent, "user-prompt-submit", &agent.prompt(&p, "S", "/cancel-loop"));
    assert!(
        p.statuses().contains(&"cancelled".to_string()),
        "{agent:?}: {:?}",
        p.statuses()
    );
}

#[test]
fn cursor_loop_rejected_then_completed_other_sessions_alone_and_sealed_inputs_guarded() {
    rejected_then_completed_other_sessions_alone_and_the_guard(Agent::Cursor);
}

#[test]
fn copilot_loop_rejected_then_completed_other_sessions_alone_and_sealed_inputs_guarded() {
    rejected_then_completed_other_sessions_alone_and_the_guard(Agent::Copilot);
}

#[test]
fn cursor_runaway_stops_at_loopgates_cap_and_cancel_ends_the_loop() {
    runaway_stops_at_the_cap_then_cancel(Agent::Cursor);
}

#[test]
fn copilot_runaway_stops_ahead_of_copilots_cap_and_cancel_ends_the_loop() {
    runaway_stops_at_the_cap_then_cancel(Agent::Copilot);
}

/// `loopgate install --agent cursor|copilot` writes the agent's flat `"version": 1` file, keeps the user's own
/// hooks, replaces its own on a second run, and uninstall removes exactly its own.
#[test]
fn install_writes_the_documented_hook_files_and_uninstall_removes_only_loopgates() {
    let p = Project::new();
    let files = [
        (Agent::Cursor, ".cursor/hooks.json", "stop", "command"),
        (Agent::Copilot, ".copilot/hooks/loopgate.json", "Stop", "bash"),
    ];
    for (agent, file, stop_event, key) in files {
        let path = p.home().join(file);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        let mine = json!({"version": 1, "hooks": {stop_event: [{key: "my-own-hook"}]}});
        std::fs::write(&path, mine.to_string()).expect("write");
        for _ in 0..2 {
            p.loopgate(["install", "--agent", agent.name()]).run().success();
        }
        let config: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        assert_eq!(config["version"], 1, "{agent:?}");
        let stops = config["hooks"][stop_event].as_array().expect("a list");
        assert_eq!(
            stops.len(),
            2,
            "{agent:?}: the user's hook and loopgate's, once: {config}"
        );
        let ours = stops[1][key].as_str().expect("a command");
        assert!(
            ours.ends_with(&format!(" hook --agent {} stop", agent.name())),
            "{ours}"
        );
        if let Agent::Cursor = agent {
            assert!(
                stops[1]["loop_limit"].is_null() && stops[1].get("loop_limit").is_some(),
                "{config}"
            );
            assert!(config["hooks"]["beforeShellExecution"].is_array(), "{config}");
        } else {
            assert_eq!(stops[1]["timeoutSec"], 3700, "{config}");
        }
        p.loopgate(["uninstall", "--agent", agent.name()]).run().success();
        let config: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        assert_eq!(config["hooks"][stop_event], json!([{key: "my-own-hook"}]), "{agent:?}");
    }
}

/// `loopgate install --agent opencode` writes its plugin with this binary's path; uninstall removes it, and only
/// a plugin loopgate wrote.
#[test]
fn install_writes_the_opencode_plugin_and_uninstall_removes_it() {
    let p = Project::new();
    let plugin = p.home().join(".config/opencode/plugin/loopgate.js");
    p.loopgate(["install", "--agent", "opencode"]).run().success();
    let text = std::fs::read_to_string(&plugin).expect("the plugin");
    assert!(!text.contains("@LOOPGATE@"), "the binary's path is filled in");
    assert!(text.contains("\"hook\", \"--agent\", \"opencode\""), "{text}");
    p.loopgate(["uninstall", "--agent", "opencode"]).run().success();
    assert!(!plugin.exists());
    std::fs::create_dir_all(plugin.parent().expect("a parent")).expect("mkdir");
    std::fs::write(&plugin, "// my own plugin\n").expect("write");
    p.loopgate(["uninstall", "--agent", "opencode"]).run().success();
    assert!(plugin.exists(), "a plugin loopgate did not write is kept");
}
