//! Landlock on Linux. Landlock is an allow-list with no deny rule, so "every write but the plane" is built as
//! full write rights on every sibling subtree along each protected path's ancestor chain, and no rights on the
//! ancestors themselves (so no new entry can appear directly in one of them) nor on the protected paths.
//!
//! Only write rights are handled: reading and executing are never restricted. Symbolic links met while listing
//! an ancestor are skipped (a rule on one would follow it, possibly into the plane); what they point to is
//! reached through its own real path, which has its own rule. ABI 1 is not used: it forbids moving or linking a
//! file into another directory (`mv a/x b/`), which honest work does all the time.

use std::collections::BTreeSet;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use landlock::{ABI, AccessFs, Ruleset, RulesetAttr};

use super::Protection;
use crate::plane::Plane;

/// `LANDLOCK_CREATE_RULESET_VERSION`: asks the kernel for its Landlock ABI version.
const CREATE_RULESET_VERSION: libc::c_uint = 1;

/// The kernel's Landlock support.
pub(super) fn probe() -> Protection {
    // SAFETY: with a null attribute, size 0 and the VERSION flag the call only returns a number.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    match abi {
        n if n >= 2 => Protection::Landlock {
            abi: u32::try_from(n).unwrap_or(u32::MAX),
        },
        1 => Protection::Unprotected {
            why: "this kernel's Landlock (ABI 1) cannot let files move between directories".into(),
        },
        _ => Protection::Unprotected {
            why: match io::Error::last_os_error().raw_os_error() {
                Some(libc::ENOSYS) => "this kernel has no Landlock".into(),
                Some(libc::EOPNOTSUPP) => "Landlock is disabled on this kernel (boot option `lsm=`)".into(),
                _ => format!("Landlock is not available: {}", io::Error::last_os_error()),
            },
        },
    }
}

/// A prepared Landlock domain: the ruleset's file descriptor, ready to be entered after `fork`, and the
/// directories the child grants itself before it enters, once it mounted them (`Plane::inside`).
pub(super) struct Domain {
    ruleset: OwnedFd,
    inside: Vec<std::ffi::CString>,
    rights: u64,
}

impl Domain {
    /// Builds the ruleset for `plane` on a kernel of Landlock `abi`. The rules are added with the system call
    /// itself, not the crate's `PathFd` / `PathBeneath`, which look each path up again (`fstat`, `fcntl`): the
    /// directory listing already says which entry is a directory, and this runs before every confined command
    /// (two system calls per rule instead of five; `BENCHMARKS.md`).
    pub(super) fn prepare(plane: &Plane, abi: u32) -> io::Result<Domain> {
        let abi = ABI::from(i32::try_from(abi).unwrap_or(i32::MAX));
        // Device ioctls and Unix socket connections are not writes to a file: left unhandled, hence allowed.
        let access = AccessFs::from_write(abi) & !(AccessFs::IoctlDev | AccessFs::ResolveUnix);
        let file_access = access & AccessFs::from_file(abi);
        let ruleset: Option<OwnedFd> = Ruleset::default()
            .handle_access(access)
            .and_then(Ruleset::create)
            .map_err(io::Error::other)?
            .into();
        let ruleset = ruleset.ok_or_else(|| io::Error::other("Landlock created no ruleset"))?;
        for (path, is_dir) in granted(plane) {
            let rights = if is_dir { access } else { file_access };
            add_rule(&ruleset, &path, rights.bits())
                .map_err(|e| io::Error::other(format!("`{}`: {e}", path.display())))?;
        }
        let inside = plane
            .inside()
            .iter()
            .filter_map(|dir| std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).ok())
            .collect();
        Ok(Domain {
            ruleset,
            inside,
            rights: access.bits(),
        })
    }

    /// Enters the domain (the calling thread, and everything it starts afterwards). Async-signal-safe: two
    /// system calls, no allocation, so it may run between `fork` and `exec`.
    pub(super) fn enter(fd: libc::c_int) -> io::Result<()> {
        // SAFETY: plain system calls on integers; `fd` is a Landlock ruleset kept open by the caller.
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// Enters the domain in the calling process now.
    pub(super) fn enter_now(&self) -> io::Result<()> {
        Domain::enter(self.ruleset.as_raw_fd())
    }

    /// `command`, entering this domain between `fork` and `exec` (after the steps it already takes there).
    pub(super) fn confine(self, mut command: Command) -> Command {
        let Domain {
            ruleset,
            inside,
            rights,
        } = self;
        // SAFETY: the closure only makes system calls (a rule per directory mounted in the child, then the two of
        // `enter`) on strings prepared before; the descriptor lives in the closure, which the command owns, and
        // Landlock opened it close-on-exec.
        unsafe {
            command.pre_exec(move || {
                for dir in &inside {
                    add_rule_at(&ruleset, dir, rights)?;
                }
                Domain::enter(ruleset.as_raw_fd())
            });
        }
        command
    }
}

/// `struct landlock_path_beneath_attr` (packed, as the kernel declares it).
#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// `LANDLOCK_RULE_PATH_BENEATH`.
const RULE_PATH_BENEATH: libc::c_int = 1;

/// Grants `rights` below `path`. A path that is gone (removed since it was listed) is skipped.
fn add_rule(ruleset: &OwnedFd, path: &Path, rights: u64) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return Ok(());
    };
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(c_path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if fd < 0 {
        return Ok(());
    }
    // SAFETY: `fd` was just opened and is owned here.
    let fd = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    let attr = PathBeneathAttr {
        allowed_access: rights,
        parent_fd: fd.as_raw_fd(),
    };
    // SAFETY: the attribute lives across the call; both descriptors are open.
    let done = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            RULE_PATH_BENEATH,
            std::ptr::addr_of!(attr),
            0u32,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The file system type of an overlay (`statfs`'s `f_type`; the `libc` crate does not name it). Compared as
/// `u64`: `f_type`'s type differs between glibc (`__fsword_t`) and musl (`c_ulong`).
const OVERLAYFS_SUPER_MAGIC: u64 = 0x794c_7630;

/// Grants `rights` below the directory `dir` as the calling process sees it now, where it is an overlay. Async-signal-safe (open, the
/// rule, close), for the child between `fork` and `exec`.
fn add_rule_at(ruleset: &OwnedFd, dir: &std::ffi::CStr, rights: u64) -> io::Result<()> {
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(dir.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // Only an overlay the child mounted is granted: where it could not mount one, the directory is the real one,
    // kept as the plane keeps it.
    // SAFETY: fstatfs(2) on an open descriptor into a zeroed struct it fills.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatfs(fd, &raw mut fs) } != 0 || u64::try_from(fs.f_type).ok() != Some(OVERLAYFS_SUPER_MAGIC) {
        // SAFETY: `fd` is owned here.
        unsafe { libc::close(fd) };
        return Ok(());
    }
    let attr = PathBeneathAttr {
        allowed_access: rights,
        parent_fd: fd,
    };
    // SAFETY: the attribute lives across the call; both descriptors are open; `fd` is closed here.
    unsafe {
        let done = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            RULE_PATH_BENEATH,
            std::ptr::addr_of!(attr),
            0u32,
        );
        let err = io::Error::last_os_error();
        libc::close(fd);
        if done == 0 { Ok(()) } else { Err(err) }
    }
}

/// What gets full write rights: every entry of every ancestor of a protected path that is neither protected
/// nor itself such an ancestor, with whether it is a directory. Symbolic links are skipped.
fn granted(plane: &Plane) -> Vec<(PathBuf, bool)> {
    let carved = plane
        .writable()
        .iter()
        .filter(|dir| dir.is_dir())
        .map(|dir| (dir.clone(), true));
    if plane.is_only() {
        // Nothing else: the listed directories and the devices (`/dev/null`, a terminal).
        return carved.chain([(PathBuf::from("/dev"), true)]).collect();
    }
    let protected: BTreeSet<&Path> = plane.paths().iter().map(PathBuf::as_path).collect();
    let chain: BTreeSet<&Path> = plane.paths().iter().flat_map(|p| p.ancestors().skip(1)).collect();
    let mut out = Vec::new();
    for dir in &chain {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            let path = entry.path();
            if kind.is_symlink() || protected.contains(path.as_path()) || chain.contains(path.as_path()) {
                continue;
            }
            out.push((path, kind.is_dir()));
        }
    }
    // A carve-out below a protected path: its own rule grants it, whatever its parents are denied.
    out.extend(carved);
    out
}
