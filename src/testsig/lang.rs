//! Whether the runners' naming conventions make a file (of a [`Lang`], see `schema`) a test file.
//!
//! The conventions are the runners' defaults: pytest's `test_*.py` / `*_test.py`, Jest's and Vitest's
//! `*.test.*` / `*.spec.*` and `__tests__/`, Go's `*_test.go`, Cargo's `tests/`, and the `test/`, `tests/`,
//! `spec/` directories most projects keep tests in. `conftest.py` is configuration, not a test file: the caller
//! seals it whole.

use std::path::Path;

use crate::schema::Lang;

/// Directories whose source files are test files.
const TEST_DIRS: [&str; 4] = ["tests", "test", "__tests__", "spec"];

/// Whether `path` (relative to the project root) is a test file by convention. Only files of a [`Lang`] count.
pub fn is_test_file(path: &Path) -> bool {
    let Some(lang) = Lang::of(path) else {
        return false;
    };
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return false;
    };
    if name == "conftest.py" {
        return false;
    }
    let in_test_dir = path.parent().is_some_and(|dir| {
        dir.iter()
            .any(|part| part.to_str().is_some_and(|part| TEST_DIRS.contains(&part)))
    });
    if in_test_dir {
        return true;
    }
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    match lang {
        Lang::Python => stem.starts_with("test_") || stem.ends_with("_test"),
        Lang::Go => stem.ends_with("_test"),
        // bats runs `.bats` files, wherever they are; a `.sh` file is code.
        Lang::Shell => true,
        // GoogleTest's `calc_test.cc`, `calc_unittest.cc`; Catch2's `test_calc.cpp`. A header is a test file only
        // in a test directory (above).
        Lang::Cpp => {
            !is_header(name)
                && (stem.ends_with("_test")
                    || stem.ends_with("_tests")
                    || stem.ends_with("_unittest")
                    || stem.starts_with("test_"))
        }
        // minitest's `*_test.rb` / `test_*.rb`, RSpec's `*_spec.rb`; anywhere under `test/` or `spec/` (helpers
        // such as `test_helper.rb`, `spec/support/*.rb` included) is handled above.
        Lang::Ruby => stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_spec"),
        // PHPUnit's default suffix (`Test.php`); a configured one is read by `testseal::rules`.
        Lang::Php => stem.ends_with("Test"),
        // Surefire's default includes (`**/*Test.java`, `**/Test*.java`, `**/*Tests.java`, `**/*TestCase.java`);
        // Maven's `src/test/java/` is a test directory (above). A configured `testSourceDirectory` is sealed with
        // the pom (`closure::pom`).
        Lang::Java => {
            stem.ends_with("Test")
                || stem.ends_with("Tests")
                || stem.ends_with("TestCase")
                || stem
                    .strip_prefix("Test")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
        }
        Lang::JavaScript => stem.ends_with(".test") || stem.ends_with(".spec"),
        // Cargo's integration tests live in `tests/`, handled above; inline tests are `may_hold_tests`' job.
        Lang::Rust => false,
    }
}

/// Whether a file that is not a test file by convention may still hold tests, so it must be scanned too: Rust
/// source with inline tests, JavaScript with Vitest's in-source tests. A cheap substring check: it may say yes
/// to a file without tests, never no to one with them (in the conventional spellings).
pub fn may_hold_tests(lang: Lang, text: &str) -> bool {
    match lang {
        Lang::Rust => [
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
        .any(|needle| text.contains(needle)),
        Lang::JavaScript => text.contains("import.meta.vitest"),
        // A C++ source that includes GoogleTest or Catch2 is a test source, whatever its name.
        Lang::Cpp => ["gtest/gtest.h", "gmock/gmock.h", "catch2/", "catch.hpp"]
            .iter()
            .any(|needle| text.contains(needle)),
        // A Java source that imports JUnit holds tests, whatever its name or place.
        Lang::Java => text.contains("org.junit"),
        // pytest and `go test` collect only conventionally named files.
        Lang::Python | Lang::Go | Lang::Shell | Lang::Ruby | Lang::Php => false,
    }
}

/// Whether a C++ file name is a header's (`.h`, `.hh`, `.hpp`, `.hxx`).
fn is_header(name: &str) -> bool {
    [".h", ".hh", ".hpp", ".hxx"].iter().any(|ext| name.ends_with(ext))
}
