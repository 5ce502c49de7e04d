//! The test-file scanner: what in a test file decides which tests run and how they judge.
//!
//! Sealing a test file whole would forbid the one thing an agent should do to it — add tests. This module reads
//! a test file the way a reviewer would, as a tree of [`Unit`]s (tests, their containers, imports, helpers, setup
//! code and other module-level code) plus the [`Marker`]s that switch tests off (skip, only, xfail, ignore, todo,
//! build exclusions), and keeps a compact [`FileSig`] of it. [`compare`] then tells which of the changes since the
//! signature was taken weaken the existing tests, as [`Finding`]s; adding tests, helpers and imports is allowed.
//!
//! Languages: Python, JavaScript/TypeScript, Rust, Go, shell (bats) and PHP (PHPUnit) ([`Lang`]). Everything
//! here is pure (text in, values out) and total: any input, however broken, yields some answer in time linear in its size (nesting is capped
//! at [`MAX_DEPTH`]); nothing panics. The scan is lexical, not a compiler: comments and string literals are
//! understood (markers inside them do not count, except Go build constraints, which are comments), units are
//! recognized by their shape, and a unit's hash is taken over its normalized tokens, so reformatting and comment
//! edits are not changes.
//!
//! What it does not see, being lexical: code that new definitions run as they are defined (a new test's
//! decorator arguments or default values, a new `it(…)`'s title expression), side effects of the modules a test
//! file imports, tests generated in loops or behind conditions (those statements are "other code": any change to
//! them is reported, but not test by test), and frameworks beyond the common spellings (Ginkgo's `Describe`, for
//! one, reads as other code).
//!
//! Layout: `language` (what each stage asks of a language: one row per [`Lang`], in its ecosystem's folder),
//! `lang` (file conventions), `lex` (the comment- and string-aware tokenizers), `norm` (normalized hashing), each
//! language's units in its folder (`testsig::python`, …, with `braces` for the brace languages), `imports`
//! (modules and the names they bind), `markers`, `doctest`, `table`, `sig` + `compare` (signatures and findings),
//! `finding` (the facts; `messages::finding` words them).
//!
//! One of the five modules the user's tests pass through, each answering one question (`ARCHITECTURE.md`, "One of
//! each mechanism"): this one reads a test file; `testseal` keeps every test file's signature, `testswap` stands
//! the test files as sealed in the oracle's run, `testjudge::baseline` and `testjudge::ratchet` judge a run's results.

mod braces;
pub(crate) mod by_name;
mod compare;
include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig.rs"));
mod doctest;
pub(crate) mod env_reads;
mod finding;
mod imports;
mod lang;
mod language;
pub(crate) mod lex;
mod markers;
pub(crate) mod norm;
mod sig;
mod table;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use crate::schema::Lang;
pub use compare::{compare, deleted_file};
pub use finding::Finding;
pub use lang::{is_test_file, may_hold_tests};
pub(crate) use language::{ImportPath, Inline, Language, Load, language};
pub(crate) use sig::scan;
pub use sig::{FileSig, MarkerCount, Scope};

/// How deeply containers may nest before the rest is treated as one opaque unit.
pub(crate) const MAX_DEPTH: usize = 24;

/// What a unit of a test file is, as far as the tests in it are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// A test the runner collects: `def test_x`, `it('…')`, `#[test] fn`, `func TestX(t *testing.T)`.
    Test,
    /// A group of units: a Python class, a `describe(…)` block, a Rust `mod`. (The file itself is the implicit
    /// root container: [`parse`] returns its children.)
    Container,
    /// `import`, `from … import`, `require(…)`, `use`, Go `import`.
    Import,
    /// A plain definition that runs nothing by itself: a function that is neither test nor fixture nor hook, a
    /// type, a constant.
    Helper,
    /// Code that runs around existing tests: fixtures, `setUp`, `beforeEach`, `jest.mock`, `func init`, `TestMain`.
    Setup,
    /// Any other statement at container level: assignments, monkeypatching, loops, module-level calls.
    Other,
}

/// One unit of a test file. Decorators and attributes belong to the unit they decorate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub(crate) kind: UnitKind,
    /// The function, class or module name; a JavaScript test's or block's title string; for an import, the
    /// module it imports from (see `names`); for other code, its first line.
    pub(crate) name: String,
    /// 1-based line of the unit's head (the `def`, `fn`, `func` or call), not of its decorators.
    pub(crate) line: u32,
    /// Truncated SHA-256 (16 hex digits) of the unit's normalized tokens: comments dropped, white space outside
    /// string literals ignored (Python keeps its block structure). For a container, it covers the children too.
    pub(crate) hash: String,
    /// For a container: the hash of the container with its children cut out, so "the same block with one more
    /// test inside" is recognized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shell_hash: Option<String>,
    /// For an import: the names it binds, sorted (its `name` is then the module). Adding names to an import is
    /// not a change that needs reporting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) names: Vec<String>,
    /// For a unit holding a table of test cases (`parametrize`, `.each`, `#[case]`, a Go `[]struct{…}{…}`):
    /// its hash without the rows, and each row's hash. A unit that only gained rows only gained tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) table: Option<Table>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) children: Vec<Unit>,
    /// For an import that names a file of the project by its path or module: the project-relative file it
    /// loaded when the file was sealed (`testseal::renamed`), so that a rename is judged against where the code
    /// was, never against a package that answers to the name elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) file: Option<String>,
    /// With [`Unit::file`]: a likeness of that file's lines when the file was sealed (`testseal::likeness`),
    /// so that a rename is read only where the new file is that code renamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) likeness: Option<String>,
}

/// A unit's table of test cases, hashed row by row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Table {
    /// The unit's hash with every row cut out.
    pub(crate) skeleton: String,
    /// Each row's hash, in order.
    pub(crate) rows: Vec<String>,
}

/// What a marker does to the tests it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkerKind {
    /// The test is not run: `@pytest.mark.skip`, `it.skip`, `xit`, `t.Skip()`.
    Skip,
    /// Only the marked tests run, the others are dropped: `it.only`, `fit`.
    Only,
    /// A failure counts as a pass: `xfail`, `expectedFailure`, `.fails`, `#[should_panic]`.
    Xfail,
    /// Rust's `#[ignore]`.
    Ignore,
    /// A placeholder that never fails: `it.todo`.
    Todo,
    /// The test or file is not even compiled or collected: `#[cfg(any())]`, `//go:build ignore`, `__test__ = False`.
    Exclude,
}

/// A marker found in code (not in a comment or string, except Go build constraints).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// 1-based line.
    pub(crate) line: u32,
    /// The whole line, trimmed: what the model is shown.
    pub(crate) text: String,
    pub(crate) kind: MarkerKind,
}

/// The units of a file, in order; the file itself is the implicit root container.
pub fn parse(lang: Lang, text: &str) -> Vec<Unit> {
    let lexed = lex::lex(lang, text);
    units(lang, &lexed).into_iter().map(Node::into_unit).collect()
}

/// The markers in a file, in order.
pub fn markers(lang: Lang, text: &str) -> Vec<Marker> {
    let lexed = lex::lex(lang, text);
    markers::find(&lexed)
        .into_iter()
        .map(|found| Marker {
            line: found.line,
            text: lexed.line_text(found.line),
            kind: found.kind,
        })
        .collect()
}

/// A unit while the file is being read: the public fields plus where it lies, for locating markers.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) kind: UnitKind,
    pub(crate) name: String,
    pub(crate) line: u32,
    pub(crate) hash: String,
    pub(crate) shell_hash: Option<String>,
    /// Byte range in the file, decorators included.
    pub(crate) span: std::ops::Range<usize>,
    /// Compiled or run only for tests (`#[cfg(test)] mod`, `if (import.meta.vitest)`): test code even inside a
    /// source file.
    pub(crate) gated: bool,
    pub(crate) names: Vec<String>,
    pub(crate) table: Option<Table>,
    pub(crate) children: Vec<Node>,
}

impl Node {
    pub(crate) fn into_unit(self) -> Unit {
        Unit {
            kind: self.kind,
            name: self.name,
            line: self.line,
            hash: self.hash,
            shell_hash: self.shell_hash,
            names: self.names,
            table: self.table,
            children: self.children.into_iter().map(Node::into_unit).collect(),
            file: None,
            likeness: None,
        }
    }
}

/// The unit tree of a lexed file, by language.
pub(crate) fn units(lang: Lang, lexed: &lex::Lexed) -> Vec<Node> {
    language(lang).units(lexed)
}

/// The byte ranges of the test modules a source file holds: Rust's `#[cfg(test)] mod … { … }`, Vitest's
/// in-source `if (import.meta.vitest) { … }` (the containers the test scanner marks as compiled only for tests;
/// a gated function or `impl` is not a module, and stays judged).
pub(crate) fn test_modules(lang: Lang, lexed: &lex::Lexed) -> Vec<std::ops::Range<usize>> {
    fn walk(nodes: &[Node], out: &mut Vec<std::ops::Range<usize>>) {
        for node in nodes {
            if node.gated && node.kind == UnitKind::Container {
                out.push(node.span.clone());
            } else {
                walk(&node.children, out);
            }
        }
    }
    let mut out = Vec::new();
    if matches!(lang, Lang::Rust | Lang::JavaScript) {
        walk(&units(lang, lexed), &mut out);
    }
    out
}
