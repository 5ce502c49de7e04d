//! The cost of sealing what the verify command runs (issue 11): taking the closure and the test inventory at
//! setup, and checking them at a promise, on a project with 1,000 test files of 20 tests each (20,000 tests).
//! The Stop hook pays the checks only at a promise (and at every stop with `--verify-on always`), before a verify
//! command that itself takes seconds; the no-promise path does not touch them.
//!
//! Run with `cargo bench --bench closure`.

use std::hint::black_box;
use std::path::Path;

use loopgate::closure::Closure;
use loopgate::inventory::{self, Inventory};
use loopgate::state::Check;

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
    let langs = inventory::langs_of(&Closure::take("pytest", dir.path()).ecosystems);
    bencher.bench(|| Inventory::take(black_box(dir.path()), langs.clone()).files.len());
}

/// The usual case at a promise: the agent did not touch the tests, so every file is skipped on its metadata.
#[divan::bench(sample_count = 20)]
fn inventory_check_1000_files_unchanged(bencher: divan::Bencher) {
    let dir = project();
    let inventory = Inventory::take(dir.path(), inventory::langs_of(&[]));
    bencher.bench(|| inventory.check(black_box(dir.path()), all_on).len());
}

/// The worst case: every test file was rewritten (same content), so each is read, parsed and compared.
#[divan::bench(sample_count = 10)]
fn inventory_check_1000_files_rewritten(bencher: divan::Bencher) {
    let dir = project();
    let inventory = Inventory::take(dir.path(), inventory::langs_of(&[]));
    touch_all(dir.path());
    bencher.bench(|| inventory.check(black_box(dir.path()), all_on).len());
}

fn touch_all(root: &Path) {
    for (path, _) in Inventory::take(root, inventory::langs_of(&[])).files {
        let full = root.join(path);
        let text = std::fs::read(&full).expect("read");
        std::fs::write(&full, text).expect("write");
    }
}
