//! File conventions.

use std::path::Path;

use crate::testsig::{Lang, is_test_file, may_hold_tests};

#[test]
fn languages_by_extension() {
    let table: &[(&str, Option<Lang>)] = &[
        ("a.py", Some(Lang::Python)),
        ("a.rs", Some(Lang::Rust)),
        ("a.go", Some(Lang::Go)),
        ("a.js", Some(Lang::JavaScript)),
        ("a.jsx", Some(Lang::JavaScript)),
        ("a.mjs", Some(Lang::JavaScript)),
        ("a.cjs", Some(Lang::JavaScript)),
        ("a.ts", Some(Lang::JavaScript)),
        ("a.tsx", Some(Lang::JavaScript)),
        ("a.mts", Some(Lang::JavaScript)),
        ("a.cts", Some(Lang::JavaScript)),
        ("a.json", None),
        ("Makefile", None),
        ("a.py.orig", None),
    ];
    for (path, want) in table {
        assert_eq!(Lang::of(Path::new(path)), *want, "{path}");
    }
}

#[test]
fn test_files_by_convention() {
    let table: &[(&str, bool)] = &[
        ("tests/test_parse.py", true),
        ("test_parse.py", true),
        ("pkg/parse_test.py", true),
        ("tests/helpers.py", true),
        ("pkg/parse.py", false),
        ("tests/conftest.py", false),
        ("conftest.py", false),
        ("src/parse.test.ts", true),
        ("src/parse.spec.js", true),
        ("src/__tests__/parse.tsx", true),
        ("spec/parse.mjs", true),
        ("src/parse.ts", false),
        ("src/testing.ts", false),
        ("calc/eval_test.go", true),
        ("calc/eval.go", false),
        ("tests/cli.rs", true),
        ("tests/common/mod.rs", true),
        ("src/lib.rs", false),
        ("test/fixtures/data.json", false),
        ("tests/snapshots/x.snap", false),
    ];
    for (path, want) in table {
        assert_eq!(is_test_file(Path::new(path)), *want, "{path}");
    }
}

#[test]
fn source_files_that_may_hold_tests() {
    let table: &[(Lang, &str, bool)] = &[
        (Lang::Rust, "pub fn f() {}\n#[cfg(test)]\nmod tests {}\n", true),
        (Lang::Rust, "#[tokio::test]\nasync fn t() {}\n", true),
        (Lang::Rust, "pub fn f() {}\n", false),
        (Lang::JavaScript, "if (import.meta.vitest) {}\n", true),
        (Lang::JavaScript, "export const f = 1\n", false),
        (Lang::Python, "def test_x(): pass\n", false),
        (Lang::Go, "func TestX(t *testing.T) {}\n", false),
    ];
    for (lang, text, want) in table {
        assert_eq!(may_hold_tests(*lang, text), *want, "{lang:?}: {text}");
    }
}

/// Every language has exactly one row of the scanner's table, answering for it, so `testsig::language` never
/// misses (its `expect`) and no language is read by another's rules.
#[test]
fn every_lang_has_one_language_row() {
    use crate::testsig::language::LANGUAGES;
    for lang in Lang::ALL {
        let rows = LANGUAGES.iter().filter(|language| language.lang() == lang).count();
        assert_eq!(rows, 1, "{lang:?} has {rows} rows in `testsig::LANGUAGES`");
        assert_eq!(crate::testsig::language(lang).lang(), lang);
    }
    assert_eq!(
        LANGUAGES.len(),
        Lang::ALL.len(),
        "a row for a language not in `Lang::ALL`"
    );
}
