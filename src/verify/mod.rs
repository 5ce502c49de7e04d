//! The verify runner: runs the sealed verify command, the loop's oracle, and records what it did.
//!
//! `/bin/sh -c CMD` runs in the project root with stdin from `/dev/null`, in a process group of its
//! own. Its stdout and stderr share one pipe, so their interleaving is kept and one reader thread
//! drains it. Invariants:
//!
//! - **Bounded memory**: whatever the command prints (1 GiB of `yes`), only a small head, a tail
//!   ring and a 64 KiB read buffer are held; the log file is bounded too (see [`capture`]).
//! - **Never wait forever on a pipe**: a grandchild (`sleep 100 &`, a daemon that ignores SIGTERM)
//!   can keep the pipe open after the shell exits. The shell's exit is what counts; after it the
//!   rest of its group is an orphan and gets SIGKILL, and the reader gets a deadline after which it
//!   stops even if a process that left the group still holds the pipe.
//! - **Timeout**: SIGTERM to the whole group, [`KILL_GRACE`], SIGKILL to the group,
//!   reap. Signals go to the group only while its leader is an unreaped zombie or alive, so the
//!   group id cannot have been reused.
//! - A command that does not exist is a failed verify (the shell prints why and exits 127), not an
//!   error; errors are only for what keeps the oracle from running or being recorded.

mod capture;
mod error;
#[cfg(test)]
mod tests;
pub(crate) mod unix;

pub use error::VerifyError;

use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use capture::{Capture, Limits};

/// Time between SIGTERM and SIGKILL to the group on timeout.
pub const KILL_GRACE: Duration = Duration::from_secs(2);
/// After the shell exits, how long background writers get before the rest of the group is killed.
const DRAIN_WINDOW: Duration = Duration::from_millis(100);
/// After the group is killed, how long the reader may still wait for end-of-file; past that only a
/// process that left the group (`setsid`) holds the pipe, and its further output is not captured.
const READER_DEADLINE: Duration = Duration::from_millis(500);

/// The process group of the verify command running now, 0 when none: `loopgate run` stops it on Ctrl-C.
/// Set once the shell is spawned and cleared before it is reaped, so it never names a group whose id could
/// have been reused.
pub static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);

/// What to run and where to log it.
#[derive(Debug, Clone)]
pub struct VerifyRequest<'a> {
    /// The shell command, run as `/bin/sh -c COMMAND`.
    pub command: &'a str,
    /// Working directory (the project root).
    pub cwd: &'a Path,
    /// Wall-clock limit, after which the whole process group is terminated.
    pub timeout: Duration,
    /// The bounded log of the full output; parent directories are created.
    pub log_path: &'a Path,
}

/// What the verify command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyOutcome {
    /// The shell's exit code; `None` when it was killed by a signal or timed out.
    pub exit_code: Option<i32>,
    /// The signal that killed the shell, if one did (on timeout: SIGTERM or SIGKILL, usually).
    pub signal: Option<i32>,
    /// True when the timeout elapsed and the group was terminated.
    pub timed_out: bool,
    /// From spawn to the shell's exit (including the kill grace on timeout).
    pub duration: Duration,
    /// Bytes the command printed, stdout and stderr together.
    pub total_bytes: u64,
    /// The first 8 KiB of output.
    pub head: Vec<u8>,
    /// The last 32 KiB of output (overlaps `head` when the output is short).
    pub tail: Vec<u8>,
    /// The bounded log of the full output.
    pub log_path: PathBuf,
}

impl VerifyOutcome {
    /// True only for exit code 0 within the timeout.
    pub fn passed(&self) -> bool {
        !self.timed_out && self.exit_code == Some(0)
    }

    /// The status a shell would report: the exit code, 128+N for death by signal N, and 124 for a
    /// timeout (as coreutils `timeout` does).
    pub fn exit_status_for_shell(&self) -> i32 {
        match (self.timed_out, self.exit_code, self.signal) {
            (true, _, _) => 124,
            (false, Some(code), _) => code,
            (false, None, Some(signal)) => 128 + signal,
            (false, None, None) => 1,
        }
    }

    /// The last `max_lines` lines of the output, as lossy UTF-8 without a trailing newline.
    pub fn tail_text(&self, max_lines: usize) -> String {
        let text = String::from_utf8_lossy(&self.tail);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        if max_lines == 0 {
            return String::new();
        }
        let start = text.rmatch_indices('\n').nth(max_lines - 1).map_or(0, |(at, _)| at + 1);
        text[start..].to_owned()
    }

    /// The captured output as lossy UTF-8: all of it when head and tail cover it, else the head,
    /// a `…` line and the tail. This is what failure summaries and fingerprints read.
    pub fn output_text(&self) -> String {
        let total = usize::try_from(self.total_bytes).unwrap_or(usize::MAX);
        if total <= self.tail.len() {
            return String::from_utf8_lossy(&self.tail).into_owned();
        }
        if total <= self.head.len() + self.tail.len() {
            let mut whole = self.head.clone();
            whole.extend_from_slice(&self.tail[self.head.len() + self.tail.len() - total..]);
            return String::from_utf8_lossy(&whole).into_owned();
        }
        format!(
            "{}\n…\n{}",
            String::from_utf8_lossy(&self.head),
            String::from_utf8_lossy(&self.tail)
        )
    }
}

/// Runs the verify command to completion or timeout; see the module docs for the guarantees.
pub fn run(req: &VerifyRequest) -> Result<VerifyOutcome, VerifyError> {
    run_with(req, Limits::DEFAULT, KILL_GRACE)
}

fn run_with(req: &VerifyRequest, limits: Limits, kill_grace: Duration) -> Result<VerifyOutcome, VerifyError> {
    let log_err = |source| VerifyError::Log {
        path: req.log_path.to_owned(),
        source,
    };
    let spawn_err = |source| VerifyError::Spawn {
        command: req.command.to_owned(),
        cwd: req.cwd.to_owned(),
        source,
    };
    let wait_err = |source| VerifyError::Wait {
        command: req.command.to_owned(),
        source,
    };

    let capture = Capture::create(req.log_path, limits).map_err(log_err)?;
    let (pipe, pipe_writer) = unix::output_pipe().map_err(spawn_err)?;
    let start = Instant::now();
    let mut group = Group::spawn(req, pipe_writer).map_err(spawn_err)?;
    let pid = group.pid;

    let stop = Arc::new(AtomicBool::new(false));
    let (done_tx, done_rx) = mpsc::channel();
    let reader = {
        let stop = Arc::clone(&stop);
        thread::Builder::new()
            .name("verify-output".into())
            .spawn(move || {
                let result = capture::pump(pipe, capture, &stop);
                let _ = done_tx.send(());
                result
            })
            .map_err(spawn_err)?
    };
    let (exit_tx, exit_rx) = mpsc::channel();
    thread::Builder::new()
        .name("verify-wait".into())
        .spawn(move || {
            let _ = exit_tx.send(unix::wait_exited_keep_zombie(pid));
        })
        .map_err(spawn_err)?;

    let timed_out = if wait_exit(&exit_rx, req.timeout).map_err(wait_err)? {
        false
    } else {
        unix::terminate_group(pid);
        if !wait_exit(&exit_rx, kill_grace).map_err(wait_err)? {
            unix::kill_group(pid);
            wait_exit(&exit_rx, Duration::MAX).map_err(wait_err)?;
        }
        true
    };
    let duration = start.elapsed();

    // The shell is a zombie now. Give background writers a moment, then kill what is left of its
    // group: those processes are orphans, and may hold the pipe open.
    let drained = done_rx.recv_timeout(DRAIN_WINDOW).is_ok();
    unix::kill_group(pid);
    let status = group.reap().map_err(wait_err)?;
    if !drained && done_rx.recv_timeout(READER_DEADLINE).is_err() {
        stop.store(true, Ordering::Relaxed);
    }
    let (capture, read_error) = reader.join().map_err(|_| VerifyError::Read {
        command: req.command.to_owned(),
        source: io::Error::other("reader panicked"),
    })?;
    let captured = capture.finish().map_err(log_err)?;
    if let Some(source) = read_error {
        return Err(VerifyError::Read {
            command: req.command.to_owned(),
            source,
        });
    }

    Ok(VerifyOutcome {
        exit_code: if timed_out { None } else { status.code() },
        signal: status.signal(),
        timed_out,
        duration,
        total_bytes: captured.total,
        head: captured.head,
        tail: captured.tail,
        log_path: req.log_path.to_owned(),
    })
}

/// Waits up to `timeout` for the exit watcher; `Ok(true)` once the shell has exited.
fn wait_exit(rx: &Receiver<io::Result<()>>, timeout: Duration) -> io::Result<bool> {
    match rx.recv_timeout(timeout) {
        Ok(result) => result.map(|()| true),
        Err(RecvTimeoutError::Timeout) => Ok(false),
        Err(RecvTimeoutError::Disconnected) => Err(io::Error::other("exit watcher stopped")),
    }
}

/// The running shell and its process group; on drop (an early return) the group is killed and the
/// shell reaped, so no error path leaves a verify running.
struct Group {
    child: Child,
    pid: unix::pid_t,
    reaped: bool,
}

impl Group {
    fn spawn(req: &VerifyRequest, out: io::PipeWriter) -> io::Result<Group> {
        // The Command holds the parent's copies of the write end; it is dropped at the end of this
        // function, so the reader sees end-of-file once the children close theirs.
        let child = Command::new("/bin/sh")
            .arg("-c")
            .arg(req.command)
            .current_dir(req.cwd)
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .process_group(0)
            .spawn()?;
        // `Child::id` is the kernel's pid_t, widened to u32; the cast gives it back.
        #[allow(clippy::cast_possible_wrap)]
        let pid = child.id() as unix::pid_t;
        RUNNING_GROUP.store(pid, Ordering::SeqCst);
        Ok(Group {
            child,
            pid,
            reaped: false,
        })
    }

    fn reap(&mut self) -> io::Result<ExitStatus> {
        let _ = RUNNING_GROUP.compare_exchange(self.pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        let status = self.child.wait()?;
        self.reaped = true;
        Ok(status)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.reaped {
            let _ = RUNNING_GROUP.compare_exchange(self.pid, 0, Ordering::SeqCst, Ordering::SeqCst);
            unix::kill_group(self.pid);
            let _ = self.child.wait();
        }
    }
}
