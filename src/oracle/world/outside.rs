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
}

impl Outside {
    /// The loop's places outside the project, as its seal store recorded them.
    pub(crate) fn load(active: &ActiveLoop) -> Result<Outside, Error> {
        let snapshot = active
            .store
            .load_companion::<Snapshot>(&active.project, crate::seal::SNAPSHOT)?;
        let covered = covered_outside(active, snapshot.as_ref())?;
        Ok(Outside { snapshot, covered })
    }

    /// The snapshot the run's namespace presents, if setup took one.
    pub(crate) fn snapshot(&self) -> Option<&Snapshot> {
        self.snapshot.as_ref()
    }

    /// The breach `moves` make, without those at or below a covered place: a file the run cannot see is no input
    /// of the oracle's, and the user's machine changing (a new `~/.npmrc`, a `pip install --user`) must not fail a
    /// promise. A file that existed at setup and changed is never covered, so it is still seen here.
    pub(crate) fn breach(&self, moves: Vec<Move>, root: &Path) -> Breach {
        let moves = moves
            .into_iter()
            .filter(|m| {
                let path = Path::new(m.path());
                !(path.is_absolute() && self.covered.iter().any(|place| path.starts_with(place)))
            })
            .collect();
        Breach::of(moves, root)
    }

    /// What the baseline read outside the project that this run cannot read from the snapshot (no mount
    /// namespace here, a file held by stat alone) and that differs now: compared by content, named, not run on.
    pub(crate) fn unpresented(&self, presented: &[PathBuf]) -> Vec<Move> {
        let presented: HashSet<&Path> = presented.iter().map(PathBuf::as_path).collect();
        self.snapshot
            .iter()
            .flat_map(|s| s.changed(&presented))
            .map(|path| Move::File(FileChange::Changed(path)))
            .collect()
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
}
