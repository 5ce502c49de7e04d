//! Test helpers outside the test directories: files the existing tests import that exist for the tests' sake.
//! They decide what the tests check (a shared `assert_close`, a fake clock), so they are sealed like tests.
//!
//! The code under test is imported by the tests too and must stay the agent's, so the line is drawn by the
//! helper's **own path**: an imported file is a helper when a component of its project-relative path (a
//! directory or the file's stem), lower-cased with `_` and `-` removed, starts with `test` (`testutil/`,
//! `testing.py`, `test_support/`, `testhelpers.js`) or is `fixtures`, `mocks`, `fakes` or `stubs`. So
//! `src/calc.py` imported by `tests/test_calc.py` is code under test, and `src/testutil/asserts.py` imported by
//! it is a helper. A component that is the project's own name (the `name` of `pyproject.toml`'s `[project]`,
//! `package.json` or `Cargo.toml`'s `[package]`, the last segment of `go.mod`'s module path, with `-` and `_`
//! ignored) never makes a helper: a project called `testinfra` is code under test throughout. A module the
//! project ships for its users' tests (`mypkg/testing.py`) reads as a helper; the user can accept a change to
//! it (`loopgate allow`). Imports are resolved as the runners would: Python modules from the project root, `src/` and
//! the test's directory (`from .x import` from the test's package); JavaScript relative specifiers with the
//! usual extensions and `index` files; Go import paths under the module path of `go.mod` (every non-test
//! file of the package). Helpers are found from the existing tests at setup; a new helper is the agent's.

include!(concat!(env!("OUT_DIR"), "/ecosystem/testseal/helpers.rs"));

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::testsig::{FileSig, Lang, Unit, UnitKind};

/// What finds a language's helpers, in its folder's `helpers.rs`.
struct Helpers {
    lang: Lang,
    /// The project's own name, from the ecosystem's manifest at `root` (`pyproject.toml`'s `[project]`).
    project_name: fn(root: &Path) -> Option<String>,
    /// The project-relative files an import `unit` of a test file in `dir` loads, resolved as its runner would.
    files: fn(root: &Path, dir: &Path, unit: &Unit) -> Vec<PathBuf>,
}

/// The languages whose tests' imports are followed (each registered folder with a `helpers.rs`, in the
/// registration's order); the project's name is the first row's that finds one. Another language's imports from outside the test side are the code under test: what a bats test
/// loads (`load ../lib/calc.sh`), a C++ test includes (`calc.h`), a Ruby test requires from outside `test/` and
/// `spec/` (`lib/`), a PHPUnit test requires or autoloads, a Java test imports.
const HELPERS: &[&Helpers] = &each_helpers!(&HELPERS);

/// Helper directory or stem names that do not start with `test`.
const HELPER_NAMES: &[&str] = &["fixtures", "mocks", "fakes", "stubs"];

/// Whether a project-relative path names a test helper by its own name (see the module doc); `project` is the
/// project's own name, normalized (see [`project_name`]).
pub(crate) fn is_helper_path(relative: &str, project: Option<&str>) -> bool {
    let path = Path::new(relative);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let dirs = path
        .parent()
        .into_iter()
        .flat_map(|p| p.iter().map(|c| c.to_string_lossy().into_owned()));
    dirs.chain(stem).any(|component| {
        let norm: String = component
            .to_lowercase()
            .chars()
            .filter(|c| *c != '_' && *c != '-')
            .collect();
        project != Some(norm.as_str()) && (norm.starts_with("test") || HELPER_NAMES.contains(&norm.as_str()))
    })
}

/// The project's own name, lower-cased without `-` and `_`: from `pyproject.toml`, `package.json`, `Cargo.toml`
/// or `go.mod` in the root, the first that names one.
pub(crate) fn project_name(root: &Path) -> Option<String> {
    let name = HELPERS.iter().find_map(|helpers| (helpers.project_name)(root))?;
    Some(name.to_lowercase().chars().filter(|c| *c != '_' && *c != '-').collect())
}

/// The `name` of `table` in the TOML file `file` at `root` (`[project]` of `pyproject.toml`).
fn toml_name(root: &Path, file: &str, table: &str) -> Option<String> {
    std::fs::read_to_string(root.join(file))
        .ok()?
        .parse::<toml::Table>()
        .ok()?
        .get(table)?
        .get("name")?
        .as_str()
        .map(str::to_string)
}

/// The helper files (project-relative, with their language) that the test files `tests` import.
pub(crate) fn imported_helpers<'a>(
    root: &Path,
    tests: impl IntoIterator<Item = (&'a String, &'a FileSig)>,
) -> Vec<(String, Lang)> {
    let project = project_name(root);
    let mut found: BTreeSet<String> = BTreeSet::new();
    for (path, sig) in tests {
        let dir = Path::new(path).parent().unwrap_or(Path::new("")).to_path_buf();
        let mut imports = Vec::new();
        collect_imports(&sig.units, &mut imports);
        let Some(helpers) = HELPERS.iter().find(|helpers| helpers.lang == sig.lang) else {
            continue;
        };
        for unit in imports {
            let files = (helpers.files)(root, &dir, unit);
            for file in files {
                let relative = file.to_string_lossy().replace('\\', "/");
                if is_helper_path(&relative, project.as_deref()) && !crate::testsig::is_test_file(&file) {
                    found.insert(relative);
                }
            }
        }
    }
    found
        .into_iter()
        .filter_map(|path| Some((path.clone(), Lang::of(Path::new(&path))?)))
        .collect()
}

fn collect_imports<'u>(units: &'u [Unit], out: &mut Vec<&'u Unit>) {
    for unit in units {
        if unit.kind == UnitKind::Import {
            out.push(unit);
        }
        collect_imports(&unit.children, out);
    }
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}
