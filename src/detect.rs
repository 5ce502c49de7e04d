//! `--verify auto`: pick the project's own test command from the files at its root, say why, and refuse
//! clearly when nothing fits. The result is sealed like a typed `--verify` command; nothing downstream knows.
//!
//! Order, first match wins (the others are listed as "also found"):
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
//!    build and run ctest in `build/` ([`CMAKE`]; the room's tree does not copy a build directory, so the
//!    command builds its own);
//! 8. Maven: a root `pom.xml` → `mvn test` (`./mvnw test` with the project's Maven wrapper; `ecosystem/jvm`);
//! 9. a `check` recipe or target (justfile, then Makefile).
//!
//! Invariant: reads only the project root (and `tests/` / `test/` one level down) and `PATH`; never runs anything.

use std::path::Path;

use crate::recipes::{just_recipe_names, make_targets};

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

/// One fact behind a choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// A justfile (`file`) has this recipe.
    Recipe {
        file: &'static str,
        target: &'static str,
    },
    /// A Makefile (`file`) has this target.
    Target {
        file: &'static str,
        target: &'static str,
    },
    Cargo {
        workspace: bool,
    },
    /// `.config/nextest.toml` configures nextest; whether `cargo-nextest` is installed.
    Nextest {
        installed: bool,
    },
    GoMod,
    NodeScript,
    Lockfile {
        file: &'static str,
        manager: &'static str,
    },
    PackageManagerField {
        manager: &'static str,
    },
    NoLockfile,
    /// `pytest.ini`, or a pytest section in `pyproject.toml`, `setup.cfg` or `tox.ini`.
    PytestConfig {
        file: &'static str,
    },
    Conftest,
    TestFiles {
        dir: &'static str,
    },
    Pyproject,
    Virtualenv {
        python: &'static str,
    },
    /// `uv.lock` / `poetry.lock` and the tool is installed.
    Runner {
        lock: &'static str,
        tool: &'static str,
    },
    /// `python` is not on `PATH`: `python3` is used.
    Python3,
    /// `dir/` holds bats test files (`*.bats`).
    BatsFiles {
        dir: &'static str,
    },
    /// The root `CMakeLists.txt` turns testing on (`enable_testing()`, `include(CTest)`).
    CMakeTests,
    /// `dir/` holds Ruby test files `runner` runs (`spec/*_spec.rb`: rspec; `test/*_test.rb`: minitest).
    RubyTests {
        dir: &'static str,
        runner: &'static str,
    },
    /// `file` defines a rake test task (`Rake::TestTask`).
    RakeTestTask {
        file: &'static str,
    },
    /// PHPUnit's configuration file is at the root (`phpunit.xml`, …), or `tests/` holds `*Test.php` files
    /// (`file`: `None`); `composer`: Composer installed PHPUnit (`vendor/bin/phpunit`).
    Phpunit {
        file: Option<&'static str>,
        composer: bool,
    },
    /// A root `pom.xml` makes it a Maven project; `wrapper`: it has a Maven wrapper (`mvnw`).
    MavenPom {
        wrapper: bool,
    },
    /// The chosen program is not on `PATH` here (the verify will fail until it is).
    NotOnPath {
        program: String,
    },
}

/// bats, where `test/` or `tests/` holds `*.bats` files: `bats DIR` runs every one of them.
fn bats(root: &Path) -> Option<Candidate> {
    ["test", "tests"].into_iter().find_map(|dir| {
        let entries = std::fs::read_dir(root.join(dir)).ok()?;
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".bats"))
            .then(|| (format!("bats {dir}"), vec![Fact::BatsFiles { dir }]))
    })
}

/// The command for a CMake project with tests: configure, build, and ctest with the failing tests' output (what
/// the summary reads). ctest's `--test-dir` needs CMake 3.20.
const CMAKE: &str = "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure";

/// CMake, where the root `CMakeLists.txt` turns testing on.
fn cmake(text: Option<String>) -> Option<Candidate> {
    let text = text?.to_ascii_lowercase().replace([' ', '\t'], "");
    (text.contains("enable_testing(") || text.contains("include(ctest)"))
        .then(|| (CMAKE.to_string(), vec![Fact::CMakeTests]))
}

#[path = "ecosystem/jvm/detect.rs"]
mod jvm;
#[path = "ecosystem/ruby/detect.rs"]
mod ruby;

/// PHPUnit, where its configuration file is at the root (`phpunit` reads it) or `tests/` holds `*Test.php`
/// files (`phpunit tests`): Composer's `vendor/bin/phpunit` where it installed one, else `phpunit` from `PATH`.
fn phpunit(root: &Path) -> Option<Candidate> {
    let row = crate::runner::Runner::Phpunit.row();
    let file = row.config.files.iter().copied().find(|f| root.join(f).is_file());
    let tests = file.is_none()
        && std::fs::read_dir(root.join("tests"))
            .ok()?
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with("Test.php"));
    if file.is_none() && !tests {
        return None;
    }
    let composer = root.join("vendor/bin/phpunit").is_file();
    let program = if composer { "vendor/bin/phpunit" } else { "phpunit" };
    let command = if tests {
        format!("{program} tests")
    } else {
        program.to_string()
    };
    Some((command, vec![Fact::Phpunit { file, composer }]))
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
    let justfile = crate::recipes::JUSTFILES
        .into_iter()
        .find_map(|n| read(n).map(|t| (n, t)));
    let makefile = crate::recipes::MAKEFILES
        .into_iter()
        .find_map(|n| read(n).map(|t| (n, t)));
    let runner = |target: &'static str| -> Option<Candidate> {
        if let Some((file, text)) = &justfile
            && just_recipe_names(text).iter().any(|r| r == target)
        {
            return Some((format!("just {target}"), vec![Fact::Recipe { file, target }]));
        }
        let (file, text) = makefile.as_ref()?;
        make_targets(text)
            .iter()
            .any(|t| t == target)
            .then(|| (format!("make {target}"), vec![Fact::Target { file, target }]))
    };
    let candidates: Vec<Candidate> = [
        runner("test"),
        cargo(root, read("Cargo.toml"), installed),
        read("go.mod").map(|_| ("go test ./...".into(), vec![Fact::GoMod])),
        node(root, read("package.json")),
        python(root, &read, installed),
        bats(root),
        ruby::ruby(root),
        phpunit(root),
        cmake(read("CMakeLists.txt")),
        jvm::maven(root),
        runner("check"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut found = candidates.into_iter();
    let Some((command, mut why)) = found.next() else {
        return Err(format!(
            "`--verify auto` found no test command in `{}`: no justfile or Makefile with a `test` or `check` target, Cargo.toml, go.mod, package.json with a `test` script, or pytest setup (pytest.ini, pyproject.toml, tests/), or bats tests (test/*.bats), or Ruby tests (spec/*_spec.rb, test/*_test.rb), or PHPUnit (phpunit.xml, tests/*Test.php), or a CMakeLists.txt with enable_testing(), or a Maven pom.xml; pass the command with `--verify 'CMD'`",
            root.display()
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

fn cargo(root: &Path, manifest: Option<String>, installed: &dyn Fn(&str) -> bool) -> Option<Candidate> {
    let manifest = manifest?;
    let workspace = manifest.lines().any(|l| l.trim() == "[workspace]");
    let scope = if workspace { " --workspace" } else { "" };
    let mut why = vec![Fact::Cargo { workspace }];
    if crate::runner::Runner::Nextest
        .row()
        .config
        .files
        .iter()
        .any(|file| root.join(file).is_file())
    {
        let nextest = installed("cargo-nextest");
        why.push(Fact::Nextest { installed: nextest });
        if nextest {
            return Some((format!("cargo nextest run{scope}"), why));
        }
    }
    Some((format!("cargo test{scope}"), why))
}

fn node(root: &Path, manifest: Option<String>) -> Option<Candidate> {
    let json: serde_json::Value = serde_json::from_str(&manifest?).ok()?;
    let script = json.get("scripts")?.get("test")?.as_str()?;
    // `npm init` writes a test script that only fails: it is no test command.
    if script.trim().is_empty() || script.contains("no test specified") {
        return None;
    }
    let locks = [
        ("pnpm-lock.yaml", "pnpm"),
        ("yarn.lock", "yarn"),
        ("bun.lock", "bun"),
        ("bun.lockb", "bun"),
        ("package-lock.json", "npm"),
        ("npm-shrinkwrap.json", "npm"),
    ];
    let (manager, fact) = match locks.into_iter().find(|(file, _)| root.join(file).is_file()) {
        Some((file, manager)) => (manager, Fact::Lockfile { file, manager }),
        None => match json.get("packageManager").and_then(|v| v.as_str()) {
            Some(spec) => {
                let name = spec.split('@').next().unwrap_or("npm");
                let manager = ["pnpm", "yarn", "bun"]
                    .into_iter()
                    .find(|m| *m == name)
                    .unwrap_or("npm");
                (manager, Fact::PackageManagerField { manager })
            }
            None => ("npm", Fact::NoLockfile),
        },
    };
    // `bun test` is bun's own test runner; `bun run test` runs the script like the others.
    let command = if manager == "bun" {
        "bun run test".to_string()
    } else {
        format!("{manager} test")
    };
    Some((command, vec![Fact::NodeScript, fact]))
}

fn python(root: &Path, read: &dyn Fn(&str) -> Option<String>, installed: &dyn Fn(&str) -> bool) -> Option<Candidate> {
    let pytest = crate::runner::Runner::Pytest.row().config;
    let section =
        |file: &str, header: &str| read(file).is_some_and(|t| t.lines().any(|l| l.trim().starts_with(header)));
    let configured = pytest
        .sections
        .iter()
        .find(|(file, part)| section(file, &part.header()))
        .map(|(file, _)| *file);
    let why = if let Some(file) = pytest.files.iter().find(|file| root.join(file).is_file()) {
        Fact::PytestConfig { file }
    } else if let Some(file) = configured {
        Fact::PytestConfig { file }
    } else if root.join("conftest.py").is_file() {
        Fact::Conftest
    } else if let Some(dir) = ["tests", "test"]
        .into_iter()
        .find(|dir| has_python_tests(&root.join(dir)))
    {
        Fact::TestFiles { dir }
    } else if root.join("pyproject.toml").is_file() {
        Fact::Pyproject
    } else {
        return None;
    };
    let venv = [".venv/bin/python", "venv/bin/python"]
        .into_iter()
        .find(|p| root.join(p).is_file());
    let (command, how) = if let Some(python) = venv {
        (format!("{python} -m pytest"), Some(Fact::Virtualenv { python }))
    } else if root.join("uv.lock").is_file() && installed("uv") {
        (
            "uv run pytest".to_string(),
            Some(Fact::Runner {
                lock: "uv.lock",
                tool: "uv",
            }),
        )
    } else if root.join("poetry.lock").is_file() && installed("poetry") {
        (
            "poetry run pytest".to_string(),
            Some(Fact::Runner {
                lock: "poetry.lock",
                tool: "poetry",
            }),
        )
    } else if installed("python") {
        ("python -m pytest".to_string(), None)
    } else {
        ("python3 -m pytest".to_string(), Some(Fact::Python3))
    };
    Some((command, [why].into_iter().chain(how).collect()))
}

/// Whether `dir` holds `test_*.py` or `*_test.py` files (directly or one level down).
fn has_python_tests(dir: &Path) -> bool {
    let is_test = |name: &str| name.ends_with(".py") && (name.starts_with("test_") || name.ends_with("_test.py"));
    let mut found = false;
    let _ = crate::walk::Walker::skipping(&[]).max_depth(2).walk(dir, |entry| {
        found = is_test(&entry.name.to_string_lossy());
        Ok(crate::walk::until(found))
    });
    found
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
