//! What the test-file scanner asks of Python (`testsig::Language`): pytest's and unittest's file names, the
//! definitions a later one replaces, strings and tuples as a formatter sees them, `--doctest-modules`' examples,
//! and `@pytest.mark.parametrize`'s tables of test cases.

use std::ops::Range;

use crate::testsig::lex::{Lexed, TokKind};
use crate::testsig::table::{arguments, list_rows};
use crate::testsig::{Lang, Node, UnitKind};

super::syntax! {
    lang: Lang::Python,
    lex: crate::testsig::lex::python::lex,
    units: super::super::python::units,
    marker: crate::testsig::markers::python::at;

    /// pytest's `test_*.py` / `*_test.py` (`conftest.py` is configuration: `testsig::is_test_file` leaves it out).
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.starts_with("test_") || stem.ends_with("_test")
    }

    /// Its docstrings' examples, with `pytest --doctest-modules`.
    fn inline(&self) -> crate::testsig::Inline {
        crate::testsig::Inline::Doctests { prompt: ">>>" }
    }

    /// Every definition's name, and every name an import binds (`def parse(s): return 42` after `from mypkg
    /// import parse`).
    fn redefines(&self, kind: UnitKind) -> bool {
        matches!(
            kind,
            UnitKind::Test | UnitKind::Container | UnitKind::Helper | UnitKind::Setup
        )
    }

    /// `x as y` → `y`; `import a.b` → `a`; `from m import x` → `x`.
    fn import_binding<'n>(&self, module: &str, item: &'n str) -> Option<&'n str> {
        Some(match item.rsplit_once(" as ") {
            Some((_, alias)) => alias,
            None if module == "import" => item.split('.').next().unwrap_or(item),
            None => item,
        })
    }

    fn strings_by_value(&self) -> bool {
        true
    }

    fn tuple_comma(&self) -> bool {
        true
    }

    /// `from calc import add`, `from pkg.calc import add`, `from .calc import add`: a module of the project by
    /// its dotted name, as pytest's import modes put the test's own directory, the project's root and `src/` on
    /// the path (a relative one from the test's package). `import calc` binds the module's own name, which the
    /// tests then spell, so a rename of it renames those uses too (`binds`), where it is one plain name.
    fn import_path(&self, import: &str, names: &[String], dir: &std::path::Path) -> Option<crate::testsig::ImportPath> {
        let plain = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_');
        let (import, binds) = match (import, names) {
            ("import", [name]) if plain(name) => (name.as_str(), true),
            ("import", _) => return None,
            _ => (import, false),
        };
        let dots = import.len() - import.trim_start_matches('.').len();
        let module = &import[dots..];
        if module.is_empty() || !module.split('.').all(plain) {
            return None;
        }
        let rel: std::path::PathBuf = module.split('.').collect();
        let places: Vec<std::path::PathBuf> = if dots > 0 {
            let mut base = dir.to_path_buf();
            for _ in 1..dots {
                base = base.parent()?.to_path_buf();
            }
            vec![base]
        } else {
            let mut places: Vec<std::path::PathBuf> = dir.ancestors().map(std::path::Path::to_path_buf).collect();
            places.push("src".into());
            places
        };
        // In each place, a package before a module of the same name, as Python's path finder looks.
        let candidates = places
            .iter()
            .flat_map(|place| [place.join(&rel).join("__init__.py"), place.join(rel.with_extension("py"))])
            .collect();
        Some(crate::testsig::ImportPath {
            spelled: import.to_string(),
            quoted: false,
            candidates,
            tail: rel,
            binds,
            unless: Vec::new(),
        })
    }

    /// A module read inline is one `pytest --doctest-modules` collects: its docstring examples.
    fn inline_doctests(&self, lx: &Lexed) -> Option<Node> {
        crate::testsig::doctest::python::container(lx)
    }

    fn table_rows(&self, lx: &Lexed, i: usize, _unit_start: usize, out: &mut Vec<Range<usize>>) -> usize {
        if lx.is_word(i, "parametrize") && lx.is(i + 1, b'(') {
            parametrize(lx, i + 1, out);
        }
        i + 1
    }

    fn table_argument(&self, lx: &Lexed, i: usize) -> Option<Range<usize>> {
        (lx.is_word(i, "parametrize") && lx.is(i + 1, b'('))
            .then(|| arguments(lx, i + 1).get(1).cloned())
            .flatten()
    }

    /// `CASES = [`.
    fn table_binding(&self, _lx: &Lexed, s: usize) -> Option<usize> {
        Some(s)
    }
}

/// `parametrize(names, [rows], ids=[…])`: the rows of the second argument (or `argvalues=`) and of `ids=`.
fn parametrize(lx: &Lexed, open: usize, out: &mut Vec<Range<usize>>) {
    for (n, argument) in arguments(lx, open).into_iter().enumerate() {
        let keyword = lx.kind(argument.start) == Some(TokKind::Ident) && lx.is(argument.start + 1, b'=');
        let value = if keyword { argument.start + 2 } else { argument.start };
        let table = if keyword {
            matches!(lx.s(argument.start), "argvalues" | "ids")
        } else {
            n == 1
        };
        if table && (lx.is(value, b'[') || lx.is(value, b'(')) {
            list_rows(lx, value, out);
        }
    }
}
