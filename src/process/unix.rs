//! Unix process plumbing for the supervisor: the output pipe, process-group signals, waiting for a child to exit
//! *without reaping it*, and whether a process is alive. Only POSIX calls that Linux and macOS both have; no
//! `/proc`.
//!
//! Why not reap at once: a process group id stays reserved while any member, zombies included,
//! exists. Keeping the shell (the group leader) as an unreaped zombie until the rest of its group
//! has been sent SIGKILL means `killpg` can never hit an unrelated group that reused the id.

use std::io::{self, PipeReader, PipeWriter};
use std::os::fd::{AsRawFd, BorrowedFd};
use std::time::Duration;

pub(crate) use libc::pid_t;

/// A pipe for the command's stdout and stderr: the write end goes to the child twice, the read end
/// is non-blocking so the reader can notice a stop request while a grandchild keeps the pipe open.
/// Both ends are close-on-exec (std's `io::pipe`), so no other child inherits the write end.
pub(crate) fn output_pipe() -> io::Result<(PipeReader, PipeWriter)> {
    let (reader, writer) = io::pipe()?;
    set_nonblocking(reader.as_raw_fd())?;
    Ok((reader, writer))
}

pub(crate) fn set_nonblocking(fd: libc::c_int) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own; F_GETFL/F_SETFL take and return plain integers.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Waits until `fd` is readable (data or end-of-file) or `timeout` passes. `EINTR` counts as a
/// timeout: the caller loops anyway.
pub(super) fn wait_readable(fd: BorrowedFd<'_>, timeout: Duration) -> io::Result<()> {
    let mut pfd = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd, count 1.
    if unsafe { libc::poll(&raw mut pfd, 1, millis) } < 0 {
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    Ok(())
}

/// Blocks until process `pid` (our child) has exited, leaving it a zombie (`WNOWAIT`) so that its pid, and with
/// it the process-group id, stays reserved until `Child::wait` reaps it. Retried on EINTR.
pub(super) fn wait_exited_keep_zombie(pid: pid_t) -> io::Result<()> {
    let id = libc::id_t::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    loop {
        // SAFETY: siginfo_t is plain data; zeroed is a valid value and waitid only writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointer to `info`; P_PID with our own child's pid.
        if unsafe { libc::waitid(libc::P_PID, id, &raw mut info, libc::WEXITED | libc::WNOWAIT) } == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Sends SIGTERM to every process in group `pgid`. A group that is already empty is not an error.
pub(crate) fn terminate_group(pgid: pid_t) {
    signal_group(pgid, libc::SIGTERM);
}

/// Sends SIGKILL to every process in group `pgid`. A group that is already empty is not an error.
pub(crate) fn kill_group(pgid: pid_t) {
    signal_group(pgid, libc::SIGKILL);
}

/// Sends `signal` to every process in group `pgid`.
pub(crate) fn signal_group(pgid: pid_t, signal: libc::c_int) {
    // Never signal group 0 or 1 (our own group, or everything): only a real child's group.
    if pgid > 1 {
        // SAFETY: killpg has no memory effects. ESRCH (group gone) and EPERM (a member changed
        // credentials) leave nothing for us to do, so the result is deliberately ignored.
        unsafe { libc::killpg(pgid, signal) };
    }
}

/// Whether group `pgid` still has a member (zombies count, as in [`alive`]).
pub(crate) fn group_exists(pgid: pid_t) -> bool {
    // SAFETY: signal 0 to a group only checks that it exists and may be signalled.
    pgid > 1
        && (unsafe { libc::killpg(pgid, 0) } == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Whether process `pid` exists (it may belong to another user): `kill(pid, 0)`, the portable liveness check.
/// A zombie — exited, not yet reaped by its parent — still counts as alive, for the moment its parent takes to
/// reap it; telling it apart needs `/proc` on Linux and `sysctl` on macOS, which this deliberately avoids.
pub(crate) fn alive(pid: u32) -> bool {
    let Ok(pid) = pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    unsafe { libc::kill(pid, 0) == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM) }
}
