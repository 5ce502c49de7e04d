//! What the test-file scanner asks of PHP (`testsig::Language`): PHPUnit's file names, and its data providers,
//! whose returned lists are tables of test cases.

use std::ops::Range;

use crate::testsig::Lang;
use crate::testsig::lex::Lexed;
use crate::testsig::table::list_rows;

super::syntax! {
    lang: Lang::Php,
    lex: crate::testsig::lex::php::lex,
    units: super::super::php::units,
    marker: crate::testsig::markers::php::at;

    /// PHPUnit's default suffix (`Test.php`); a configured one is read by `testseal::rules`.
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.ends_with("Test")
    }

    /// A data provider's returned list: `return [...]` or `return array(...)`.
    fn table_rows(&self, lx: &Lexed, i: usize, unit_start: usize, out: &mut Vec<Range<usize>>) -> usize {
        if lx.is_word(i, "return") && super::super::php::provides(lx, unit_start) {
            let list = if lx.is_word(i + 1, "array") { i + 2 } else { i + 1 };
            list_rows(lx, list, out);
        }
        i + 1
    }

    fn declared_tables(&self, lx: &Lexed) -> Vec<String> {
        super::super::php::providers(lx)
    }
}
