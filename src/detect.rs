//! `--verify auto`: pick the project's own test command from the files at its root, say why, and refuse
//! clearly when nothing fits. The result is sealed like a typed `--verify` command; nothing downstream knows.
//!
//! Order, first match wins (the others are listed as "also found"; between the first and the last, the
//! ecosystems' rules in their ranks' order, `detect:RANK` on their lines of `src/ecosystem/ECOSYSTEMS`, Ruby's and
//! PHP's among them after bats'):
//! 1. a `test` recipe in a justfile, then a `test` target in a Makefile — the project's declared entry point,
//!    which often wraps the language tool with setup of its own;
//! 2. `Cargo.toml` → `cargo test` (`--workspace` for a workspace; `cargo nextest run` when
//!    `.config/nextest.toml` configures nextest and `cargo-nextest` is installed);
//! 3. `go.mod` → `go test ./...`;
//! 4. `package.json` with a real `scripts.test` (not npm's "no test specified" stub) → the package manager its
//!    lockfile names (`pnpm-lock.yaml`, `yarn.lock`, `bun.lock(b)`, else the `packageManager` field, else npm);
//! 5. pytest: `pytest.ini`, `[tool.pytest…]` in `pyproject.toml`, `[tool:pytest]` in `setup.cfg`, `[pytest]` in
//!    `tox.ini`, `conftest.py`, test files under `tests/` or `test/`, or any `pyproject.toml` → `python -m
//!    pytest` with the project's virtualenv, `uv run` or `poetry run` when their lockfile is there;
//! 6. bats: `test/` or `tests/` holding `*.bats` files → `bats DIR`;
//! 7. CMake: a root `CMakeLists.txt` that turns testing on (`enable_testing()` or `include(CTest)`) → configure,
//!    build and run ctest in `build/` (`cpp::CMAKE`; the room's tree does not copy a build directory, so the
//!    command builds its own);
//! 8. Maven: a root `pom.xml` → `mvn test` (`./mvnw test` with the project's Maven wrapper; `ecosystem/jvm`);
//! 9. a `check` recipe or target (justfile, then Makefile).
//!
//! Invariant: reads only the project root (and `tests/` / `test/` one level down) and `PATH`; never runs anything.

use std::path::Path;

use crate::recipes::{TASKS, Tasks};

/// The `--verify` value that asks for detection.
pub(crate) const AUTO: &str = "auto";

/// The chosen command and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Detected {
    pub(crate) command: String,
    /// Why, as facts about the project (rendered in either language by `messages::detect_reason`).
    pub(crate) why: Vec<Fact>,
    /// The commands the other matching rules would have chosen.
    pub(crate) also: Vec<String>,
}

/// One fact behind a choice: the ones of the rules every project shares, and an ecosystem's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// A justfile (`file`) has this recipe.
    Recipe { file: &'static str, target: &'static str },
    /// A Makefile (`file`) has this target.
    Target { file: &'static str, target: &'static str },
    /// A fact of one ecosystem's rule, of the type its folder's `detect.rs` declares (`Found`) and worded by its
    /// folder's `messages.rs` (`messages::FACT_WORDS`), so that this enum names no ecosystem.
    Own(Own),
    /// The chosen program is not on `PATH` here (the verify will fail until it is).
    NotOnPath { program: String },
}

impl Fact {
    /// An ecosystem's own fact.
    pub(crate) fn own(found: impl OwnFact) -> Fact {
        Fact::Own(Own(std::sync::Arc::new(found)))
    }
}

/// An ecosystem's own fact ([`Fact::Own`]): a value of its folder's type, compared with values of the same type
/// and read back by that type alone ([`Own::get`]). Never persisted: a choice's facts are worded once, at setup.
#[derive(Clone)]
pub(crate) struct Own(std::sync::Arc<dyn OwnFact>);

/// What an ecosystem's fact type is: any `Debug + PartialEq` value (its folder's `Found` enum).
pub(crate) trait OwnFact: std::any::Any + std::fmt::Debug + Send + Sync {
    /// Whether `other` is of this type and equal to `self`.
    fn same(&self, other: &dyn OwnFact) -> bool;
}

impl<T: std::any::Any + std::fmt::Debug + PartialEq + Send + Sync> OwnFact for T {
    fn same(&self, other: &dyn OwnFact) -> bool {
        (other as &dyn std::any::Any).downcast_ref::<T>() == Some(self)
    }
}

impl Own {
    /// The fact, if it is of type `T` (the asking folder's own).
    pub(crate) fn get<T: std::any::Any>(&self) -> Option<&T> {
        (&*self.0 as &dyn std::any::Any).downcast_ref::<T>()
    }
}

impl PartialEq for Own {
    fn eq(&self, other: &Own) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Eq for Own {}

impl std::fmt::Debug for Own {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

include!(concat!(env!("OUT_DIR"), "/ecosystem/detect.rs"));

/// Every ecosystem's rule, in the order they are tried (after a `test` recipe or target, before a `check` one):
/// their ranks' (`detect:RANK` on each folder's line of `src/ecosystem/ECOSYSTEMS`; `build/ranked.rs`, `RANKED`).
const DETECTORS: &[Detector] = &ranked_detect!(DETECTOR);

/// One ecosystem's `--verify auto`, in its folder (`src/ecosystem/<name>/detect.rs`).
struct Detector {
    /// What it looks for, as the refusal lists it when no rule fits (`go.mod`, `or a Maven pom.xml`).
    looks_for: &'static str,
    /// The command it picks in the project [`Probe`] reads, and why.
    detect: fn(&Probe) -> Option<Candidate>,
}

/// What a rule may read: the project root, a root file's text, and whether a program is installed.
struct Probe<'p> {
    root: &'p Path,
    read: &'p dyn Fn(&str) -> Option<String>,
    installed: &'p dyn Fn(&str) -> bool,
}

/// A candidate: the command and the facts behind it.
type Candidate = (String, Vec<Fact>);

/// Detects the test command of the project at `root`, looking programs up on `PATH`.
pub(crate) fn detect(root: &Path) -> Result<Detected, String> {
    detect_with(root, &on_path)
}

/// [`detect`] with `installed` deciding whether a program is available (for tests).
pub(crate) fn detect_with(root: &Path, installed: &dyn Fn(&str) -> bool) -> Result<Detected, String> {
    let read = |name: &str| std::fs::read_to_string(root.join(name)).ok();
    // The first file of each kind that names commands, as its program finds it.
    let declared: Vec<(&Tasks, &'static str, String)> = TASKS
        .iter()
        .filter_map(|tasks| {
            tasks
                .files
                .iter()
                .find_map(|file| read(file).map(|text| (tasks, *file, text)))
        })
        .collect();
    let runner = |target: &'static str| -> Option<Candidate> {
        let (tasks, file, _) = declared
            .iter()
            .find(|(tasks, _, text)| (tasks.names)(text).iter().any(|name| name == target))?;
        let fact = if tasks.recipes {
            Fact::Recipe { file, target }
        } else {
            Fact::Target { file, target }
        };
        Some((format!("{} {target}", tasks.program), vec![fact]))
    };
    let probe = Probe {
        root,
        read: &read,
        installed,
    };
    let candidates: Vec<Candidate> = std::iter::once(runner("test"))
        .chain(DETECTORS.iter().map(|d| (d.detect)(&probe)))
        .chain([runner("check")])
        .flatten()
        .collect();
    let mut found = candidates.into_iter();
    let Some((command, mut why)) = found.next() else {
        return Err(format!(
            "`--verify auto` found no test command in `{}`: no {} with a `test` or `check` target, {}; pass the command with `--verify 'CMD'`",
            root.display(),
            TASKS.iter().map(|tasks| tasks.shown).collect::<Vec<_>>().join(" or "),
            DETECTORS.iter().map(|d| d.looks_for).collect::<Vec<_>>().join(", ")
        ));
    };
    let program = command.split_whitespace().next().unwrap_or_default();
    if !program.contains('/') && !installed(program) {
        why.push(Fact::NotOnPath {
            program: program.to_string(),
        });
    }
    Ok(Detected {
        command,
        why,
        also: found.map(|(command, _)| command).collect(),
    })
}

/// Whether `program` is an executable file in a `PATH` directory.
pub(crate) fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(program)).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

#[cfg(test)]
mod tests;
