//! The cost of sealing what the verify command runs (issue 11): taking the closure and the test inventory at
//! setup, and checking them at a promise, on a project with 1,000 test files of 20 tests each (20,000 tests).
//! The Stop hook pays the checks only at a promise (and at every stop with `--verify-on always`), before a verify
//! command that itself takes seconds; the no-promise path does not touch them.
//!
//! Run with `cargo bench --bench closure`.

use std::hint::black_box;
use std::path::Path;

use loopgate::closure::Closure;
use loopgate::schema::Check;
use loopgate::testseal::{self, Inventory};

fn main() {
    divan::main();
}

const FILES: usize = 1000;
const TESTS_PER_FILE: usize = 20;

/// A pytest project: `FILES` test modules of `TESTS_PER_FILE` tests each, a conftest, pytest configuration,
/// and 200 source modules.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "pyproject.toml",
        "[project]\nname = \"app\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
    );
    write(
        "tests/conftest.py",
        "import pytest\n\n\n@pytest.fixture\ndef data():\n    return [1, 2, 3]\n",
    );
    for i in 0..200 {
        write(&format!("app/mod_{i}.py"), &"def f(x):\n    return x + 1\n".repeat(20));
    }
    for i in 0..FILES {
        let mut text = String::from("import pytest\n\nfrom app import mod_1\n\n");
        for t in 0..TESTS_PER_FILE {
            text.push_str(&format!(
                "\n\ndef test_case_{t}(data):\n    # check the {t}th case\n    assert mod_1.f({t}) == {t} + 1\n    assert len(data) == 3\n"
            ));
        }
        write(&format!("tests/pkg_{}/test_mod_{i}.py", i % 20), &text);
    }
    dir
}

fn all_on(_: Check) -> bool {
    true
}

#[divan::bench(sample_count = 20)]
fn closure_take(bencher: divan::Bencher) {
    let dir = project();
    bencher.bench(|| Closure::take(black_box("python -m pytest -q"), dir.path()));
}

#[divan::bench(sample_count = 20)]
fn closure_check(bencher: divan::Bencher) {
    let dir = project();
    let closure = Closure::take("python -m pytest -q", dir.path());
    bencher.bench(|| closure.check(black_box(dir.path())).len());
}

#[divan::bench(sample_count = 10)]
fn inventory_take_1000_files(bencher: divan::Bencher) {
    let dir = project();
    let langs = testseal::langs_of(&Closure::take("pytest", dir.path()).ecosystems);
    bencher.bench(|| Inventory::take(black_box(dir.path()), langs.clone()).files.len());
}

/// What the tests read of the environment (issue 39, `testseal::env_reads`): setup's extra walk and read of the
/// same 1,000 test files, lexed by Python's row; beside `closure_take` and `inventory_take_1000_files`, what setup
/// paid before it.
#[divan::bench(sample_count = 10)]
fn env_reads_1000_files(bencher: divan::Bencher) {
    let dir = project();
    let closure = Closure::take("python -m pytest -q", dir.path());
    bencher.bench(|| testseal::env_reads::read(black_box(dir.path()), &closure).names.len());
}

/// The usual case at a promise: the agent did not touch the tests, so every file is skipped on its metadata.
#[divan::bench(sample_count = 20)]
fn inventory_check_1000_files_unchanged(bencher: divan::Bencher) {
    let dir = project();
    let inventory = Inventory::take(dir.path(), testseal::langs_of(&[]));
    bencher.bench(|| inventory.check(black_box(dir.path()), all_on).len());
}

/// The worst case: every test file was rewritten (same content), so each is read, parsed and compared.
#[divan::bench(sample_count = 10)]
fn inventory_check_1000_files_rewritten(bencher: divan::Bencher) {
    let dir = project();
    let inventory = Inventory::take(dir.path(), testseal::langs_of(&[]));
    touch_all(dir.path());
    bencher.bench(|| inventory.check(black_box(dir.path()), all_on).len());
}

fn touch_all(root: &Path) {
    for (path, _) in Inventory::take(root, testseal::langs_of(&[])).files {
        let full = root.join(path);
        let text = std::fs::read(&full).expect("read");
        std::fs::write(&full, text).expect("write");
    }
}

// The baseline and the per-test verdict (issue 20), on the same 1,000 files / 20,000 tests.

/// pytest's output for the project's 20,000 tests with `-rap`: progress lines, then one short-summary line each.
fn pytest_output() -> String {
    let mut out = String::new();
    for i in 0..FILES {
        out.push_str(&format!(
            "tests/pkg_{}/test_mod_{i}.py {}\n",
            i % 20,
            ".".repeat(TESTS_PER_FILE)
        ));
    }
    out.push_str("=========================== short test summary info ============================\n");
    for i in 0..FILES {
        for t in 0..TESTS_PER_FILE {
            out.push_str(&format!("PASSED tests/pkg_{}/test_mod_{i}.py::test_case_{t}\n", i % 20));
        }
    }
    out.push_str("20000 passed in 12.34s\n");
    out
}

fn scan(output: &str) -> (Option<loopgate::readout::TestCounts>, loopgate::readout::TestResults) {
    let mut scanner = loopgate::readout::CountScanner::new();
    for line in output.lines() {
        scanner.feed_line(line.as_bytes());
    }
    (scanner.finish(), scanner.into_results())
}

/// Reading the counts and the 20,000 names from the output, as every verify run does line by line.
#[divan::bench(sample_count = 20)]
fn names_scan_20000_tests(bencher: divan::Bencher) {
    let output = pytest_output();
    bencher.bench(|| black_box(scan(&output)));
}

/// The per-test verdict on a pass of all 20,000 baseline tests.
#[divan::bench(sample_count = 20)]
fn verdict_judge_20000_tests(bencher: divan::Bencher) {
    let (counts, results) = scan(&pytest_output());
    let baseline = loopgate::testjudge::baseline::Baseline::of_run(0, Some(1), false, 12_340, counts, results.clone());
    bencher.bench(|| black_box(baseline.judge(counts, &results)));
}

/// Comparing the 1,000 test files with their sealed copies before the oracle's run (none changed).
#[divan::bench(sample_count = 20)]
fn testside_compare_1000_files_unchanged(bencher: divan::Bencher) {
    let dir = project();
    let inventory = Inventory::take(dir.path(), vec![loopgate::testsig::Lang::Python]);
    let copies = loopgate::testswap::Copies::take(dir.path(), inventory.own_test_files());
    bencher.bench(|| black_box(loopgate::testswap::changed(dir.path(), &copies).len()));
}

/// Looking for new snapshot files to set aside with the agent's new tests: one walk of the project.
#[divan::bench(sample_count = 20)]
fn testside_new_snapshots_1000_files(bencher: divan::Bencher) {
    let dir = project();
    let inventory = Inventory::take(dir.path(), vec![loopgate::testsig::Lang::Python]);
    let copies = loopgate::testswap::Copies::take(dir.path(), inventory.own_test_files());
    bencher.bench(|| black_box(copies.new_snapshots(dir.path()).len()));
}

/// Swapping 100 changed test files and 100 new ones for the oracle's run, and putting them back.
#[divan::bench(sample_count = 10)]
fn testside_swap_and_put_back_200_files(bencher: divan::Bencher) {
    let dir = project();
    let root = dir.path();
    let inventory = Inventory::take(root, vec![loopgate::testsig::Lang::Python]);
    let copies = loopgate::testswap::Copies::take(root, inventory.own_test_files());
    for i in 0..100 {
        let path = root.join(format!("tests/pkg_{}/test_mod_{i}.py", i % 20));
        std::fs::write(&path, "def test_new():\n    pass\n").expect("edit");
        std::fs::write(root.join(format!("tests/test_new_{i}.py")), "def test_x():\n    pass\n").expect("new");
    }
    bencher.bench(|| {
        let plan = loopgate::testswap::Plan {
            restore: loopgate::testswap::changed(root, &copies),
            cut: inventory.new_test_files_cut(root),
            aside: inventory.new_test_files(root),
            stood_in: Vec::new(),
            respelled: Vec::new(),
        };
        let journal = loopgate::testswap::swap(root, &plan, |_| Ok(())).expect("swap");
        loopgate::testswap::put_back(root, &journal.moved).expect("put back");
        black_box(journal.moved.len())
    });
}
