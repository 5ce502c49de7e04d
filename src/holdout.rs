//! Held-out tests (`--holdout`): acceptance tests the user keeps from the agent, run only at a promise, in a
//! private copy of the project (`ARCHITECTURE.md`, "Oracle integrity", principle 5: what no sealing can stop is
//! narrowed — code fitted to the visible tests' exact inputs fails tests it has never seen).
//!
//! Two sources, one store. The store is a private directory under loopgate's home, one per project
//! ([`dir_for`]); nothing in the project names it.
//!
//! - `--holdout GLOB` (inside the project): setup **moves** the matching files into the store's `files/`, and the
//!   end of the loop puts them back, whatever the end. Paranoid by design, because these are the user's files: a
//!   manifest listing every file and its SHA-256 is written *before* the first file moves; a move is a rename, or
//!   across file systems a copy that is synced and checked by hash before the original is removed
//!   ([`moves`]); a file is back when its store copy is gone, so putting back is idempotent and any command can
//!   finish it after a crash ([`recover_orphan`], from `lifecycle::lookup`, and [`restore`] under the lock at
//!   every end and before a new setup). A path recreated meanwhile is never overwritten: that copy is kept beside
//!   it under a `.loopgate-recreated` name and the user is told.
//! - `--holdout DIR` (a directory outside the project): nothing is moved; its files are **copied** into the
//!   store's `outside/` at setup, so later edits there (by anyone) do not change the held-out set. The directory
//!   mirrors the project's layout: `DIR/tests/acceptance/test_x.py` runs as `tests/acceptance/test_x.py`.
//!
//! A moved file that git history holds can still be read back from git objects (`git show HEAD:path`); setup
//! says so ([`git::in_history`]) and recommends an outside directory. What runs them is `oracle::holdout`; the
//! private copy is [`copy`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::project::Project;
use crate::schema::Holdout;
pub(crate) use crate::schema::HoldoutRestored as Restored;

pub(crate) mod copy;
pub(crate) mod git;
pub(crate) mod moves;
mod take;

pub(crate) use take::take;

/// The journal of files moved out of a project, written before the first move and removed once all are back.
const MANIFEST: &str = "manifest.json";
/// Where moved files wait, at their project-relative paths.
const FILES: &str = "files";
/// Where copies of an outside directory's files wait.
const OUTSIDE: &str = "outside";

/// Every project's held-out store lives under here: the guard keeps the agent's tools from reading it, and
/// confinement (where the platform has it) should keep the agent's processes out of it too.
pub(crate) fn store_root() -> PathBuf {
    crate::project::loopgate_home().join(crate::plane::HOLDOUT_DIR)
}

/// The held-out store of one project: named by a hash of its canonical root, as the seal is.
pub(crate) fn dir_for(project: &Project) -> PathBuf {
    use sha2::Digest;
    let root = project.canonical_root();
    let digest = sha2::Sha256::digest(root.as_os_str().as_encoded_bytes());
    store_root().join(&crate::fsutil::hex(&digest)[..32])
}

/// The journal of a move-out: which files are out, by project-relative path and SHA-256.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Manifest {
    project_root: PathBuf,
    loop_id: String,
    moved: BTreeMap<String, String>,
}

impl Manifest {
    fn load(dir: &Path) -> Result<Option<Manifest>, Error> {
        let path = dir.join(MANIFEST);
        let Some(bytes) = crate::fsutil::read_optional(&path).map_err(|source| Error::Io {
            action: "read the held-out manifest",
            path: path.clone(),
            source,
        })?
        else {
            return Ok(None);
        };
        serde_json::from_slice(&bytes).map(Some).map_err(|e| Error::Io {
            action: "read the held-out manifest",
            path,
            source: std::io::Error::other(e),
        })
    }

    fn save(&self, dir: &Path) -> std::io::Result<()> {
        crate::seal::create_private_dir(dir)?;
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        crate::fsutil::write_atomic(&dir.join(MANIFEST), &bytes, 0o600)
    }
}

/// Puts every held-out file of `project` back (see the module docs), then removes the store's copies, the
/// private copy and the manifest; the logs stay for the user. A no-op when nothing is out. Every file is
/// tried; on an error the manifest stays, so the next command tries again, and nothing is removed.
pub(crate) fn restore(project: &Project) -> Result<Restored, Error> {
    restore_in(&dir_for(project), &project.root)
}

/// [`restore`] from the store `dir` into the project at `root`.
pub(crate) fn restore_in(dir: &Path, root: &Path) -> Result<Restored, Error> {
    let dir = dir.to_path_buf();
    let Some(manifest) = Manifest::load(&dir)? else {
        discard_private(&dir);
        return Ok(Restored::default());
    };
    let mut restored = Restored::default();
    let mut first_error = None;
    for (path, sha) in &manifest.moved {
        // The way back is checked first: a directory of the project replaced by a link while the file was out
        // (`tests -> ~/.config/x`) is refused by name, and nothing is put through it (`fsutil::nofollow`).
        let way = crate::fsutil::nofollow::parent_under(root, Path::new(path), true).map(drop);
        match way.and_then(|()| moves::put_back(&dir.join(FILES).join(path), &root.join(path), sha)) {
            Ok(moves::Back::Moved) => restored.back += 1,
            Ok(moves::Back::Already) => {}
            Ok(moves::Back::KeptAside(aside)) => {
                restored.back += 1;
                restored.kept_aside.push((path.clone(), aside));
            }
            Err(source) => {
                first_error.get_or_insert(Error::Io {
                    action: "put back the held-out file",
                    path: root.join(path),
                    source,
                });
            }
        }
    }
    if let Some(err) = first_error {
        return Err(err);
    }
    let _ = std::fs::remove_file(dir.join(MANIFEST));
    discard_private(&dir);
    Ok(restored)
}

/// Puts back the held-out files of a loop that ended without doing so (a crash, a killed process), when no
/// live loop owns them: called by `lifecycle::lookup` when it finds no seal, or an ended one. Cheap when
/// nothing is out (one `stat`); skipped while another process holds the project lock (a setup moving files
/// out right now), which finishes or, crashing, frees the lock for the next command.
pub(crate) fn recover_orphan(project: &Project) -> Option<Result<Restored, Error>> {
    let dir = dir_for(project);
    if !dir.join(MANIFEST).exists() {
        return None;
    }
    let Ok(lock) = crate::fsutil::nofollow::parent_of(&project.lock_path(), true)
        .and_then(|(dir, name)| dir.open_in_place(&name, false, 0o644))
    else {
        return None;
    };
    if lock.try_lock().is_err() {
        return None;
    }
    // Re-checked under the lock: a setup may have finished (and sealed a loop that owns them) meanwhile.
    let owned = crate::seal::Store::open()
        .load(project)
        .ok()
        .flatten()
        .is_some_and(|seal| !seal.ended && seal.holdout.is_some());
    let done = (!owned).then(|| restore(project));
    let _ = lock.unlock();
    done
}

/// Removes what only a running loop needs: the store's copies, the private copy and its build outputs.
/// The user's moved files are never deleted here: `files/` goes only once empty (every file back), and one left
/// there without a manifest (a manifest deleted by hand) stays for a person to recover.
fn discard_private(dir: &Path) {
    for sub in [OUTSIDE, copy::TREE, copy::TARGET] {
        let _ = std::fs::remove_dir_all(dir.join(sub));
    }
    remove_empty_dirs(&dir.join(FILES));
    for file in [BASELINE, LAST] {
        let _ = std::fs::remove_file(dir.join(file));
    }
}

/// Removes `dir` and the directories under it, deepest first, if they hold no file; best effort.
fn remove_empty_dirs(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                remove_empty_dirs(&entry.path());
            }
        }
    }
    let _ = std::fs::remove_dir(dir);
}

/// The directory where the held-out files of a loop wait, to lay them over the private copy: moved files
/// under `files/`, copies of outside ones under `outside/`.
pub(crate) fn sources(holdout: &Holdout) -> [PathBuf; 2] {
    [holdout.dir.join(FILES), holdout.dir.join(OUTSIDE)]
}

/// The held-out run at setup (test by test: which held-out tests exist and how they ended), beside the files.
const BASELINE: &str = "baseline.json";
/// The last held-out run at a promise, for `loopgate status`.
const LAST: &str = "last.json";

/// How the last held-out run at a promise ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LastRun {
    pub(crate) iteration: u64,
    pub(crate) passed: bool,
    /// The held-out tests that failed or did not run, by name.
    #[serde(default)]
    pub(crate) failing: Vec<String>,
    pub(crate) duration_ms: u64,
    /// The full log (private: only the user reads it).
    pub(crate) log: PathBuf,
}

/// Reads a JSON file of the store; a missing or unreadable one is `None` (status and the verdict then say so).
fn read_private<T: serde::de::DeserializeOwned>(path: &Path) -> Option<T> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn write_private(dir: &Path, name: &str, value: &impl Serialize) -> Result<(), Error> {
    let path = dir.join(name);
    let bytes = serde_json::to_vec_pretty(value).map_err(std::io::Error::other);
    bytes
        .and_then(|bytes| {
            crate::seal::create_private_dir(dir)?;
            crate::fsutil::write_atomic(&path, &bytes, 0o600)
        })
        .map_err(|source| Error::Io {
            action: "write",
            path,
            source,
        })
}

/// The held-out run at setup, if one was taken.
pub(crate) fn load_baseline(holdout: &Holdout) -> Option<crate::testjudge::baseline::Baseline> {
    read_private(&holdout.dir.join(BASELINE))
}

pub(crate) fn save_baseline(holdout: &Holdout, baseline: &crate::testjudge::baseline::Baseline) -> Result<(), Error> {
    write_private(&holdout.dir, BASELINE, baseline)
}

/// The last held-out run at a promise, if any.
pub(crate) fn load_last(holdout: &Holdout) -> Option<LastRun> {
    read_private(&holdout.dir.join(LAST))
}

pub(crate) fn save_last(holdout: &Holdout, last: &LastRun) -> Result<(), Error> {
    write_private(&holdout.dir, LAST, last)
}

/// Where the held-out run's full logs go: private, for the user (`loopgate status` names the last one).
pub(crate) fn log_path(holdout: &Holdout, loop_id: &str, iteration: u64) -> PathBuf {
    holdout.dir.join("logs").join(format!(
        "holdout-{}-{iteration}.log",
        crate::project::safe_name(loop_id)
    ))
}

#[cfg(test)]
mod tests;
