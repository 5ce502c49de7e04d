//! The oracle's room (issue 29, first slice): the world the verify command is judged in is built by loopgate,
//! not inherited from whoever asked for the verdict. These parts of that world are built here:
//!
//! - **Private caches, kept between promises.** Every oracle run of a loop (the baseline at setup, each
//!   promise, `loopgate verify`) points the runners' caches and temporary directory at a directory of its own
//!   under loopgate's home (`$LOOPGATE_HOME/rooms/<project>/`, beside the seal store, 0700): bytecode, build
//!   outputs, test-result and transform caches are then only what an oracle run computed itself, so nothing
//!   the agent wrote into a cache (a `.pyc` holding a weakened test under the real test's hash and size, a
//!   stale test binary with its source's old modification time put back, a transform cache in `/tmp`) is
//!   read. The table of caches is [`caches::CACHES`]. Setup empties the room, so the baseline run is cold and
//!   nothing of an earlier loop (written while an earlier agent worked) is read; the caches are then kept for
//!   the loop, so the promise runs warm, and removed when the loop ends (`seal::Store::remove`).
//! - **The environment recorded at the baseline** ([`Recorded`], a companion of the seal): later oracle runs
//!   get those variables, not the ones of the process that asks (`loopgate verify` in the agent's shell
//!   inherits whatever the agent exported). What varies per process or session is taken from the asking
//!   process instead ([`env::PER_SESSION`]); secrets are recorded by name only (see `env`).
//! - **pytest's report through a private path** ([`report`]): the room is also where pytest writes the JUnit
//!   report a pass must hold in, where the baseline showed it can.
//! - **GoogleTest's reports through a private directory** ([`gtest`]): `GTEST_OUTPUT` names a directory in the
//!   room where every test binary writes its JUnit XML; their names join the run's (`Room::add_named`), and a
//!   pass must hold in them where the baseline's binaries wrote some.
//! - **Surefire's reports in the run's own build directory** ([`surefire`]): Maven writes them under the
//!   room's tree (`target/` is never copied from the project), emptied before each run; their names join the
//!   run's, and a pass must hold in them where the baseline's Maven wrote some.
//! - **loopgate's start hooks** ([`hook`]): for unittest and mocha, which write no report through a private
//!   channel of their own, a hook loaded through the environment records their per-test events in the room,
//!   read the same way.
//!
//! A loop set up before the room existed has no [`Recorded`]: its runs are today's (the process's
//! environment, the shared caches), and `status` says so. The room's own tree (`tree`, mounted by
//! `confine::mount`, its sealed test files read-only) and the places outside the project that runners read on
//! their own, as at the baseline (`outside`), are where user namespaces work; elsewhere (macOS) the run stands
//! in the same copy at the copy's own path ([`TreeState::Copied`], [`Placed`]), and setup and `status` say so. The room is only as private as loopgate's home (same user;
//! the PreToolUse guard and, where it is on, the OS sandbox keep the agent's tools off it).

pub(crate) mod caches;
include!(concat!(env!("OUT_DIR"), "/ecosystem/room.rs"));
pub(crate) mod channels;
pub(crate) mod env;
pub(crate) mod hook;
pub(crate) mod layered;
pub(crate) mod outside;
pub(crate) mod snapshot;
#[cfg(test)]
mod tests;
pub(crate) mod tree;

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

pub(crate) use crate::confine::mount::{self, Mount};
pub(crate) use caches::{Cache, Shared};
pub(crate) use env::Recorded;
pub(crate) use tree::Synced;

/// The whole environment of one run: every variable, with its value.
pub(crate) type Env = Vec<(OsString, OsString)>;

/// `LOOPGATE_ROOM=0` in setup's environment builds no room: the loop's oracle runs in the asking process's
/// environment with the shared caches, as before the room existed (`status` says so).
pub(crate) const OFF_ENV: &str = "LOOPGATE_ROOM";

/// `LOOPGATE_ROOM_TREE=0` in setup's environment keeps the room (caches, environment) but runs the oracle in the
/// project's own tree, as before the room had a tree (`status` says so); `LOOPGATE_ROOM_TREE=copy` runs it in
/// the copy at the copy's own path even where the copy could be mounted (how the tests reach that state on Linux).
pub(crate) const TREE_OFF_ENV: &str = "LOOPGATE_ROOM_TREE";

/// Where the oracle's runs of a loop stand, decided at setup (the baseline and every promise alike).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(crate) enum TreeState {
    /// In the room's own tree, mounted at the project's path (see `tree`, `mount`).
    Mounted,
    /// In the room's own tree at the copy's own path (no mount namespace here, or forced), and why: the run's
    /// working directory is the copy, the recorded variables that point into the project point into the copy
    /// ([`env::repoint`]), and the OS sandbox keeps its writes off the project (see [`Placed::confine`]).
    Copied { why: String },
    /// In the project's own tree, and why.
    Fallback { why: String },
}

impl TreeState {
    /// The decision for a setup whose environment is `vars`: mounted where this machine can, else the copy at
    /// its own path.
    pub(crate) fn decide(vars: &std::collections::BTreeMap<String, String>) -> TreeState {
        Self::decide_with(vars.get(TREE_OFF_ENV).map(String::as_str), mount::probe())
    }

    /// [`TreeState::decide`] for the switch's value `switch` and this machine's mount `probe`.
    pub(crate) fn decide_with(switch: Option<&str>, probe: Result<(), String>) -> TreeState {
        match (switch, probe) {
            (Some("0"), _) => TreeState::Fallback {
                why: format!("turned off by {TREE_OFF_ENV}=0"),
            },
            (Some("copy"), _) => TreeState::Copied {
                why: format!("asked for by {TREE_OFF_ENV}=copy"),
            },
            (_, Ok(())) => TreeState::Mounted,
            (_, Err(why)) => TreeState::Copied { why },
        }
    }

    /// Whether the loop's runs stand in the room's tree (mounted or copied).
    pub(crate) fn in_tree(state: Option<&TreeState>) -> bool {
        matches!(state, Some(TreeState::Mounted | TreeState::Copied { .. }))
    }
}

/// Where one oracle run stands in the room's tree.
#[derive(Debug)]
pub(crate) enum Placed {
    /// The copy mounted at the project's path (boxed: the mounts are most of its size).
    Mounted(Box<Mount>),
    /// The copy at its own path `tree`, the project's dependency and version-control directories `bound`
    /// (project-relative) linked into it, and the stat each sealed file's copy had after the sync: nothing binds
    /// them read-only here, so a run that wrote one is seen afterwards ([`Placed::sealed_written`]).
    Copied {
        tree: PathBuf,
        bound: Vec<String>,
        sealed: Vec<(String, tree::Stat)>,
    },
}

impl Placed {
    /// The mounts the run enters, if any.
    pub(crate) fn mount(&self) -> Option<&Mount> {
        match self {
            Placed::Mounted(mount) => Some(mount.as_ref()),
            Placed::Copied { .. } => None,
        }
    }

    /// The run's working directory for the project at `root`.
    pub(crate) fn cwd<'a>(&'a self, root: &'a Path) -> &'a Path {
        match self {
            Placed::Mounted(_) => root,
            Placed::Copied { tree, .. } => tree,
        }
    }

    /// The copy's own path, where the run stands there (for reading its trace, see `trace::read_moved`).
    pub(crate) fn moved(&self) -> Option<&Path> {
        match self {
            Placed::Mounted(_) => None,
            Placed::Copied { tree, .. } => Some(tree),
        }
    }

    /// The paths held by the snapshot that the run reads from it (none where the tree is not mounted).
    pub(crate) fn presented(&self) -> &[PathBuf] {
        match self {
            Placed::Mounted(mount) => mount.presented(),
            Placed::Copied { .. } => &[],
        }
    }

    /// The sealed files (project-relative) whose copy the run wrote (its stat moved since the sync; a write puts
    /// the change time forward, whatever was put back), where the copy stands at its own path.
    pub(crate) fn sealed_written(&self) -> Vec<String> {
        let Placed::Copied { tree, sealed, .. } = self else {
            return Vec::new();
        };
        sealed
            .iter()
            .filter(|(relative, stat)| tree::written_since(tree, relative, Some(*stat)))
            .map(|(relative, _)| relative.clone())
            .collect()
    }

    /// Where a file the run wrote at `relative` (project-relative) is found after it, for the project at `root`:
    /// in the copy, unless it lies in one of the project's dependency or version-control directories the copy
    /// binds (see `tree::BOUND`), which the run wrote through to the project's own.
    pub(crate) fn written(&self, root: &Path, relative: &str) -> PathBuf {
        let mut prefix = PathBuf::new();
        for part in Path::new(relative).components() {
            prefix.push(part);
            if tree::BOUND.iter().any(|name| part.as_os_str() == *name) && root.join(&prefix).is_dir() {
                return root.join(relative);
            }
        }
        match self {
            Placed::Mounted(mount) => mount.in_room(tree::PLACE).join(relative),
            Placed::Copied { tree, .. } => tree.join(relative),
        }
    }

    /// Where the run writes a file for loopgate (the trace): the room, which the run can write.
    pub(crate) fn in_room(&self, room: &Path, name: &str) -> PathBuf {
        match self {
            Placed::Mounted(mount) => mount.in_room(name),
            Placed::Copied { .. } => room.join(name),
        }
    }

    /// The run's environment `env` and `plane` for the project at `root`: in the copy, what pointed into the
    /// project points into the copy, and the project itself is closed to writes but for its bound directories
    /// (the copy links them, and a run writes there as it would in the mounted tree: `node_modules/.cache`).
    pub(crate) fn confine(&self, root: &Path, env: &mut Env, plane: &mut crate::plane::Plane) {
        let (tree, bound) = match self {
            Placed::Mounted(mount) => {
                let dirs = mount.private_dirs();
                // The run's temporary directory is its `/tmp`, thrown away after it, rather than the room's, kept
                // for the loop: what a run of the agent's code left there (jest's transform cache) is no input of
                // the next.
                let tmp = Path::new("/tmp")
                    .canonicalize()
                    .unwrap_or_else(|_| PathBuf::from("/tmp"));
                if dirs.iter().any(|dir| tmp.starts_with(dir)) {
                    for (name, value) in env.iter_mut() {
                        if caches::TEMPORARY.iter().any(|var| name == var) {
                            *value = tmp.clone().into_os_string();
                        }
                    }
                }
                for dir in dirs {
                    plane.allow_inside(&dir);
                }
                return;
            }
            Placed::Copied { tree, bound, .. } => (tree, bound),
        };
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        env::repoint(env, &root, tree);
        plane.add(&root);
        plane.allow(tree);
        for relative in bound {
            plane.allow(&root.join(relative));
        }
    }
}

/// The directory of one project's room, and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Room {
    dir: PathBuf,
}

impl Room {
    /// The room at `dir` (see `seal::Store::room_dir`).
    pub(crate) fn at(dir: PathBuf) -> Self {
        Self { dir }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the loop's snapshot is stored (see `snapshot`): beside the room, not in it — the run sees the room
    /// (its caches), and must not see or write the snapshot it is judged in.
    pub(crate) fn snapshot_dir(&self) -> PathBuf {
        Room::snapshot_dir_of(&self.dir)
    }

    /// A new empty directory beside the room, not in it, for one run's kept caches (`oracle::run::KeptCaches`):
    /// the room is where runs write their caches, and what the judge reads of a run's writes must be out of
    /// reach of every later or concurrent run (the agent's own `loopgate verify` among them). Named
    /// `<room>.kept.<pid>.<nanos>`; what a killed loopgate left of such directories goes first.
    pub(crate) fn kept_dir_for_run(&self) -> io::Result<PathBuf> {
        self.remove_kept(|pid| !crate::process::alive(pid));
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let mut name = self.dir.as_os_str().to_owned();
        name.push(format!(".kept.{}.{nanos}", std::process::id()));
        let dir = PathBuf::from(name);
        private_dir(&dir)?;
        Ok(dir)
    }

    /// Removes the kept-caches directories beside this room (see [`Room::kept_dir_for_run`]) whose maker's pid
    /// `gone` says is no longer using them. Overlayfs leaves directories of mode 0 in them: opened up first.
    fn remove_kept(&self, gone: impl Fn(u32) -> bool) {
        let (Some(parent), Some(room)) = (self.dir.parent(), self.dir.file_name().and_then(|n| n.to_str())) else {
            return;
        };
        for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let maker = name
                .strip_prefix(room)
                .and_then(|rest| rest.strip_prefix(".kept."))
                .and_then(|rest| rest.split_once('.'))
                .and_then(|(pid, _)| pid.parse().ok());
            if maker.is_some_and(&gone) {
                let _ = snapshot::make_removable(&entry.path());
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }

    /// [`Room::snapshot_dir`] of the room at `dir`, without opening it.
    pub(crate) fn snapshot_dir_of(dir: &Path) -> PathBuf {
        dir.with_extension("snapshot")
    }

    /// Where `cache` lives in this room.
    pub(crate) fn path_of(&self, cache: &Cache) -> PathBuf {
        self.dir.join(cache.place)
    }

    /// The room's cache directories (of `recorded`'s private caches) a promise's run must leave as it found them
    /// (issue 39, item 2): the oracle's run runs the agent's code, which can write there (a test binary that
    /// replaces itself in Cargo's target directory, a bytecode file of a test), and the next run would trust it.
    /// What the baseline's run filled them with is what every later run starts from; a run's own writes are its
    /// alone (`mount::Private`), so a promise rebuilds what changed since the baseline, not since the last run.
    pub(crate) fn fresh_caches(&self, recorded: &Recorded) -> Vec<PathBuf> {
        recorded
            .private()
            .filter(|cache| !cache.file)
            .map(|cache| self.path_of(cache))
            .collect()
    }

    /// Empties the room and builds it again (setup: the baseline starts cold, and nothing an earlier loop
    /// left is read).
    pub(crate) fn rebuild(&self, recorded: &Recorded) -> io::Result<()> {
        self.remove();
        self.prepare(recorded)
    }

    /// Starts the room's seeded caches from their seeds (setup, after [`Room::rebuild`], before the baseline;
    /// see `caches::Seeding`). A rule that fails leaves its cache empty, as a room without seeds is.
    pub(crate) fn seed(&self, recorded: &Recorded, seeds: &Path, root: &Path) {
        for cache in recorded.private() {
            let Some(rule) = caches::seed_rule(cache) else {
                continue;
            };
            let into = self.path_of(cache);
            let seeding = caches::Seeding {
                seeds,
                root,
                vars: &recorded.vars,
                into: &into,
            };
            if rule(&seeding).is_err() {
                let _ = std::fs::remove_dir_all(&into);
                let _ = private_dir(&into);
            }
        }
    }

    /// Where the start hooks write their events for the verdict (see `hook`).
    pub(crate) fn events_path(&self) -> PathBuf {
        self.dir.join(hook::PLACE)
    }

    /// Adds to `results` (read from a run's output) the tests the room's records of that run name, for the runners
    /// whose output names only their failures, so that the baseline records every test by name and a later run
    /// that left no record (cut short, or code under test that printed a passing summary and exited before the
    /// runner finished) names none of them and falls short by name:
    /// - the start hooks' events ([`hook::add_named`]), where the verify command runs a runner whose events name
    ///   its tests (`runner::Report::HookNamed`; `runners`, the closure's);
    /// - the report channels whose names are the run's ([`channels::ReportChannel::add_named`]). A run with no
    ///   such report keeps its output's names (and falls short by name where the baseline's had some).
    pub(crate) fn add_named(&self, runners: &[crate::runner::Runner], results: &mut crate::readout::TestResults) {
        hook::add_named(&self.events_path(), runners, results);
        for channel in CHANNELS {
            channel.add_named(self, results);
        }
    }

    /// Where the room's tree stands (mounted at the project's path, or at its own), where runs write their
    /// build directories (see `tree`).
    fn tree_dir(&self) -> PathBuf {
        self.dir.join(tree::PLACE)
    }

    /// Makes the room's directories that are missing (private: 0700), without the last run's reports, and
    /// writes the start hooks.
    pub(crate) fn prepare(&self, recorded: &Recorded) -> io::Result<()> {
        let events = self.events_path();
        remove_stale(&events)?;
        for channel in CHANNELS {
            channel.clear(self)?;
        }
        private_dir(events.parent().unwrap_or(&self.dir))?;
        hook::install(&self.dir)?;
        hook::record::listen(&self.dir)?;
        // The room's own words of each runner's options, where the start channel finds them (`hook::complete`);
        // they hold no secret and no per-session value, so the baseline's variables alone give them.
        hook::complete(&self.dir, &recorded.for_run(|_| None), &self.vars(recorded, |_| None))?;
        for cache in recorded.private() {
            let path = self.path_of(cache);
            let dir = if cache.file {
                path.parent().unwrap_or(&self.dir)
            } else {
                &path
            };
            private_dir(dir)?;
        }
        private_dir(&self.dir)
    }

    /// The room ready for a run: this one, or — where it cannot be written (inside Claude Code's sandbox,
    /// loopgate's home is read-only to the agent's commands, so `loopgate verify` there cannot use it) — a fresh
    /// room in the process's temporary directory for this run alone, removed when the [`Throwaway`] is dropped.
    /// A fresh room holds nothing anyone planted; it only runs cold.
    pub(crate) fn ready(self, recorded: &Recorded) -> io::Result<(Room, Option<Throwaway>)> {
        if self.prepare(recorded).and_then(|()| self.probe()).is_ok() {
            return Ok((self, None));
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let fresh = Room::at(std::env::temp_dir().join(format!("loopgate-room-{}-{nanos}", std::process::id())));
        fresh.rebuild(recorded)?;
        Ok((fresh.clone(), Some(Throwaway(fresh))))
    }

    /// Whether a run could write its temporary files here.
    fn probe(&self) -> io::Result<()> {
        let probe = self.dir.join(".loopgate-probe");
        std::fs::write(&probe, b"")?;
        std::fs::remove_file(probe)
    }

    /// The room's tree for a run of the project at `root` with the baseline's variables `vars`: synced (see
    /// `tree`), and its mounts (the sealed files read-only, the places outside the project as at the baseline,
    /// see `outside`, and what the baseline read there presented from the `snapshot`, see `snapshot`).
    pub(crate) fn mount_tree(
        &self,
        root: &Path,
        vars: &std::collections::BTreeMap<String, String>,
        synced: &mut Synced,
        snapshot: Option<&snapshot::Snapshot>,
        fresh: &[PathBuf],
    ) -> io::Result<(Mount, tree::Done)> {
        let tree = self.dir.join(tree::PLACE);
        let mut done = synced.sync(root, &tree)?;
        let canonical = root.canonicalize()?;
        let mut hidden = synced.outside.hidden(vars, &canonical);
        if let Some(snapshot) = snapshot {
            snapshot.hide_appeared(&mut hidden);
        }
        let sealed: Vec<String> = synced.sealed.iter().cloned().collect();
        let home = crate::project::loopgate_home();
        let store = self.snapshot_dir();
        let mut mount = Mount::prepare(
            root,
            &tree,
            &done.bound,
            &private_places(vars, &home),
            fresh,
            &home,
            &self.dir,
            &hidden.cover,
            &sealed,
            snapshot
                .map(|snapshot| snapshot::Presenting { snapshot, store })
                .as_ref()
                .map(|p| p as &dyn crate::confine::Presenter),
        )?;
        // The start channel at each runner binary the baseline executed (`hook::binary`).
        let binaries = snapshot.map(|s| s.binaries.as_slice()).unwrap_or_default();
        let standins = hook::binary::at_binaries(&self.dir, binaries)?;
        mount.stand_in(
            &standins
                .into_iter()
                .map(|s| (s.target, s.standin, s.real))
                .collect::<Vec<_>>(),
        )?;
        mount.freeze(&hidden.frozen)?;
        done.outside = hidden;
        Ok((mount, done))
    }

    /// The room's tree for a run of the project at `root` as setup decided it (`state`): mounted (see
    /// [`Room::mount_tree`], the room's caches of `fresh` overlaid for the run alone) or, synced the same way, at
    /// its own path with the project's bound directories linked in; `None` where the runs stand in the project's
    /// own tree.
    pub(crate) fn place_tree(
        &self,
        state: Option<&TreeState>,
        root: &Path,
        vars: &std::collections::BTreeMap<String, String>,
        synced: &mut Synced,
        snapshot: Option<&snapshot::Snapshot>,
        fresh: &[PathBuf],
    ) -> io::Result<Option<(Placed, tree::Done)>> {
        match state {
            Some(TreeState::Mounted) => {
                let (mount, done) = self.mount_tree(root, vars, synced, snapshot, fresh)?;
                Ok(Some((Placed::Mounted(Box::new(mount)), done)))
            }
            Some(TreeState::Copied { .. }) => {
                let tree = self.dir.join(tree::PLACE);
                let done = synced.sync(root, &tree)?;
                let root = root.canonicalize()?;
                for relative in &done.bound {
                    tree::link_bound(&root.join(relative), &tree.join(relative))?;
                }
                let tree = tree.canonicalize()?;
                let bound = done.bound.clone();
                let sealed = synced
                    .sealed
                    .iter()
                    .filter_map(|relative| Some((relative.clone(), synced.files.get(relative)?.copy)))
                    .collect();
                Ok(Some((Placed::Copied { tree, bound, sealed }, done)))
            }
            Some(TreeState::Fallback { .. }) | None => Ok(None),
        }
    }

    /// Removes the room and its snapshot (best effort: a room half removed is emptied again by the next setup).
    pub(crate) fn remove(&self) {
        let tree = self.dir.join(tree::PLACE);
        if mounted_over(&self.dir, &tree) {
            // A tournament's layered room tree (`commands::run::tournament::layer`): a mount point cannot be
            // removed, and removing its files one by one would write a whiteout for each into the layer. The
            // layer is the tournament's to remove, the rest of the room is this loop's.
            for entry in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
                if entry.path() != tree {
                    let _ = std::fs::remove_dir_all(entry.path()).or_else(|_| std::fs::remove_file(entry.path()));
                }
            }
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
        let store = self.snapshot_dir();
        let _ = snapshot::make_removable(&store);
        let _ = std::fs::remove_dir_all(&store);
        self.remove_kept(|_| true);
    }

    /// Bytes the room's files take (their lengths; best effort).
    pub(crate) fn disk_used(&self) -> u64 {
        let mut total = 0;
        let _ = crate::walk::Walker::skipping(&[]).walk(&self.dir, |entry| {
            total += entry.metadata().map_or(0, |m| m.len());
            Ok(crate::walk::until(false))
        });
        total
    }

    /// The whole environment of an oracle run: the variables recorded at the baseline, the per-session ones
    /// and the secrets from `current` (the process that runs it), the private caches, the reports (pytest's
    /// option, the start hooks) and the reporting options (`verify::reporting`).
    pub(crate) fn env(
        &self,
        recorded: &Recorded,
        current: impl Fn(&str) -> Option<OsString>,
    ) -> Vec<(OsString, OsString)> {
        self.vars(recorded, current)
            .into_iter()
            .map(|(name, value)| (OsString::from(name), value))
            .collect()
    }

    /// [`Room::env`], by name.
    fn vars(
        &self,
        recorded: &Recorded,
        current: impl Fn(&str) -> Option<OsString>,
    ) -> std::collections::BTreeMap<String, OsString> {
        let mut vars = recorded.for_run(current);
        for cache in recorded.private() {
            caches::set(cache, &self.path_of(cache), &mut vars);
        }
        for channel in CHANNELS {
            channel.set(self, recorded, &mut vars);
        }
        hook::set(&self.dir, &mut vars);
        if !recorded.flags.holds(cargo_hook::THEIRS) {
            cargo_hook::set(&self.dir.join(hook::rust::FILE), &mut vars);
        }
        let reporting = crate::verify::reporting::env(|name| vars.get(name).cloned());
        vars.extend(reporting.into_iter().map(|(name, value)| (name.to_string(), value)));
        vars
    }
}

/// The places outside its tree a run in the mounted tree writes into a private scratch thrown away after it
/// (`mount::Private`), for the baseline's variables `vars` and loopgate's `home`: the home directory the run
/// sees (`~/.node-spawn-wrap-*`, a tool's lock beside its configuration), the system's temporary directories
/// (a path written there by name, not through `$TMPDIR`) and loopgate's home (hidden but for the room; a new
/// name there is the run's alone). One inside another counts once.
pub(crate) fn private_places(vars: &std::collections::BTreeMap<String, String>, home: &Path) -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = vars
        .get("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .into_iter()
        .collect();
    places.extend(["/tmp", "/var/tmp"].map(PathBuf::from));
    places.push(home.to_path_buf());
    places
}

/// A room made for one run (see [`Room::ready`]), removed when dropped.
#[derive(Debug)]
pub(crate) struct Throwaway(Room);

impl Drop for Throwaway {
    fn drop(&mut self) {
        self.0.remove();
    }
}

/// What a loop's room is, for setup's line and `status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Described {
    pub dir: PathBuf,
    /// The private caches' variables (the first of each cache's).
    pub private: Vec<&'static str>,
    pub shared: Vec<Shared>,
    /// How many variables were recorded with their values, and how many secrets by name.
    pub recorded: usize,
    pub secrets: usize,
    /// The report channels whose report the verdict reads, by their keys, in [`CHANNELS`]' order (see
    /// `channels`).
    pub reports: Vec<&'static str>,
    /// A pass must also hold in the events these runners' start hooks recorded (see `hook`).
    pub hook_report: Option<String>,
    /// Where the runs stand (see [`TreeState`]).
    pub tree: Option<TreeState>,
    /// What the runs write in `$HOME` and `/tmp` goes into a scratch of their own, thrown away after each (the
    /// mounted tree, on a machine that can overlay those places: `mount::Private`).
    pub scratch: bool,
}

impl Recorded {
    /// This room as setup and `status` describe it.
    pub(crate) fn describe(&self, room: &Room) -> Described {
        Described {
            dir: room.dir().to_path_buf(),
            private: self.private().map(Cache::name).collect(),
            shared: self.shared.clone(),
            recorded: self.vars.len(),
            secrets: self.secrets.len(),
            reports: CHANNELS
                .iter()
                .map(|channel| channel.key())
                .filter(|key| self.flags.holds(key))
                .collect(),
            hook_report: self.hook_report.clone(),
            tree: self.tree.clone(),
            scratch: self.tree == Some(TreeState::Mounted) && mount::Private::probe().is_ok(),
        }
    }

    /// After the baseline run in `room`: whether each channel's report, or the start hooks' events, can stand
    /// for the verdict (see `channels`; the hooks' events must name every test of the baseline's `results`).
    pub(crate) fn take_report(&mut self, room: &Room, results: &crate::readout::TestResults) {
        for channel in CHANNELS {
            self.flags.set(channel.key(), channel.stands(room, results));
        }
        self.hook_report = report::runners_of(&room.events_path())
            .filter(|_| report::Report::read_events(&room.events_path()).is_ok_and(|r| r.covers(results)));
        self.hook_runs = match self.hook_report {
            Some(_) => report::hooked_commands(&room.events_path()).0,
            None => Default::default(),
        };
    }

    /// Why a run that passed by its exit and output (`results`) is no pass by its report, where the verdict
    /// reads one: the problem, and whose report it is (`pytest`, `unittest`, `mocha`). The reports that stand
    /// beside the output are asked first, then the start hooks' events, then the reports whose names are the
    /// run's already (`Room::add_named`), where what is left to see is reports that are missing, cut short,
    /// hold a failure while the run exited 0, or name no test.
    pub(crate) fn report_problem(
        &self,
        room: &Room,
        results: &crate::readout::TestResults,
    ) -> Option<(report::Problem, String)> {
        let stood = |names: bool| {
            CHANNELS
                .iter()
                .filter(move |channel| channel.names_the_run() == names && self.flags.holds(channel.key()))
        };
        let asked = |channel: &&&dyn channels::ReportChannel| {
            channel
                .problem(room, results)
                .map(|problem| (problem, channel.who().to_string()))
        };
        let events = || {
            let who = self.hook_report.as_ref()?;
            match report::Report::read_events(&room.events_path()) {
                // A process that ran the baseline's run, started the same way, that ran none (code under test
                // that ended it before its runner began, whatever another process sent).
                Ok(_)
                    if !report::hooked_commands(&room.events_path())
                        .1
                        .is_disjoint(&self.hook_runs) =>
                {
                    Some(report::Problem::Missing)
                }
                Ok(report) => report.holds(results),
                Err(problem) => Some(problem),
            }
            .map(|problem| (problem, who.clone()))
        };
        stood(false)
            .find_map(|channel| asked(&channel))
            .or_else(events)
            .or_else(|| stood(true).find_map(|channel| asked(&channel)))
    }
}

/// Every report channel, one line per ecosystem that has one (see `channels`), in the order setup names them.
pub(crate) const CHANNELS: &[&dyn channels::ReportChannel] = &[
    &report::Channel,
    &gtest::Channel,
    &surefire::Channel,
    &php_report::Channel,
];

/// Every key of the room's record an ecosystem decides ([`channels::Flags`]): the channels' and the cargo
/// hook's.
pub(crate) fn flag_keys() -> impl Iterator<Item = &'static str> {
    CHANNELS.iter().map(|channel| channel.key()).chain([cargo_hook::THEIRS])
}

/// Takes the ecosystems' decisions of a project at `root` with the baseline's variables `vars` (see
/// [`flag_keys`]) into `flags`.
pub(crate) fn take_theirs(root: &Path, vars: &std::collections::BTreeMap<String, String>, flags: &mut channels::Flags) {
    flags.set(cargo_hook::THEIRS, cargo_hook::theirs(root, vars));
}

/// Removes a report a run left at `path`, if there is one.
pub(crate) fn remove_stale(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() != io::ErrorKind::NotFound => Err(err),
        _ => Ok(()),
    }
}

fn private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Whether `inner` is a mount point below `dir` (another file system than its parent's).
fn mounted_over(dir: &Path, inner: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::symlink_metadata(dir), std::fs::symlink_metadata(inner)) {
        (Ok(outer), Ok(inner)) => inner.is_dir() && outer.dev() != inner.dev(),
        _ => false,
    }
}
