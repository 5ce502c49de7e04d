//! The places outside the project that the runners read on their own, standing read-only for the whole run
//! (`room::outside::Frozen`).
//!
//! The covers (`Mount::enter`'s hidden places) show a run each place as the baseline left it when the run starts;
//! but the run's `$HOME` is its scratch, writable, so a process of the run — a make prerequisite, a build script,
//! a test — could write a `usercustomize.py` into the user site, a `.npmrc`, Go's `env` or cargo's `config`, and
//! the runner it starts next would load it, past every check made before the run. Frozen, they cannot be written:
//! a place that stands is bound read-only over itself (recursively, so what the snapshot or a cover mounts below
//! it stays), and an absent one is made in the scratch (its missing parents too, thrown away with it) as an empty
//! read-only directory or file. An absent place outside the scratch is left as it is: making it would
//! write the user's machine.
//!
//! Best effort: a place whose mount fails (gone since it was found, a file system that refuses the remount) is
//! left as it stands; the covers still hold for what was there before the run.

use std::ffi::{CStr, CString};
use std::io;
use std::path::{Path, PathBuf};

use super::{bind, check, cstring};
use crate::confine::Frozen;

/// One place, prepared before `fork`: its path, how it stands, and the parents to make first (outermost first).
#[derive(Clone, Debug)]
pub(crate) struct Place {
    path: CString,
    how: Frozen,
    parents: Vec<CString>,
}

/// The places of `frozen` a run can stand read-only, given the directories its private scratch overlays
/// (`scratch`): every place that stands, and an absent one whose nearest standing parent lies in the scratch.
pub(crate) fn prepare(frozen: &[(PathBuf, Frozen)], scratch: &[PathBuf]) -> io::Result<Vec<Place>> {
    let mut places = Vec::new();
    for (path, how) in frozen {
        let mut parents = Vec::new();
        if matches!(how, Frozen::MadeDir | Frozen::MadeFile) {
            let mut missing: Vec<&Path> = path.ancestors().skip(1).take_while(|a| !a.exists()).collect();
            let standing = path.ancestors().nth(missing.len() + 1);
            if !standing.is_some_and(|s| scratch.iter().any(|dir| s.starts_with(dir))) {
                continue;
            }
            missing.reverse();
            parents = missing.into_iter().map(cstring).collect::<io::Result<_>>()?;
        }
        places.push(Place {
            path: cstring(path)?,
            how: *how,
            parents,
        });
    }
    Ok(places)
}

impl Place {
    /// Stands the place read-only. Async-signal-safe (system calls on prepared strings), between `fork` and
    /// `exec`, after the scratch is mounted and before the covers.
    pub(super) fn stand(&self) {
        for parent in &self.parents {
            // SAFETY: mkdir(2) on a NUL-terminated path; one that exists already is what is wanted.
            unsafe { libc::mkdir(parent.as_ptr(), 0o700) };
        }
        let _ = match self.how {
            Frozen::Dir | Frozen::File => read_only(&self.path),
            Frozen::MadeDir => {
                // SAFETY: mkdir(2) on a NUL-terminated path.
                unsafe { libc::mkdir(self.path.as_ptr(), 0o700) };
                super::private::tmpfs(&self.path, libc::MS_RDONLY)
            }
            // An empty regular file, not `/dev/null`: a read-only mount does not stop a write to a device.
            Frozen::MadeFile => make_file(&self.path).and_then(|()| read_only(&self.path)),
        };
    }
}

/// Binds `path` over itself and makes that mount read-only, keeping the flags its file system locks.
fn read_only(path: &CStr) -> io::Result<()> {
    bind(path, path)?;
    let locked = locked_at(path)?;
    // SAFETY: mount(2) with a NUL-terminated string that outlives the call.
    check(unsafe {
        libc::mount(
            std::ptr::null(),
            path.as_ptr(),
            std::ptr::null(),
            libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | locked,
            std::ptr::null(),
        )
    })
}

/// Makes an empty file at `path` (none there yet) to mount on.
fn make_file(path: &CStr) -> io::Result<()> {
    // SAFETY: open(2) on a NUL-terminated path, closed at once.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC, 0o600) };
    check(fd)?;
    // SAFETY: a descriptor this function opened.
    unsafe { libc::close(fd) };
    Ok(())
}

/// The flags of the mount holding `path` that a read-only remount must repeat (see `super::locked_flags`).
fn locked_at(path: &CStr) -> io::Result<libc::c_ulong> {
    // SAFETY: statvfs(2) on a NUL-terminated path into a zeroed struct it fills.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    check(unsafe { libc::statvfs(path.as_ptr(), &raw mut stat) })?;
    Ok(super::flags_of(stat.f_flag))
}
