//! The system calls behind a tournament's layered trees (`commands::run::tournament::layer`): the tournament
//! process enters a user and mount namespace of its own, mounts there one overlay per candidate (the shared
//! checkout below, the candidate's own upper layer above), and each candidate's process, between `fork` and
//! `exec`, enters a mount namespace of its own in which the other candidates' overlays are taken away.
//!
//! Why the tournament itself, not each candidate: everything loopgate does to a candidate's tree from outside
//! the candidate — the seal copied in, its starting checkpoint, its history read for the live table, its work
//! committed — then sees the same merged tree at the same path, with no second code path.

use std::ffi::CString;
use std::io;
use std::path::Path;

use super::{check, cstring, enter_namespace, identity_maps};

/// Moves this process into a user and mount namespace of its own (its uid and gid mapped to themselves, its
/// mounts private), where it may mount. The kernel refuses this to a process with more than one thread, so it
/// is done before the tournament starts any; `Err` says why it could not be.
pub(crate) fn enter() -> io::Result<()> {
    let threads = std::fs::read_dir("/proc/self/task")?.count();
    if threads != 1 {
        return Err(io::Error::other(format!(
            "the tournament already runs {threads} threads"
        )));
    }
    let (uid_map, gid_map) = identity_maps()?;
    enter_namespace(&uid_map, &gid_map)
}

/// Mounts at `at` the overlay of `lower` (read-only, shared) and `upper` (this tree's own writes, `work` the
/// kernel's scratch beside it, on the same file system).
pub(crate) fn overlay(lower: &Path, upper: &Path, work: &Path, at: &Path) -> io::Result<()> {
    Overlay::new(lower, upper, work, at)?.mount()
}

/// An overlay's mount, prepared (its strings made) before a fork, mounted after it.
#[derive(Debug)]
pub(crate) struct Overlay {
    options: CString,
    at: CString,
}

impl Overlay {
    /// The overlay of `lower` and `upper` (with `work`) at `at`.
    pub(crate) fn new(lower: &Path, upper: &Path, work: &Path, at: &Path) -> io::Result<Overlay> {
        let mut options = std::ffi::OsString::from("lowerdir=");
        options.push(escaped(lower)?);
        options.push(",upperdir=");
        options.push(escaped(upper)?);
        options.push(",workdir=");
        options.push(escaped(work)?);
        options.push(",userxattr");
        Ok(Overlay {
            options: cstring(Path::new(&options))?,
            at: cstring(at)?,
        })
    }

    /// Mounts it. Async-signal-safe.
    pub(crate) fn mount(&self) -> io::Result<()> {
        let overlay = c"overlay";
        // SAFETY: mount(2) with NUL-terminated strings that outlive the call.
        check(unsafe {
            libc::mount(
                overlay.as_ptr(),
                self.at.as_ptr(),
                overlay.as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                self.options.as_ptr().cast(),
            )
        })
    }
}

/// `path` as an overlay option's value: the option string separates with `,` and `:` and escapes with `\`,
/// so a path holding one of them is refused rather than misread.
fn escaped(path: &Path) -> io::Result<&std::ffi::OsStr> {
    let text = path.as_os_str();
    if text.as_encoded_bytes().iter().any(|b| matches!(b, b',' | b':' | b'\\')) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "`{}` holds `,`, `:` or `\\`, which an overlay's options cannot name",
                path.display()
            ),
        ));
    }
    Ok(text)
}

/// What one candidate's process does between `fork` and `exec`: a mount namespace of its own (the tournament's
/// user namespace lets it), without the other candidates' overlays (`others`), whose mount points are then the
/// empty directories of the store that the candidate's world keeps read-only, and with `own` mounted (its
/// oracle room's tree). Async-signal-safe: system calls on strings prepared before the fork.
pub(crate) fn alone(others: &[CString], own: Option<&Overlay>) -> io::Result<()> {
    // SAFETY: unshare(2) and umount2(2) on NUL-terminated strings the caller keeps alive.
    unsafe {
        check(libc::unshare(libc::CLONE_NEWNS))?;
        for other in others {
            check(libc::umount2(other.as_ptr(), libc::MNT_DETACH))?;
        }
    }
    own.map_or(Ok(()), Overlay::mount)
}

/// Takes the overlay at `at` away in this namespace (before its directory is removed); a place where none is
/// mounted is fine.
pub(crate) fn detach(at: &Path) {
    if let Ok(at) = cstring(at) {
        // SAFETY: umount2(2) on a NUL-terminated path; its failure (nothing mounted there) is ignored.
        unsafe {
            libc::umount2(at.as_ptr(), libc::MNT_DETACH);
        }
    }
}

/// The C strings of `paths`, prepared before a fork.
pub(crate) fn paths(paths: &[&Path]) -> io::Result<Vec<CString>> {
    paths.iter().map(|p| cstring(p)).collect()
}
