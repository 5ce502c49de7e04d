//! Removing what a tournament leaves: the candidates' clones (`worktrees/<id>/`, with their logs), each
//! candidate's seal, companions and oracle room in the store, and the branches `loopgate/<id>/*` in the user's
//! repository. It is found from the store and the repository, not from the record's candidate list, so a
//! tournament stopped before its record listed its candidates is cleaned as completely. The record itself and
//! the candidates' history copies stay: `list`, `show` and `report` still tell what happened.

use std::path::Path;

use crate::error::Error;
use crate::project::Project;
use crate::seal::Store;

use super::git;
use super::record;

/// Removes tournament `id`'s clones, seals, rooms and branches from `repo`; returns how many branches went.
pub(crate) fn remove(id: &str, repo: &Path) -> Result<usize, Error> {
    remove_clones(id)?;
    let refs = git::git(
        repo,
        &[
            "for-each-ref",
            "--format=%(refname)",
            &format!("refs/heads/loopgate/{id}/"),
        ],
    )?;
    let mut removed = 0;
    for name in refs.lines().filter(|l| !l.is_empty()) {
        git::git(repo, &["update-ref", "-d", name])?;
        removed += 1;
    }
    Ok(removed)
}

/// Removes tournament `id`'s clones (with their logs) and each candidate's seal, companions and room.
pub(crate) fn remove_clones(id: &str) -> Result<(), Error> {
    let dir = record::worktrees(id);
    let store = Store::open();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            // A layered tree's overlay first, where this process still has it mounted (`layer`).
            super::layer::unmount(&path);
            store.remove(&Project { root: path.clone() });
            remove_tree(&path)?;
        }
    }
    remove_tree(&dir)
}

/// Removes a directory tree; one that is not there is fine.
fn remove_tree(path: &Path) -> Result<(), Error> {
    match std::fs::remove_dir_all(path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(Error::Io {
            action: "remove a tournament's clone",
            path: path.to_path_buf(),
            source,
        }),
        _ => Ok(()),
    }
}
