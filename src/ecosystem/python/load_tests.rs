//! unittest's documented `load_tests` for a package, told apart from every other `load_tests`.
//!
//! A `load_tests` in a test package is setup: discovery hands it the package's tests and runs whatever suite it
//! returns, so it can drop a test or hand back one of the same id with another body, and the test seal counts a
//! new or changed one. But the Python documentation gives one form for a package's `__init__.py`:
//!
//! ```python
//! def load_tests(loader, standard_tests, pattern):
//!     this_dir = os.path.dirname(__file__)
//!     package_tests = loader.discover(start_dir=this_dir, pattern=pattern)
//!     standard_tests.addTests(package_tests)
//!     return standard_tests
//! ```
//!
//! and developers paste it when they turn a test directory into a package with its own loading. That form runs
//! the same discovery unittest would have run below the package (the loader keeps the outer top-level directory,
//! so the ids are the same) and adds every test it finds to the package's own: it returns exactly what having no
//! `load_tests` returns. So it is no setup, and [`is_documented`] lets the seal treat it as a helper.
//!
//! **How it is told.** Token by token, against the documented form and its everyday spellings: the parameters
//! and locals renamed (consistently), the directory inlined or named, the found tests inlined or named, `abspath`
//! or `realpath` inside `dirname`, `discover`'s arguments by keyword or position. No decorator, no other
//! statement, no default, no `top_level_dir`, no other pattern (`pattern or "test*.py"` is a choice of its own):
//! anything else is setup as before. A comment or a blank line changes nothing (they are not tokens).
//!
//! **What it trusts.** That `os` is the standard module the file imported: code elsewhere in the module that
//! rebinds it is module-level code, counted on its own; and a `discover` from any other directory cannot name
//! the sealed tests' modules (unittest names a test module by its path below the top-level directory), so what
//! it would find is judged by name like any other test.

use crate::testsig::lex::{Lexed, TokKind};

/// The directory of the package's `__init__.py`, as the documentation and its variants spell it.
const DIRECTORIES: [&str; 3] = [
    "os . path . dirname ( __file__ )",
    "os . path . dirname ( os . path . abspath ( __file__ ) )",
    "os . path . dirname ( os . path . realpath ( __file__ ) )",
];

/// `discover` of `DIR` with the pattern discovery passed, by keyword or position.
const DISCOVERIES: [&str; 3] = [
    "$L . discover ( start_dir = DIR , pattern = $P )",
    "$L . discover ( DIR , $P )",
    "$L . discover ( DIR , pattern = $P )",
];

/// Whether the tokens `from..to` (a whole `def load_tests…` statement, decorators included) are the
/// documented form in one of its spellings.
pub(super) fn is_documented(lx: &Lexed, from: usize, to: usize) -> bool {
    let tokens: Vec<(&str, bool)> = (from..to)
        .filter(|&i| lx.kind(i) != Some(TokKind::Cont))
        .map(|i| (lx.s(i), lx.kind(i) == Some(TokKind::Ident)))
        .collect();
    spellings().any(|pattern| matches(&pattern, &tokens))
}

/// Every spelling, as whitespace-separated tokens with `$NAME` binding any one identifier.
fn spellings() -> impl Iterator<Item = String> {
    DIRECTORIES.into_iter().flat_map(|dir| {
        DISCOVERIES.into_iter().flat_map(move |discovery| {
            [(false, false), (false, true), (true, false), (true, true)].map(move |(named_dir, named_tests)| {
                let mut text = String::from("def load_tests ( $L , $S , $P ) : ");
                let discovery = if named_dir {
                    text.push_str(&format!("$D = {dir} "));
                    discovery.replace("DIR", "$D")
                } else {
                    discovery.replace("DIR", dir)
                };
                if named_tests {
                    text.push_str(&format!("$T = {discovery} $S . addTests ( $T ) "));
                } else {
                    text.push_str(&format!("$S . addTests ( {discovery} ) "));
                }
                text.push_str("return $S");
                text
            })
        })
    })
}

/// Whether `tokens` (each with whether it is an identifier) spell `pattern` exactly, each `$NAME` standing for
/// one identifier, the same one wherever it recurs, and no two names for the same identifier.
fn matches(pattern: &str, tokens: &[(&str, bool)]) -> bool {
    let words: Vec<&str> = pattern.split_whitespace().collect();
    if words.len() != tokens.len() {
        return false;
    }
    let mut bound: Vec<(&str, &str)> = Vec::new();
    words.iter().zip(tokens).all(|(&word, &(token, ident))| {
        let Some(name) = word.strip_prefix('$') else {
            return word == token;
        };
        if !ident || KEYWORDS.contains(&token) || token == "os" || token == "__file__" {
            return false;
        }
        match bound.iter().find(|(n, t)| *n == name || *t == token) {
            Some(&(n, t)) => n == name && t == token,
            None => {
                bound.push((name, token));
                true
            }
        }
    })
}

/// Python's keywords and the builtin constants, which no parameter or local can be named.
const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsig::Lang;
    use crate::testsig::lex::lex;

    fn documented(src: &str) -> bool {
        let lx = lex(Lang::Python, src);
        is_documented(&lx, 0, lx.toks.len())
    }

    #[test]
    fn the_documented_form_and_its_everyday_spellings_are_told() {
        assert!(documented(
            "def load_tests(loader, standard_tests, pattern):\n    this_dir = os.path.dirname(__file__)\n    package_tests = loader.discover(start_dir=this_dir, pattern=pattern)\n    standard_tests.addTests(package_tests)\n    return standard_tests\n"
        ));
        // Renamed, inlined, by position, with a comment and a continued line.
        assert!(documented(
            "def load_tests(ldr, tests, pat):\n    # the package's own tests and everything below it\n    tests.addTests(ldr.discover(os.path.dirname(os.path.abspath(__file__)), \\\n        pat))\n    return tests\n"
        ));
    }

    #[test]
    fn every_other_load_tests_is_not() {
        let not = [
            // It filters what discovery found.
            "def load_tests(loader, standard_tests, pattern):\n    found = loader.discover(start_dir=os.path.dirname(__file__), pattern=pattern)\n    return unittest.TestSuite(t for t in found if 'add' not in t.id())\n",
            // Another pattern of its own.
            "def load_tests(loader, standard_tests, pattern):\n    standard_tests.addTests(loader.discover(os.path.dirname(__file__), pattern or 'test*.py'))\n    return standard_tests\n",
            // Another top-level directory.
            "def load_tests(loader, standard_tests, pattern):\n    standard_tests.addTests(loader.discover(os.path.dirname(__file__), pattern, top_level_dir='tests'))\n    return standard_tests\n",
            // It returns what it discovered, not the package's own tests with it.
            "def load_tests(loader, standard_tests, pattern):\n    return loader.discover(os.path.dirname(__file__), pattern)\n",
            // Two names for one variable, so the pattern's roles are mixed.
            "def load_tests(loader, standard_tests, pattern):\n    standard_tests.addTests(loader.discover(os.path.dirname(__file__), loader))\n    return standard_tests\n",
            // A statement more.
            "def load_tests(loader, standard_tests, pattern):\n    standard_tests.addTests(loader.discover(os.path.dirname(__file__), pattern))\n    standard_tests._tests.pop()\n    return standard_tests\n",
            // Decorated.
            "@patched\ndef load_tests(loader, standard_tests, pattern):\n    standard_tests.addTests(loader.discover(os.path.dirname(__file__), pattern))\n    return standard_tests\n",
            // A default for the pattern.
            "def load_tests(loader, standard_tests, pattern='x*.py'):\n    standard_tests.addTests(loader.discover(os.path.dirname(__file__), pattern))\n    return standard_tests\n",
            // Another directory.
            "def load_tests(loader, standard_tests, pattern):\n    standard_tests.addTests(loader.discover(os.path.dirname(os.path.dirname(__file__)), pattern))\n    return standard_tests\n",
        ];
        for src in not {
            assert!(!documented(src), "{src}");
        }
    }
}
