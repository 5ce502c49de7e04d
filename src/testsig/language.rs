//! What the test-file scanner asks of a language: one [`Language`] per [`Lang`], answered in its ecosystem's
//! folder (`src/ecosystem/<name>/language.rs`, its `Syntax`) and registered by one line of [`LANGUAGES`].
//!
//! [`Lang`] stays the persisted key (the seal's test signatures and the closure's ecosystems are stored by its
//! serde names); this trait is what the key is a handle on, as `runner::Runner` is a handle on its `Row`. The
//! scanner's stages — the tokenizer (`lex`), the units, the markers, the file conventions (`lang`), the
//! comparison's redefinitions, the normalized hash and the tables of test cases — ask it, so none of them names a
//! language, and a new language is its folder's files and one line of the table. The defaults are what most
//! languages answer (nothing of the kind); a language overrides what its runners do.

/// Declares a language's `Syntax` in its folder's `language.rs`: the key it answers for and the functions of
/// its concern files that read it — its tokenizer (`lex.rs`), its units (`testsig.rs`) and its markers
/// (`markers.rs`) — then the rest of its answers, the provided methods of [`Language`] it overrides.
macro_rules! syntax {
    (lang: $lang:expr, lex: $lex:expr, units: $units:expr, marker: $marker:expr; $($answers:tt)*) => {
        /// This language's answers, registered by its line in `testsig::language::LANGUAGES`.
        pub(super) struct Syntax;

        impl crate::testsig::Language for Syntax {
            fn lang(&self) -> crate::testsig::Lang {
                $lang
            }

            fn lex(&self, cur: &mut crate::testsig::lex::Cursor) {
                ($lex)(cur);
            }

            fn units(&self, lx: &crate::testsig::lex::Lexed) -> Vec<crate::testsig::Node> {
                ($units)(lx)
            }

            fn marker(
                &self,
                lx: &crate::testsig::lex::Lexed,
                i: usize,
                out: &mut Vec<crate::testsig::markers::Found>,
            ) -> usize {
                ($marker)(lx, i, out)
            }

            $($answers)*
        }
    };
}
use syntax;

include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/language.rs"));

use std::ops::Range;
use std::path::{Path, PathBuf};

use super::lex::{Cursor, Lexed};
use super::markers::Found;
use super::{Lang, Node, UnitKind};

/// Which source files of a language may hold tests beside the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inline {
    /// None: its runners collect tests from test files only.
    Never,
    /// Any that [`Language::may_hold_tests`] says yes to (Rust's `#[cfg(test)]` modules, Vitest's in-source
    /// tests).
    Always,
    /// Its docstring examples, which start with `prompt`, when its runner is told to run them (pytest's
    /// `--doctest-modules`).
    Doctests { prompt: &'static str },
}

/// A load statement read from one line of a test file (`Language::load_line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Load {
    /// The project-relative files it may name, in the order its runtime tries them (not yet normalised: may
    /// hold `..`).
    pub(crate) candidates: Vec<PathBuf>,
    /// Whether it resolves against the file it is written in (Ruby's `require_relative`), so that moved into a
    /// helper elsewhere it would name another file; bats' `load` resolves against the test file whoever calls
    /// it, Ruby's `require` against the load path.
    pub(crate) relative_to_loader: bool,
}

/// A project file an import names by its path (`Language::import_path`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ImportPath {
    /// The path as the import spells it: between its quotes, or bare where [`ImportPath::quoted`] is false.
    pub(crate) spelled: String,
    /// Whether the path is a string literal (`'../src/calc'`), or a bare dotted name (Python's `calc.core`).
    pub(crate) quoted: bool,
    /// The project-relative files it may name, in the order its runtime tries them (may hold `..`).
    pub(crate) candidates: Vec<PathBuf>,
    /// How any file it may name ends (`calc.h`, `src/calc`, `calc/core`): a file anywhere in the project whose
    /// path ends so, with or without an extension, may be it where a build or a load path decides.
    pub(crate) tail: PathBuf,
    /// Whether the import binds the module under its spelled name, which the tests then use (Python's `import
    /// calc`, then `calc.add(…)`): renamed, every such use is renamed with it.
    pub(crate) binds: bool,
    /// Files whose presence makes the runtime resolve the import otherwise than [`ImportPath::candidates`] say
    /// (a directory's `package.json`, which node reads before its `index.js`): then the file is not known.
    pub(crate) unless: Vec<PathBuf>,
}

/// What the scanner asks of one language; see the module's documentation.
pub(crate) trait Language: Sync {
    /// The persisted key this language answers for.
    fn lang(&self) -> Lang;

    /// Tokenizes the whole text at `cur` (`testsig::lex::lex`).
    fn lex(&self, cur: &mut Cursor);

    /// The unit tree of a lexed file (`testsig::units`).
    fn units(&self, lx: &Lexed) -> Vec<Node>;

    /// Records the marker starting at token `i`, if any, and returns the token to look at next (a step of at
    /// least one is enforced by `testsig::markers::find`).
    fn marker(&self, lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize;

    /// Markers that are no tokens, found once per file (Go's build constraints, which are comments).
    fn file_markers(&self, _lx: &Lexed, _out: &mut Vec<Found>) {}

    /// Whether a file named `name` (`stem`: the name without its last extension) outside the test directories
    /// is a test file by its runners' conventions (`testsig::is_test_file`).
    fn is_test_name(&self, name: &str, stem: &str) -> bool;

    /// Whether a file that is not a test file by convention may still hold tests (`testsig::may_hold_tests`): a
    /// cheap substring check that may say yes to a file without tests, never no to one with them.
    fn may_hold_tests(&self, _text: &str) -> bool {
        false
    }

    /// Which of its source files (not test files) the inventory reads for tests (`testseal::listing`).
    fn inline(&self) -> Inline {
        Inline::Never
    }

    /// Whether a new unit of this kind, defined again at a level under a name already there, replaces the first
    /// definition (`compare`: Python's `def parse` after `from mypkg import parse`).
    fn redefines(&self, _kind: UnitKind) -> bool {
        false
    }

    /// The name an item of an import binds, where a later definition of the same name replaces it (`compare`);
    /// `None`: imports bind nothing a definition could replace.
    fn import_binding<'n>(&self, _module: &str, _item: &'n str) -> Option<&'n str> {
        None
    }

    /// What one line of a test file loads, when the whole line is one load of a literal path (Ruby's
    /// `require "test_helper"`, bats' `load test_helper`), for a test file in `dir` (project-relative);
    /// `None`: the line is anything else (`testseal::follow`).
    fn load_line(&self, _line: &str, _dir: &Path) -> Option<Load> {
        None
    }

    /// The functions `text` defines (a helper's lines other than its loads), where it is nothing but function
    /// definitions this reading can delimit; `None` otherwise, or where the language keeps no such rule
    /// (`testseal::follow`).
    fn helper_functions(&self, _text: &str) -> Option<Vec<String>> {
        None
    }

    /// The functions `text` defines anywhere in it (the code a test loads), for [`Language::helper_functions`]'s
    /// judge.
    fn defined_functions(&self, _text: &str) -> Vec<String> {
        Vec::new()
    }

    /// Whether a function named `name` would stand in for something a test runs by that name: a command, a
    /// builtin, the runner's own function (bats' `run`, `load`, `setup`).
    fn names_a_command(&self, _name: &str) -> bool {
        true
    }

    /// The glob of project files one line of a test-side file in `dir` requires, one by one, when the whole line
    /// is such a require of a literal glob (RSpec's `Dir[File.join(__dir__, "support", "**", "*.rb")].sort.each
    /// { |f| require f }`), project-relative; `None`: the line is anything else (`testseal::follow`).
    fn glob_load(&self, _line: &str, _dir: &Path) -> Option<String> {
        None
    }

    /// The file an import of a test file in `dir` (project-relative) names by its path, where it names one of the
    /// project's by a path relative to the test file (`require('../src/calc.js')`, `#include "calc.h"`): the
    /// path as spelled, and the project-relative files it may be, in the order the runtime tries them (not yet
    /// normalised). `import` is the import unit's name (its module, or its first line where the language's
    /// imports are not read as modules), `names` the names it binds. `None`: a package, the load path, anything
    /// else (`testseal::renamed`).
    fn import_path(&self, _import: &str, _names: &[String], _dir: &Path) -> Option<ImportPath> {
        None
    }

    /// The module `text` defines and the methods it defines in it, where `text` is nothing but one module of
    /// plain instance methods this reading can delimit (a support file of helpers for new tests); `None`
    /// otherwise (`testseal::follow`).
    fn support_module(&self, _text: &str) -> Option<(String, Vec<String>)> {
        None
    }

    /// Whether `text` defines or reopens the constant `name` (a module, a class, an assignment).
    fn defines_constant(&self, _text: &str, _name: &str) -> bool {
        true
    }

    /// The method and variable names `text` uses or defines.
    fn names_used(&self, _text: &str) -> std::collections::BTreeSet<String> {
        std::collections::BTreeSet::new()
    }

    /// `text` without its lines that mix one of `modules` into the examples (`config.include M` in an
    /// `RSpec.configure` block), and without a block those lines leave empty.
    fn without_includes(&self, text: &str, _modules: &[String]) -> String {
        text.to_string()
    }

    /// Whether its plain string literals are compared by value, not by their quotes (`'a'` and `"a"`, `norm`).
    fn strings_by_value(&self) -> bool {
        false
    }

    /// Token `i` spelled as what it means where two spellings mean the same to the runner (`norm`): bats'
    /// `load "$BATS_TEST_DIRNAME/x"` is `load x`, a PHP docblock is its lines without the comment's frame.
    /// `None`: the token as written.
    fn load_spelling(&self, _lx: &crate::testsig::lex::Lexed, _i: usize) -> Option<String> {
        None
    }

    /// Characters that, in a plain string literal, make its quotes matter beyond a quote or a backslash
    /// (`norm`): Ruby's `#`, which interpolates between double quotes only.
    fn quote_sensitive(&self) -> &'static [char] {
        &[]
    }

    /// Whether a method call's parentheses are optional, so that `eq(3)` ending a line is `eq 3` (`norm`).
    fn optional_call_parens(&self) -> bool {
        false
    }

    /// Whether a trailing comma before `)` can make a one-element tuple (`(x,)`), so it is kept (`norm`).
    fn tuple_comma(&self) -> bool {
        false
    }

    /// Tests read from a source module read inline beside its code (Python's doctests; `sig::scan`).
    fn inline_doctests(&self, _lx: &Lexed) -> Option<Node> {
        None
    }

    /// Records the rows of the table of test cases starting at token `i` of a unit that starts at token
    /// `unit_start` (`table::rows`), and returns the token to look at next.
    fn table_rows(&self, _lx: &Lexed, i: usize, _unit_start: usize, _out: &mut Vec<Range<usize>>) -> usize {
        i + 1
    }

    /// The argument at token `i` that passes a table of test cases whole, which may be a name bound elsewhere
    /// (`parametrize("a,b", CASES)`, `.each(CASES)`; `table::names`).
    fn table_argument(&self, _lx: &Lexed, _i: usize) -> Option<Range<usize>> {
        None
    }

    /// The names of the functions or lists that are tables of test cases by declaration, whatever their
    /// content (PHPUnit's data providers; `table::names`).
    fn declared_tables(&self, _lx: &Lexed) -> Vec<String> {
        Vec::new()
    }

    /// The token that names the list a statement at `s` binds (`CASES = [`: `s`; `const CASES = [`: `s + 1`),
    /// where a table may be bound by name (`table::named_table`).
    fn table_binding(&self, _lx: &Lexed, _s: usize) -> Option<usize> {
        None
    }
}

/// Every language the scanner reads: each registered folder's `Syntax` (`src/ecosystem/<name>/language.rs`).
pub(super) const LANGUAGES: &[&dyn Language] = &each_language!(&Syntax);

/// What the scanner knows of `lang`: its row of [`LANGUAGES`]. Every [`Lang`] has one (a test checks each of
/// `Lang::ALL`), so the lookup cannot fail but by a table left incomplete.
pub(crate) fn language(lang: Lang) -> &'static dyn Language {
    LANGUAGES
        .iter()
        .copied()
        .find(|language| language.lang() == lang)
        .expect("every `Lang` has a row of `testsig::LANGUAGES` (tested)")
}
