//! The tether: ties the life of the supervised groups (the verify command's, above all) to the loopgate process
//! that started them, even when that process dies by SIGKILL — which is what an agent CLI does to a hook past its
//! timeout (issue 42, item 6). `crate::interrupt` tidies up after SIGINT, SIGTERM and SIGHUP, but nothing runs in
//! a process killed outright: without the tether the verify ran on to its own timeout and the agent's new test
//! files stayed in the stash (`crate::testswap`) until the next stop.
//!
//! So something must outlive the process: a **warden**, the loopgate binary itself started as a hidden
//! subcommand (`lib::run` names it, [`enable`]), in a session of its own (a client that kills the hook's process
//! group does not reach it), its stdin the read end of a pipe whose only write end the tethered process holds
//! (close-on-exec: no child inherits it, so the verify cannot keep the warden waiting). The tethered process
//! writes one line per fact the warden needs — a group started (`+PID`) or reaped (`-PID`), test files set aside
//! (`aside`) or put back (`back`) — and `done` when it finishes on its own. End-of-file without `done` means the
//! process died: the warden stops every group still listed (SIGTERM, [`super::KILL_GRACE`] or until the group is
//! empty, SIGKILL), and the command that runs it puts the set-aside files back at once (`commands::warden`).
//!
//! The warden is started on first need ([`ensure`]: before test files are set aside, before a child is spawned),
//! not at every stop: the fast path starts nothing. Where it cannot be started (the binary was replaced under a
//! running hook), the tethered process runs as before and the next stop puts the files back from the journal.
//!
//! What it cannot cover: a SIGKILL in the microseconds between a child's spawn and its `+PID` line leaves that
//! child to its own timeout. After the process died, a group's leader is reparented and reaped by someone else,
//! so the id could in principle be reused before the warden signals it; the warden acts within milliseconds of
//! the death, and pids are not reused that fast.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::os::fd::{FromRawFd, IntoRawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use super::unix;

/// How the warden is started: the program and the arguments before the project root. Set by [`enable`] (the
/// binary's entry); unset in unit tests, where the program would be the test harness.
static RECIPE: Mutex<Option<(OsString, Vec<OsString>)>> = Mutex::new(None);
/// The project root of the armed tether, until the warden is started.
static ARMED: Mutex<Option<OsString>> = Mutex::new(None);
/// Write end of the pipe to the warden; -1 when none runs.
static PIPE: AtomicI32 = AtomicI32::new(-1);

/// Lets this process start a warden: `program` with `args`, then the project root.
pub(crate) fn enable(program: OsString, args: Vec<OsString>) {
    *RECIPE.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((program, args));
}

/// Arms the tether for work in the project at `root`: the warden starts at the first [`ensure`], and the returned
/// guard tells it `done` when dropped (the work finished, whichever way, with the process alive).
pub(crate) fn arm(root: &Path) -> Tether {
    *ARMED.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(root.as_os_str().to_owned());
    Tether { _private: () }
}

/// The armed tether; dropping it releases the warden.
pub(crate) struct Tether {
    _private: (),
}

impl Drop for Tether {
    fn drop(&mut self) {
        *ARMED.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        let fd = PIPE.swap(-1, Ordering::SeqCst);
        if fd >= 0 {
            // SAFETY: `fd` is the write end this module opened and no one else closes; ownership moves here.
            let mut pipe = unsafe { std::fs::File::from_raw_fd(fd) };
            let _ = pipe.write_all(b"done\n");
        }
    }
}

/// Starts the warden if the tether is armed and none runs yet. Silent on failure (see the module's doc).
pub(crate) fn ensure() {
    if PIPE.load(Ordering::SeqCst) >= 0 {
        return;
    }
    let Some(root) = ARMED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone() else {
        return;
    };
    let Some((program, args)) = RECIPE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone() else {
        return;
    };
    let Ok((reader, writer)) = io::pipe() else {
        return;
    };
    let mut command = Command::new(program);
    command
        .args(args)
        .arg(root)
        .stdin(reader)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    if let Ok(child) = command.spawn() {
        // Never waited for: it outlives this process by design, and init reaps it.
        drop(child);
        let fd = writer.into_raw_fd();
        // A warden that stopped reading must not block the process it watches: a line it cannot take is lost.
        let _ = unix::set_nonblocking(fd);
        PIPE.store(fd, Ordering::SeqCst);
    }
}

/// A group was started (`+`) or reaped (`-`).
pub(crate) fn group(pid: unix::pid_t, started: bool) {
    say(&format!("{}{pid}\n", if started { '+' } else { '-' }));
}

/// Test files were set aside for a run (`true`), or all put back (`false`).
pub(crate) fn aside(set: bool) {
    say(if set { "aside\n" } else { "back\n" });
}

fn say(line: &str) {
    let fd = PIPE.load(Ordering::SeqCst);
    if fd < 0 {
        return;
    }
    // SAFETY: a write of our own bytes to the descriptor this module owns; a line is shorter than PIPE_BUF, so
    // it arrives whole. EPIPE (the warden is gone) is ignored (Rust ignores SIGPIPE).
    unsafe { libc::write(fd, line.as_ptr().cast(), line.len()) };
}

/// What the warden learned of a process that died without saying `done`.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Orphaned {
    /// Groups started and not reaped.
    pub(crate) groups: BTreeSet<unix::pid_t>,
    /// Test files were set aside and not put back.
    pub(crate) aside: bool,
}

/// The warden's side: reads the tethered process's lines from `input` until `done` (`None`: nothing to do) or
/// the end of the input (the process died: what it left).
pub(crate) fn listen(input: impl BufRead) -> Option<Orphaned> {
    let mut left = Orphaned::default();
    for line in input.lines() {
        let Ok(line) = line else { break };
        match line.as_str() {
            "done" => return None,
            "aside" => left.aside = true,
            "back" => left.aside = false,
            _ => {
                if let Some(pid) = line.strip_prefix('+').and_then(|p| p.parse().ok()) {
                    left.groups.insert(pid);
                } else if let Some(pid) = line.strip_prefix('-').and_then(|p| p.parse::<unix::pid_t>().ok()) {
                    left.groups.remove(&pid);
                }
            }
        }
    }
    Some(left)
}

/// Stops `groups` as the supervisor does: SIGTERM, then SIGKILL after `grace` to any that still has a member.
pub(crate) fn stop(groups: &BTreeSet<unix::pid_t>, grace: Duration) {
    for &group in groups {
        unix::terminate_group(group);
    }
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline && groups.iter().any(|&g| unix::group_exists(g)) {
        std::thread::sleep(Duration::from_millis(20));
    }
    for &group in groups {
        unix::kill_group(group);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_releases_the_warden() {
        assert_eq!(listen("+12\naside\ndone\n".as_bytes()), None);
    }

    #[test]
    fn the_end_without_done_names_what_was_left() {
        let left = listen("+12\n+13\n-12\naside\n".as_bytes()).expect("orphaned");
        assert_eq!(left.groups, BTreeSet::from([13]));
        assert!(left.aside);
        let tidy = listen("+12\naside\n-12\nback\n".as_bytes()).expect("orphaned");
        assert_eq!(tidy, Orphaned::default());
    }
}
