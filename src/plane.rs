//! The control plane of a loop: the paths outside the project that a confined process (the agent's Bash, the
//! agent `loopgate run` starts, the oracle's own verify run) may not write. Whoever writes one of them can replace
//! or approve the oracle: loopgate's home (the seal store, requests and tickets), loopgate's own binary, Claude
//! Code's user settings and hook configuration, its plugin cache, user-level commands and shell snapshots, the
//! files in `$HOME` that run code later outside any confinement (`~/.claude.json`, shell startup files), and the
//! running loop's sealed files that lie outside the project.
//!
//! In-project files (the project's `.claude/settings*.json`, the state file, sealed tests) are deliberately not
//! here: confinement (`confine`) can only deny a path by making every directory above it read-only for new
//! entries, and the project root must stay a place where honest work creates files (`target/`, `node_modules/`,
//! `.venv/`, `.git/`). They stay the guard's and the seal's job.
//!
//! One type for every user: confinement builds its domain from it, and the guard can ask it too.

use std::path::{Path, PathBuf};

/// Set by a tournament (`loopgate run --candidates`) for each candidate's `loopgate run`: the candidate's
/// worktree, under `<store>/worktrees/`, which its agent and its oracle runs must be able to write. Only a
/// directory strictly inside that folder is honoured; a process already confined cannot widen its confinement by
/// setting it (Landlock and Seatbelt only narrow).
pub const CANDIDATE_TREE_ENV: &str = "LOOPGATE_CANDIDATE_TREE";

/// The candidate worktree `named` (the value of [`CANDIDATE_TREE_ENV`]), if it lies inside `home`'s `worktrees/`
/// folder.
fn candidate_tree(home: &Path, named: Option<std::ffi::OsString>) -> Option<PathBuf> {
    let tree = named.filter(|t| !t.is_empty())?;
    let tree = resolve(Path::new(&tree));
    let folder = resolve(&home.join("worktrees"));
    let inside = tree.strip_prefix(&folder).ok()?;
    (inside.components().count() >= 1 && !inside.components().any(|c| c == std::path::Component::ParentDir))
        .then_some(tree)
}

/// The set of paths a confined process may not write (each canonical where it exists; a path that does not exist
/// yet is kept as given, so creating it is denied too).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plane {
    paths: Vec<PathBuf>,
    /// Directories below a protected path that stay writable: an oracle run's own places under loopgate's home
    /// (its room of private caches, a private copy of the tree), which Landlock grants on their own.
    writable: Vec<PathBuf>,
    /// Nothing but `writable` (and the devices) may be written at all: the held-out run, whose code under test
    /// sits beside tests the agent must never read, so it may not copy them anywhere the agent looks.
    only_writable: bool,
}

impl Plane {
    /// The plane for a loop whose seal store is `home`: the store, this binary, Claude Code's user settings and
    /// plugin cache, and `outside` (the loop's sealed files outside the project).
    pub fn new(home: &Path, outside: &[PathBuf]) -> Plane {
        let mut plane = Plane::loopgate_own(home);
        let claude = claude_dir();
        for name in CLAUDE_FILES {
            plane.add(&claude.join(name));
        }
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            for name in HOME_FILES {
                plane.add(&Path::new(&home).join(name));
            }
        }
        for path in outside {
            plane.add(path);
        }
        plane
    }

    /// The plane of the loopgate home `project::loopgate_home()` names, with no sealed file outside the project.
    pub fn for_home() -> Plane {
        Plane::new(&crate::project::loopgate_home(), &[])
    }

    /// The plane for the agent CLI `loopgate run` starts: the store and this binary, not Claude Code's user
    /// files. The agent CLI writes its own configuration and transcripts there, and in `loopgate run` the oracle
    /// runs in loopgate, not in a hook that configuration could switch off. `None` when that plane would close
    /// `$HOME` to new entries (the store in its default place, `~/.local/state/loopgate`): an agent CLI creates
    /// files directly in `$HOME` (Claude Code's `~/.claude.json`, `~/.claude/`) and fails without them (measured
    /// with 2.1.197: its Bash tool ran nothing). The agent's own Bash commands are still rewritten by the
    /// PreToolUse hook when it runs with loopgate's plugin, and those keep off the whole plane.
    pub fn for_agent_cli() -> Option<Plane> {
        let plane = Plane::loopgate_own(&crate::project::loopgate_home());
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
        (!plane.closes(Path::new(&home))).then_some(plane)
    }

    /// The store `home` and this binary; a tournament candidate's own worktree, which lies in the store, stays
    /// writable (see [`CANDIDATE_TREE_ENV`]).
    fn loopgate_own(home: &Path) -> Plane {
        let mut plane = Plane::default();
        plane.add(home);
        if let Some(tree) = candidate_tree(home, std::env::var_os(CANDIDATE_TREE_ENV)) {
            plane.allow(&tree);
        }
        for exe in own_binary() {
            plane.add(&exe);
        }
        plane
    }

    /// Adds one path (made absolute and canonical as far as it exists); a duplicate is ignored.
    pub fn add(&mut self, path: &Path) {
        let path = resolve(path);
        if !self.paths.contains(&path) {
            self.paths.push(path);
        }
    }

    /// A plane that lets a process write `dirs` (and the devices under `/dev`) and nothing else.
    pub fn only(dirs: &[PathBuf]) -> Plane {
        let mut plane = Plane {
            only_writable: true,
            ..Plane::default()
        };
        for dir in dirs {
            plane.allow(dir);
        }
        plane
    }

    /// Whether nothing but [`Plane::writable`] may be written (see [`Plane::only`]).
    pub fn is_only(&self) -> bool {
        self.only_writable
    }

    /// Keeps `dir` writable although it lies below a protected path (see the `writable` field).
    pub fn allow(&mut self, dir: &Path) {
        let dir = resolve(dir);
        if !self.writable.contains(&dir) {
            self.writable.push(dir);
        }
    }

    /// The directories kept writable below protected paths.
    pub fn writable(&self) -> &[PathBuf] {
        &self.writable
    }

    /// Whether confinement closes `dir` to new entries: it lies above a protected path (see `confine`).
    pub fn closes(&self, dir: &Path) -> bool {
        let dir = resolve(dir);
        self.paths.iter().any(|p| p != &dir && p.starts_with(&dir))
    }

    /// The protected paths, in the order they were added.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Whether writing `path` (resolved like the plane's own paths) would touch the plane: it is one of the
    /// paths or lies below one.
    pub fn covers(&self, path: &Path) -> bool {
        let path = resolve(path);
        self.paths.iter().any(|p| path.starts_with(p))
    }
}

/// What in Claude Code's user directory decides what runs outside any confinement: the settings and hooks, the
/// plugins (loopgate's own hooks among them), the user-level slash commands (`loopgate install` writes
/// `/pua-loop` there; a `!` block runs unconfined when the user types it) and the shell snapshots, which the
/// Bash tool's outer, unconfined shell sources before every command.
const CLAUDE_FILES: &[&str] = &[
    "settings.json",
    "settings.local.json",
    "plugins",
    "commands",
    "shell-snapshots",
];

/// Files in `$HOME` whose contents run unconfined later: Claude Code's own configuration (`~/.claude.json`: MCP
/// servers it starts) and the shells' startup files (Claude Code snapshots them from an unconfined shell).
const HOME_FILES: &[&str] = &[
    ".claude.json",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
];

/// loopgate's binary as it runs now (the file a hook or the agent's `loopgate` executes), and, when it was
/// started through a link, the link as well: replacing either replaces what the hooks run.
fn own_binary() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        out.push(exe.clone());
        if let Ok(real) = exe.canonicalize()
            && real != exe
        {
            out.push(real);
        }
    }
    // The binary the plugin's hooks run (`hooks/loopgate.sh` prefers `$LOOPGATE_BIN`).
    if let Some(bin) = std::env::var_os("LOOPGATE_BIN").filter(|b| !b.is_empty()) {
        out.push(PathBuf::from(bin));
    }
    out
}

/// Claude Code's user directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
fn claude_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    std::env::var_os("HOME")
        .map_or_else(|| PathBuf::from("/"), PathBuf::from)
        .join(".claude")
}

/// `path` made absolute, with its longest existing prefix canonical (symlinks and `..` resolved) and the rest
/// appended as given.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut rest = Vec::new();
    let mut cursor = absolute.as_path();
    loop {
        if let Ok(real) = cursor.canonicalize() {
            return rest.iter().rev().fold(real, |acc: PathBuf, part| acc.join(part));
        }
        match (cursor.parent(), cursor.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                cursor = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_worktree_inside_the_stores_worktrees_folder_is_opened() {
        let home = Path::new("/nonexistent-loopgate-home");
        let named = |p: &str| Some(std::ffi::OsString::from(p));
        assert_eq!(
            candidate_tree(home, named("/nonexistent-loopgate-home/worktrees/t-1/c2")),
            Some(PathBuf::from("/nonexistent-loopgate-home/worktrees/t-1/c2"))
        );
        for outside in [
            "/nonexistent-loopgate-home",
            "/nonexistent-loopgate-home/worktrees",
            "/nonexistent-loopgate-home/seals",
            "/nonexistent-loopgate-home/worktrees/../seals",
            "/elsewhere",
            "",
        ] {
            assert_eq!(candidate_tree(home, named(outside)), None, "{outside}");
        }
        assert_eq!(candidate_tree(home, None), None);
    }

    #[test]
    fn resolve_keeps_the_missing_tail_and_canonicalizes_the_rest() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir(real.join("a")).expect("mkdir");
        std::os::unix::fs::symlink(real.join("a"), real.join("link")).expect("symlink");
        assert_eq!(resolve(&real.join("link/new/file")), real.join("a/new/file"));
        assert_eq!(resolve(&real.join("a/../a/x")), real.join("a/x"));
    }

    #[test]
    fn the_plane_holds_the_home_the_binary_and_claude_settings_and_covers_what_lies_below() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("store");
        let outside = dir.path().join("shared/fixture.json");
        let plane = Plane::new(&home, std::slice::from_ref(&outside));
        let real = dir.path().canonicalize().expect("canonical");
        assert!(plane.covers(&home.join("tickets/t.json")));
        assert!(plane.covers(&real.join("shared/fixture.json")));
        assert!(!plane.covers(&real.join("shared/other.json")));
        let exe = std::env::current_exe().expect("exe");
        assert!(plane.covers(&exe));
        assert!(plane.closes(dir.path()) && !plane.closes(&home) && !plane.closes(&home.join("x")));
        assert!(
            plane
                .paths()
                .iter()
                .any(|p| p.ends_with(".claude/settings.json") || p.ends_with("settings.json"))
        );
        assert!(plane.paths().iter().any(|p| p.ends_with("plugins")));
        let mut again = plane.clone();
        again.add(&home);
        assert_eq!(again, plane);
    }
}
