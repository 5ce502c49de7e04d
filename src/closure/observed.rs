//! The observed closure: what the baseline run actually read, ran and looked for, sealed (SPEC.md's second
//! oracle principle, "observe, don't enumerate"; issue 21).
//!
//! [`Observed::take`] turns the traced baseline run's events (`crate::trace`) into seals of the same kind the
//! derived closure keeps ([`super::SealedFile`]: digests of a file's content, or no digest for a file sealed
//! as absent), so a promise checks, reports and accepts both the same way. Beside them it keeps what the run
//! *searched* (the directories it listed, with their entries at setup) and what it *used by name* (the
//! top-level Python modules it imported and the programs it ran), so a new file that would be found instead
//! of something the baseline used is a [`Shadow`].
//!
//! Where the line is drawn — what is sealed, of everything the run touched:
//! - **Sealed**: under the project, configuration (a config name anywhere: `pytest.toml`, `conftest.py`,
//!   `jest.config.js`, a `Makefile` — not `build.rs`, the project's code, which runs where the tests are read-only; a configuration file type — `.ini`, `.toml`, `.json`, `.yaml`,
//!   `.env`, a dotfile — at the project root or in a dot-directory), scripts (`*.sh`, `*.mk`) and programs the
//!   run executed, and everything in the
//!   project's tool places (`node_modules`, a virtual environment, `site-packages`). Above the project,
//!   configuration in each parent directory (`../pytest.ini`). In the home directory, its dotfiles,
//!   `~/.config`, `~/.cargo/config.toml` and package places (a user `site-packages`, `node_modules`). Every
//!   program the run executed from the project or the home directory. A file looked for and not found is
//!   sealed as absent in the project (`node_modules/.bin/node`), except a source file or a directory (creating
//!   `src/parser.js` that a failing test looked for is the task), and above it only where the run searched up
//!   from the project — the same name looked for in the project too (`pytest.ini`, `.cargo/config.toml` in a
//!   parent directory). What the run looks for on its own in the user's places (`~/.inputrc`, the user
//!   site-packages, a program on `PATH` in the home) and finds there later is the user's machine changing: what
//!   changed outside the project since the baseline, that the agent did not do through the project, is the
//!   user's (issue 29; the oracle's room keeps it as it was).
//! - **Not sealed**: the code the agent is there to change — source files (by extension: `.py`, `.rs`, `.js`,
//!   `.go`, …) that are not configuration, and scripts (`lib/calc.sh`) the run only read where a runner of the
//!   command loads the code under test as scripts (bats' `load`/`source`; a script the command names is still
//!   the derived closure's), and data files (`src.txt`, `src/data/table.json`: what the code
//!   reads is the code's);
//!   the tests and their data (sealed test by test by the inventory, restored as sealed for each oracle run by
//!   `testswap`); dependency manifests and lockfiles (the derived closure seals the parts of a manifest that
//!   decide what runs, so a new dependency is not flagged); what the run wrote itself (build outputs, caches:
//!   `target/`, `__pycache__`, any directory with a `CACHEDIR.TAG`); version control and loopgate's own files;
//!   the system's own directories (`/usr`, `/etc`: a process that can rewrite those can rewrite loopgate).
//!
//! Files larger than [`LARGE`] (interpreters, compilers) are sealed by size and modification time
//! ([`super::Scope::Stat`]) so a promise does not read hundreds of megabytes.

include!(concat!(env!("OUT_DIR"), "/ecosystem/closure/observed.rs"));

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Closure, Scope, SealedFile, Why, read_parts};
use crate::recipes;
use crate::trace::{Access, Event};

/// Files above this size are sealed by size and modification time, not content.
pub const LARGE: u64 = 1 << 20;

/// The observed closure of a loop's verify command; kept beside the seal (it can hold thousands of files, and
/// only a promise reads it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    pub tracing: Tracing,
    /// The files sealed, by content or as absent.
    pub closure: Closure,
    /// Directories the run listed, with their entries at setup.
    #[serde(default)]
    pub searched: Vec<Searched>,
    /// What the run used by name.
    #[serde(default)]
    pub used: Vec<Used>,
    /// The test side's modules and where the baseline loaded them (see `super::resolved`); a promise run
    /// that loads one from elsewhere is rejected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loaded: Vec<super::resolved::Loaded>,
    /// The names of the programs the run executed (`make`, `python3`); `None` in an observed closure taken
    /// before they were kept, which is read as "any": a new build file then counts as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ran: Option<BTreeSet<String>>,
}

/// Whether the baseline run was traced.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Tracing {
    /// No baseline run (`--no-baseline`, or no verify command).
    #[default]
    NotRun,
    /// Traced: this many file events were seen.
    Traced { events: u64 },
    /// Not traced, and why; the derived closure stands alone.
    Unavailable { why: String },
}

/// What the run saw of a sealed file; the reason given when it moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "seen")]
pub enum Seen {
    Read,
    Ran,
    /// Looked for and not found.
    LookedFor,
    /// A program looked for here and not found; `ran` is the one that ran instead.
    LookedForProgram {
        ran: Option<String>,
    },
}

/// A directory the run listed (Python's import system, a test runner's collection), and its entries then.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Searched {
    pub dir: String,
    pub names: BTreeSet<String>,
}

/// Something the run used by name, and where it was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Used {
    pub name: String,
    pub path: String,
}

/// A new file that would be found instead of something the baseline run used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shadow {
    /// The new file (relative to the project root, or absolute).
    pub path: String,
    pub kind: ShadowKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShadowKind {
    /// Named like the module `name`, which the baseline imported from `used`.
    Module { name: String, used: String },
    /// A `.pth` file: Python runs its import lines at start-up.
    PathFile,
    /// Package metadata declaring a pytest plugin (an entry point in the `pytest11` group).
    Plugin,
    /// A file a runner reads by finding it in a directory it lists (`GNUmakefile` beside `Makefile`: make
    /// looks names up in its own cache of the directory, so the trace shows the listing, not the lookup).
    Configuration,
}

impl Observed {
    /// Seals what a traced run of a command started in `root` touched; `derived` is the derived closure
    /// (its files keep their scopes and are not sealed twice), `home` the user's home directory.
    pub fn take(events: &[Event], root: &Path, home: Option<&Path>, derived: Option<&Closure>) -> Observed {
        let places = Places::new(root, home, derived, events);
        let written: HashSet<&Path> = events
            .iter()
            .filter(|e| e.access == Access::Wrote)
            .map(|e| e.path.as_path())
            .collect();
        let programs: BTreeMap<String, String> = events
            .iter()
            .filter(|e| e.access == Access::Executed)
            .filter_map(|e| Some((file_name(&e.path)?.to_string(), places.key(&e.path))))
            .collect();
        let mut seen: BTreeMap<String, (PathBuf, Seen)> = BTreeMap::new();
        let mut listed: BTreeSet<PathBuf> = BTreeSet::new();
        let mut modules = Modules::default();
        // A run touches the same paths again and again (Python stats a directory dozens of times): judge each
        // path and access once, in the order first seen.
        let mut judged: HashSet<(Access, &Path)> = HashSet::new();
        let distinct = events
            .iter()
            .filter(|e| e.access != Access::Probed && judged.insert((e.access, &e.path)));
        for event in distinct {
            // Python reads a module's cached bytecode when it is fresh; the input is the source beside it.
            let source = (event.access == Access::Read)
                .then(|| source_of_bytecode(&event.path))
                .flatten();
            let path = source.as_deref().unwrap_or(&event.path);
            if path.ancestors().any(|a| written.contains(a)) {
                continue;
            }
            // A shell searches `PATH` with `stat`: a name looked for that then ran from elsewhere is a program.
            let program_lookup = event.access == Access::MissingProgram
                || (event.access == Access::Missing && file_name(path).is_some_and(|n| programs.contains_key(n)));
            let seen_as = match event.access {
                Access::Listed => {
                    if places.searchable(path) {
                        listed.insert(path.to_path_buf());
                    }
                    continue;
                }
                Access::Read => {
                    modules.note(path);
                    Seen::Read
                }
                Access::Executed => Seen::Ran,
                _ if program_lookup => Seen::LookedForProgram {
                    ran: file_name(path).and_then(|n| programs.get(n)).cloned(),
                },
                Access::Missing => Seen::LookedFor,
                Access::MissingProgram | Access::Probed | Access::Wrote => continue,
            };
            if !places.sealable(path, &seen_as) {
                continue;
            }
            let key = places.key(path);
            // What the run did with a path first decides; reading beats looking for (a file created mid-run).
            seen.entry(key).or_insert((path.to_path_buf(), seen_as));
        }
        let files = seen
            .into_iter()
            .filter_map(|(key, (path, seen))| {
                let meta = std::fs::metadata(&path).ok();
                if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
                    return None;
                }
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let scope = if meta.is_some_and(|m| m.len() > LARGE) {
                    Scope::Stat
                } else if super::dotenv::is_dotenv(&name) {
                    let mut scope = super::dotenv::scope();
                    scope.seal_read_variables(derived.map_or(&Default::default(), |closure| &closure.reads));
                    scope
                } else {
                    Scope::Whole
                };
                Some(SealedFile {
                    parts: read_parts(root, &key, &scope),
                    path: key,
                    scope,
                    why: Why::Observed(seen),
                })
            })
            .collect();
        let searched = listed
            .into_iter()
            .map(|dir| Searched {
                names: entries(&dir),
                dir: places.key(&dir),
            })
            .collect();
        Observed {
            tracing: Tracing::Traced {
                events: events.len() as u64,
            },
            closure: Closure {
                files,
                ..Closure::default()
            },
            searched,
            used: modules.used(&places),
            loaded: Vec::new(),
            ran: Some(programs.into_keys().collect()),
        }
    }

    /// The sealed files worth watching while a verify runs: those in the project outside its package places
    /// (which hold thousands of files and are checked after the run instead).
    pub fn watched_paths(&self) -> impl Iterator<Item = &str> {
        self.closure
            .files
            .iter()
            .map(|f| f.path.as_str())
            .filter(|path| !path.starts_with('/') && !in_tool_place(Path::new(path)))
    }

    /// A loop whose baseline was not traced, and why.
    pub fn unavailable(why: String) -> Observed {
        Observed {
            tracing: Tracing::Unavailable { why },
            ..Observed::default()
        }
    }

    /// New files in the searched directories that would be found instead of what the baseline used.
    pub fn shadows(&self, root: &Path) -> Vec<Shadow> {
        let used: HashMap<&str, &Used> = self.used.iter().map(|u| (u.name.as_str(), u)).collect();
        let mut shadows = Vec::new();
        for searched in &self.searched {
            let dir = root.join(&searched.dir);
            for name in entries(&dir).difference(&searched.names) {
                let path = join_key(&searched.dir, name);
                let kind = if name.ends_with(".pth") {
                    (!installed(&dir, name)).then_some(ShadowKind::PathFile)
                } else if runner_configuration(name) && self.read_by_what_ran(name) {
                    Some(ShadowKind::Configuration)
                } else if is_metadata_dir(name) {
                    let metadata = dir.join(name);
                    DECLARES_PLUGIN
                        .iter()
                        .any(|declares| declares(&metadata))
                        .then_some(ShadowKind::Plugin)
                } else if dir.join("__init__.py").is_file() {
                    // A package's new file is its submodule (`pkg.types`): it cannot stand in for a top-level
                    // module.
                    None
                } else {
                    module_name(name)
                        .and_then(|module| used.get(module))
                        .filter(|u| parent_key(&u.path) != parent_key(&path))
                        .map(|u| ShadowKind::Module {
                            name: u.name.clone(),
                            used: u.path.clone(),
                        })
                };
                if let Some(kind) = kind {
                    shadows.push(Shadow { path, kind });
                }
            }
        }
        shadows
    }

    /// Whether a configuration file named `name` would be read by a program of this run: a build file (a
    /// `Makefile`, a `justfile`) only by its own program (`recipes::build_file_program`), so a new `Makefile` beside
    /// a `go test` that ran no make is the agent's (a lint target), while beside a run of make it would be read
    /// instead of the baseline's. Every other runner's configuration name counts whatever ran (its runner may
    /// be the interpreter the run started); so does a build file when the programs were not kept.
    fn read_by_what_ran(&self, name: &str) -> bool {
        let (Some(program), Some(ran)) = (recipes::build_file_program(name), &self.ran) else {
            return true;
        };
        ran.iter().any(|r| r == program || r.ends_with(program)) || crate::runner::is_config_name(name)
    }

    /// Accepts the current entries of the searched directories that `accept` selects (a shadow the user
    /// wants); returns the paths accepted.
    pub fn accept_entries(&mut self, root: &Path, accept: impl Fn(&str) -> bool) -> Vec<String> {
        let mut accepted = Vec::new();
        for searched in &mut self.searched {
            let new: Vec<String> = entries(&root.join(&searched.dir))
                .difference(&searched.names)
                .cloned()
                .collect();
            for name in new {
                let path = join_key(&searched.dir, &name);
                if accept(&path) {
                    searched.names.insert(name);
                    accepted.push(path);
                }
            }
        }
        accepted
    }
}

/// `size:mtime_ns` of a file, the digest of a [`Scope::Stat`] seal.
pub fn size_and_time(meta: &std::fs::Metadata) -> String {
    let nanos = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{}:{nanos}", meta.len())
}

/// The places the run's paths are judged in.
struct Places<'a> {
    root: &'a Path,
    home: Option<&'a Path>,
    /// The derived closure's files (relative or absolute, as it keys them).
    derived: HashSet<&'a str>,
    /// The derived closure, which judges a new file of a name it watches (`conftest.py`) in the watch's scope.
    watching: Option<&'a Closure>,
    /// The project root's ancestors.
    ancestors: Vec<&'a Path>,
    /// The directories at the root that are build output (cargo's `target/` in a cargo package).
    build_output: Vec<&'static str>,
    /// Whether a runner of the command loads the code under test as shell scripts (bats: `load ../lib/x.sh`):
    /// a script the run only read is then code, not the command's own (`runner::TestFiles::loads_scripts`).
    scripts_are_code: bool,
    /// Directories known to hold (or not) a marker file (`CACHEDIR.TAG`, `pyvenv.cfg`).
    markers: std::cell::RefCell<HashMap<(PathBuf, &'static str), bool>>,
    /// Loopgate's home: the oracle's room (`crate::room`) is the run's own caches, never an input.
    loopgate: PathBuf,
    /// Every path the run touched below the root, relative to it: a name it also looked for above the root
    /// was searched for up from the project (`pytest.ini`, `.cargo/config.toml`, `node_modules/x`).
    in_project: HashSet<PathBuf>,
}

impl<'a> Places<'a> {
    fn new(root: &'a Path, home: Option<&'a Path>, derived: Option<&'a Closure>, events: &[Event]) -> Places<'a> {
        Places {
            in_project: events
                .iter()
                .filter_map(|e| e.path.strip_prefix(root).ok())
                .filter(|relative| !relative.as_os_str().is_empty())
                .map(Path::to_path_buf)
                .collect(),
            root,
            home,
            derived: derived
                .map(|c| c.files.iter().map(|f| f.path.as_str()).collect())
                .unwrap_or_default(),
            watching: derived,
            ancestors: root.ancestors().skip(1).collect(),
            build_output: BUILD_OUTPUT.iter().filter_map(|output| output(root)).collect(),
            scripts_are_code: derived.is_some_and(|c| c.runners.iter().any(|r| r.row().tests.loads_scripts)),
            markers: std::cell::RefCell::default(),
            loopgate: crate::project::loopgate_home(),
        }
    }

    /// How the seal names a path: relative to the root (with `/`), or absolute.
    fn key(&self, path: &Path) -> String {
        key_of(self.root, path)
    }

    /// Whether a path the run touched is one of the oracle's inputs (see the module docs).
    fn sealable(&self, path: &Path, seen: &Seen) -> bool {
        let Some(name) = file_name(path) else { return false };
        if name.ends_with(".pyc") || self.derived.contains(self.key(path).as_str()) || path.starts_with(&self.loopgate)
        {
            return false;
        }
        // A directory that holds files the derived closure judges (`.cargo`, for `.cargo/config.toml`): what the
        // run reads in it is judged there, key by key, so creating the directory is no move of its own.
        let key = self.key(path);
        if self
            .derived
            .iter()
            .any(|d| d.strip_prefix(key.as_str()).is_some_and(|rest| rest.starts_with('/')))
        {
            return false;
        }
        if let Ok(relative) = path.strip_prefix(self.root) {
            // A name the derived closure watches is judged there when it appears, by what it holds.
            return !self.watching.is_some_and(|c| c.watches_name_of(relative))
                && self.sealable_in_project(relative, name, seen);
        }
        // Outside the project, what the run looked for and did not find is sealed as absent only where it
        // searched up from the project: a file there stands for the project. A file the user creates later
        // in places the run looks at on its own (`~/.inputrc`, the user site-packages, a program on `PATH`
        // in the home) is the user's machine changing, not the agent's move (issue 29).
        match seen {
            Seen::LookedFor | Seen::LookedForProgram { .. } if !self.searched_up(path) => return false,
            Seen::LookedForProgram { .. } => return true,
            Seen::LookedFor => return configuration(name) || in_tool_place(path),
            Seen::Read | Seen::Ran => {}
        }
        if matches!(seen, Seen::Ran) {
            return self.home.is_some_and(|h| path.starts_with(h));
        }
        if path.parent().is_some_and(|dir| self.ancestors.contains(&dir)) {
            return configuration(name);
        }
        let Some(relative) = self.home.and_then(|h| path.strip_prefix(h).ok()) else {
            return false;
        };
        let depth = relative.components().count();
        if in_tool_place(relative) {
            return !in_cache(relative);
        }
        // `~/.config/go/env` is Go's environment file; other extensionless files there are state (telemetry).
        (depth == 1 && configuration(name))
            || (relative.starts_with(".config") && (configuration(name) || name == "env"))
            || HOME_CONFIG
                .iter()
                .flat_map(|files| files.iter())
                .any(|file| relative.starts_with(file))
    }

    /// Whether `path` (outside the root) is in a directory above the project under a name the run also
    /// looked for in the project itself: a search that walked up from the project reached it.
    fn searched_up(&self, path: &Path) -> bool {
        self.ancestors.iter().any(|above| {
            path.strip_prefix(above)
                .is_ok_and(|relative| !relative.as_os_str().is_empty() && self.in_project.contains(relative))
        })
    }

    fn sealable_in_project(&self, relative: &Path, name: &str, seen: &Seen) -> bool {
        let first = relative.components().next().map(|c| c.as_os_str().to_string_lossy());
        if matches!(first.as_deref(), Some(".git" | ".hg" | ".svn" | ".claude"))
            || first.as_deref().is_some_and(|first| self.build_output.contains(&first))
            || in_cache(relative)
            || self.cache_tagged(relative)
        {
            return false;
        }
        if in_tool_place(relative) || self.in_venv(relative) {
            return true;
        }
        if manifest(name) {
            return false;
        }
        let test_side = super::is_test_path(relative);
        match seen {
            Seen::Ran | Seen::LookedForProgram { .. } => true,
            Seen::LookedFor => config_name(name) || (!test_side && configuration(name) && !source(name)),
            Seen::Read if test_side => false,
            Seen::Read => {
                let at_root = relative.components().count() == 1;
                let in_dot_dir = relative
                    .parent()
                    .is_some_and(|p| p.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.')));
                let script = script(name) && !self.scripts_are_code;
                config_name(name) || (!source(name) && (script || ((at_root || in_dot_dir) && configuration(name))))
            }
        }
    }

    /// Whether a directory of the project (or above it: the run's `.pth` files live in a venv) is worth
    /// keeping the entries of: one Python's import system or a runner could find a new module in.
    fn searchable(&self, dir: &Path) -> bool {
        if dir.starts_with(&self.loopgate) {
            return false;
        }
        match dir.strip_prefix(self.root) {
            Ok(relative) => {
                let first = relative.components().next().map(|c| c.as_os_str().to_string_lossy());
                !(matches!(first.as_deref(), Some(".git" | ".claude"))
                    || first.as_deref().is_some_and(|first| self.build_output.contains(&first))
                    || in_cache(relative)
                    || relative.components().any(|c| c.as_os_str() == "node_modules"))
            }
            Err(_) => self
                .home
                .and_then(|h| dir.strip_prefix(h).ok())
                .is_some_and(|relative| in_tool_place(relative) && !in_cache(relative)),
        }
    }

    /// Inside a directory (below the root) that holds a `CACHEDIR.TAG`: a cache by its own declaration.
    fn cache_tagged(&self, relative: &Path) -> bool {
        self.above_holds(relative, "CACHEDIR.TAG")
    }

    /// Inside a virtual environment in the project (a directory with a `pyvenv.cfg`).
    fn in_venv(&self, relative: &Path) -> bool {
        self.above_holds(relative, "pyvenv.cfg")
    }

    /// Whether a directory above `relative` (below the root) holds a file `marker`; each directory is looked at
    /// once per marker.
    fn above_holds(&self, relative: &Path, marker: &'static str) -> bool {
        let mut holds = self.markers.borrow_mut();
        relative
            .ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| {
                *holds
                    .entry((a.to_path_buf(), marker))
                    .or_insert_with(|| self.root.join(a).join(marker).is_file())
            })
    }
}

/// The top-level Python modules the run imported, by the files it read.
#[derive(Default)]
struct Modules {
    files: BTreeSet<PathBuf>,
}

impl Modules {
    fn note(&mut self, path: &Path) {
        if file_name(path).and_then(module_name).is_some() {
            self.files.insert(path.to_path_buf());
        }
    }

    /// Each module file's top-level package: up through the directories that hold an `__init__.py`.
    fn used(&self, places: &Places) -> Vec<Used> {
        let mut packages: HashMap<PathBuf, bool> = HashMap::new();
        let mut is_package = |dir: &Path| {
            *packages
                .entry(dir.to_path_buf())
                .or_insert_with(|| dir.join("__init__.py").is_file())
        };
        let mut used: BTreeMap<String, String> = BTreeMap::new();
        for file in &self.files {
            let Some(name) = file_name(file).filter(|n| n.ends_with(".py") || n.contains(".so")) else {
                continue;
            };
            let mut top = file.clone();
            while let Some(dir) = top.parent().filter(|d| is_package(d)) {
                top = dir.to_path_buf();
            }
            let module = if top == *file {
                module_name(name)
            } else {
                file_name(&top)
            };
            if let Some(module) = module.filter(|m| *m != "__init__" && *m != "__main__") {
                used.entry(module.to_string()).or_insert_with(|| places.key(&top));
            }
        }
        used.into_iter().map(|(name, path)| Used { name, path }).collect()
    }
}

/// How the seal names a path of a run started in `root`: relative to it (with `/`), or absolute.
pub(super) fn key_of(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(relative) => relative.to_string_lossy().replace('\\', "/"),
        Err(_) => path.to_string_lossy().into_owned(),
    }
}

/// `pkg/__pycache__/mod.cpython-311.pyc` → `pkg/mod.py`, where that source exists.
pub(super) fn source_of_bytecode(path: &Path) -> Option<PathBuf> {
    let name = file_name(path)?.strip_suffix(".pyc")?;
    let cache = path
        .parent()
        .filter(|p| p.file_name().is_some_and(|n| n == "__pycache__"))?;
    let stem = name.split('.').next()?;
    let source = cache.parent()?.join(format!("{stem}.py"));
    source.is_file().then_some(source)
}

fn file_name(path: &Path) -> Option<&str> {
    path.file_name().and_then(|n| n.to_str())
}

fn join_key(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

fn parent_key(key: &str) -> &str {
    key.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// A directory's entry names now (none when it cannot be read).
fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The module an entry of a directory on Python's path would be imported as: `calc.py`, `calc/`,
/// `calc.cpython-311-x86_64-linux-gnu.so` → `calc`.
pub(super) fn module_name(name: &str) -> Option<&str> {
    let stem = [".py", ".pyc"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .or_else(|| name.split_once(".cpython-").map(|(stem, _)| stem))
        .or_else(|| name.strip_suffix(".so"))
        .or_else(|| (!name.contains('.')).then_some(name))?;
    (!stem.is_empty() && stem.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(stem)
}

fn is_metadata_dir(name: &str) -> bool {
    name.ends_with(".dist-info") || name.ends_with(".egg-info")
}

/// Whether an installer put `name` in `dir` as part of a distribution: a `*.dist-info/RECORD` beside it lists
/// it with the digest of its content (PEP 376 / 627). Installers write `.pth` files every day — an editable
/// install (`pip install -e .`, `uv pip install -e`), a dependency that ships one (setuptools'
/// `distutils-precedence.pth`) — and a dependency is the agent's to add; a `.pth` no installer recorded was put
/// there by hand. What an installed one does to the test side is still seen: the promise run's resolution is
/// compared with the baseline's (`Resolution`).
fn installed(dir: &Path, name: &str) -> bool {
    let Ok(content) = std::fs::read(dir.join(name)) else {
        return false;
    };
    let digest = {
        use sha2::Digest as _;
        crate::fsutil::base64_url(&sha2::Sha256::digest(&content))
    };
    entries(dir)
        .iter()
        .filter(|entry| entry.ends_with(".dist-info"))
        .filter_map(|entry| std::fs::read_to_string(dir.join(entry).join("RECORD")).ok())
        .any(|record| {
            record.lines().any(|line| {
                let mut fields = line.split(',');
                fields.next() == Some(name) && fields.next() == Some(&format!("sha256={digest}"))
            })
        })
}

/// Whether an installed distribution's metadata directory declares a plugin a runner loads on its own, one rule
/// per ecosystem that has such plugins.
const DECLARES_PLUGIN: &[fn(&Path) -> bool] = &[python::declares_plugin];

/// The directories a runner builds into at a project's root, by what the root holds, one rule per ecosystem.
const BUILD_OUTPUT: &[fn(&Path) -> Option<&'static str>] = &[rust::build_output];

/// The programs judged by what they output, not by what they read, one rule per ecosystem that has them (cargo's
/// build scripts: `closure::built_features` compares what they told rustc for the tests): a file in the project
/// only they read is no input of the run (`trace::parse::events`).
const JUDGED_BY_OUTPUT: &[fn(&Path) -> bool] = &[rust::build_script];

/// Whether a process running `program` is judged by what it outputs (see [`JUDGED_BY_OUTPUT`]).
pub(crate) fn judged_by_output(program: &Path) -> bool {
    JUDGED_BY_OUTPUT.iter().any(|judged| judged(program))
}

/// Configuration files a tool reads from the home directory's dot directories, beyond `~/.config`, per ecosystem.
const HOME_CONFIG: &[&[&str]] = &[rust::HOME_CONFIG];

/// What the traced run's reading knows of each ecosystem's files by name: each registered folder's
/// `observed.rs`.
const FILES: &[&Files] = &each_observed!(&FILES);

/// An ecosystem's files by name ([`FILES`]).
struct Files {
    /// Its dependency manifests and lockfiles ([`manifest`]).
    manifest: fn(&str) -> bool,
    /// The files its tools pick up by listing a directory, by name and by prefix ([`runner_configuration`]).
    listed: &'static [&'static str],
    listed_prefixes: &'static [&'static str],
}

/// Source code by extension: the agent's to change (unless its name makes it configuration). The languages
/// whose tests loopgate reads (`schema::Lang`), and these.
fn source(name: &str) -> bool {
    const CODE: &[&str] = &[
        "pyi", "pyx", "c", "kt", "kts", "scala", "swift", "cs", "fs", "m", "mm", "vue", "svelte", "ex", "exs", "erl",
        "hs", "ml", "clj", "dart", "lua", "r", "jl", "zig",
    ];
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        let ext = ext.to_ascii_lowercase();
        !stem.is_empty() && (CODE.contains(&ext.as_str()) || crate::schema::Lang::of_extension(&ext).is_some())
    })
}

/// Shell and make fragments: tooling, not the code under test.
fn script(name: &str) -> bool {
    [".sh", ".bash", ".zsh", ".mk", ".make"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Names that configure a runner or its language's start-up, although some are code (`conftest.py`).
fn config_name(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "setup.py",
        "noxfile.py",
        "sitecustomize.py",
        "usercustomize.py",
        "rust-toolchain",
        "tox.ini",
    ];
    // `jest.config.js`, `karma.conf.js`, `.mocharc.yml`, `.npmrc`.
    let rc = |stem: &str| stem.starts_with('.') && stem.ends_with("rc");
    let stem_config = rc(name)
        || name
            .rsplit_once('.')
            .is_some_and(|(stem, _)| stem.ends_with(".config") || stem.ends_with(".conf") || rc(stem));
    NAMES.contains(&name)
        || recipes::is_build_file(name)
        || crate::runner::is_config_name(name)
        || stem_config
        || name.starts_with(".babelrc")
        || name.ends_with(".pth")
}

/// Names runners pick up by listing a directory, not by opening them by name: a new one in a directory the
/// baseline searched changes the run. Narrower than [`config_name`]: a new lint configuration is honest.
fn runner_configuration(name: &str) -> bool {
    FILES
        .iter()
        .any(|files| files.listed.contains(&name) || files.listed_prefixes.iter().any(|p| name.starts_with(p)))
        || recipes::is_build_file(name)
        || crate::runner::is_config_name(name)
}

/// Configuration by name or shape: a config name, a dotfile, or a configuration file type.
fn configuration(name: &str) -> bool {
    const EXT: &[&str] = &[
        "ini",
        "cfg",
        "toml",
        "conf",
        "yaml",
        "yml",
        "json",
        "json5",
        "env",
        "properties",
    ];
    config_name(name) || name.starts_with('.') || name.rsplit_once('.').is_some_and(|(_, ext)| EXT.contains(&ext))
}

/// Dependency manifests and lockfiles: the derived closure seals the parts that decide what runs.
fn manifest(name: &str) -> bool {
    FILES.iter().any(|files| (files.manifest)(name))
}

/// Inside a place tools install packages: `node_modules`, `site-packages`, `dist-packages`.
pub(crate) fn in_tool_place(path: &Path) -> bool {
    path.components().any(|c| {
        matches!(
            c.as_os_str().to_str(),
            Some("node_modules" | "site-packages" | "dist-packages")
        )
    })
}

/// Inside a cache or build output by its conventional name: an ecosystem's (`runner::CACHE_DIRS`) or `.cache`.
fn in_cache(path: &Path) -> bool {
    path.components().any(|c| {
        c.as_os_str()
            .to_str()
            .is_some_and(|name| name == ".cache" || crate::runner::is_cache_dir(name))
    })
}

#[cfg(test)]
mod tests;
