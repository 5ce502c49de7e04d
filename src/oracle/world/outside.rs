//! The places outside the project that the oracle's run reads (`room::outside`, `room::snapshot`), as one value
//! loaded once per promise: which of them the run will not see (so a change there is no input of the run), and
//! what of the snapshot it cannot be shown (so it is compared by content instead).
//!
//! Why a stage of its own: the checks before the run, the check after a pass and `loopgate allow`'s breach
//! (`oracle::breach`) must all leave out exactly the same places; one value asked three times cannot disagree.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::inputs::Move;
use crate::lifecycle::ActiveLoop;
use crate::oracle::Breach;
use crate::room::Recorded;
use crate::room::snapshot::Snapshot;
use crate::seal::FileChange;

/// What the oracle's run reads outside the project, and what of it the run will not see.
pub(crate) struct Outside {
    /// The loop's snapshot of what the baseline read outside the project, if setup took one.
    snapshot: Option<Snapshot>,
    /// The places whose changes are no input of the run (see [`covered_outside`]).
    covered: Vec<PathBuf>,
    /// The snapshot's store (its objects), and the stats at which its linked objects were last read and found
    /// intact (`room::snapshot::objects::Seen`: a stat that moved since costs a read, never a verdict).
    store: PathBuf,
    seen: std::sync::Mutex<crate::room::snapshot::objects::Seen>,
}

impl Outside {
    /// The loop's places outside the project, as its seal store recorded them.
    pub(crate) fn load(active: &ActiveLoop) -> Result<Outside, Error> {
        let snapshot = active
            .store
            .load_companion::<Snapshot>(&active.project, crate::seal::SNAPSHOT)?;
        let covered = covered_outside(active, snapshot.as_ref())?;
        let store = crate::room::Room::snapshot_dir_of(&active.store.room_dir(&active.project));
        let seen = std::sync::Mutex::new(crate::room::snapshot::objects::Seen::load(&store));
        Ok(Outside {
            snapshot,
            covered,
            store,
            seen,
        })
    }

    /// The snapshot the run's namespace presents, if setup took one.
    pub(crate) fn snapshot(&self) -> Option<&Snapshot> {
        self.snapshot.as_ref()
    }

    /// The breach `moves` make, without those at or below a covered place: a file the run cannot see is no input
    /// of the oracle's, and the user's machine changing (a new `~/.npmrc`, a `pip install --user`) must not fail a
    /// promise. A file that existed at setup and changed is never covered, so it is still seen here.
    pub(crate) fn breach(&self, moves: Vec<Move>, root: &Path) -> Breach {
        self.breach_keeping(moves, Vec::new(), root)
    }

    /// [`Outside::breach`] of `moves`, with `kept` added whatever place they lie in: what the snapshot itself
    /// found it could not show the run (a linked object edited in place), which no covered place makes harmless.
    pub(crate) fn breach_keeping(&self, moves: Vec<Move>, kept: Vec<Move>, root: &Path) -> Breach {
        let mut moves: Vec<Move> = moves
            .into_iter()
            .filter(|m| {
                let path = Path::new(m.path());
                !(path.is_absolute() && self.covered.iter().any(|place| path.starts_with(place)))
            })
            .collect();
        for m in kept {
            if !moves.iter().any(|have| have.path() == m.path()) {
                moves.push(m);
            }
        }
        Breach::of(moves, root)
    }

    /// What the baseline read outside the project that this run cannot read from the snapshot (no mount
    /// namespace here, a file held by stat alone) and that differs now: compared by content, named, not run on.
    pub(crate) fn unpresented(&self, presented: &[PathBuf]) -> Vec<Move> {
        let presented: HashSet<&Path> = presented.iter().map(PathBuf::as_path).collect();
        let Some(snapshot) = &self.snapshot else {
            return Vec::new();
        };
        let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let changed = snapshot.changed(&presented, &self.store, &mut seen);
        seen.save(&self.store);
        changed
            .into_iter()
            .map(|path| Move::File(FileChange::Changed(path)))
            .collect()
    }
}

impl Outside {
    /// The snapshot's linked objects (hard links to the user's files), each with the held path it holds.
    pub(crate) fn linked(&self) -> Vec<(PathBuf, String)> {
        self.snapshot
            .as_ref()
            .map(|snapshot| snapshot.linked(&self.store))
            .unwrap_or_default()
    }
}

/// The room's stat manifest (`room::Synced`) read for its places outside the project alone: its entry per file
/// of the tree (10,001 on a 10,000-file repository) is skipped, not built, on every promise (issue 41).
#[derive(serde::Deserialize)]
struct PlacesOnly {
    #[serde(default)]
    outside: crate::room::outside::Outside,
}

/// What of the places outside the project the oracle's run will not see (`room::outside`): what was added there
/// since setup; and the paths it reads from the `snapshot` whatever they hold now (`room::snapshot`). Empty where
/// the loop's runs do not stand in the mounted tree, or this process cannot enter it (`loopgate verify` inside
/// Claude Code's sandbox): there detection is all there is.
fn covered_outside(active: &ActiveLoop, snapshot: Option<&Snapshot>) -> Result<Vec<PathBuf>, Error> {
    let (store, project) = (&active.store, &active.project);
    let Some(recorded) = store.load_companion::<Recorded>(project, crate::seal::ROOM)? else {
        return Ok(Vec::new());
    };
    if recorded.tree != Some(crate::room::TreeState::Mounted) || crate::room::mount::probe().is_err() {
        return Ok(Vec::new());
    }
    let Some(synced) = store.load_companion::<PlacesOnly>(project, crate::seal::ROOM_TREE)? else {
        return Ok(Vec::new());
    };
    let root = project.root.canonicalize().unwrap_or_else(|_| project.root.clone());
    let hidden = synced.outside.hidden(&recorded.vars, &root);
    let mut covered: Vec<PathBuf> = hidden.cover.into_iter().map(|(path, _)| path).collect();
    // What the snapshot presents, the run reads as the baseline did: a change there is no input of the run (a
    // file the snapshot cannot present after all is compared by content once the run's mounts are known).
    if crate::room::mount::Private::probe().is_ok()
        && let Some(snapshot) = snapshot
    {
        covered.extend(snapshot.files.keys().map(PathBuf::from));
    }
    Ok(covered)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The places read alone from a room manifest are the manifest's own, whatever else it holds.
    #[test]
    fn the_places_read_alone_are_the_manifests() {
        let mut synced = crate::room::Synced::default();
        synced.baseline.insert("src/a.rs".into());
        synced
            .files
            .insert("src/a.rs".into(), crate::room::tree::Stamp::default());
        synced.outside.places.insert(
            "/home/u/.npmrc".into(),
            crate::room::outside::Place {
                dir: false,
                entries: std::collections::BTreeMap::new(),
                stat: (12, 1_700_000_000_000_000_001),
            },
        );
        let text = serde_json::to_vec_pretty(&synced).expect("json");
        let read: PlacesOnly = serde_json::from_slice(&text).expect("places");
        assert_eq!(read.outside, synced.outside);
    }

    /// The checks before and after the run and `loopgate allow` leave out exactly the covered places: below one,
    /// an absolute path is no input of the run; the project's own paths and a path beside a place still count.
    #[test]
    fn a_move_below_a_covered_place_is_no_input_and_every_other_still_is() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let outside = Outside {
            snapshot: None,
            covered: vec![PathBuf::from("/home/u/.npm")],
            store: tmp.path().join("store"),
            seen: Default::default(),
        };
        let changed = |path: &str| Move::File(FileChange::Changed(path.into()));
        let moves = vec![
            changed("/home/u/.npm/_cacache/index"),
            changed("/home/u/.npmrc"),
            changed("/home/u/.npm-other/x"),
            changed("tests/test_a.py"),
        ];
        let breach = outside.breach(moves, tmp.path());
        let paths: Vec<&str> = breach.moves.iter().map(Move::path).collect();
        assert_eq!(paths, ["/home/u/.npmrc", "/home/u/.npm-other/x", "tests/test_a.py"]);
        assert!(outside.unpresented(&[]).is_empty(), "no snapshot: nothing to compare");
    }

    /// What the snapshot itself could not keep (a linked object whose file was edited in place, found after the
    /// run or heard during it) is kept in the breach although its path is a presented, covered one: before, a
    /// pass dropped it with the covered places' changes.
    #[test]
    fn a_linked_object_edited_during_the_run_is_kept_though_its_place_is_covered() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let held = "/home/u/node_modules/pkg/index.js";
        let outside = Outside {
            snapshot: None,
            covered: vec![PathBuf::from(held)],
            store: tmp.path().join("store"),
            seen: Default::default(),
        };
        let changed = |path: &str| Move::File(FileChange::Changed(path.into()));
        assert!(
            outside.breach(vec![changed(held)], tmp.path()).is_empty(),
            "a covered change"
        );
        let breach = outside.breach_keeping(vec![changed(held)], vec![changed(held)], tmp.path());
        let paths: Vec<&str> = breach.moves.iter().map(Move::path).collect();
        assert_eq!(paths, [held], "kept, once");
    }
}
