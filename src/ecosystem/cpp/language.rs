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

    /// `#include "calc.h"`: the file beside the test first (the quoted form's own rule), then the usual include
    /// directories (the project's root, `include/`, `src/`); the build's own are only the build's to know
    /// (`testseal::renamed` looks for the path anywhere in the project).
    fn import_path(&self, import: &str, _names: &[String], dir: &std::path::Path) -> Option<crate::testsig::ImportPath> {
        let rest = import.trim_start().strip_prefix('#')?.trim_start().strip_prefix("include")?.trim();
        let spelled = rest.strip_prefix('"')?.split('"').next()?;
        (!spelled.is_empty() && !spelled.starts_with('/')).then(|| crate::testsig::ImportPath {
            spelled: spelled.to_string(),
            quoted: true,
            candidates: ["", "include", "src"]
                .iter()
                .map(|place| std::path::Path::new(place).join(spelled))
                .chain(std::iter::once(dir.join(spelled)))
                .collect(),
            tail: spelled.into(),
            binds: false,
            unless: Vec::new(),
        })
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
