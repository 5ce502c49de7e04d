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
    // Flags as words (what an agent types): refused outright, by every route.
    for (route, script) in routes("setup --force --verify true fix") {
        let out = p.sh(&script).env("CLAUDECODE", "1").run();
        assert!(out.stdout.contains(&format!("ROUTE:{route}:10")), "{route}: {out}");
    }
    // The slash command's form: left as a request, which nothing but the user's prompt carries out.
    let deferred = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("CLAUDECODE", "1")
        .stdin("fix it --verify true")
        .run();
    deferred
        .success()
        .stdout_contains("only your own prompt may replace it");
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
