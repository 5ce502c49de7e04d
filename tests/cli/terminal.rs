//! Terminal commands: `status`, `history`, `verify`, `cancel`, `resume` — found from any subdirectory.

use std::fmt::Write as _;
use std::fs;

use crate::project::{HISTORY, Project, STATE, assert_has};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
const FAILING: &str = r#"test -f done.txt || { echo "FAIL: done.txt is missing"; exit 1; }"#;

/// `status` walks up from a subdirectory and shows the loop for people and for scripts.
#[test]
fn status_human_and_json_from_a_subdirectory() {
    let p = Project::new().file("src/deep/er/.keep", "");
    p.setup(
        "S",
        &format!("\"first line of the task\nsecond line\" --verify '{FAILING}' --max-iterations 4"),
    );
    p.stop("S", PROMISE).blocked();
    let loop_id = p.loop_id();

    let human = p.loopgate(["status"]).current_dir("src/deep/er").run();
    human.success().stderr_empty();
    for needle in [
        loop_id.as_str(),
        "running",
        "first line of the task …",
        "2 / 4",
        "rejections:  1",
        // 80 columns: the command folds under its column (`--json` has it whole, below).
        "verify:      test -f done.txt || {",
        "session:     S",
        "last verify: iteration 1 (promise): fail (exit 1",
    ] {
        human.stdout_contains(needle);
    }

    let json = p.loopgate(["status", "--json"]).current_dir("src/deep/er").run();
    json.success().stderr_empty();
    let status = json.stdout_json();
    assert_eq!(status["state"], "running");
    assert_eq!(status["loop_id"], loop_id.as_str());
    assert_eq!(status["task"], "first line of the task\nsecond line");
    assert_eq!(status["iteration"], 2);
    assert_eq!(status["max_iterations"], 4);
    assert_eq!(status["promise_rejections"], 1);
    assert_eq!(status["verify_command"], FAILING);
    assert_eq!(status["session_id"], "S");
    assert_eq!(status["last_verify"]["passed"], false);
    assert_eq!(status["last_verify"]["exit"], 1);
    assert!(status["elapsed_secs"].is_u64(), "{status}");
}

/// With no loop, `status` says so (exit 0) and shows how the last loop ended.
#[test]
fn status_without_a_loop() {
    let p = Project::new();
    let out = p.loopgate(["status"]).run();
    out.success().stdout_contains("no loop");
    assert_eq!(p.loopgate(["status", "--json"]).run().stdout_json()["state"], "none");

    p.setup("S", "task");
    p.stop("S", PROMISE).allowed();
    let status = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(status["state"], "none");
    assert_eq!(status["last_loop"]["outcome"], "complete");
    p.loopgate(["status"]).run().success().stdout_contains("complete");
}

/// `status` of a paused loop shows why it is paused.
#[test]
fn status_of_a_paused_loop() {
    let p = Project::new();
    p.setup("S", "task");
    p.stop("S", "<loop-pause>the VPN credentials</loop-pause>").allowed();
    let out = p.loopgate(["status"]).run();
    out.success()
        .stdout_contains("paused")
        .stdout_contains("the VPN credentials");
    let status = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(status["state"], "paused");
    assert_eq!(status["pause_reason"], "the VPN credentials");
}

/// `history --json` prints the records as stored; `--loop ID` keeps one loop; the human view is one line each.
#[test]
fn history_json_and_loop_filter() {
    let p = Project::new().file("src/.keep", "");
    p.setup("S", "first loop");
    let first = p.loop_id();
    p.stop("S", "no signal").blocked();
    p.stop("S", PROMISE).allowed();
    p.setup("S", "second loop --verify false");
    let second = p.loop_id();
    p.stop("S", PROMISE).blocked();

    let stored = p.history();
    let json = p.loopgate(["history", "--json"]).current_dir("src").run();
    json.success().stderr_empty();
    let printed: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(printed, stored, "--json prints the records as stored");

    let only = p.loopgate(["history", "--json", "--loop", &first]).run();
    let lines: Vec<&str> = only.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{only}");
    assert!(lines.iter().all(|l| l.contains(&first) && !l.contains(&second)));

    let human = p.loopgate(["history"]).run();
    human.success();
    let lines: Vec<&str> = human.stdout.lines().collect();
    assert_eq!(lines.len(), stored.len(), "{human}");
    for (line, record) in lines.iter().zip(&stored) {
        for field in ["timestamp", "loop_id", "status"] {
            let value = record[field].as_str().expect("string field");
            assert!(line.contains(value), "{line:?} lacks {field} {value:?}");
        }
    }
    assert!(human.stdout.contains("verify: false"), "{human}");
}

/// A long history piped into `head -1`: the first line arrives, nothing is printed on stderr.
#[test]
fn history_piped_into_head_is_quiet() {
    let p = Project::new();
    write_long_history(&p);
    let out = p
        .sh(r#"{ "$LOOPGATE" history; echo "$?" > ../io/loopgate-status; } | head -1"#)
        .run();
    out.success().stderr_empty();
    assert_eq!(out.stdout.lines().count(), 1, "{out}");
    assert!(out.stdout.contains("lg-pipe-test"), "{out}");
    let status = fs::read_to_string(p.outside("loopgate-status")).expect("status written");
    let status: i32 = status.trim().parse().expect("a number");
    assert!(status == 0 || status == 141, "exit status {status}");
}

/// Unix manners (`ARCHITECTURE.md`, "Code style", 3): a closed pipe ends `loopgate history` with exit 0, not death by SIGPIPE.
#[test]
fn history_into_a_closed_pipe_exits_0() {
    let p = Project::new();
    write_long_history(&p);
    p.sh(r#"{ "$LOOPGATE" history; echo "$?" > ../io/loopgate-status; } | head -1"#)
        .run()
        .success();
    let status = fs::read_to_string(p.outside("loopgate-status")).expect("status written");
    assert_eq!(status.trim(), "0");
}

/// 20 000 records (about 2 MB of human output, far more than a pipe buffer).
fn write_long_history(p: &Project) {
    let mut text = String::new();
    for i in 0..20_000 {
        let _ = writeln!(
            text,
            r#"{{"loop_id":"lg-pipe-test","iteration":{i},"status":"continue","timestamp":"2026-01-01T00:00:00Z"}}"#
        );
    }
    p.write(HISTORY, text);
}

/// `verify` runs the sealed oracle: exit 4 on failure, 0 on a pass; records `self_check`; never ends the loop.
#[test]
fn verify_is_a_self_check_that_never_ends_the_loop() {
    let p = Project::new().file("src/.keep", "");
    p.setup("S", &format!("task --verify '{FAILING}'"));

    let out = p.loopgate(["verify"]).current_dir("src").run();
    out.code(4)
        .stdout_contains("FAIL")
        .stdout_contains("done.txt is missing");
    let check = p.last_record("self_check");
    assert_eq!(check["passed"], false);
    assert_eq!(check["verify_exit"], 1);

    p.write("done.txt", "");
    let out = p.loopgate(["verify"]).run();
    out.success().stdout_contains("PASS");
    assert_eq!(p.last_record("self_check")["passed"], true);
    let json = p.loopgate(["verify", "--json"]).run();
    json.success();
    assert_eq!(json.json()["status"], "self_check");

    assert!(p.exists(STATE), "a passing self-check does not end the loop");
    assert_eq!(p.state_field("iteration"), "1");
    assert_eq!(p.statuses(), ["init", "self_check", "self_check", "self_check"]);
    // The loop still needs the promise.
    p.stop("S", "no signal").blocked();
    p.stop("S", PROMISE).allowed();
}

#[test]
fn verify_without_a_loop_exits_3() {
    let p = Project::new();
    let out = p.loopgate(["verify"]).run();
    out.code(3).stdout_empty();
    assert!(out.stderr_line().contains("no loop"), "{out}");
}

/// Reported (issue 42, item 6): `loopgate cancel` with no loop created `.claude/loopgate/lock`. Every command a
/// person may type where no loop runs leaves the project and the store as they were; those that act on a loop
/// say in one line why there is nothing to act on (exit 3), the reports exit 0 (`status` says "no loop",
/// `history` is empty).
#[test]
fn commands_with_no_loop_create_nothing() {
    let p = Project::new().file("README.md", "hello\n");
    let before = p.tree();
    let no_loop = Some("no loop");
    let no_git = Some("not in a git repository");
    for (args, code, says) in [
        (&["cancel"][..], 3, no_loop),
        (&["resume", "--session-id", "NEW"], 3, no_loop),
        (&["allow"], 3, no_loop),
        (&["allow", "--all"], 3, no_loop),
        (&["verify"], 3, no_loop),
        (&["checkpoints"], 3, no_git),
        (&["rollback", "1"], 3, no_git),
        (&["diff", "1", "2"], 3, no_git),
        (&["status"], 0, None),
        (&["status", "--json"], 0, None),
        (&["history"], 0, None),
    ] {
        let out = p.loopgate(args.iter().copied()).run();
        let command = args.join(" ");
        out.code(code);
        if let Some(says) = says {
            assert!(out.stderr_line().contains(says), "`loopgate {command}`: {out}");
        }
        assert_eq!(p.tree(), before, "`loopgate {command}` with no loop created files");
        assert!(
            !p.loopgate_home().exists(),
            "`loopgate {command}` with no loop created the seal store"
        );
    }
}

/// `cancel` ends the loop from anywhere in the project; with no loop it exits 3.
#[test]
fn cancel_ends_the_loop() {
    let p = Project::new().file("src/.keep", "");
    p.setup("S", "task --verify false");
    let loop_id = p.loop_id();
    let out = p.loopgate(["cancel"]).current_dir("src").run();
    out.success().stdout_contains(&loop_id);
    assert!(!p.exists(STATE), "state removed");
    assert!(p.seal_paths().is_empty(), "seal removed");
    let cancelled = p.last_record("cancelled");
    assert_eq!(cancelled["loop_id"], loop_id.as_str());
    assert_eq!(p.statuses(), ["init", "cancelled"]);
    p.stop("S", PROMISE).silent();

    let again = p.loopgate(["cancel"]).run();
    again.code(3).stdout_empty();
    assert!(again.stderr_line().contains("no loop"), "{again}");
}

/// `resume --session-id NEW` adopts a paused loop: the new session's stops are judged, the old one's are not.
#[test]
fn resume_adopts_a_paused_loop() {
    let p = Project::new();
    p.setup("S", "task --verify false");
    p.stop("S", "<loop-pause>a decision on the schema</loop-pause>")
        .allowed();

    let out = p.loopgate(["resume", "--session-id", "NEW"]).run();
    out.success().stdout_contains("NEW");
    let resumed = p.last_record("resumed");
    assert_eq!(resumed["session_id"], "NEW");
    assert_eq!(resumed["from_session"], "S");
    assert_eq!(p.state_field("status"), "running");
    assert_eq!(p.state_field("session_id"), "NEW");

    p.stop("S", PROMISE).silent();
    let block = p.stop("NEW", "back at it").blocked();
    assert_has(&block.reason, "iteration 2");
}

/// `resume` takes the session from `CLAUDE_CODE_SESSION_ID`; without any session, or any loop, it says so.
#[test]
fn resume_errors_and_the_session_variable() {
    let p = Project::new();
    let out = p.loopgate(["resume", "--session-id", "NEW"]).run();
    out.code(3);
    assert!(out.stderr_line().contains("no loop"), "{out}");

    p.setup("S", "task");
    p.stop("S", "<loop-pause>x</loop-pause>").allowed();
    let out = p.loopgate(["resume"]).run();
    out.code(2);
    assert!(out.stderr_line().contains("--session-id"), "{out}");

    // Inside Claude Code (the variable says so) the resume is the user's `/resume-loop` only: a request for that
    // session, carried out by the prompt hook (issue 33, item 5).
    p.loopgate(["resume"])
        .env("CLAUDE_CODE_SESSION_ID", "FROM-ENV")
        .run()
        .success()
        .stdout_contains("only your own /resume-loop");
    assert_eq!(p.state_field("session_id"), "S");
    let prompt = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "FROM-ENV", "cwd": p.root(), "prompt": "/loopgate:resume-loop"});
    p.hook("user-prompt-submit", &prompt).success();
    assert_eq!(p.state_field("session_id"), "FROM-ENV");
}

/// Issue 33, item 7: `status` at a glance — the baseline before the first verify, a verify running now, who ran
/// the last verify, a legend of the trajectory, 80 columns; `history --loop` with an unknown id exits 2.
#[test]
fn status_at_a_glance_fits_80_columns() {
    let p = Project::new();
    let long_task = "make the parser total ".repeat(8);
    p.setup(
        "S",
        &format!(
            "\"{long_task}\" --verify '{FAILING} # a long comment to make this verify command wider than any terminal'"
        ),
    );
    let narrow = |out: &crate::project::Output| {
        let wide: Vec<&str> = out.stdout.lines().filter(|l| l.chars().count() > 80).collect();
        assert!(wide.is_empty(), "lines wider than 80 columns: {wide:#?}\n{out}");
    };
    let before = p.loopgate(["status"]).run();
    before.success().stdout_contains("baseline:    fail (exit 1, ");
    narrow(&before);
    assert!(!before.stdout.contains("last verify:"), "{before}");

    p.stop("S", PROMISE).blocked();
    let promised = p.loopgate(["status"]).run();
    promised
        .success()
        .stdout_contains("last verify: iteration 1 (promise): fail")
        .stdout_contains("legend:      ✗ verify failed");
    assert!(!promised.stdout.contains("baseline:"), "{promised}");
    narrow(&promised);
    assert_eq!(
        p.loopgate(["status", "--json"]).run().stdout_json()["last_verify"]["kind"],
        "promise"
    );

    p.loopgate(["verify"]).run().code(4);
    p.loopgate(["status"])
        .run()
        .stdout_contains("last verify: iteration 2 (self-check): fail");

    // A verify holds the verify lock (shared) while it runs, with its marker written in the file.
    let lock = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(p.path(".claude/loopgate/verify.lock"))
        .expect("lock file");
    lock.lock_shared().expect("shared lock");
    fs::write(
        p.path(".claude/loopgate/verify.lock"),
        "pid 42 since now: `make check`\n",
    )
    .expect("marker");
    let running = p.loopgate(["status"]).run();
    running
        .success()
        .stdout_contains("verifying:   now (pid 42 since now: `make check`)");
    drop(lock);
    assert!(!p.loopgate(["status"]).run().stdout.contains("verifying:"));

    let unknown = p.loopgate(["history", "--loop", "nosuch"]).run();
    unknown.code(2);
    assert!(unknown.stderr_line().contains("no loop `nosuch`"), "{unknown}");
    p.loopgate(["history", "--loop", &p.loop_id()]).run().success();
}

/// Issue 33, item 9: the "start one with …" hint names the command that works as printed — the bare `/pua-loop`
/// once the user-level command is installed, else the plugin's `/loopgate:pua-loop`.
#[test]
fn no_loop_hint_names_the_slash_command_that_works() {
    let p = Project::new();
    let plugin = p.loopgate(["verify"]).run();
    plugin.code(3);
    assert!(
        plugin.stderr_line().contains("start one with /loopgate:pua-loop "),
        "{plugin}"
    );
    crate::common::write_file(&p.home().join(".claude/commands/pua-loop.md"), "---\n---\n");
    let bare = p.loopgate(["verify"]).run();
    bare.code(3);
    assert!(bare.stderr_line().contains("start one with /pua-loop "), "{bare}");
}

/// Issue 33, item 9: `loopgate verify` quotes a changed test by the line that changed (not its `def` line),
/// gives a person at a terminal no instructions meant for the agent (the agent's Bash tool still gets them),
/// and says which new test files sat out the run.
#[test]
fn verify_quotes_the_changed_line_speaks_to_a_person_and_names_tests_that_sat_out() {
    let original = "def test_a():\n    x = 1\n    assert x == 1\n";
    let p = Project::new().file("tests/test_a.py", original);
    p.setup("S", "task --verify 'true'");
    p.write("tests/test_a.py", "def test_a():\n    x = 1\n    assert True\n");

    let person = p.loopgate(["verify"]).run();
    person.code(4);
    person.stdout_contains("existing test `test_a` was changed: `assert True`");
    person.stdout_contains("tests/test_a.py:3:");
    person.stdout_contains("loopgate allow");
    assert!(
        !person.stdout.contains("<loop-pause>"),
        "agent's instructions shown to a person:\n{person}"
    );

    let agent = p.loopgate(["verify"]).env("CLAUDECODE", "1").run();
    agent.code(4);
    agent.stdout_contains("<loop-pause>");

    p.write("tests/test_a.py", original);
    p.write("tests/test_new.py", "def test_new():\n    pass\n");
    let sat_out = p.loopgate(["verify"]).run();
    sat_out.success();
    sat_out.stdout_contains("Not in this run: 1 new test file(s) sat out");
    sat_out.stdout_contains("tests/test_new.py");
}
