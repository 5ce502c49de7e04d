//! Rust doctests: the code blocks of doc comments are tests of the source file they document.

use super::{Case, END, run_table};
use crate::testscan::{Lang, Scope};

const LIB: &str = r#"//! Arithmetic.
//!
//! ```
//! assert_eq!(calc::add(2, 2), 4);
//! ```

/// Adds.
///
/// ```
/// assert_eq!(calc::add(1, 2), 3);
/// ```
///
/// ```text
/// not code
/// ```
#[inline]
pub fn add(a: i32, b: i32) -> i32 {
    a - b
}

/// Doubles.
///
/// ```rust,should_panic
/// calc::twice(i32::MAX);
/// ```
pub fn twice(a: i32) -> i32 {
    a * 2
}
"#;

const CASES: &[Case] = &[
    Case {
        name: "the code under test fixed",
        edits: &[("    a - b", "    a + b")],
        expect: &[],
    },
    Case {
        name: "a doc example reformatted, prose and a text block edited",
        edits: &[
            (
                "/// assert_eq!(calc::add(1, 2), 3);",
                "///     assert_eq!(calc::add(1, 2), 3);\n///",
            ),
            ("/// Adds.", "/// Adds two numbers."),
            ("/// not code", "/// still not code"),
        ],
        expect: &[],
    },
    Case {
        name: "a new doc example",
        edits: &[(
            "/// Doubles.",
            "/// Doubles.\n///\n/// ```\n/// assert_eq!(calc::twice(2), 4);\n/// ```",
        )],
        expect: &[],
    },
    Case {
        name: "a doc example weakened",
        edits: &[("/// assert_eq!(calc::add(1, 2), 3);", "/// assert!(true);")],
        expect: &["block Helper (doctests)::doctest add"],
    },
    Case {
        name: "a doc example ignored",
        edits: &[(
            "/// ```\n/// assert_eq!(calc::add(1, 2), 3);",
            "/// ```ignore\n/// assert_eq!(calc::add(1, 2), 3);",
        )],
        expect: &["block Helper (doctests)::doctest add"],
    },
    Case {
        name: "a doc example deleted, a module example weakened",
        edits: &[
            (
                "///\n/// ```rust,should_panic\n/// calc::twice(i32::MAX);\n/// ```\n",
                "",
            ),
            ("//! assert_eq!(calc::add(2, 2), 4);", "//! let _ = 1;"),
        ],
        expect: &[
            "block Helper (doctests)::doctest twice",
            "block Helper (doctests)::doctest (module)",
        ],
    },
    Case {
        name: "code appended",
        edits: &[(END, "\npub fn three() -> i32 {\n    3\n}\n")],
        expect: &[],
    },
];

#[test]
fn doctests_are_tests_of_the_source_file() {
    run_table(Lang::Rust, Scope::Inline, LIB, CASES);
    assert!(crate::testscan::may_hold_tests(Lang::Rust, LIB));
}
