//! What the test-file scanner asks of Ruby (`testsig::Language`): minitest's and RSpec's file names, and the
//! methods a later definition replaces.

use crate::testsig::{Lang, UnitKind};

super::syntax! {
    lang: Lang::Ruby,
    lex: crate::testsig::lex::ruby::lex,
    units: super::super::ruby::units,
    marker: crate::testsig::markers::ruby::at;

    /// minitest's `*_test.rb` / `test_*.rb`, RSpec's `*_spec.rb`; anywhere under `test/` or `spec/` (helpers such
    /// as `test_helper.rb`, `spec/support/*.rb` included) is read by `testsig::is_test_file`.
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_spec")
    }

    /// A method defined again in its class replaces the first (`def test_adds` twice); a group opened again
    /// (`describe Calc` twice, a class reopened) adds to it.
    fn redefines(&self, kind: UnitKind) -> bool {
        matches!(kind, UnitKind::Test | UnitKind::Helper)
    }

    /// `'a'` and `"a"` are one string where nothing in it interpolates or escapes (RuboCop's
    /// `Style/StringLiterals` switches them); `norm` keeps a `#` or a backslash by its quotes.
    fn strings_by_value(&self) -> bool {
        true
    }
}
