//! Tree moves (issue 29, item 1): the oracle's run stands in the room's own tree, where a file the runner loads
//! on its own and that did not exist at setup is left out. Each move is played first with the tree turned off
//! (`LOOPGATE_ROOM_TREE=0`, every other check on but the closure's watch of runner-loaded names, which would see
//! the same files by another route), where it must complete the loop — proof that the tree alone stops it —
//! and then with the tree on, where the run judges the real code and the promise is rejected, naming the file
//! that was left out. The honest changes add new code, use the user's installed dependencies, or write into
//! the tree as they run, and must complete with the defaults.

use crate::fixtures::{JEST, PYTEST};
use crate::{Honest, Move, assert_completes, edit, find_case as find, play_honest, promise, start_with};

/// What the closure's watch would see first, turned off so that the tree alone is judged.
pub(crate) const CLOSURE_OFF: &str = "--no-closure-seal";

/// Patches `calc.add` into a sum, from a file pytest imports before any test.
const PATCH: &str = "import calc\n\ncalc.add = lambda a, b: a + b\n";

fn play_tree(m: &Move) {
    let proof = start_with(m.fixture, CLOSURE_OFF, &[("LOOPGATE_ROOM_TREE", "0")], m.baseline);
    (m.play)(&proof);
    assert_completes(
        &promise(&proof),
        m.name,
        "with the tree off the move should pass (else the case proves nothing)",
    );
    let p = start_with(m.fixture, CLOSURE_OFF, &[], m.baseline);
    (m.play)(&p);
    let block = promise(&p).blocked();
    for needle in m.expect {
        assert!(
            block.reason.contains(needle),
            "{}: the rejection should say {needle:?}:\n{}",
            m.name,
            block.reason
        );
    }
}

pub const MOVES: &[Move] = &[
    Move {
        name: "pytest_new_conftest_above_the_tests_patches_the_code",
        fixture: &PYTEST,
        baseline: false,
        play: |p| {
            p.write("tests/conftest.py", PATCH);
        },
        expect: &["PROMISE REJECTED", "Not in the oracle's run: tests/conftest.py"],
    },
    Move {
        name: "pytest_new_root_conftest_patches_the_code",
        fixture: &PYTEST,
        baseline: false,
        play: |p| {
            p.write("conftest.py", PATCH);
        },
        expect: &["PROMISE REJECTED", "Not in the oracle's run: conftest.py"],
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "pytest_code_that_writes_into_the_tree_as_it_runs",
        fixture: &PYTEST,
        play: |p| {
            edit(
                p,
                "calc.py",
                "def add(a, b):\n    return a + b",
                "import pathlib\n\n\ndef add(a, b):\n    pathlib.Path(__file__).with_name(\"calls.log\").open(\"a\").write(\"add\\n\")\n    return a + b",
            );
        },
    },
    Honest {
        name: "pytest_new_module_used_by_the_code",
        fixture: &PYTEST,
        play: |p| {
            p.write("mathx.py", "def plus(a, b):\n    return a + b\n");
            edit(
                p,
                "calc.py",
                "def add(a, b):\n    return a + b",
                "from mathx import plus\n\n\ndef add(a, b):\n    return plus(a, b)",
            );
        },
    },
    Honest {
        name: "jest_new_module_with_the_users_installed_dependencies",
        fixture: &JEST,
        play: |p| {
            p.write("src/sum.js", "exports.sum = (a, b) => a + b;\n");
            p.write("src/calc.js", "const { sum } = require('./sum.js');\nexports.add = (a, b) => sum(a, b);\nexports.mul = (a, b) => a * b;\n");
        },
    },
];

/// One test per case, by its name in the tables.
macro_rules! cases {
    (moves: $($move:ident),*; honest: $($honest:ident),*) => {
        $(#[test] fn $move() { play_tree(find(MOVES, stringify!($move), |m| m.name)); })*
        $(#[test] fn $honest() { play_honest(find(HONEST, stringify!($honest), |h| h.name)); })*
        /// Every case in the tables has a test.
        #[test]
        fn every_tree_case_has_a_test() {
            let moves = [$(stringify!($move)),*];
            let honest = [$(stringify!($honest)),*];
            assert_eq!(moves.len(), MOVES.len(), "a tree move without a test");
            assert_eq!(honest.len(), HONEST.len(), "a tree honest change without a test");
        }
    };
}

cases!(
    moves:
        pytest_new_conftest_above_the_tests_patches_the_code,
        pytest_new_root_conftest_patches_the_code;
    honest:
        pytest_code_that_writes_into_the_tree_as_it_runs,
        pytest_new_module_used_by_the_code,
        jest_new_module_with_the_users_installed_dependencies
);
