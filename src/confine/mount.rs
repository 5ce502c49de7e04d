//! The room's tree at the project's own path (Linux): the verify command runs in a mount namespace of its own,
//! entered between `fork` and `exec` with an unprivileged user namespace (what `unshare -Ur` and bubblewrap
//! do), where the room's copy of the tree (`tree`) is mounted over the project's directory, so absolute paths in
//! configuration and snapshots keep working. Inside it:
//!
//! - the user's dependency and version-control directories (`tree::BOUND`) are mounted back at their place;
//! - `$HOME`, `/tmp`, `/var/tmp` and loopgate's home are the run's own throw-away overlays (`private`): what it
//!   writes there never reaches the user's machine or the next run;
//! - loopgate's home is hidden (each directory beside the room's way down under an empty private file system,
//!   each file under `/dev/null`), but for the room itself (its caches and temporary directory): the run
//!   cannot read the seal store, the held-out tests or another loop's room;
//! - the uid and gid are the user's own (mapped to themselves), so the run is no root: permission tests keep
//!   their verdict. What the namespace changes: files of other users (root's `/usr`) show as `nobody`, and
//!   set-uid programs do not gain privileges.
//!
//! Landlock's confinement (`confine`) is entered after the mounts (a Landlock domain forbids mounting): the run
//! still cannot write outside its tree, its caches and what the plane leaves open. Where the kernel refuses
//! user namespaces, [`probe`] says why and the run is today's (setup and `status` say so).

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub(crate) mod frozen;
pub(crate) mod layer;
pub(crate) mod private;

pub(crate) use private::Private;

/// Everything the child needs, prepared before `fork`: the child only makes system calls. (A descriptor opened
/// before the namespace cannot be the source of a bind inside it, so every mount names paths, and the user's
/// directories are bound into the copy before the copy covers the project.)
#[derive(Clone, Debug)]
pub struct Mount {
    root: CString,
    tree: CString,
    /// `(the project's directory, its mount point in the copy)` of each bound directory.
    binds: Vec<(CString, CString)>,
    /// What is covered: of loopgate's home, and the places outside the project that were not there at the
    /// baseline (`room::outside`); directories by an empty file system, files by `/dev/null`.
    hide: Vec<(CString, bool)>,
    /// The sealed test files and data, at the project's path: each bound read-only over itself once the copy
    /// covers the project, so no write of the run (a shared mapping, `truncate`, a write through
    /// `/proc/self/fd`, a rename over it) changes what the tests read. Files, not their directories: a test
    /// may create files beside itself.
    readonly: Vec<CString>,
    /// The flags the copy's mount has that a read-only remount inside a user namespace must keep (the kernel
    /// refuses to drop a flag the outer namespace locked).
    locked: libc::c_ulong,
    uid_map: CString,
    gid_map: CString,
    /// The room's real directory (for files a run in the namespace writes for loopgate, e.g. the trace).
    room: PathBuf,
    /// The run's private scratch over `$HOME`, `/tmp` and the like (see `private`), where this machine has one.
    private: Option<Private>,
    /// The paths held by the snapshot that the run reads from it (`room::snapshot`).
    presented: Vec<PathBuf>,
    /// `(object, path)`: held files no overlay of the snapshot presents, each bound from its object.
    held: Vec<(CString, CString)>,
    /// `(binary, stand-in, private path)`: each binary bound at its private path, then the stand-in bound over
    /// it (the start channel at the binary, `room::hook::binary`).
    standins: Vec<(CString, CString, CString)>,
    /// The places outside the project the runners read on their own, read-only for the whole run (`frozen`).
    frozen: Vec<frozen::Place>,
}

impl Mount {
    /// The mounts for a run of the project at `root` in its copy `tree`, with `bound` (project-relative) mounted
    /// from the project, the places of `private` the run's own throw-away copies, loopgate's `home` hidden but for
    /// `room`, the places of `outside` covered, the `sealed` files (project-relative) read-only, and the
    /// `snapshot` (with its store) presented where it is held, and the room's caches of `fresh` overlaid so that
    /// nothing the run writes there is read by a later run.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn prepare(
        root: &Path,
        tree: &Path,
        bound: &[String],
        private: &[PathBuf],
        fresh: &[PathBuf],
        home: &Path,
        room: &Path,
        outside: &[(PathBuf, bool)],
        sealed: &[String],
        snapshot: Option<&dyn crate::confine::Presenter>,
    ) -> io::Result<Mount> {
        let root = root.canonicalize()?;
        let room = room.canonicalize()?;
        let tree = tree.canonicalize()?;
        let binds = bound
            .iter()
            .map(|relative| Ok((cstring(&root.join(relative))?, cstring(&tree.join(relative))?)))
            .collect::<io::Result<Vec<_>>>()?;
        let home = crate::plane::resolve(home);
        let mut hide = Vec::new();
        if !root.starts_with(&home) && !home.starts_with(&root) {
            // Every entry beside the room's way down from the home: the room itself stays visible.
            let mut keep = room.as_path();
            while let Some(parent) = keep.parent().filter(|p| p.starts_with(&home)) {
                for entry in std::fs::read_dir(parent)?.flatten() {
                    let path = entry.path();
                    let Ok(kind) = entry.file_type() else { continue };
                    if path != keep && !kind.is_symlink() {
                        hide.push((cstring(&path)?, kind.is_dir()));
                    }
                }
                keep = parent;
            }
        }
        for (path, is_dir) in outside {
            hide.push((cstring(path)?, *is_dir));
        }
        let mut readonly = Vec::new();
        for relative in sealed {
            if std::fs::symlink_metadata(tree.join(relative)).is_ok_and(|m| m.is_file()) {
                readonly.push(cstring(&root.join(relative))?);
            }
        }
        if readonly.len() > MAX_READONLY {
            readonly.clear();
        }
        let locked = if readonly.is_empty() { 0 } else { locked_flags(&tree)? };
        let (uid_map, gid_map) = identity_maps()?;
        let nested = snapshot.map_or_else(Vec::new, |snapshot| {
            snapshot.places(&root, &[home.clone(), crate::plane::resolve(snapshot.store())])
        });
        let mut private = Private::prepare(private, &nested, &room, fresh)?;
        let mut presented = match (&mut private, snapshot) {
            (Some(private), Some(snapshot)) => private.present(snapshot),
            _ => Vec::new(),
        };
        let mut held = Vec::new();
        if let Some(snapshot) = snapshot {
            for (object, path) in snapshot.file_binds(&presented) {
                held.push((cstring(&object)?, cstring(&path)?));
                presented.push(path);
            }
        }
        Ok(Mount {
            root: cstring(&root)?,
            tree: cstring(&tree)?,
            binds,
            hide,
            readonly,
            locked,
            uid_map,
            gid_map,
            private,
            presented,
            held,
            room,
            standins: Vec::new(),
            frozen: Vec::new(),
        })
    }

    /// Has the run find the places of `places` read-only (see `frozen`): those that stand, and those absent
    /// whose parent lies in the run's private scratch, made there. Mounted before what is hidden, so a cover
    /// below a place lies on top of it.
    pub(crate) fn freeze(&mut self, places: &[(PathBuf, crate::confine::Frozen)]) -> io::Result<()> {
        self.frozen = frozen::prepare(places, &self.private_dirs())?;
        Ok(())
    }

    /// Has the run find each binary of `standins` (`(binary, stand-in, private path)`) replaced by its stand-in,
    /// the binary itself bound at its private path (see `room::hook::binary`). Bound last but for the sealed
    /// files and what is hidden, over the tree and the snapshot, so a binary they present is the one covered.
    pub(crate) fn stand_in(&mut self, standins: &[(PathBuf, PathBuf, PathBuf)]) -> io::Result<()> {
        self.standins = standins
            .iter()
            .map(|(binary, standin, private)| Ok((cstring(binary)?, cstring(standin)?, cstring(private)?)))
            .collect::<io::Result<_>>()?;
        Ok(())
    }

    /// The directories the run writes in its private scratch (see `private`): the confinement grants them once
    /// they are mounted.
    pub(crate) fn private_dirs(&self) -> Vec<PathBuf> {
        self.private.as_ref().map(Private::dirs).unwrap_or_default()
    }

    /// This namespace with the upper layers of the room's caches kept in `dir` past the run (see
    /// `Private::keeping`); itself where it overlays no cache.
    pub(crate) fn keeping_caches(&self, dir: &Path) -> io::Result<Mount> {
        let private = match &self.private {
            Some(private) => Some(private.keeping(dir)?),
            None => None,
        };
        Ok(Mount {
            private,
            ..self.clone()
        })
    }

    /// Where a run [`Mount::keeping_caches`] in `dir` kept what it wrote into the room's cache `cache`.
    pub(crate) fn kept_upper(&self, dir: &Path, cache: &Path) -> Option<PathBuf> {
        self.private.as_ref()?.kept_upper(dir, cache)
    }

    /// The held paths the run reads from the snapshot (see `room::snapshot`).
    pub(crate) fn presented(&self) -> &[PathBuf] {
        &self.presented
    }

    /// A path in the room's real directory, which the run sees at the same path.
    pub(crate) fn in_room(&self, name: &str) -> PathBuf {
        self.room.join(name)
    }

    /// Enters the namespace and makes the mounts. Async-signal-safe (system calls on prepared strings, no
    /// allocation), so it runs between `fork` and `exec`.
    pub(crate) fn enter(&self) -> io::Result<()> {
        enter_namespace(&self.uid_map, &self.gid_map)?;
        for (source, target) in &self.binds {
            bind(source, target)?;
        }
        // Before the tree: the project may lie in a place overlaid, and the tree must cover the overlay.
        if let Some(private) = &self.private {
            private.enter()?;
        }
        bind(&self.tree, &self.root)?;
        for (object, path) in &self.held {
            bind(object, path)?;
        }
        for (binary, standin, private) in &self.standins {
            // A binary gone since the baseline has nothing to stand in at: the run finds what is there.
            match bind(binary, private) {
                Err(err) if err.raw_os_error() == Some(libc::ENOENT) => continue,
                other => other?,
            }
            bind(standin, binary)?;
        }
        for path in &self.readonly {
            bind(path, path)?;
            // SAFETY: mount(2) with a NUL-terminated string that outlives the call.
            check(unsafe {
                libc::mount(
                    std::ptr::null(),
                    path.as_ptr(),
                    std::ptr::null(),
                    libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | self.locked,
                    std::ptr::null(),
                )
            })?;
        }
        for place in &self.frozen {
            place.stand();
        }
        for (path, is_dir) in &self.hide {
            let covered = if *is_dir {
                private::tmpfs(path, libc::MS_RDONLY)
            } else {
                bind(c"/dev/null", path)
            };
            // A place gone since it was found there (another process's transient file) has nothing to hide.
            match covered {
                Err(err) if err.raw_os_error() == Some(libc::ENOENT) => {}
                other => other?,
            }
        }
        // The working directory was entered before the mounts: enter it again, now the copy.
        // SAFETY: chdir(2) on a NUL-terminated path.
        check(unsafe { libc::chdir(self.root.as_ptr()) })
    }
}

/// Whether this machine can run the verify command in a mount namespace of its own, probed once per process
/// with a child that enters one; the reason where it cannot.
pub(crate) fn probe() -> Result<(), String> {
    static PROBED: OnceLock<Result<(), String>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            use std::os::unix::process::CommandExt;
            let maps = identity_maps().map_err(|e| e.to_string())?;
            let mut child = std::process::Command::new("/bin/sh");
            child.args(["-c", "exit 0"]).stdin(std::process::Stdio::null());
            // SAFETY: the closure makes system calls on strings prepared before the fork.
            unsafe {
                child.pre_exec(move || enter_namespace(&maps.0, &maps.1));
            }
            match child.status() {
                Ok(status) if status.success() => Ok(()),
                Ok(status) => Err(format!("a process in a mount namespace of its own ended with {status}")),
                Err(err) => Err(format!("this kernel refuses an unprivileged user namespace ({err})")),
            }
        })
        .clone()
}

/// The uid and gid maps of a user namespace in which this process keeps its own ids: no root inside, files
/// keep their owners, permission checks their verdict.
pub(super) fn identity_maps() -> io::Result<(CString, CString)> {
    // SAFETY: getuid and getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    Ok((
        CString::new(format!("{uid} {uid} 1\n")).map_err(io::Error::other)?,
        CString::new(format!("{gid} {gid} 1\n")).map_err(io::Error::other)?,
    ))
}

/// Enters a new user and mount namespace with the caller's own uid and gid, its mounts private to it.
pub(super) fn enter_namespace(uid_map: &CString, gid_map: &CString) -> io::Result<()> {
    // SAFETY: plain system calls on NUL-terminated strings prepared by the caller.
    unsafe {
        check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
        write_file(c"/proc/self/setgroups", c"deny")?;
        write_file(c"/proc/self/uid_map", uid_map)?;
        write_file(c"/proc/self/gid_map", gid_map)?;
        check(libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))
    }
}

/// Writes `text` to the file at `path` (open, one write, close).
unsafe fn write_file(path: &std::ffi::CStr, text: &std::ffi::CStr) -> io::Result<()> {
    // SAFETY: open/write/close on NUL-terminated strings the caller keeps alive.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd)?;
        let bytes = text.to_bytes();
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        if written < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A recursive bind mount of `source` at `target`.
pub(super) fn bind(source: &std::ffi::CStr, target: &std::ffi::CStr) -> io::Result<()> {
    // SAFETY: mount(2) with NUL-terminated strings that outlive the call.
    check(unsafe {
        libc::mount(
            source.as_ptr(),
            target.as_ptr(),
            std::ptr::null(),
            libc::MS_BIND | libc::MS_REC,
            std::ptr::null(),
        )
    })
}

/// The most sealed files bound read-only: two mounts each, and the kernel caps a namespace's mounts
/// (`fs.mount-max`, 100,000 by default). Beyond it none is, and the watch during the run is the guard of the test
/// side, as where the tree is not mounted.
const MAX_READONLY: usize = 20_000;

/// `statvfs`'s flag for `relatime` (the kernel's `ST_RELATIME`; the `libc` crate names it for glibc only).
const ST_RELATIME: libc::c_ulong = 4096;

/// The mount flags of the file system holding `path` that a remount must repeat.
pub(super) fn locked_flags(path: &Path) -> io::Result<libc::c_ulong> {
    let path = cstring(path)?;
    // SAFETY: statvfs(2) on a NUL-terminated path into a zeroed struct it fills.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    check(unsafe { libc::statvfs(path.as_ptr(), &raw mut stat) })?;
    Ok(flags_of(stat.f_flag))
}

/// The mount flags a remount must repeat for a file system whose `statvfs` flags are `f_flag`.
pub(super) fn flags_of(f_flag: libc::c_ulong) -> libc::c_ulong {
    let pairs = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (ST_RELATIME, libc::MS_RELATIME),
    ];
    pairs
        .iter()
        .filter(|(st, _)| f_flag & st != 0)
        .fold(0, |flags, (_, ms)| flags | ms)
}

pub(super) fn check(result: libc::c_int) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

pub(super) fn cstring(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{}` holds a NUL byte", path.display()),
        )
    })
}
