use std::fs;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use super::capture::Limits;
use super::{VerifyError, VerifyOutcome, VerifyRequest, run, run_with, run_with_lines};
use crate::process::DRAIN_WINDOW;
use crate::process::tests::gone_soon;
use crate::process::unix::pid_t;

/// A short kill grace keeps the timeout tests fast; production uses [`super::KILL_GRACE`].
const GRACE: Duration = Duration::from_millis(300);

/// Runs `command` in a fresh temp dir (also holding the log) with a short kill grace.
#[track_caller]
fn verify(command: &str, timeout: Duration) -> (VerifyOutcome, TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join(".claude/loopgate/verify.log");
    let req = VerifyRequest {
        command,
        cwd: dir.path(),
        timeout,
        log_path: &log,
        prefix: &[],
        env: None,
        plane: None,
        mount: None,
    };
    let outcome =
        run_with(&req, Limits::DEFAULT, GRACE, &mut |_| {}).unwrap_or_else(|err| panic!("run `{command}`: {err}"));
    (outcome, dir)
}

#[track_caller]
fn read_pid(dir: &TempDir, name: &str) -> pid_t {
    let text = fs::read_to_string(dir.path().join(name)).expect("pid file");
    text.trim().parse().expect("pid")
}

fn text(outcome: &VerifyOutcome) -> String {
    outcome.output_text()
}

#[test]
fn exit_zero_passes_and_nonzero_fails() {
    let (ok, _dir) = verify("true", Duration::from_secs(10));
    assert!(ok.passed());
    assert_eq!((ok.exit_code, ok.signal, ok.timed_out), (Some(0), None, false));
    let (bad, _dir) = verify("echo nope; exit 3", Duration::from_secs(10));
    assert!(!bad.passed());
    assert_eq!((bad.exit_code, bad.exit_status_for_shell()), (Some(3), 3));
    assert_eq!(text(&bad), "nope\n");
}

#[test]
fn stdout_and_stderr_share_one_stream_in_order() {
    let (out, _dir) = verify(
        "echo out1; echo err1 >&2; echo out2; echo err2 >&2",
        Duration::from_secs(10),
    );
    assert_eq!(out.tail, b"out1\nerr1\nout2\nerr2\n");
    assert_eq!(out.head, out.tail);
    assert_eq!(out.total_bytes, 20);
    assert_eq!(
        fs::read(&out.log_path).expect("log"),
        out.tail,
        "the log holds the whole short output"
    );
}

#[test]
fn missing_command_is_a_failed_verify_with_the_shell_message() {
    let (out, _dir) = verify("loopgate-no-such-command --flag", Duration::from_secs(10));
    assert_eq!(out.exit_code, Some(127));
    assert!(!out.passed());
    let text = text(&out);
    assert!(
        text.contains("loopgate-no-such-command") && text.contains("not found"),
        "{text}"
    );
}

#[test]
fn stdin_is_empty_and_cwd_is_the_project() {
    let (out, dir) = verify("cat; pwd", Duration::from_secs(10));
    assert!(out.passed(), "`cat` must see end-of-file at once");
    let pwd = fs::canonicalize(text(&out).trim()).expect("pwd");
    assert_eq!(pwd, fs::canonicalize(dir.path()).expect("canonical"));
}

#[test]
fn timeout_kills_a_shell_that_ignores_sigterm() {
    let start = Instant::now();
    let (out, dir) = verify("trap '' TERM; echo $$ > sh.pid; sleep 100", Duration::from_millis(300));
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert!(out.timed_out && !out.passed());
    assert_eq!(
        (out.exit_code, out.signal),
        (None, Some(libc::SIGKILL)),
        "SIGTERM was ignored"
    );
    assert_eq!(out.exit_status_for_shell(), 124);
    assert!(out.duration >= Duration::from_millis(300) + GRACE, "{:?}", out.duration);
    assert!(gone_soon(read_pid(&dir, "sh.pid")));
}

#[test]
fn timeout_kills_a_grandchild_that_ignores_sigterm() {
    let cmd = "(trap '' TERM; exec sleep 100) & echo $! > grandchild.pid; wait";
    let (out, dir) = verify(cmd, Duration::from_millis(300));
    assert!(out.timed_out);
    assert_eq!(out.signal, Some(libc::SIGTERM), "the waiting shell dies of SIGTERM");
    let grandchild = read_pid(&dir, "grandchild.pid");
    assert!(gone_soon(grandchild), "grandchild {grandchild} survived the verify");
}

#[test]
fn background_grandchild_holding_the_pipe_does_not_block() {
    let start = Instant::now();
    let (out, dir) = verify("sleep 100 & echo $! > bg.pid; echo done", Duration::from_secs(60));
    // The sleeper holds the pipe, so it costs the drain window; not its 100 s.
    assert!(
        start.elapsed() < DRAIN_WINDOW + Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    assert!(out.passed());
    assert_eq!(text(&out), "done\n");
    assert!(gone_soon(read_pid(&dir, "bg.pid")), "orphan left running");
}

#[test]
fn process_that_left_the_group_cannot_hold_the_reader_forever() {
    if !std::path::Path::new("/usr/bin/setsid").exists() {
        return;
    }
    let start = Instant::now();
    let (out, dir) = verify(
        "/usr/bin/setsid sleep 100 & echo $! > escaped.pid; echo done",
        Duration::from_secs(60),
    );
    let elapsed = start.elapsed();
    let escaped = read_pid(&dir, "escaped.pid");
    // SAFETY: clean up the one process this test started outside the verify's group.
    unsafe { libc::kill(escaped, libc::SIGKILL) };
    assert!(elapsed < DRAIN_WINDOW + Duration::from_secs(5), "took {elapsed:?}");
    assert!(out.passed());
    assert_eq!(text(&out), "done\n");
}

#[test]
fn a_report_writer_that_outlives_the_command_finishes_before_the_verify_returns() {
    // The shape of bats' `--report-formatter`: the runner exits, and a process it started is still writing the
    // report (its stdout is the file, its stderr still the pipe).
    let (out, dir) = verify(
        "(sleep 1; echo '<testsuite failures=\"1\"/>' > report.xml) & echo ran",
        Duration::from_secs(60),
    );
    assert!(out.passed());
    assert_eq!(
        fs::read_to_string(dir.path().join("report.xml")).expect("the report was written"),
        "<testsuite failures=\"1\"/>\n"
    );
}

#[test]
fn huge_output_keeps_memory_and_log_bounded_and_the_real_end() {
    let size: u64 = 200 * 1024 * 1024;
    let (out, _dir) = verify(
        &format!("head -c {size} /dev/zero; echo; echo THE END"),
        Duration::from_secs(120),
    );
    assert!(out.passed());
    assert_eq!(out.total_bytes, size + 9);
    assert_eq!(out.head.len(), 8 * 1024);
    assert_eq!(out.tail.len(), 32 * 1024);
    assert!(out.tail.ends_with(b"\0\nTHE END\n"));
    assert_eq!(out.tail_text(1), "THE END");
    let log = fs::read(&out.log_path).expect("log");
    let omitted = size + 9 - 2 * 1024 * 1024;
    let marker = format!("\n[… {omitted} bytes omitted …]\n");
    assert_eq!(log.len(), 2 * 1024 * 1024 + marker.len());
    assert_eq!(&log[1024 * 1024..1024 * 1024 + marker.len()], marker.as_bytes());
    assert!(log.ends_with(b"\0\nTHE END\n"));
}

#[test]
fn non_utf8_output_is_kept_byte_for_byte() {
    let (out, _dir) = verify(r"printf '\377\376ok\000\n'", Duration::from_secs(10));
    assert_eq!(out.tail, b"\xff\xfeok\0\n");
    assert_eq!(out.tail_text(5), "\u{fffd}\u{fffd}ok\0");
}

#[test]
fn duration_is_recorded() {
    let (out, _dir) = verify("sleep 0.3", Duration::from_secs(10));
    assert!(out.duration >= Duration::from_millis(300), "{:?}", out.duration);
    assert!(out.duration < Duration::from_secs(3), "{:?}", out.duration);
}

#[test]
fn death_by_signal_is_reported_as_128_plus_n() {
    let (out, _dir) = verify("echo before; kill -9 $$", Duration::from_secs(10));
    assert_eq!((out.exit_code, out.signal, out.timed_out), (None, Some(9), false));
    assert_eq!(out.exit_status_for_shell(), 137);
    assert!(!out.passed());
    assert_eq!(text(&out), "before\n");
}

#[test]
fn missing_cwd_is_a_spawn_error_and_bad_log_path_a_log_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("verify.log");
    let missing = dir.path().join("missing");
    let err = run(&VerifyRequest {
        command: "true",
        cwd: &missing,
        timeout: Duration::from_secs(5),
        log_path: &log,
        prefix: &[],
        env: None,
        plane: None,
        mount: None,
    })
    .expect_err("spawn");
    assert!(matches!(err, VerifyError::Spawn { .. }));
    assert!(
        err.to_string()
            .starts_with("failed to start verify command `true` in `"),
        "{err}"
    );
    let file = dir.path().join("file");
    fs::write(&file, "").expect("write");
    let bad_log = file.join("verify.log");
    let err = run(&VerifyRequest {
        command: "true",
        cwd: dir.path(),
        timeout: Duration::from_secs(5),
        log_path: &bad_log,
        prefix: &[],
        env: None,
        plane: None,
        mount: None,
    })
    .expect_err("log");
    assert!(matches!(err, VerifyError::Log { .. }));
    assert!(err.to_string().starts_with("failed to write verify log `"), "{err}");
}

fn outcome(head: &[u8], tail: &[u8], total: u64) -> VerifyOutcome {
    VerifyOutcome {
        exit_code: Some(1),
        signal: None,
        timed_out: false,
        duration: Duration::ZERO,
        total_bytes: total,
        head: head.to_vec(),
        tail: tail.to_vec(),
        log_path: "verify.log".into(),
    }
}

#[test]
fn tail_text_gives_the_last_lines() {
    let out = outcome(b"", b"a\nb\nc\n", 6);
    assert_eq!(out.tail_text(2), "b\nc");
    assert_eq!(out.tail_text(10), "a\nb\nc");
    assert_eq!(out.tail_text(0), "");
    assert_eq!(outcome(b"", b"no newline", 10).tail_text(1), "no newline");
}

#[test]
fn output_text_joins_head_and_tail_without_repeating_the_overlap() {
    assert_eq!(outcome(b"abc", b"abcdef", 6).output_text(), "abcdef");
    assert_eq!(outcome(b"abc", b"cdefg", 7).output_text(), "abcdefg");
    assert_eq!(outcome(b"abc", b"xyz", 100).output_text(), "abc\n…\nxyz");
}

/// The seam for stream observers: every line reaches the callback, in order, as printed, and the outcome is
/// the same as without it.
#[test]
fn run_with_lines_hands_every_line_to_the_callback() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("verify.log");
    let req = VerifyRequest {
        command: "echo 'test a ... ok'; echo 'boom' >&2; printf 'test result: ok. 1 passed'",
        cwd: dir.path(),
        timeout: Duration::from_secs(10),
        log_path: &log,
        prefix: &[],
        env: None,
        plane: None,
        mount: None,
    };
    let mut lines = Vec::new();
    let streamed =
        run_with_lines(&req, &mut |line| lines.push(String::from_utf8_lossy(line).into_owned())).expect("run");
    assert_eq!(lines, ["test a ... ok", "boom", "test result: ok. 1 passed"]);
    let plain = run(&req).expect("run");
    assert_eq!((streamed.tail, streamed.exit_code), (plain.tail, plain.exit_code));
}

/// A command that cannot start (not found, not executable) is told apart by the shell's own line naming a word
/// of the command; one that starts and fails, or whose own child is missing, is not.
#[test]
fn could_not_start_names_the_shells_line_for_the_command_itself() {
    let secs = Duration::from_secs(10);
    let (missing, _dir) = verify("nosuch-cmd-xyz --check", secs);
    let line = missing.could_not_start("nosuch-cmd-xyz --check").expect("not found");
    assert!(line.contains("nosuch-cmd-xyz") && line.contains("not found"), "{line}");

    let (denied, _dir) = verify("printf 'echo hi\\n' > t.sh && chmod 644 t.sh && ./t.sh", secs);
    let line = denied
        .could_not_start("printf 'echo hi\\n' > t.sh && chmod 644 t.sh && ./t.sh")
        .expect("not executable");
    assert!(line.contains("Permission denied"), "{line}");

    let inner = "printf 'nosuch-inner-xyz\\n' > t.sh && sh t.sh";
    let (started, _dir) = verify(inner, secs);
    assert_eq!(started.exit_code, Some(127), "{}", text(&started));
    assert_eq!(
        started.could_not_start(inner),
        None,
        "its own child is missing: it started"
    );

    for fails in ["exit 127", "echo nope; exit 1"] {
        let (outcome, _dir) = verify(fails, secs);
        assert_eq!(outcome.could_not_start(fails), None, "`{fails}` started");
    }
}
