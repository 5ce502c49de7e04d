//! The run's private scratch (issue 39, item 2): inside the room's namespace, the places outside its tree that a
//! run writes on its own — `$HOME` (`~/.node-spawn-wrap-*`, a tool's lock file, `git config --global`), `/tmp`,
//! `/var/tmp` and loopgate's home — are each an overlay whose lower layer is the place as it is and whose upper
//! layer lives on a file system made for this run alone. The run reads every file there as it is and may write
//! anything; what it writes lands in the upper layer and is gone with the namespace (the last process of the run
//! ending, a timeout's kill included): nothing a run of the agent's code wrote there is read by a later run, and
//! nothing outside the run ever sees it. No directory has to be closed to protect a name inside them: the control
//! plane under these places (the store, `~/.claude`, the shell's startup files) is written only in the run's
//! throw-away copy, and the store is hidden besides (`Mount::enter`).
//!
//! Order matters, and every path the child needs after a place is overlaid is reached through a descriptor opened
//! before: the scratch file system is mounted on an empty directory of the room, the places and the mounts below
//! them are opened, each place is overlaid (`lowerdir=/proc/self/fd/N`, so no path needs escaping), and then the
//! room's real directory — its tree with the user's bound directories, its caches, the reports — is bound back
//! over its own path, which now lies in an overlay when the room is under `$HOME` or `/tmp`. The tree, the
//! read-only sealed files and the hidden store are mounted after, on top.
//!
//! Landlock cannot grant an overlay from outside: its files are inodes of their own that the parent, which
//! prepares the ruleset, cannot name. So the places are handed to the confinement as directories the child grants
//! once they are mounted (`Plane::allow_inside`), and only where an overlay is there: a place the child could not
//! overlay stays the real one, kept as the plane keeps it. Where `/tmp` is overlaid the run's temporary directory
//! is that `/tmp` (`room::Placed::confine`).
//!
//! Limits: the upper layers live in memory (a `tmpfs`), so a run that writes gigabytes into `$HOME` holds them in
//! memory (and swap) until it ends; a process of the run that left its process group and outlives it keeps its
//! scratch, unseen by anyone else, until it ends too.

use std::ffi::{CStr, CString};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::{bind, check, cstring};

/// The name of the room's directory the scratch file system is mounted on (covered again before the run).
pub(crate) const STAGING: &str = "scratch";

/// The most layers of one place (the place and the mounts below it) handled; a place with more is left as it is.
const MAX_LAYERS: usize = 32;

/// Where the run's writes outside its tree go, prepared before `fork`.
#[derive(Clone, Debug)]
pub(crate) struct Private {
    /// The room's real directory, bound back once the places are overlaid.
    room: CString,
    /// The room's empty directory the scratch file system is mounted on.
    staging: CString,
    /// Each place (the outermost of those asked for), with the mounts below it, outermost first.
    places: Vec<Vec<Layer>>,
    /// The room's own caches the run must not leave anything in for a later run (`room::caches`, at a promise):
    /// each overlaid once the room is bound back, its lower layer what the baseline's run filled.
    fresh: Vec<Layer>,
    /// Where the upper layers of `fresh` are kept past the run, on disk, for the judge to read what the run wrote
    /// into the room's caches ([`Private::keeping`]); `None`: in the scratch, gone with the run.
    kept: Option<CString>,
}

/// One layer of a place: a directory overlaid, or a file (a mount of a single file below a place) bound back.
#[derive(Clone, Debug)]
struct Layer {
    path: CString,
    dir: bool,
    /// Names of its upper and work directories in the scratch file system.
    upper: CString,
    work: CString,
    /// The snapshot's layer for this directory (`room::snapshot`), laid over it as the top lower layer.
    snapshot: Option<CString>,
}

impl Private {
    /// The scratch for `places` (each made canonical; one inside another is covered by the outer one; `/` and
    /// what does not exist are skipped) for a room at `room`, with each of `nested` (the snapshot's places, see
    /// `room::snapshot`) overlaid on its own inside the place holding it, or as a place of its own; `None` where
    /// this machine cannot overlay them (see [`probe`]) or nothing is left.
    pub(crate) fn prepare(
        places: &[PathBuf],
        nested: &[PathBuf],
        room: &Path,
        fresh: &[PathBuf],
    ) -> io::Result<Option<Private>> {
        if Private::probe().is_err() {
            return Ok(None);
        }
        Self::build(places, nested, room, fresh)
    }

    /// [`Private::prepare`] without the probe.
    pub(crate) fn build(
        places: &[PathBuf],
        nested: &[PathBuf],
        room: &Path,
        fresh: &[PathBuf],
    ) -> io::Result<Option<Private>> {
        let canonical = |paths: &[PathBuf]| -> Vec<PathBuf> {
            let mut out: Vec<PathBuf> = paths
                .iter()
                .filter_map(|p| p.canonicalize().ok())
                .filter(|p| p.is_dir() && p.parent().is_some())
                .collect();
            out.sort();
            out.dedup();
            out
        };
        let outer = canonical(places);
        let nested = canonical(nested);
        let mut kept: Vec<PathBuf> = outer
            .iter()
            .filter(|p| !outer.iter().any(|o| o != *p && p.starts_with(o)))
            .cloned()
            .collect();
        // A snapshot's place in none of the places is a place of its own.
        kept.extend(
            nested
                .iter()
                .filter(|n| !outer.iter().any(|o| n.starts_with(o)))
                .cloned(),
        );
        let mounts = mount_points();
        let mut layers = 0;
        let mut groups = Vec::new();
        for place in kept {
            let mut below: Vec<(PathBuf, bool)> = nested
                .iter()
                .filter(|n| n.starts_with(&place) && **n != place)
                .map(|n| (n.clone(), true))
                .collect();
            below.extend(
                mounts
                    .iter()
                    .filter(|m| m.starts_with(&place) && **m != place)
                    .map(|m| (m.clone(), std::fs::metadata(m).is_ok_and(|meta| meta.is_dir()))),
            );
            // Outer before inner (a stable sort keeps the mount table's order of mounts at one path).
            below.sort_by(|a, b| a.0.cmp(&b.0));
            let mut group = vec![(place.clone(), true)];
            group.extend(below);
            if group.len() > MAX_LAYERS {
                continue;
            }
            let group = group
                .into_iter()
                .map(|(path, dir)| {
                    layers += 1;
                    Ok(Layer {
                        path: cstring(&path)?,
                        dir,
                        upper: CString::new(format!("{layers}u")).map_err(io::Error::other)?,
                        work: CString::new(format!("{layers}w")).map_err(io::Error::other)?,
                        snapshot: None,
                    })
                })
                .collect::<io::Result<Vec<_>>>()?;
            groups.push(group);
        }
        let fresh = canonical(fresh)
            .into_iter()
            .map(|path| {
                layers += 1;
                Ok(Layer {
                    path: cstring(&path)?,
                    dir: true,
                    upper: CString::new(format!("{layers}u")).map_err(io::Error::other)?,
                    work: CString::new(format!("{layers}w")).map_err(io::Error::other)?,
                    snapshot: None,
                })
            })
            .collect::<io::Result<Vec<_>>>()?;
        if groups.is_empty() && fresh.is_empty() {
            return Ok(None);
        }
        let room = room.canonicalize()?;
        let staging = room.join(STAGING);
        std::fs::create_dir_all(&staging)?;
        Ok(Some(Private {
            room: cstring(&room)?,
            staging: cstring(&staging)?,
            places: groups,
            fresh,
            kept: None,
        }))
    }

    /// This scratch with the upper layers of the room's caches in `dir` (an empty directory of loopgate's, on disk)
    /// rather than in the scratch's memory: what the run wrote into those caches outlives it there, for the judge
    /// to compare (`oracle::steps`: bytecode a step wrote), while the run itself sees the caches as before and
    /// cannot reach `dir` (covered once the caches are overlaid). Whoever keeps them removes `dir` after judging:
    /// nothing in it is read by a later run, which is given a directory of its own or none.
    pub(crate) fn keeping(&self, dir: &Path) -> io::Result<Private> {
        Ok(Private {
            kept: Some(cstring(&dir.canonicalize()?)?),
            ..self.clone()
        })
    }

    /// Where a run [`Private::keeping`] its caches in `dir` kept the upper layer of the cache `cache` (what it
    /// wrote there, laid out as the cache is); `None` for a path that is no cache of the room's.
    pub(crate) fn kept_upper(&self, dir: &Path, cache: &Path) -> Option<PathBuf> {
        use std::os::unix::ffi::OsStrExt;
        let cache = cache.canonicalize().ok()?;
        let layer = self
            .fresh
            .iter()
            .find(|layer| Path::new(std::ffi::OsStr::from_bytes(layer.path.to_bytes())) == cache)?;
        Some(dir.join(std::ffi::OsStr::from_bytes(layer.upper.to_bytes())))
    }

    /// The directories overlaid, for the confinement to grant once they are mounted.
    pub(crate) fn dirs(&self) -> Vec<PathBuf> {
        use std::os::unix::ffi::OsStrExt;
        self.places
            .iter()
            .flatten()
            .chain(&self.fresh)
            .filter(|layer| layer.dir)
            .map(|layer| PathBuf::from(std::ffi::OsStr::from_bytes(layer.path.to_bytes())))
            .collect()
    }

    /// Lays the snapshot's layer over each overlaid directory that holds part of it, and
    /// returns the held paths that the run will read from the snapshot: those under an overlaid directory and
    /// under none of the mounts below it. A layer that cannot be built leaves its paths out (the promise
    /// compares them instead).
    pub(crate) fn present(&mut self, snapshot: &dyn crate::confine::Presenter) -> Vec<PathBuf> {
        use std::os::unix::ffi::OsStrExt;
        let mut presented = Vec::new();
        let store = crate::plane::resolve(snapshot.store());
        for group in &mut self.places {
            let paths: Vec<PathBuf> = group
                .iter()
                .map(|layer| PathBuf::from(std::ffi::OsStr::from_bytes(layer.path.to_bytes())))
                .collect();
            for (i, layer) in group.iter_mut().enumerate() {
                let place = &paths[i];
                // overlayfs refuses a layer inside another of the same mount: a place holding the store presents
                // nothing itself (its held files are bound one by one, see `Snapshot::file_binds`).
                if !layer.dir || store.starts_with(place) {
                    continue;
                }
                let deeper: Vec<PathBuf> = paths
                    .iter()
                    .filter(|p| *p != place && p.starts_with(place))
                    .cloned()
                    .collect();
                let Some((dir, paths)) = snapshot.layer(place, &deeper) else {
                    continue;
                };
                let Ok(dir) = cstring(&dir) else { continue };
                layer.snapshot = Some(dir);
                presented.extend(paths);
            }
        }
        presented
    }

    /// Mounts the scratch, overlays the places and binds the room back. Async-signal-safe (system calls on
    /// prepared strings, the options written into a buffer on the stack), so it runs between `fork` and `exec`,
    /// inside the namespace.
    pub(crate) fn enter(&self) -> io::Result<()> {
        // Opened first, as the room is: the room may lie in a place overlaid below.
        let kept = match &self.kept {
            Some(kept) => Some(Fd::open(kept)?),
            None => None,
        };
        tmpfs(&self.staging, 0)?;
        let staging = Fd::open(&self.staging)?;
        let room = Fd::open(&self.room)?;
        for group in &self.places {
            // Every layer is opened before its place is overlaid: the mounts below it are hidden after.
            let mut lower: [Option<Fd>; MAX_LAYERS] = Default::default();
            let mut tops: [Option<Fd>; MAX_LAYERS] = Default::default();
            for ((slot, top), layer) in lower.iter_mut().zip(tops.iter_mut()).zip(group) {
                *slot = Some(Fd::open(&layer.path)?);
                if let Some(snapshot) = &layer.snapshot {
                    *top = Some(Fd::open(snapshot)?);
                }
            }
            for (i, ((fd, top), layer)) in lower.iter().flatten().zip(&tops).zip(group).enumerate() {
                let mut source = Buf::new();
                source.fd_path(fd.0);
                if !layer.dir {
                    bind(source.as_cstr()?, &layer.path)?;
                    continue;
                }
                match overlay(&staging, top.as_ref(), fd, layer) {
                    Ok(()) => {}
                    // A place the snapshot must be presented in: no run sees it as the agent left it.
                    Err(err) if top.is_some() => return Err(err),
                    // The place itself could not be overlaid (its file system cannot be a lower layer): it stays
                    // as it is, real, and confinement keeps what it kept before the scratch (the child grants
                    // only overlays, see `Plane::allow_inside`) — unless the snapshot is presented in it.
                    Err(err) if i == 0 && group.iter().any(|l| l.snapshot.is_some()) => return Err(err),
                    Err(_) if i == 0 => break,
                    // A mount below an overlaid place: back as it was rather than hidden.
                    Err(_) => bind(source.as_cstr()?, &layer.path)?,
                }
            }
        }
        let mut source = Buf::new();
        source.fd_path(room.0);
        bind(source.as_cstr()?, &self.room)?;
        for layer in &self.fresh {
            // A cache that cannot be overlaid stays the real one: the run is then as warm, and as trusting, as
            // before the scratch. Where its upper layer cannot be kept on disk (a file system overlayfs takes
            // no upper layer from), it is the scratch's, and the judge finds nothing kept.
            if let Ok(lower) = Fd::open(&layer.path) {
                let on_disk = kept
                    .as_ref()
                    .is_some_and(|kept| overlay(kept, None, &lower, layer).is_ok());
                if !on_disk {
                    let _ = overlay(&staging, None, &lower, layer);
                }
            }
        }
        if let Some(kept) = &self.kept {
            // The kept layers stay reachable by the overlays alone: the run does not see them.
            tmpfs(kept, 0)?;
        }
        // The layers stay reachable by the overlays alone: the run does not see them.
        tmpfs(&self.staging, 0)
    }
}

/// Overlays `layer` (its lower layer open as `lower`, the snapshot's layer above it as `top`) with upper and
/// work directories made in `staging`.
fn overlay(staging: &Fd, top: Option<&Fd>, lower: &Fd, layer: &Layer) -> io::Result<()> {
    let upper = staging.dir_at(&layer.upper)?;
    let work = staging.dir_at(&layer.work)?;
    let mut options = Buf::new();
    options.push(b"lowerdir=");
    if let Some(top) = top {
        options.fd_path(top.0);
        options.push(b":");
    }
    options.fd_path(lower.0);
    options.push(b",upperdir=");
    options.fd_path(upper.0);
    options.push(b",workdir=");
    options.fd_path(work.0);
    options.push(b",userxattr");
    let overlay = c"overlay";
    // SAFETY: mount(2) with NUL-terminated strings that outlive the call.
    check(unsafe {
        libc::mount(
            overlay.as_ptr(),
            layer.path.as_ptr(),
            overlay.as_ptr(),
            0,
            options.as_cstr()?.as_ptr().cast(),
        )
    })
}

/// An empty private file system at `path` (the scratch's own, and what hides a directory in the room and in the
/// agent's world), with `extra` mount flags (`MS_RDONLY` where nothing may be written into it either).
pub(in crate::confine) fn tmpfs(path: &CStr, extra: libc::c_ulong) -> io::Result<()> {
    let tmpfs = c"tmpfs";
    // SAFETY: mount(2) with NUL-terminated strings that outlive the call.
    check(unsafe {
        libc::mount(
            tmpfs.as_ptr(),
            path.as_ptr(),
            tmpfs.as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | extra,
            c"mode=0700".as_ptr().cast(),
        )
    })
}

/// A descriptor opened with `O_PATH`, closed when dropped.
struct Fd(libc::c_int);

impl Fd {
    fn open(path: &CStr) -> io::Result<Fd> {
        // SAFETY: open(2) on a NUL-terminated path.
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
        check(fd)?;
        Ok(Fd(fd))
    }

    /// The directory `name` made (mode 0700) and opened below this one.
    fn dir_at(&self, name: &CStr) -> io::Result<Fd> {
        // SAFETY: mkdirat(2) and openat(2) on a NUL-terminated name below an open directory.
        unsafe {
            check(libc::mkdirat(self.0, name.as_ptr(), 0o700))?;
            let fd = libc::openat(
                self.0,
                name.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            );
            check(fd)?;
            Ok(Fd(fd))
        }
    }
}

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: the descriptor is owned here.
        unsafe {
            libc::close(self.0);
        }
    }
}

/// A NUL-terminated string built on the stack (no allocation between `fork` and `exec`).
struct Buf {
    bytes: [u8; 192],
    len: usize,
}

impl Buf {
    fn new() -> Buf {
        Buf {
            bytes: [0; 192],
            len: 0,
        }
    }

    fn push(&mut self, text: &[u8]) {
        for &b in text {
            if self.len + 1 < self.bytes.len() {
                self.bytes[self.len] = b;
                self.len += 1;
            }
        }
    }

    /// `/proc/self/fd/N`: the path a mount takes for an open descriptor.
    fn fd_path(&mut self, fd: libc::c_int) {
        self.push(b"/proc/self/fd/");
        let mut digits = [0u8; 10];
        let mut n = fd.unsigned_abs();
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.push(&digits[i..]);
    }

    fn as_cstr(&self) -> io::Result<&CStr> {
        CStr::from_bytes_with_nul(&self.bytes[..=self.len]).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
    }
}

/// Every mount point of this process's namespace (`/proc/self/mountinfo`'s fifth field, its octal escapes read).
fn mount_points() -> Vec<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let Ok(text) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| line.split(' ').nth(4))
        .map(|field| {
            let mut out = Vec::new();
            let bytes = field.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                let octal = bytes
                    .get(i + 1..i + 4)
                    .filter(|d| bytes[i] == b'\\' && d.iter().all(u8::is_ascii_digit));
                match octal.and_then(|d| u8::from_str_radix(std::str::from_utf8(d).ok()?, 8).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 4;
                    }
                    None => {
                        out.push(bytes[i]);
                        i += 1;
                    }
                }
            }
            PathBuf::from(std::ffi::OsString::from_vec(out))
        })
        .collect()
}

impl Private {
    /// Whether this machine can overlay a place inside the room's namespace (unprivileged overlayfs, the upper
    /// layer on a private file system), probed once per process with a child that overlays a directory of its
    /// own and writes there; the reason where it cannot. Where it cannot, the run writes those places as before
    /// the scratch (and confinement closes the directories above the control plane).
    pub(crate) fn probe() -> Result<(), String> {
        static PROBED: OnceLock<Result<(), String>> = OnceLock::new();
        PROBED
            .get_or_init(|| {
                let dir = std::env::temp_dir().join(format!("loopgate-scratch-probe-{}", std::process::id()));
                let probed = probe_in(&dir);
                let _ = std::fs::remove_dir_all(&dir);
                probed
            })
            .clone()
    }
}

/// [`Private::probe`] in the directory `dir`.
fn probe_in(dir: &Path) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let (place, room) = (dir.join("place"), dir.join("room"));
    for made in [&place, &room] {
        std::fs::create_dir_all(made).map_err(|e| e.to_string())?;
    }
    let private = Private::build(std::slice::from_ref(&place), &[], &room, &[])
        .map_err(|e| e.to_string())?
        .ok_or("nothing to overlay")?;
    let maps = super::identity_maps().map_err(|e| e.to_string())?;
    let mut child = std::process::Command::new("/bin/sh");
    child
        .arg("-c")
        .arg(format!(
            "test -d '{}' && : > '{}/written'",
            room.display(),
            place.display()
        ))
        .stdin(std::process::Stdio::null());
    // SAFETY: the closure makes system calls on strings prepared before the fork.
    unsafe {
        child.pre_exec(move || {
            super::enter_namespace(&maps.0, &maps.1)?;
            private.enter()
        });
    }
    match child.status() {
        Ok(status) if status.success() && !place.join("written").exists() => Ok(()),
        Ok(status) if status.success() => Err("a write into an overlaid place reached the place".into()),
        Ok(status) => Err(format!("a process overlaying a place ended with {status}")),
        Err(err) => Err(format!("this kernel refuses an overlay in a user namespace ({err})")),
    }
}
