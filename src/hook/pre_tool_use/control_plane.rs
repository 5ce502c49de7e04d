//! The control plane the file tools must not write, beyond the loop's own files: what decides whether a loop
//! runs and what its oracle is, and lives outside the project.
//!
//! Write, Edit, MultiEdit and NotebookEdit run in Claude Code's own process, so no confinement of the agent's
//! commands covers them; the guard is their only boundary. The set is one list, [`paths`], so the guard and
//! (later) the confinement of Bash can ask the same question. Each entry says what it is, for the deny reason.
//!
//! Two rules keep honest work allowed: an entry that *contains* the project (a project under `~/.claude`, or a
//! `$LOOPGATE_HOME` above it) is left out — it would deny every write in the project — and loopgate's own binary
//! or plugin inside the project (someone building loopgate itself) is left out too, since the project's own
//! build replaces it anyway.

use std::path::{Path, PathBuf};

use crate::commands::install::{COMMANDS, Places};
use crate::guard::PlanePath;

const HOME: &str = "loopgate's home: the store of seals, requests and tickets";
const BINARY: &str = "loopgate's own binary, which the hooks run";
const INSTALLED: &str = "loopgate's installed plugin (its hooks and commands)";
const SETTINGS: &str = "Claude Code's user settings, where hooks and the sandbox are configured";
const COMMAND: &str = "a loopgate command installed for the user";
const PLUGINS: &str = "Claude Code's plugin cache, which holds loopgate's hooks";
const PLUGIN_ROOT: &str = "the loopgate plugin whose hooks are running";

/// The control plane for a project at `root` (canonical), from this process's environment, without touching
/// the file system beyond finding this binary.
pub(super) fn paths(root: &Path) -> Vec<PlanePath> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let mut out = vec![plane(crate::project::loopgate_home(), true, HOME)];
    let binaries = std::env::current_exe().ok().into_iter().chain(var("LOOPGATE_BIN"));
    let cargo_bin = var("HOME").map(|home| home.join(".cargo/bin/loopgate"));
    out.extend(binaries.chain(cargo_bin).map(|b| plane(b, false, BINARY)));
    if let Ok(places) = Places::from_env() {
        out.push(plane(places.data.clone(), true, INSTALLED));
        if let Some(config) = places.settings.parent() {
            out.push(plane(config.join("settings.local.json"), false, SETTINGS));
            out.push(plane(config.join("plugins"), true, PLUGINS));
        }
        out.extend(COMMANDS.map(|name| plane(places.command(name), false, COMMAND)));
        out.push(plane(places.settings, false, SETTINGS));
    }
    out.extend(var("CLAUDE_PLUGIN_ROOT").map(|p| plane(p, true, PLUGIN_ROOT)));
    out.retain(|p| keeps(p, root));
    out
}

/// One entry, as named: the guard resolves its symlinks only when a call writes something (this runs before
/// every inspected tool call, most of which write nothing of note).
fn plane(path: PathBuf, dir: bool, what: &'static str) -> PlanePath {
    PlanePath { path, dir, what }
}

/// Whether `p` can be protected without denying honest work in the project at `root`.
fn keeps(p: &PlanePath, root: &Path) -> bool {
    let built_here = matches!(p.what, BINARY | PLUGIN_ROOT) && p.path.starts_with(root);
    !root.starts_with(&p.path) && !built_here
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plane_path_around_the_project_or_a_binary_built_in_it_is_left_out() {
        let root = Path::new("/home/u/work/proj");
        let keep = |path: &str, dir, what| keeps(&plane(PathBuf::from(path), dir, what), root);
        assert!(keep("/home/u/.claude/plugins", true, PLUGINS));
        assert!(keep("/home/u/.local/state/loopgate", true, HOME));
        assert!(keep("/home/u/work/proj/.claude/settings.json", false, SETTINGS));
        assert!(!keep("/home/u/work", true, HOME), "contains the project");
        assert!(!keep("/home/u/work/proj", true, PLUGIN_ROOT), "is the project");
        assert!(
            !keep("/home/u/work/proj/target/debug/loopgate", false, BINARY),
            "built here"
        );
        assert!(keep("/usr/local/bin/loopgate", false, BINARY));
    }
}
