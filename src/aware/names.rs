//! The names a test runner leaves behind, one table per kind of trace, for every language at once.
//!
//! Code under test has no business knowing these names: a runner's environment variables, its modules and
//! globals, its binary's flags, its stack frames. They are kept language-blind where the trace is (an
//! environment variable is one whatever reads it) so one row covers a Python module reading `JEST_WORKER_ID`
//! as well as a script reading it. What makes a trace count (a lookup, a comparison) is `rules`' business.

use super::Family;

/// How a row's text is matched against a string literal's content or an identifier.
#[derive(Clone, Copy)]
pub(super) enum Match {
    Exact(&'static str),
    Prefix(&'static str),
}

impl Match {
    fn hits(self, text: &str) -> bool {
        match self {
            Match::Exact(name) => text == name,
            Match::Prefix(prefix) => text.starts_with(prefix),
        }
    }
}

/// Names that exist only while a test runner runs: any use of one in code under test, as a string or (after
/// `env.`) an identifier, is a trace. Environment variables, the test binaries' own flags.
const STRONG: &[(Match, Family)] = &[
    (Match::Prefix("PYTEST_"), Family::RunnerEnv),
    (Match::Prefix("JEST_"), Family::RunnerEnv),
    (Match::Exact("VITEST"), Family::RunnerEnv),
    (Match::Prefix("VITEST_"), Family::RunnerEnv),
    (Match::Prefix("MOCHA_"), Family::RunnerEnv),
    (Match::Exact("NODE_TEST_CONTEXT"), Family::RunnerEnv),
    (Match::Exact("SPEC_OPTS"), Family::RunnerEnv),
    (Match::Exact("TESTOPTS"), Family::RunnerEnv),
    (Match::Prefix("RUST_TEST_"), Family::RunnerEnv),
    (Match::Prefix("NEXTEST"), Family::RunnerEnv),
    (Match::Exact("CARGO_TARGET_TMPDIR"), Family::RunnerEnv),
    (Match::Exact("__vitest_worker__"), Family::RunnerLoaded),
    (Match::Prefix("--test-threads"), Family::RunnerArgs),
    (Match::Exact("--nocapture"), Family::RunnerArgs),
    (Match::Exact("--show-output"), Family::RunnerArgs),
    (Match::Exact("--include-ignored"), Family::RunnerArgs),
    (Match::Prefix("GTEST_"), Family::RunnerEnv),
    (Match::Prefix("--gtest_"), Family::RunnerArgs),
    (Match::Prefix("-test."), Family::RunnerArgs),
    (Match::Exact("test.v"), Family::RunnerArgs),
    (Match::Exact("test.run"), Family::RunnerArgs),
    (Match::Exact("test.short"), Family::RunnerArgs),
    (Match::Exact("test.count"), Family::RunnerArgs),
    (Match::Exact("test.timeout"), Family::RunnerArgs),
    (Match::Exact("test.paniconexit0"), Family::RunnerArgs),
    (Match::Exact("test.testlogfile"), Family::RunnerArgs),
];

/// Names that are traces only where the code looks them up or compares with them (`"pytest" in
/// sys.modules`, `argv[0].endswith(".test")`): as plain data they are words like any other.
const WEAK: &[&str] = &[
    "pytest", "py.test", "_pytest", "unittest", "nose", "nose2", "jest", "vitest", "mocha", "jasmine",
];

/// Words that are traces only beside the environment or right at the arguments (`NODE_ENV === 'test'`,
/// `'test' in sys.argv`): elsewhere they are ordinary values (a CLI's `test` subcommand).
const ENV_WORDS: &[&str] = &["test", "testing", "tests"];

/// Parts of a test binary's name or path (`os.Args[0]` ending `.test`, cargo's `target/debug/deps/`, the build
/// cache's `go-build…` directory `go test` runs its binary from): traces where the same code reads the
/// process's arguments or executable.
const EXE_WORDS: &[&str] = &[
    ".test",
    "-test",
    ".test.exe",
    "deps",
    "/deps/",
    "deps/",
    "/deps",
    "go-build",
    "/go-build",
];

/// Ruby's test runners' top-level constants: `defined?(Minitest)`, `Object.const_defined?(:RSpec)`.
pub(super) const RUNNER_CONSTANTS_RB: &[&str] = &["Minitest", "MiniTest", "RSpec", "Test"];

/// The test runners' globals: `typeof jest`, `globalThis.vi`.
pub(super) const RUNNER_GLOBALS: &[&str] = &[
    "jest",
    "vi",
    "vitest",
    "describe",
    "it",
    "expect",
    "beforeEach",
    "afterEach",
    "beforeAll",
    "afterAll",
    "mocha",
    "jasmine",
    "suite",
    "__vitest_worker__",
];

/// The test runners' and assertion libraries' objects in Python, by the names code reaches them through: an
/// assignment into one (`unittest.TestCase.assertEqual = …`) is a trace wherever it is.
pub(super) const RUNNER_OBJECTS_PY: &[&str] = &["unittest", "TestCase", "pytest", "_pytest"];

/// The assertion macros Rust's tests call from the standard library: a `macro_rules!` of one of these names in
/// code under test shadows it for every test module below it in the crate (macros are scoped by text).
pub(super) const ASSERTION_MACROS_RS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
];

/// The assertion and test macros of GoogleTest and Catch2 that a header of the code under test, included by a
/// test after the framework's own, can `#undef` and `#define` anew. Catch2's bare `CHECK` is left out: projects
/// name assertion macros of their own so.
pub(super) fn assertion_macro_cpp(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "TEST",
        "TEST_F",
        "TEST_P",
        "TEST_CASE",
        "SECTION",
        "REQUIRE",
        "REQUIRE_FALSE",
        "CHECK_FALSE",
    ];
    const GTEST: &[&str] = &[
        "EQ", "NE", "LT", "LE", "GT", "GE", "TRUE", "FALSE", "STREQ", "STRNE", "NEAR", "THROW",
    ];
    EXACT.contains(&name)
        || ["EXPECT_", "ASSERT_"]
            .iter()
            .filter_map(|prefix| name.strip_prefix(prefix))
            .any(|rest| GTEST.iter().any(|g| rest.starts_with(g)))
}

/// The same in JavaScript: `assert`, `expect` and `chai` are also common names of a project's own helpers, so
/// they count only in a file that imports one of [`ASSERTION_MODULES`].
pub(super) const RUNNER_OBJECTS_JS: &[&str] = &["assert", "expect", "chai", "should"];

/// The modules a JavaScript file imports its assertions from.
pub(super) const ASSERTION_MODULES: &[&str] = &[
    "assert",
    "node:assert",
    "assert/strict",
    "node:assert/strict",
    "chai",
    "expect",
    "should",
    "@jest/globals",
    "vitest",
];

/// Call names that look a string up or compare with it: the string beside one is a trace if it names a
/// runner.
pub(super) const LOOKUPS: &[&str] = &[
    "get",
    "getenv",
    "Getenv",
    "LookupEnv",
    "Lookup",
    "var",
    "var_os",
    "env",
    "option_env",
    "includes",
    "endswith",
    "startswith",
    "ends_with",
    "starts_with",
    "contains",
    "HasSuffix",
    "HasPrefix",
    "Contains",
    "indexOf",
    "search",
    "match",
    "has",
    "find",
    "getattr",
    "hasattr",
    "some",
    "any",
    "count",
    "index",
    "EqualFold",
    "__contains__",
    "eq",
];

/// The family of a string literal's content or identifier that is a trace wherever it appears.
pub(super) fn strong(text: &str) -> Option<Family> {
    STRONG.iter().find(|(m, _)| m.hits(text)).map(|&(_, family)| family)
}

/// Whether `text` names a runner (a trace where it is looked up or compared with).
pub(super) fn weak(text: &str) -> bool {
    WEAK.contains(&text)
}

/// Whether `text` is a word that is a trace beside the environment (see [`ENV_WORDS`]).
pub(super) fn env_word(text: &str) -> bool {
    ENV_WORDS.contains(&text)
}

/// Whether `text` is part of a test binary's name (see [`EXE_WORDS`]).
pub(super) fn exe_word(text: &str) -> bool {
    EXE_WORDS.contains(&text)
}

/// Whether an attribute read off a module or the global object (`sys._called_from_test`, `globalThis.__TEST__`)
/// is a marker the test side sets: a name about tests that is private (`_x`) or shouted (`IS_TEST`).
pub(super) fn test_marker(name: &str) -> bool {
    let about_tests = name.to_ascii_lowercase().contains("test");
    let private = name.starts_with('_');
    let shouted = name.bytes().any(|b| b.is_ascii_uppercase()) && !name.bytes().any(|b| b.is_ascii_lowercase());
    about_tests && (private || shouted)
}

/// Whether `text` could be a variable or attribute name (letters, digits, `_`).
pub(super) fn is_name(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether a string literal's content names a test — a word `test`, `tests`, `spec`, a runner's name, or a Go
/// `TestX` (`test_add`, `.test.`, `calc_test.go`, `tests::`, `__tests__`) — what a look at the stack searches
/// for. Words, so `latest` or `inspect` do not count.
pub(super) fn names_a_test(text: &str) -> bool {
    const WORDS: &[&str] = &["test", "tests", "spec", "specs", "__tests__", "testing"];
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .flat_map(|word| word.split('_').chain([word]))
        .any(|word| {
            let lower = word.to_ascii_lowercase();
            WORDS.contains(&lower.as_str())
                || WEAK.contains(&lower.as_str())
                || word
                    .strip_prefix("Test")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
        })
}

/// Whether an identifier names the environment: `env`, `environ`, `getenv`, `NODE_ENV`, `app_env`,
/// `environment`.
pub(super) fn env_ident(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    ["env", "environ", "getenv", "lookupenv", "environment"].contains(&lower.as_str()) || lower.ends_with("_env")
}
