//! The test side as sealed, for the oracle's run (`ARCHITECTURE.md`, "Oracle integrity", principle 1: the user's tests,
//! as they were). The agent's own tests are for the agent's own runs.
//!
//! The test inventory rejects edits to existing tests, but some things it cannot see: a *new* test that runs
//! first and patches the code under test for every test after it, or ends the process before any summary; a
//! harmless-looking addition to an existing test file that does the same. So while the oracle runs the verify
//! command (at a promise, and at `loopgate verify` so the agent sees the same verdict):
//!
//! - every existing test file, and the test data beside it (snapshots, golden files, `testdata/`, fixtures),
//!   stands exactly as it was sealed (setup keeps a copy, [`Copies`]); the agent's version waits in the stash and
//!   comes back right after the run;
//! - every test file that did not exist at setup sits out the run in the stash, and so does every new snapshot
//!   file under `__snapshots__/` (a new test's snapshot, [`Copies::new_snapshots`]). Where its language has one,
//!   a new test file's place holds a unit of the language with no test meanwhile (`schema::Lang::stand_in`,
//!   written as the sealed copies are: [`Plan::cut`]), so a manifest that names the file (Cargo's `[[test]]`,
//!   PHPUnit's `<file>`, a Makefile prerequisite) finds it and the run does not fail on a missing file.
//!
//! Everything else — the code under test, new modules, dependencies, Rust's inline `mod tests` in source files
//! (they live in the code the agent is there to change) — runs as the agent left it.
//!
//! **Mechanism and trade-off.** Files are swapped in place rather than run in a second work tree: no build cache
//! to share or rebuild (`target/`, `node_modules`, the venv stay where they are), and the cost is two renames
//! per changed or new test file. The price is that the project is briefly not as the agent left it, so the swap
//! is crash-safe: the list of swapped files ([`Journal`]) is written beside the seal *before* the first file
//! moves, the agent's versions wait under `.claude/loopgate/stash/` (same file system, so a rename; no name a
//! test runner would collect), and [`recover`] — run at every stop, every `loopgate verify` and `loopgate
//! cancel` — puts back whatever a killed run left out. A Stop hook or `loopgate verify` killed outright (SIGKILL,
//! an agent CLI's hook timeout) has its files put back at once by its warden (`process::tether`). A rename keeps the agent's file as it was (content,
//! modification time), so build tools do not see a change after the run.
//!
//! Opt-outs: `--with-new-tests` lets the agent's new test files take part; with `--no-test-seal` the agent may
//! edit existing tests, so they are not put back as sealed either.
//!
//! One of the five modules the user's tests pass through, each answering one question (`ARCHITECTURE.md`, "One of
//! each mechanism"): this one stands the test files as sealed in the oracle's run; `testsig` reads a test file,
//! `testseal` keeps every test file's signature, `testjudge::baseline` and `testjudge::ratchet` judge a run's results.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The content of every existing test file, and of the test data beside them, when the loop started (or when
/// the user last accepted it), by project-relative path. Test data is every other file under a test directory
/// (`tests/`, `test/`, `__tests__/`, `spec/`, `testdata/`, `fixtures/`, `__snapshots__/`, `golden/`) and any
/// `*.snap` or `*.golden` file: snapshots, golden files and case tables are the tests' expectations. Only UTF-8
/// files of at most [`MAX_DATA_BYTES`] are kept; others run as they are (test code is still sealed by the
/// inventory's signature). Data read by tests from elsewhere is not covered (observing what a run reads is the
/// next step).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Copies {
    pub(crate) files: BTreeMap<String, String>,
    /// Test data that existed but is not kept (not UTF-8, or larger than [`MAX_DATA_BYTES`]): not new.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) uncopied: BTreeSet<String>,
}

/// Largest test data file kept.
pub(crate) const MAX_DATA_BYTES: u64 = 1024 * 1024;
/// Directories whose files are the tests' code or data.
const DATA_DIRS: [&str; 8] = [
    "tests",
    "test",
    "__tests__",
    "spec",
    "testdata",
    "fixtures",
    "__snapshots__",
    "golden",
];

impl Copies {
    /// Reads the test files `paths` under `root`, and the test data beside them (see [`Copies`]).
    pub fn take<'a>(root: &Path, paths: impl IntoIterator<Item = &'a String>) -> Copies {
        let read = |path: &str| Some((path.to_string(), std::fs::read_to_string(root.join(path)).ok()?));
        let mut files: BTreeMap<String, String> = paths.into_iter().filter_map(|path| read(path)).collect();
        let mut uncopied = BTreeSet::new();
        crate::walk::files(root, |relative, name| {
            if files.contains_key(relative) || !is_test_data(relative, name) {
                return;
            }
            let small =
                std::fs::symlink_metadata(root.join(relative)).is_ok_and(|m| m.is_file() && m.len() <= MAX_DATA_BYTES);
            match small.then(|| read(relative)).flatten() {
                Some((path, text)) => {
                    files.insert(path, text);
                }
                None => {
                    uncopied.insert(relative.to_string());
                }
            }
        });
        Copies { files, uncopied }
    }

    /// The modification time of every kept file, to tell afterwards which ones a run wrote
    /// ([`Copies::drop_run_outputs`]).
    pub(crate) fn stamps(&self, root: &Path) -> BTreeMap<String, Option<std::time::SystemTime>> {
        self.files
            .keys()
            .map(|path| (path.clone(), modified(&root.join(path))))
            .collect()
    }

    /// Drops the test data that a run of the verify command itself wrote or removed since `stamps` (the
    /// baseline's: a log, a report or a cache a test writes under its directory, even with the same content):
    /// that is the run's output, not the tests' input, so it neither stands as sealed nor is watched during the
    /// oracle's run. Test files (`is_test`) stay.
    pub(crate) fn drop_run_outputs(
        &mut self,
        root: &Path,
        stamps: &BTreeMap<String, Option<std::time::SystemTime>>,
        is_test: impl Fn(&str) -> bool,
    ) {
        let changed: BTreeSet<String> = changed(root, self)
            .into_iter()
            .map(|(path, _)| path.to_string())
            .collect();
        let outputs: Vec<String> = self
            .files
            .keys()
            .filter(|path| !is_test(path))
            .filter(|path| changed.contains(*path) || stamps.get(*path) != Some(&modified(&root.join(path))))
            .cloned()
            .collect();
        for path in outputs {
            self.files.remove(&path);
            self.uncopied.insert(path);
        }
    }

    /// Snapshot files (under a `__snapshots__` directory, as Jest and Vitest keep them) that did not exist at
    /// setup. They belong to the agent's new tests, so they sit out the oracle's run with them: left in, Jest
    /// fails the run on an "obsolete" snapshot file.
    pub fn new_snapshots(&self, root: &Path) -> Vec<String> {
        let mut out = Vec::new();
        crate::walk::files(root, |relative, _| {
            let in_snapshots = relative.split('/').rev().skip(1).any(|dir| dir == "__snapshots__");
            if in_snapshots && !self.files.contains_key(relative) && !self.uncopied.contains(relative) {
                out.push(relative.to_string());
            }
        });
        out
    }
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::symlink_metadata(path).and_then(|m| m.modified()).ok()
}

/// Whether a file that is not test code is test data: under a test directory, or a snapshot or golden file.
fn is_test_data(relative: &str, name: &str) -> bool {
    let in_data_dir = relative.split('/').rev().skip(1).any(|dir| DATA_DIRS.contains(&dir));
    in_data_dir || name.ends_with(".snap") || name.ends_with(".golden")
}

/// One file moved for the oracle's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetAside {
    /// Project-relative path of the file.
    pub(crate) path: String,
    /// The agent's version, under the stash directory.
    pub(crate) stash: String,
    /// The sealed copy stands in its place during the run (else the path is empty during the run).
    pub(crate) replaced: bool,
    /// The agent's file existed when the run began (a sealed test file the agent deleted did not).
    pub(crate) existed: bool,
}

/// The files swapped for a run, written before the first one moves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    pub moved: Vec<SetAside>,
}

/// What to swap for one run: existing test files that differ from their sealed copy, and new test files.
pub struct Plan<'a> {
    /// `(path, sealed content)` of existing test files to stand as sealed.
    pub restore: Vec<(&'a str, &'a str)>,
    /// `(path, content)` of new test files that take part in the run with the tests a sealed file defines cut
    /// out (`testseal::Inventory::new_test_files_cut`), and of new test files that sit out as their language's
    /// unit with no test (`schema::Lang::stand_in`): either way the agent's version waits in the stash.
    pub cut: Vec<(String, String)>,
    /// New test files to sit out.
    pub aside: Vec<String>,
    /// The new test files among `cut` that sit out as their language's unit with no test: none of their tests
    /// runs, so they sat out as `aside`'s did, though their name stands.
    pub stood_in: Vec<String>,
    /// The existing test files among `cut` that stand as sealed with their imports of renamed code respelled
    /// (`testseal::renamed`), with that content.
    pub respelled: Vec<(String, String)>,
}

impl Plan<'_> {
    pub(crate) fn is_empty(&self) -> bool {
        self.restore.is_empty() && self.cut.is_empty() && self.aside.is_empty()
    }

    /// The new test files none of whose tests runs: those set aside and those a stand-in holds the place of
    /// (what `loopgate verify` and `check` name as having sat out the run).
    pub(crate) fn sat_out(&self) -> Vec<String> {
        let mut sat_out = self.aside.clone();
        sat_out.extend(self.stood_in.iter().cloned());
        sat_out.sort();
        sat_out
    }
}

/// Where a project's stash lives.
pub(crate) fn stash_dir(root: &Path) -> PathBuf {
    root.join(crate::project::WORK_DIR).join("stash")
}

/// The existing test files of `copies` that differ from (or are missing against) their copy under `root`.
pub fn changed<'a>(root: &Path, copies: &'a Copies) -> Vec<(&'a str, &'a str)> {
    copies
        .files
        .iter()
        .filter(|(path, sealed)| std::fs::read(root.join(path)).ok().as_deref() != Some(sealed.as_bytes()))
        .map(|(path, sealed)| (path.as_str(), sealed.as_str()))
        .collect()
}

/// Carries out `plan` under `root`: the journal first (through `write_journal`), then the moves. On an error
/// the moves made so far are undone.
pub fn swap(
    root: &Path,
    plan: &Plan,
    write_journal: impl FnOnce(&Journal) -> std::io::Result<()>,
) -> std::io::Result<Journal> {
    let stash = stash_dir(root);
    crate::fsutil::create_dirs(&stash)?;
    let restore = plan.restore.iter().map(|(path, _)| (*path, true));
    let cut = plan.cut.iter().map(|(path, _)| (path.as_str(), true));
    let aside = plan.aside.iter().map(|path| (path.as_str(), false));
    let journal = Journal {
        moved: restore
            .chain(cut)
            .chain(aside)
            .enumerate()
            .map(|(n, (path, replaced))| SetAside {
                path: path.to_string(),
                stash: n.to_string(),
                replaced,
                existed: root.join(path).exists(),
            })
            .collect(),
    };
    // The warden of a tethered process (the Stop hook's) puts the files back at once if the process is killed
    // from here on, instead of the next stop (`process::tether`).
    crate::process::tether::ensure();
    crate::process::tether::aside(true);
    write_journal(&journal)?;
    let sealed: BTreeMap<&str, &str> = (plan.restore.iter().copied())
        .chain(plan.cut.iter().map(|(path, content)| (path.as_str(), content.as_str())))
        .collect();
    for (done, moved) in journal.moved.iter().enumerate() {
        if let Err(e) = swap_one(root, &stash, moved, sealed.get(moved.path.as_str()).copied()) {
            let _ = put_back(root, &journal.moved[..=done]);
            return Err(e);
        }
    }
    Ok(journal)
}

/// The two renames and the write go through directories reached without following links (`fsutil::nofollow`):
/// a test file's directory replaced by a link (`tests -> ~/.config/x`) is refused by name, so nothing is moved
/// out of it nor written into it; a test file that is itself a link is moved aside as the link it is.
fn swap_one(root: &Path, stash: &Path, moved: &SetAside, sealed: Option<&str>) -> std::io::Result<()> {
    use crate::fsutil::nofollow;
    let (stash, slot) = nofollow::parent_of(&stash.join(&moved.stash), true)?;
    let (dir, name) = match nofollow::parent_under(root, Path::new(&moved.path), sealed.is_some()) {
        Ok(found) => found,
        // A sealed test file the agent deleted with its directory: nothing of the agent's to keep, nothing to write.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && sealed.is_none() => return Ok(()),
        Err(e) => return Err(e),
    };
    match dir.rename_into(&name, &stash, &slot) {
        Ok(()) => {}
        // A sealed test file the agent deleted: nothing of the agent's to keep.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    match sealed {
        Some(content) => {
            use std::io::Write;
            dir.create_new(&name, 0o644)?.write_all(content.as_bytes())
        }
        None => Ok(()),
    }
}

/// Puts the agent's versions back after the run (or after a crash); the stash is left empty. Every file is
/// tried; the first error is returned.
pub fn put_back(root: &Path, moved: &[SetAside]) -> std::io::Result<()> {
    let stash = stash_dir(root);
    let mut first_error = None;
    for m in moved {
        let from = stash.join(&m.stash);
        let result = if std::fs::symlink_metadata(&from).is_ok() {
            put_back_one(root, &from, &m.path)
        } else if m.replaced && !m.existed {
            // The agent had deleted this sealed test file: remove the sealed copy that stood in for the run.
            // (An agent's file that existed but is not in the stash never moved: a run killed first.)
            match crate::fsutil::nofollow::parent_under(root, Path::new(&m.path), false)
                .and_then(|(dir, name)| dir.remove(&name))
            {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                other => other,
            }
        } else {
            Ok(())
        };
        if let Err(e) = result {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// Renames the stashed `from` back to `path` under `root`, following no link on either side.
fn put_back_one(root: &Path, from: &Path, path: &str) -> std::io::Result<()> {
    use crate::fsutil::nofollow;
    let (stash, slot) = nofollow::parent_of(from, false)?;
    let (dir, name) = nofollow::parent_under(root, Path::new(path), true)?;
    stash.rename_into(&slot, &dir, &name)
}

#[cfg(test)]
mod tests;
