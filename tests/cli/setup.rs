//! `loopgate setup`: splitting the slash command's text without a shell, refusing another session's loop, the
//! briefing, and the seal.

use std::fs;

use crate::project::{HISTORY, Project, STATE, assert_has, mode_of};

/// Prose with apostrophes, backticks, `$(…)`, `---` lines and newlines is stored byte for byte and runs nothing.
#[test]
fn args_stdin_keeps_prose_verbatim_and_runs_nothing() {
    let p = Project::new();
    let task = "fix it's `parse()` and don't run $(touch pwned) or `touch pwned2`\n---\n\
                keep \"double\" and 'single' quotes, a \\backslash, $HOME and ${PATH}\n\n\
                --- the end ---";
    let text = format!("{task}\n--verify 'test -f ok' --max-iterations 3\n");
    let setup = p.setup("S", &text);
    assert_eq!(p.state_task(), task, "state file task");
    assert_eq!(p.seal()["task"], task, "sealed task");
    assert!(setup.stdout.contains(task), "briefing shows the task\n{setup}");
    assert_eq!(p.state_field("verify_command"), "test -f ok");
    assert_eq!(p.state_field("max_iterations"), "3");
    // Through a stop, a status and a verify: still nothing executed.
    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, task);
    let status = p.loopgate(["status", "--json"]).run();
    status.success();
    assert_eq!(status.stdout_json()["task"], task);
    p.loopgate(["verify"]).run().code(4);
    for name in ["pwned", "pwned2"] {
        assert!(!p.exists(name), "`{name}` was created: something ran the task text");
        assert!(!p.root().join("..").join(name).exists());
    }
}

/// A task given as one quoted string loses its quotes; every flag is read with its value.
#[test]
fn args_stdin_quoted_task_and_every_flag() {
    let p = Project::new();
    p.setup(
        "S",
        "\"make it pass\" --verify 'cargo test -- --nocapture' --max-iterations 5 \
         --completion-promise \"ALL   GREEN\" --verify-timeout 30 --seal 'tests/**' --seal=*.snap \
         --verify-on always --max-duration 1h30m --lang zh",
    );
    assert_eq!(p.state_task(), "make it pass");
    let seal = p.seal();
    let f = &seal["fields"];
    assert_eq!(f["verify_command"], "cargo test -- --nocapture");
    assert_eq!(f["max_iterations"], 5);
    assert_eq!(f["completion_promise"], "ALL GREEN");
    assert_eq!(f["verify_timeout"], 30);
    assert_eq!(f["sealed"], serde_json::json!(["tests/**", "*.snap"]));
    assert_eq!(f["verify_on"], "always");
    assert_eq!(f["max_duration"], 5400);
    assert_eq!(f["lang"], "zh");
    assert_eq!(f["session_id"], "S");
}

/// A word starting with an apostrophe (`'90s`) must not swallow the flags after it: losing `--verify` would
/// silently put the loop on the honor system.
#[test]
fn args_stdin_leading_apostrophe_does_not_swallow_flags() {
    let p = Project::new();
    p.setup("S", "support '90s dates --verify 'cargo test'");
    assert_eq!(p.state_field("verify_command"), "cargo test");
    assert_eq!(p.state_task(), "support '90s dates");
}

/// Another session's loop is refused with exit 5 and a clear message; `--force` replaces it.
#[test]
fn second_setup_from_another_session_needs_force() {
    let p = Project::new();
    p.setup("S", "first task --verify 'true'");
    let first = p.loop_id();
    let (state, history) = (p.state_text(), p.history_bytes());

    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "T"])
        .stdin("second task")
        .run();
    out.code(5).stdout_empty();
    let line = out.stderr_line();
    for needle in [first.as_str(), "`S`", "--force", "loopgate cancel"] {
        assert!(line.contains(needle), "{line:?} lacks {needle:?}");
    }
    assert_eq!(p.state_text(), state, "refused setup changed the state");
    assert_eq!(p.history_bytes(), history, "refused setup wrote history");

    p.loopgate(["setup", "--args-stdin", "--session-id", "T", "--force"])
        .stdin("second task")
        .run()
        .success();
    assert_ne!(p.loop_id(), first);
    assert_eq!(p.state_task(), "second task");
    assert_eq!(p.seal()["fields"]["session_id"], "T");
    assert_eq!(p.statuses(), ["init", "cancelled", "init"]);
    let history = p.history();
    assert_eq!(history[1]["loop_id"], first.as_str());
    assert_eq!(history[1]["reason"], "replaced by a new loop");
    // The old session's stops are now the fast path; the new session's are judged.
    p.stop("S", "hi").silent();
    p.stop("T", "hi").blocked();
}

/// `--force` also works inside the slash command's text.
#[test]
fn force_inside_the_text() {
    let p = Project::new();
    p.setup("S", "first task");
    p.setup("T", "second task --force");
    assert_eq!(p.state_task(), "second task");
}

/// Bad flags exit 2 with one line naming the flag, and create no loop.
#[test]
fn bad_flags_exit_2_naming_the_flag() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["setup", "--bogus", "task"], "", "--bogus"),
        (&["setup", "--max-iterations", "many", "task"], "", "--max-iterations"),
        (&["setup", "--verify-on", "sometimes", "task"], "", "--verify-on"),
        (&["setup", "--args-stdin"], "task --verfy 'true'", "--verfy"),
        // Issue 33, item 10: an unknown flag far from any known one is an error too, not task text.
        (
            &["setup", "--args-stdin"],
            "\"Fix add\" --verify true --budget 5",
            "--budget",
        ),
        (
            &["setup", "--args-stdin"],
            "task --max-iterations abc",
            "--max-iterations",
        ),
        (
            &["setup", "--args-stdin"],
            "task --verify-timeout 0",
            "--verify-timeout",
        ),
        (
            &["setup", "--args-stdin"],
            "task --verify-timeout 99999",
            "--verify-timeout",
        ),
        (&["setup", "--args-stdin"], "task --max-duration 5x", "--max-duration"),
        (
            &["setup", "--args-stdin"],
            "task --max-duration 5 years",
            "`--max-duration 5 years`",
        ),
        (&["setup", "--args-stdin"], "task --verify-on always", "--verify-on"),
        (&["setup", "--args-stdin"], "task --lang fr", "--lang"),
        (&["setup", "--args-stdin"], "task --verify", "--verify"),
        (
            &["setup", "--args-stdin"],
            "task --completion-promise '  '",
            "--completion-promise",
        ),
        (
            &["setup", "--args-stdin"],
            "task --seal 'tests/[unclosed'",
            "`tests/[unclosed`",
        ),
        (&["setup", "--args-stdin"], "   ", "task"),
        // An empty verify command (an unset `$TEST_CMD`) is an error, not a loop without an oracle.
        (&["setup", "--verify", "", "task"], "", "`--verify` is empty"),
        (&["setup", "--args-stdin"], "task --verify ''", "`--verify` is empty"),
        (
            &["setup", "--args-stdin"],
            "task --verify \"  \"",
            "`--verify` is empty",
        ),
        // A project directory that does not exist is not created.
        (
            &["--project-dir", "/nonexistent/loopgate-project", "setup", "task"],
            "",
            "--project-dir",
        ),
        (&["setup", "--args-stdin", "words"], "task", "--args-stdin"),
    ];
    for (args, stdin, flag) in cases {
        let p = Project::new();
        let out = p.loopgate(*args).stdin(*stdin).run();
        out.code(2).stdout_empty();
        let first = out.stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains(flag),
            "{args:?} with {stdin:?}: the first stderr line should name {flag:?}\n{out}"
        );
        assert!(!p.exists(STATE) && !p.exists(HISTORY), "{args:?}: a loop was created");
        assert!(p.seal_paths().is_empty(), "{args:?}: a seal was written");
    }
    assert!(
        !std::path::Path::new("/nonexistent").exists(),
        "`--project-dir` created its directory"
    );
}

/// Reported (issue 42, item 6): `--max-iterations -1` got "unexpected argument '-1' found", which names no flag
/// (clap took `-1` for a flag of its own). A negative or fractional number given to any numeric flag is one line
/// naming the flag and the value, on the command line and in the slash command's text alike, and starts nothing.
#[test]
fn a_negative_number_names_the_flag_and_the_value() {
    let cases: &[(&str, &str)] = &[
        ("--max-iterations", "-1"),
        ("--max-iterations", "1.5"),
        ("--verify-timeout", "-5"),
        ("--max-duration", "-1"),
        ("--max-duration", "-5m"),
        ("--max-tokens", "-3"),
        ("--max-cost", "-3"),
        ("--max-cost", "abc"),
        ("--max-cost", "0"),
        ("--max-cost", "inf"),
        ("--stall-limit", "-2"),
        ("--candidates", "-2"),
    ];
    for (flag, value) in cases {
        let p = Project::new();
        for (args, stdin) in [
            (vec!["setup", flag, value, "task"], String::new()),
            (vec!["setup", "--args-stdin"], format!("task {flag} {value}")),
            (vec!["setup", "--args-stdin"], format!("task {flag}={value}")),
        ] {
            let out = p.loopgate(&args).stdin(stdin.as_str()).run();
            out.code(2).stdout_empty();
            let first = out.stderr.lines().next().unwrap_or_default();
            assert!(
                first.contains(flag) && first.contains(value),
                "{args:?} with {stdin:?}: the first stderr line should name {flag} and {value}\n{out}"
            );
            assert!(!p.exists(STATE) && !p.exists(HISTORY), "{args:?}: a loop was created");
            assert!(p.seal_paths().is_empty(), "{args:?}: a seal was written");
        }
    }
    // `loopgate run`'s own numeric flags.
    for (flag, value) in [("--max-cost", "-1"), ("--jobs", "-1"), ("--agent-timeout", "-5m")] {
        let p = Project::new();
        let args = [
            "run",
            "--candidates",
            "2",
            flag,
            value,
            "--verify",
            "true",
            "task",
            "--",
            "true",
        ];
        let out = p.loopgate(args).run();
        out.code(2);
        let first = out.stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains(flag) && first.contains(value),
            "{args:?}: the first stderr line should name {flag} and {value}\n{out}"
        );
        assert!(!p.exists(STATE), "{args:?}: a loop was created");
    }
}

/// The briefing is what the agent reads first: the task, the oracle, how to finish, pause and abort, the history.
#[test]
fn briefing_tells_the_agent_everything() {
    let p = Project::new();
    let out = p.setup(
        "S",
        "\"port the parser to nom\" --verify 'cargo test -p parser' --completion-promise 'PARSER PORTED' --max-iterations 12 --seal 'tests/**'",
    );
    for needle in [
        "port the parser to nom",
        "cargo test -p parser",
        "<promise>PARSER PORTED</promise>",
        "<loop-pause>",
        "<loop-abort>",
        ".claude/pua-loop-history.jsonl",
        "loopgate verify",
        "12",
        "tests/**",
    ] {
        out.stdout_contains(needle);
    }
    out.stderr_empty();
}

/// The seal: 0600 in a 0700 directory under `LOOPGATE_HOME`, holding the oracle itself. It is found from the
/// project alone, so deleting or forging the state file changes nothing about which command judges.
#[test]
fn seal_is_private_and_independent_of_the_state_file() {
    let p = Project::new();
    p.setup("S", "task --verify 'echo sealed-oracle; exit 1' --verify-timeout 77");
    let seal_path = p.seal_path();
    assert!(seal_path.starts_with(p.loopgate_home()), "{}", seal_path.display());
    assert!(!seal_path.starts_with(p.root()), "the seal is outside the project");
    assert_eq!(mode_of(&seal_path), 0o600, "seal file mode");
    assert_eq!(mode_of(seal_path.parent().expect("seal dir")), 0o700, "seal dir mode");
    let seal = p.seal();
    assert_eq!(seal["fields"]["verify_command"], "echo sealed-oracle; exit 1");
    assert_eq!(seal["fields"]["verify_timeout"], 77);
    let name = seal_path.file_name().expect("name").to_string_lossy().into_owned();
    let loop_id = p.loop_id();
    assert!(
        !name.contains(&loop_id),
        "the seal's name must not come from the state file: {name}"
    );

    // Forge a whole different state file: another loop id, a passing verify command.
    let forged = p
        .state_text()
        .expect("state")
        .replace(&loop_id, "lg-forged")
        .replace("echo sealed-oracle; exit 1", "true")
        .replace("verify_timeout: 77", "verify_timeout: 1");
    p.write(STATE, &forged);
    let verify = p.loopgate(["verify"]).run();
    verify.code(4).stdout_contains("sealed-oracle");
    fs::remove_file(p.path(STATE)).expect("delete state");
    p.loopgate(["verify"]).run().code(4).stdout_contains("sealed-oracle");
    p.write(STATE, &forged);
    let block = p.stop("S", "<promise>LOOP_DONE</promise>").blocked();
    assert_has(&block.reason, "sealed-oracle");
    assert_eq!(p.loop_id(), loop_id, "the forged file was replaced from the seal");
}

/// A verify command that cannot start is refused at setup with the shell's own line (issue 33, item 4); one that
/// starts and fails still starts a loop.
#[test]
fn setup_refuses_a_verify_command_that_cannot_start() {
    let p = Project::new().file("check.sh", "echo hi\n");
    for (verify, said) in [
        ("nosuch-cmd-xyz --all", "nosuch-cmd-xyz: not found"),
        ("./check.sh", "Permission denied"),
    ] {
        let out = p
            .loopgate(["setup", "--args-stdin", "--session-id", "S"])
            .stdin(format!("task --verify '{verify}'"))
            .run();
        out.code(2);
        let line = out.stderr_line();
        assert!(
            line.contains("cannot start") && line.contains(said) && line.contains("--verify"),
            "{out}"
        );
        assert!(!p.exists(".claude/pua-loop.local.md"), "no loop starts: {out}");
    }
    p.setup("S", "task --verify 'echo failing; exit 1'");
}

/// Setup makes `.claude/loopgate/` ignore itself (issue 33, item 8): its logs and stash never show in
/// `git status`; the user's own `.gitignore` is not touched.
#[test]
fn setup_keeps_the_work_directory_out_of_git_status() {
    let p = Project::new().file(".gitignore", "target/\n");
    p.sh("git init -q").run().success();
    let out = p.setup("S", "task --verify 'echo ok'");
    assert!(!out.stdout.contains("gitignore"), "said nothing about it: {out}");
    assert_eq!(p.read(".claude/loopgate/.gitignore"), "*\n");
    assert_eq!(p.read(".gitignore"), "target/\n", "the user's .gitignore is untouched");
    let status = p.sh("git status --porcelain --untracked-files=all").run();
    status.success();
    assert!(
        p.exists(&format!(".claude/loopgate/verify-{}-0.log", p.loop_id())),
        "the baseline's log is there"
    );
    assert!(!status.stdout.contains(".claude/loopgate/"), "{}", status.stdout);
}
