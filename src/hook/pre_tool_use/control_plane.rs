//! The control plane the file tools must not write, beyond the loop's own files: what decides whether a loop
//! runs and what its oracle is, and lives outside the project.
//!
//! Write, Edit, MultiEdit and NotebookEdit run in Claude Code's own process, so no confinement of the agent's
//! commands covers them; the guard is their only boundary. The paths are the plane's one table
//! (`plane::entries`), which confinement reads too; each says what it is, for the deny reason.
//!
//! Two rules keep honest work allowed: an entry that *contains* the project (a project under `~/.claude`, or a
//! `$LOOPGATE_HOME` above it) is left out — it would deny every write in the project — and loopgate's own binary
//! or plugin inside the project (someone building loopgate itself) is left out too, since the project's own
//! build replaces it anyway.

use std::path::Path;

use crate::guard::PlanePath;
use crate::plane::Entry;

/// The control plane for a project at `root` (canonical), from this process's environment, without touching
/// the file system beyond finding this binary.
pub(super) fn paths(root: &Path) -> Vec<PlanePath> {
    crate::plane::entries(&crate::project::loopgate_home())
        .into_iter()
        .filter(|entry| keeps(entry, root))
        .map(|entry| PlanePath {
            path: entry.path,
            dir: entry.dir,
            what: entry.what,
        })
        .collect()
}

/// Whether `entry` can be protected without denying honest work in the project at `root`.
fn keeps(entry: &Entry, root: &Path) -> bool {
    let built_here = entry.own_build && entry.path.starts_with(root);
    !root.starts_with(&entry.path) && !built_here
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plane::Reach;
    use std::path::PathBuf;

    #[test]
    fn a_plane_path_around_the_project_or_a_binary_built_in_it_is_left_out() {
        let root = Path::new("/home/u/work/proj");
        let keep = |path: &str, own_build| {
            let entry = Entry {
                path: PathBuf::from(path),
                dir: true,
                what: "x",
                reach: Reach::Guard,
                own_build,
            };
            keeps(&entry, root)
        };
        assert!(keep("/home/u/.claude/plugins", false));
        assert!(keep("/home/u/.local/state/loopgate", false));
        assert!(keep("/home/u/work/proj/.claude/settings.json", false));
        assert!(!keep("/home/u/work", false), "contains the project");
        assert!(!keep("/home/u/work/proj", true), "is the project");
        assert!(!keep("/home/u/work/proj/target/debug/loopgate", true), "built here");
        assert!(keep("/usr/local/bin/loopgate", true));
    }

    #[test]
    fn the_guard_keeps_every_row_of_the_plane() {
        let home = Path::new("/nonexistent/store");
        let root = Path::new("/nonexistent/project");
        let guarded = paths(root);
        for entry in crate::plane::entries(home) {
            if !entry.path.starts_with("/nonexistent") {
                assert!(guarded.iter().any(|p| p.path == entry.path), "{}", entry.path.display());
            }
        }
    }
}
