//! What the test-file scanner asks of JavaScript and TypeScript (`testsig::Language`): Jest's and Vitest's file
//! names and in-source tests, function declarations a later one replaces, strings compared by value, and
//! `.each(…)`'s tables of test cases.

use std::ops::Range;

use crate::testsig::lex::Lexed;
use crate::testsig::table::{arguments, list_rows};
use crate::testsig::{Lang, UnitKind};

super::syntax! {
    lang: Lang::JavaScript,
    lex: |cur| crate::testsig::lex::clike::lex(cur, &crate::testsig::lex::js::DIALECT),
    units: super::super::js::units,
    marker: crate::testsig::markers::js::at;

    /// `*.test.*` / `*.spec.*` (and anything under `__tests__/`, which `testsig::is_test_file` reads).
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.ends_with(".test") || stem.ends_with(".spec")
    }

    /// Vitest's in-source tests.
    fn inline(&self) -> crate::testsig::Inline {
        crate::testsig::Inline::Always
    }

    /// Vitest's in-source tests.
    fn may_hold_tests(&self, text: &str) -> bool {
        text.contains("import.meta.vitest")
    }

    /// `'./x'`, `'../src/calc.js'`: relative to the test file, as written, then with node's and the bundlers'
    /// extensions and as a directory's index; a bare name is a package.
    fn import_path(&self, import: &str, _names: &[String], dir: &std::path::Path) -> Option<crate::testsig::ImportPath> {
        relative_import(import, dir)
    }

    /// A function declaration.
    fn redefines(&self, kind: UnitKind) -> bool {
        kind == UnitKind::Helper
    }

    fn strings_by_value(&self) -> bool {
        true
    }

    fn table_rows(&self, lx: &Lexed, i: usize, _unit_start: usize, out: &mut Vec<Range<usize>>) -> usize {
        if each_at(lx, i)
            && let Some(first) = arguments(lx, i + 1).first()
        {
            list_rows(lx, first.start, out);
        }
        i + 1
    }

    fn table_argument(&self, lx: &Lexed, i: usize) -> Option<Range<usize>> {
        each_at(lx, i).then(|| arguments(lx, i + 1).first().cloned()).flatten()
    }

    /// `const CASES = [` or `let CASES = [`.
    fn table_binding(&self, lx: &Lexed, s: usize) -> Option<usize> {
        (lx.is_word(s, "const") || lx.is_word(s, "let")).then_some(s + 1)
    }
}

/// Whether token `i` is the `each` of `.each(`.
fn each_at(lx: &Lexed, i: usize) -> bool {
    lx.is_word(i, "each") && lx.is(i + 1, b'(') && i > 0 && lx.is(i - 1, b'.')
}

/// The extensions a relative specifier may leave out, in node's order and then the bundlers'.
const EXTENSIONS: [&str; 6] = [".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx"];

fn relative_import(import: &str, dir: &std::path::Path) -> Option<crate::testsig::ImportPath> {
    if !(import.starts_with("./") || import.starts_with("../")) || import.contains(['*', '?', '$', '`']) {
        return None;
    }
    let base = dir.join(import);
    let mut candidates = vec![base.clone()];
    for ext in EXTENSIONS {
        candidates.push(std::path::PathBuf::from(format!("{}{ext}", base.display())));
    }
    for ext in EXTENSIONS {
        candidates.push(base.join(format!("index{ext}")));
    }
    Some(crate::testsig::ImportPath {
        spelled: import.to_string(),
        quoted: true,
        candidates,
        tail: import.into(),
        binds: false,
        // A directory's `main` or `exports` is read before its `index.js`.
        unless: vec![base.join("package.json")],
    })
}
