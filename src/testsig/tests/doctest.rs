//! Rust doctests: the code blocks of doc comments are tests of the source file they document.

use super::{Case, END, run_table};
use crate::testsig::{Lang, Scope};

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
        expect: &["block Helper (doctests)::doctest add: assert_eq!(calc::add(1, 2), 3);"],
    },
    Case {
        name: "a doc example ignored",
        edits: &[(
            "/// ```\n/// assert_eq!(calc::add(1, 2), 3);",
            "/// ```ignore\n/// assert_eq!(calc::add(1, 2), 3);",
        )],
        expect: &["block Helper (doctests)::doctest add: assert_eq!(calc::add(1, 2), 3);"],
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
            "block Helper (doctests)::doctest twice: calc::twice(i32::MAX);",
            "block Helper (doctests)::doctest (module): assert_eq!(calc::add(2, 2), 4);",
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
    assert!(crate::testsig::may_hold_tests(Lang::Rust, LIB));
}

const MODULE: &str = r#""""Arithmetic.

>>> add(2, 2)
4
"""


def add(a, b):
    """Adds.

    >>> add(1, 2)
    3
    """
    return a - b


def note():
    "not an example: >>> here"
    x = """>>> not a docstring"""
    return x
"#;

const PY_CASES: &[Case] = &[
    Case {
        name: "the code fixed and the prose edited",
        edits: &[
            ("return a - b", "return a + b"),
            ("\"\"\"Adds.", "\"\"\"Adds two numbers."),
        ],
        expect: &[],
    },
    Case {
        name: "a new example and a string that is no docstring",
        edits: &[
            ("    3\n    \"\"\"", "    3\n    >>> add(0, 0)\n    0\n    \"\"\""),
            (
                "x = \"\"\">>> not a docstring\"\"\"",
                "x = \"\"\">>> still not one\"\"\"",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "an expected output weakened",
        edits: &[("    >>> add(1, 2)\n    3", "    >>> add(1, 2)\n    -1")],
        expect: &["block Helper (doctests)::doctest add: >>> add(1, 2)"],
    },
    Case {
        name: "the module's example deleted",
        edits: &[(">>> add(2, 2)\n4\n", "")],
        expect: &["block Helper (doctests)::doctest (module): >>> add(2, 2)"],
    },
];

#[test]
fn python_docstring_examples_are_tests_of_a_module_read_inline() {
    run_table(Lang::Python, Scope::Inline, MODULE, PY_CASES);
    // In a test file (not read inline) docstrings are part of the units they document.
    let units = crate::testsig::FileSig::of(Lang::Python, MODULE).units;
    assert!(units.iter().all(|u| u.name != "(doctests)"));
}
