//! The agent's world on Linux: everything but the control plane. A confined command runs in a mount namespace
//! of its own (an unprivileged user namespace, uid and gid mapped to themselves, as `mount::probe` checks) in
//! which each path of the plane that exists is bound read-only over itself; everything else is the user's own
//! file system, writable as it is outside. Unlike a Landlock domain, which can only allow and so must close every
//! directory above a protected path to new entries, a bind names exactly what it protects: a new file in `$HOME`,
//! beside the project or in `/tmp`, `git config --global`, a tool's first run writing its cache — all work.
//!
//! What keeps the binds in place against the process they confine:
//!
//! - **Locked mounts.** After the binds the process enters a second user and mount namespace, nested in the
//!   first. The kernel copies the first namespace's mounts into it *locked* (they came from a more privileged
//!   namespace): they cannot be unmounted, nor remounted writable, by anything inside — whatever capabilities
//!   it holds in its own namespace, and however many namespaces it nests further.
//! - **Pinned ancestors.** A bind holds a dentry, not a name: renaming a directory above the store
//!   (`mv ~/.local/state x && mkdir -p ~/.local/state/loopgate`) would move the real store away and let a forged
//!   one take its name. So every directory above a protected path is bound over itself (writable) first: the
//!   kernel refuses to rename or remove a mount point (`EBUSY`), and new entries in those directories are still
//!   made as usual.
//! - **Other processes' views.** `/proc/PID/root` of a process outside the namespace (the agent CLI itself)
//!   would lead into that process's mounts, where the plane is writable; the kernel refuses it (ptrace-class
//!   access to a process of another user namespace needs `CAP_SYS_PTRACE` there).
//!
//! - **Hidden, not only read-only.** The held-out tests' store (`Plane::hidden`) is covered by an empty read-only
//!   file system: their copies, the private tree they run in and their run's logs cannot be read by anything
//!   the agent runs. The cover is locked like the binds; `/proc/PID/root` of a process outside is refused (above).
//!
//! No Landlock domain is entered: a domain forbids every mount, and honest work mounts in namespaces of its own
//! (the oracle's room for the agent's own `loopgate verify`, bubblewrap, rootless containers).
//!
//! A path of the plane that does not exist cannot be bound (there is nothing to bind over). Where it would lie in
//! a directory of its own kind — an agent CLI's configuration directory without its `settings.json` or
//! `prompts/` yet — that directory is **closed**: bound read-only, so no new entry appears in it, with each
//! entry it holds bound writable again, so what is in it stays as writable as before. `$HOME` and the
//! directories above the working directory are never closed (that was Landlock's cost): a shell startup file
//! that does not exist yet can be created, and `docs/threat-model.md` says so.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::mount::{bind, check, cstring, enter_namespace, identity_maps, locked_flags};
use crate::plane::Plane;

/// Everything the child needs, prepared before `fork`: the child only makes system calls.
#[derive(Debug)]
pub(super) struct World {
    /// Directories above a protected path, bound over themselves (outermost first), so none can be renamed.
    pins: Vec<CString>,
    /// The protected paths that exist, each with the mount flags its remount must keep.
    readonly: Vec<(CString, libc::c_ulong)>,
    /// The protected paths holding loopgate's home, whose mounts below are made read-only too: a tournament's
    /// layered trees and oracle rooms are mounts below the store (`commands::run::tournament::layer`). Only
    /// those: elsewhere a closed directory's entries are mounts below a protected path that must stay writable.
    store: Vec<CString>,
    /// Directories below a protected path that stay writable (`Plane::allow`), with their mounts' flags.
    writable: Vec<(CString, libc::c_ulong)>,
    /// Directories closed to new entries because a protected name in them does not exist yet (module docs).
    closed: Vec<Closed>,
    /// Directories covered by an empty read-only file system: not even readable (`Plane::hidden`).
    hidden: Vec<CString>,
    maps: (CString, CString),
}

/// A directory closed to new entries, its flags, and the entries it holds (bound writable again).
#[derive(Debug)]
struct Closed {
    dir: (CString, libc::c_ulong),
    entries: Vec<CString>,
}

impl World {
    /// The world of a command that may not write `plane`.
    pub(super) fn prepare(plane: &Plane) -> io::Result<World> {
        let mut readonly = Vec::new();
        let mut store = Vec::new();
        let home = crate::plane::resolve(&crate::project::loopgate_home());
        let mut pins: Vec<PathBuf> = Vec::new();
        for path in protected(plane) {
            if home.starts_with(&path) || path.starts_with(&home) {
                store.push(cstring(&path)?);
            }
            for ancestor in path.ancestors().skip(1) {
                if ancestor.parent().is_some() && !pins.iter().any(|p| p == ancestor) {
                    pins.push(ancestor.to_path_buf());
                }
            }
            readonly.push((cstring(&path)?, locked_flags(&path)?));
        }
        let writable = plane
            .writable()
            .iter()
            .filter(|dir| dir.is_dir())
            .map(|dir| Ok((cstring(dir)?, locked_flags(dir)?)))
            .collect::<io::Result<Vec<_>>>()?;
        let closed = closed(plane)?;
        for dir in &closed {
            let dir = std::path::Path::new(std::ffi::OsStr::from_bytes(dir.dir.0.as_bytes()));
            for ancestor in dir.ancestors().skip(1) {
                if ancestor.parent().is_some() && !pins.iter().any(|p| p == ancestor) {
                    pins.push(ancestor.to_path_buf());
                }
            }
        }
        // Outermost first: a pin made after one below it would not hide it (binds are recursive), but the
        // order keeps each mount point's parent a mount of this namespace already.
        pins.sort_by_key(|p| p.components().count());
        let pins = pins.iter().map(|p| cstring(p)).collect::<io::Result<Vec<_>>>()?;
        // Only what exists can be covered; a store made after the command started is one it never saw.
        let hidden = plane
            .hidden()
            .iter()
            .filter(|dir| std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()))
            .map(|dir| cstring(dir))
            .collect::<io::Result<Vec<_>>>()?;
        Ok(World {
            pins,
            readonly,
            store,
            writable,
            closed,
            hidden,
            maps: identity_maps()?,
        })
    }

    /// Enters the world: the namespace, the pins, the read-only binds, the nested namespace that locks them. Async-signal-safe (system calls on prepared strings), so it runs between `fork` and
    /// `exec`.
    ///
    /// The working directory is entered again, by its absolute path, once the binds are made: a working
    /// directory is a reference to a mount, not a name, so the one inherited from before the binds still leads
    /// into the mounts without them — `../.local/state/loopgate/seals/…` from a project in `$HOME`, or
    /// `../c1/` from a tournament's candidate, would write straight past every read-only bind.
    pub(super) fn enter(&self) -> io::Result<()> {
        // On the stack: nothing is allocated between `fork` and `exec`.
        let mut cwd = [0u8; libc::PATH_MAX as usize];
        // SAFETY: getcwd(2) writes at most `cwd.len()` bytes, NUL-terminated, into the buffer.
        check_ptr(unsafe { libc::getcwd(cwd.as_mut_ptr().cast(), cwd.len()) })?;
        enter_namespace(&self.maps.0, &self.maps.1)?;
        for pin in &self.pins {
            bind(pin, pin)?;
        }
        for closed in &self.closed {
            // Each entry a mount of its own first (writable, as it is): the directory's recursive bind below
            // carries them, and its read-only remount changes only its own mount.
            for entry in &closed.entries {
                bind(entry, entry)?;
            }
            let (dir, locked) = &closed.dir;
            bind(dir, dir)?;
            remount(dir, libc::MS_RDONLY | locked)?;
        }
        for (path, locked) in &self.readonly {
            bind(path, path)?;
            remount(path, libc::MS_RDONLY | locked)?;
            // A remount changes one mount; the recursive bind carried the mounts below it writable (`store`).
            if self.store.contains(path) {
                readonly_below(path)?;
            }
        }
        for (path, locked) in &self.writable {
            bind(path, path)?;
            remount(path, *locked)?;
        }
        // Over the read-only store: an empty file system at the held-out tests' place, locked with the rest.
        for path in &self.hidden {
            super::mount::private::tmpfs(path, libc::MS_RDONLY)?;
        }
        // The nested namespace: every mount above is copied into it locked.
        enter_namespace(&self.maps.0, &self.maps.1)?;
        // SAFETY: chdir(2) on the NUL-terminated path getcwd wrote above.
        check(unsafe { libc::chdir(cwd.as_ptr().cast()) })
    }
}

/// `getcwd`'s result: an error where it returned null.
fn check_ptr(ptr: *mut libc::c_char) -> io::Result<()> {
    if ptr.is_null() {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// `mount_setattr(2)`'s argument (`linux/mount.h`; the `libc` crate has the call's number, not the struct).
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// `MOUNT_ATTR_RDONLY` of `linux/mount.h`.
const MOUNT_ATTR_RDONLY: u64 = 0x1;

/// `mount_setattr(2)` of `path` (`flags`: `AT_RECURSIVE` or none) setting `set`; its raw result.
fn mount_setattr(path: &std::ffi::CStr, flags: libc::c_int, set: u64) -> libc::c_long {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr(2) on a NUL-terminated path and a struct of the size passed, both outliving the call.
    unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            flags,
            &raw const attr,
            std::mem::size_of::<MountAttr>(),
        )
    }
}

/// Makes every mount below `path` (and `path`'s own) read-only in this namespace. Async-signal-safe. A kernel
/// without `mount_setattr` (before 5.12) has no mounts below a protected path that loopgate made: a tournament
/// layers its candidates' trees only where the call exists ([`recursive_readonly_works`]).
fn readonly_below(path: &CString) -> io::Result<()> {
    match mount_setattr(path, libc::AT_RECURSIVE, MOUNT_ATTR_RDONLY) {
        0 => Ok(()),
        _ if io::Error::last_os_error().raw_os_error() == Some(libc::ENOSYS) => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// Whether this kernel has `mount_setattr`, which keeps mounts below the agent's read-only places read-only
/// ([`readonly_below`]): asked about an empty path, which it refuses with `ENOENT` where it exists.
pub(crate) fn recursive_readonly_works() -> bool {
    mount_setattr(c"", 0, 0) == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ENOSYS)
}

/// Remounts the bind at `path` with `flags` (read-only or not; the flags the outer namespace locked kept).
fn remount(path: &CString, flags: libc::c_ulong) -> io::Result<()> {
    // SAFETY: mount(2) with a NUL-terminated string that outlives the call.
    check(unsafe {
        libc::mount(
            std::ptr::null(),
            path.as_ptr(),
            std::ptr::null(),
            libc::MS_REMOUNT | libc::MS_BIND | flags,
            std::ptr::null(),
        )
    })
}

/// The plane's paths that exist, without those below another (a bind of a directory covers what it holds), and
/// without the root (never part of a plane, and not a thing to bind).
fn protected(plane: &Plane) -> Vec<PathBuf> {
    let existing: Vec<&PathBuf> = plane
        .paths()
        .iter()
        .filter(|p| p.parent().is_some() && std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_symlink()))
        .collect();
    existing
        .iter()
        .filter(|p| !existing.iter().any(|q| q != *p && p.starts_with(q)))
        .map(|p| (*p).clone())
        .collect()
}

/// The directories to close (see the module docs): the existing parent of each protected path that does not
/// exist, unless it is `$HOME`, the root, or the working directory or one above it.
fn closed(plane: &Plane) -> io::Result<Vec<Closed>> {
    let home = std::env::var_os("HOME").map(|h| crate::plane::resolve(Path::new(&h)));
    let cwd = std::env::current_dir().ok();
    let mut dirs: Vec<PathBuf> = Vec::new();
    for path in plane.paths() {
        if std::fs::symlink_metadata(path).is_ok() {
            continue;
        }
        let Some(dir) = path.parent().filter(|d| d.parent().is_some() && d.is_dir()) else {
            continue;
        };
        let open = home.as_deref() == Some(dir) || cwd.as_deref().is_some_and(|c| c.starts_with(dir));
        if !open && !dirs.iter().any(|d| d == dir) {
            dirs.push(dir.to_path_buf());
        }
    }
    dirs.iter()
        .map(|dir| {
            let mut entries = Vec::new();
            for entry in std::fs::read_dir(dir)?.flatten() {
                if entry.file_type().is_ok_and(|t| !t.is_symlink()) {
                    entries.push(cstring(&entry.path())?);
                }
            }
            Ok(Closed {
                dir: (cstring(dir)?, locked_flags(dir)?),
                entries,
            })
        })
        .collect()
}
