//! pytest, tox and unittest: the configuration files pytest's own search would find.
//!
//! pytest looks for its configuration from the *common ancestor of the paths on its command line* (the
//! invocation directory when there are none) upward to `/`, and takes the first of `pytest.ini`,
//! `.pytest.ini`, `pytest.toml`, `.pytest.toml` (pytest 9), a `pyproject.toml` with `[tool.pytest…]`, a
//! `tox.ini` with `[pytest]` or a `setup.cfg` with `[tool:pytest]` in each directory. Which one wins depends on
//! which exist, so every candidate in every one of those directories is sealed — existing ones by their pytest
//! part, the others as absent — including directories above the project: a `pytest.ini` created in a parent
//! directory is found first when the project has none. `-c FILE` / `--config-file FILE` replaces the search.
//! Within pytest's section of a shared file (and `pytest.ini`'s `[pytest]`), key by key: [`FREE_KEYS`] are the
//! agent's, and `addopts` is judged option by option, its display options free (`options.rs`). `pytest.ini`
//! counts by existing, empty or not (pytest takes it first whatever it holds); `pytest.toml` is sealed whole.

use std::path::{Path, PathBuf};

#[path = "conftest.rs"]
mod conftest;
#[path = "options.rs"]
mod options;

use super::{Deriver, Lang, Runner, Scripts, Simple, Why, normalize};

/// The environment variable pytest reads more command-line options from, and its free options (`options.rs`):
/// a file the verify's script sources that appends to it is judged option by option there (`closure::shell`).
pub(crate) const OPTIONS_VARIABLE: crate::closure::shell::OptionsVariable = ("PYTEST_ADDOPTS", options::free);
use crate::closure::parts::{OptionsKey, PREAMBLE, Scope};
use crate::runner::Section;

/// Python's scripts (`derive::SCRIPTS`): `python3 tool.py` runs `tool.py`.
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["py"],
    runs_first_word: |name| name.starts_with("python"),
};

/// Keys of pytest's configuration that change neither which tests run nor how their outcomes count: the
/// markers it knows (registering one lets a new test use it under `--strict-markers`), the version it asks for,
/// and how it prints. Every other key (`addopts`, `testpaths`, `python_files`, `filterwarnings`, `xfail_strict`,
/// …), and a key this list does not know, is sealed: a section holding only these is still a section (it makes
/// the file pytest's configuration).
const FREE_KEYS: &[&str] = &[
    "markers",
    "minversion",
    "console_output_style",
    "log_cli",
    "log_cli_level",
    "log_cli_format",
    "log_cli_date_format",
];

/// pytest options whose value is the next word (so it is not a path to collect).
const VALUE_OPTIONS: &[&str] = &[
    "-k",
    "-m",
    "-p",
    "-o",
    "-W",
    "-n",
    "-r",
    "--deselect",
    "--ignore",
    "--ignore-glob",
    "--rootdir",
    "--confcutdir",
    "--basetemp",
    "--junitxml",
    "--junit-xml",
    "--maxfail",
    "--tb",
    "--durations",
    "--override-ini",
    "--cov",
    "--cov-report",
    "--import-mode",
    "--log-level",
    "--dist",
    "--numprocesses",
];

impl Deriver<'_> {
    /// `pytest ARGS…` run in `cwd`.
    pub(super) fn pytest(&mut self, args: &[String], cwd: &Path) {
        self.plan.ecosystems.insert(Lang::Python);
        self.plan.runners.insert(Runner::Pytest);
        let why = Why::Configures("pytest".into());
        let mut paths = Vec::new();
        let mut config_file = None;
        let mut i = 0;
        while let Some(word) = args.get(i) {
            i += 1;
            if let Some(file) = word
                .strip_prefix("--config-file=")
                .or_else(|| word.strip_prefix("-c").filter(|f| !f.is_empty()))
            {
                config_file = Some(file.to_string());
            } else if word == "-c" || word == "--config-file" {
                config_file = args.get(i).cloned();
                i += 1;
            } else if word == "--doctest-modules" {
                self.plan.runners.insert(Runner::PytestDoctestModules);
            } else if VALUE_OPTIONS.contains(&word.as_str()) {
                i += 1;
            } else if !word.starts_with('-') && !word.is_empty() {
                let path = word.split("::").next().unwrap_or(word);
                let path = normalize(&self.root.join(cwd).join(path));
                if path.exists() {
                    paths.push(path);
                }
            }
        }
        for name in Runner::Pytest.row().config.every_dir {
            self.watch(name, conftest::scope(), why.clone(), true);
        }
        if let Some(file) = config_file {
            self.whole(cwd.join(file), why);
            return;
        }
        let start = common_ancestor(&paths).unwrap_or_else(|| normalize(&self.root.join(cwd)));
        let project = normalize(self.root);
        for dir in start.ancestors() {
            let local = self.local(dir);
            let here = |name: &str| local.join(name);
            let pytest = Runner::Pytest.row().config;
            for name in pytest.files {
                // `pytest.ini` is its configuration as soon as it exists (its preamble a part), `[pytest]` key by key.
                if name.ends_with(".ini") {
                    self.add(here(name), ini_scope(&[PREAMBLE, "pytest"]), why.clone());
                } else {
                    self.whole(here(name), why.clone());
                }
            }
            for (file, section) in pytest.sections {
                let scope = match section {
                    Section::Toml(path) => toml_scope(path),
                    Section::Ini(name) => ini_scope(&[name]),
                };
                self.add(here(file), scope, why.clone());
            }
            // Inside the project the `conftest.py` watch covers these; above it, only these could be loaded.
            if !dir.starts_with(&project) {
                for name in pytest.every_dir {
                    self.whole(here(name), why.clone());
                }
            }
        }
    }

    /// pyenv's `.python-version` in the directory the interpreter starts in and every ancestor: judged by the
    /// interpreter in effect there (`Scope::Toolchain`, `toolchain.rs`), so a pin naming the baseline's moves
    /// nothing, and one naming another interpreter counts.
    fn python_version_pins(&mut self, cwd: &Path) {
        let start = normalize(&self.root.join(cwd));
        for dir in start.ancestors() {
            let path = self.local(&dir.join(".python-version"));
            let of = "pyenv".to_string();
            self.add(path, Scope::Toolchain { of }, Why::Configures("python".into()));
        }
    }

    pub(super) fn tox(&mut self, cwd: &Path) {
        let why = Why::Configures("tox".into());
        self.whole(cwd.join("tox.ini"), why.clone());
        let table = vec![vec!["tool".to_string(), "tox".to_string()]];
        self.add(cwd.join("pyproject.toml"), Scope::Toml(table), why.clone());
        self.add(cwd.join("setup.cfg"), Scope::Ini(vec!["tox:tox".into()]), why);
        self.pytest(&[], cwd);
    }

    /// `python [-X…] -m MODULE ARGS…` or `python SCRIPT ARGS…`.
    pub(super) fn python(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        self.plan.ecosystems.insert(Lang::Python);
        self.python_version_pins(cwd);
        let Some(i) = rest.iter().position(|w| w == "-m") else {
            // Django's `manage.py test` discovers tests as unittest does.
            if rest.first().is_some_and(|s| s.ends_with("manage.py")) && rest.get(1).is_some_and(|w| w == "test") {
                self.plan.runners.insert(Runner::Unittest);
            }
            return;
        };
        let args = rest.get(i + 2..).unwrap_or_default();
        match rest.get(i + 1).map(String::as_str) {
            Some("pytest") => self.pytest(args, cwd),
            Some("tox") => self.tox(cwd),
            Some("unittest") => {
                self.plan.runners.insert(Runner::Unittest);
            }
            Some("coverage") => self.coverage(args, cwd, depth),
            Some(_) => self.argv(&rest[i + 1..], cwd, depth + 1),
            None => {}
        }
    }

    /// `coverage run [-m MODULE | SCRIPT] ARGS…`: what it runs, as if Python ran it (a script is sealed as a
    /// named file).
    pub(super) fn coverage(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        self.whole(cwd.join(".coveragerc"), Why::Configures("coverage".into()));
        if rest.first().is_some_and(|w| w == "run") {
            self.python(&rest[1..], cwd, depth);
        }
    }
}

/// pytest's table of a TOML file (`path`: `tool.pytest`), key by key: [`FREE_KEYS`] free, `addopts` option by
/// option (`options.rs`), in the table itself (pytest 9) and in its `ini_options` (pytest 6 to 8).
fn toml_scope(path: &[&str]) -> Scope {
    let under = |key: &str| -> [Vec<String>; 2] {
        let native = path.iter().chain([&key]).map(ToString::to_string).collect();
        let ini = path
            .iter()
            .chain(&["ini_options", key])
            .map(ToString::to_string)
            .collect();
        [native, ini]
    };
    Scope::TomlBut {
        paths: vec![path.iter().map(ToString::to_string).collect()],
        free: FREE_KEYS.iter().flat_map(|key| under(key)).collect(),
        options: under(options::ADDOPTS)
            .into_iter()
            .map(|key| OptionsKey {
                key,
                free: options::free(),
            })
            .collect(),
    }
}

/// pytest's sections of an INI file, key by key: [`FREE_KEYS`] free, `addopts` option by option.
fn ini_scope(sections: &[&str]) -> Scope {
    Scope::IniBut {
        sections: sections.iter().map(ToString::to_string).collect(),
        free: FREE_KEYS.iter().map(ToString::to_string).collect(),
        options: vec![OptionsKey {
            key: vec![options::ADDOPTS.to_string()],
            free: options::free(),
        }],
    }
}

/// The deepest directory holding every path (a file counts as its directory); none without paths.
fn common_ancestor(paths: &[PathBuf]) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = paths
        .iter()
        .map(|p| {
            if p.is_dir() {
                p.clone()
            } else {
                p.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        })
        .collect();
    let first = dirs.first()?.clone();
    Some(
        first
            .ancestors()
            .find(|candidate| dirs.iter().all(|d| d.starts_with(candidate)))
            .map_or(first.clone(), Path::to_path_buf),
    )
}

/// The closure's rule for pytest, tox, nox, coverage and the Python interpreter (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "pytest" | "py.test" => d.pytest(cmd.rest, cmd.cwd),
        "tox" => d.tox(cmd.cwd),
        "nox" => {
            d.plan.ecosystems.insert(Lang::Python);
            d.whole(cmd.cwd.join("noxfile.py"), Why::Configures("nox".into()));
        }
        "coverage" => d.coverage(cmd.rest, cmd.cwd, cmd.depth),
        name if name.starts_with("python") => d.python(cmd.rest, cmd.cwd, cmd.depth),
        _ => return false,
    }
    true
}
