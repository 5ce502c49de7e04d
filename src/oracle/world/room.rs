//! The oracle's room for one run (see `room`): the baseline's environment and the private caches, the room's
//! tree synced from the project where the loop's runs stand in it, and the plane the run may not write.
//!
//! Why a stage of its own: the visible run (`oracle::judge`), the held-out run (`oracle::holdout`) and setup's
//! baseline (`commands::setup`) stand in the same room under the same plane; each asks here rather than
//! building it again.

use crate::error::Error;
use crate::lifecycle::ActiveLoop;
use crate::room::{Recorded, Room};

/// An oracle run's room: the run's environment, the room it writes to, what setup recorded; a room made for
/// this run alone is removed when this is dropped.
pub(crate) struct InRoom {
    pub(crate) env: crate::room::Env,
    pub(crate) room: Room,
    pub(crate) recorded: Recorded,
    _throwaway: Option<crate::room::Throwaway>,
}

/// The environment of an oracle run in the loop's room (see `room`): the baseline's variables and the private
/// caches, with the run's own room where the loop's cannot be written (kept until the run ends). `None` for a
/// loop set up before the room existed: it runs as it always did.
pub(crate) fn in_room(active: &ActiveLoop) -> Result<Option<InRoom>, Error> {
    let (store, project) = (&active.store, &active.project);
    let Some(recorded) = store.load_companion::<Recorded>(project, crate::seal::ROOM)? else {
        return Ok(None);
    };
    let dir = store.room_dir(project);
    let (room, throwaway) = Room::at(dir.clone()).ready(&recorded).map_err(|source| Error::Io {
        action: "prepare the oracle's room",
        path: dir,
        source,
    })?;
    Ok(Some(InRoom {
        env: room.env(&recorded, |name| std::env::var_os(name)),
        room,
        recorded,
        _throwaway: throwaway,
    }))
}

impl InRoom {
    /// The room's tree for this run, synced from the project as it stands now, where the loop's runs stand in it
    /// (see `room::tree`, mounted or copied), with the sync's manifest; `None` where they stand in the project's
    /// own tree.
    pub(super) fn tree(
        &self,
        active: &ActiveLoop,
        snapshot: Option<&crate::room::snapshot::Snapshot>,
    ) -> Result<Option<(crate::room::Placed, crate::room::tree::Done, crate::room::Synced)>, Error> {
        // A process that cannot enter a namespace now (`loopgate verify` inside Claude Code's sandbox, which
        // allows none) runs in the project's own tree, as where setup found none; the Stop hook runs outside it.
        let state = self.recorded.tree.as_ref();
        if !crate::room::TreeState::in_tree(state)
            || (state == Some(&crate::room::TreeState::Mounted) && crate::room::mount::probe().is_err())
        {
            return Ok(None);
        }
        let (store, project) = (&active.store, &active.project);
        let Some(mut synced) = store.load_companion::<crate::room::Synced>(project, crate::seal::ROOM_TREE)? else {
            return Ok(None);
        };
        let known = synced.files.len();
        let placed = self
            .room
            .place_tree(
                state,
                &project.root,
                &self.recorded.vars,
                &mut synced,
                snapshot,
                &self.room.fresh_caches(&self.recorded),
            )
            .map_err(|source| Error::Io {
                action: "sync the oracle's tree in",
                path: self.room.dir().to_path_buf(),
                source,
            })?;
        // Written only when the sync changed it (a warm promise writes nothing), and best effort: a manifest not
        // saved (a seal store the process cannot write) only makes the next sync copy more, since a file is
        // skipped only when both it and its copy are as the manifest says.
        if let Some((_, done)) = &placed
            && (done.copied > 0 || done.removed > 0 || synced.files.len() != known)
        {
            let _ = store.save_companion(project, crate::seal::ROOM_TREE, &synced);
        }
        Ok(placed.map(|(placed, done)| (placed, done, synced)))
    }
}

/// What an oracle run in the room at `dir` may not write: loopgate's control plane, but for the room itself
/// (its private caches and temporary directory live under loopgate's home).
///
/// The room's tree gets a rule of its own: mounted over the project, it is reached through the project's path, and
/// Landlock never looks at the directory a mount hides, so the project's rule no longer covers it.
pub(crate) fn room_plane(dir: &std::path::Path) -> crate::plane::Plane {
    let mut plane = crate::plane::Plane::for_home();
    plane.allow(dir);
    plane.allow(&dir.join(crate::room::tree::PLACE));
    plane
}
