//! What the test-file scanner asks of Go (`testsig::Language`): `*_test.go`, build constraints as markers, and
//! table-driven tests' `[]struct{…}{…}` rows. Its lexer is the C-like one the others share (`lex::GO`).

use std::ops::Range;

use crate::testsig::Lang;
use crate::testsig::lex::Lexed;
use crate::testsig::markers::Found;
use crate::testsig::table::list_rows;

super::syntax! {
    lang: Lang::Go,
    lex: |cur| crate::testsig::lex::clike::lex(cur, &crate::testsig::lex::GO),
    units: super::super::go::units,
    marker: crate::testsig::markers::go::at;

    fn file_markers(&self, lx: &Lexed, out: &mut Vec<Found>) {
        crate::testsig::markers::go::constraints(lx, out);
    }

    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.ends_with("_test")
    }

    fn table_rows(&self, lx: &Lexed, i: usize, _unit_start: usize, out: &mut Vec<Range<usize>>) -> usize {
        if lx.is_word(i, "struct") && lx.is(i + 1, b'{') && i > 0 && lx.is(i - 1, b']') {
            let literal = lx.skip(i + 1);
            list_rows(lx, literal, out);
        }
        i + 1
    }
}
