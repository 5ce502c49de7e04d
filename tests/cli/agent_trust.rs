//! Issue 42, item 2: lost trust is never silent. A `/pua-loop` typed in Codex CLI or Gemini CLI starts a loop only
//! where that CLI will run loopgate's Stop and pre-tool hooks; otherwise it is refused with the reason and the
//! fix. `loopgate status` claims no protection for a loop whose CLI stopped trusting them.

use serde_json::{Value, json};

use crate::project::Project;

fn project() -> Project {
    let p = Project::new().file("check.sh", "test -f ok\n");
    p.sh("git init -q . && git add -A && git -c user.email=a@b -c user.name=n commit -qm i")
        .run()
        .success();
    p
}

/// The prompt hook of `agent` on `prompt`; what the model reads (`additionalContext`) and the user's line.
fn prompt(p: &Project, agent: &str, session: &str, prompt: &str) -> (String, String) {
    let input = json!({
        "hook_event_name": if agent == "codex" { "UserPromptSubmit" } else { "BeforeAgent" },
        "session_id": session, "turn_id": "t1", "cwd": p.root(), "prompt": prompt,
    });
    let out = p
        .loopgate(["hook", "--agent", agent, "user-prompt-submit"])
        .stdin(input.to_string())
        .run();
    out.success();
    let wire: Value = serde_json::from_str(out.stdout.trim()).unwrap_or(Value::Null);
    let context = wire["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let notice = wire["systemMessage"].as_str().unwrap_or_default().to_string();
    (context, notice)
}

/// Text with its white space collapsed (status wraps long lines).
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

const START: &str = "/pua-loop \"make ok exist\" --verify 'sh check.sh'";

/// Changes the timeout of loopgate's Stop hook in Codex's `hooks.json`, as a user's hand edit would: Codex no
/// longer trusts it.
fn edit_codex_stop_hook(p: &Project) {
    let path = p.home().join(".codex/hooks.json");
    let mut hooks: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("hooks.json")).expect("JSON");
    hooks["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 600.into();
    std::fs::write(&path, hooks.to_string()).expect("write hooks.json");
}

#[test]
fn an_untrusted_codex_stop_hook_refuses_the_start_with_the_fix() {
    let p = project();
    p.loopgate(["install", "--agent", "codex"]).run().success();
    edit_codex_stop_hook(&p);
    let (context, notice) = prompt(&p, "codex", "s1", START);
    assert!(
        notice.starts_with("loopgate: the loop did NOT start: Codex's Stop hook is not trusted in `"),
        "{notice}"
    );
    assert!(
        notice.contains("loopgate install --agent codex") && notice.contains("/hooks"),
        "{notice}"
    );
    assert!(context.contains("did NOT start"), "{context}");
    assert!(!p.root().join(".claude/pua-loop.local.md").exists(), "no loop");

    // The fix, then the same prompt starts it.
    p.loopgate(["install", "--agent", "codex"]).run().success();
    let (_, notice) = prompt(&p, "codex", "s1", START);
    assert!(notice.contains("the loop is sealed"), "{notice}");
    assert_eq!(p.state_field("active"), "true");
}

#[test]
fn a_missing_codex_pre_tool_hook_refuses_the_start() {
    let p = project();
    p.loopgate(["install", "--agent", "codex"]).run().success();
    let path = p.home().join(".codex/hooks.json");
    let mut hooks: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("hooks.json")).expect("JSON");
    hooks["hooks"]["PreToolUse"] = json!([]);
    std::fs::write(&path, hooks.to_string()).expect("write hooks.json");
    let (_, notice) = prompt(&p, "codex", "s1", START);
    assert!(notice.contains("Codex's PreToolUse hook is not loopgate's"), "{notice}");
}

#[test]
fn status_says_unprotected_once_codex_stops_trusting_the_loops_stop_hook() {
    let p = project();
    p.loopgate(["install", "--agent", "codex"]).run().success();
    let (_, notice) = prompt(&p, "codex", "s1", START);
    assert!(notice.contains("the loop is sealed"), "{notice}");
    let before = p.loopgate(["status"]).run();
    assert!(
        !squash(&before.stdout).contains("control plane: unprotected (Codex"),
        "{before}"
    );
    edit_codex_stop_hook(&p);
    let after = p.loopgate(["status"]).run();
    assert!(
        squash(&after.stdout).contains("control plane: unprotected (Codex's Stop hook is not trusted in `"),
        "{after}"
    );
    assert!(
        squash(&after.stdout).contains("loopgate install --agent codex"),
        "{after}"
    );
}

#[test]
fn a_gemini_folder_the_user_did_not_trust_shows_in_status() {
    let p = project();
    p.loopgate(["install", "--agent", "gemini"]).run().success();
    // From Gemini's own hook the folder is trusted (Gemini runs no hook elsewhere): the loop starts.
    let (_, notice) = prompt(&p, "gemini", "s1", START);
    assert!(notice.contains("the loop is sealed"), "{notice}");
    let root = std::fs::canonicalize(p.root()).expect("root");
    let rules = json!({root.display().to_string(): "DO_NOT_TRUST"});
    std::fs::write(p.home().join(".gemini/trustedFolders.json"), rules.to_string()).expect("write");
    let after = p.loopgate(["status"]).run();
    assert!(
        squash(&after.stdout).contains("control plane: unprotected (Gemini CLI runs no hooks in `"),
        "{after}"
    );
    assert!(squash(&after.stdout).contains("/permissions"), "{after}");
}

#[test]
fn a_gemini_settings_file_without_loopgates_stop_hook_refuses_the_start() {
    let p = project();
    p.loopgate(["install", "--agent", "gemini"]).run().success();
    let path = p.home().join(".gemini/settings.json");
    let mut settings: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("settings")).expect("JSON");
    settings["hooks"].as_object_mut().expect("hooks").remove("AfterAgent");
    std::fs::write(&path, settings.to_string()).expect("write");
    let (_, notice) = prompt(&p, "gemini", "s1", START);
    assert!(
        notice.contains("Gemini CLI's AfterAgent hook is not loopgate's"),
        "{notice}"
    );
    assert!(!p.root().join(".claude/pua-loop.local.md").exists());
}

#[test]
fn a_loops_stop_says_an_untrusted_codex_pre_tool_hook() {
    let p = project();
    p.loopgate(["install", "--agent", "codex"]).run().success();
    let (_, notice) = prompt(&p, "codex", "s1", START);
    assert!(notice.contains("the loop is sealed"), "{notice}");
    let path = p.home().join(".codex/hooks.json");
    let mut hooks: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("hooks.json")).expect("JSON");
    hooks["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 5.into();
    std::fs::write(&path, hooks.to_string()).expect("write hooks.json");
    let input = json!({
        "hook_event_name": "Stop", "session_id": "s1", "turn_id": "t1", "cwd": p.root(),
        "stop_hook_active": false, "last_assistant_message": "working on it",
    });
    let out = p
        .loopgate(["hook", "--agent", "codex", "stop"])
        .stdin(input.to_string())
        .run();
    out.success();
    let wire: Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(wire["decision"], "block", "{wire}");
    let notice = wire["systemMessage"].as_str().unwrap_or_default();
    assert!(
        notice.starts_with("loopgate: control plane: unprotected (Codex's PreToolUse hook is not trusted in `"),
        "{notice}"
    );
}
