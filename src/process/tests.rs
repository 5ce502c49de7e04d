//! The supervisor's own rules, through its public `run`: stdin, the stop check, the registry, liveness. The
//! verify runner's tests (`src/verify/tests.rs`) cover timeouts, grandchildren and pipes held open.

use std::process::Command;
use std::time::{Duration, Instant};

use super::unix::pid_t;
use super::{Ended, Watch, alive, run, running_groups};

/// True when `pid` no longer runs: gone, or a zombie waiting for a parent that may never reap it (in a
/// container PID 1 may not). Asks `ps` (POSIX, on Linux and macOS alike) rather than reading `/proc`.
pub(crate) fn gone(pid: pid_t) -> bool {
    let Ok(out) = Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
    else {
        return false;
    };
    let stat = String::from_utf8_lossy(&out.stdout);
    let stat = stat.trim();
    stat.is_empty() || stat.starts_with('Z')
}

/// True once `pid` is gone. A SIGKILLed process closes its files (so the reader sees end-of-file and `run`
/// returns) a moment before it is a zombie, so allow the kernel that moment; a process the supervisor failed to
/// kill would still be sleeping its 100 s.
pub(crate) fn gone_soon(pid: pid_t) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while !gone(pid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

fn sh(script: &str) -> Command {
    let mut command = Command::new("/bin/sh");
    command.args(["-c", script]);
    command
}

#[test]
fn input_goes_to_stdin_and_output_to_the_sink() {
    let mut out = Vec::new();
    let exit = run(
        sh("tr a-z A-Z; echo done >&2"),
        Some(b"hello\n".to_vec()),
        Watch::timeout(None),
        &mut |chunk| out.extend_from_slice(chunk),
    )
    .expect("run");
    assert_eq!((exit.ended, exit.code(), exit.signal()), (Ended::Exited, Some(0), None));
    assert_eq!(out, b"HELLO\ndone\n");
}

#[test]
fn keep_going_false_stops_the_group_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pid_file = dir.path().join("child.pid");
    let mut asked = 0;
    let mut keep_going = || {
        asked += 1;
        asked < 3
    };
    let start = Instant::now();
    let exit = run(
        sh(&format!("sleep 100 & echo $! > {}; wait", pid_file.display())),
        None,
        Watch {
            timeout: None,
            kill_grace: Duration::from_millis(300),
            keep_going: Some((Duration::from_millis(50), &mut keep_going)),
        },
        &mut |_| {},
    )
    .expect("run");
    assert_eq!(exit.ended, Ended::Stopped);
    assert_eq!(exit.code(), None, "a stopped child has no exit code");
    assert_eq!(exit.signal(), Some(libc::SIGTERM));
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    let child: pid_t = std::fs::read_to_string(&pid_file)
        .expect("pid")
        .trim()
        .parse()
        .expect("pid");
    assert!(gone_soon(child), "the background child {child} survived");
    assert_eq!(asked, 3, "asked until it said no, then never again");
}

#[test]
fn a_running_child_is_in_the_registry_until_it_is_reaped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pid_file = dir.path().join("sh.pid");
    let mut listed = false;
    let mut check = || {
        if let Ok(text) = std::fs::read_to_string(&pid_file)
            && let Ok(pid) = text.trim().parse::<pid_t>()
        {
            listed = running_groups().any(|group| group == pid);
            return false;
        }
        true
    };
    let exit = run(
        sh(&format!("echo $$ > {}; sleep 100", pid_file.display())),
        None,
        Watch {
            timeout: Some(Duration::from_secs(20)),
            kill_grace: Duration::from_millis(300),
            keep_going: Some((Duration::from_millis(20), &mut check)),
        },
        &mut |_| {},
    )
    .expect("run");
    assert_eq!(exit.ended, Ended::Stopped);
    assert!(listed, "the shell's group was listed while it ran");
    let pid: pid_t = std::fs::read_to_string(&pid_file)
        .expect("pid")
        .trim()
        .parse()
        .expect("pid");
    assert!(!running_groups().any(|group| group == pid), "unlisted once reaped");
}

#[test]
fn a_program_that_does_not_exist_is_a_spawn_failure() {
    let failure = run(
        Command::new("/nonexistent/loopgate-test-program"),
        None,
        Watch::timeout(None),
        &mut |_| {},
    )
    .expect_err("spawn");
    assert!(
        matches!(&failure, super::Failure::Spawn(err) if err.kind() == std::io::ErrorKind::NotFound),
        "{failure:?}"
    );
}

#[test]
fn alive_is_true_for_this_process_and_false_for_a_reaped_child() {
    assert!(alive(std::process::id()));
    let mut child = Command::new("/bin/sh").arg("-c").arg("exit 0").spawn().expect("spawn");
    let pid = child.id();
    child.wait().expect("wait");
    assert!(!alive(pid), "a reaped child's pid is free (not reused this fast)");
    assert!(!alive(0), "pid 0 is never a process of ours");
    assert!(!alive(u32::MAX));
}
