//! The candidates' trees as layers over one checkout (issue 41: at most 0.5 s CPU per extra candidate).
//!
//! A clone per candidate creates every file of the repository once per candidate (10,001 files take 1–3 s of
//! system time on ext4), so where the kernel lets an unprivileged process mount an overlay, the tournament makes
//! **one** clone, `worktrees/<id>/base`, never written once it is checked out, and gives each candidate an overlay
//! at `worktrees/<id>/cK`: the base below, read-only and shared; the candidate's own upper layer
//! (`cK.layer/upper`, with the kernel's `cK.layer/work`) above, where every write of its agent, its loop and its
//! git directory lands, copy-on-write. Its tree is then what a clone was — the same files, a `.git` of its own
//! (the base's, copied up on its first write) — at the same path, for the cost of two directories.
//!
//! **Where the overlays are.** A mount of an unprivileged process exists in its own mount namespace only. The
//! tournament enters a user and mount namespace of its own before it starts a thread (`confine::mount::layer`)
//! and mounts every candidate's overlay there, so everything loopgate does to a tree — the seal copied in, the
//! starting checkpoint, the live table's reading of its history, its work committed through loopgate's private
//! index — reads and writes the merged tree at its usual path, with no second code path. Each candidate's
//! `loopgate run` starts in a mount namespace of its own without the other candidates' overlays: there their
//! mount points are the store's empty directories, read-only in its agent's world as the whole store is. The
//! upper layers are in the store too, so a candidate reaches another's only through the store, which it cannot
//! write; and the base, the lower layer of all, is in the store as well.
//!
//! **The oracle room's tree, layered too.** Each candidate's first oracle run would copy the whole tree into its
//! room (`room::tree`). The room tree sealing built from the shared checkout becomes `worktrees/<id>/room-base`,
//! and each candidate's room tree is an overlay of it mounted in its process's namespace (`cK.room` its upper
//! layer): the room's stat manifest, copied with the seal, matches the lower layer's files, so the sync copies
//! only what the candidate changed. Before it is shared, that room tree is synced against the shared checkout
//! itself and the manifest records both lower layers, so each candidate's sync also *walks* only the
//! directories its upper layers hold, not the whole tree (`room::layered` says why that misses nothing). Its
//! agent's world keeps it read-only with the rest of the store (`confine::world`, the mounts below the store).
//!
//! **Seen from outside.** Outside the tournament's namespace (another shell, after it ended) `cK` is an empty
//! directory: the work is on the branch `loopgate/<id>/cK`, and `loopgate status` reads a candidate's history
//! from its upper layer ([`outside`]).
//!
//! **Where there are no overlays** — macOS, a kernel refusing unprivileged user namespaces or overlays,
//! `LOOPGATE_CONFINE=landlock|off` (no agent's world to keep the base read-only), `LOOPGATE_TOURNAMENT_TREES=clone`,
//! or a mount refused on the store's file system — every candidate gets a clone, as before, and the tournament
//! says which and why.

use std::path::{Path, PathBuf};

use crate::confine::mount::layer::Overlay;

/// `LOOPGATE_TOURNAMENT_TREES=clone`: a clone per candidate even where overlays work (to compare, and a way
/// back should a kernel misbehave with them).
pub(crate) const TREES_ENV: &str = "LOOPGATE_TOURNAMENT_TREES";

/// The shared checkout's name in the tournament's directory.
pub(super) const BASE: &str = "base";

/// The shared copy of the oracle room's tree, in the tournament's directory: the room's tree as sealing the
/// oracle left it (the baseline's sync of the shared checkout), the lower layer of every candidate's room tree.
const ROOM_BASE: &str = "room-base";

/// How the candidates' trees are made.
#[derive(Debug)]
pub(super) enum Trees {
    /// One checkout, an overlay per candidate (module docs); the tournament is in its own namespace.
    Layered,
    /// A clone per candidate; why not layered.
    Clones(String),
}

impl Trees {
    /// Chooses, and for [`Trees::Layered`] enters the tournament's namespace. Before any thread is started.
    pub(super) fn choose() -> Trees {
        match usable().and_then(|()| crate::confine::mount::layer::enter().map_err(|e| e.to_string())) {
            Ok(()) => Trees::Layered,
            Err(why) => Trees::Clones(why),
        }
    }

    /// The line the tournament prints about its trees.
    pub(super) fn describe(&self) -> String {
        match self {
            Trees::Layered => {
                "one checkout shared read-only, each candidate's writes in an overlay of its own".to_string()
            }
            Trees::Clones(why) => format!("a clone each (no overlays: {why})"),
        }
    }
}

/// Whether layered trees can be had here, before anything is entered.
fn usable() -> Result<(), String> {
    if std::env::var_os(TREES_ENV).is_some_and(|v| v == "clone") {
        return Err(format!("{TREES_ENV}=clone"));
    }
    if let Some(switch) = std::env::var_os("LOOPGATE_CONFINE").filter(|v| v == "off" || v == "landlock") {
        return Err(format!("LOOPGATE_CONFINE={}", switch.to_string_lossy()));
    }
    crate::confine::mount::probe()?;
    crate::confine::mount::Private::probe()?;
    // Each candidate's overlays are mounts below the store, which its agent's world must keep read-only too.
    #[cfg(target_os = "linux")]
    if !crate::confine::world::recursive_readonly_works() {
        return Err("this kernel has no mount_setattr (before Linux 5.12)".into());
    }
    Ok(())
}

/// Mounts candidate `tree`'s overlay over `base` (its upper layer made beside it, `cK.layer`).
pub(super) fn mount(base: &Path, tree: &Path) -> Result<(), crate::error::Error> {
    let layer = layer_of(tree);
    let (upper, work) = (layer.join("upper"), layer.join("work"));
    for dir in [tree, &upper, &work] {
        crate::seal::create_private_dir(dir).map_err(|source| crate::error::Error::Io {
            action: "create a candidate's layer",
            path: dir.to_path_buf(),
            source,
        })?;
    }
    crate::confine::mount::layer::overlay(base, &upper, &work, tree).map_err(|source| crate::error::Error::Io {
        action: "mount the overlay of the candidate's tree",
        path: tree.to_path_buf(),
        source,
    })
}

/// The directory of `tree`'s upper layer and the kernel's work directory.
fn layer_of(tree: &Path) -> PathBuf {
    tree.with_extension("layer")
}

/// The room's tree of candidate `tree`'s loop (`room::tree`), whose room is in the store.
fn room_tree(tree: &Path) -> PathBuf {
    crate::seal::Store::open()
        .room_dir(&crate::project::Project {
            root: tree.to_path_buf(),
        })
        .join(crate::room::tree::PLACE)
}

/// Makes the room's tree that sealing the oracle built in `first` (the baseline's copy of the shared checkout,
/// 10,001 files for 10,001) the shared lower layer of every candidate's room tree, in the tournament's `dir`:
/// each candidate's first oracle run then syncs only what its candidate changed (the copies' stat, which the
/// room's manifest compares, is the lower layer's) instead of copying the whole tree again. Nothing where
/// sealing built no room tree (`LOOPGATE_ROOM_TREE=0`, `LOOPGATE_ROOM=0`).
///
/// Before it is shared, the room tree is synced against the shared checkout itself (what the baseline run left
/// in it goes, as a candidate's own sync would remove it), and the manifest records the two lower layers it now
/// describes exactly: each candidate's sync then walks only the directories its own upper layers hold
/// (`room::layered`).
pub(super) fn share_room(dir: &Path, first: &Path) -> Result<(), crate::error::Error> {
    let built = room_tree(first);
    if !built.is_dir() {
        return Ok(());
    }
    let shared = dir.join(ROOM_BASE);
    let store = crate::seal::Store::open();
    let project = crate::project::Project {
        root: first.to_path_buf(),
    };
    if let Some(mut synced) = store.load_companion::<crate::room::Synced>(&project, crate::seal::ROOM_TREE)? {
        let base = dir.join(BASE);
        synced.sync(&base, &built).map_err(|source| crate::error::Error::Io {
            action: "sync the oracle room's tree with the shared checkout",
            path: built.clone(),
            source,
        })?;
        synced.layers = Some(crate::room::layered::Layers {
            source: base,
            copy: shared.clone(),
        });
        store.save_companion(&project, crate::seal::ROOM_TREE, &synced)?;
    }
    std::fs::rename(&built, &shared).map_err(|source| crate::error::Error::Io {
        action: "move the oracle room's tree to the tournament",
        path: built.clone(),
        source,
    })
}

/// Removes what candidate `tree`'s room tree leaves once its loop ended (its loop removed the rest of its room,
/// `room::Room::remove`): its mount point, here outside the candidate's namespace an empty directory, and its
/// upper layer (the copies of the files the candidate changed), as a room is removed whole when its loop ends.
pub(super) fn forget_room(tree: &Path) {
    let at = room_tree(tree);
    if std::fs::remove_dir(&at).is_ok()
        && let Some(room) = at.parent()
    {
        let _ = std::fs::remove_dir(room);
    }
    let layer = room_layer_of(tree);
    loosen(&layer);
    let _ = std::fs::remove_dir_all(layer);
}

/// The upper layer of candidate `tree`'s room tree, with the kernel's work directory.
fn room_layer_of(tree: &Path) -> PathBuf {
    layer_of(tree).with_extension("room")
}

/// Lets the layer `layer` be removed: the kernel leaves its work directory's inner `work` with no permission
/// at all, which even its owner cannot list.
fn loosen(layer: &Path) {
    let inner = layer.join("work").join("work");
    if inner.is_dir() {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(inner, std::fs::Permissions::from_mode(0o700));
    }
}

/// What candidate `tree`'s process does before it runs (`confine::mount::layer::alone`): the other candidates'
/// overlays among `all` to take away, and its room's tree to mount (where there is a shared one, see
/// [`share_room`]), its mount point and upper layer made here. Prepared before the fork.
pub(super) fn alone(
    dir: &Path,
    tree: &Path,
    all: &[PathBuf],
) -> std::io::Result<(Vec<std::ffi::CString>, Option<Overlay>)> {
    let others: Vec<&Path> = all.iter().filter(|t| *t != tree).map(PathBuf::as_path).collect();
    let others = crate::confine::mount::layer::paths(&others)?;
    let shared = dir.join(ROOM_BASE);
    if !shared.is_dir() {
        return Ok((others, None));
    }
    let at = room_tree(tree);
    let layer = room_layer_of(tree);
    let (upper, work) = (layer.join("upper"), layer.join("work"));
    for made in [&at, &upper, &work] {
        crate::seal::create_private_dir(made)?;
    }
    Ok((others, Some(Overlay::new(&shared, &upper, &work, &at)?)))
}

/// Takes `tree`'s overlay away in this namespace (nothing where none is mounted) and lets its layers be removed
/// ([`loosen`]). Before a tournament's directory is removed.
pub(super) fn unmount(tree: &Path) {
    crate::confine::mount::layer::detach(tree);
    loosen(&layer_of(tree));
    loosen(&room_layer_of(tree));
}

/// `path` under candidate `tree`, as a process outside the tournament's namespace can read it: the file itself
/// where it is there (a clone, or inside the namespace), else its copy in the candidate's upper layer (where
/// every file a candidate wrote lies).
pub(crate) fn outside(tree: &Path, path: &Path) -> PathBuf {
    if path.exists() {
        return path.to_path_buf();
    }
    match path.strip_prefix(tree) {
        Ok(relative) => layer_of(tree).join("upper").join(relative),
        Err(_) => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_absent_from_the_tree_is_read_from_its_upper_layer() {
        let dir = tempfile::tempdir().expect("tempdir");
        let tree = dir.path().join("c2");
        let upper = dir.path().join("c2.layer/upper/.claude");
        std::fs::create_dir_all(&upper).expect("upper");
        std::fs::create_dir_all(&tree).expect("tree");
        std::fs::write(upper.join("h.jsonl"), "x").expect("write");
        let wanted = tree.join(".claude/h.jsonl");
        assert_eq!(outside(&tree, &wanted), upper.join("h.jsonl"));
        // Where the tree has it (a clone, or seen inside the namespace), the tree's own is read.
        std::fs::create_dir_all(tree.join(".claude")).expect("dir");
        std::fs::write(&wanted, "y").expect("write");
        assert_eq!(outside(&tree, &wanted), wanted);
    }
}
