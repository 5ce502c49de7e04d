//! What a layered candidate changed, read from its upper layer (issue 41: at most 0.5 s CPU per extra
//! candidate), so that committing its work looks at those paths only, not at every file of the tree.
//!
//! **Why the upper layer holds every change.** A candidate's tree is an overlay of the shared checkout (`layer`),
//! a clean checkout of the commit the tournament starts from, in the store, never written. Wherever the
//! candidate's tree differs from it, its upper layer has an entry at that path or above it: a file or link
//! written, `chmod`ed, `touch`ed or renamed in (copied up whole: metadata-only copy-up is off with `userxattr`);
//! a whiteout where something was deleted or renamed away (a directory is never redirected: renaming one
//! copies it); a directory the lower layer does not have as one; an opaque directory where one was deleted and
//! made again. Everything else is the lower layer's, with its content and its stat data (`room::layered` makes
//! the same argument for the oracle's room). And since the checkout holds only tracked files, every untracked
//! file lies in the upper layer: the ignore rules matter only there.
//!
//! **What is staged.** The topmost such entries are named (a directory both layers hold, not opaque, is entered
//! instead); git lists what differs under them from loopgate's private index of the candidate — a copy of the
//! shared checkout's, which describes every file of the lower layer — (`git ls-files --modified --deleted
//! --others --exclude-standard`), and exactly those paths are re-staged (`git update-index`). That is the index
//! `git add -A` over the whole tree would have left: outside the named paths it would have found every file as
//! the index has it.
//!
//! **Where it applies.** Only where this process sees the tree mounted as an overlay of exactly the shared
//! checkout (`room::layered::upper`, from `/proc/self/mountinfo`). Anywhere else — a clone, outside the
//! tournament's namespace — and whenever the walk or git fails, the caller stages the whole tree as before.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

/// Past this many changed paths, the whole tree is staged instead: they are passed to git as arguments.
const MOST_PATHS: usize = 4096;

/// The paths of candidate `tree` (an overlay of the shared checkout `base`), relative to it and outside its top
/// `.git` and `.claude`, below which everything it changed lies; `None` where that is not proven here (module
/// docs) or there are too many to name.
pub(super) fn changed(tree: &Path, base: &Path) -> Option<Vec<PathBuf>> {
    let upper = crate::room::layered::upper(tree, base)?;
    let mut found = Vec::new();
    walk(&upper, base, Path::new(""), &mut found).ok()?;
    (found.len() <= MOST_PATHS).then_some(found)
}

/// Adds to `found` the topmost entries of upper layer `upper` below `relative` where the merged tree can differ
/// from `lower`.
fn walk(upper: &Path, lower: &Path, relative: &Path, found: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(upper.join(relative))? {
        let entry = entry?;
        let name = entry.file_name();
        // The candidate's git directory and loopgate's own files: never part of its work (`git add -A` leaves
        // them out too).
        if relative.as_os_str().is_empty() && (name == OsStr::new(".git") || name == OsStr::new(".claude")) {
            continue;
        }
        let path = relative.join(&name);
        let merged = entry.file_type()?.is_dir() && !opaque(&upper.join(&path))?;
        let below = std::fs::symlink_metadata(lower.join(&path)).is_ok_and(|m| m.is_dir());
        if merged && below {
            walk(upper, lower, &path, found)?;
        } else {
            found.push(path);
        }
    }
    Ok(())
}

/// Whether the upper layer's directory `dir` hides the lower layer's below it (overlayfs's `opaque` attribute,
/// as `user.` with `userxattr`, else `trusted.`). Any value counts: a directory taken for opaque is only named
/// whole, never missed.
#[cfg(target_os = "linux")]
fn opaque(dir: &Path) -> io::Result<bool> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).map_err(io::Error::other)?;
    for name in [c"user.overlay.opaque", c"trusted.overlay.opaque"] {
        // SAFETY: two NUL-terminated strings that outlive the call; a null buffer of size 0 asks for the size.
        let size = unsafe { libc::lgetxattr(path.as_ptr(), name.as_ptr(), std::ptr::null_mut(), 0) };
        if size >= 0 {
            return Ok(true);
        }
        let err = io::Error::last_os_error();
        // Absent, or not readable as this user (`trusted.` outside the initial namespace): not opaque by it.
        match err.raw_os_error() {
            Some(libc::ENODATA | libc::ENOTSUP | libc::EPERM) => {}
            _ => return Err(err),
        }
    }
    Ok(false)
}

/// Overlays are Linux's: elsewhere no upper layer is ever found (`room::layered::upper`), and were one asked
/// about, the walk fails and the caller stages the whole tree.
#[cfg(not(target_os = "linux"))]
fn opaque(_dir: &Path) -> io::Result<bool> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let (upper, lower) = (dir.path().join("upper"), dir.path().join("lower"));
        for d in ["src/a/b", "src/c", "docs", "gone", ".git", "old"] {
            std::fs::create_dir_all(lower.join(d)).expect("lower");
        }
        std::fs::write(lower.join("file"), "").expect("lower file");
        (dir, upper, lower)
    }

    fn found(upper: &Path, lower: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        walk(upper, lower, Path::new(""), &mut found).expect("walk");
        found.sort();
        found
    }

    #[test]
    fn the_topmost_changes_are_named_and_shared_directories_entered() {
        let (_dir, upper, lower) = dirs();
        // A file two directories down, a whiteout's stand-in, a new directory with a file, a directory made where
        // the lower layer has a file, and loopgate's and git's own, left out.
        for d in ["src/a/b", "src/new/deeper", "file", ".git", ".claude"] {
            std::fs::create_dir_all(upper.join(d)).expect("upper");
        }
        std::fs::write(upper.join("src/a/b/x.txt"), "x").expect("write");
        std::fs::write(upper.join("src/c"), "").expect("whiteout's stand-in");
        std::fs::write(upper.join("src/new/deeper/n.txt"), "n").expect("write");
        std::fs::write(upper.join(".git/index"), "i").expect("write");
        let expected: Vec<PathBuf> = ["file", "src/a/b/x.txt", "src/c", "src/new"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(found(&upper, &lower), expected);
    }

    #[test]
    fn an_opaque_directory_is_named_whole() {
        let (_dir, upper, lower) = dirs();
        std::fs::create_dir_all(upper.join("old/sub")).expect("upper");
        std::fs::create_dir_all(upper.join("docs")).expect("upper");
        std::fs::write(upper.join("old/sub/s.txt"), "s").expect("write");
        let path = std::ffi::CString::new(upper.join("old").into_os_string().into_encoded_bytes()).expect("c path");
        // SAFETY: NUL-terminated strings and a one-byte value that outlive the call.
        let set = unsafe {
            libc::lsetxattr(
                path.as_ptr(),
                c"user.overlay.opaque".as_ptr(),
                b"y".as_ptr().cast(),
                1,
                0,
            )
        };
        if set != 0 {
            eprintln!("no user xattrs here ({}): skipped", io::Error::last_os_error());
            return;
        }
        // `old` hides the lower layer's: named whole (its lower files are gone). `docs`, copied up and left
        // empty, is entered and holds nothing.
        assert_eq!(found(&upper, &lower), [PathBuf::from("old")]);
    }
}
