//! Code under test that knows it is being tested (issue 30): new code outside the test side that branches on
//! the test runner's presence — the compile-time test configuration outside a test module, the runner's
//! environment variables, modules, globals or flags, a look at the stack for a test's name, a marker the tests
//! set — or that reads the test files to learn the expected values, or assigns into the runner's assertions so
//! that the tests check nothing (`unittest.TestCase.assertEqual = …`). No seal can see such a move: the tests,
//! their configuration and the runner all stay as they were, and the code is correct only under them.
//!
//! The check reads tokens (`testsig::lex`), so comments never count and a string literal counts only for
//! what it does in the code (`rules`; the names are one table per kind of trace, `names`). A test module in a
//! source file (`#[cfg(test)] mod tests`, Vitest's `if (import.meta.vitest)`) is test code and stays free, as
//! do the test files, `conftest.py`, test-support directories (`testutil/`, `__mocks__/`, …: code only the
//! tests import) and configuration files (`*.config.js`, `.eslintrc.js`, `setup.py`, `build.rs`), where a new
//! `NODE_ENV === 'test'` is honest configuration.
//!
//! Only new traces count: setup records, per source file, its stat key and a digest of every trace it already
//! held ([`Known`]); at a promise only the files whose stat key moved are read again, and a trace whose digest
//! (family and line text) was there at setup is the user's. A trace is named by file and line, with how to
//! undo it ([`Flagged`], worded by `messages::aware`); `loopgate allow PATH` accepts one the user wants.
//! `--no-test-awareness-check` turns it off.
//!
//! What it cannot see: a special case with no marker (`if a == 2 && b == 3 { return 5 }`), a trace built at
//! run time (a name assembled from pieces, read through a helper the check does not know), a file larger
//! than [`MAX_BYTES`]. Held-out tests (`--holdout`) are the defence there.

mod known;
mod modfile;
mod names;
mod rules;
#[cfg(test)]
mod tests;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use crate::schema::Lang;
use crate::testsig::{self, lex};
pub(crate) use known::{Flagged, Known};

/// Largest file read; a larger one is generated or vendored code, not the agent's.
pub(crate) const MAX_BYTES: u64 = 2 * 1024 * 1024;

/// What a trace shows the code knows about the test run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// The compile-time test configuration outside a test module: `cfg(test)`, `cfg!(test)`, `cfg(not(test))`.
    TestBuild,
    /// A test runner's environment variable: `PYTEST_CURRENT_TEST`, `JEST_WORKER_ID`, `NODE_ENV === 'test'`.
    RunnerEnv,
    /// Whether a runner's module or global is loaded: `"pytest" in sys.modules`, `typeof jest`,
    /// `testing.Testing()`.
    RunnerLoaded,
    /// The test binary's flags or name: `--test-threads`, `flag.Lookup("test.v")`, `os.Args[0]` ending `.test`.
    RunnerArgs,
    /// Who is calling: the stack searched for a test's name, the thread's name (Rust names it after the test).
    Caller,
    /// A marker the test side sets: `sys._called_from_test`, `globalThis.__TEST__`, `os.environ["TESTING"]`.
    TestMarker,
    /// A path into the test side: reading the tests or their data to find the expected values.
    ReadsTests,
    /// An assignment into the test runner or its assertion library, so that the tests check nothing:
    /// `unittest.TestCase.assertEqual = …`, `assert.strictEqual = …` on Node's `assert`.
    PatchesRunner,
}

/// One trace in one file: where, what the line says, which family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// 1-based.
    pub line: u32,
    /// The line, trimmed and cut to a readable length (what the model is shown).
    pub text: String,
    pub family: Family,
}

/// Every trace in `text`, a file of `lang` that is code under test, outside the test modules it holds; one per
/// line and family, in order.
pub fn scan(lang: Lang, text: &str) -> Vec<Found> {
    let lexed = lex::lex(lang, text);
    let free = testsig::test_modules(lang, &lexed);
    let mut found: Vec<Found> = rules::find(&lexed, &free)
        .into_iter()
        .map(|(line, family)| Found {
            line,
            text: lexed.line_text(line),
            family,
        })
        .collect();
    found.sort_by_key(|f| (f.line, f.family));
    found.dedup_by_key(|f| (f.line, f.family));
    found
}

/// Directories whose code only the tests use (test support) and whose traces are therefore the tests' own.
const SUPPORT_DIRS: &[&str] = &[
    "testutil",
    "testutils",
    "testhelpers",
    "test_helpers",
    "test_utils",
    "test_support",
    "testsupport",
    "testing",
    "__mocks__",
    "__fixtures__",
];

/// The language of `path` (relative, `/`-separated) if it is code under test that this check judges: not a
/// test file, not `conftest.py`, not test support, not a configuration file.
pub(crate) fn judged(path: &str) -> Option<Lang> {
    let as_path = Path::new(path);
    let lang = Lang::of(as_path).or_else(|| shell_code(path))?;
    if testsig::is_test_file(as_path) {
        return None;
    }
    let mut parts = path.split('/');
    let name = parts.next_back().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    let support = parts.any(|dir| SUPPORT_DIRS.contains(&dir)) || SUPPORT_DIRS.contains(&stem);
    (!support && !configuration(name)).then_some(lang)
}

/// A shell library or script outside the test side (`lib/calc.sh`, which a bats test `load`s): the shell's files
/// of code have no language of their own in the seal (only bats' `.bats` tests do), so they are named here. One
/// under a test directory or named for tests (`test/test_helper.bash`, which reads `$BATS_TEST_DIRNAME` to load
/// its fixtures) is the test side's.
fn shell_code(path: &str) -> Option<Lang> {
    const TEST_DIRS: &[&str] = &["test", "tests", "spec", "t"];
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    let shell = name.ends_with(".sh") || name.ends_with(".bash");
    let test_side = dirs.split('/').any(|dir| TEST_DIRS.contains(&dir)) || name.to_ascii_lowercase().contains("test");
    (shell && !test_side).then_some(Lang::Shell)
}

/// Whether a file name is a tool's configuration or a test setup file, not code under test.
fn configuration(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "conftest.py",
        "setup.py",
        "noxfile.py",
        "build.rs",
        "Gruntfile.js",
        "gulpfile.js",
    ];
    let lower = name.to_ascii_lowercase();
    let setup_file = (lower.contains("setup") || lower.contains("teardown")) && rules::names_a_runner_setup(&lower);
    NAMES.contains(&name) || name.starts_with('.') || lower.contains(".config.") || setup_file
}

/// A file's traces, read from disk within [`MAX_BYTES`]; `None` if it cannot be read or is too large.
pub(crate) fn scan_file(path: &Path, lang: Lang) -> Option<Vec<Found>> {
    read_source(path).map(|text| scan(lang, &text))
}

/// A source file's text (invalid UTF-8 replaced), if it is a regular file of at most [`MAX_BYTES`].
fn read_source(path: &Path) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).ok()?;
    if bytes.len() as u64 > MAX_BYTES {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}
