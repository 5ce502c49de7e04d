//! Whether the runners' naming conventions make a file (of a [`Lang`], see `schema`) a test file.
//!
//! The conventions are the runners' defaults: the `test/`, `tests/`, `__tests__/` and `spec/` directories most
//! projects keep tests in, here, and each language's own file names (pytest's `test_*.py`, Jest's `*.test.*`,
//! Go's `*_test.go`, …), answered in its folder (`testsig::Language::is_test_name`). `conftest.py` is
//! configuration, not a test file: the caller seals it whole.

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
    super::language(lang).is_test_name(name, stem)
}

/// Whether a file that is not a test file by convention may still hold tests, so it must be scanned too: Rust
/// source with inline tests, JavaScript with Vitest's in-source tests, a C++ source that includes GoogleTest. A
/// cheap substring check: it may say yes to a file without tests, never no to one with them (in the
/// conventional spellings). The runners that collect only conventionally named files answer no.
pub fn may_hold_tests(lang: Lang, text: &str) -> bool {
    super::language(lang).may_hold_tests(text)
}
