//! Writing loopgate's own files without following a link someone else planted.
//!
//! loopgate's hooks run unconfined, as the user, and the agent can write the project, `.claude/` included. A link
//! it plants where loopgate writes (`.claude/pua-loop-history.jsonl -> ~/.bashrc`, `.claude/loopgate ->
//! ~/.config/x`) would make loopgate append, create or rename outside the project on its behalf. So every file
//! loopgate writes is reached from a trusted root one component at a time:
//!
//! - the root is opened as given (the user chose it, links and all): for a project file the directory holding
//!   `.claude/`; elsewhere — the store under `$LOOPGATE_HOME`, which the OS keeps from the agent's commands
//!   (`plane`), install's places — the file's own directory (see [`split`]);
//! - each directory below it with `openat(O_NOFOLLOW | O_DIRECTORY)`, a missing one made with `mkdirat`;
//! - the file itself with `O_NOFOLLOW`, and `O_EXCL` where loopgate creates it (a temp file, a log, a marker);
//! - a replaced file is written to a new temp file in that directory and renamed over the name with `renameat`
//!   on the directory's descriptor, which replaces a link at the name instead of following it.
//!
//! A link in the way is an error naming it ([`planted`]); nothing is written through it. A file written in place
//! (the history, a lock, a log) must be a regular file with one link: a hard link made to `~/.bashrc` is refused
//! the same way, and a FIFO cannot hang the open (`O_NONBLOCK`, which regular files ignore).
//!
//! Only POSIX calls both Linux and macOS have: `openat`, `mkdirat`, `renameat`, `unlinkat`, `fstatat`.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

/// A directory reached without following links, and its name for messages.
pub(crate) struct Dir {
    fd: OwnedFd,
    /// The directory as errors name it: relative to a project root (`.claude/loopgate`), else in full.
    shown: PathBuf,
}

/// The error for a link loopgate did not make: "`.claude/x` is a symbolic link loopgate did not make; remove it".
pub(crate) fn planted(shown: &Path) -> io::Error {
    io::Error::other(format!(
        "`{}` is a symbolic link loopgate did not make; remove it",
        shown.display()
    ))
}

fn not_plain(shown: &Path, what: &str) -> io::Error {
    io::Error::other(format!(
        "`{}` is {what}, not a file loopgate made; remove it",
        shown.display()
    ))
}

/// Splits a path loopgate writes into its trusted root and the part below it, which is walked without following
/// links. In a project every file loopgate writes lies under `.claude/` and is named `pua-loop…` or
/// `loopgate…` there (`project::STATE_FILE`, `HISTORY_FILE`, `CONTEXT_FILE`, `WORK_DIR`, the request), so the
/// root is the directory holding the first `.claude` followed by such a name (a project at `~/.claude` keeps its
/// own `.claude/`). Anything else (the store, install's places, a test's temp directory): the file's own
/// directory, so the file itself is never followed. The flag says whether the root is a project's (errors then
/// name the path from it, `.claude/…`; else in full).
pub(crate) fn split(path: &Path) -> (PathBuf, PathBuf, bool) {
    let parts: Vec<Component> = path.components().collect();
    let ours = |c: &Component| {
        let Component::Normal(name) = c else { return false };
        let name = name.as_bytes();
        name.starts_with(b"pua-loop") || name.starts_with(b"loopgate")
    };
    if let Some(at) = parts
        .windows(2)
        .position(|w| w[0] == Component::Normal(OsStr::new(".claude")) && ours(&w[1]))
    {
        let root: PathBuf = parts[..at].iter().collect();
        let rel: PathBuf = parts[at..].iter().collect();
        let root = if root.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            root
        };
        return (root, rel, true);
    }
    let root = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    (root, path.file_name().map(PathBuf::from).unwrap_or_default(), false)
}

/// Opens the directory holding `path` (see [`split`]), making missing directories when `create`, and returns
/// it with the file's name.
pub(crate) fn parent_of(path: &Path, create: bool) -> io::Result<(Dir, OsString)> {
    let (root, rel, in_project) = split(path);
    let Some(name) = rel.file_name().map(OsStr::to_owned) else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "no file name"));
    };
    let dir_rel = rel.parent().unwrap_or(Path::new(""));
    let dir = Dir::root(&root, in_project, create)?.walk(dir_rel, create)?;
    Ok((dir, name))
}

/// Opens the directory `path` itself (see [`split`]), making it and missing parents below the root when
/// `create`: what `fs::create_dir_all` did, without following a link.
pub(crate) fn dir(path: &Path, create: bool) -> io::Result<Dir> {
    let (root, rel, in_project) = split(path);
    Dir::root(&root, in_project, create)?.walk(&rel, create)
}

/// Opens the directory holding `root/rel` with `root` trusted as given and every component of `rel` walked
/// without following links (a test file put back into the project: `rel` is project-relative), making missing
/// directories when `create`; returns it with the file's name.
pub(crate) fn parent_under(root: &Path, rel: &Path, create: bool) -> io::Result<(Dir, OsString)> {
    let Some(name) = rel.file_name().map(OsStr::to_owned) else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "no file name"));
    };
    let dir = Dir::root(root, true, false)?.walk(rel.parent().unwrap_or(Path::new("")), create)?;
    Ok((dir, name))
}

fn cstr(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holds a NUL byte"))
}

fn cvt(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

impl Dir {
    /// Opens a trusted root as given, making it when missing and `create` (as `create_dir_all` would: it is
    /// trusted, links and all).
    fn root(root: &Path, in_project: bool, create: bool) -> io::Result<Dir> {
        if create && !root.exists() {
            std::fs::create_dir_all(root)?;
        }
        let c = cstr(root.as_os_str())?;
        // SAFETY: `c` is a NUL-terminated path; the returned descriptor is owned below.
        let fd = cvt(unsafe { libc::open(c.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC) })?;
        Ok(Dir {
            // SAFETY: `fd` was just opened and is owned by nobody else.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            shown: if in_project { PathBuf::new() } else { root.to_path_buf() },
        })
    }

    fn walk(self, rel: &Path, create: bool) -> io::Result<Dir> {
        let mut dir = self;
        for part in rel.components() {
            match part {
                Component::CurDir => {}
                Component::Normal(name) => dir = dir.child(name, create)?,
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("`{}` leaves its directory", rel.display()),
                    ));
                }
            }
        }
        Ok(dir)
    }

    /// The path of `name` in this directory, as errors name it.
    pub(crate) fn shown(&self, name: &OsStr) -> PathBuf {
        self.shown.join(name)
    }

    /// Opens the subdirectory `name` without following a link, making it when missing and `create`.
    fn child(&self, name: &OsStr, create: bool) -> io::Result<Dir> {
        let c = cstr(name)?;
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        let mut made = false;
        loop {
            // SAFETY: a valid directory descriptor and a NUL-terminated name.
            match cvt(unsafe { libc::openat(self.fd.as_raw_fd(), c.as_ptr(), flags) }) {
                Ok(fd) => {
                    return Ok(Dir {
                        // SAFETY: just opened, owned by nobody else.
                        fd: unsafe { OwnedFd::from_raw_fd(fd) },
                        shown: self.shown(name),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound && create && !made => {
                    // SAFETY: as above. Mode 0777 less the umask, as `create_dir_all` makes directories.
                    if let Err(e) = cvt(unsafe { libc::mkdirat(self.fd.as_raw_fd(), c.as_ptr(), 0o777) })
                        && e.raw_os_error() != Some(libc::EEXIST)
                    {
                        return Err(e);
                    }
                    made = true;
                }
                Err(e) => return Err(self.explain(name, e)),
            }
        }
    }

    /// Turns the error of an open that refused a link (`ELOOP`, or `ENOTDIR` for a link to a file where a
    /// directory goes) into the one-line error naming it; other errors pass through.
    fn explain(&self, name: &OsStr, err: io::Error) -> io::Error {
        if !matches!(err.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR | libc::EMLINK)) {
            return err;
        }
        match self.kind(name) {
            Some(kind) if kind == libc::S_IFLNK => planted(&self.shown(name)),
            _ => err,
        }
    }

    /// The file type (`S_IFMT` bits) of `name`, not following a link; `None` when it does not exist.
    fn kind(&self, name: &OsStr) -> Option<libc::mode_t> {
        let c = cstr(name).ok()?;
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: a valid descriptor, a NUL-terminated name and room for a `stat`.
        let ret = unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                st.as_mut_ptr(),
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        // SAFETY: `fstatat` filled it when it returned 0.
        (ret == 0).then(|| unsafe { st.assume_init() }.st_mode & libc::S_IFMT)
    }

    /// Refuses a link at `name` (for a name loopgate is about to replace: the replace would not follow it, but
    /// the user should hear that something was planted there).
    fn refuse_link(&self, name: &OsStr) -> io::Result<()> {
        match self.kind(name) {
            Some(kind) if kind == libc::S_IFLNK => Err(planted(&self.shown(name))),
            _ => Ok(()),
        }
    }

    fn open(&self, name: &OsStr, flags: libc::c_int, mode: u32) -> io::Result<File> {
        let c = cstr(name)?;
        let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK;
        // SAFETY: a valid descriptor, a NUL-terminated name; `mode` is read only with `O_CREAT`.
        let fd = unsafe { libc::openat(self.fd.as_raw_fd(), c.as_ptr(), flags, mode as libc::c_uint) };
        let fd = cvt(fd).map_err(|e| self.explain(name, e))?;
        // SAFETY: just opened, owned by nobody else.
        let file = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(not_plain(&self.shown(name), "not a regular file"));
        }
        Ok(file)
    }

    /// Opens `name` to write in place (append, or a lock that records its holder), creating it when missing: a
    /// regular file with one link, never a link.
    pub(crate) fn open_in_place(&self, name: &OsStr, append: bool, mode: u32) -> io::Result<File> {
        let flags = libc::O_RDWR | libc::O_CREAT | if append { libc::O_APPEND } else { 0 };
        let file = self.open(name, flags, mode)?;
        if file.metadata()?.nlink() > 1 {
            return Err(not_plain(&self.shown(name), "a hard link to another file"));
        }
        Ok(file)
    }

    /// Creates `name`, which must not exist (`O_EXCL`: never a link's target).
    pub(crate) fn create_new(&self, name: &OsStr, mode: u32) -> io::Result<File> {
        self.open(name, libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL, mode)
    }

    /// Replaces `name` with `bytes`: a new temp file beside it, flushed when `sync`, renamed over the name. A link
    /// at the name is refused with [`planted`] (the rename alone would replace it, never follow it).
    pub(crate) fn replace(&self, name: &OsStr, bytes: &[u8], mode: u32, sync: bool) -> io::Result<()> {
        self.refuse_link(name)?;
        let (mut file, tmp) = self.temp(name, mode)?;
        let result = (|| {
            file.write_all(bytes)?;
            if sync {
                file.sync_all()?;
            }
            self.rename(&tmp, name)
        })();
        if result.is_err() {
            let _ = self.remove(&tmp);
        }
        result
    }

    /// A new temp file `.NAME.PID-N.tmp` beside `name`; a name taken (by anything, a link included) is skipped.
    pub(crate) fn temp(&self, name: &OsStr, mode: u32) -> io::Result<(File, OsString)> {
        static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut last = None;
        for _ in 0..16 {
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut tmp = OsString::from(".");
            tmp.push(name);
            tmp.push(format!(".{}-{n}.tmp", std::process::id()));
            match self.create_new(&tmp, mode) {
                Ok(file) => return Ok((file, tmp)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free temp name")))
    }

    /// Renames `from` to `to`, both in this directory (`renameat`: neither name's link is followed).
    pub(crate) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let (a, b) = (cstr(from)?, cstr(to)?);
        let fd = self.fd.as_raw_fd();
        // SAFETY: a valid descriptor and NUL-terminated names.
        cvt(unsafe { libc::renameat(fd, a.as_ptr(), fd, b.as_ptr()) }).map(drop)
    }

    /// Renames `from` in this directory to `to` in `dir` (`renameat` between the two descriptors).
    pub(crate) fn rename_into(&self, from: &OsStr, dir: &Dir, to: &OsStr) -> io::Result<()> {
        let (a, b) = (cstr(from)?, cstr(to)?);
        // SAFETY: valid descriptors and NUL-terminated names.
        cvt(unsafe { libc::renameat(self.fd.as_raw_fd(), a.as_ptr(), dir.fd.as_raw_fd(), b.as_ptr()) }).map(drop)
    }

    /// Removes the file (or link) `name` in this directory; never what a link points at.
    pub(crate) fn remove(&self, name: &OsStr) -> io::Result<()> {
        let c = cstr(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name.
        cvt(unsafe { libc::unlinkat(self.fd.as_raw_fd(), c.as_ptr(), 0) }).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn project() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("p");
        std::fs::create_dir_all(root.join(".claude")).expect("mkdir");
        (dir, root)
    }

    #[test]
    fn split_anchors_at_the_claude_directory_loopgate_owns() {
        let (root, rel, in_project) = split(Path::new("/h/.claude/p/.claude/loopgate/verify-a-1.log"));
        assert_eq!(
            (root.as_path(), rel.as_path(), in_project),
            (
                Path::new("/h/.claude/p"),
                Path::new(".claude/loopgate/verify-a-1.log"),
                true
            )
        );
        let (root, rel, _) = split(Path::new("/x/.claude/.claude/pua-loop.local.md"));
        assert_eq!(
            (root.as_path(), rel.as_path()),
            (Path::new("/x/.claude"), Path::new(".claude/pua-loop.local.md"))
        );
        let (root, rel, _) = split(Path::new("/t/file.json"));
        assert_eq!(
            (root.as_path(), rel.as_path()),
            (Path::new("/t"), Path::new("file.json"))
        );
    }

    #[test]
    fn a_planted_file_link_is_refused_by_name_and_its_target_untouched() {
        let (dir, root) = project();
        let outside = dir.path().join("bashrc");
        std::fs::write(&outside, "echo hi\n").expect("write");
        let history = root.join(".claude/pua-loop-history.jsonl");
        symlink(&outside, &history).expect("symlink");
        let (d, name) = parent_of(&history, true).expect("parent");
        let err = d.open_in_place(&name, true, 0o644).expect_err("followed a link");
        assert_eq!(
            err.to_string(),
            "`.claude/pua-loop-history.jsonl` is a symbolic link loopgate did not make; remove it"
        );
        let err = d.replace(&name, b"x", 0o644, false).expect_err("replaced a link");
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&outside).expect("read"), "echo hi\n");
    }

    #[test]
    fn a_planted_directory_link_is_refused_and_nothing_is_made_through_it() {
        let (dir, root) = project();
        let outside = dir.path().join("config");
        std::fs::create_dir(&outside).expect("mkdir");
        symlink(&outside, root.join(".claude/loopgate")).expect("symlink");
        let err = parent_of(&root.join(".claude/loopgate/lock"), true)
            .err()
            .expect("followed a link");
        assert_eq!(
            err.to_string(),
            "`.claude/loopgate` is a symbolic link loopgate did not make; remove it"
        );
        // A dangling link where a directory goes is refused too (mkdirat does not follow it).
        std::fs::remove_file(root.join(".claude/loopgate")).expect("rm");
        symlink(dir.path().join("gone"), root.join(".claude/loopgate")).expect("symlink");
        let err = parent_of(&root.join(".claude/loopgate/lock"), true)
            .err()
            .expect("followed a link");
        assert!(
            err.to_string().contains("`.claude/loopgate` is a symbolic link"),
            "{err}"
        );
        assert!(!dir.path().join("gone").exists());
        assert_eq!(std::fs::read_dir(&outside).expect("ls").count(), 0);
    }

    #[test]
    fn a_hard_link_is_not_appended_to() {
        let (dir, root) = project();
        let outside = dir.path().join("profile");
        std::fs::write(&outside, "x\n").expect("write");
        let history = root.join(".claude/pua-loop-history.jsonl");
        std::fs::hard_link(&outside, &history).expect("link");
        let (d, name) = parent_of(&history, true).expect("parent");
        let err = d
            .open_in_place(&name, true, 0o644)
            .expect_err("appended to a hard link");
        assert!(err.to_string().contains("hard link"), "{err}");
    }

    #[test]
    fn a_fifo_does_not_hang_the_open() {
        let (_dir, root) = project();
        let history = root.join(".claude/pua-loop-history.jsonl");
        let c = cstr(history.as_os_str()).expect("cstr");
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let (d, name) = parent_of(&history, true).expect("parent");
        assert!(d.open_in_place(&name, true, 0o644).is_err());
    }

    #[test]
    fn missing_directories_are_made_and_files_replaced_in_place() {
        let (_dir, root) = project();
        let log = root.join(".claude/loopgate/sub/x.log");
        let (d, name) = parent_of(&log, true).expect("parent");
        d.replace(&name, b"one", 0o644, true).expect("write");
        d.replace(&name, b"two", 0o644, false).expect("rewrite");
        assert_eq!(std::fs::read(&log).expect("read"), b"two");
        assert_eq!(
            std::fs::read_dir(log.parent().expect("dir")).expect("ls").count(),
            1,
            "a temp file is left"
        );
    }
}
