//! `--verify auto` for Python: pytest, with the project's virtualenv, `uv run` or `poetry run` where it has one.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "or pytest setup (pytest.ini, pyproject.toml, tests/)",
    detect: |probe| python(probe.root, probe.read, probe.installed),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::python`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// `pytest.ini`, or a pytest section in `pyproject.toml`, `setup.cfg` or `tox.ini`.
    PytestConfig { file: &'static str },
    /// A root `conftest.py`.
    Conftest,
    /// `dir/` holds Python test files.
    TestFiles { dir: &'static str },
    /// A root `pyproject.toml`.
    Pyproject,
    /// The project's virtualenv's interpreter is used.
    Virtualenv { python: &'static str },
    /// `uv.lock` / `poetry.lock` and the tool is installed.
    Runner { lock: &'static str, tool: &'static str },
    /// `python` is not on `PATH`: `python3` is used.
    Python3,
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
        Found::PytestConfig { file }
    } else if let Some(file) = configured {
        Found::PytestConfig { file }
    } else if root.join("conftest.py").is_file() {
        Found::Conftest
    } else if let Some(dir) = ["tests", "test"]
        .into_iter()
        .find(|dir| has_python_tests(&root.join(dir)))
    {
        Found::TestFiles { dir }
    } else if root.join("pyproject.toml").is_file() {
        Found::Pyproject
    } else {
        return None;
    };
    let venv = [".venv/bin/python", "venv/bin/python"]
        .into_iter()
        .find(|p| root.join(p).is_file());
    let (command, how) = if let Some(python) = venv {
        (format!("{python} -m pytest"), Some(Found::Virtualenv { python }))
    } else if root.join("uv.lock").is_file() && installed("uv") {
        (
            "uv run pytest".to_string(),
            Some(Found::Runner {
                lock: "uv.lock",
                tool: "uv",
            }),
        )
    } else if root.join("poetry.lock").is_file() && installed("poetry") {
        (
            "poetry run pytest".to_string(),
            Some(Found::Runner {
                lock: "poetry.lock",
                tool: "poetry",
            }),
        )
    } else if installed("python") {
        ("python -m pytest".to_string(), None)
    } else {
        ("python3 -m pytest".to_string(), Some(Found::Python3))
    };
    Some((command, [why].into_iter().chain(how).map(Fact::own).collect()))
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
