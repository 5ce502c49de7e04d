//! Resolution compared with the baseline's (issue 29, item 3): where the test side found its modules.
//!
//! The observed closure seals what the traced baseline run read, and a new file where that run *searched* is a
//! shadow; both look at files. A redirect is seen in neither when it sends a lookup to a place the baseline
//! never searched: a path put first by a `.pth` an installer wrote, by the code under test's own `sys.path`
//! line, a package manager linking a dependency to a vendored copy, a replacement in a parent directory. So the
//! promise run is traced too, and what it loaded is named the way the runtime names it — a Python module by
//! its dotted name (`_pytest.python`, from the package directories above the file), a JavaScript file by its
//! package and its path inside it (`expect/build/index.js`, from the `node_modules` directory it sits in or the
//! nearest `package.json`), a Ruby file by the feature `require` names (`minitest/autorun.rb`, from the load
//! path directory it sits in), a PHP file by the path its `require` names (`PHPUnit/Autoload.php`, below the
//! include-path directory it sits in: the project's root, the run's `.`, or the system's `php`) — and compared
//! with what the baseline loaded under the same name.
//!
//! What is held to the baseline: the **test side**, the modules the baseline loaded from outside the project
//! or from a tool place inside it (`node_modules`, `site-packages`): the runner, its plugins, the assertion
//! libraries, the standard library. The code under test is the agent's: a module of the project that moves
//! (`calc.py` turned into a package) is free, and so is a module the baseline never loaded (a new dependency
//! of the code under test). A test-side module that now loads from another place with other content is a
//! [`Redirect`]; the same content from another place (a package manager hoisting an identical copy) is not. So
//! is a module the baseline never loaded in a package of the test side, loaded from the project's own code (not
//! an install in it): the agent's file inside the runner's package, which a runner can find on its own by a glob
//! over its load path (minitest's `minitest/*_plugin.rb`); named from the package's place at the baseline.
//! A new place outside the project that the run did not reach by searching up from the project (the user's
//! home, the system) is the user's machine, not the agent's move (see `observed`); the room keeps it as it was.

include!(concat!(env!("OUT_DIR"), "/ecosystem/closure/resolved.rs"));

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::observed::{in_tool_place, key_of, module_name, source_of_bytecode};

use crate::trace::{Access, Event};

/// A module the test side loaded at the baseline: its name, where from, and a digest of its content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loaded {
    /// `py:_pytest.python`, `js:expect/build/index.js`, `rb:minitest/autorun.rb`.
    pub name: String,
    /// Relative to the project root, or absolute.
    pub path: String,
    /// The first 16 hex digits of the file's SHA-256.
    pub digest: String,
}

/// A test-side module that this run loaded from another place, with other content, than the baseline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub name: String,
    /// Where the baseline loaded it from.
    pub was: String,
    /// Where this run loaded it from.
    pub now: String,
}

/// The test side of a traced baseline run (see the module docs); `pycache` is the run's
/// `PYTHONPYCACHEPREFIX`, where Python keeps bytecode away from the sources.
pub(crate) fn test_side(events: &[Event], root: &Path, pycache: Option<&Path>) -> Vec<Loaded> {
    let loopgate = crate::project::loopgate_home();
    let mut out: Vec<Loaded> = loaded(events, root, pycache)
        .into_iter()
        .filter(|(_, path)| !path.starts_with(&loopgate))
        .filter(|(_, path)| path.strip_prefix(root).map_or(true, in_tool_place))
        .filter_map(|(name, path)| {
            Some(Loaded {
                digest: digest(&path)?,
                path: key_of(root, &path),
                name,
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    out.dedup();
    out
}

/// What this traced run loaded from elsewhere than the baseline did (see the module docs).
pub(crate) fn redirects(baseline: &[Loaded], events: &[Event], root: &Path, pycache: Option<&Path>) -> Vec<Redirect> {
    let mut known: HashMap<&str, Vec<&Loaded>> = HashMap::new();
    for loaded in baseline {
        known.entry(loaded.name.as_str()).or_default().push(loaded);
    }
    // The first names the run touched in the project (`node_modules`, `lib`): the same name in a directory
    // above is where a search up from the project lands.
    let in_project: HashSet<PathBuf> = events
        .iter()
        .filter_map(|e| e.path.strip_prefix(root).ok()?.iter().next())
        .map(PathBuf::from)
        .collect();
    let ancestors: Vec<&Path> = root.ancestors().skip(1).collect();
    let agents = |path: &Path| {
        path.starts_with(root)
            || ancestors.iter().any(|above| {
                path.strip_prefix(above)
                    .ok()
                    .and_then(|relative| relative.iter().next())
                    .is_some_and(|first| in_project.contains(Path::new(first)))
            })
    };
    // The test side's packages: a module of one the baseline never loaded, loaded now from the agent's place, is
    // the agent's file inside the runner's package (a plugin a runner finds by a glob over its load path:
    // `lib/minitest/calm_plugin.rb`). Not JavaScript's: a file there is named by the package.json above it, so
    // the project's own files share a package only with a package named like the project.
    let packages: HashMap<&str, &Loaded> = baseline
        .iter()
        .filter(|b| !b.name.starts_with("js:"))
        .map(|b| (package(&b.name), b))
        .collect();
    let mut out = Vec::new();
    for (name, path) in loaded(events, root, pycache) {
        let now = key_of(root, &path);
        let Some(before) = known.get(name.as_str()) else {
            if let Some(of) = packages.get(package(&name))
                && agents(&path)
                && !path.strip_prefix(root).is_ok_and(installed)
            {
                out.push(Redirect {
                    name: name.clone(),
                    was: package_place(of),
                    now,
                });
            }
            continue;
        };
        if before.iter().any(|b| b.path == now) {
            continue;
        }
        let agents = agents(&path);
        let content = digest(&path);
        if agents && !before.iter().any(|b| Some(&b.digest) == content.as_ref()) {
            out.push(Redirect {
                name: name.clone(),
                was: before[0].path.clone(),
                now,
            });
        }
    }
    out
}

/// The package a module's name belongs to, its first component: `rb:minitest/autorun.rb` → `rb:minitest`,
/// `py:_pytest.python` → `py:_pytest`, `js:expect/build/index.js` → `js:expect`.
fn package(name: &str) -> &str {
    let Some((kind, rest)) = name.split_once(':') else {
        return name;
    };
    let end = rest.find(['/', '.']).unwrap_or(rest.len());
    &name[..kind.len() + 1 + end]
}

/// Where the baseline loaded `of`'s package from: its directory (`…/lib/minitest` for `rb:minitest/unit.rb`).
fn package_place(of: &Loaded) -> String {
    let (kind, rest) = of.name.split_once(':').unwrap_or(("", of.name.as_str()));
    let parts = if kind == "py" {
        rest.split('.').count()
    } else {
        rest.split('/').count()
    };
    Path::new(&of.path)
        .ancestors()
        .nth(parts.saturating_sub(1))
        .map_or_else(|| of.path.clone(), |dir| dir.to_string_lossy().into_owned())
}

/// Whether a project path lies in an installed package (a tool place, or a gem a bundle unpacked into the
/// project): an install of the package, judged by its content where the baseline loaded it, not the agent's file.
fn installed(relative: &Path) -> bool {
    in_tool_place(relative) || relative.components().any(|c| c.as_os_str() == "gems")
}

/// Every module a traced run loaded, by name; a name loaded from two places keeps both.
fn loaded(events: &[Event], root: &Path, pycache: Option<&Path>) -> Vec<(String, PathBuf)> {
    let mut names = Names {
        root: root.to_path_buf(),
        ..Names::default()
    };
    let mut seen: HashSet<&Path> = HashSet::new();
    let mut out = Vec::new();
    for event in events.iter().filter(|e| e.access == Access::Read) {
        if !seen.insert(&event.path) {
            continue;
        }
        let source = bytecode_source(&event.path, pycache);
        let path = source.unwrap_or_else(|| event.path.clone());
        if let Some(name) = names.of(&path) {
            out.push((name, path));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The source a bytecode file stands for: beside it (`pkg/__pycache__/mod.cpython-311.pyc`), or under the
/// run's `PYTHONPYCACHEPREFIX`, which mirrors the source's absolute directory.
fn bytecode_source(path: &Path, pycache: Option<&Path>) -> Option<PathBuf> {
    if let Some(source) = source_of_bytecode(path) {
        return Some(source);
    }
    let relative = path.strip_prefix(pycache?).ok()?;
    let name = path.file_name()?.to_str()?.strip_suffix(".pyc")?;
    let stem = name.split('.').next()?;
    let source = Path::new("/").join(relative.parent()?).join(format!("{stem}.py"));
    source.is_file().then_some(source)
}

/// Names modules by their files (each ecosystem as its runtime does, in its folder's `resolved.rs`),
/// remembering what each directory says (an `__init__.py`, a `package.json`).
#[derive(Default)]
struct Names {
    /// Whether a directory is a Python package.
    packages: HashMap<PathBuf, bool>,
    /// The package name a directory's `package.json` declares.
    manifests: HashMap<PathBuf, Option<String>>,
    /// The project's root, where the run stands: the `.` of PHP's include path.
    root: PathBuf,
}

impl Names {
    fn of(&mut self, path: &Path) -> Option<String> {
        let name = path.file_name()?.to_str()?;
        let ext = name.rsplit_once('.').map(|(_, ext)| ext)?;
        match ext {
            "py" | "so" => python::name(&mut self.packages, path, name),
            "js" | "mjs" | "cjs" | "json" | "node" => js::name(&mut self.manifests, path),
            "rb" => ruby::name(path),
            // The rest by the ecosystems that know their own extensions.
            _ => php::name(path, &self.root),
        }
    }
}

fn digest(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut hex = crate::fsutil::sha256_hex(file).ok()?;
    hex.truncate(16);
    Some(hex)
}

/// The run's `PYTHONPYCACHEPREFIX`, from its environment (the room's, or the process's own).
pub(crate) fn pycache_prefix(env: Option<&[(std::ffi::OsString, std::ffi::OsString)]>) -> Option<PathBuf> {
    let value = match env {
        Some(env) => env
            .iter()
            .find(|(k, _)| k == "PYTHONPYCACHEPREFIX")
            .map(|(_, v)| v.clone()),
        None => std::env::var_os("PYTHONPYCACHEPREFIX"),
    };
    value.filter(|v| !v.is_empty()).map(PathBuf::from)
}

#[cfg(test)]
mod tests;
