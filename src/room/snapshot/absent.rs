//! What the baseline looked for outside the project and did not find, kept absent for the loop's later runs: the
//! snapshot's other half. The snapshot holds by content what the run read; a runner also looks on its own for
//! files that are not there (RSpec's `$XDG_CONFIG_HOME/rspec/options`, a plugin directory, a program on a `PATH`
//! entry in the home) and loads what it finds there later. So where the baseline found nothing, the run finds
//! nothing: a place that appeared since is covered in the run's namespace (a directory by an empty private file
//! system the run can still write in, a file by `/dev/null`), as `room::outside` covers its places. The list is
//! positive — what the traced run was seen to miss — and names no runner (the fourth fresh pass, issue 39: the
//! XDG options file got through a list that held `~/.rspec`).
//!
//! Each miss is kept as its outermost component that did not exist after the baseline (`~/.config` where there
//! was none), so whatever appears there — a file, a directory, a deeper path — is covered whole. Left out, as
//! for what is held: the project (the room's tree judges it), the system's directories, loopgate's home; a place
//! the run wrote in, or a companion of a file it wrote (`db-journal` beside `db`: another run's journal or lock
//! appears there, which a cover would break, and it is state, not an input); and one this user cannot create (its
//! nearest existing directory is not writable to them).
//!
//! A symbolic link where the baseline found nothing cannot be covered (a mount lands on a link's target, never on
//! the link): a run that passes with one there is rejected naming it (`oracle::World::breach_after`). What still
//! reaches the run: where it stands in no mount namespace (macOS), every such place — there the closure's seals of
//! what the run searched up from the project are all there is.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{SYSTEM, Snapshot};
use crate::room::outside::Hidden;
use crate::trace::{Access, Event};

/// The places of a baseline trace to keep absent (see the module doc), outermost first, none below another: for a
/// project at `root`, loopgate's home at `home`.
pub(crate) fn candidates(events: &[Event], root: &Path, home: &Path) -> Vec<PathBuf> {
    let written: Vec<&Path> = events
        .iter()
        .filter(|e| e.access == Access::Wrote)
        .map(|e| e.path.as_path())
        .collect();
    let avoid = [
        root.to_path_buf(),
        crate::plane::resolve(root),
        home.to_path_buf(),
        crate::plane::resolve(home),
    ];
    let mut seen = HashSet::new();
    let mut places: Vec<PathBuf> = events
        .iter()
        .filter(|e| matches!(e.access, Access::Missing | Access::MissingProgram))
        .filter(|e| e.path.is_absolute() && seen.insert(e.path.as_path()))
        .filter_map(|e| outermost_missing(&e.path))
        .filter(|place| {
            !avoid.iter().any(|a| place.starts_with(a) || a.starts_with(place))
                && !SYSTEM.iter().any(|s| place.starts_with(s))
                && !written
                    .iter()
                    .any(|w| w.starts_with(place) || place.starts_with(w) || companion(place, w))
                && creatable(place)
        })
        .collect();
    places.sort();
    places.dedup();
    // Sorted, a place's descendants follow it: keep the outermost.
    let mut outermost: Vec<PathBuf> = Vec::with_capacity(places.len());
    for place in places {
        if !outermost.last().is_some_and(|above| place.starts_with(above)) {
            outermost.push(place);
        }
    }
    outermost
}

/// Whether `place` is a companion of the file the run wrote at `written`: beside it, named after it (a database's
/// `-journal` and `-wal`, a `.lock`, an atomic write's `.tmp`), state another run of the same tool makes there.
fn companion(place: &Path, written: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let (Some(name), Some(of)) = (place.file_name(), written.file_name()) else {
        return false;
    };
    place.parent() == written.parent() && name != of && name.as_bytes().starts_with(of.as_bytes())
}

/// Whether this user can make `place`: its directory (which exists) is writable to them.
fn creatable(place: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Some(dir) = place
        .parent()
        .and_then(|d| std::ffi::CString::new(d.as_os_str().as_bytes()).ok())
    else {
        return false;
    };
    // SAFETY: access(2) on a NUL-terminated path that outlives the call.
    unsafe { libc::access(dir.as_ptr(), libc::W_OK) == 0 }
}

/// The outermost ancestor of `path` (itself included) that does not exist: below a directory that does.
fn outermost_missing(path: &Path) -> Option<PathBuf> {
    let mut top = None;
    for above in path.ancestors() {
        if std::fs::symlink_metadata(above).is_ok() {
            return top;
        }
        top = Some(above.to_path_buf());
    }
    None
}

impl Snapshot {
    /// Adds to `hidden` each place the baseline found absent that is there now (see the module doc): to cover,
    /// unless a cover above it hides it already; a symbolic link, which no mount covers, to its links.
    pub(crate) fn hide_appeared(&self, hidden: &mut Hidden) {
        for place in &self.absent {
            let path = PathBuf::from(place);
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if hidden.cover.iter().any(|(above, _)| path.starts_with(above)) {
                continue;
            }
            // A socket, a pipe or a device is no code or configuration a runner loads: left as it is.
            if meta.file_type().is_symlink() {
                hidden.links.push(path);
            } else if meta.is_dir() || meta.is_file() {
                hidden.cover.push((path, meta.is_dir()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::candidates;
    use crate::room::outside::Hidden;
    use crate::room::snapshot::Snapshot;
    use crate::trace::{Access, Event};

    /// A place is kept as its outermost missing component, once; the project, loopgate's home, a place the run
    /// wrote in, a companion of a file it wrote, and a read are not kept.
    #[test]
    fn the_outermost_missing_place_is_kept_once_and_the_runs_own_places_never() {
        let temp = tempfile::tempdir().expect("tempdir");
        let base = temp.path().canonicalize().expect("canonical");
        let (home, root, loopgate) = (base.join("home"), base.join("project"), base.join("loopgate"));
        for dir in [&home, &root, &loopgate, &home.join(".cache")] {
            std::fs::create_dir_all(dir).expect("dir");
        }
        let events: Vec<Event> = [
            (Access::Missing, home.join(".config/rspec/options")),
            (Access::Missing, home.join(".config/tool/settings.toml")),
            (Access::MissingProgram, home.join("bin/rspec")),
            (Access::Missing, root.join(".rspec-local")),
            (Access::Missing, loopgate.join("seals/new.json")),
            (Access::Missing, home.join(".cache/tool/journal")),
            (Access::Wrote, home.join(".cache/tool/state")),
            (Access::Missing, home.join(".tool-state-journal")),
            (Access::Wrote, home.join(".tool-state")),
            (Access::Read, home.join(".inputrc")),
            (Access::Missing, PathBuf::from("relative/path")),
        ]
        .into_iter()
        .map(|(access, path)| Event { access, path })
        .collect();
        assert_eq!(
            candidates(&events, &root, &loopgate),
            [home.join(".config"), home.join("bin")]
        );
    }

    /// What appeared where the baseline found nothing is covered by its kind; a link is kept apart (no mount
    /// covers it: a run that passes with it there is rejected); a socket is no input and is left;
    /// what is still absent, or lies under a cover already, adds nothing.
    #[test]
    fn what_appeared_is_covered_by_its_kind_and_a_link_is_reported() {
        let temp = tempfile::tempdir().expect("tempdir");
        let base = temp.path().canonicalize().expect("canonical");
        let (dir, file, link, still, below) = (
            base.join(".config"),
            base.join(".rspec"),
            base.join(".mavenrc"),
            base.join(".npmrc"),
            base.join("covered/.hidden"),
        );
        std::fs::create_dir_all(dir.join("rspec")).expect("dir");
        std::fs::create_dir_all(&below).expect("below");
        std::fs::write(&file, "--require x\n").expect("file");
        std::os::unix::fs::symlink(&file, &link).expect("link");
        let socket = base.join(".agent.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("socket");
        let snapshot = Snapshot {
            absent: [&dir, &file, &link, &still, &below, &socket]
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect(),
            ..Snapshot::default()
        };
        let mut hidden = Hidden {
            cover: vec![(base.join("covered"), true)],
            ..Hidden::default()
        };
        snapshot.hide_appeared(&mut hidden);
        assert_eq!(hidden.cover, [(base.join("covered"), true), (dir, true), (file, false)]);
        assert_eq!(hidden.links, [PathBuf::from(&link)]);
        assert!(hidden.changed.is_empty());
    }
}
