//! Which language a file is in, and whether the runners' naming conventions make it a test file.
//!
//! The conventions are the runners' defaults: pytest's `test_*.py` / `*_test.py`, Jest's and Vitest's
//! `*.test.*` / `*.spec.*` and `__tests__/`, Go's `*_test.go`, Cargo's `tests/`, and the `test/`, `tests/`,
//! `spec/` directories most projects keep tests in. `conftest.py` is configuration, not a test file: the caller
//! seals it whole.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// A language the scanner reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Python,
    /// JavaScript and TypeScript (`js`, `jsx`, `mjs`, `cjs`, `ts`, `tsx`, `mts`, `cts`).
    #[serde(rename = "js")]
    JavaScript,
    Rust,
    Go,
}

const JS_EXTENSIONS: [&str; 8] = ["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"];

/// Directories whose source files are test files.
const TEST_DIRS: [&str; 4] = ["tests", "test", "__tests__", "spec"];

impl Lang {
    /// The language of a file, by its extension; `None` for anything else.
    pub fn of(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?;
        match ext {
            "py" => Some(Lang::Python),
            "rs" => Some(Lang::Rust),
            "go" => Some(Lang::Go),
            _ if JS_EXTENSIONS.contains(&ext) => Some(Lang::JavaScript),
            _ => None,
        }
    }
}

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
        // pytest and `go test` collect only conventionally named files.
        Lang::Python | Lang::Go => false,
    }
}
