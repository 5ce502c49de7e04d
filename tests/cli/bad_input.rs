//! Bad input (issue 2, item 6): each gives one clear line naming the file or input and the problem, never a
//! panic, never lost history. Hooks fail open (exit 0, the stop is allowed, the user is told in
//! `systemMessage`); they fail closed only where the oracle was tampered with (see `tampering`).

use std::fs;
use std::time::Duration;

use serde_json::json;

use crate::common::alive;
use crate::full_loop::log_path_in;
use crate::project::{HISTORY, Project, STATE, assert_has, eventually, set_mode};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
/// How long the verify-runner tests give a hook before the harness kills it (their commands sleep longer).
const RUNNER_DEADLINE: Duration = Duration::from_secs(30);

/// A project with a running loop for session `S`, whose oracle fails.
fn running_loop() -> Project {
    let p = Project::new();
    p.setup("S", "task --verify 'false'");
    p
}

/// Sends `stdin` to the Stop hook of a running loop and checks the fail-open contract; returns the stderr line.
#[track_caller]
fn fails_open(p: &Project, stdin: Vec<u8>, problem: &str) -> String {
    let (state, history) = (p.state_text(), p.history_bytes());
    let out = p.loopgate(["hook", "stop"]).stdin(stdin).run();
    let message = out.allowed();
    let line = out.stderr_line().to_string();
    assert!(line.contains(problem), "stderr should name {problem:?}\n{out}");
    assert!(
        message.contains(problem),
        "systemMessage should name {problem:?}\n{out}"
    );
    assert_eq!(p.history_bytes(), history, "history changed");
    assert_eq!(p.state_text(), state, "state changed");
    line
}

#[test]
fn hook_input_empty() {
    let p = running_loop();
    fails_open(&p, Vec::new(), "empty");
    fails_open(&p, b" \n\t\n".to_vec(), "empty");
}

#[test]
fn hook_input_not_json() {
    let p = running_loop();
    fails_open(&p, b"this is not json".to_vec(), "not valid hook JSON");
    fails_open(&p, b"[1, 2, 3]".to_vec(), "not valid hook JSON");
    fails_open(&p, b"{\"session_id\": \"S\",".to_vec(), "not valid hook JSON");
    fails_open(&p, b"\xff\xfe\x00garbage".to_vec(), "not valid hook JSON");
}

/// A field of the wrong type is bad input like any other.
#[test]
fn hook_input_wrong_field_types() {
    let p = running_loop();
    let input = json!({"session_id": 5, "hook_event_name": "Stop", "cwd": p.root()});
    fails_open(&p, input.to_string().into_bytes(), "must be a string");
    let input = json!({"session_id": "S", "last_assistant_message": ["a", "list"]});
    fails_open(&p, input.to_string().into_bytes(), "must be a string");
}

/// The line names the field that has the wrong type, as `src/hook/input.rs` promises ("every problem becomes
/// one line naming the input and the field").
#[test]
fn hook_input_wrong_field_type_names_the_field() {
    let p = running_loop();
    let input = json!({"session_id": 5, "hook_event_name": "Stop", "cwd": p.root()});
    fails_open(&p, input.to_string().into_bytes(), "session_id");
}

/// A Stop event without `session_id` while a loop runs: the hook cannot tell whose stop it is; it must say so,
/// not silently skip the loop (which would let the agent out with no word to anyone).
#[test]
fn hook_input_missing_session_id() {
    let p = running_loop();
    let input = json!({
        "hook_event_name": "Stop",
        "cwd": p.root(),
        "last_assistant_message": PROMISE,
    });
    fails_open(&p, input.to_string().into_bytes(), "session_id");
}

/// Missing optional fields (`cwd`, `transcript_path`, `last_assistant_message`) are fine: the project is the
/// current directory and no message means no signal.
#[test]
fn hook_input_with_only_session_id_still_works() {
    let p = running_loop();
    let out = p
        .loopgate(["hook", "stop"])
        .stdin(json!({"session_id": "S"}).to_string())
        .run();
    let block = out.blocked();
    assert_has(&block.reason, "iteration 2");
    out.stderr_empty();
}

#[test]
fn hook_input_over_10_mib() {
    let p = running_loop();
    let mut input = p.stop_input("S", PROMISE);
    input["padding"] = json!("x".repeat(10 * 1024 * 1024));
    fails_open(&p, input.to_string().into_bytes(), "larger than 10 MiB");
}

#[test]
fn hook_input_for_another_event() {
    let p = running_loop();
    let input = json!({
        "session_id": "S",
        "cwd": p.root(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    });
    let line = fails_open(&p, input.to_string().into_bytes(), "PreToolUse");
    assert!(line.contains("Stop"), "{line}");
}

/// Wrong types in the state file: kept aside, restored from the seal, the loop goes on.
#[test]
fn state_file_with_wrong_types() {
    let p = running_loop();
    p.edit_state(|text| {
        text.replace("iteration: 1\n", "iteration: three\n")
            .replace("max_iterations: 0\n", "max_iterations: [1, 2]\n")
    });
    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "iteration");
    assert_has(&block.reason, "kept at");
    assert_eq!(p.state_field("iteration"), "2", "restored and advanced");
    assert!(
        fs::read_dir(p.path(".claude"))
            .expect("ls")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains(".corrupt-")),
        "the bad file was kept aside"
    );
}

/// Missing fields: a required one (`loop_id`) makes the file unreadable; a missing oracle field
/// (`verify_command`) is a difference from the seal. Both are restored from the seal.
#[test]
fn state_file_with_missing_fields() {
    let p = running_loop();
    let loop_id = p.loop_id();
    p.edit_state(|text| {
        text.lines()
            .filter(|l| !l.starts_with("loop_id:"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "loop_id");
    assert_eq!(p.loop_id(), loop_id);

    p.edit_state(|text| {
        text.lines()
            .filter(|l| !l.starts_with("verify_command:"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "verify_command");
    assert_has(&block.reason, "PROMISE REJECTED");
    assert_eq!(p.state_field("verify_command"), "'false'");
}

/// A task made of `---` lines and other frontmatter look-alikes round-trips and is never taken for tampering.
#[test]
fn state_file_task_with_dash_lines() {
    let p = Project::new();
    let task = "first part\n---\nactive: false\nverify_command: true\n---\n\n--- last ---";
    p.setup("S", &format!("{task}\n--verify 'false'"));
    assert_eq!(p.state_task(), task);
    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, &format!("\n{task}\n"));
    assert!(!block.reason.contains("TAMPERING"), "{}", block.reason);
    p.stop("S", PROMISE).blocked();
    assert_eq!(p.state_task(), task);
    assert_eq!(p.statuses(), ["init", "continue", "promise_rejected"]);
}

/// A state file converted to CRLF (an editor, `git config core.autocrlf`) differs from the seal: the seal wins,
/// the file is rewritten from it, and nothing of the loop is lost.
#[test]
fn state_file_with_crlf_line_ends() {
    let p = Project::new();
    let task = "line one\nline two";
    p.setup("S", &format!("{task}\n--verify 'false' --max-iterations 7"));
    let original = p.state_text().expect("state");
    p.edit_state(|text| text.replace('\n', "\r\n"));

    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "iteration 2/7");
    assert_has(&block.reason, &format!("\n{task}\n"));
    let restored = p.state_text().expect("state");
    assert!(!restored.contains('\r'), "rewritten from the seal: {restored:?}");
    assert_eq!(p.state_task(), task);
    for key in [
        "loop_id",
        "session_id",
        "verify_command",
        "max_iterations",
        "started_at",
    ] {
        let line = original
            .lines()
            .find(|l| l.starts_with(&format!("{key}:")))
            .expect("field");
        assert!(restored.lines().any(|l| l == line), "{key} lost: {restored}");
    }
    assert_eq!(p.state_field("iteration"), "2");
    // Line endings alone are not tampering: an editor or git may convert them.
    assert!(
        p.history().iter().all(|r| r["status"] != "tamper_detected"),
        "{:?}",
        p.history()
    );
}

/// A `.claude/` the hook cannot write: one line naming the file, the stop is allowed, and once the directory is
/// writable again the loop continues where it was.
#[test]
fn read_only_claude_dir() {
    let Some(p) = Project::new().unprivileged() else {
        eprintln!(
            "SKIPPED read_only_claude_dir: running as root without a usable `setpriv`, so file modes cannot be \
             enforced; `history_that_cannot_be_written` covers the write failure instead"
        );
        return;
    };
    p.setup("S", "task --verify 'false' --max-iterations 9");
    let history = p.history_bytes();
    let claude = p.path(".claude");
    let lock_dir = p.path(".claude/loopgate");
    for file in [STATE, HISTORY] {
        set_mode(&p.path(file), 0o444);
    }
    set_mode(&lock_dir, 0o555);
    set_mode(&claude, 0o555);
    for message in ["no signal", PROMISE] {
        let out = p.stop("S", message);
        let system = out.allowed();
        let line = out.stderr_line();
        assert!(line.contains(".claude/"), "names the file\n{out}");
        assert!(system.contains("not enforced"), "{system}");
    }
    assert_eq!(p.history_bytes(), history);

    set_mode(&claude, 0o755);
    set_mode(&lock_dir, 0o755);
    for file in [STATE, HISTORY] {
        set_mode(&p.path(file), 0o644);
    }
    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "iteration 2/9");
    assert!(p.history_bytes().starts_with(&history));
}

/// The history cannot be written (here: a directory stands where the file should be — this fails even as
/// root): the hook fails open with one line naming the history, and the loop is not advanced.
#[test]
fn history_that_cannot_be_written() {
    let p = running_loop();
    fs::remove_file(p.path(HISTORY)).expect("remove history");
    fs::create_dir(p.path(HISTORY)).expect("history as a directory");
    let out = p.stop("S", "no signal");
    let system = out.allowed();
    let line = out.stderr_line();
    assert!(line.contains("pua-loop-history.jsonl"), "{out}");
    assert!(system.contains("pua-loop-history.jsonl"), "{system}");
    assert_eq!(p.state_field("iteration"), "1", "not advanced");
    assert_eq!(p.seal()["fields"]["iteration"], 1, "not advanced");
}

/// The lock cannot be taken (a file stands where `.claude/loopgate/` should be): one line naming it.
#[test]
fn lock_that_cannot_be_taken() {
    let p = running_loop();
    fs::remove_dir_all(p.path(".claude/loopgate")).expect("remove work dir");
    p.write(".claude/loopgate", "not a directory");
    let out = p.stop("S", PROMISE);
    out.allowed();
    assert!(out.stderr_line().contains(".claude/loopgate"), "{out}");
    assert_eq!(p.read(".claude/loopgate"), "not a directory", "left as it was");
}

/// A verify command that does not exist (gone since setup, which refuses one that cannot start) is a failed
/// verify (127) whose reason says so.
#[test]
fn verify_command_that_does_not_exist() {
    let p = Project::new();
    p.setup("S", "task --no-baseline --verify 'no-such-command-xyz --check'");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "exit 127");
    assert_has(&block.reason, "no-such-command-xyz: not found");
    assert_eq!(p.last_record("promise_rejected")["verify_exit"], 127);
}

/// Binary output (every byte value, escapes, NULs): the hook's JSON and every history line stay valid, the
/// log keeps the raw bytes.
#[test]
fn verify_printing_binary() {
    let p = Project::new();
    let every_byte: String = (0..=255u32).map(|b| format!("\\{b:03o}")).collect();
    p.write(
        "check.sh",
        format!("printf '{every_byte}'\nprintf '\\033[31mred\\r\\n'\necho 'binary done'\nexit 3\n"),
    );
    p.setup("S", "task --verify 'sh check.sh'");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "binary done");
    assert_has(&block.reason, "exit 3");
    let rejected = p.last_record("promise_rejected");
    assert!(
        rejected["verify_tail"]
            .as_str()
            .is_some_and(|t| t.contains("binary done")),
        "{rejected}"
    );
    let log = fs::read(p.path(&log_path_in(&block.reason))).expect("read log");
    let bytes: Vec<u8> = (0..=255u8).collect();
    assert!(
        log.windows(256).any(|w| w == bytes.as_slice()),
        "the log keeps the raw bytes"
    );
}

/// 50 MiB of output: what the model and the history get stays small, the last lines are there, and the log
/// keeps head and tail. (The 1 GiB memory check lives in the benchmark.)
#[test]
fn verify_printing_50_mib() {
    let p = Project::new();
    // Setup's traced baseline run and the promise's run each carry 50 MiB through loopgate's pipes: seconds
    // alone, more than the default minute on a machine the rest of the suite keeps busy.
    let deadline = Duration::from_secs(300);
    p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .stdin("task --verify 'yes \"spam line of verify output\" | head -c 52428800; echo; echo FINAL LINE; exit 1'")
        .deadline(deadline)
        .run()
        .success();
    let out = p.stop_cmd("S", PROMISE).deadline(deadline).run();
    let block = out.blocked();
    assert!(
        block.reason.contains("FINAL LINE"),
        "{}",
        &block.reason[..2000.min(block.reason.len())]
    );
    assert!(
        out.stdout.len() < 64 * 1024,
        "the hook printed {} bytes",
        out.stdout.len()
    );
    let history = p.history_bytes();
    let last_line = history
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .expect("a record");
    assert!(
        last_line.len() < 64 * 1024,
        "a history record of {} bytes",
        last_line.len()
    );
    let log = fs::read(p.path(&log_path_in(&block.reason))).expect("read log");
    assert!(log.starts_with(b"spam line of verify output\n"), "head kept");
    assert!(log.ends_with(b"FINAL LINE\n"), "tail kept");
    assert!(log.len() <= 50 * 1024 * 1024 + 4096, "log of {} bytes", log.len());
}

/// A verify that never exits is killed at `--verify-timeout` and reported as timed out.
#[test]
fn verify_that_never_exits() {
    let p = Project::new();
    p.setup("S", "task --verify-timeout 1 --verify 'echo started; sleep 30'");
    let out = p.stop_cmd("S", PROMISE).deadline(RUNNER_DEADLINE).run();
    let block = out.blocked();
    assert!(out.elapsed < Duration::from_secs(15), "took {:?}", out.elapsed);
    assert_has(&block.reason, "timed out");
    assert!(
        block.reason.contains("started"),
        "output before the kill is kept: {}",
        block.reason
    );
    let rejected = p.last_record("promise_rejected");
    assert_eq!(rejected["timed_out"], true, "{rejected}");
    assert!(rejected["verify_exit"].is_null(), "{rejected}");
}

/// A grandchild that ignores SIGTERM and holds the output pipe: killed with the group at the timeout.
#[test]
fn verify_grandchild_ignoring_sigterm() {
    // The grandchild's pid file is read from the project: the run stands in the project's own tree.
    let p = Project::new().in_project_tree();
    p.setup(
        "S",
        "task --verify-timeout 1 --verify '(trap \"\" TERM; exec sleep 60) & echo $! > grandchild.pid; wait'",
    );
    let out = p.stop_cmd("S", PROMISE).deadline(RUNNER_DEADLINE).run();
    let block = out.blocked();
    assert!(out.elapsed < Duration::from_secs(15), "took {:?}", out.elapsed);
    assert_has(&block.reason, "timed out");
    let pid: u32 = p.read("grandchild.pid").trim().parse().expect("grandchild pid");
    assert!(
        eventually(Duration::from_secs(5), || !alive(pid)),
        "grandchild {pid} survived the timeout"
    );
}

/// The verify exits but leaves a grandchild holding the pipe: the result comes back promptly, not when the
/// grandchild closes the pipe.
#[test]
fn verify_leaving_a_grandchild_behind() {
    let p = Project::new();
    p.setup(
        "S",
        "task --verify-timeout 120 --verify 'sleep 60 & echo quick failure; exit 1'",
    );
    let out = p.stop_cmd("S", PROMISE).deadline(RUNNER_DEADLINE).run();
    let block = out.blocked();
    assert!(out.elapsed < Duration::from_secs(15), "took {:?}", out.elapsed);
    assert_has(&block.reason, "quick failure");
    let rejected = p.last_record("promise_rejected");
    assert_eq!(rejected["verify_exit"], 1, "{rejected}");
    assert_eq!(rejected["timed_out"], false, "{rejected}");
}

/// A panic in a hook (issue 14, item 3) must not exit 101, which Claude Code shows to nobody and which lets the
/// agent stop with the loop silently off: each hook catches it, exits 0, and names the bug to the user. Debug
/// builds panic on purpose with `LOOPGATE_DEBUG_PANIC=HOOK` after reading the input.
#[test]
fn a_panic_in_a_hook_fails_open_and_says_so() {
    let p = running_loop();
    let (state, history) = (p.state_text(), p.history_bytes());
    let out = p.stop_cmd("S", PROMISE).env("LOOPGATE_DEBUG_PANIC", "Stop").run();
    if !cfg!(debug_assertions) {
        // A release build (`cargo test --release`) has no such switch: the stop is judged as usual.
        out.blocked();
        return;
    }
    let message = out.allowed();
    for text in [out.stderr_line(), message.as_str()] {
        assert!(
            text.contains("internal error in the Stop hook: LOOPGATE_DEBUG_PANIC=Stop at src/hook.rs:"),
            "{out}"
        );
        assert!(text.contains("bug in loopgate"), "{out}");
    }
    assert!(
        !out.stderr.contains("panicked at"),
        "the default panic message is replaced\n{out}"
    );
    assert_eq!(
        (p.state_text(), p.history_bytes()),
        (state, history),
        "nothing recorded"
    );
    // The loop is still there: the next stop without the switch is judged as usual.
    p.stop("S", "still working").blocked();

    let tool = json!({"session_id": "S", "cwd": p.root(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "echo x > .claude/pua-loop.local.md"}});
    let out = p
        .loopgate(["hook", "pre-tool-use"])
        .stdin(tool.to_string())
        .env("LOOPGATE_DEBUG_PANIC", "PreToolUse")
        .run();
    out.success();
    assert!(
        out.json()["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("PreToolUse hook")),
        "{out}"
    );
    let start = json!({"session_id": "S", "cwd": p.root(), "hook_event_name": "SessionStart", "source": "startup"});
    let out = p
        .loopgate(["hook", "session-start"])
        .stdin(start.to_string())
        .env("LOOPGATE_DEBUG_PANIC", "SessionStart")
        .run();
    out.success();
    assert!(out.stderr_line().contains("SessionStart hook"), "{out}");
}
