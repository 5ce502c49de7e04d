//! pytest, tox and unittest: the configuration files pytest's own search would find.
//!
//! pytest looks for its configuration from the *common ancestor of the paths on its command line* (the
//! invocation directory when there are none) upward to `/`, and takes the first of `pytest.toml`, `.pytest.toml`
//! (pytest 9), `pytest.ini`, `.pytest.ini`, a `pyproject.toml` with `[tool.pytest…]`, a `tox.ini` with `[pytest]`
//! or a `setup.cfg` with `[tool:pytest]` in each directory. Every one of those files in every one of those
//! directories, above the project too, is sealed with one scope: the configuration pytest *resolves* from them,
//! key by key, whatever file holds it (`closure::rootdir`, `rootdir.rs`), so the same configuration moved to the
//! file pytest prefers moves nothing, while a `pytest.ini` created in a parent directory (a new rootdir) or a
//! weaker key in whichever file pytest now reads counts. `-c FILE` / `--config-file FILE` replaces the search.

use std::path::{Path, PathBuf};

#[path = "conftest.rs"]
mod conftest;
#[path = "options.rs"]
pub(crate) mod options;

use super::{Deriver, Lang, Runner, Scripts, Simple, Why, normalize};

/// The environment variable pytest reads more command-line options from, and its free options (`options.rs`):
/// a file the verify's script sources that appends to it is judged option by option there (`closure::shell`).
pub(crate) const OPTIONS_VARIABLE: crate::closure::shell::OptionsVariable = ("PYTEST_ADDOPTS", options::free);
use crate::closure::parts::{Read, Scope};
use crate::closure::rootdir;

/// Python's scripts (`derive::SCRIPTS`): `python3 tool.py` runs `tool.py`.
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["py"],
    runs_first_word: |name| name.starts_with("python"),
};

/// pytest options whose value is the next word (so it is not a path to collect).
pub(crate) const VALUE_OPTIONS: &[&str] = &[
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
        // Whether the command names what pytest collects: `testpaths` is then not what it collects.
        let mut named_paths = false;
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
                named_paths = true;
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
        // Every file pytest's search may read is sealed with one scope: the configuration it resolves, key by key
        // (`closure::rootdir`), so moving it between them moves nothing.
        let mut names = vec![self.local(&start).to_string_lossy().into_owned()];
        if self.plan.runners.contains(&Runner::PytestDoctestModules) {
            names.push(rootdir::DOCTEST_MODULES.to_string());
        }
        if named_paths {
            names.push(rootdir::NAMED_PATHS.to_string());
        }
        for dir in start.ancestors() {
            for name in rootdir::SEARCHED {
                if dir.join(name).is_file() {
                    names.push(format!("{}{}", rootdir::EXISTED, self.local(&dir.join(name)).display()));
                }
            }
        }
        let resolved = Read::by(&rootdir::READING, names);
        for dir in start.ancestors() {
            let local = self.local(dir);
            for name in rootdir::SEARCHED {
                self.add(local.join(name), resolved.clone(), why.clone());
            }
            // Inside the project the `conftest.py` watch covers these; above it, only these could be loaded.
            if !dir.starts_with(&project) {
                for name in Runner::Pytest.row().config.every_dir {
                    self.whole(local.join(name), why.clone());
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
