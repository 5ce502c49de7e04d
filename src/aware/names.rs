//! The names a test runner leaves behind, one [`Traces`] per ecosystem, in its folder's `aware.rs` (registered
//! by one line of `rules::TRACES`), and the words every language shares.
//!
//! Code under test has no business knowing these names: a runner's environment variables, its modules and
//! globals, its binary's flags, its stack frames. They are kept language-blind where the trace is (an
//! environment variable is one whatever reads it) so one row covers a Python module reading `JEST_WORKER_ID`
//! as well as a script reading it: [`strong`] and [`weak`] ask every ecosystem's names, whatever the file's
//! language. What makes a trace count (a lookup, a comparison) is `rules`' business.

use super::rules::TRACES;
use super::{Family, Lang};
use crate::testsig::lex::Lexed;

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

/// What one ecosystem's runners leave behind for code under test to find, and the spellings of its language that
/// reach them; see the module's documentation. The language-bound rows are asked only of a file in `lang`.
#[derive(Clone, Copy)]
pub(super) struct Traces {
    /// The language of the ecosystem's code.
    pub(super) lang: Lang,
    /// Names that exist only while one of its runners runs: any use of one in code under test, as a string or
    /// (after `env.`) an identifier, is a trace, in any language. Environment variables, the test binaries' own
    /// flags.
    pub(super) strong: &'static [(Match, Family)],
    /// Its runners' and modules' names, traces only where the code looks them up or compares with them (`"pytest"
    /// in sys.modules`, `argv[0].endswith(".test")`): as plain data they are words like any other. In any
    /// language.
    pub(super) weak: &'static [&'static str],
    /// Words of its runners' setup files' names (`jest.setup.js`): with `setup` or `teardown`, such a file is
    /// configuration, not code under test.
    pub(super) setup_files: &'static [&'static str],
    /// Its runners' globals: `typeof jest`, `globalThis.vi`.
    pub(super) globals: &'static [&'static str],
    /// The names through which code reaches the global object (`globalThis`, `window`).
    pub(super) global_objects: &'static [&'static str],
    /// Members whose read says a runner is loaded, as (owner, member): `import.meta.vitest`, `testing.Testing`.
    pub(super) loaded_members: &'static [(&'static str, &'static str)],
    /// Calls that ask whether a constant is defined (`defined?(Minitest)`), and its runners' constants.
    pub(super) defined_checks: &'static [&'static str],
    pub(super) runner_constants: &'static [&'static str],
    /// Its runners' and assertion libraries' objects, by the names code reaches them through: an assignment
    /// into one (`unittest.TestCase.assertEqual = …`) is a trace.
    pub(super) objects: &'static [&'static str],
    /// The modules its assertions come from, where [`Traces::objects`] are also common names of a project's own
    /// helpers (`assert`, `expect`): they count only in a file that imports one of these. Empty: everywhere.
    pub(super) assertion_modules: &'static [&'static str],
    /// A call that assigns into the object it is given first (`setattr(unittest.TestCase, …)`).
    pub(super) setattr: Option<&'static str>,
    /// Looks at the stack or at who is running: `(qualifier, names)`; an empty qualifier means any `.name`
    /// (JavaScript's `new Error().stack`), or a bare name too where [`Traces::bare_caller`] says so.
    pub(super) caller_heads: &'static [(&'static str, &'static [&'static str])],
    pub(super) bare_caller: bool,
    /// Whether the identifier at `i` defines a test framework's assertion anew under its own name (Rust's
    /// `macro_rules! assert_eq`, C++'s `#define EXPECT_EQ`); asked of every file, whatever its language.
    pub(super) redefines_assertion: fn(&Lexed, usize) -> bool,
}

impl Traces {
    /// A language whose runners leave nothing of these behind; a row names what it has (`..Traces::none(lang)`).
    pub(super) const fn none(lang: Lang) -> Traces {
        Traces {
            lang,
            strong: &[],
            weak: &[],
            setup_files: &[],
            globals: &[],
            global_objects: &[],
            loaded_members: &[],
            defined_checks: &[],
            runner_constants: &[],
            objects: &[],
            assertion_modules: &[],
            setattr: None,
            caller_heads: &[],
            bare_caller: false,
            redefines_assertion: redefines_nothing,
        }
    }
}

/// The [`Traces::redefines_assertion`] of a language whose assertions cannot be defined anew in the code.
fn redefines_nothing(_: &Lexed, _: usize) -> bool {
    false
}

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
    TRACES
        .iter()
        .flat_map(|traces| traces.strong)
        .find(|(m, _)| m.hits(text))
        .map(|&(_, family)| family)
}

/// Whether `text` names a runner (a trace where it is looked up or compared with).
pub(super) fn weak(text: &str) -> bool {
    TRACES.iter().any(|traces| traces.weak.contains(&text))
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
                || weak(&lower)
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
