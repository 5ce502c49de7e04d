//! Rust: an integration test file (`tests/cli.rs`) with `#[test]`, `#[rstest]`, `#[tokio::test]` and
//! `proptest!`; a source file with `#[cfg(test)] mod tests`, read inline.

use super::{Case, END, run_table};
use crate::testsig::{Lang, Scope, UnitKind, parse};

const TESTS_FILE: &str = r##"//! Command-line tests.

use std::process::Command;

use proptest::prelude::*;
use rstest::rstest;

mod common;

/// Runs the binary.
fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_calc")).args(args).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn prints_help() {
    let out = run(&["--help"]);
    assert!(out.contains("Usage"), "{out}");
}

#[test]
fn rejects_bad_flag() {
    let out = run(&["--nope"]);
    assert!(out.contains(r#"unknown flag "--nope""#));
    assert_eq!('\'', '\'');
}

#[rstest]
#[case(1, 1)]
#[case(2, 4)]
fn squares(#[case] n: i64, #[case] want: i64) {
    assert_eq!(run(&["sq", &n.to_string()]), format!("{want}\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn serves<'a>() {
    let label: &'a str = "x";
    assert_eq!(label, "x");
}

proptest! {
    #[test]
    fn never_panics(s in ".*") {
        let _ = run(&[&s]);
    }
}
"##;

const TESTS_CASES: &[Case] = &[
    Case {
        name: "rustfmt-style reflow, trailing commas, doc and line comments",
        edits: &[
            (
                "    let out = Command::new(env!(\"CARGO_BIN_EXE_calc\")).args(args).output().unwrap();",
                "    // Spawn it.\n    let out = Command::new(env!(\"CARGO_BIN_EXE_calc\"))\n        .args(args)\n        .output()\n        .unwrap();",
            ),
            (
                "    assert!(out.contains(\"Usage\"), \"{out}\");",
                "    assert!(\n        out.contains(\"Usage\"),\n        \"{out}\",\n    );",
            ),
            (
                "/// Runs the binary.",
                "/// Runs the binary and returns its standard output.\n/* block /* nested */ comment */",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "new tests, a new helper, a new use and a new module",
        edits: &[
            ("use rstest::rstest;\n", "use rstest::rstest;\nuse std::path::Path;\n"),
            (
                END,
                "\nfn exists(p: &str) -> bool {\n    Path::new(p).exists()\n}\n\n#[test]\nfn prints_version() {\n    assert!(run(&[\"--version\"]).starts_with(\"calc\"));\n}\n\nmod more {\n    #[test]\n    fn empty() {}\n}\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a name added to a use, as a group",
        edits: &[("use std::process::Command;", "use std::process::{Command, Stdio};")],
        expect: &[],
    },
    Case {
        name: "a use pointed elsewhere",
        edits: &[("use std::process::Command;", "use crate::fake::Command;")],
        expect: &["block Import std::process (Command)"],
    },
    Case {
        name: "a new proptest inside the existing proptest! block",
        edits: &[(
            "        let _ = run(&[&s]);\n    }\n",
            "        let _ = run(&[&s]);\n    }\n\n    #[test]\n    fn any_number(n in 0i64..100) {\n        prop_assert!(n >= 0);\n    }\n",
        )],
        expect: &[],
    },
    Case {
        name: "a test body weakened",
        edits: &[(
            "    assert!(out.contains(\"Usage\"), \"{out}\");\n",
            "    let _ = out;\n",
        )],
        expect: &["changed prints_help"],
    },
    Case {
        name: "an rstest case added",
        edits: &[("#[case(2, 4)]\n", "#[case(2, 4)]\n#[case(3, 9)]\n")],
        expect: &[],
    },
    Case {
        name: "an rstest case changed",
        edits: &[("#[case(2, 4)]\n", "#[case(2, 5)]\n")],
        expect: &["changed squares"],
    },
    Case {
        name: "an rstest case removed",
        edits: &[("#[case(2, 4)]\n", "")],
        expect: &["changed squares"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "#[test]\nfn rejects_bad_flag() {\n    let out = run(&[\"--nope\"]);\n    assert!(out.contains(r#\"unknown flag \"--nope\"\"#));\n    assert_eq!('\\'', '\\'');\n}\n",
            "",
        )],
        expect: &["deleted rejects_bad_flag"],
    },
    Case {
        name: "a test's attribute removed: no longer a test",
        edits: &[("#[test]\nfn prints_help", "fn prints_help")],
        expect: &["deleted prints_help"],
    },
    Case {
        name: "a proptest deleted",
        edits: &[(
            "    #[test]\n    fn never_panics(s in \".*\") {\n        let _ = run(&[&s]);\n    }\n",
            "",
        )],
        expect: &["deleted proptest!::never_panics"],
    },
    Case {
        name: "the helper changed",
        edits: &[(
            "String::from_utf8_lossy(&out.stdout).into_owned()",
            "String::from(\"Usage\")",
        )],
        expect: &["block Helper run"],
    },
    Case {
        name: "a #[ctor] that runs before every test",
        edits: &[(
            END,
            "\n#[ctor::ctor]\nfn init() {\n    unsafe { std::env::set_var(\"CALC_LENIENT\", \"1\") };\n}\n",
        )],
        expect: &["setup Setup init"],
    },
    Case {
        name: "a new item-level macro call",
        edits: &[(END, "\ninclude!(\"lenient.rs\");\n")],
        expect: &["setup Other include!"],
    },
    Case {
        name: "a macro_rules! that shadows assert_eq!",
        edits: &[(
            "mod common;\n",
            "mod common;\n\nmacro_rules! assert_eq {\n    ($($t:tt)*) => {};\n}\n",
        )],
        expect: &["setup Other assert_eq"],
    },
    Case {
        name: "a use that shadows assert!",
        edits: &[(
            "use rstest::rstest;\n",
            "use rstest::rstest;\nuse calc::lenient::assert;\n",
        )],
        expect: &["setup Other use calc::lenient::assert;"],
    },
    Case {
        name: "a new macro of its own name is a helper",
        edits: &[(END, "\nmacro_rules! check {\n    ($e:expr) => { assert!($e) };\n}\n")],
        expect: &[],
    },
    Case {
        name: "#[ignore]",
        edits: &[(
            "#[test]\nfn rejects_bad_flag",
            "#[test]\n#[ignore = \"flaky\"]\nfn rejects_bad_flag",
        )],
        expect: &["changed rejects_bad_flag", "marker Ignore #[ignore = \"flaky\"]"],
    },
    Case {
        name: "#[should_panic]",
        edits: &[("#[test]\nfn prints_help", "#[test]\n#[should_panic]\nfn prints_help")],
        expect: &["changed prints_help", "marker Xfail #[should_panic]"],
    },
    Case {
        name: "#[cfg(any())] on a test",
        edits: &[("#[test]\nfn prints_help", "#[cfg(any())]\n#[test]\nfn prints_help")],
        expect: &["changed prints_help", "marker Exclude #[cfg(any())]"],
    },
    Case {
        name: "#[cfg(FALSE)] on a test",
        edits: &[("#[test]\nfn prints_help", "#[test]\n#[cfg(FALSE)]\nfn prints_help")],
        expect: &["changed prints_help", "marker Exclude #[cfg(FALSE)]"],
    },
    Case {
        name: "#[cfg(not(test))] on a test",
        edits: &[("#[test]\nfn prints_help", "#[test]\n#[cfg(not(test))]\nfn prints_help")],
        expect: &["changed prints_help", "marker Exclude #[cfg(not(test))]"],
    },
    Case {
        name: "#[cfg_attr(unix, ignore)]",
        edits: &[(
            "#[test]\nfn prints_help",
            "#[test]\n#[cfg_attr(unix, ignore)]\nfn prints_help",
        )],
        expect: &["changed prints_help", "marker Ignore #[cfg_attr(unix, ignore)]"],
    },
    Case {
        name: "an inner #![cfg(any())] switches the whole file off",
        edits: &[("//! Command-line tests.\n", "//! Command-line tests.\n#![cfg(any())]\n")],
        expect: &["setup Other #![cfg(any())]", "marker Exclude #![cfg(any())]"],
    },
    Case {
        name: "a platform cfg on a new test is not a disabler",
        edits: &[(END, "\n#[cfg(unix)]\n#[test]\nfn unix_only() {}\n")],
        expect: &[],
    },
    Case {
        name: "markers in comments and strings do not count",
        edits: &[(
            "    let out = run(&[\"--help\"]);\n",
            "    // #[ignore]\n    let out = run(&[\"--help\", \"#[ignore]\"]);\n",
        )],
        expect: &["changed prints_help"],
    },
];

#[test]
fn rust_tests_file_table() {
    run_table(Lang::Rust, Scope::TestFile, TESTS_FILE, TESTS_CASES);
}

#[test]
fn rust_units_have_the_expected_shape() {
    let units = parse(Lang::Rust, TESTS_FILE);
    let shape: Vec<(UnitKind, &str)> = units.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        shape,
        vec![
            (UnitKind::Import, "std::process"),
            (UnitKind::Import, "proptest::prelude"),
            (UnitKind::Import, "rstest"),
            (UnitKind::Import, "common"),
            (UnitKind::Helper, "run"),
            (UnitKind::Test, "prints_help"),
            (UnitKind::Test, "rejects_bad_flag"),
            (UnitKind::Test, "squares"),
            (UnitKind::Test, "serves"),
            (UnitKind::Container, "proptest!"),
        ]
    );
    assert_eq!(units[9].children[0].kind, UnitKind::Test);
}

const SOURCE_FILE: &str = r#"//! The evaluator.

use std::collections::HashMap;

/// Evaluates `text`.
pub fn eval(text: &str) -> Result<i64, String> {
    text.trim().parse().map_err(|e| format!("{e}"))
}

impl Default for Env {
    fn default() -> Self {
        Env(HashMap::new())
    }
}

pub struct Env(HashMap<String, i64>);

#[cfg(test)]
fn sample() -> &'static str {
    "42"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> i64 {
        eval(text).unwrap()
    }

    #[test]
    fn number() {
        assert_eq!(ok("42"), 42);
    }

    #[test]
    fn rejects_words() {
        assert!(eval("x").is_err());
    }

    mod nested {
        #[test]
        fn deep() {
            assert_eq!(super::super::eval("7"), Ok(7));
        }
    }
}
"#;

const SOURCE_CASES: &[Case] = &[
    Case {
        name: "the code under test changed",
        edits: &[(
            "    text.trim().parse().map_err(|e| format!(\"{e}\"))",
            "    text.trim().parse::<i64>().map_err(|e| e.to_string())",
        )],
        expect: &[],
    },
    Case {
        name: "new source items and a new test module",
        edits: &[(
            END,
            "\npub fn double(n: i64) -> i64 {\n    n * 2\n}\n\n#[cfg(test)]\nmod double_tests {\n    #[test]\n    fn doubles() {\n        assert_eq!(super::double(2), 4);\n    }\n}\n",
        )],
        expect: &[],
    },
    Case {
        name: "a new test inside the existing module",
        edits: &[(
            "    mod nested {",
            "    #[test]\n    fn negative() {\n        assert_eq!(ok(\"-1\"), -1);\n    }\n\n    mod nested {",
        )],
        expect: &[],
    },
    Case {
        name: "a test weakened",
        edits: &[(
            "        assert!(eval(\"x\").is_err());\n",
            "        let _ = eval(\"x\");\n",
        )],
        expect: &["changed tests::rejects_words"],
    },
    Case {
        name: "a nested test deleted",
        edits: &[(
            "        #[test]\n        fn deep() {\n            assert_eq!(super::super::eval(\"7\"), Ok(7));\n        }\n",
            "",
        )],
        expect: &["deleted tests::nested::deep"],
    },
    Case {
        name: "a test-only function outside the test module changed",
        edits: &[("    \"42\"\n}", "    \"0\"\n}")],
        expect: &["block Helper sample"],
    },
    Case {
        name: "the test helper changed",
        edits: &[("        eval(text).unwrap()", "        42")],
        expect: &["block Helper tests::ok"],
    },
    Case {
        name: "the test module switched off",
        edits: &[("#[cfg(test)]\nmod tests {", "#[cfg(any())]\nmod tests {")],
        expect: &["block Container tests", "marker Exclude #[cfg(any())]"],
    },
    Case {
        name: "the whole test module removed",
        edits: &[(
            "#[cfg(test)]\nmod tests {",
            "#[cfg(test)]\nmod tests_gone {}\nmod old {",
        )],
        expect: &[
            "deleted tests::number",
            "deleted tests::rejects_words",
            "deleted tests::nested::deep",
        ],
    },
    Case {
        name: "#[ignore] in the test module",
        edits: &[(
            "    #[test]\n    fn number()",
            "    #[test]\n    #[ignore]\n    fn number()",
        )],
        expect: &["changed tests::number", "marker Ignore #[ignore]"],
    },
];

#[test]
fn rust_inline_tests_table() {
    run_table(Lang::Rust, Scope::Inline, SOURCE_FILE, SOURCE_CASES);
}

#[test]
fn lifetimes_are_not_char_literals() {
    // A lexer that took `'a` for the start of a char literal would lose the braces after it.
    let text = "fn f<'a>(x: &'a str) -> &'a str { x }\n#[test]\nfn t() { let c = '{'; let q = '\\''; }\n";
    let units = parse(Lang::Rust, text);
    let kinds: Vec<UnitKind> = units.iter().map(|u| u.kind).collect();
    assert_eq!(kinds, vec![UnitKind::Helper, UnitKind::Test]);
}
