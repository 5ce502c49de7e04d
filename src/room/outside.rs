//! What lies outside the project that the runners read on their own, as at the baseline (issue 29, item 1): a
//! run in the room's tree sees these places as setup saw them, not as the agent (or the user) left them since.
//!
//! The places, by class (each resolved from the baseline's environment, so `HOME`, `PYTHONUSERBASE`,
//! `CARGO_HOME`… are the recorded ones):
//! - Python's user site-packages (`$PYTHONUSERBASE` or `~/.local`, `lib/python*/site-packages`): a
//!   `usercustomize.py` or `.pth` there runs before any test;
//! - node's per-user module directories (`~/.node_modules`, `~/.node_libraries`, each directory of `NODE_PATH`)
//!   and the user's `.npmrc` (its `node-options` preload code);
//! - cargo's user configuration (`$CARGO_HOME/config.toml`, `config`: build flags, a `runner`, patched sources);
//! - Go's environment file (`$GOENV`, or `go/env` in the user's configuration directory: what `go env -w`
//!   writes, `GOFLAGS` among it).
//!
//! Setup records which of them existed and, for a directory, its entries ([`Outside::take`]). In the room's
//! namespace ([`Outside::hidden`]) a place that did not exist at the baseline is covered (a directory by an
//! empty file system, a file by `/dev/null`), and so is each entry of a directory that is new since the
//! baseline; a place that existed and is unchanged is left as it is. So the user's honest changes outside
//! the project (`pip install --user` of something the tests do not use, a new `~/.inputrc`) change nothing
//! for the run, and the agent's (a `usercustomize.py` in a user site made after setup) do not reach it.
//!
//! The covers show the places as the baseline left them when the run starts; [`Hidden::frozen`] keeps them so
//! while it goes on: each stands read-only in the namespace, an absent one made empty and read-only in the run's
//! scratch (`confine/mount/frozen.rs`), so no process of the run writes one for the runner it starts next.
//!
//! Not covered: an entry that existed at the baseline and was changed in place (its baseline content is not
//! kept); [`Outside::hidden`] reports it, and it reaches the run.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub(crate) use crate::confine::Frozen;

include!(concat!(env!("OUT_DIR"), "/ecosystem/room/outside.rs"));

/// An ecosystem's places outside the project that its runners read on their own, for the user's `home` and
/// the baseline's variables (`var`: a variable's value as a path, where it is set and not empty).
type Places = fn(&Path, &dyn Fn(&str) -> Option<PathBuf>) -> Vec<At>;

/// One place of an ecosystem's, and what stands there during a run where it is absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub path: PathBuf,
    pub absent: Absent,
}

/// What stands at an absent place during a run (see [`Frozen`]), so that no process of the run makes one there
/// for a later process to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Absent {
    /// An empty read-only directory (a module directory, a user site).
    Dir,
    /// An empty read-only file (a configuration file).
    File,
    /// Nothing: the place's absence is a setting of its own (cargo reads a legacy `config` before a
    /// `config.toml` and warns when both stand, so only one of the two may be made).
    Left,
}

impl At {
    pub(crate) fn dir(path: PathBuf) -> At {
        At {
            path,
            absent: Absent::Dir,
        }
    }

    pub(crate) fn file(path: PathBuf) -> At {
        At {
            path,
            absent: Absent::File,
        }
    }
}

/// Every ecosystem's places (`src/ecosystem/<name>/outside.rs`), in the registration's order, the order they
/// are listed in.
const PLACES: &[Places] = &each_outside!(places);

/// The places as setup found them: each that existed, with its entries (a directory) or none (a file).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Outside {
    pub places: BTreeMap<String, Place>,
}

/// One place that existed at the baseline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Place {
    pub dir: bool,
    /// A directory's entries, each with its size and modification time (nanoseconds).
    pub entries: BTreeMap<String, (u64, i128)>,
    /// A file's size and modification time.
    pub stat: (u64, i128),
}

/// What to cover in the run's namespace, and what changed in place (not covered).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hidden {
    /// Paths to cover: `true` for a directory (an empty file system), `false` for a file (`/dev/null`).
    pub cover: Vec<(PathBuf, bool)>,
    /// Entries that existed at the baseline and changed since.
    pub changed: Vec<PathBuf>,
    /// Symbolic links made since where the baseline found nothing (`room::snapshot::absent`): no mount can cover a
    /// link, so a run that passed with one there is rejected naming it.
    pub links: Vec<PathBuf>,
    /// Every place, and how it stands during the run ([`Frozen`]).
    pub frozen: Vec<(PathBuf, Frozen)>,
}

impl Outside {
    /// The places as they are now, for the baseline's environment `vars` and a project at `root`.
    pub(crate) fn take(vars: &BTreeMap<String, String>, root: &Path) -> Outside {
        let places = candidates(vars, root)
            .into_iter()
            .filter_map(|At { path, .. }| {
                let place = Place::of(&path)?;
                Some((path.to_string_lossy().into_owned(), place))
            })
            .collect();
        Outside { places }
    }

    /// What a run now must not see of these places (see the module doc).
    pub(crate) fn hidden(&self, vars: &BTreeMap<String, String>, root: &Path) -> Hidden {
        let mut hidden = Hidden::default();
        for At { path, absent } in candidates(vars, root) {
            let meta = std::fs::symlink_metadata(&path);
            let frozen = match (&meta, absent) {
                (Ok(meta), _) if meta.file_type().is_symlink() => None,
                (Ok(meta), _) if meta.is_dir() => Some(Frozen::Dir),
                (Ok(_), _) => Some(Frozen::File),
                (Err(_), Absent::Dir) => Some(Frozen::MadeDir),
                (Err(_), Absent::File) => Some(Frozen::MadeFile),
                (Err(_), Absent::Left) => None,
            };
            hidden.frozen.extend(frozen.map(|how| (path.clone(), how)));
            let Ok(meta) = meta else {
                continue;
            };
            let Some(was) = self.places.get(&*path.to_string_lossy()) else {
                cover(&mut hidden, path, &meta);
                continue;
            };
            if !was.dir || !meta.is_dir() {
                if was.dir != meta.is_dir() || !meta.is_dir() && stat(&meta) != was.stat {
                    hidden.changed.push(path);
                }
                continue;
            }
            let Ok(entries) = std::fs::read_dir(&path) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let Ok(meta) = entry.metadata().or_else(|_| std::fs::symlink_metadata(entry.path())) else {
                    continue;
                };
                match was.entries.get(&name) {
                    // A new symbolic link cannot be covered where it stands (a mount follows it): the whole
                    // place is covered instead.
                    None if entry.file_type().is_ok_and(|k| k.is_symlink()) => {
                        hidden.cover.retain(|(p, _)| !p.starts_with(&path));
                        hidden.cover.push((path.clone(), true));
                        break;
                    }
                    None => cover(&mut hidden, entry.path(), &meta),
                    Some(&was) if was != stat(&meta) && !meta.is_dir() => hidden.changed.push(entry.path()),
                    Some(_) => {}
                }
            }
        }
        hidden
    }
}

impl Place {
    fn of(path: &Path) -> Option<Place> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.is_dir() {
            return Some(Place {
                dir: false,
                entries: BTreeMap::new(),
                stat: stat(&meta),
            });
        }
        let entries = std::fs::read_dir(path)
            .ok()?
            .flatten()
            .filter_map(|entry| {
                let meta = entry
                    .metadata()
                    .or_else(|_| std::fs::symlink_metadata(entry.path()))
                    .ok()?;
                Some((entry.file_name().to_string_lossy().into_owned(), stat(&meta)))
            })
            .collect();
        Some(Place {
            dir: true,
            entries,
            stat: (0, 0),
        })
    }
}

fn stat(meta: &std::fs::Metadata) -> (u64, i128) {
    if meta.is_dir() {
        return (0, 0);
    }
    (
        meta.len(),
        i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
    )
}

/// Covers `path` by its kind now; a symbolic link by the place that holds it is left to the caller.
fn cover(hidden: &mut Hidden, path: PathBuf, meta: &std::fs::Metadata) {
    if meta.file_type().is_symlink() {
        // A mount at a link's path lands on its target, which may be anywhere: leave a link that was never
        // there to the directory rule above, or, for a place itself, its parent is not ours to cover.
        hidden.changed.push(path);
        return;
    }
    hidden.cover.push((path, meta.is_dir()));
}

/// Every place of the module doc for `vars`, outside the project at `root` (which the room's tree covers) and
/// never an ancestor of it.
fn candidates(vars: &BTreeMap<String, String>, root: &Path) -> Vec<At> {
    let var = |name: &str| vars.get(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let Some(home) = var("HOME") else {
        return Vec::new();
    };
    let mut places: Vec<At> = PLACES.iter().flat_map(|places| places(&home, &var)).collect();
    let loopgate = crate::plane::resolve(&crate::project::loopgate_home());
    let mut seen = BTreeSet::new();
    places.retain(|At { path: place, .. }| {
        place.is_absolute()
            && !place.starts_with(root)
            && !root.starts_with(place)
            && !place.starts_with(&loopgate)
            && seen.insert(place.clone())
    });
    places
}

#[cfg(test)]
mod tests;
