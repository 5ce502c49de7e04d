//! The test runners loopgate knows: one [`Runner`] type and one table, a [`Row`] per runner, each in its
//! ecosystem's folder (`src/ecosystem/rust/runner.rs`: cargo test, nextest; `python/runner.rs`: pytest, unittest;
//! `js/runner.rs`: `node --test`, Jest, Vitest, Mocha; `go/runner.rs`: go test; `shell/runner.rs`: bats; `ruby/runner.rs`: minitest, RSpec; `php/runner.rs`: PHPUnit; `cpp/runner.rs`: ctest, GoogleTest; `jvm/runner.rs`: Maven Surefire, the JUnit console launcher), declared here by `build.rs` from the
//! registration (`src/ecosystem/ECOSYSTEMS`) so they stay `runner::rust`, … in this leaf's layer. A row holds what is *declared* about the runner — the files it reads its
//! configuration from and how they are found, which files are its tests, and whether it can write a structured
//! report through a channel only loopgate knows — and every module that needs one of those facts asks the
//! table: the closure (`closure::derive`, which seals the configuration), the inventory (`testseal::rules`,
//! which reads the test-file rules), `--verify auto` (`detect`), the summary (`readout`, whose output readers
//! are keyed by this type), the oracle's room (`room`, which asks pytest's row for its report) and `status`
//! (which says, in one line per runner, when the verdict has no report to read beside the output).
//!
//! A leaf: it imports nothing of the crate, so the leaves above (`detect`) may ask it too. What is *read from
//! a run's output* (markers, failures, counts, test names) needs the summary's line helpers and stays in
//! `readout::runner` (`src/ecosystem/<name>/readout.rs`), keyed by the same [`Runner`].
//!
//! The ids are persisted (the seal's closure records the runners the verify command runs): a row's [`Row::id`]
//! is never changed.

/// Declares an ecosystem's runners at the end of its `runner.rs`: its `Runners`, which [`ECOSYSTEMS`] registers,
/// listing them in the table's order, and a [`Runner`] constant per row, spelled as the variant it was when the
/// table was an enum (`Runner::Pytest`), so that every caller reads as before.
macro_rules! runners {
    ($($runner:ident = $row:ident),+ $(,)?; environment: $environment:ident) => {
        /// This ecosystem's runners, which answer for it: registered by its line in `runner::ECOSYSTEMS`.
        pub(super) struct Runners;

        impl super::Ecosystem for Runners {
            fn runners(&self) -> &'static [super::Runner] {
                &[$(super::Runner::$runner),+]
            }

            fn environment(&self) -> &'static super::Environment {
                &$environment
            }
        }

        #[allow(non_upper_case_globals)]
        impl super::Runner {
            $(pub(crate) const $runner: super::Runner = super::Runner(&$row);)+
        }
    };
}
use runners;

include!(concat!(env!("OUT_DIR"), "/ecosystem/runner.rs"));
mod command_line;
mod environment;
#[cfg(test)]
mod tests;

pub(crate) use command_line::{CommandLine, Marked, Spelling, Takes};
pub(crate) use environment::{Environment, Words, steers, steers_as, steers_in};

use std::path::{Component, Path};

use serde::{Deserialize, Serialize};

/// A test runner: a handle on its row of the table. Each ecosystem declares its runners in its own folder
/// (`src/ecosystem/<name>/runner.rs`: `Runner::Pytest` is `python`'s), so this module, and the core above it,
/// names none; the table's order is [`ECOSYSTEMS`]'s.
///
/// It is persisted by its row's [`Row::id`] (the seal's closure records the runners the verify command ran): an
/// id is never changed, and one that is no longer in the table fails to load, as an unknown variant did when
/// this was an enum. Equality, hashing and order go by the id and the table's position, never by the row's
/// other facts, so a row may change and seals taken before still load and compare.
#[derive(Clone, Copy)]
pub struct Runner(&'static Row);

/// What the core asks of one ecosystem, answered in its folder and listed in [`ECOSYSTEMS`] by its registration.
///
/// This leaf holds the questions its layer can answer: which runners the ecosystem has (and, through their
/// rows, their configuration, test files and report channel). The concerns of the layers above keep their
/// per-ecosystem file in the same folder, declared in the concern by `build.rs` (ARCHITECTURE.md, "An
/// ecosystem is a folder"), and ask it through the runner this trait lists.
pub(crate) trait Ecosystem: Sync {
    /// Its runners, in the order the table lists them.
    fn runners(&self) -> &'static [Runner];

    /// The environment variables its runtime and runners read to decide what runs or counts ([`steers`]).
    fn environment(&self) -> &'static Environment;
}

/// Every ecosystem with runners, in the registration's order (`src/ecosystem/ECOSYSTEMS`, loaded by `build.rs`),
/// which is [`Runner`]'s order, and so the order a seal lists its runners in: a new ecosystem goes last.
pub(crate) const ECOSYSTEMS: &[&dyn Ecosystem] = &each_runner!(&Runners);

impl Runner {
    /// Every runner, in the table's order.
    pub(crate) fn all() -> impl Iterator<Item = Runner> {
        ECOSYSTEMS.iter().flat_map(|e| e.runners().iter().copied())
    }

    /// This runner's row of the table.
    pub(crate) fn row(self) -> &'static Row {
        self.0
    }

    /// The runner's name as the user types it (`pytest`, `jest`, `cargo test`).
    pub(crate) fn name(self) -> &'static str {
        self.0.name
    }

    /// The runner with the persisted id `id`.
    pub(crate) fn by_id(id: &str) -> Option<Runner> {
        Runner::all().find(|r| r.0.id == id)
    }

    /// Its place in the table (what [`Ord`] compares).
    fn position(self) -> usize {
        Runner::all().position(|r| r == self).unwrap_or(usize::MAX)
    }
}

impl PartialEq for Runner {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Runner {}

impl std::hash::Hash for Runner {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl PartialOrd for Runner {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Runner {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.position().cmp(&other.position()).then(self.0.id.cmp(other.0.id))
    }
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.id)
    }
}

impl Serialize for Runner {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.id)
    }
}

impl<'de> Deserialize<'de> for Runner {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        Runner::by_id(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown runner `{id}`")))
    }
}

/// What is declared about one runner.
#[derive(Debug)]
pub(crate) struct Row {
    /// The persisted id (the seal records runners by it): never changed once released.
    pub(crate) id: &'static str,
    pub(crate) name: &'static str,
    /// Where it reads its configuration, in the directory it runs in.
    pub(crate) config: Config,
    /// Which files are its tests, beyond the naming conventions of their language (`testsig`).
    pub(crate) tests: TestFiles,
    /// Whether it can write a structured report to a path only loopgate knows.
    pub(crate) report: Report,
}

/// Where a runner reads its configuration. Only the files at the directory it runs in are listed here; the
/// runners that search further (cargo up the directory tree and in `$CARGO_HOME`, pytest's `conftest.py` in
/// every directory, go's `go.work` upward) are followed by the closure's functions for them
/// (`closure::derive::{cargo, python}`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    /// Files that configure the runner whole.
    pub(crate) files: &'static [&'static str],
    /// File stems read under every JavaScript configuration extension ([`JS_EXTS`]: `jest.config` is
    /// `jest.config.js`, `jest.config.ts`, …).
    pub(crate) js_stems: &'static [&'static str],
    /// Files with a section for the runner among other things.
    pub(crate) sections: &'static [(&'static str, Section)],
    /// The key of `package.json` that configures it (`jest`, `mocha`).
    pub(crate) package_key: Option<&'static str>,
    /// The options under [`Config::package_key`] that change neither what runs nor what counts (coverage
    /// settings, how slow a test is shown): the key is judged without them, so a `jest` key of coverage
    /// settings alone is as if absent, and one beside them that does count still does.
    pub(crate) package_free: &'static [&'static str],
    /// Options under [`Config::package_key`] with the value the runner uses when they are not set (a JSON text;
    /// one row per spelling of it): set to that value, the option is as if absent (`testEnvironment: "node"`
    /// for Jest); set to any other, it counts. Only options whose default is a constant are listed.
    pub(crate) package_defaults: &'static [(&'static str, &'static str)],
    /// Files it loads from every directory on the way to its tests, whatever their content (pytest's
    /// `conftest.py`): a new one anywhere changes the run.
    pub(crate) every_dir: &'static [&'static str],
}

impl Config {
    const NONE: Config = Config {
        files: &[],
        js_stems: &[],
        sections: &[],
        package_key: None,
        package_free: &[],
        package_defaults: &[],
        every_dir: &[],
    };

    /// Every file name this configuration may be read from (not `package.json`'s key): the whole files, the
    /// JavaScript stems under each extension, then the files with a section.
    pub(crate) fn file_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.files.iter().map(|f| f.to_string()).collect();
        names.extend(
            self.js_stems
                .iter()
                .flat_map(|stem| JS_EXTS.iter().map(move |ext| format!("{stem}.{ext}"))),
        );
        names.extend(self.sections.iter().map(|(file, _)| file.to_string()));
        names
    }
}

/// Whether a file name configures a runner of the table wherever it runs: one of its whole files
/// (`pytest.ini`, `.mocharc.yml`), a file it loads from every directory (`conftest.py`) or a JavaScript stem under any extension (`jest.config.ts`). Files named by
/// a path (`.config/nextest.toml`) and files with a section among other things (`pyproject.toml`) are not
/// configuration by their name alone.
pub(crate) fn is_config_name(name: &str) -> bool {
    Runner::all().any(|runner| {
        let config = runner.row().config;
        config
            .files
            .iter()
            .chain(config.every_dir)
            .any(|file| !file.contains('/') && *file == name)
            || config.js_stems.iter().any(|stem| {
                name.strip_prefix(stem)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|ext| JS_EXTS.contains(&ext))
            })
    })
}

/// Whether a new file at `path` (relative to the project root) is one a runner loads from every directory on the
/// way to its tests (pytest's `conftest.py`, [`Config::every_dir`]) and sits where it reaches no sealed file: none
/// of `sealed` (project-relative) lies in its directory or below. Such a file is test support beside the agent's
/// new tests (`tests/api/conftest.py` with `tests/api/test_pairs.py`): it sits out the oracle's run with them
/// rather than count as a change to the oracle — pytest imports every conftest it meets, so one left in could
/// patch the code for the baseline tests. One at or above a sealed file (`tests/conftest.py` over
/// `tests/test_calc.py`) is a change to the oracle. The one rule the promise's check, the guard and the run's
/// plan share, so each lets through what the others do.
pub(crate) fn sits_out_with_new_tests<P: AsRef<Path>>(path: &Path, sealed: impl IntoIterator<Item = P>) -> bool {
    let every_dir = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| Runner::all().any(|r| r.row().config.every_dir.contains(&name)));
    let plain = path.components().all(|c| matches!(c, Component::Normal(_)));
    let dir = path.parent().unwrap_or(Path::new(""));
    every_dir && plain && !sealed.into_iter().any(|f| f.as_ref().starts_with(dir))
}

/// Files that mark a directory as a runner's build directory, whatever its name (CMake's `CMakeCache.txt`): its
/// contents are the runs' own output, so the runners' walk does not read them for tests and the room's tree does
/// not copy them (`walk`).
pub(crate) const BUILD_DIR_MARKERS: &[&str] = &[cpp::BUILD_DIR_MARKER];

/// Directories an ecosystem's tools leave in a project to hold what they computed (bytecode, a runner's cache, a
/// framework's build), by name, one line per ecosystem that has some: no runner collects tests from them, so the
/// runners' walk does not enter them (`walk::Walker::RUNNERS`), and what a run reads there is no input of the
/// oracle (`closure::observed`). Each is declared in its ecosystem's `runner.rs`.
pub(crate) const CACHE_DIRS: &[&[&str]] = &[python::CACHE_DIRS, js::CACHE_DIRS];

/// Runners' options on their command line that change neither what runs nor what counts (`jest --maxWorkers=2`),
/// one line per ecosystem that has some, each declared in its `runner.rs` ([`CommandLine`]).
pub(crate) const COMMAND_LINES: &[&[CommandLine]] = &[python::COMMAND_LINES, js::COMMAND_LINES];

/// Whether `name` is a directory of [`CACHE_DIRS`].
pub(crate) fn is_cache_dir(name: &str) -> bool {
    CACHE_DIRS.iter().any(|dirs| dirs.contains(&name))
}

/// The option each runner that prints only its failures by default is given through its own environment variable
/// so that it names every test (`verify::reporting`), one line per runner that needs one, as `(variable,
/// option)`; each is declared beside its row.
pub(crate) const NAMING_OPTIONS: &[(&str, &str)] = &[python::NAMES_EVERY_TEST, go::NAMES_EVERY_TEST];

/// Extensions a JavaScript configuration file may have (`.jsonc`: Mocha reads `.mocharc.jsonc`).
pub(crate) const JS_EXTS: &[&str] = &["js", "cjs", "mjs", "ts", "cts", "mts", "json", "jsonc"];

/// A part of a file that configures a runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// A table of a TOML document, by its key path (`["tool", "pytest"]`).
    Toml(&'static [&'static str]),
    /// A section of an INI file, by its name (`tool:pytest`).
    Ini(&'static str),
}

impl Section {
    /// How the section's header line starts (`[tool.pytest` also matches `[tool.pytest.ini_options]`).
    pub(crate) fn header(self) -> String {
        match self {
            Self::Toml(path) => format!("[{}", path.join(".")),
            Self::Ini(name) => format!("[{name}]"),
        }
    }
}

/// Which files a runner takes for tests: its defaults, and the settings of its configuration that change them
/// (read from the files of [`Config`] by `testseal::rules`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TestFiles {
    /// File-name globs it takes by default, in any directory (unittest's `test*.py`).
    pub(crate) names: &'static [&'static str],
    /// INI / TOML settings that list file-name globs (pytest's `python_files`).
    pub(crate) name_settings: &'static [&'static str],
    /// JavaScript / JSON / YAML keys that list path globs (Jest's `testMatch`, Vitest's `include`, Mocha's
    /// `spec`).
    pub(crate) path_keys: &'static [&'static str],
    /// Keys that hold regular expressions over `/` + the path (Jest's `testRegex`).
    pub(crate) regex_keys: &'static [&'static str],
    /// Whether the runner reads docstring examples in every module as tests.
    pub(crate) doctests: Doctests,
    /// Whether its tests load the code under test as shell scripts (bats' `load`, `source`): a script the run
    /// only read is then the code the agent changes, not the verify command's (`closure::observed`).
    pub(crate) loads_scripts: bool,
}

impl TestFiles {
    const NONE: TestFiles = TestFiles {
        names: &[],
        name_settings: &[],
        path_keys: &[],
        regex_keys: &[],
        doctests: Doctests::Never,
        loads_scripts: false,
    };
}

/// When a runner runs every module's doctests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Doctests {
    Never,
    Always,
    /// When this INI / TOML setting holds this word (pytest: `addopts` with `--doctest-modules`).
    When {
        setting: &'static str,
        word: &'static str,
    },
}

/// A runner's structured report for the verdict (issue 29, item 2): per-test results written where only
/// loopgate looks, in the runner's own format, so that code under test that prints a plausible summary and
/// exits 0 is no pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Report {
    /// The runner writes it when an environment variable it reads its options from (`var`) holds `option`
    /// followed by the path (pytest: `PYTEST_ADDOPTS`, `--junitxml=`), so the sealed command runs unchanged.
    Private {
        format: Format,
        var: &'static str,
        option: &'static str,
    },
    /// The runner writes none that way, but loopgate's start hook, loaded through the environment
    /// (`room::hook`: `PYTHONPATH`'s `sitecustomize`, `NODE_OPTIONS=--require`, `GOFLAGS=-exec`), records its
    /// per-test events (Go: per test binary) to a private path, so the sealed command runs unchanged.
    Hook,
    /// As [`Report::Hook`], and the events are where the run's tests are named: the runner's output names only
    /// its failures (minitest and RSpec print a dot per passing test), or names them as the reporter the project
    /// chose prints them (mocha's `tap` joins a title path with spaces where `spec` indents it), so the verdict
    /// takes the names of the tests that ran from the events (`room::hook::add_named`), beside those the output
    /// gives.
    HookNamed,
    /// The runner writes its own report in `format` to a private path because loopgate's start hook, loaded
    /// through the environment before the runner's own script, adds the option to the runner's arguments in
    /// its process (PHPUnit: `PHP_INI_SCAN_DIR`'s `auto_prepend_file` adds `--log-junit`), so the sealed
    /// command runs unchanged. The runner's output names only its failures: the report's names are the
    /// verdict's (`room::Room::add_named`).
    Prepended { format: Format },
    /// The runner writes its own report in `format` into its build directory, whose place no variable or
    /// option moves (Surefire's `target/surefire-reports`); in the room's tree that directory is the run's own
    /// (the tree never copies a build directory from the project) and is emptied before every run, so what the
    /// verdict reads there is this run's (`room::surefire`). The runner's output names test classes only: the
    /// report's names are the verdict's (`room::Room::add_named`).
    BuildDir { format: Format },
    /// No private channel, and why; the verdict reads the runner's output alone (`status` says so).
    None(NoReport),
}

/// A structured report's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// JUnit XML (pytest's `--junitxml`, PHPUnit's `--log-junit`, Surefire's `TEST-*.xml`, nextest's
    /// `[profile.*.junit]`, GoogleTest's `GTEST_OUTPUT=xml:`).
    JunitXml,
}

/// Why a runner has no structured report through a private channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoReport {
    /// The report is asked for on the command line or in the project's configuration only (Jest's `--json
    /// --outputFile`, Vitest's `--reporter=json --outputFile`, Mocha's `--reporter json`); none of them reads
    /// it from the environment, and the sealed command is not rewritten.
    CommandLineOnly,
    /// The report's path comes only from a profile of the project's own configuration (nextest's
    /// `[profile.NAME.junit]` in `.config/nextest.toml`, selected by `NEXTEST_PROFILE`): a project without
    /// one has none, and loopgate does not write into the project's configuration.
    ProjectConfigOnly,
}

impl Report {
    /// Why there is none, where there is none.
    pub(crate) fn missing(self) -> Option<NoReport> {
        match self {
            Report::Private { .. }
            | Report::Hook
            | Report::HookNamed
            | Report::Prepended { .. }
            | Report::BuildDir { .. } => None,
            Report::None(why) => Some(why),
        }
    }
}
