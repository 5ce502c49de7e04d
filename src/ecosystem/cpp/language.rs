//! What the test-file scanner asks of C and C++ (`testsig::Language`): GoogleTest's and Catch2's file names, and
//! a source that includes either.

use crate::testsig::Lang;

super::syntax! {
    lang: Lang::Cpp,
    lex: |cur| crate::testsig::lex::clike::lex(cur, &crate::testsig::lex::cpp::DIALECT),
    units: super::super::cpp::units,
    marker: crate::testsig::markers::cpp::at;

    /// GoogleTest's `calc_test.cc`, `calc_unittest.cc`; Catch2's `test_calc.cpp`. A header is a test file only in
    /// a test directory (which `testsig::is_test_file` reads).
    fn is_test_name(&self, name: &str, stem: &str) -> bool {
        !is_header(name)
            && (stem.ends_with("_test")
                || stem.ends_with("_tests")
                || stem.ends_with("_unittest")
                || stem.starts_with("test_"))
    }

    /// A source that includes GoogleTest or Catch2 is a test source, whatever its name.
    fn may_hold_tests(&self, text: &str) -> bool {
        ["gtest/gtest.h", "gmock/gmock.h", "catch2/", "catch.hpp"]
            .iter()
            .any(|needle| text.contains(needle))
    }
}

/// Whether a file name is a header's (`.h`, `.hh`, `.hpp`, `.hxx`).
fn is_header(name: &str) -> bool {
    [".h", ".hh", ".hpp", ".hxx"].iter().any(|ext| name.ends_with(ext))
}
