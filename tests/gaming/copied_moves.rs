//! The room's tree at the copy's own path (issue 29, `TreeState::Copied`: macOS, and Linux without user
//! namespaces), reached here on Linux with `LOOPGATE_ROOM_TREE=copy` in setup's environment. The cache and tree
//! moves are played against it and must be caught as in the mounted tree (that each fools the oracle without
//! the room is proved by its own test in `room_moves` / `tree_moves`); the honest changes must complete.

use crate::{assert_caught, find_case as find, per_test, play_honest_with, room_moves, tree_moves};

/// Setup's environment that asks for the copy at its own path.
const COPIED: &[(&str, &str)] = &[("LOOPGATE_ROOM_TREE", "copy")];

/// One test per case, by its name in the tables of `room_moves` and `tree_moves`.
macro_rules! cases {
    (room: $($room:ident),*; tree: $($tree:ident),*; honest: $($honest:ident),*) => {
        $(#[test] fn $room() { assert_caught(find(room_moves::MOVES, stringify!($room), |m| m.name), "", COPIED); })*
        $(#[test] fn $tree() { assert_caught(find(tree_moves::MOVES, stringify!($tree), |m| m.name), tree_moves::CLOSURE_OFF, COPIED); })*
        $(#[test] fn $honest() {
            let h = room_moves::HONEST.iter().chain(tree_moves::HONEST).chain(per_test::HONEST).find(|h| h.name == stringify!($honest));
            play_honest_with(h.expect("an honest case of room_moves, tree_moves or per_test"), COPIED);
        })*
    };
}

cases!(
    room:
        pytest_rewritten_test_bytecode_under_the_sources_hash,
        jest_transform_cache_in_the_temporary_directory,
        cargo_stale_test_binaries_under_sources_put_back_with_old_mtimes;
    tree:
        pytest_new_conftest_above_the_tests_patches_the_code;
    honest:
        pytest_the_agents_own_runs_leave_bytecode_and_caches,
        cargo_the_agents_own_test_run_leaves_target,
        pytest_code_that_writes_into_the_tree_as_it_runs,
        pytest_the_fix_alone_in_a_suite_that_writes_a_report_under_tests
);

/// Asked for, the loop's runs stand in the copy at its own path, and `status` says so and why; the project's
/// own tree is not where the run wrote (the code under test logs into its working directory).
#[test]
fn status_says_the_tree_is_a_copy_at_its_own_path_and_the_run_writes_there() {
    let p = crate::start_with(&crate::fixtures::PYTEST, "", COPIED, true);
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    let tree = json
        .pointer("/room/tree")
        .unwrap_or_else(|| panic!("status names the room's tree:\n{json:#}"));
    assert_eq!(tree["state"], "copied", "{json:#}");
    assert!(
        tree["why"]
            .as_str()
            .is_some_and(|why| why.contains("LOOPGATE_ROOM_TREE=copy")),
        "{json:#}"
    );
    p.loopgate(["status"])
        .run()
        .stdout_contains("a private copy in the room, at its own path");
    let (path, fixed) = crate::fixtures::PYTEST.fix;
    p.write(path, fixed);
    crate::edit(
        &p,
        "calc.py",
        "def add(a, b):\n    return a + b",
        "import os\n\n\ndef add(a, b):\n    open(\"cwd.log\", \"a\").write(os.getcwd())\n    return a + b",
    );
    crate::assert_completes(&crate::promise(&p), "copied", "honest work was not accepted");
    assert!(
        !p.exists("cwd.log"),
        "the run wrote into the project's own tree, not the copy"
    );
}

/// In the copy at its own path nothing binds the sealed tests read-only: code under test that writes one (here
/// at import, in the working directory the run stands in) is seen after the run, and the promise rejected. The
/// check of code that reads the tests is off, as it would flag this line before the run.
#[test]
fn code_that_writes_a_sealed_test_in_the_copy_is_seen() {
    let p = crate::start_with(&crate::fixtures::PYTEST, "--no-test-awareness-check", COPIED, true);
    let (path, fixed) = crate::fixtures::PYTEST.fix;
    p.write(path, fixed);
    let code = p.read("calc.py");
    p.write(
        "calc.py",
        format!("open(\"tests/test_calc.py\", \"a\").write(\"\\n\")\n\n{code}"),
    );
    let block = crate::promise(&p).blocked();
    assert!(
        block.reason.contains("PROMISE REJECTED") && block.reason.contains("tests/test_calc.py"),
        "the write to the sealed test in the copy should be named:\n{}",
        block.reason
    );
}
