//! The process supervisor: runs one child command — the sealed verify command, or `loopgate run`'s agent — in a
//! process group of its own, streams its output, and stops the whole group on a deadline. Both callers use it,
//! so both follow the same rules with the same constants:
//!
//! - **Own group**: the child leads a new process group, and every signal goes to the whole group: SIGTERM,
//!   [`KILL_GRACE`], SIGKILL. So Ctrl-C at the terminal reaches only loopgate; every command that runs a child
//!   here (`run`, `verify`, `setup`'s baseline, the Stop hook's verify) installs `crate::interrupt`'s handlers,
//!   which stop the group before loopgate dies of the signal.
//! - **One pipe** for stdout and stderr, so their interleaving is kept, drained by one reader thread that hands
//!   each chunk to the caller's sink as it arrives. The sink decides what is kept: memory stays bounded.
//! - **The leader stays unreaped until its group is dealt with**: its exit is observed with `waitid(WNOWAIT)`,
//!   background processes it left get [`DRAIN_WINDOW`] to finish writing, then SIGKILL, and only then is the
//!   leader reaped — a group id stays reserved while any member, zombies included, exists, so `killpg` never
//!   hits an unrelated group that reused the id.
//! - **Never wait forever on the pipe**: after the group is killed only a process that left it (`setsid`) can
//!   hold the pipe; [`READER_DEADLINE`] later the reader is told to stop and its further output is dropped.
//! - **One registry** of the groups running now ([`running_groups`]), which the Ctrl-C handler (`crate::interrupt`)
//!   reads (it is async-signal-safe: atomics only). A group is listed from spawn until just before its leader is
//!   reaped, so the handler never signals a reused id. The same facts go to the warden of a tethered process
//!   (`tether`), which stops the groups still listed when the process dies without a word (SIGKILL).
//!
//! Platform code (pipes, `waitid`, `killpg`, liveness) is in `unix.rs`; it uses only calls that Linux and macOS
//! both have (no `/proc`).

pub(crate) mod tether;
pub(crate) mod unix;

#[cfg(test)]
pub(crate) mod tests;

use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub(crate) use unix::alive;

/// Time between SIGTERM and SIGKILL to the group, on a deadline, a stop, or Ctrl-C.
pub(crate) const KILL_GRACE: Duration = Duration::from_secs(2);
/// After the leader exits, how long background writers get before the rest of its group is killed. The wait
/// ends as soon as the pipe closes, so only a command that leaves a process holding it (a server, a `sleep &`)
/// pays the whole window. It is seconds, not a blink, because a runner may hand its report to a formatter that
/// outlives it (bats writes its JUnit file through `tee >(…)`): killed under load after 200 ms, that formatter
/// left a report without its failures.
pub(crate) const DRAIN_WINDOW: Duration = Duration::from_secs(5);
/// After the group is killed, how long the reader may still wait for end-of-file before it is told to stop.
pub(crate) const READER_DEADLINE: Duration = Duration::from_millis(500);
/// Bytes read from the pipe per `read` call.
const READ_CHUNK: usize = 64 * 1024;
/// How often a reader waiting for output checks whether it has been told to stop.
const POLL_TICK: Duration = Duration::from_millis(50);

/// When to stop the child early.
pub(crate) struct Watch<'a> {
    /// Stop the group (TERM, grace, KILL) once this long has passed since the spawn.
    pub(crate) timeout: Option<Duration>,
    /// Time between SIGTERM and SIGKILL; [`KILL_GRACE`] outside tests.
    pub(crate) kill_grace: Duration,
    /// Asked every so often while the child runs; `false` stops the group (e.g. the loop ended elsewhere).
    pub(crate) keep_going: Option<(Duration, &'a mut dyn FnMut() -> bool)>,
}

impl Watch<'_> {
    /// A deadline only, with the production kill grace (the tests' shorthand).
    #[cfg(test)]
    pub(crate) fn timeout(timeout: Option<Duration>) -> Self {
        Watch {
            timeout,
            kill_grace: KILL_GRACE,
            keep_going: None,
        }
    }
}

/// Why the child's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// It exited (or died of a signal) on its own.
    Exited,
    /// The watch's `timeout` passed and the group was stopped.
    TimedOut,
    /// [`Watch::keep_going`] said no and the group was stopped.
    Stopped,
}

/// How the child ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exit {
    /// Its wait status (an exit code, or the signal that killed it).
    pub(crate) status: ExitStatus,
    pub(crate) ended: Ended,
    /// From spawn to the leader's exit (including the kill grace when it was stopped).
    pub(crate) duration: Duration,
}

impl Exit {
    /// The exit code, unless a signal killed it or loopgate stopped it.
    pub(crate) fn code(&self) -> Option<i32> {
        match self.ended {
            Ended::Exited => self.status.code(),
            Ended::TimedOut | Ended::Stopped => None,
        }
    }

    /// The signal that killed the leader, if one did.
    pub(crate) fn signal(&self) -> Option<i32> {
        self.status.signal()
    }
}

/// What went wrong around the child (never the child's own failure, which is an [`Exit`]).
#[derive(Debug)]
pub(crate) enum Failure {
    /// The pipe, the child or a thread could not be started.
    Spawn(io::Error),
    /// Waiting for the child failed (e.g. SIGCHLD is ignored, so it was reaped behind our back).
    Wait(io::Error),
    /// Reading its output failed.
    Read(io::Error),
}

/// Runs `command` to its exit or until `watch` stops it, feeding its output (stdout and stderr in one stream) to
/// `sink` as it arrives. Stdout, stderr and the process group are set here; stdin is `input` through a pipe, or
/// `/dev/null`. The command is consumed: it holds copies of the pipe's write end, which must be closed for the
/// reader to see end-of-file.
pub(crate) fn run(
    mut command: Command,
    input: Option<Vec<u8>>,
    mut watch: Watch<'_>,
    sink: &mut (dyn FnMut(&[u8]) + Send),
) -> Result<Exit, Failure> {
    // A warden must be there before the child is: it stops the group if this process dies without a word.
    tether::ensure();
    let (pipe, pipe_writer) = unix::output_pipe().map_err(Failure::Spawn)?;
    let out = pipe_writer.try_clone().map_err(Failure::Spawn)?;
    command
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(out)
        .stderr(pipe_writer)
        .process_group(0);
    let start = Instant::now();
    let child = command.spawn().map_err(Failure::Spawn)?;
    drop(command);
    let mut group = Group::new(child);
    if let (Some(input), Some(mut stdin)) = (input, group.child.stdin.take()) {
        // Detached: a child that never reads could block this write; one that exits without reading gives EPIPE
        // (an error to drop, since `loopgate run` ignores SIGPIPE and verify never feeds stdin).
        thread::Builder::new()
            .name("child-stdin".into())
            .spawn(move || {
                let _ = io::Write::write_all(&mut stdin, &input);
            })
            .map_err(Failure::Spawn)?;
    }
    let pid = group.pid;
    let (exit_tx, exit_rx) = mpsc::channel();
    thread::Builder::new()
        .name("child-wait".into())
        .spawn(move || {
            let _ = exit_tx.send(unix::wait_exited_keep_zombie(pid));
        })
        .map_err(Failure::Spawn)?;

    let stop_reading = AtomicBool::new(false);
    let (done_tx, done_rx) = mpsc::channel();
    thread::scope(|scope| {
        let reader = thread::Builder::new()
            .name("child-output".into())
            .spawn_scoped(scope, || {
                let result = pump(pipe, sink, &stop_reading);
                let _ = done_tx.send(());
                result
            })
            .map_err(Failure::Spawn)?;
        let ended = supervise(pid, &exit_rx, &mut watch).map_err(|err| {
            // Leaving the scope joins the reader: it must not wait for a child that is still running.
            unix::kill_group(pid);
            stop_reading.store(true, Ordering::SeqCst);
            Failure::Wait(err)
        })?;
        let duration = start.elapsed();
        // The leader is a zombie now: give background writers a moment, then kill what is left of its group.
        let drained = done_rx.recv_timeout(DRAIN_WINDOW).is_ok();
        unix::kill_group(pid);
        let status = group.reap().map_err(|err| {
            stop_reading.store(true, Ordering::SeqCst);
            Failure::Wait(err)
        })?;
        if !drained && done_rx.recv_timeout(READER_DEADLINE).is_err() {
            stop_reading.store(true, Ordering::SeqCst);
        }
        let read = reader
            .join()
            .map_err(|_| Failure::Read(io::Error::other("the output reader panicked")))?;
        read.map_err(Failure::Read)?;
        Ok(Exit {
            status,
            ended,
            duration,
        })
    })
}

/// Waits for the leader's exit, stopping the group when `watch` says so; returns why it ended.
fn supervise(pid: unix::pid_t, exited: &Receiver<io::Result<()>>, watch: &mut Watch<'_>) -> io::Result<Ended> {
    let start = Instant::now();
    let mut last_check = start;
    let mut ended = Ended::Exited;
    let mut term_sent: Option<Instant> = None;
    let mut kill_sent = false;
    loop {
        let now = Instant::now();
        // Sleep until the next thing to do: a check, the deadline, the SIGKILL — or the exit, which wakes us.
        let mut wake = Duration::MAX;
        match term_sent {
            None => {
                if let Some(limit) = watch.timeout {
                    wake = wake.min(limit.saturating_sub(now - start));
                }
                if let Some((every, _)) = &watch.keep_going {
                    wake = wake.min(every.saturating_sub(now - last_check));
                }
            }
            Some(sent) if !kill_sent => wake = watch.kill_grace.saturating_sub(now - sent),
            Some(_) => {}
        }
        match exited.recv_timeout(wake) {
            Ok(result) => return result.map(|()| ended),
            Err(RecvTimeoutError::Disconnected) => return Err(io::Error::other("the exit watcher stopped")),
            Err(RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        match term_sent {
            None => {
                if watch.timeout.is_some_and(|limit| now - start >= limit) {
                    ended = Ended::TimedOut;
                } else if let Some((every, keep_going)) = &mut watch.keep_going
                    && now - last_check >= *every
                {
                    last_check = now;
                    if !keep_going() {
                        ended = Ended::Stopped;
                    }
                }
                if ended != Ended::Exited {
                    unix::terminate_group(pid);
                    term_sent = Some(now);
                }
            }
            Some(sent) if !kill_sent && now - sent >= watch.kill_grace => {
                unix::kill_group(pid);
                kill_sent = true;
            }
            Some(_) => {}
        }
    }
}

/// Reads the pipe into `sink` until end-of-file, or until `stop` is set (a process outside the group still
/// holds the write end).
fn pump(mut pipe: io::PipeReader, sink: &mut (dyn FnMut(&[u8]) + Send), stop: &AtomicBool) -> io::Result<()> {
    use std::io::Read;
    use std::os::fd::AsFd;
    let mut buf = vec![0u8; READ_CHUNK];
    while !stop.load(Ordering::SeqCst) {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => sink(&buf[..n]),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => unix::wait_readable(pipe.as_fd(), POLL_TICK)?,
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// The running child and its process group, listed in the registry until it is reaped. On drop (an early
/// return) the group is killed and the leader reaped, so no error path leaves a child running.
struct Group {
    child: std::process::Child,
    pid: unix::pid_t,
    reaped: bool,
}

impl Group {
    fn new(child: std::process::Child) -> Group {
        // `Child::id` is the kernel's pid_t, widened to u32; the cast gives it back.
        #[allow(clippy::cast_possible_wrap)]
        let pid = child.id() as unix::pid_t;
        register(pid);
        Group {
            child,
            pid,
            reaped: false,
        }
    }

    fn reap(&mut self) -> io::Result<ExitStatus> {
        unregister(self.pid);
        let status = self.child.wait()?;
        self.reaped = true;
        Ok(status)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.reaped {
            unregister(self.pid);
            unix::kill_group(self.pid);
            let _ = self.child.wait();
        }
    }
}

/// Slots of the registry: at most this many supervised children at once (`loopgate run` has the agent, then a
/// verify; tests run a few in parallel). A child that finds no free slot still runs; Ctrl-C then cannot see it.
const SLOTS: usize = 16;
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

fn register(pid: unix::pid_t) {
    tether::group(pid, true);
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

fn unregister(pid: unix::pid_t) {
    tether::group(pid, false);
    for slot in &GROUPS {
        let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// The process groups of the supervised children running now. Async-signal-safe (atomic loads only).
pub(crate) fn running_groups() -> impl Iterator<Item = unix::pid_t> {
    GROUPS
        .iter()
        .map(|slot| slot.load(Ordering::SeqCst))
        .filter(|&pid| pid > 1)
}

/// SIGKILLs every running group at once. Async-signal-safe: for the second Ctrl-C, from a signal handler.
pub(crate) fn kill_all_now() {
    for pid in running_groups() {
        unix::kill_group(pid);
    }
}
