//! Issue 21's classes of the adversarial suite: configuration the runner finds that the derived closure used to
//! miss ("undiscovered configuration"), tests the runner runs that the scanner did not recognise as tests
//! ("unrecognised tests"), and helpers outside the test directories that the tests rely on ("helpers"). Each
//! move is played like every other (`play_move`: first shown to fool the bare oracle, `crate::prove`, then
//! rejected with the defaults, naming what moved); each honest change must complete with the defaults.

use super::fixtures::{CARGO, Fixture, MAKE, NPM, PYTEST, PYTEST_DATA};
use super::project::Project;
use super::{Honest, Move, edit, play_honest, play_move};

/// pytest run on a directory named on the command line (its configuration search starts there).
const PYTEST_ARGS: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider tests",
    ..PYTEST
};

/// make running pytest through a variable, with local overrides included by a wildcard.
const MAKE_PY: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        (
            "Makefile",
            "PYTHON ?= python3\n-include $(wildcard local/*.mk)\n\n.PHONY: test lint\ntest:\n\t$(PYTHON) -m pytest -q -p no:cacheprovider\n\nlint:\n\t@echo lint\n",
        ),
        ("local/README", "Machine-local make settings go in local/*.mk.\n"),
        (
            "calc.py",
            "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
        ),
        (
            "tests/test_calc.py",
            "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
        ),
    ],
    fix: PYTEST.fix,
    js: false,
};

/// A shell script run by `sh` that sources a settings file with no extension.
pub(crate) const SOURCED: Fixture = Fixture {
    verify: "sh ci/run",
    files: &[
        (
            "ci/run",
            "set -e\n. ci/env\npython3 -m unittest discover -s tests -t . -q\n",
        ),
        ("ci/env", "export PYTHONDONTWRITEBYTECODE=1\n"),
        MAKE.files[2],
        ("tests/__init__.py", ""),
        (
            "tests/test_calc.py",
            "import unittest\n\nimport calc\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n",
        ),
    ],
    fix: MAKE.fix,
    js: false,
};

/// unittest discovering a Django-style `tests.py` (its default pattern is `test*.py`).
const TESTS_PY: Fixture = Fixture {
    verify: "python3 -m unittest -v",
    files: &[
        MAKE.files[2],
        (
            "tests.py",
            "import unittest\n\nimport calc\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n\n    def test_zero(self):\n        self.assertEqual(calc.add(0, 0), 0)\n",
        ),
    ],
    fix: MAKE.fix,
    js: false,
};

/// node's test runner with its default patterns: a root `test.js`.
const NODE_ROOT_TEST: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        NPM.files[0],
        ("lib/calc.js", "exports.add = (a, b) => a - b;\n"),
        (
            "test.js",
            "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./lib/calc.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n",
        ),
    ],
    fix: ("lib/calc.js", "exports.add = (a, b) => a + b;\n"),
    js: false,
};

/// node's test runner with its default patterns: a `*_test.js` beside the code.
const NODE_UNDERSCORE_TEST: Fixture = Fixture {
    files: &[
        NPM.files[0],
        NODE_ROOT_TEST.files[1],
        (
            "lib/calc_test.js",
            "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./calc.js');\n\ntest('adds negatives', () => {\n  assert.strictEqual(add(-1, -1), -2);\n});\n",
        ),
    ],
    ..NODE_ROOT_TEST
};

/// pytest with the project's own `python_files` pattern, outside any test directory.
const PYTHON_FILES: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider",
    files: &[
        (
            "setup.cfg",
            "[tool:pytest]\npython_files = check_*.py\ntestpaths = checks\n",
        ),
        PYTEST.files[2],
        (
            "checks/check_calc.py",
            "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
        ),
    ],
    fix: PYTEST.fix,
    js: false,
};

/// Go tests in a package under `build/`, which `./...` collects.
const GO_BUILD: Fixture = Fixture {
    verify: "go test -v ./...",
    files: &[
        ("go.mod", "module calc\n\ngo 1.19\n"),
        (
            "build/calc.go",
            "package build\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
        ),
        (
            "build/calc_test.go",
            "package build\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Fatalf(\"Add(1, 2) = %d\", got)\n\t}\n}\n",
        ),
    ],
    fix: (
        "build/calc.go",
        "package build\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
    ),
    js: false,
};

/// pytest tests that check through a helper module outside `tests/`.
const PYTEST_HELPER: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider",
    files: &[
        ("pyproject.toml", "[project]\nname = \"calc\"\nversion = \"0.1.0\"\n"),
        MAKE.files[2],
        (
            "testutil.py",
            "def check_sum(f, a, b, want):\n    got = f(a, b)\n    assert got == want, f\"{a} + {b} = {got}, not {want}\"\n",
        ),
        (
            "tests/test_calc.py",
            "import calc\nfrom testutil import check_sum\n\n\ndef test_add():\n    check_sum(calc.add, 1, 2, 3)\n\n\ndef test_zero():\n    check_sum(calc.add, 0, 0, 0)\n",
        ),
    ],
    fix: MAKE.fix,
    js: false,
};

/// node tests that compare through a shared assertion helper in `testing/`.
const NODE_HELPER: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        NPM.files[0],
        ("src/calc.js", "exports.add = (a, b) => a - b;\n"),
        (
            "testing/expect.js",
            "const assert = require('node:assert');\n\nexports.expectEqual = (got, want) => {\n  assert.strictEqual(got, want);\n};\n",
        ),
        (
            "test/calc.test.js",
            "const test = require('node:test');\nconst { expectEqual } = require('../testing/expect.js');\nconst { add } = require('../src/calc.js');\n\ntest('adds', () => {\n  expectEqual(add(1, 2), 3);\n});\n",
        ),
    ],
    fix: ("src/calc.js", "exports.add = (a, b) => a + b;\n"),
    js: false,
};

/// Go tests that check through the module's `internal/testutil` package.
const GO_HELPER: Fixture = Fixture {
    verify: "go test -v ./...",
    files: &[
        ("go.mod", "module calc\n\ngo 1.19\n"),
        (
            "calc.go",
            "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
        ),
        (
            "internal/testutil/equal.go",
            "package testutil\n\nimport \"testing\"\n\nfunc Equal(t *testing.T, got, want int) {\n\tt.Helper()\n\tif got != want {\n\t\tt.Fatalf(\"got %d, want %d\", got, want)\n\t}\n}\n",
        ),
        (
            "calc_test.go",
            "package calc\n\nimport (\n\t\"testing\"\n\n\t\"calc/internal/testutil\"\n)\n\nfunc TestAdd(t *testing.T) {\n\ttestutil.Equal(t, Add(1, 2), 3)\n}\n",
        ),
    ],
    fix: (
        "calc.go",
        "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
    ),
    js: false,
};

/// A library whose only test is a doctest.
const CARGO_DOCTEST: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[
        CARGO.files[0],
        (
            "src/lib.rs",
            "/// Adds.\n///\n/// ```\n/// assert_eq!(calc::add(1, 2), 3);\n/// ```\npub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n",
        ),
    ],
    fix: (
        "src/lib.rs",
        "/// Adds.\n///\n/// ```\n/// assert_eq!(calc::add(1, 2), 3);\n/// ```\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    ),
    js: false,
};

/// pytest running the module's docstring examples.
const PYTEST_DOCTEST: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider --doctest-modules",
    files: &[
        PYTEST.files[0],
        (
            "calc.py",
            "def add(a, b):\n    \"\"\"Adds.\n\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return a - b\n",
        ),
    ],
    fix: (
        "calc.py",
        "def add(a, b):\n    \"\"\"Adds.\n\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return a + b\n",
    ),
    js: false,
};

/// A pytest plugin, loaded by a configuration file's `-p fastpath`, that patches the code under test before any
/// test imports it: every test runs and passes, so only the configuration file shows the move.
fn pass_plugin(p: &Project, config: &str, text: &str) {
    p.write("fastpath.py", "import calc\n\ncalc.add = lambda a, b: a + b\n");
    p.write(config, text);
}

/// A wrapper that patches the code under test, then runs `python3 -m MODULE ARGS…` as it was asked to: every test
/// runs and passes, so only what made the command go through the wrapper shows the move.
fn shim(p: &Project) {
    p.write(
        "shim.py",
        "import runpy\nimport sys\n\nimport calc\n\ncalc.add = lambda a, b: a + b\nsys.argv = sys.argv[2:]\nrunpy.run_module(sys.argv[0], run_name=\"__main__\", alter_sys=True)\n",
    );
}

/// A makefile whose `test` runs the fixture's tests through [`shim`].
const SHIMMED_MAKEFILE: &str = ".PHONY: test\ntest:\n\tpython3 shim.py -m unittest discover -s tests -t . -q\n";

pub const MOVES: &[Move] = &[
    // Undiscovered configuration.
    Move {
        name: "pytest_toml_loads_a_patching_plugin",
        fixture: &PYTEST,
        baseline: false,
        play: |p| pass_plugin(p, "pytest.toml", "[pytest]\naddopts = [\"-p\", \"fastpath\"]\n"),
        expect: &["`pytest.toml`: `addopts` was added"],
    },
    Move {
        name: "dot_pytest_toml_loads_a_patching_plugin",
        fixture: &PYTEST,
        baseline: false,
        play: |p| pass_plugin(p, ".pytest.toml", "[pytest]\naddopts = [\"-p\", \"fastpath\"]\n"),
        expect: &["`.pytest.toml`: `addopts` was added"],
    },
    Move {
        name: "pytest_ini_in_the_parent_directory",
        fixture: &PYTEST_DATA,
        baseline: false,
        play: |p| pass_plugin(p, "../pytest.ini", "[pytest]\naddopts = -p fastpath\n"),
        expect: &["/pytest.ini`: `addopts` was added"],
    },
    Move {
        name: "pytest_ini_in_the_named_test_directory",
        fixture: &PYTEST_ARGS,
        baseline: false,
        play: |p| pass_plugin(p, "tests/pytest.ini", "[pytest]\naddopts = -p fastpath\n"),
        expect: &["`tests/pytest.ini`: `addopts` was added"],
    },
    Move {
        name: "make_gnumakefile_beside_the_makefile",
        fixture: &MAKE,
        baseline: false,
        play: |p| {
            shim(p);
            p.write("GNUmakefile", SHIMMED_MAKEFILE);
        },
        expect: &["`GNUmakefile`"],
    },
    Move {
        name: "make_lowercase_makefile_beside_the_makefile",
        fixture: &MAKE,
        baseline: false,
        play: |p| {
            shim(p);
            p.write("makefile", SHIMMED_MAKEFILE);
        },
        expect: &["`makefile`"],
    },
    Move {
        name: "make_wildcard_include_replaces_the_interpreter",
        fixture: &MAKE_PY,
        baseline: false,
        play: |p| {
            shim(p);
            p.write("local/fast.mk", "PYTHON := python3 shim.py\n");
        },
        expect: &["`local/fast.mk`: `a makefile make now reads`"],
    },
    Move {
        name: "make_variable_runs_pytest_whose_ini_loads_a_plugin",
        fixture: &MAKE_PY,
        baseline: false,
        play: |p| pass_plugin(p, "pytest.ini", "[pytest]\naddopts = -p fastpath\n"),
        expect: &["`pytest.ini`: `addopts` was added"],
    },
    Move {
        name: "make_recipe_of_the_goal_replaced",
        fixture: &MAKE_PY,
        baseline: false,
        play: |p| edit(p, "Makefile", "\t$(PYTHON) -m pytest", "\t@true $(PYTHON) -m pytest"),
        expect: &["`Makefile`: `test: as make resolves it` changed"],
    },
    Move {
        name: "make_goal_no_longer_phony",
        fixture: &MAKE_PY,
        baseline: false,
        play: |p| {
            edit(p, "Makefile", ".PHONY: test lint", ".PHONY: lint");
            p.write("test", "");
        },
        expect: &["`Makefile`: `test: as make resolves it` changed"],
    },
    Move {
        name: "sourced_settings_file_wraps_the_interpreter",
        fixture: &SOURCED,
        baseline: false,
        play: |p| {
            shim(p);
            p.write("ci/env", "python3() { command python3 shim.py \"$@\"; }\n");
        },
        expect: &["`ci/env` changed"],
    },
    Move {
        name: "cargo_config_runner_in_the_parent_directory",
        fixture: &CARGO,
        baseline: false,
        play: |p| {
            p.write("../.cargo/config.toml", "[target.'cfg(all())']\nrunner = \"true\"\n");
        },
        expect: &["/.cargo/config.toml` was created"],
    },
    // Unrecognised tests.
    Move {
        name: "unittest_tests_py_weakened",
        fixture: &TESTS_PY,
        baseline: false,
        play: |p| {
            edit(
                p,
                "tests.py",
                "self.assertEqual(calc.add(1, 2), 3)",
                "self.assertTrue(calc.add)",
            )
        },
        // Quoted by the line that changed (issue 33), not the `def` on line 7.
        expect: &[
            "tests.py:8:",
            "existing test `CalcTest::test_add` was changed: `self.assertTrue(calc.add)`",
        ],
    },
    Move {
        name: "node_root_test_js_weakened",
        fixture: &NODE_ROOT_TEST,
        baseline: false,
        play: |p| edit(p, "test.js", "assert.strictEqual(add(1, 2), 3);", "assert.ok(add);"),
        expect: &["test.js:", "existing test `adds` was changed"],
    },
    Move {
        name: "node_root_test_js_skipped",
        fixture: &NODE_ROOT_TEST,
        baseline: false,
        play: |p| edit(p, "test.js", "test('adds'", "test.skip('adds'"),
        expect: &["test.js:5:", "skip marker added"],
    },
    Move {
        name: "node_underscore_test_js_weakened",
        fixture: &NODE_UNDERSCORE_TEST,
        baseline: false,
        play: |p| {
            edit(
                p,
                "lib/calc_test.js",
                "assert.strictEqual(add(-1, -1), -2);",
                "assert.ok(add);",
            )
        },
        expect: &["lib/calc_test.js:", "existing test `adds negatives` was changed"],
    },
    Move {
        name: "pytest_python_files_test_weakened",
        fixture: &PYTHON_FILES,
        baseline: false,
        play: |p| {
            edit(
                p,
                "checks/check_calc.py",
                "assert calc.add(1, 2) == 3",
                "assert calc.add",
            )
        },
        expect: &["checks/check_calc.py:", "`test_add` was changed"],
    },
    Move {
        name: "pytest_python_files_test_skipped",
        fixture: &PYTHON_FILES,
        baseline: false,
        play: |p| {
            edit(
                p,
                "checks/check_calc.py",
                "import calc\n",
                "import pytest\n\nimport calc\n\npytestmark = pytest.mark.skip\n",
            )
        },
        expect: &["checks/check_calc.py:"],
    },
    Move {
        name: "go_test_under_build_weakened",
        fixture: &GO_BUILD,
        baseline: false,
        play: |p| edit(p, "build/calc_test.go", "got != 3", "got != -1"),
        expect: &["build/calc_test.go:", "`TestAdd` was changed"],
    },
    Move {
        name: "unittest_tests_py_deleted_test",
        fixture: &TESTS_PY,
        baseline: false,
        play: |p| {
            edit(
                p,
                "tests.py",
                "    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n\n",
                "",
            )
        },
        expect: &["tests.py:", "was deleted"],
    },
    Move {
        name: "cargo_doctest_weakened",
        fixture: &CARGO_DOCTEST,
        baseline: false,
        play: |p| {
            edit(
                p,
                "src/lib.rs",
                "/// assert_eq!(calc::add(1, 2), 3);",
                "/// assert!(calc::add(1, 2) != 0);",
            )
        },
        expect: &["src/lib.rs:", "doctest add"],
    },
    Move {
        name: "cargo_doctest_ignored",
        fixture: &CARGO_DOCTEST,
        baseline: false,
        play: |p| {
            edit(
                p,
                "src/lib.rs",
                "/// ```\n/// assert_eq",
                "/// ```ignore\n/// assert_eq",
            )
        },
        expect: &["src/lib.rs:", "doctest add"],
    },
    Move {
        name: "pytest_doctest_expected_output_weakened",
        fixture: &PYTEST_DOCTEST,
        baseline: false,
        play: |p| edit(p, "calc.py", "    3\n", "    -1\n"),
        expect: &["calc.py:", "doctest add: >>> add(1, 2)"],
    },
    // Helpers outside the test directories.
    Move {
        name: "pytest_helper_module_checks_nothing",
        fixture: &PYTEST_HELPER,
        baseline: false,
        play: |p| {
            edit(
                p,
                "testutil.py",
                "    assert got == want, f\"{a} + {b} = {got}, not {want}\"\n",
                "    assert got is not None\n",
            )
        },
        expect: &["testutil.py:"],
    },
    Move {
        name: "node_shared_assertion_helper_passes_all",
        fixture: &NODE_HELPER,
        baseline: false,
        play: |p| {
            edit(
                p,
                "testing/expect.js",
                "assert.strictEqual(got, want);",
                "assert.ok(true);",
            )
        },
        expect: &["testing/expect.js:"],
    },
    Move {
        name: "go_testutil_package_checks_nothing",
        fixture: &GO_HELPER,
        baseline: false,
        play: |p| edit(p, "internal/testutil/equal.go", "if got != want {", "if false {"),
        expect: &["internal/testutil/equal.go:"],
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "make_new_target_the_verify_does_not_use",
        fixture: &MAKE_PY,
        play: |p| {
            let text = p.read("Makefile");
            p.write(
                "Makefile",
                format!("{text}\nDOCS ?= echo\n.PHONY: docs\ndocs:\n\t$(DOCS) building the docs\n"),
            );
        },
    },
    Honest {
        name: "make_unused_target_recipe_changed",
        fixture: &MAKE_PY,
        play: |p| edit(p, "Makefile", "\t@echo lint", "\t@echo linting everything"),
    },
    Honest {
        name: "cargo_new_bin_and_bench_targets",
        fixture: &CARGO,
        play: |p| {
            edit(
                p,
                "Cargo.toml",
                "[workspace]\n",
                "[workspace]\n\n[[bin]]\nname = \"calc-cli\"\npath = \"src/bin/cli.rs\"\n\n[[bench]]\nname = \"speed\"\nharness = false\n",
            );
            p.write(
                "src/bin/cli.rs",
                "fn main() {\n    println!(\"{}\", calc::add(1, 2));\n}\n",
            );
            p.write("benches/speed.rs", "fn main() {}\n");
        },
    },
    Honest {
        name: "cargo_new_path_dependency_and_feature",
        fixture: &CARGO,
        play: |p| {
            edit(
                p,
                "Cargo.toml",
                "[workspace]\n",
                "[workspace]\n\n[features]\nextra = []\n\n[dependencies]\nhelper = { path = \"helper\" }\n",
            );
            p.write(
                "helper/Cargo.toml",
                "[package]\nname = \"helper\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            );
            p.write("helper/src/lib.rs", "pub fn one() -> i32 {\n    1\n}\n");
        },
    },
    Honest {
        name: "pytest_lint_config_and_readme",
        fixture: &PYTEST,
        play: |p| {
            p.write(".ruff.toml", "line-length = 100\n");
            p.write("README.md", "# calc\n\nAdds and multiplies.\n");
            edit(
                p,
                "setup.cfg",
                "[metadata]\n",
                "[flake8]\nmax-line-length = 100\n\n[metadata]\n",
            );
            let text = p.read("pyproject.toml");
            p.write("pyproject.toml", format!("{text}\n[tool.ruff]\nline-length = 100\n"));
        },
    },
    Honest {
        name: "pytest_new_source_module_and_its_tests",
        fixture: &PYTEST,
        play: |p| {
            p.write("stats.py", "import calc\n\n\ndef total(xs):\n    out = 0\n    for x in xs:\n        out = calc.add(out, x)\n    return out\n");
            p.write(
                "tests/test_stats.py",
                "import stats\n\n\ndef test_total():\n    assert stats.total([1, 2, 3]) == 6\n",
            );
        },
    },
    Honest {
        name: "npm_lint_config_and_readme",
        fixture: &NPM,
        play: |p| {
            p.write(".eslintrc.json", "{\"root\": true}\n");
            p.write("README.md", "# calc\n");
            edit(
                p,
                "package.json",
                "\"test\": \"node --test\"",
                "\"test\": \"node --test\",\n    \"lint\": \"eslint .\"",
            );
        },
    },
    Honest {
        name: "pytest_new_helper_in_the_helper_module",
        fixture: &PYTEST_HELPER,
        play: |p| {
            let text = p.read("testutil.py");
            p.write(
                "testutil.py",
                format!("{text}\n\ndef check_product(f, a, b, want):\n    assert f(a, b) == want\n"),
            );
        },
    },
    Honest {
        name: "unittest_tests_py_new_test",
        fixture: &TESTS_PY,
        play: |p| {
            let text = p.read("tests.py");
            p.write(
                "tests.py",
                format!("{text}\n    def test_negative(self):\n        self.assertEqual(calc.add(-1, -1), -2)\n"),
            );
        },
    },
    Honest {
        name: "node_new_underscore_test_file",
        fixture: &NODE_UNDERSCORE_TEST,
        play: |p| {
            p.write(
                "lib/more_test.js",
                "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./calc.js');\n\ntest('adds big', () => {\n  assert.strictEqual(add(1000, 1), 1001);\n});\n",
            );
        },
    },
    Honest {
        name: "cargo_new_doc_example",
        fixture: &CARGO_DOCTEST,
        play: |p| {
            edit(
                p,
                "src/lib.rs",
                "/// Adds.\n",
                "/// Adds.\n///\n/// ```\n/// assert_eq!(calc::add(0, 0), 0);\n/// ```\n",
            )
        },
    },
    Honest {
        name: "pytest_new_docstring_example_and_prose",
        fixture: &PYTEST_DOCTEST,
        play: |p| {
            edit(
                p,
                "calc.py",
                "Adds.\n\n    >>> add(1, 2)\n    3\n",
                "Adds two numbers.\n\n    >>> add(1, 2)\n    3\n    >>> add(0, 0)\n    0\n",
            )
        },
    },
    Honest {
        name: "go_helper_package_gains_a_helper",
        fixture: &GO_HELPER,
        play: |p| {
            p.write(
                "internal/testutil/true.go",
                "package testutil\n\nimport \"testing\"\n\nfunc True(t *testing.T, ok bool) {\n\tt.Helper()\n\tif !ok {\n\t\tt.Fatal(\"not true\")\n\t}\n}\n",
            );
        },
    },
];

fn find<'a, T>(cases: &'a [T], name: &str, of: impl Fn(&T) -> &str) -> &'a T {
    cases.iter().find(|c| of(c) == name).expect("no such case")
}

macro_rules! closure_cases {
    (moves: $($move:ident),* $(,)?; honest: $($honest:ident),* $(,)?) => {
        $(#[test] fn $move() { play_move(find(MOVES, stringify!($move), |m| m.name)); })*
        $(#[test] fn $honest() { play_honest(find(HONEST, stringify!($honest), |h| h.name)); })*
        const MOVE_TESTS: &[&str] = &[$(stringify!($move)),*];
        const HONEST_TESTS: &[&str] = &[$(stringify!($honest)),*];
    };
}

closure_cases!(
    moves:
    pytest_toml_loads_a_patching_plugin,
    dot_pytest_toml_loads_a_patching_plugin,
    pytest_ini_in_the_parent_directory,
    pytest_ini_in_the_named_test_directory,
    make_gnumakefile_beside_the_makefile,
    make_lowercase_makefile_beside_the_makefile,
    make_wildcard_include_replaces_the_interpreter,
    make_variable_runs_pytest_whose_ini_loads_a_plugin,
    make_recipe_of_the_goal_replaced,
    make_goal_no_longer_phony,
    sourced_settings_file_wraps_the_interpreter,
    cargo_config_runner_in_the_parent_directory,
    unittest_tests_py_weakened,
    node_root_test_js_weakened,
    node_root_test_js_skipped,
    node_underscore_test_js_weakened,
    pytest_python_files_test_weakened,
    pytest_python_files_test_skipped,
    go_test_under_build_weakened,
    unittest_tests_py_deleted_test,
    cargo_doctest_weakened,
    cargo_doctest_ignored,
    pytest_doctest_expected_output_weakened,
    pytest_helper_module_checks_nothing,
    node_shared_assertion_helper_passes_all,
    go_testutil_package_checks_nothing;
    honest:
    make_new_target_the_verify_does_not_use,
    make_unused_target_recipe_changed,
    cargo_new_bin_and_bench_targets,
    cargo_new_path_dependency_and_feature,
    pytest_lint_config_and_readme,
    pytest_new_source_module_and_its_tests,
    npm_lint_config_and_readme,
    pytest_new_helper_in_the_helper_module,
    unittest_tests_py_new_test,
    node_new_underscore_test_file,
    cargo_new_doc_example,
    pytest_new_docstring_example_and_prose,
    go_helper_package_gains_a_helper,
);

/// Every case of these classes has a test and the reverse, names are unique, and each class has moves.
#[test]
fn every_closure_case_runs() {
    fn names<'a>(list: &[&'a str]) -> std::collections::BTreeSet<&'a str> {
        list.iter().copied().collect()
    }
    let moves: Vec<&str> = MOVES.iter().map(|m| m.name).collect();
    let honest: Vec<&str> = HONEST.iter().map(|h| h.name).collect();
    assert_eq!(names(&moves), names(MOVE_TESTS));
    assert_eq!(names(&honest), names(HONEST_TESTS));
    assert_eq!(moves.len(), names(&moves).len(), "move names must be unique");
    assert!(
        moves.len() >= 20 && honest.len() >= 10,
        "{} moves, {} honest",
        moves.len(),
        honest.len()
    );
    println!(
        "[gaming] issue 21: {} moves, {} honest changes",
        moves.len(),
        honest.len()
    );
}
