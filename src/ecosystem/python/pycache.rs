//! Python's bytecode in the room: the installed modules' own, never the project's.
//!
//! The room points `PYTHONPYCACHEPREFIX` at a cache of its own (`room::caches`), so that no bytecode the agent's
//! code could have written beside a source is ever loaded. The prefix is all or nothing: with it Python also
//! stops reading the `__pycache__` that an installation ships beside the standard library and site-packages, and
//! recompiles every module it imports at every run where it cannot write (`PYTHONDONTWRITEBYTECODE=1`, common in
//! containers and CI images). Measured on a one-test pytest project: the oracle's run took 0.92 s of CPU against
//! the bare command's 0.24 s, most of it in CPython's parser.
//!
//! So after the baseline's run, [`seed`] copies into the room's prefix the bytecode files Python looked for
//! there and that the installation has beside a source **outside the project** — exactly the names the traced
//! run asked for (its `Missing` events under the prefix), nothing guessed. The project's own `__pycache__` is
//! never read: that is the agent's tree. What is copied is what a bare run at the baseline would have loaded;
//! Python still checks each file against its source's size and time, and the room presents outside sources as
//! they were at the baseline (`room::snapshot`, which keeps their times), so a copy either matches its source or
//! is ignored and recompiled. The copies live in the room's pycache, which later runs see only as the read-only
//! lower layer of a per-run overlay (`confine::mount::private`): nothing a run of the agent's code writes there
//! reaches a later run.

use std::path::{Path, PathBuf};

use crate::trace::{Access, Event};

/// Copies into `prefix` (the room's `PYTHONPYCACHEPREFIX`) each bytecode file the traced run looked for there and
/// did not find, where the installation has it beside its source outside `root` (the project). Best effort: a
/// file that cannot be copied is left for Python to compile, as before. Returns how many were copied.
pub(crate) fn seed(prefix: &Path, events: &[Event], root: &Path) -> usize {
    let roots = [root.to_path_buf(), crate::plane::resolve(root)];
    let mut wanted: Vec<(&Path, PathBuf)> = events
        .iter()
        .filter(|e| e.access == Access::Missing)
        .filter_map(|e| Some((e.path.as_path(), shipped_beside_source(prefix, &e.path)?)))
        .filter(|(_, shipped)| !roots.iter().any(|r| shipped.starts_with(r)))
        .collect();
    wanted.sort();
    wanted.dedup();
    wanted
        .into_iter()
        .filter(|(at, shipped)| copy_new(shipped, at).is_ok())
        .count()
}

/// Where an installation keeps the bytecode that `in_prefix` stands for: `PREFIX/usr/lib/x/y.cpython-311.pyc`
/// is `/usr/lib/x/__pycache__/y.cpython-311.pyc` (CPython's `cache_from_source` with a prefix: the source's
/// absolute directory below the prefix, no `__pycache__`).
fn shipped_beside_source(prefix: &Path, in_prefix: &Path) -> Option<PathBuf> {
    let below = in_prefix.strip_prefix(prefix).ok()?;
    let name = below.file_name()?;
    if !name.to_str().is_some_and(|n| n.ends_with(".pyc")) {
        return None;
    }
    let dir = Path::new("/").join(below.parent()?);
    Some(dir.join("__pycache__").join(name))
}

/// Copies `from` to `to`, never over an existing file (the baseline's run may have written its own there).
fn copy_new(from: &Path, to: &Path) -> std::io::Result<()> {
    let meta = std::fs::metadata(from)?;
    if !meta.is_file() {
        return Err(std::io::ErrorKind::InvalidInput.into());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut source = std::fs::File::open(from)?;
    let mut copy = std::fs::OpenOptions::new().write(true).create_new(true).open(to)?;
    std::io::copy(&mut source, &mut copy).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn missing(path: &Path) -> Event {
        Event {
            access: Access::Missing,
            path: path.to_path_buf(),
        }
    }

    #[test]
    fn a_prefix_path_names_the_bytecode_beside_its_source() {
        let prefix = Path::new("/home/u/.loopgate/rooms/r/pycache");
        assert_eq!(
            shipped_beside_source(prefix, &prefix.join("usr/lib/python3.11/json/decoder.cpython-311.pyc")),
            Some(PathBuf::from(
                "/usr/lib/python3.11/json/__pycache__/decoder.cpython-311.pyc"
            ))
        );
        assert_eq!(shipped_beside_source(prefix, &prefix.join("usr/lib/x.py")), None);
        assert_eq!(
            shipped_beside_source(prefix, Path::new("/elsewhere/x.cpython-311.pyc")),
            None
        );
    }

    #[test]
    fn installed_bytecode_is_copied_and_the_projects_never() {
        let dir = tempfile::tempdir().expect("tempdir");
        let prefix = dir.path().join("prefix");
        let [project, site, written] = ["p", "site", "written"].map(|d| dir.path().join(d));
        for source_dir in [&project, &site, &written] {
            std::fs::create_dir_all(source_dir.join("__pycache__")).expect("mkdir");
            std::fs::write(source_dir.join("__pycache__/m.cpython-311.pyc"), b"bytecode").expect("write");
        }
        let in_prefix = |d: &Path| {
            prefix
                .join(d.strip_prefix("/").expect("absolute"))
                .join("m.cpython-311.pyc")
        };
        // The baseline's run wrote this one itself: it is kept as it is.
        std::fs::create_dir_all(in_prefix(&written).parent().expect("parent")).expect("mkdir");
        std::fs::write(in_prefix(&written), b"the run's own").expect("write");
        let events = [
            missing(&in_prefix(&site)),
            missing(&in_prefix(&site)),
            missing(&in_prefix(&project)),
            missing(&in_prefix(&dir.path().join("gone"))),
            missing(&in_prefix(&written)),
        ];
        assert_eq!(seed(&prefix, &events, &project), 1);
        assert_eq!(std::fs::read(in_prefix(&site)).expect("seeded"), b"bytecode");
        assert!(
            !in_prefix(&project).exists(),
            "the project's bytecode is the agent's: never read"
        );
        assert_eq!(std::fs::read(in_prefix(&written)).expect("kept"), b"the run's own");
    }
}
