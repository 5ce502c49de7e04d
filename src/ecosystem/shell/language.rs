//! What the test-file scanner asks of the shell (`testsig::Language`): bats' `.bats` files.

use crate::testsig::Lang;

super::syntax! {
    lang: Lang::Shell,
    lex: crate::testsig::lex::shell::lex,
    units: super::super::shell::units,
    marker: crate::testsig::markers::shell::at;

    /// bats runs `.bats` files, wherever they are; a `.sh` file is code.
    fn is_test_name(&self, _name: &str, _stem: &str) -> bool {
        true
    }
}
