//! The verify lock: whether a verify command is running in a project, so `loopgate rollback` can refuse to change
//! the working tree under it.
//!
//! The Stop hook releases the project lock while the verify runs (it may take minutes), so that lock says nothing
//! about a verify. Instead every verify holds a **shared** lock on `.claude/loopgate/verify.lock` while it runs
//! (several may run at once: the Stop hook's and a `loopgate verify`), and writes its pid and command into the
//! file for the refusal message. A rollback takes the **exclusive** lock without waiting — it fails exactly when
//! a verify runs — and holds it while it restores files, so no verify starts halfway through.
//!
//! Invariants: an advisory `flock` dies with its process, so a killed verify never leaves a stale marker; the
//! marker is best effort for the verify (a verify never fails because the marker could not be taken).
//!
//! The marker also records each verify's window (`windows`), so the control plane can tell a request or ticket
//! made while a verify ran — by the code under test — from one the user's prompt made: [`made_during_verify`].

mod windows;

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use crate::fsutil::LOCK_WAIT;
use crate::project::Project;

/// Held while a verify command runs (shared lock), released on drop, when its window is recorded.
pub(crate) struct VerifyRunning {
    file: File,
    project: Project,
    started: SystemTime,
}

/// Held while the working tree is being restored (exclusive lock), released on drop.
pub(crate) struct TreeBusy {
    file: File,
}

/// Forgets the verify windows of a project gone for good (a check's clone, `commands::check`): they guard
/// nothing once nothing can make a request there.
pub(crate) fn forget(project: &Project) {
    let _ = std::fs::remove_file(windows::path(project));
}

/// The lock file.
pub(crate) fn path(project: &Project) -> PathBuf {
    project.work_dir().join("verify.lock")
}

fn open(project: &Project) -> std::io::Result<File> {
    // Written in place (its holder's line): never through a link or into a hard link (see `fsutil::nofollow`).
    let (dir, name) = crate::fsutil::nofollow::parent_of(&path(project), true)?;
    dir.open_in_place(&name, false, 0o644)
}

impl VerifyRunning {
    /// Marks `command` as running in `project` until the marker is dropped. Waits at most [`LOCK_WAIT`] for a
    /// rollback in progress (less once loopgate is interrupted); `None` when the marker cannot be taken (the verify runs anyway).
    pub(crate) fn mark(project: &Project, command: &str) -> Option<Self> {
        let mut file = open(project).ok()?;
        let started = SystemTime::now();
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock_shared() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if Instant::now() < deadline && crate::interrupt::check().is_ok() => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(_) => return None,
            }
        }
        let since = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let line = format!("pid {} since {since}: `{command}`\n", std::process::id());
        let _ = file.set_len(0).and_then(|()| file.write_all(line.as_bytes()));
        Some(Self {
            file,
            project: project.clone(),
            started,
        })
    }
}

impl Drop for VerifyRunning {
    fn drop(&mut self) {
        windows::record(&self.project, self.started);
        let _ = self.file.unlock();
    }
}

/// Whether a file changed last at `changed` (its `ctime`) was made while a verify ran in `project`: inside a
/// recorded window, or now, while one is still running.
pub(crate) fn made_during_verify(project: &Project, changed: SystemTime) -> bool {
    windows::covers(project, changed) || running(project).is_some()
}

impl TreeBusy {
    /// Takes the tree for a rollback; `Err(Some(what))` names the verify that is running (from the marker
    /// file), `Err(None)` when the lock file cannot be opened.
    pub(crate) fn take(project: &Project) -> Result<Self, Option<String>> {
        let mut file = open(project).map_err(|_| None)?;
        match file.try_lock() {
            Ok(()) => Ok(Self { file }),
            Err(TryLockError::WouldBlock) => Err(Some(marker(&mut file))),
            Err(TryLockError::Error(_)) => Err(None),
        }
    }
}

/// The verify running in `project` now, as its marker names it (`pid … since …: \`cmd\``), for `loopgate
/// status`; `None` when none runs. Takes the exclusive lock for an instant when it is free (a rollback starting
/// at that very instant is refused as if a verify ran); never creates the file.
pub(crate) fn running(project: &Project) -> Option<String> {
    let mut file = OpenOptions::new().read(true).open(path(project)).ok()?;
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            None
        }
        Err(TryLockError::WouldBlock) => Some(marker(&mut file)),
        Err(TryLockError::Error(_)) => None,
    }
}

/// The marker line a verify wrote into the lock file.
fn marker(file: &mut File) -> String {
    let mut what = String::new();
    let _ = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_string(&mut what));
    what.trim().to_string()
}

impl Drop for TreeBusy {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_verify_blocks_the_tree_and_releases_it_when_done() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = Project {
            root: dir.path().to_path_buf(),
        };
        let first = VerifyRunning::mark(&project, "cargo test").expect("marked");
        let second = VerifyRunning::mark(&project, "make check").expect("verifies share the marker");
        let busy = TreeBusy::take(&project).err().flatten().expect("busy");
        assert!(
            busy.contains("make check") && busy.contains(&format!("pid {}", std::process::id())),
            "{busy}"
        );
        assert!(running(&project).is_some_and(|what| what.contains("make check")));
        drop(first);
        assert!(TreeBusy::take(&project).is_err(), "one verify still runs");
        drop(second);
        assert_eq!(running(&project), None);
        let tree = TreeBusy::take(&project).expect("free");
        drop(tree);
        assert!(TreeBusy::take(&project).is_ok());
    }
}
