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
//! One table, [`ROWS`], for every user: confinement builds its domain from it ([`Plane`]), and the PreToolUse
//! guard judges the file tools' paths by it ([`entries`]); each row says who keeps it ([`Reach`]) and why.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/ecosystem/plane.rs"));

/// Set by a tournament (`loopgate run --candidates`) for each candidate's `loopgate run`: the candidate's
/// worktree, under `<store>/worktrees/`, which its agent and its oracle runs must be able to write. Only a
/// directory strictly inside that folder is honoured; a process already confined cannot widen its confinement by
/// setting it (Landlock and Seatbelt only narrow).
pub const CANDIDATE_TREE_ENV: &str = "LOOPGATE_CANDIDATE_TREE";

/// Set by a tournament beside [`CANDIDATE_TREE_ENV`]: the paths of the user's that a candidate must not write —
/// the repository's top level and its git directory (a list, as `PATH` is). The other candidates need no entry:
/// their clones lie in the store, read-only but for the candidate's own. Honoured only with a candidate tree;
/// it can only narrow what a process may write, so a confined process setting it gains nothing.
pub const CANDIDATE_KEEP_ENV: &str = "LOOPGATE_CANDIDATE_KEEP";

/// The candidate clone `named` (the value of [`CANDIDATE_TREE_ENV`]), if it is one of `home`'s
/// `worktrees/<tournament>/<candidate>`.
fn candidate_tree(home: &Path, named: Option<std::ffi::OsString>) -> Option<PathBuf> {
    let tree = named.filter(|t| !t.is_empty())?;
    let tree = resolve(Path::new(&tree));
    let folder = resolve(&home.join("worktrees"));
    let inside = tree.strip_prefix(&folder).ok()?;
    // Exactly `<tournament>/<candidate>`: the tournament's folder would open every sibling's clone.
    (inside.components().count() == 2
        && inside
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_))))
    .then_some(tree)
}

/// What a tournament names for one candidate's processes: [`CANDIDATE_TREE_ENV`] and [`CANDIDATE_KEEP_ENV`].
struct Candidate {
    tree: Option<std::ffi::OsString>,
    keep: Option<std::ffi::OsString>,
}

/// Where loopgate's home keeps the held-out tests (`holdout::store_root`): their copies, the private tree they run
/// in, the held-out run's logs and scratch. The agent's world hides it whole ([`Plane::hidden`]).
pub const HOLDOUT_DIR: &str = "holdout";

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
    /// Directories the process mounts anew before it enters the confinement (the oracle's run overlays `$HOME`
    /// and `/tmp` with a throw-away scratch: `confine::mount`): writable, and granted by the child once mounted,
    /// since their files are then inodes the parent preparing the confinement could not name.
    inside: Vec<PathBuf>,
    /// Directories a confined process may not even read: the agent's world covers each with an empty, read-only
    /// file system (the held-out tests' store, [`HOLDOUT_DIR`]: nothing the agent runs may read a held-out test,
    /// a copy of one, or what their run printed).
    hidden: Vec<PathBuf>,
}

impl Plane {
    /// The plane of the Bash commands of a loop whose seal store is `home`: every row of [`ROWS`] the
    /// confinement of commands keeps, and `outside` (the loop's sealed files outside the project).
    pub fn new(home: &Path, outside: &[PathBuf]) -> Plane {
        Plane::of(home, outside, Reach::Commands)
    }

    /// The plane of the loopgate home `project::loopgate_home()` names, with no sealed file outside the project.
    pub fn for_home() -> Plane {
        Plane::new(&crate::project::loopgate_home(), &[])
    }

    /// The plane of the agent CLI `loopgate run` starts (and everything it runs): that of [`Plane::new`] but for
    /// what the agent CLI itself writes as it works ([`Reach::Commands`] rows: Claude Code's `~/.claude.json`
    /// and its shell snapshots). Under Landlock it closes `$HOME` to new entries when the store lies below it
    /// (its default place): measured with Claude Code 2.1.197 and 2.1.330, a client that has run before (its
    /// `~/.claude/` and `~/.claude.json` exist) works — its lock and temporary files beside `~/.claude.json`
    /// are refused and it falls back to writing the file in place.
    pub fn for_agent_cli(home: &Path, outside: &[PathBuf]) -> Plane {
        Plane::of(home, outside, Reach::AgentCli)
    }

    /// The plane of loopgate's own git commands in `root` (`checkpoint::git`): [`Plane::for_home`], but with
    /// `root` writable when it is a tournament candidate's clone under the store. The tournament takes each
    /// clone's starting checkpoint itself, before any candidate runs and outside a candidate's environment
    /// (which names the clone only in the candidate's own `loopgate run`); without it the clones had no
    /// checkpoint, so no change to show the reviewer (`review`), and every candidate went unreviewed.
    pub fn for_git_in(root: &Path) -> Plane {
        let home = crate::project::loopgate_home();
        let mut plane = Plane::new(&home, &[]);
        if let Some(tree) = candidate_tree(&home, Some(root.as_os_str().to_owned())) {
            plane.allow(&tree);
        }
        plane
    }

    /// The plane of the agent's world at `reach` — the one constructor behind [`Plane::new`] (the Bash rewrite's
    /// `loopgate confine`) and [`Plane::for_agent_cli`] (`loopgate run`'s agent) — narrowed for a tournament's
    /// candidate where this process's environment names one.
    fn of(home: &Path, outside: &[PathBuf], reach: Reach) -> Plane {
        let candidate = Candidate {
            tree: std::env::var_os(CANDIDATE_TREE_ENV),
            keep: std::env::var_os(CANDIDATE_KEEP_ENV),
        };
        Plane::of_candidate(home, outside, reach, candidate)
    }

    /// [`Plane::of`], with the tournament's variables as given: a candidate's agent and its agent's commands take
    /// the same plane as any loop's, with their clone opened and the user's repository kept.
    fn of_candidate(home: &Path, outside: &[PathBuf], reach: Reach, candidate: Candidate) -> Plane {
        let mut plane = Plane::default();
        for entry in entries(home) {
            if entry.reach >= reach {
                plane.add(&entry.path);
            }
        }
        for path in outside {
            plane.add(path);
        }
        if let Some(tree) = candidate_tree(home, candidate.tree) {
            // A candidate of a tournament: the user's repository is as much the user's as the store is.
            for kept in candidate
                .keep
                .iter()
                .flat_map(std::env::split_paths)
                .filter(|p| p.is_absolute())
            {
                plane.add(&kept);
            }
            plane.allow(&tree);
        }
        plane.hidden.push(resolve(&home.join(HOLDOUT_DIR)));
        plane
    }

    /// The directories hidden from the process, not only kept from its writes (see the field).
    pub fn hidden(&self) -> &[PathBuf] {
        &self.hidden
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

    /// Keeps `dir` writable as the confined process mounts it anew before it enters the confinement (see the
    /// `inside` field).
    pub fn allow_inside(&mut self, dir: &Path) {
        if !self.inside.iter().any(|d| d == dir) {
            self.inside.push(dir.to_path_buf());
        }
    }

    /// The directories granted once the process mounted them (see [`Plane::allow_inside`]).
    pub fn inside(&self) -> &[PathBuf] {
        &self.inside
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

/// Who keeps a row of the plane off, from the narrowest to the widest reach. Every row is the guard's (the file
/// tools judge a path exactly, at no cost to honest work); confinement keeps only some of them, because under
/// Landlock protecting a path closes each directory above it to new entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// The PreToolUse guard only.
    Guard,
    /// The guard and the confinement of the agent's commands (and the oracle's run), not the agent CLI
    /// `loopgate run` starts, which writes it itself.
    Commands,
    /// Everything, the agent CLI of `loopgate run` included.
    AgentCli,
}

/// Where a row's path is found.
#[derive(Clone, Copy, Debug)]
enum Anchor {
    /// loopgate's home: the store of seals, requests and tickets.
    Store,
    /// loopgate's binary as it runs now, the link it was started through, and `$LOOPGATE_BIN` (the binary the
    /// plugin's hooks run, `hooks/loopgate.sh`).
    Binary,
    /// `$HOME`.
    Home,
    /// loopgate's data directory, where `loopgate install` keeps the plugin copy (see [`data_dir`]).
    Data,
    /// Claude Code's user directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    Claude,
    /// `$CLAUDE_PLUGIN_ROOT`: the plugin whose hooks run (set in the hooks' environment).
    PluginRoot,
    /// Another agent CLI's configuration directory: the variable that moves it, else its name under `$HOME`, or
    /// under the home the CLI's own variable names (`home`: Gemini CLI's `GEMINI_CLI_HOME` stands for `~`) — as
    /// `loopgate install --agent` finds it, `commands::install::agents`.
    Cli {
        var: Option<&'static str>,
        home: Option<&'static str>,
        dir: &'static str,
    },
}

const CODEX: Anchor = Anchor::Cli {
    var: Some("CODEX_HOME"),
    home: None,
    dir: ".codex",
};
const GEMINI: Anchor = Anchor::Cli {
    var: None,
    home: Some("GEMINI_CLI_HOME"),
    dir: ".gemini",
};
const CURSOR: Anchor = Anchor::Cli {
    var: None,
    home: None,
    dir: ".cursor",
};
const COPILOT: Anchor = Anchor::Cli {
    var: Some("COPILOT_HOME"),
    home: None,
    dir: ".copilot",
};
const OPENCODE: Anchor = Anchor::Cli {
    var: None,
    home: None,
    dir: ".config/opencode",
};

/// One path of the control plane.
struct Row {
    anchor: Anchor,
    /// Below the anchor (`""`: the anchor itself).
    name: &'static str,
    /// A tree rather than one file.
    dir: bool,
    /// What it is, read after "it is" in the guard's denial.
    what: &'static str,
    reach: Reach,
}

/// The control plane, one row per path: whoever writes one of them can replace or approve the oracle, or
/// switch loopgate's hooks off. The guard (`hook::pre_tool_use::control_plane`) and every confinement
/// ([`Plane::new`], [`Plane::for_agent_cli`]) read this table.
#[rustfmt::skip]
const ROWS: &[Row] = &[
    Row { anchor: Anchor::Store, name: "", dir: true, what: "loopgate's home: the store of seals, requests and tickets", reach: Reach::AgentCli },
    Row { anchor: Anchor::Binary, name: "", dir: false, what: BINARY, reach: Reach::AgentCli },
    // Not the binary that runs (that is the row above), but where a package manager installed it: guarded only.
    Row { anchor: Anchor::Home, name: rust::INSTALLED_BINARY, dir: false, what: BINARY, reach: Reach::Guard },
    // The source `loopgate install` installs the plugin from; the hooks run from the plugin cache below.
    // Confinement would close `~/.local/share` to every tool's first run.
    Row { anchor: Anchor::Data, name: "", dir: true, what: "loopgate's installed plugin (its hooks and commands)", reach: Reach::Guard },
    Row { anchor: Anchor::Claude, name: "settings.json", dir: false, what: SETTINGS, reach: Reach::AgentCli },
    Row { anchor: Anchor::Claude, name: "settings.local.json", dir: false, what: SETTINGS, reach: Reach::AgentCli },
    Row { anchor: Anchor::Claude, name: "plugins", dir: true, what: "Claude Code's plugin cache, which holds loopgate's hooks", reach: Reach::AgentCli },
    // `loopgate install` writes `/pua-loop` there; a `!` block runs unconfined when the user types it.
    Row { anchor: Anchor::Claude, name: "commands", dir: true, what: "Claude Code's user-level commands, loopgate's among them", reach: Reach::AgentCli },
    // The Bash tool's outer, unconfined shell sources one before every command.
    Row { anchor: Anchor::Claude, name: "shell-snapshots", dir: true, what: RUNS_LATER, reach: Reach::Commands },
    // Claude Code's own configuration: the MCP servers it starts.
    Row { anchor: Anchor::Home, name: ".claude.json", dir: false, what: RUNS_LATER, reach: Reach::Commands },
    // The shells' startup files: Claude Code snapshots them from an unconfined shell.
    Row { anchor: Anchor::Home, name: ".bashrc", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    Row { anchor: Anchor::Home, name: ".bash_profile", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    Row { anchor: Anchor::Home, name: ".bash_login", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    Row { anchor: Anchor::Home, name: ".profile", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    Row { anchor: Anchor::Home, name: ".zshrc", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    Row { anchor: Anchor::Home, name: ".zshenv", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    Row { anchor: Anchor::Home, name: ".zprofile", dir: false, what: RUNS_LATER, reach: Reach::AgentCli },
    // A plugin loaded from a directory (`--plugin-dir`): the confined command is not told where it is.
    Row { anchor: Anchor::PluginRoot, name: "", dir: true, what: "the loopgate plugin whose hooks are running", reach: Reach::Guard },
    // Every other agent CLI loopgate installs into (issue 42): whoever rewrites its hooks or commands switches
    // loopgate off for that CLI's next session. What the CLI writes itself as it works (Codex's trust tables in
    // `config.toml`, Gemini's `settings.json`) stays its own under `loopgate run`.
    Row { anchor: CODEX, name: "hooks.json", dir: false, what: CLI_HOOKS, reach: Reach::AgentCli },
    Row { anchor: CODEX, name: "config.toml", dir: false, what: "Codex CLI's configuration, where the trust of loopgate's hooks is recorded", reach: Reach::Commands },
    // Codex writes its own skills there as it starts (`skills/.system`).
    Row { anchor: CODEX, name: "skills", dir: true, what: CLI_COMMANDS, reach: Reach::Commands },
    Row { anchor: GEMINI, name: "settings.json", dir: false, what: CLI_HOOKS, reach: Reach::Commands },
    Row { anchor: GEMINI, name: "commands", dir: true, what: CLI_COMMANDS, reach: Reach::AgentCli },
    Row { anchor: CURSOR, name: "hooks.json", dir: false, what: CLI_HOOKS, reach: Reach::AgentCli },
    Row { anchor: COPILOT, name: "hooks", dir: true, what: CLI_HOOKS, reach: Reach::AgentCli },
    Row { anchor: COPILOT, name: "skills", dir: true, what: CLI_COMMANDS, reach: Reach::Commands },
    Row { anchor: OPENCODE, name: "plugin", dir: true, what: "opencode's plugins, loopgate's hooks among them", reach: Reach::AgentCli },
];

const CLI_HOOKS: &str = "an agent CLI's hook configuration, where loopgate's hooks are installed";
const CLI_COMMANDS: &str = "an agent CLI's commands, loopgate's `pua-loop` among them";

const BINARY: &str = "loopgate's own binary, which the hooks run";
const SETTINGS: &str = "Claude Code's user settings, where hooks and the sandbox are configured";
const RUNS_LATER: &str = "a file whose contents Claude Code runs later outside any confinement";

/// One path of the plane, as named (nothing resolved: the guard resolves a path only when a call writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    /// A tree (everything under it) rather than one file.
    pub dir: bool,
    /// What it is, read after "it is".
    pub what: &'static str,
    pub reach: Reach,
    /// loopgate's own binary (or plugin): left to honest work when it is built inside the project.
    pub own_build: bool,
}

/// Every path of the plane for the store `home`, from this process's environment; a row whose anchor is not
/// set (no `HOME`, no `$CLAUDE_PLUGIN_ROOT`) is left out.
pub fn entries(home: &Path) -> Vec<Entry> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let mut out = Vec::new();
    for row in ROWS {
        let bases: Vec<PathBuf> = match row.anchor {
            Anchor::Store => vec![home.to_path_buf()],
            Anchor::Binary => own_binary(),
            Anchor::Home => var("HOME").into_iter().collect(),
            Anchor::Data => data_dir().into_iter().collect(),
            Anchor::Claude => crate::project::claude_config_dir().into_iter().collect(),
            Anchor::PluginRoot => var("CLAUDE_PLUGIN_ROOT").into_iter().collect(),
            Anchor::Cli { var: moved, home, dir } => moved
                .and_then(var)
                .or_else(|| home.and_then(var).or_else(|| var("HOME")).map(|home| home.join(dir)))
                .into_iter()
                .collect(),
        };
        let own_build = matches!(row.anchor, Anchor::Binary | Anchor::PluginRoot);
        out.extend(bases.into_iter().map(|base| Entry {
            path: if row.name.is_empty() { base } else { base.join(row.name) },
            dir: row.dir,
            what: row.what,
            reach: row.reach,
            own_build,
        }));
    }
    out
}

/// loopgate's data directory (`loopgate install` keeps its plugin copy there): `$XDG_DATA_HOME/loopgate`, else
/// `~/.local/share/loopgate`; `None` without either variable.
pub fn data_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    match var("XDG_DATA_HOME") {
        Some(dir) => Some(dir.join("loopgate")),
        None => var("HOME").map(|home| home.join(".local/share/loopgate")),
    }
}

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
    if let Some(bin) = std::env::var_os("LOOPGATE_BIN").filter(|b| !b.is_empty()) {
        out.push(PathBuf::from(bin));
    }
    out
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
            "/nonexistent-loopgate-home/worktrees/t-1",
            "/nonexistent-loopgate-home/worktrees/t-1/c2/sub",
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
    fn a_candidate_takes_the_one_world_of_the_agent_and_its_commands_with_its_clone_opened() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().canonicalize().expect("canonical");
        let home = real.join("store");
        let clone = home.join("worktrees/t-1/c2");
        let repo = real.join("repo");
        for reach in [Reach::Commands, Reach::AgentCli] {
            let loop_plane = Plane::of_candidate(&home, &[], reach, Candidate { tree: None, keep: None });
            let candidate = Candidate {
                tree: Some(clone.clone().into_os_string()),
                keep: Some(std::env::join_paths([&repo, &repo.join(".git")]).expect("paths")),
            };
            let plane = Plane::of_candidate(&home, &[], reach, candidate);
            // The loop's plane, whole, and only narrowed: the user's repository kept, the clone (in the store,
            // which stays protected) opened for the candidate's own processes alone.
            assert!(
                loop_plane.paths().iter().all(|p| plane.paths().contains(p)),
                "{reach:?}"
            );
            assert!(
                plane.covers(&repo.join("src/lib.rs")) && plane.covers(&repo.join(".git/HEAD")),
                "{reach:?}"
            );
            assert!(plane.covers(&clone) && plane.writable().contains(&clone), "{reach:?}");
            assert!(!loop_plane.writable().contains(&clone), "{reach:?}");
            assert_eq!(plane.hidden(), loop_plane.hidden(), "{reach:?}");
        }
        // A clone named outside the store's worktrees opens nothing, and keeps nothing either.
        let stray = Candidate {
            tree: Some(real.join("elsewhere").into_os_string()),
            keep: Some(repo.clone().into_os_string()),
        };
        let plane = Plane::of_candidate(&home, &[], Reach::Commands, stray);
        assert!(plane.writable().is_empty() && !plane.covers(&repo));
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
    fn the_agent_cli_keeps_writing_its_own_files_and_nothing_else_of_the_plane() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("store");
        let commands = Plane::new(&home, &[]);
        let agent = Plane::for_agent_cli(&home, &[]);
        let own = |plane: &Plane, name: &str| plane.paths().iter().any(|p| p.ends_with(name));
        for name in [".claude.json", "shell-snapshots"] {
            assert!(own(&commands, name) && !own(&agent, name), "{name}");
        }
        for name in ["settings.json", "plugins", "commands", ".bashrc"] {
            assert!(own(&commands, name) && own(&agent, name), "{name}");
        }
        assert!(agent.covers(&home.join("tickets/t.json")));
        // What only the guard keeps: confinement would close a directory honest work creates entries in.
        assert!(!own(&commands, ".cargo/bin/loopgate"));
        assert!(
            entries(&home)
                .iter()
                .any(|e| e.path.ends_with(".cargo/bin/loopgate") && e.reach == Reach::Guard)
        );
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
