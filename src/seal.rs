//! The seal: the oracle of a loop, kept outside the project where the agent's tools do not reach.
//!
//! `setup` writes it under `$LOOPGATE_HOME/seals/` (directory 0700, file 0600), keyed by a hash of the project's
//! canonical root so no id from any file can steer the path. It holds what judges the agent — the verify command,
//! its timeout, the promise, the limits, the sealed globs and the SHA-256 of every sealed file — and in fact the
//! whole loop state, including the session it is bound to and the task, so a deleted state file can be restored
//! and an edited one is recognized field by field. The state file in the project is a mirror for people and
//! scripts; loopgate never obeys it: where it differs, the seal wins and the difference is recorded as tampering.
//!
//! A loop that ends is first marked `ended` (atomic), then its state file is removed, then the seal; a crash
//! between steps therefore never resurrects an ended loop.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsutil;
use crate::project::{Project, loopgate_home};
use crate::state::{State, StateFields};
use crate::testjudge::baseline::Baseline;
use crate::testseal::Inventory;

pub mod files;
mod marks;
pub use files::{FileChange, SealedFiles};
pub use marks::{FileMark, MarkCheck};

/// The seal's companion files: the test inventory, the baseline run, the sealed copies of the test files and
/// the journal of a run that swapped them (see `testswap`).
const INVENTORY: &str = "tests";
const BASELINE: &str = "baseline";
pub const TEST_COPIES: &str = "copies";
pub const SWAP_JOURNAL: &str = "swap";
/// What the traced baseline run was seen to use (see `closure::observed`).
pub const OBSERVED: &str = "observed";
/// The traces of the test run the code under test held at setup (see `aware`).
pub const AWARE: &str = "aware";
/// The environment recorded at the baseline and the room's decisions (see `room`).
pub const ROOM: &str = "room";
/// The agent CLI a loop was started from, with the loop's id (`[loop_id, agent]`): `status` checks that CLI's
/// hooks will run (`commands::install::ready`).
pub const AGENT: &str = "agent";
/// The room's tree: the baseline's files and the stat of every file copied (`room::Synced`).
pub const ROOM_TREE: &str = "room-tree";
/// What the baseline read outside the project, held by content (`room::snapshot::Snapshot`).
pub const SNAPSHOT: &str = "snapshot";
const COMPANIONS: [&str; 9] = [
    INVENTORY,
    BASELINE,
    TEST_COPIES,
    SWAP_JOURNAL,
    OBSERVED,
    AWARE,
    ROOM,
    ROOM_TREE,
    SNAPSHOT,
];

/// What stands for the project's root in an exported oracle ([`Store::export`]).
pub const ROOT_MARK: &str = "@LOOPGATE_PROJECT_ROOT@";
/// The seal's file name in an exported oracle.
const EXPORTED_SEAL: &str = "seal.json";

/// How many verify logs keep a mark (the most recent ones).
pub const MARKED_LOGS: usize = 20;

/// Everything sealed for one loop: the whole loop state (the state file is only a mirror of it), the sealed
/// files' hashes, and where the project lives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seal {
    pub project_root: PathBuf,
    pub fields: StateFields,
    pub task: String,
    /// Relative path → SHA-256 hex of every file matched by the sealed globs at setup.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Set as the first step of ending a loop; an ended seal is never obeyed.
    #[serde(default)]
    pub ended: bool,
    /// This loop's part of the history, as loopgate last appended to it.
    #[serde(default)]
    pub history: Option<FileMark>,
    /// The most recent verify logs loopgate wrote (path relative to the project root), oldest first.
    #[serde(default)]
    pub logs: Vec<(String, FileMark)>,
    /// The files that define what the verify command runs, with the digests of their sealed parts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closure: Option<crate::closure::Closure>,
    /// The test files whose signatures the inventory holds (kept here too, so the guard knows them without
    /// loading the inventory, which lives in its own file beside the seal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_files: Vec<String>,
    /// Set when loopgate could not write the state file after this seal (a full disk, a read-only `.claude/`):
    /// the file then still holds an earlier state of loopgate's own, which the next reconcile restores without
    /// calling it tampering. Cleared once the file is written again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mirror_unwritten: bool,
    /// SHA-256 of the state file as loopgate last rendered it from this seal: a file with these bytes is
    /// loopgate's own write and needs no parsing to be compared field by field (a reconcile at every stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mirror_sha256: Option<String>,
    /// The last stop decided, so the same stop heard twice (a hook registered twice) moves the loop once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_stop: Option<crate::schema::LastStop>,
    /// The loop's held-out tests (`--holdout`), moved out of the project or copied from outside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holdout: Option<crate::schema::Holdout>,
}

impl Seal {
    /// The state file this seal mirrors.
    pub fn state(&self) -> State {
        State {
            fields: self.fields.clone(),
            task: self.task.clone(),
        }
    }

    /// Takes the new state as authoritative (the caller then mirrors it into the state file).
    pub fn set_state(&mut self, state: &State) {
        self.fields = state.fields.clone();
        self.task.clone_from(&state.task);
    }
}

/// Names of the state fields (and `task`) where `found` differs from what the seal holds.
pub fn differences(sealed: &State, found: &State) -> Vec<String> {
    let as_map = |fields: &StateFields| match serde_json::to_value(fields) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (want, got) = (as_map(&sealed.fields), as_map(&found.fields));
    let mut names: Vec<String> = want
        .keys()
        .chain(got.keys())
        .filter(|k| want.get(*k) != got.get(*k))
        .cloned()
        .collect();
    names.sort();
    names.dedup();
    // Line endings alone (an editor or git converting the file) do not change what the task says.
    if sealed.task.replace("\r\n", "\n") != found.task.replace("\r\n", "\n") {
        names.push("task".to_string());
    }
    names
}

/// Failures of the seal store; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("failed to read seal `{}`: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("seal `{}` is corrupt: {problem}", path.display())]
    Corrupt { path: PathBuf, problem: String },
    #[error("failed to write seal `{}`: {source} ({})", path.display(), write_hint(source))]
    Write { path: PathBuf, source: std::io::Error },
}

/// What fixes a failed write of the store. Where the store is read-only to this process (the agent's commands
/// run in a world where it is), moving it is no fix and must not be suggested: the user's own terminal is.
fn write_hint(source: &std::io::Error) -> &'static str {
    if source.kind() == std::io::ErrorKind::ReadOnlyFilesystem {
        "loopgate's store is read-only to this process; a person's own terminal writes it"
    } else {
        "set `LOOPGATE_HOME` to a writable directory"
    }
}

/// Where seals live for a project.
pub struct Store {
    dir: PathBuf,
    /// The last project root asked for and its seal file: a stop asks several times, and each answer costs a
    /// `readlink` per component of the root (`canonicalize`).
    last: std::sync::Mutex<Option<(PathBuf, PathBuf)>>,
}

impl Store {
    /// The store under [`loopgate_home`].
    pub fn open() -> Self {
        Self {
            dir: loopgate_home().join("seals"),
            last: std::sync::Mutex::new(None),
        }
    }

    /// The directory holding every seal.
    /// Whether this process can write the store: not where it is bound read-only (the agent's world, see
    /// `confine::world`) or otherwise closed to it. A store not made yet counts as writable (writing makes it).
    pub fn writable(&self) -> bool {
        use std::os::unix::ffi::OsStrExt;
        let Ok(dir) = std::ffi::CString::new(self.dir.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: access(2) on a NUL-terminated path.
        let access = unsafe { libc::access(dir.as_ptr(), libc::W_OK) };
        access == 0 || !self.dir.exists()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The seal file of a project: named by a hash of its canonical root.
    pub fn path_for(&self, project: &Project) -> PathBuf {
        let mut last = self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((root, path)) = last.as_ref()
            && *root == project.root
        {
            return path.clone();
        }
        let path = self.dir.join(format!("{}.json", project.store_key()));
        *last = Some((project.root.clone(), path.clone()));
        path
    }

    /// The project's seal, if one exists (ended or not: the caller finishes ending an ended one).
    pub fn load(&self, project: &Project) -> Result<Option<Seal>, SealError> {
        read_json(&self.path_for(project))
    }

    /// Writes the seal privately (0700 directory, 0600 file) and atomically.
    pub fn save(&self, project: &Project, seal: &Seal) -> Result<(), SealError> {
        self.write_json(&self.path_for(project), seal)
    }

    /// The project's oracle room (see `room`): `rooms/` beside the seal store, named like the seal.
    pub(crate) fn room_dir(&self, project: &Project) -> PathBuf {
        let seal = self.path_for(project);
        let name = seal.file_stem().unwrap_or_default().to_string_lossy();
        self.dir.with_file_name("rooms").join(&name[..name.len().min(16)])
    }

    /// Where a companion of the project's seal lives (the test inventory, the baseline): beside it, named after
    /// it, so that ending or cleaning up the seal finds every companion.
    fn companion_path(&self, project: &Project, companion: &str) -> PathBuf {
        self.path_for(project).with_extension(format!("{companion}.json"))
    }

    /// Where a project's test inventory lives: beside its seal.
    pub fn inventory_path_for(&self, project: &Project) -> PathBuf {
        self.companion_path(project, INVENTORY)
    }

    /// The project's test inventory, if one was taken.
    pub fn load_inventory(&self, project: &Project) -> Result<Option<Inventory>, SealError> {
        read_json(&self.inventory_path_for(project))
    }

    /// Writes the test inventory privately and atomically.
    pub fn save_inventory(&self, project: &Project, inventory: &Inventory) -> Result<(), SealError> {
        self.write_json(&self.inventory_path_for(project), inventory)
    }

    /// A companion file (`TEST_COPIES`, `SWAP_JOURNAL`), if it exists.
    pub fn load_companion<T: serde::de::DeserializeOwned>(
        &self,
        project: &Project,
        companion: &str,
    ) -> Result<Option<T>, SealError> {
        read_json(&self.companion_path(project, companion))
    }

    /// Writes a companion file privately and atomically.
    ///
    /// The room's stat manifest ([`ROOM_TREE`]) is written without indentation: it has an entry per file of the
    /// tree (10,001 on a 10,000-file repository), read at every oracle run of every candidate of a tournament,
    /// and indentation was over a third of its bytes and the largest part of the time spent reading it (issue
    /// 41). Its readers parse either form.
    pub fn save_companion(&self, project: &Project, companion: &str, value: &impl Serialize) -> Result<(), SealError> {
        let path = self.companion_path(project, companion);
        if companion == ROOM_TREE {
            let bytes = serde_json::to_vec(value).map_err(|e| SealError::Write {
                path: path.clone(),
                source: std::io::Error::other(e),
            })?;
            return self.write_bytes(&path, &bytes);
        }
        self.write_json(&path, value)
    }

    /// How the control plane of the loop `loop_id` is protected: the machine's confinement, unless the loop's
    /// agent ran in Claude Code's auto mode, where its commands are not rewritten (the PreToolUse hook leaves the
    /// companion `confine::UNCONFINED`). `loopgate status` and the end-of-loop report both say it.
    pub fn control_plane(&self, project: &Project, loop_id: &str) -> crate::confine::Protection {
        let probe = crate::confine::probe();
        let unconfined: Option<String> = self.load_companion(project, crate::confine::UNCONFINED).ok().flatten();
        if probe.is_protected() && unconfined.as_deref() == Some(loop_id) {
            return crate::confine::Protection::Unprotected {
                why: crate::confine::AUTO_MODE.into(),
            };
        }
        probe.clone()
    }

    /// Removes a companion file (best effort: a missing one is fine).
    pub fn remove_companion(&self, project: &Project, companion: &str) {
        let _ = std::fs::remove_file(self.companion_path(project, companion));
    }

    /// The loop's baseline run (what the verify command ran at setup, test by test), if one was taken.
    pub fn load_baseline(&self, project: &Project) -> Result<Option<Baseline>, SealError> {
        read_json(&self.companion_path(project, BASELINE))
    }

    /// Writes the baseline privately and atomically.
    pub fn save_baseline(&self, project: &Project, baseline: &Baseline) -> Result<(), SealError> {
        self.write_json(&self.companion_path(project, BASELINE), baseline)
    }

    /// Writes `value` as JSON to `path` in the store, privately and atomically.
    fn write_json(&self, path: &Path, value: &impl Serialize) -> Result<(), SealError> {
        let bytes = serde_json::to_vec_pretty(value).map_err(|e| SealError::Write {
            path: path.to_path_buf(),
            source: std::io::Error::other(e),
        })?;
        self.write_bytes(path, &bytes)
    }

    /// Writes `bytes` to the store's file `path`, privately and atomically.
    fn write_bytes(&self, path: &Path, bytes: &[u8]) -> Result<(), SealError> {
        create_private_dir(&self.dir)
            .and_then(|()| fsutil::write_atomic(path, bytes, 0o600))
            .map_err(|source| SealError::Write {
                path: path.to_path_buf(),
                source,
            })
    }

    /// Copies the companions of `from`'s seal (the inventory, the baseline, the test copies, what the traced run
    /// observed, the recorded environment) to `to`'s, with `from`'s root replaced by `to`'s in their paths: a
    /// tournament seals and baselines once and gives every candidate's worktree the same oracle. The room's
    /// caches are not copied (each candidate's oracle runs start cold in a room of their own).
    pub fn copy_companions(&self, from: &Project, to: &Project) -> Result<(), SealError> {
        let (old, new) = (json_path(&from.root), json_path(&to.root));
        for companion in COMPANIONS {
            let source = self.companion_path(from, companion);
            let Some(text) = read_replaced(&source, &old, &new)? else {
                continue;
            };
            // The text is the store's own, written by `write_json`, so it is not parsed again: one escaped path
            // put for another inside JSON strings leaves valid JSON, and the room's stat manifest (10,001 entries
            // on a 10,000-file repository) took most of a candidate's preparation to parse and print (issue 41).
            self.write_bytes(&self.companion_path(to, companion), text.as_bytes())?;
        }
        Ok(())
    }

    /// Writes `from`'s seal (`seal.json`) and companions (`<name>.json`) into `dir`, outside the store, with its
    /// root replaced by [`ROOT_MARK`]: the oracle a CI matrix ships to its jobs as an artifact, each job's
    /// checkout wherever its runner put it (`commands::run::matrix`). The room's caches stay behind, as for
    /// [`Store::copy_companions`].
    pub fn export(&self, from: &Project, dir: &Path) -> Result<(), SealError> {
        create_private_dir(dir).map_err(|source| SealError::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        let old = json_path(&from.root);
        self.copy_json(&self.path_for(from), &dir.join(EXPORTED_SEAL), &old, ROOT_MARK)?;
        for companion in COMPANIONS {
            let target = dir.join(format!("{companion}.json"));
            self.copy_json(&self.companion_path(from, companion), &target, &old, ROOT_MARK)?;
        }
        Ok(())
    }

    /// Takes the companions [`Store::export`] wrote to `dir` as `to`'s, its root in place of [`ROOT_MARK`]; returns
    /// the exported seal's text with the root put in (the caller makes it `to`'s loop).
    pub fn import(&self, dir: &Path, to: &Project) -> Result<String, SealError> {
        let new = json_path(&to.root);
        for companion in COMPANIONS {
            let source = dir.join(format!("{companion}.json"));
            self.copy_json(&source, &self.companion_path(to, companion), ROOT_MARK, &new)?;
        }
        let path = dir.join(EXPORTED_SEAL);
        let bytes = std::fs::read(&path).map_err(|source| SealError::Read { path, source })?;
        Ok(String::from_utf8_lossy(&bytes).replace(ROOT_MARK, &new))
    }

    /// Copies the JSON file `source` (if it exists) to `target`, `old` replaced by `new` in its text.
    /// Parsed on the way: an exported oracle comes from outside the store.
    fn copy_json(&self, source: &Path, target: &Path, old: &str, new: &str) -> Result<(), SealError> {
        let Some(text) = read_replaced(source, old, new)? else {
            return Ok(());
        };
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| SealError::Corrupt {
            path: source.to_path_buf(),
            problem: e.to_string(),
        })?;
        self.write_json(target, &value)
    }

    /// First step of ending a loop: mark the seal ended so nothing obeys it again.
    pub fn mark_ended(&self, project: &Project, seal: &Seal) -> Result<(), SealError> {
        let ended = Seal {
            ended: true,
            ..seal.clone()
        };
        self.save(project, &ended)
    }

    /// Last step of ending a loop (the companions first: a seal without them is still whole).
    pub fn remove(&self, project: &Project) {
        crate::room::Room::at(self.room_dir(project)).remove();
        for companion in COMPANIONS {
            let _ = std::fs::remove_file(self.companion_path(project, companion));
        }
        let _ = std::fs::remove_file(self.path_for(project));
    }

    /// Deletes seals left behind by loops that can never be resumed: ended ones (a crash between the steps of
    /// ending a loop) and those whose project directory is gone. Errors are ignored: cleanup is best effort.
    pub fn clean_stale(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.to_string_lossy().into_owned();
            if let Some(seal) = COMPANIONS
                .iter()
                .find_map(|companion| name.strip_suffix(&format!(".{companion}.json")))
            {
                // A companion outlives its seal only after a crash: it is stale once the seal is gone.
                if !Path::new(&format!("{seal}.json")).exists() {
                    let _ = std::fs::remove_file(&path);
                }
                continue;
            }
            let stale = match std::fs::read(&path)
                .ok()
                .and_then(|b| serde_json::from_slice::<Seal>(&b).ok())
            {
                Some(seal) => seal.ended || !seal.project_root.is_dir(),
                None => path.extension().is_some_and(|e| e == "tmp"),
            };
            if stale {
                let _ = std::fs::remove_file(&path);
            }
        }
        self.clean_stale_rooms();
    }

    /// Removes the rooms (see `room`) whose seal is gone.
    fn clean_stale_rooms(&self) {
        let seals: Vec<String> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let stem = name.strip_suffix(".json")?;
                (!stem.contains('.')).then(|| stem.to_string())
            })
            .collect();
        for room in std::fs::read_dir(self.dir.with_file_name("rooms"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = room.file_name().to_string_lossy().into_owned();
            // A room's snapshot store (`<room>.snapshot`) and the caches its runs kept (`<room>.kept.*`) lie
            // beside it and go with it.
            let name = name.strip_suffix(".snapshot").unwrap_or(&name);
            let name = name.split(".kept.").next().unwrap_or(name);
            if !seals.iter().any(|seal| seal.starts_with(name)) {
                crate::room::Room::at(room.path().with_file_name(name)).remove();
            }
        }
    }
}

/// `path` as it appears inside a JSON string (escaped, without the quotes).
pub(crate) fn json_path(path: &Path) -> String {
    let quoted = serde_json::to_string(&path.to_string_lossy()).unwrap_or_default();
    quoted.trim_matches('"').to_string()
}

/// The text of the file `source`, if it exists, with `old` replaced by `new`.
fn read_replaced(source: &Path, old: &str, new: &str) -> Result<Option<String>, SealError> {
    let bytes = read_bytes(source)?;
    Ok(bytes.map(|bytes| String::from_utf8_lossy(&bytes).replace(old, new)))
}

/// The bytes of the file `path`, if it exists.
fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>, SealError> {
    fsutil::read_optional(path).map_err(|source| SealError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// A JSON file of the store, if it exists.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, SealError> {
    let Some(bytes) = read_bytes(path)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| SealError::Corrupt {
            path: path.to_path_buf(),
            problem: e.to_string(),
        })
}

/// Creates `dir` (and its parents) private to the user: 0700.
pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store of its own in `home`.
    fn store_in(home: &Path) -> Store {
        Store {
            dir: home.join("seals"),
            last: std::sync::Mutex::new(None),
        }
    }

    /// The room's stat manifest is written without indentation and reads back whole; one written indented (by
    /// an earlier loopgate) reads the same.
    #[test]
    fn the_room_manifest_is_written_compact_and_read_in_either_form() {
        let home = tempfile::tempdir().expect("tempdir");
        let store = store_in(home.path());
        let project = Project {
            root: home.path().join("p"),
        };
        let mut synced = crate::room::Synced::default();
        for name in ["a.py", "tests/test_a.py"] {
            synced.baseline.insert(name.into());
            synced.files.insert(name.into(), crate::room::tree::Stamp::default());
        }
        store.save_companion(&project, ROOM_TREE, &synced).expect("save");
        let path = store.companion_path(&project, ROOM_TREE);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(!text.contains('\n'), "{text}");
        let read: Option<crate::room::Synced> = store.load_companion(&project, ROOM_TREE).expect("load");
        assert_eq!(read.as_ref(), Some(&synced));
        store.write_json(&path, &synced).expect("pretty");
        let read: Option<crate::room::Synced> = store.load_companion(&project, ROOM_TREE).expect("load");
        assert_eq!(read, Some(synced));
    }

    /// A tournament's copy of the companions is their text with the root replaced, not parsed again: what a
    /// candidate loads is the first tree's companion with its own root in every path, quotes and backslashes in
    /// the roots included, and a companion the first tree lacks stays absent.
    #[test]
    fn copied_companions_name_the_new_root_and_load_as_written() {
        let home = tempfile::tempdir().expect("tempdir");
        let store = store_in(home.path());
        let from = Project {
            root: home.path().join("wt/c1 \"q\"\\x"),
        };
        let to = Project {
            root: home.path().join("wt/c2 \"q\"\\x"),
        };
        let written = serde_json::json!({
            "paths": [from.root.join("tests/a.py"), "/elsewhere/c1"],
            "nested": {"root": from.root, "n": 3},
        });
        store.save_companion(&from, ROOM, &written).expect("save");
        store.copy_companions(&from, &to).expect("copy");
        let copied: serde_json::Value = store.load_companion(&to, ROOM).expect("load").expect("copied");
        let wanted = serde_json::json!({
            "paths": [to.root.join("tests/a.py"), "/elsewhere/c1"],
            "nested": {"root": to.root, "n": 3},
        });
        assert_eq!(copied, wanted);
        let absent: Option<serde_json::Value> = store.load_companion(&to, SNAPSHOT).expect("load");
        assert_eq!(absent, None);
    }
}
