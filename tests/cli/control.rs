//! The control plane from the command line: `allow` and a setup that would replace the loop, run from anything
//! Claude Code started — a script, an interpreter, an assembled name, a background job, a double fork — are
//! refused (exit 10) and change nothing; the user's own `/pua-loop`, carried out by the UserPromptSubmit hook,
//! replaces the loop. The same routes under Claude Code's real sandbox are in `tests/e2e/control.rs`.

use serde_json::json;

use crate::project::Project;

/// The routes, as shell text run with `sh -c` (`$LOOPGATE` is the binary); each prints `ROUTE:<name>:<exit>`.
fn routes(args: &str) -> Vec<(&'static str, String)> {
    let run = format!("\"$LOOPGATE\" {args}");
    vec![
        (
            "script",
            format!("printf '%s\\n' '{run}' > r.sh; sh r.sh; echo ROUTE:script:$?"),
        ),
        (
            "interpreter",
            format!(
                "python3 -c 'import subprocess,sys; sys.exit(subprocess.call(sys.argv[1], shell=True))' '{run}'; echo ROUTE:interpreter:$?"
            ),
        ),
        (
            "assembled",
            format!("\"$(dirname \"$LOOPGATE\")/$(printf 'loop%s' gate)\" {args}; echo ROUTE:assembled:$?"),
        ),
        (
            "background",
            format!("({run}; echo ROUTE:background:$? > bg.out) & wait; cat bg.out"),
        ),
        (
            "doublefork",
            format!("(setsid sh -c '{run}; echo ROUTE:doublefork:$? > df.out' &); sleep 1; cat df.out"),
        ),
    ]
}

fn project_with_loop() -> Project {
    let p = Project::new();
    p.write("check.sh", "exit 1\n").write("tests/t.txt", "sealed\n");
    p.setup("S", "fix it --verify 'sh check.sh' --seal 'tests/**'");
    p
}

#[test]
fn allow_from_anything_claude_code_started_is_refused_and_accepts_nothing() {
    let p = project_with_loop();
    p.write("tests/t.txt", "weakened\n");
    let seal = p.seal();
    for (route, script) in routes("allow --all") {
        let out = p
            .sh(&script)
            .env("CLAUDECODE", "1")
            .env("CLAUDE_CODE_SESSION_ID", "S")
            .run();
        assert!(out.stdout.contains(&format!("ROUTE:{route}:10")), "{route}: {out}");
        assert!(
            out.stderr.contains("loopgate: refused to accept changes to the oracle's inputs from inside Claude Code (`CLAUDE_CODE_SESSION_ID` is set"),
            "{route}: {out}"
        );
    }
    assert_eq!(p.seal(), seal, "nothing was accepted");
    assert!(p.history().iter().all(|r| r["status"] != "allowed"));
    // Listing changes nothing and stays allowed; outside Claude Code the user accepts.
    p.loopgate(["allow"]).env("CLAUDECODE", "1").run().success();
    p.loopgate(["allow", "--all"]).run().success();
}

#[test]
fn setup_from_inside_claude_code_never_replaces_a_running_loop_itself() {
    let p = project_with_loop();
    let loop_id = p.seal()["fields"]["loop_id"].clone();
    // Flags as words (what an agent types), or a `loopgate run` taking the loop over: refused outright, by
    // every route.
    for args in [
        "setup --force --verify true fix",
        "run --force --verify true fix -- true",
    ] {
        for (route, script) in routes(args) {
            let out = p.sh(&script).env("CLAUDECODE", "1").run();
            assert!(
                out.stdout.contains(&format!("ROUTE:{route}:10")),
                "{args}: {route}: {out}"
            );
        }
    }
    // The slash command's form: left as a request, which nothing but the user's prompt carries out.
    let deferred = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("CLAUDECODE", "1")
        .stdin("fix it --verify true")
        .run();
    deferred
        .success()
        .stdout_contains("only your own prompt starts or replaces a loop");
    assert_eq!(p.seal()["fields"]["loop_id"], loop_id, "the loop was not replaced");
    let prompt =
        |text: &str| json!({"hook_event_name": "UserPromptSubmit", "session_id": "S", "cwd": p.root(), "prompt": text});
    // Another prompt, or the same command with other text, carries out nothing (and uses the request up).
    assert_eq!(p.hook("user-prompt-submit", &prompt("continue")).stdout.trim(), "");
    assert_eq!(
        p.hook("user-prompt-submit", &prompt("/pua-loop fix it --verify 'true'"))
            .stdout
            .trim(),
        ""
    );
    assert_eq!(p.seal()["fields"]["loop_id"], loop_id);
    // The user's own /pua-loop with that text replaces the loop, and the model gets the briefing.
    p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("CLAUDECODE", "1")
        .stdin("fix it --verify true")
        .run()
        .success();
    let out = p.hook("user-prompt-submit", &prompt("/loopgate:pua-loop fix it --verify true"));
    let output: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("hook JSON");
    let context = output["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert!(context.contains("`true`"), "{out}");
    assert_ne!(
        p.seal()["fields"]["loop_id"],
        loop_id,
        "the user's prompt replaced the loop"
    );
    assert_eq!(p.seal()["fields"]["verify_command"], "true");
}

/// Claude Code 2.1.330 runs the UserPromptSubmit hook before the command's block: the hook leaves a ticket in
/// the store, the block (here inside the sandbox, as `SANDBOX_RUNTIME=1` says) leaves the request, and the
/// guard carries it out before the agent's first tool call — the tool call itself still judged by the guard.
#[test]
fn when_the_prompt_hook_runs_first_the_guard_seals_the_confirmed_loop_before_the_first_tool_call() {
    let p = Project::new();
    p.write("check.sh", "exit 1\n");
    let text = "fix it --verify 'sh check.sh'";
    let prompt = json!({"hook_event_name": "UserPromptSubmit", "session_id": "S", "cwd": p.root(),
        "prompt": format!("/pua-loop {text}")});
    assert_eq!(
        p.hook("user-prompt-submit", &prompt).stdout.trim(),
        "",
        "nothing to carry out yet"
    );
    let block = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("CLAUDECODE", "1")
        .env("SANDBOX_RUNTIME", "1")
        .stdin(format!("{text}\n"))
        .run();
    block
        .success()
        .stdout_contains("PreToolUse hook seals this loop before the agent's first tool call");
    assert!(
        !p.exists(".claude/pua-loop.local.md"),
        "the block sealed nothing itself"
    );
    // Another session's tool call carries out nothing.
    let tool = |session: &str| {
        json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": p.root(), "tool_name": "Bash",
            "tool_input": {"command": "ls"}})
    };
    assert_eq!(p.hook("pre-tool-use", &tool("OTHER")).stdout.trim(), "");
    let out = p.hook("pre-tool-use", &tool("S"));
    let output: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("hook JSON");
    assert_eq!(output["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert!(
        output["hookSpecificOutput"]["permissionDecision"].is_null(),
        "the tool call is not denied: {out}"
    );
    let context = output["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert!(context.contains("`sh check.sh`"), "the briefing: {out}");
    assert_eq!(p.seal()["fields"]["session_id"], "S");
    // Carried out once: the next tool call is an ordinary one (its Bash command only rewritten to run confined).
    let next = p.hook("pre-tool-use", &tool("S"));
    assert!(!next.stdout.contains("additionalContext"), "{next}");
    assert_eq!(p.history().iter().filter(|r| r["status"] == "init").count(), 1);
}

/// An agent inside the sandbox writing a request and no ticket (no prompt of the user's): nothing happens at
/// its tool calls or stops.
#[test]
fn a_request_without_the_users_prompt_is_never_carried_out() {
    let p = Project::new();
    p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("CLAUDECODE", "1")
        .env("SANDBOX_RUNTIME", "1")
        .stdin("fix it --verify true")
        .run()
        .success();
    let tool = json!({"hook_event_name": "PreToolUse", "session_id": "S", "cwd": p.root(), "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    assert_eq!(p.hook("pre-tool-use", &tool).stdout.trim(), "");
    let stop = json!({"hook_event_name": "Stop", "session_id": "S", "cwd": p.root(), "last_assistant_message": "done"});
    assert_eq!(p.hook("stop", &stop).stdout.trim(), "");
    assert!(!p.exists(".claude/pua-loop.local.md"));
    assert!(p.history().is_empty());
}

/// Issue 33, item 5: a loop paused in a session resumes in that same session by the user's own `/resume-loop`
/// (the agent's `loopgate resume` leaves only a request nothing carries out); `resume` from a terminal refuses
/// to take a loop another session is running, unless `--force`.
#[test]
fn resume_loop_resumes_a_paused_loop_in_the_same_session_by_the_users_prompt_only() {
    let p = project_with_loop();
    p.stop("S", "<loop-pause>which database?</loop-pause>").allowed();
    assert_eq!(p.state_field("status"), "paused");
    let prompt =
        |text: &str| json!({"hook_event_name": "UserPromptSubmit", "session_id": "S", "cwd": p.root(), "prompt": text});
    // The slash command's block (inside Claude Code): a request only.
    let block = p
        .loopgate(["resume"])
        .env("CLAUDECODE", "1")
        .env("CLAUDE_CODE_SESSION_ID", "S")
        .run();
    block
        .success()
        .stdout_contains("only your own /resume-loop resumes the loop");
    assert_eq!(p.state_field("status"), "paused", "nothing resumed by the block itself");
    // Another prompt carries out nothing (and uses the request up).
    assert_eq!(p.hook("user-prompt-submit", &prompt("go on")).stdout.trim(), "");
    assert_eq!(p.state_field("status"), "paused");
    // The user's own /resume-loop does.
    p.loopgate(["resume"])
        .env("CLAUDECODE", "1")
        .env("CLAUDE_CODE_SESSION_ID", "S")
        .run()
        .success();
    let out = p.hook("user-prompt-submit", &prompt("/resume-loop"));
    assert!(out.stdout.contains("now runs in session `S`"), "{out}");
    assert_eq!(p.state_field("status"), "running");
    assert_eq!(p.last_record("resumed")["session_id"], "S");
    p.stop("S", "back at it").blocked();

    // From a terminal: a loop another session runs is not taken without `--force`.
    let refused = p.loopgate(["resume", "--session-id", "OTHER"]).run();
    refused.code(2);
    assert!(
        refused.stderr_line().contains("is running in session `S`") && refused.stderr_line().contains("--force"),
        "{refused}"
    );
    assert_eq!(p.state_field("session_id"), "S");
    p.loopgate(["resume", "--session-id", "OTHER", "--force"])
        .run()
        .success()
        .stdout_contains("now runs in session `OTHER`");
}
