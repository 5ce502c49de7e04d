//! Python's runners: pytest (and pytest running every module's doctests) and unittest.

use super::{CommandLine, Config, Doctests, Format, Marked, Report, Row, Section, Spelling, Takes, TestFiles};

/// pytest: `pytest.ini` (or `.pytest.ini`, pytest 8.1 and later; `pytest.toml`, `.pytest.toml`, pytest 9),
/// else a section of `pyproject.toml`, `tox.ini` or `setup.cfg`, in the directory it runs in (searched upward
/// by the closure: `closure::derive::python`); and `conftest.py` in every directory.
const PYTEST_CONFIG: Config = Config {
    files: &["pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml"],
    js_stems: &[],
    sections: &[
        ("pyproject.toml", Section::Toml(&["tool", "pytest"])),
        ("tox.ini", Section::Ini("pytest")),
        ("setup.cfg", Section::Ini("tool:pytest")),
    ],
    package_key: None,
    package_free: &[],
    package_defaults: &[],
    every_dir: &["conftest.py"],
};

/// pytest's JUnit XML, asked for through `PYTEST_ADDOPTS` (after the user's own options), read by
/// `room::report`.
const PYTEST_REPORT: Report = Report::Private {
    format: Format::JunitXml,
    var: "PYTEST_ADDOPTS",
    option: "--junitxml=",
};

pub(super) const PYTEST: Row = Row {
    id: "pytest",
    name: "pytest",
    config: PYTEST_CONFIG,
    tests: TestFiles {
        name_settings: &["python_files"],
        doctests: Doctests::When {
            setting: "addopts",
            word: "--doctest-modules",
        },
        ..TestFiles::NONE
    },
    report: PYTEST_REPORT,
};

pub(super) const PYTEST_DOCTEST_MODULES: Row = Row {
    id: "pytest_doctest_modules",
    name: "pytest --doctest-modules",
    config: PYTEST_CONFIG,
    tests: TestFiles {
        doctests: Doctests::Always,
        ..TestFiles::NONE
    },
    report: PYTEST_REPORT,
};

/// unittest (and Django's `manage.py test`): its default pattern `test*.py`, which takes `tests.py`. It has
/// no configuration file and no structured report of its own: loopgate's `sitecustomize` hook records its
/// `TestResult` events (`room::hook`).
pub(super) const UNITTEST: Row = Row {
    id: "unittest",
    name: "unittest",
    config: Config::NONE,
    tests: TestFiles {
        names: &["test*.py"],
        ..TestFiles::NONE
    },
    report: Report::Hook,
};

/// unittest's free option on its command line (`runner::command_line`): `-b` holds a passing test's output back,
/// and prints a failing one's with its failure; loopgate's hook records the same `TestResult` events.
pub(super) const COMMAND_LINES: &[CommandLine] = &[CommandLine {
    programs: &["python3", "python"],
    marked: Marked::AfterProgram(&["-m", "unittest"]),
    options: &[("-b", Takes::Flag), ("--buffer", Takes::Flag)],
    aliases: &[],
    spelling: Spelling::AsListed,
    unless: &[],
}];

/// pytest's short test summary lists every outcome (`PASSED tests/…::test_x`) except the captured output of
/// passing tests with `-rap` (`runner::NAMING_OPTIONS`). A `-r` on the command line itself still wins (pytest
/// reads the command line last); such a run is judged by its totals. unittest names its tests only with `-v`,
/// which it takes from no variable, so without it its totals are used.
pub(super) const NAMES_EVERY_TEST: (&str, &str) = ("PYTEST_ADDOPTS", "-rap");

/// Python's tools' own directories in a project (`runner::CACHE_DIRS`): bytecode, pytest's, mypy's and ruff's
/// caches, tox's and nox's environments.
pub(super) const CACHE_DIRS: &[&str] = &[
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".nox",
];

/// What the interpreter, pip, coverage's start hook, Django's settings and the runners read.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &[
        "PYTHON*",
        "PYTEST_*",
        "PIP_*",
        "VIRTUAL_ENV",
        "CONDA_*",
        "COVERAGE_*",
        "DJANGO_SETTINGS_MODULE",
        "TOX_*",
    ],
    // `PYTHONDONTWRITEBYTECODE` only stops the interpreter (and pytest's rewriter) *writing* bytecode: what is
    // there is still read and checked against its source as before, so what runs is the same.
    prints: &["PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"],
    // pytest reads `PYTEST_ADDOPTS` as options before its configuration's: these only change how the run is
    // printed (a traceback's style, the short summary, verbosity, colour, the slowest tests), never which tests
    // run or how they end; loopgate reads pytest's outcomes from its own report, not from this output.
    words: &[
        super::Words {
            name: "PYTEST_ADDOPTS",
            free: &[
                "--tb=*",
                "-r*",
                "-v",
                "-vv",
                "-l",
                "--showlocals",
                "--color=*",
                "--code-highlight=*",
                "--durations=*",
                "--durations-min=*",
                "--no-header",
            ],
        },
        // The interpreter reads `PYTHONWARNINGS` as warning filters (comma-separated, each `action:…:category:…`):
        // one that ignores a warning, or shows it once or every time, only changes what is printed — free where no
        // sealed test reads what the run prints or warns (`?`, `runner::Words::free`), since a sealed test that
        // records the bug's warning would pass under `ignore`. `error` turns a warning into an exception, which code
        // can catch: it counts, and so does a dotted category (`ignore::calc_quiet.Quiet`), which the interpreter
        // imports at start-up: a module of the tree on `sys.path` (an editable install) would load there.
        super::Words {
            name: "PYTHONWARNINGS",
            free: &[
                "?ignore",
                "?ignore:~",
                "?default",
                "?default:~",
                "?once",
                "?once:~",
                "?module",
                "?module:~",
                "?always",
                "?always:~",
            ],
        },
    ],
};

super::runners!(
    Pytest = PYTEST,
    PytestDoctestModules = PYTEST_DOCTEST_MODULES,
    Unittest = UNITTEST; environment: ENVIRONMENT);
