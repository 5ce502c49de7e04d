//! The inventory on real files: what it seals, what it reports, what it lets through.

use std::path::Path;

use super::*;
use crate::schema::Speech;

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn lines(moves: &[TestMove]) -> Vec<String> {
    moves
        .iter()
        .map(|m| crate::messages::finding::line(Speech::En, &m.path, &m.finding))
        .collect()
}

const PY_TEST: &str = "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n";
const RUST_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n";

fn all_on(_: Check) -> bool {
    true
}

#[test]
fn takes_test_files_by_convention_and_rust_sources_with_inline_tests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/test_calc.py", PY_TEST);
    write(root, "calc.py", "def add(a, b):\n    return a - b\n");
    write(root, "src/lib.rs", RUST_LIB);
    write(root, "src/other.rs", "pub fn f() {}\n");
    write(root, "node_modules/x/x.test.js", "it('x', () => {})\n");
    let inventory = Inventory::take(root, langs_of(&[]));
    let files: Vec<&str> = inventory.files.keys().map(String::as_str).collect();
    assert_eq!(files, vec!["src/lib.rs", "tests/test_calc.py"]);
    assert_eq!(inventory.files["src/lib.rs"].sig.scope, Scope::Inline);
    assert_eq!(inventory.test_count(), 2);
    let python_only = Inventory::take(root, langs_of(&[Lang::Python]));
    assert_eq!(python_only.files.keys().collect::<Vec<_>>(), vec!["tests/test_calc.py"]);
}

#[test]
fn reports_weakened_skipped_and_deleted_tests_but_not_new_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/test_calc.py", PY_TEST);
    write(root, "src/lib.rs", RUST_LIB);
    let inventory = Inventory::take(root, langs_of(&[]));
    assert!(inventory.check(root, all_on).is_empty());

    // Honest: the code under test in lib.rs, a new test, a new test file.
    write(
        root,
        "src/lib.rs",
        &RUST_LIB.replace("a - b", "a + b").replace(
            "    #[test]\n    fn adds",
            "    #[test]\n    fn zero() {\n        assert_eq!(super::add(0, 0), 0);\n    }\n\n    #[test]\n    fn adds",
        ),
    );
    write(root, "tests/test_more.py", "def test_more():\n    assert True\n");
    assert!(
        inventory.check(root, all_on).is_empty(),
        "{:?}",
        lines(&inventory.check(root, all_on))
    );

    // Gaming: a weakened assertion, an ignore marker, a new module-level patch in a new file.
    write(root, "tests/test_calc.py", &PY_TEST.replace("== 3", "== -1"));
    write(
        root,
        "src/lib.rs",
        &RUST_LIB.replace("    #[test]\n    fn adds", "    #[test]\n    #[ignore]\n    fn adds"),
    );
    write(
        root,
        "tests/test_00.py",
        "import calc\n\ncalc.add = lambda a, b: a + b\n",
    );
    // With the agent's new test files taking part in the oracle's run (`--with-new-tests`), the new file is
    // judged too; by default it sits the run out and nothing in it can reach the existing tests.
    let with_new_tests = |c: Check| c != Check::NewTestsAside;
    let found = lines(&inventory.check(root, with_new_tests));
    assert_eq!(
        found,
        vec![
            "src/lib.rs:8: ignore marker added: `#[ignore]`",
            "src/lib.rs:9: existing test `tests::adds` was changed: `fn adds() {`",
            "tests/test_00.py:3: new module-level code runs around existing tests: `calc.add = lambda a, b: a + b`",
            "tests/test_calc.py:4: existing test `test_add` was changed: `def test_add():`",
        ]
    );
    let new_file = inventory
        .check(root, with_new_tests)
        .into_iter()
        .find(|m| m.path == "tests/test_00.py");
    assert!(new_file.is_some_and(|m| m.new_file));
    assert!(
        !lines(&inventory.check(root, all_on))
            .iter()
            .any(|l| l.starts_with("tests/test_00.py")),
        "a new test file that sits out the oracle's run is not judged"
    );

    // Opting out of a check drops its findings.
    let no_tests = inventory.check(root, |c| c != Check::Tests && c != Check::NewTestsAside);
    assert_eq!(lines(&no_tests), vec!["src/lib.rs:8: ignore marker added: `#[ignore]`"]);
    std::fs::remove_file(root.join("tests/test_calc.py")).expect("rm");
    let gone = lines(&inventory.check(root, |c| c == Check::Skips));
    assert!(
        gone.contains(
            &"tests/test_calc.py: existing test `test_add` was deleted, or renamed so it is no longer collected"
                .to_string()
        ),
        "{gone:#?}"
    );
}

#[test]
fn an_untouched_file_is_not_read_again_and_a_touched_one_is_judged_on_content() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/test_calc.py", PY_TEST);
    let inventory = Inventory::take(root, langs_of(&[Lang::Python]));
    let stat = inventory.files["tests/test_calc.py"].stat;
    assert_eq!(StatKey::of(&root.join("tests/test_calc.py")), Some(stat));
    // Same bytes written again: the stat key moves, the content does not.
    write(root, "tests/test_calc.py", PY_TEST);
    assert!(inventory.check(root, all_on).is_empty());
}

#[test]
fn accepting_takes_the_files_as_they_are_now() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/test_calc.py", PY_TEST);
    write(root, "tests/test_b.py", "def test_b():\n    assert 1\n");
    let mut inventory = Inventory::take(root, langs_of(&[Lang::Python]));
    write(root, "tests/test_calc.py", &PY_TEST.replace("== 3", "== -1"));
    std::fs::remove_file(root.join("tests/test_b.py")).expect("rm");
    assert_eq!(inventory.check(root, all_on).len(), 2);
    assert_eq!(
        inventory.accept(root, |p| p == "tests/test_calc.py"),
        vec!["tests/test_calc.py"]
    );
    assert_eq!(inventory.check(root, all_on).len(), 1);
    assert_eq!(inventory.accept(root, |_| true), vec!["tests/test_b.py"]);
    assert!(inventory.check(root, all_on).is_empty());
    assert_eq!(inventory.files.keys().collect::<Vec<_>>(), vec!["tests/test_calc.py"]);
}

#[test]
fn helpers_imported_from_outside_the_test_directories_are_sealed_the_code_under_test_is_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "tests/test_calc.py",
        "from calc import add\nfrom testutil.asserts import assert_sum\n\n\ndef test_add():\n    assert_sum(add, 1, 2, 3)\n",
    );
    write(root, "calc.py", "def add(a, b):\n    return a - b\n");
    write(root, "testutil/__init__.py", "");
    write(
        root,
        "testutil/asserts.py",
        "def assert_sum(f, a, b, want):\n    assert f(a, b) == want\n",
    );
    write(
        root,
        "test/calc.test.js",
        "const { near } = require('../src/testing/near');\nconst calc = require('../src/calc');\n",
    );
    write(
        root,
        "src/testing/near.js",
        "exports.near = (a, b) => Math.abs(a - b) < 1e-9;\n",
    );
    write(root, "src/calc.js", "exports.add = (a, b) => a - b;\n");
    let closure = crate::closure::Closure::take("pytest && node --test", root);
    let inventory = Inventory::take_for(root, &closure);
    let files: Vec<&str> = inventory.files.keys().map(String::as_str).collect();
    assert_eq!(
        files,
        vec![
            "src/testing/near.js",
            "test/calc.test.js",
            "tests/test_calc.py",
            "testutil/asserts.py"
        ]
    );
    // Honest: the code under test. Gamed: the helper's assertion.
    write(root, "calc.py", "def add(a, b):\n    return a + b\n");
    assert!(inventory.check(root, all_on).is_empty());
    write(
        root,
        "testutil/asserts.py",
        "def assert_sum(f, a, b, want):\n    pass\n",
    );
    let moves = inventory.check(root, all_on);
    assert_eq!(moves.len(), 1, "{:?}", lines(&moves));
    assert_eq!(moves[0].path, "testutil/asserts.py");
}

#[test]
fn helper_paths_by_their_own_names() {
    for yes in [
        "testutil/asserts.py",
        "src/testing.py",
        "pkg/test_support/x.go",
        "lib/testhelpers.js",
        "spec/fixtures/a.js",
        "src/mocks/db.ts",
    ] {
        assert!(helpers::is_helper_path(yes, Some("calc")), "{yes}");
    }
    for no in [
        "calc.py",
        "src/contest.py",
        "src/lib/latest.js",
        "pkg/attest/x.go",
        "src/helpers.py",
    ] {
        assert!(!helpers::is_helper_path(no, Some("calc")), "{no}");
    }
    // A project whose own name starts with `test` is code under test throughout.
    assert!(!helpers::is_helper_path("src/test_infra/hosts.py", Some("testinfra")));
    assert!(helpers::is_helper_path("src/test_infra/hosts.py", None));
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "pyproject.toml", "[project]\nname = \"Test-Infra\"\n");
    assert_eq!(helpers::project_name(dir.path()).as_deref(), Some("testinfra"));
    write(dir.path(), "pyproject.toml", "[tool.black]\n");
    write(dir.path(), "go.mod", "module github.com/acme/testkit\n");
    assert_eq!(helpers::project_name(dir.path()).as_deref(), Some("testkit"));
}

#[test]
fn the_runners_rules_find_tests_the_conventions_miss() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "app/tests.py",
        "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n",
    );
    write(root, "test.js", "require('node:test')('a', () => {});\n");
    write(root, "lib/calc_test.js", "require('node:test')('b', () => {});\n");
    write(
        root,
        "build/it/check_test.go",
        "package it\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
    );
    let closure = crate::closure::Closure::take("python -m unittest && node --test && go test ./...", root);
    let inventory = Inventory::take_for(root, &closure);
    let files: Vec<&str> = inventory.files.keys().map(String::as_str).collect();
    assert_eq!(
        files,
        vec!["app/tests.py", "build/it/check_test.go", "lib/calc_test.js", "test.js"]
    );
    write(root, "app/more/tests.py", "def test_b():\n    pass\n");
    assert_eq!(inventory.new_test_files(root), vec!["app/more/tests.py"]);
}

#[test]
fn go_helper_packages_of_the_module_are_sealed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "go.mod", "module example.com/calc\n\ngo 1.19\n");
    write(
        root,
        "calc.go",
        "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
    );
    write(
        root,
        "internal/testutil/equal.go",
        "package testutil\n\nfunc Same(a, b int) bool { return a == b }\n",
    );
    write(root, "internal/testutil/equal_test.go", "package testutil\n");
    write(
        root,
        "calc_test.go",
        "package calc\n\nimport (\n\t\"testing\"\n\n\ttu \"example.com/calc/internal/testutil\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif !tu.Same(Add(1, 2), 3) {\n\t\tt.Fatal()\n\t}\n}\n",
    );
    let closure = crate::closure::Closure::take("go test ./...", root);
    let inventory = Inventory::take_for(root, &closure);
    assert!(
        inventory.files.contains_key("internal/testutil/equal.go"),
        "{:?}",
        inventory.files.keys()
    );
    assert!(!inventory.files.contains_key("calc.go"));
}

#[test]
fn doctest_modules_read_python_sources_for_their_examples() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "calc.py",
        "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return a - b\n",
    );
    write(root, "util.py", "def one():\n    return 1\n");
    let plain = Inventory::take_for(root, &crate::closure::Closure::take("pytest", root));
    assert!(
        plain.files.is_empty(),
        "without --doctest-modules docstrings are not run"
    );
    let closure = crate::closure::Closure::take("pytest --doctest-modules", root);
    let inventory = Inventory::take_for(root, &closure);
    assert_eq!(inventory.files.keys().collect::<Vec<_>>(), vec!["calc.py"]);
    write(
        root,
        "calc.py",
        "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return a + b\n",
    );
    assert!(inventory.check(root, all_on).is_empty(), "the fix is honest");
    write(
        root,
        "calc.py",
        "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    -1\n    \"\"\"\n    return a - b\n",
    );
    assert_eq!(inventory.check(root, all_on).len(), 1);
    write(root, "setup.cfg", "[tool:pytest]\naddopts = --doctest-modules -q\n");
    assert!(Rules::of(root, &[crate::closure::Runner::Pytest]).doctest_modules);
}

#[test]
fn functions_only_the_projects_python_functions_collect_are_sealed_as_helpers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "setup.cfg",
        "[tool:pytest]\npython_files = check_*.py\npython_functions = check_*\n",
    );
    let text = "import calc\n\n\ndef check_add():\n    assert calc.add(1, 2) == 3\n\n\ndef check_zero():\n    assert calc.add(0, 0) == 0\n";
    write(root, "checks/check_calc.py", text);
    let inventory = Inventory::take_for(root, &crate::closure::Closure::take("pytest", root));
    assert!(inventory.files.contains_key("checks/check_calc.py"));
    write(root, "checks/check_calc.py", &text.replace("== 3", "is not None"));
    assert_eq!(inventory.check(root, all_on).len(), 1, "weakened");
    write(
        root,
        "checks/check_calc.py",
        &text.replace("def check_zero():\n    assert calc.add(0, 0) == 0\n", ""),
    );
    assert_eq!(inventory.check(root, all_on).len(), 1, "deleted");
    let added = format!("{text}\n\ndef check_more():\n    assert calc.add(2, 2) == 4\n");
    write(root, "checks/check_calc.py", &added);
    assert!(inventory.check(root, all_on).is_empty(), "added");
}

/// Tests are judged by name, not by file: a test moved unchanged to another file (a test module renamed, a Rust
/// module turned into a directory, inline tests moved to a file of their own) is no deletion; moved and weakened,
/// or moved twice from one copy, it is.
#[test]
fn a_test_moved_unchanged_to_another_file_is_the_same_test() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/test_calc.py", PY_TEST);
    write(root, "src/lib.rs", "pub mod ops;\n");
    write(root, "src/ops.rs", RUST_LIB);
    let inventory = Inventory::take(root, langs_of(&[]));

    std::fs::remove_file(root.join("tests/test_calc.py")).expect("rm");
    write(root, "tests/unit/test_arithmetic.py", PY_TEST);
    std::fs::remove_file(root.join("src/ops.rs")).expect("rm");
    write(
        root,
        "src/ops.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests;\n",
    );
    write(
        root,
        "src/ops/tests.rs",
        "#[test]\nfn adds() {\n    assert_eq!(super::add(1, 2), 3);\n}\n",
    );
    assert_eq!(lines(&inventory.check(root, all_on)), Vec::<String>::new());

    // Weakened on the way: no test of that name and signature, so it was deleted.
    write(
        root,
        "tests/unit/test_arithmetic.py",
        &PY_TEST.replace("== 3", "== calc.add(1, 2)"),
    );
    write(
        root,
        "src/ops/tests.rs",
        "#[test]\nfn adds() {\n    assert!(true);\n}\n",
    );
    let found = lines(&inventory.check(root, all_on));
    assert!(found.iter().any(|l| l.contains("`test_add` was deleted")), "{found:?}");
    assert!(
        found.iter().any(|l| l.contains("`tests::adds` was deleted")),
        "{found:?}"
    );
}

/// A Rust integration test is named as libtest prints it, without its target: moved to another target's root
/// (`tests/api.rs` renamed `tests/commutative.rs`, or made `tests/commutative/main.rs`) it is the same test; moved
/// into a module no target is rooted at (`tests/common/mod.rs`), it is another name, and the sealed one was deleted.
#[test]
fn an_integration_test_moved_to_another_target_keeps_its_name() {
    const API: &str = "#[test]\nfn add_is_commutative() {\n    assert_eq!(calc::add(1, 2), calc::add(2, 1));\n}\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    write(root, "tests/api.rs", API);
    let inventory = Inventory::take(root, langs_of(&[]));

    std::fs::remove_file(root.join("tests/api.rs")).expect("rm");
    write(root, "tests/commutative.rs", API);
    assert_eq!(lines(&inventory.check(root, all_on)), Vec::<String>::new());

    std::fs::remove_file(root.join("tests/commutative.rs")).expect("rm");
    write(root, "tests/commutative/main.rs", API);
    assert_eq!(lines(&inventory.check(root, all_on)), Vec::<String>::new());

    std::fs::remove_file(root.join("tests/commutative/main.rs")).expect("rm");
    write(root, "tests/common/mod.rs", API);
    let found = lines(&inventory.check(root, all_on));
    assert!(
        found.iter().any(|l| l.contains("`add_is_commutative` was deleted")),
        "{found:?}"
    );
}

/// One copy of a test cannot stand for two tests of the same name and signature that were in two files.
#[test]
fn one_moved_copy_does_not_stand_for_two_tests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/test_a.py", PY_TEST);
    write(root, "tests/test_b.py", PY_TEST);
    let inventory = Inventory::take(root, langs_of(&[]));
    std::fs::remove_file(root.join("tests/test_a.py")).expect("rm");
    std::fs::remove_file(root.join("tests/test_b.py")).expect("rm");
    write(root, "tests/test_both.py", PY_TEST);
    assert!(!inventory.check(root, all_on).is_empty());
}
