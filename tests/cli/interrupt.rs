//! Interrupts (issue 33, item 1): `loopgate verify` and `setup`'s baseline, stopped by SIGINT, SIGTERM or
//! SIGHUP before the verify starts, while it runs, and while the agent's new test file sits in the stash. After
//! each: the verify's process group is gone (no orphan), the stash is put back, the verify lock is free, the log
//! of the last complete run is intact, the next stop finds no tampering, and loopgate died of the signal it got
//! (style point 3: re-raised after cleanup).
//!
//! No timing: the tests wait for conditions (the handler installed, the verify's pid file written, the new test
//! file gone into the stash) with generous bounds, and only then send the signal.

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::{alive, drain_output};
use crate::project::{LOOPGATE, Project, eventually};

/// Bound for every wait below: generous, since the machine may be busy.
const PATIENCE: Duration = Duration::from_secs(60);
/// The verify command: passes at once, unless `$LG_HANG` (or, once, the file `$LG_SIGNALS/hang`) names a file:
/// then it writes its pid there and sleeps. The file is how a run after setup is asked to hang: the oracle's room
/// runs the verify with the environment recorded at setup, not the environment of the process that asks. Both
/// files live in [`signals`]: the oracle's run stands in the room's own copy of the tree, and writes `HOME` and
/// `/tmp` into a scratch of its own, so what it writes there never reaches the test.
/// With the file `$LG_SIGNALS/linger` naming a file, it starts a background `sleep` that keeps the output pipe
/// open, writes the sleep's pid there and its own beside it (`.leader`), and exits 0.
const VERIFY: &str = r#"H="${LG_HANG:-$(cat "$LG_SIGNALS/hang" 2>/dev/null)}"; rm -f "$LG_SIGNALS/hang"; if [ -n "$H" ]; then echo $$ > "$H"; exec sleep 300; fi; L="$(cat "$LG_SIGNALS/linger" 2>/dev/null)"; rm -f "$LG_SIGNALS/linger"; if [ -n "$L" ]; then sleep 300 & echo $$ > "$L.leader"; echo $! > "$L"; fi; exit 0"#;

/// Where the verify command and the test meet (`$LG_SIGNALS`): outside the project, `HOME` and `/tmp`, one per
/// project (`common::signals_base`).
fn signals(p: &Project) -> std::path::PathBuf {
    let name = p.root().parent().and_then(Path::file_name).expect("the sandbox's name");
    let dir = crate::common::signals_base().join(name);
    fs::create_dir_all(&dir).expect("signals dir");
    dir
}

/// Where the verify command writes its pid (see [`VERIFY`]).
fn signal_path(p: &Project, name: &str) -> std::path::PathBuf {
    signals(p).join(name)
}
const SIGNALS: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// When the signal is sent.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// After the handlers are installed, while a rollback (the test, holding the verify lock) keeps the verify
    /// from starting.
    Before,
    /// While the verify command runs.
    Running,
    /// While the verify command runs and the agent's new test file sits out the run in the stash.
    Stashed,
}

/// The agent's new test file, which sits out the oracle's run (a stand-in holds its place meanwhile).
const NEW_TEST: &str = "tests/test_new.py";
const NEW_TEST_TEXT: &str = "def test_new():\n    assert True\n";

/// Whether the agent's new test file is in the stash: its place is empty or holds the stand-in.
fn new_test_aside(p: &Project) -> bool {
    !new_test_back(p)
}

/// Whether the agent's new test file is back as the agent wrote it.
fn new_test_back(p: &Project) -> bool {
    fs::read_to_string(p.path(NEW_TEST)).is_ok_and(|text| text == NEW_TEST_TEXT)
}

/// A project with a Python test, a loop whose verify hangs on demand, and one complete `loopgate verify` (whose
/// self-check log the seal marks).
fn project() -> Project {
    let p = Project::new().file("tests/test_a.py", "def test_a():\n    assert True\n");
    p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LG_SIGNALS", signals(&p))
        .stdin(format!("\"interrupt me\" --no-closure-seal --verify '{VERIFY}'"))
        .run()
        .success();
    p.loopgate(["verify"]).run().success();
    p
}

/// `loopgate ARGS` in the project's environment (plus `env`), started and left running.
fn spawn(p: &Project, args: &[&str], env: &[(&str, &Path)]) -> Child {
    spawn_with(p, args, env, "")
}

/// [`spawn`] with `stdin` written to it.
fn spawn_with(p: &Project, args: &[&str], env: &[(&str, &Path)], stdin: &str) -> Child {
    let mut command = Command::new(LOOPGATE);
    command
        .args(args)
        .current_dir(p.root())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", p.home())
        .env("LOOPGATE_HOME", p.loopgate_home())
        .env("LG_SIGNALS", signals(p))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
        if *key == "LG_HANG" {
            fs::write(signal_path(p, "hang"), value.to_string_lossy().as_ref()).expect("hang file");
        }
    }
    let mut child = command.spawn().expect("spawn loopgate");
    let mut pipe = child.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut pipe, stdin.as_bytes()).expect("write stdin");
    child
}

/// Whether `pid` catches `signal` (its handler is installed), from `/proc/PID/status`.
fn catches(pid: u32, signal: i32) -> bool {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (signal - 1)) != 0)
}

/// The pid the hanging verify wrote, once it did.
fn verify_pid(file: &Path) -> Option<i32> {
    fs::read_to_string(file).ok()?.trim().parse().ok()
}

/// Sends `signal`, waits for loopgate to end, and checks it died of that signal; returns its stderr.
#[track_caller]
fn interrupt(mut child: Child, signal: i32) -> String {
    let (_, stderr) = drain_output(&mut child);
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: kill(2) with a pid this test started and still owns (not yet reaped).
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill");
    let ended = eventually(PATIENCE, || child.try_wait().expect("try_wait").is_some());
    if !ended {
        let _ = child.kill();
    }
    let status = child.wait().expect("wait");
    let stderr = stderr.join().expect("stderr");
    assert!(ended, "loopgate did not end after signal {signal}: {stderr}");
    assert_eq!(
        status.signal(),
        Some(signal),
        "loopgate must re-raise signal {signal} after cleanup, got {status:?}: {stderr}"
    );
    stderr
}

/// The verify lock is free: an exclusive lock can be taken at once.
#[track_caller]
fn assert_lock_free(p: &Project) {
    let file = fs::File::open(p.path(".claude/loopgate/verify.lock")).expect("verify.lock");
    assert!(file.try_lock().is_ok(), "the verify lock is still held");
}

fn every_signal(phase: Phase) {
    for signal in SIGNALS {
        case(phase, signal);
    }
}

fn case(phase: Phase, signal: i32) {
    let p = project();
    let log = p.path(&format!(".claude/loopgate/verify-{}-1.self-check.log", p.loop_id()));
    let logged = fs::read(&log).expect("the first self-check's log");
    let pid_file = signal_path(&p, "verify.pid");
    if matches!(phase, Phase::Stashed) {
        p.write(NEW_TEST, NEW_TEST_TEXT);
    }
    // A rollback holds the lock exclusively: `loopgate verify` waits for it before it starts the command.
    let held = matches!(phase, Phase::Before).then(|| {
        let file = fs::File::create(p.path(".claude/loopgate/verify.lock")).expect("lock file");
        file.lock().expect("lock");
        file
    });
    let child = spawn(&p, &["verify"], &[("LG_HANG", &pid_file)]);
    let pid = child.id();
    let ready = match phase {
        Phase::Before => eventually(PATIENCE, || SIGNALS.iter().all(|&s| catches(pid, s))),
        Phase::Running => eventually(PATIENCE, || verify_pid(&pid_file).is_some()),
        Phase::Stashed => eventually(PATIENCE, || verify_pid(&pid_file).is_some() && new_test_aside(&p)),
    };
    assert!(ready, "{phase:?}: loopgate never reached the phase");
    let stderr = interrupt(child, signal);
    drop(held);

    let context = format!("{phase:?}, signal {signal}: {stderr}");
    match (phase, verify_pid(&pid_file)) {
        (Phase::Before, started) => assert_eq!(started, None, "the verify started after the signal: {context}"),
        (_, Some(verify)) => assert!(
            eventually(PATIENCE, || !alive(verify)),
            "the verify command ({verify}) was left running: {context}"
        ),
        (_, None) => panic!("no verify pid: {context}"),
    }
    if matches!(phase, Phase::Stashed) {
        assert!(new_test_back(&p), "the new test file was left in the stash: {context}");
    }
    assert_lock_free(&p);
    assert_eq!(
        fs::read(&log).ok(),
        Some(logged),
        "the last complete run's log changed: {context}"
    );
    let stop = p.stop("S", "still working");
    stop.blocked();
    assert!(
        !p.statuses().iter().any(|s| s == "tamper_detected") && !stop.stdout.contains("TAMPER"),
        "the next stop was accused of tampering: {context}\n{}",
        stop.stdout
    );
}

#[test]
fn verify_interrupted_before_the_run_cleans_up_and_reraises() {
    every_signal(Phase::Before);
}

#[test]
fn verify_interrupted_while_running_stops_the_group_and_reraises() {
    every_signal(Phase::Running);
}

#[test]
fn verify_interrupted_while_stashed_puts_the_tests_back() {
    every_signal(Phase::Stashed);
}

/// `loopgate verify` interrupted while it waits out the drain window: the verify command has exited (its leader a
/// zombie loopgate has not reaped) and a background process it started still holds the output pipe. The signal
/// still ends loopgate as it ends a run (re-raised), the lingering process is stopped with the group, and nothing
/// is left held.
#[test]
fn verify_interrupted_while_a_lingering_process_holds_the_output_stops_it() {
    for signal in SIGNALS {
        let p = project();
        let holder_file = signal_path(&p, "holder.pid");
        let leader_file = signal_path(&p, "holder.pid.leader");
        fs::write(signal_path(&p, "linger"), holder_file.to_string_lossy().as_ref()).expect("linger file");
        let child = spawn(&p, &["verify"], &[]);
        // In the window: the leader has exited and is kept a zombie until the holder lets go of the pipe.
        let draining = eventually(PATIENCE, || {
            verify_pid(&leader_file).is_some_and(|leader| {
                crate::common::process_states([i64::from(leader)]).get(&i64::from(leader)) == Some(&'Z')
            }) && verify_pid(&holder_file).is_some()
        });
        assert!(
            draining,
            "signal {signal}: the verify never left a process holding its output"
        );
        let stderr = interrupt(child, signal);
        let holder = verify_pid(&holder_file).expect("the holder's pid");
        assert!(
            eventually(PATIENCE, || !alive(holder)),
            "signal {signal}: the process holding the output ({holder}) was left running: {stderr}"
        );
        assert_lock_free(&p);
    }
}

/// `setup` interrupted during its baseline: the baseline is stopped and no loop is left half started.
#[test]
fn setup_interrupted_during_the_baseline_starts_no_loop() {
    for signal in SIGNALS {
        let p = Project::new();
        let pid_file = signal_path(&p, "baseline.pid");
        let child = spawn(
            &p,
            &[
                "setup",
                "--session-id",
                "S",
                "--no-closure-seal",
                "--verify",
                VERIFY,
                "interrupt",
                "me",
            ],
            &[("LG_HANG", &pid_file)],
        );
        assert!(
            eventually(PATIENCE, || verify_pid(&pid_file).is_some()),
            "the baseline never started"
        );
        let stderr = interrupt(child, signal);
        let verify = verify_pid(&pid_file).expect("pid");
        assert!(
            eventually(PATIENCE, || !alive(verify)),
            "the baseline was left running: {stderr}"
        );
        assert!(!p.exists(".claude/pua-loop.local.md"), "a loop was started: {stderr}");
        p.loopgate(["status"]).run().success().stdout_contains("no loop");
    }
}

/// `loopgate check` interrupted while the base's run goes on (issue 44): the run is stopped, and nothing of the
/// check stays — no clone, no worktree, no seal, room or verify window in loopgate's home — and the user's
/// checkout is as it was.
#[test]
fn check_interrupted_during_the_bases_run_leaves_nothing_behind() {
    for signal in SIGNALS {
        let p = crate::check::repo();
        let before = crate::check::store(&p);
        let pid_file = signal_path(&p, "baseline.pid");
        let tmp = p.tmp_dir();
        let child = spawn(
            &p,
            &["check", "--base", "main", "--verify", VERIFY],
            &[("LG_HANG", &pid_file), ("TMPDIR", &tmp)],
        );
        assert!(
            eventually(PATIENCE, || verify_pid(&pid_file).is_some()),
            "the base's run never started"
        );
        let stderr = interrupt(child, signal);
        let verify = verify_pid(&pid_file).expect("pid");
        assert!(
            eventually(PATIENCE, || !alive(verify)),
            "the base's run was left running: {stderr}"
        );
        crate::check::left_nothing(&p, &before);
        p.sh("git diff --quiet HEAD && test -z \"$(git status --porcelain)\" && test \"$(git branch --show-current)\" = head")
            .run()
            .success();
    }
}

/// The Stop hook stopped mid-verify (Claude Code ends a hook past its timeout): the verify's group is stopped,
/// the new test file put back, and the next stop is not accused of tampering.
#[test]
fn stop_hook_stopped_mid_verify_leaves_nothing_behind() {
    let p = project();
    let pid_file = signal_path(&p, "verify.pid");
    p.write(NEW_TEST, NEW_TEST_TEXT);
    let input = p.stop_input("S", "<promise>LOOP_DONE</promise>").to_string();
    let child = spawn_with(&p, &["hook", "stop"], &[("LG_HANG", &pid_file)], &input);
    assert!(
        eventually(PATIENCE, || verify_pid(&pid_file).is_some() && new_test_aside(&p)),
        "the verify never ran with the new test aside"
    );
    let stderr = interrupt(child, libc::SIGTERM);
    let verify = verify_pid(&pid_file).expect("pid");
    assert!(
        eventually(PATIENCE, || !alive(verify)),
        "the verify was left running: {stderr}"
    );
    assert!(new_test_back(&p), "the new test file was left in the stash: {stderr}");
    assert_lock_free(&p);
    let stop = p.stop("S", "still working");
    stop.blocked();
    assert!(
        !p.statuses().iter().any(|s| s == "tamper_detected"),
        "the next stop was accused of tampering: {}",
        stop.stdout
    );
}

/// Reported (issue 42, item 6): the Stop hook killed outright — SIGKILL, what an agent CLI does to a hook past
/// its timeout — left the verify running to its own timeout and the agent's new test file in the stash until
/// the next stop. Its warden (`process::tether`) stops the verify's group and puts the file back at once.
#[test]
fn stop_hook_killed_mid_verify_leaves_nothing_behind() {
    let p = project();
    let pid_file = signal_path(&p, "verify.pid");
    p.write(NEW_TEST, NEW_TEST_TEXT);
    let input = p.stop_input("S", "<promise>LOOP_DONE</promise>").to_string();
    let mut child = spawn_with(&p, &["hook", "stop"], &[("LG_HANG", &pid_file)], &input);
    let (_, stderr) = drain_output(&mut child);
    assert!(
        eventually(PATIENCE, || verify_pid(&pid_file).is_some() && new_test_aside(&p)),
        "the verify never ran with the new test aside"
    );
    child.kill().expect("SIGKILL the hook");
    let status = child.wait().expect("wait");
    let stderr = stderr.join().expect("stderr");
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{stderr}");
    // Promptly: the warden's SIGTERM ends a `sleep` at once; the bound allows its grace and a loaded machine.
    let prompt = Duration::from_secs(10);
    let verify = verify_pid(&pid_file).expect("pid");
    assert!(
        eventually(prompt, || !alive(verify)),
        "the verify ({verify}) was left running after the hook was killed: {stderr}"
    );
    assert!(
        eventually(prompt, || new_test_back(&p)),
        "the new test file was left in the stash after the hook was killed: {stderr}"
    );
    assert_eq!(
        p.read(NEW_TEST),
        NEW_TEST_TEXT,
        "the agent's test file came back changed"
    );
    assert_lock_free(&p);
    let stop = p.stop("S", "still working");
    stop.blocked();
    assert!(
        !p.statuses().iter().any(|s| s == "tamper_detected") && !stop.stdout.contains("TAMPER"),
        "the next stop was accused of tampering: {}",
        stop.stdout
    );
}

/// `loopgate verify` killed outright (the agent's Bash tool past its timeout) leaves nothing behind either.
#[test]
fn verify_killed_mid_run_leaves_nothing_behind() {
    let p = project();
    let pid_file = signal_path(&p, "verify.pid");
    p.write(NEW_TEST, NEW_TEST_TEXT);
    let mut child = spawn(&p, &["verify"], &[("LG_HANG", &pid_file)]);
    let (_, stderr) = drain_output(&mut child);
    assert!(
        eventually(PATIENCE, || verify_pid(&pid_file).is_some() && new_test_aside(&p)),
        "the verify never ran with the new test aside"
    );
    child.kill().expect("SIGKILL loopgate verify");
    child.wait().expect("wait");
    let stderr = stderr.join().expect("stderr");
    let prompt = Duration::from_secs(10);
    let verify = verify_pid(&pid_file).expect("pid");
    assert!(
        eventually(prompt, || !alive(verify)),
        "the verify ({verify}) was left running: {stderr}"
    );
    assert!(
        eventually(prompt, || new_test_back(&p)),
        "the new test file was left in the stash: {stderr}"
    );
    p.stop("S", "still working").blocked();
    assert!(
        !p.statuses().iter().any(|s| s == "tamper_detected"),
        "the next stop was accused of tampering"
    );
}
