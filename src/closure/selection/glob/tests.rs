//! The matcher against picomatch's own answers (`picomatch.isMatch(path, glob, {dot: true})`, the options Jest's
//! `globsToMatcher` and Vitest's tinyglobby pass), by class: extglobs `?(…)` `+(…)` `*(…)` `@(…)`, braces,
//! `**`, dotted files and directories, `node_modules`, classes, escapes. The table was printed by picomatch
//! 4 as Jest 30.5.2 and Vitest 4.1.12 install it; a row that disagrees is a matcher that would misjudge a
//! selection.

use super::Glob;

/// (glob, path, whether picomatch matches it).
const PICOMATCH: &[(&str, &str, bool)] = &[
    ("**/?(*.)+(spec|test).[jt]s?(x)", "a.test.js", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "src/a.spec.tsx", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "a.test.jsx", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "test.js", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "spec.ts", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "x/y/foo.test.ts", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "foo.tests.js", false),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "a.test.mjs", false),
    ("**/?(*.)+(spec|test).[jt]s?(x)", ".hidden/a.test.js", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "a/.b.test.js", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "a.testtest.js", true),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "atest.js", false),
    ("**/?(*.)+(spec|test).[jt]s?(x)", "a.test.cjs", false),
    ("**/__tests__/**/*.?([mc])[jt]s?(x)", "__tests__/a.js", true),
    ("**/__tests__/**/*.?([mc])[jt]s?(x)", "src/__tests__/deep/a.mts", true),
    ("**/__tests__/**/*.?([mc])[jt]s?(x)", "src/__tests__/a.json", false),
    ("**/__tests__/**/*.?([mc])[jt]s?(x)", "__tests__.js", false),
    ("**/__tests__/**/*.?([mc])[jt]s?(x)", "x/__tests__/a.cjs", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "a.test.js", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "a/b/c.spec.mts", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "a.test.cjs", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "a.tst.js", false),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "a.test.mjsx", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "node_modules/x/a.test.js", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", ".git/a.test.js", true),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "a.test.jsxx", false),
    ("**/*.{test,spec}.?(c|m)[jt]s?(x)", "test.js", false),
    ("test/**/*.test.js", "test/a.test.js", true),
    ("test/**/*.test.js", "test/x/y/a.test.js", true),
    ("test/**/*.test.js", "tests/a.test.js", false),
    ("test/**/*.test.js", "a/test/a.test.js", false),
    ("test/**/*.test.js", "test/.a.test.js", true),
    ("**/node_modules/**", "node_modules/a.js", true),
    ("**/node_modules/**", "a/node_modules/b/c.js", true),
    ("**/node_modules/**", "node_modulesx/a.js", false),
    ("**/node_modules/**", "a.js", false),
    ("**/.git/**", ".git/config", true),
    ("**/.git/**", "a/.git/x", true),
    ("**/.git/**", ".gitx/a", false),
    ("{src,lib}/**/*.{js,ts}", "src/a.js", true),
    ("{src,lib}/**/*.{js,ts}", "lib/x/b.ts", true),
    ("{src,lib}/**/*.{js,ts}", "other/a.js", false),
    ("{src,lib}/**/*.{js,ts}", "src/a.jsx", false),
    ("*.js", "a.js", true),
    ("*.js", "x/a.js", false),
    ("*.js", ".a.js", true),
    ("?(a|b)*.js", "a1.js", true),
    ("?(a|b)*.js", "c1.js", true),
    ("?(a|b)*.js", "1.js", true),
    ("*(ab).js", ".js", true),
    ("*(ab).js", "abab.js", true),
    ("*(ab).js", "aba.js", false),
    ("@(x|y)/*.js", "x/1.js", true),
    ("@(x|y)/*.js", "y/2.js", true),
    ("@(x|y)/*.js", "z/3.js", false),
    ("@(x|y)/*.js", "xy/4.js", false),
    ("a\\*b.js", "a*b.js", true),
    ("a\\*b.js", "axb.js", false),
];

#[test]
fn every_row_agrees_with_picomatch() {
    for (glob, path, expected) in PICOMATCH {
        let compiled = Glob::new(glob).unwrap_or_else(|| panic!("{glob} should compile"));
        assert_eq!(compiled.is_match(path), *expected, "{glob} on {path}");
    }
}

#[test]
fn what_it_cannot_spell_exactly_is_refused() {
    // A negated class picomatch reads otherwise than a shell (`**/*.[!j]s` matches `a.js` there), a negated
    // glob or extglob, a range, a lone brace, a slash inside an extglob, an unclosed class.
    for glob in [
        "**/*.[!j]s",
        "!**/*.js",
        "!(a).js",
        "{1..3}.js",
        "{a}.js",
        "+(a/b).js",
        "[ab.js",
        "a}.js",
    ] {
        assert!(Glob::new(glob).is_none(), "{glob}");
    }
}
