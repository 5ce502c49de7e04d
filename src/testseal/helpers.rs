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

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::testsig::{FileSig, Lang, Unit, UnitKind};

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
    let read = |name: &str| std::fs::read_to_string(root.join(name)).ok();
    let toml_name = |name: &str, table: &str| {
        read(name)?
            .parse::<toml::Table>()
            .ok()?
            .get(table)?
            .get("name")?
            .as_str()
            .map(str::to_string)
    };
    let package_json = || {
        let doc: serde_json::Value = serde_json::from_str(&read("package.json")?).ok()?;
        doc.get("name")?
            .as_str()
            .map(|n| n.rsplit('/').next().unwrap_or(n).to_string())
    };
    let go = || go_module(root).map(|m| m.rsplit('/').next().unwrap_or(&m).to_string());
    let name = toml_name("pyproject.toml", "project")
        .or_else(package_json)
        .or_else(|| toml_name("Cargo.toml", "package"))
        .or_else(go)?;
    Some(name.to_lowercase().chars().filter(|c| *c != '_' && *c != '-').collect())
}

/// The helper files (project-relative, with their language) that the test files `tests` import.
pub(crate) fn imported_helpers<'a>(
    root: &Path,
    tests: impl IntoIterator<Item = (&'a String, &'a FileSig)>,
) -> Vec<(String, Lang)> {
    let go_module = go_module(root);
    let project = project_name(root);
    let mut found: BTreeSet<String> = BTreeSet::new();
    for (path, sig) in tests {
        let dir = Path::new(path).parent().unwrap_or(Path::new("")).to_path_buf();
        let mut imports = Vec::new();
        collect_imports(&sig.units, &mut imports);
        for unit in imports {
            let files = match sig.lang {
                Lang::Python => python(root, &dir, unit),
                Lang::JavaScript => js(root, &dir, &unit.name),
                // A Go import unit holds every path of the block, quoted, as its names.
                Lang::Go => unit
                    .names
                    .iter()
                    .filter_map(|line| line.split('"').nth(1))
                    .flat_map(|path| go(root, go_module.as_deref(), path))
                    .collect(),
                Lang::Rust => Vec::new(),
                // What a bats test loads outside the test side (`load ../lib/calc.sh`) is the code under test.
                Lang::Shell => Vec::new(),
                // What a C++ test includes from outside the test side is the code under test (`calc.h`).
                Lang::Cpp => Vec::new(),
                // What a Ruby test requires from outside `test/` and `spec/` is the code under test (`lib/`).
                Lang::Ruby => Vec::new(),
                // What a PHPUnit test requires or autoloads outside the test side is the code under test.
                Lang::Php => Vec::new(),
                // What a Java test imports from outside the test side is the code under test.
                Lang::Java => Vec::new(),
            };
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

/// `a.b` (and `a.b.NAME` for each imported name, which may be a submodule) as files.
fn python(root: &Path, dir: &Path, unit: &Unit) -> Vec<PathBuf> {
    let module = unit.name.as_str();
    let dots = module.chars().take_while(|c| *c == '.').count();
    let bases: Vec<PathBuf> = if dots > 0 {
        let mut base = dir.to_path_buf();
        for _ in 1..dots {
            base.pop();
        }
        vec![base]
    } else {
        vec![PathBuf::new(), PathBuf::from("src"), dir.to_path_buf()]
    };
    let module = &module[dots..];
    let mut modules = vec![module.to_string()];
    modules.extend(unit.names.iter().map(|n| {
        if module.is_empty() {
            n.clone()
        } else {
            format!("{module}.{n}")
        }
    }));
    let mut out = Vec::new();
    for base in &bases {
        for module in &modules {
            if module.is_empty() {
                continue;
            }
            let rel = base.join(module.replace('.', "/"));
            for file in [rel.with_extension("py"), rel.join("__init__.py")] {
                if root.join(&file).is_file() {
                    out.push(normalize(&file));
                }
            }
        }
    }
    out
}

fn js(root: &Path, dir: &Path, specifier: &str) -> Vec<PathBuf> {
    if !specifier.starts_with('.') {
        return Vec::new();
    }
    let base = normalize(&dir.join(specifier));
    let exts = ["js", "ts", "mjs", "cjs", "jsx", "tsx", "mts", "cts"];
    let mut tries = vec![base.clone()];
    tries.extend(exts.iter().map(|e| PathBuf::from(format!("{}.{e}", base.display()))));
    tries.extend(exts.iter().map(|e| base.join(format!("index.{e}"))));
    tries
        .into_iter()
        .filter(|p| !p.starts_with("..") && root.join(p).is_file())
        .take(1)
        .collect()
}

fn go(root: &Path, module: Option<&str>, import: &str) -> Vec<PathBuf> {
    let Some(module) = module else { return Vec::new() };
    let Some(dir) = import.strip_prefix(module).map(|d| d.trim_start_matches('/')) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".go") && !name.ends_with("_test.go"))
        .map(|name| Path::new(dir).join(name))
        .collect();
    files.sort();
    files
}

/// The module path `go.mod` declares.
fn go_module(root: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("go.mod")).ok()?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("module "))
        .map(|m| m.trim().trim_matches('"').to_string())
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
