//! What the test-file scanner asks of Rust (`testsig::Language`): inline tests in any source, tuples kept by
//! their comma, and rstest's and test-case's `#[case(…)]` rows.

use std::ops::Range;

use crate::testsig::Lang;
use crate::testsig::lex::Lexed;

super::syntax! {
    lang: Lang::Rust,
    lex: |cur| crate::testsig::lex::clike::lex(cur, &crate::testsig::lex::rust::DIALECT),
    units: super::super::rust::units,
    marker: crate::testsig::markers::rust::at;

    /// Cargo's integration tests live in `tests/`, which `testsig::is_test_file` reads; inline tests are
    /// [`Self::may_hold_tests`]' job.
    fn is_test_name(&self, _name: &str, _stem: &str) -> bool {
        false
    }

    /// `#[cfg(test)]` modules and doctests, in any source.
    fn inline(&self) -> crate::testsig::Inline {
        crate::testsig::Inline::Always
    }

    fn may_hold_tests(&self, text: &str) -> bool {
        [
            "#[test",
            "test]",
            "test(",
            "#[cfg(test",
            "#[rstest",
            "proptest!",
            "#[bench",
            "/// ```",
            "//! ```",
        ]
        .iter()
        .any(|needle| text.contains(needle))
    }

    fn tuple_comma(&self) -> bool {
        true
    }

    fn table_rows(&self, lx: &Lexed, i: usize, _unit_start: usize, out: &mut Vec<Range<usize>>) -> usize {
        if !(lx.is(i, b'#') && lx.is(i + 1, b'[')) {
            return i + 1;
        }
        let end = lx.skip(i + 1);
        let name = super::super::rust::attribute_name(lx, &(i + 2..end.saturating_sub(1)));
        if matches!(name, "case" | "test_case") {
            out.push(i..end);
        }
        end
    }
}
