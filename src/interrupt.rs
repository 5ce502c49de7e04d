//! Ctrl-C, SIGTERM and SIGHUP for the commands that run the verify command or change the working tree:
//! `loopgate run`, `verify`, `rollback`, `setup` (its baseline), and the Stop hook while it runs the verify
//! (Claude Code stops a hook that runs past its timeout). Without this, the first signal would kill
//! loopgate at once and leave behind what only loopgate can tidy: the verify command running on as an orphan
//! (it leads a process group of its own, so the terminal's SIGINT never reaches it), the agent's test files in
//! the stash (`crate::testswap`), a log half written.
//!
//! So the first signal is caught, and the command finishes its own way: every supervised group is stopped (the
//! supervisor's registry, [`process::running_groups`]), the run returns as stopped, the stash is put back, and a
//! verify not yet started is not started ([`check`]). The command then reports and calls [`reraise`], so the
//! parent shell sees a death by the signal (128 + N, 130 for SIGINT), as Unix tools do. Locks are `flock`s,
//! released when the process ends.
//!
//! The handler does only async-signal-safe work: it counts, and on the first signal wakes a watcher thread
//! through a self-pipe; on the second it SIGKILLs every running group and `_exit`s with 130 at once (a person
//! who presses Ctrl-C twice wants out; test files a killed run left in the stash are put back at once by the
//! process's warden where one runs — the Stop hook's and `loopgate verify`'s, `crate::process::tether` — else
//! by the next stop, `loopgate verify` or `loopgate cancel`, from the stash's journal).
//!
//! No handler runs for SIGKILL (an agent CLI's hook timeout may send it): the warden covers that too.
//!
//! The watcher, on the first signal: runs the command's `on_interrupt` (`loopgate run` records `cancelled`
//! there, under the project lock, **before** stopping anything, so a verify that dies of the signal is dropped
//! by the stop logic instead of being recorded as a failure); then SIGTERM to each group, SIGKILL after
//! [`process::KILL_GRACE`], and the same for any group that starts afterwards.

use std::io::{self, Read};
use std::os::fd::IntoRawFd;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::exit_codes;
use crate::process::{self, unix};

/// Signals received so far.
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// The first signal's number.
static FIRST: AtomicI32 = AtomicI32::new(0);
/// Write end of the self-pipe, -1 before [`install`].
static WAKE: AtomicI32 = AtomicI32::new(-1);
/// Set by the first [`install`]; later calls change nothing (the first command's `on_interrupt` stays).
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Set once the watcher has recorded the cancellation and signalled the groups.
static HANDLED: AtomicBool = AtomicBool::new(false);

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Installs the handlers and the watcher; `on_interrupt` (record the cancellation) runs on the watcher thread
/// at the first signal. SIGPIPE is ignored from here on: a closed terminal pipe or an agent that does not read
/// its stdin must give an error to handle, not kill loopgate with the agent still running.
pub(crate) fn install(on_interrupt: impl FnOnce(i32) + Send + 'static) -> io::Result<()> {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    let (reader, writer) = io::pipe()?;
    let write_fd = writer.into_raw_fd();
    // A full pipe must not block the handler.
    unix::set_nonblocking(write_fd)?;
    WAKE.store(write_fd, Ordering::SeqCst);
    thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || watch(reader, on_interrupt))?;
    for signal in SIGNALS {
        set_handler(signal, on_signal as *const () as libc::sighandler_t)?;
    }
    set_handler(libc::SIGPIPE, libc::SIG_IGN)
}

/// Installs the handlers for a command with nothing to record at the first signal (`verify`, `rollback`,
/// `setup`, the Stop hook before it runs the verify): the groups are stopped, the command notices
/// [`requested`] and tidies up.
pub(crate) fn install_quiet() -> io::Result<()> {
    install(|_| {})
}

/// `Err(signal)` once a signal arrived: what a command checks before it starts something it would only have to
/// stop again (a verify run).
pub(crate) fn check() -> Result<(), i32> {
    requested().map_or(Ok(()), Err)
}

/// The first signal, once one arrived.
pub(crate) fn requested() -> Option<i32> {
    (COUNT.load(Ordering::SeqCst) > 0).then(|| FIRST.load(Ordering::SeqCst))
}

/// Waits (bounded) until the watcher has recorded the cancellation and signalled the groups.
pub(crate) fn wait_handled() {
    let deadline = Instant::now() + crate::fsutil::LOCK_WAIT + Duration::from_secs(2);
    while !HANDLED.load(Ordering::SeqCst) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
}

/// `SIGINT`, `SIGTERM`, `SIGHUP`.
pub(crate) fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Dies of `signal` with its default action, so the parent sees how loopgate ended; exits 128 + N if that
/// somehow returns.
pub(crate) fn reraise(signal: i32) -> u8 {
    let _ = set_handler(signal, libc::SIG_DFL);
    // SAFETY: raising a signal whose action is now the default one.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut set);
        libc::sigaddset(&raw mut set, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &raw const set, std::ptr::null_mut());
        libc::raise(signal);
    }
    u8::try_from(128 + signal).unwrap_or(exit_codes::INTERRUPTED)
}

extern "C" fn on_signal(signal: libc::c_int) {
    if COUNT.fetch_add(1, Ordering::SeqCst) == 0 {
        FIRST.store(signal, Ordering::SeqCst);
        let fd = WAKE.load(Ordering::SeqCst);
        // SAFETY: write(2) is async-signal-safe; a failure leaves nothing to do (errno is not read).
        unsafe { libc::write(fd, [1u8].as_ptr().cast(), 1) };
        return;
    }
    // The second signal: no more politeness (atomic loads and killpg: async-signal-safe).
    process::kill_all_now();
    // SAFETY: _exit is async-signal-safe; nothing is flushed or unwound, on purpose.
    unsafe { libc::_exit(i32::from(exit_codes::INTERRUPTED)) };
}

fn watch(mut reader: io::PipeReader, on_interrupt: impl FnOnce(i32)) {
    let mut byte = [0u8; 1];
    loop {
        match reader.read(&mut byte) {
            Ok(1) => break,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            _ => return,
        }
    }
    on_interrupt(FIRST.load(Ordering::SeqCst));
    // TERM every group seen (now or later), KILL it after the grace.
    let mut seen: Vec<(libc::pid_t, Instant, bool)> = Vec::new();
    loop {
        let now = Instant::now();
        for group in process::running_groups() {
            match seen.iter_mut().find(|(g, ..)| *g == group) {
                None => {
                    unix::terminate_group(group);
                    seen.push((group, now, false));
                }
                Some((_, since, killed)) if !*killed && now - *since >= process::KILL_GRACE => {
                    unix::kill_group(group);
                    *killed = true;
                }
                Some(_) => {}
            }
        }
        HANDLED.store(true, Ordering::SeqCst);
        thread::sleep(Duration::from_millis(50));
    }
}

fn set_handler(signal: libc::c_int, handler: libc::sighandler_t) -> io::Result<()> {
    // SAFETY: a zeroed sigaction is valid; we fill the handler, an empty mask and SA_RESTART (so reads and
    // waits in other threads are restarted, not failed with EINTR).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&raw mut action.sa_mask);
        if libc::sigaction(signal, &raw const action, std::ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
