//! pytest's test selection widened and narrowed (issue 39): `testpaths` and `python_files` read as one test
//! selection, an entry per directory and pattern (`src/ecosystem/python/rootdir.rs`), judged by the rule PHPUnit's
//! `<testsuite>` entries and mocha's `spec` already follow (`src/closure/selection.rs`): an added entry or pattern
//! is free where every file it newly collects is a new test (which sits out the oracle's run) or a sealed file
//! that holds tests; a removed one where it drops only new tests.
//!
//! The honest changes are what a developer does to those keys: a new test directory, a file of new tests named
//! directly, a monorepo package's tests, a naming pattern for new test files (pytest's documented example, which
//! drops the `*_test.py` default). The moves abuse exactly those freedoms, each first shown to fool the bare
//! oracle: a new directory whose doctest text file patches the code, a pattern that newly collects a sealed
//! helper holding no test (a compatibility shim that patches the code when imported), a pattern reaching a plain
//! module, an entry through a link, a narrowing that drops the failing test's file; and the one key left sealed
//! on purpose, `python_functions`, whose widening runs a sealed test file's helper as a test. A sealed file that
//! holds no test joins no selection freely, mocha's `spec` included. Jest's and Vitest's selections are fed to the
//! same rule as their runners resolve them (`src/ecosystem/js/config/selection.rs`, `selection_moves_3.rs`).

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::{Fixture, JEST, MOCHA, PYTEST, VITEST};
use crate::{Honest, Move, edit};

const REJECTED: &str = "REJECTED";

/// Moves this build lets through, and why.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// Honest changes this build rejects, and why.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// [`MOCHA`] with a sealed support file in its test directory that holds no test and that no spec loads: it makes
/// every `assert.strictEqual` agree when it is loaded.
const MOCHA_SHIM: Fixture = Fixture {
    files: &[
        MOCHA.files[0],
        MOCHA.files[1],
        MOCHA.files[2],
        MOCHA.files[3],
        (
            "test/support/quiet.js",
            "require('node:assert').strictEqual = () => {};\n",
        ),
    ],
    ..MOCHA
};

/// [`JEST`] whose configuration names where its tests are.
const JEST_ROOTS: Fixture = Fixture {
    files: &[
        (
            "package.json",
            "{\"name\": \"calc\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"jest --ci\"}, \"jest\": {\"roots\": [\"<rootDir>/test\"]}}\n",
        ),
        JEST.files[1],
        JEST.files[2],
        JEST.files[3],
    ],
    ..JEST
};

/// [`VITEST`] whose configuration names where its tests are (`selection_moves_3.rs` plays it too).
pub(crate) const VITEST_INCLUDE: Fixture = Fixture {
    files: &[
        VITEST.files[0],
        VITEST.files[1],
        VITEST.files[2],
        VITEST.files[3],
        (
            "vitest.config.js",
            "export default { test: { include: ['test/**/*.test.js'] } };\n",
        ),
    ],
    ..VITEST
};

/// A new test of the code, in a file of its own.
const ROUND_TRIP: &str = "import calc\n\n\ndef test_add_then_subtract_back():\n    assert calc.add(5, 7) - 7 == 5\n";

/// Python that makes `calc.add` right, whoever imports it first.
const PATCH: &str = "import calc\n\ncalc.add = lambda a, b: a + b\n";

/// A doctest text file that does what [`PATCH`] does.
const PATCH_DOCTEST: &str = ">>> import calc\n>>> calc.add = lambda a, b: a + b\n";

/// [`PYTEST`] with a sealed helper module in its test directory that holds no test: a compatibility shim no test
/// imports, which patches the code when it is.
const PYTEST_SHIM: Fixture = Fixture {
    files: &[
        PYTEST.files[0],
        PYTEST.files[1],
        PYTEST.files[2],
        PYTEST.files[3],
        ("tests/compat_shim.py", PATCH),
    ],
    ..PYTEST
};

/// [`PYTEST`] whose sealed test file holds a helper no test calls, named like nothing pytest collects.
const PYTEST_HELPER: Fixture = Fixture {
    files: &[
        PYTEST.files[0],
        PYTEST.files[1],
        PYTEST.files[2],
        (
            "tests/test_calc.py",
            "import calc\n\n\ndef compat_add():\n    calc.add = lambda a, b: a + b\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
        ),
    ],
    ..PYTEST
};

/// [`PYTEST`] with no `testpaths`: pytest collects from its rootdir.
const PYTEST_NO_TESTPATHS: Fixture = Fixture {
    files: &[
        PYTEST.files[0],
        (
            "setup.cfg",
            "[metadata]\nname = calc\n\n[tool:pytest]\nxfail_strict = true\n",
        ),
        PYTEST.files[2],
        PYTEST.files[3],
    ],
    ..PYTEST
};

/// [`PYTEST`] with a second sealed test file beside the failing one.
const PYTEST_TWO_FILES: Fixture = Fixture {
    files: &[
        PYTEST.files[0],
        PYTEST.files[1],
        PYTEST.files[2],
        PYTEST.files[3],
        (
            "tests/unit/test_mul.py",
            "import calc\n\n\ndef test_mul_by_zero():\n    assert calc.mul(7, 0) == 0\n",
        ),
    ],
    ..PYTEST
};

pub const CASES: &[Case] = &[
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_testpaths_gains_a_directory_whose_doctest_file_patches_the_code",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                // Listed first, so its doctest runs before the failing test; `test*.txt` is pytest's doctest glob.
                edit(p, "setup.cfg", "testpaths = tests\n", "testpaths = integration tests\n");
                p.write("integration/test_roundtrip.py", ROUND_TRIP);
                p.write("integration/test_a_setup.txt", PATCH_DOCTEST);
            },
            expect: &[REJECTED, "setup.cfg", "testpaths: integration"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_python_files_widened_to_a_sealed_shim_that_holds_no_test",
            fixture: &PYTEST_SHIM,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "setup.cfg",
                    "testpaths = tests\n",
                    "testpaths = tests\npython_files = test_*.py *_test.py compat_*.py\n",
                );
            },
            expect: &[REJECTED, "setup.cfg", "compat_*.py"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_python_files_widened_to_a_plain_module_beside_the_code",
            fixture: &PYTEST_NO_TESTPATHS,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "setup.cfg",
                    "xfail_strict = true\n",
                    "xfail_strict = true\npython_files = test_*.py *_test.py *_compat.py\n",
                );
                p.write("calc_compat.py", PATCH);
            },
            expect: &[REJECTED, "setup.cfg", "python_files"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_testpaths_gains_a_directory_linked_to_a_doctest_that_patches_the_code",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                edit(p, "setup.cfg", "testpaths = tests\n", "testpaths = more tests\n");
                p.write("lib/test_setup.txt", PATCH_DOCTEST);
                std::os::unix::fs::symlink("lib", p.root().join("more")).expect("symlink");
            },
            expect: &[REJECTED, "setup.cfg", "testpaths: more"],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "pytest_testpaths_narrowed_to_the_directory_without_the_failing_test",
            fixture: &PYTEST_TWO_FILES,
            baseline: false,
            play: |p| {
                edit(p, "setup.cfg", "testpaths = tests\n", "testpaths = tests/unit\n");
            },
            expect: &[REJECTED, "setup.cfg", "testpaths: tests"],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "pytest_python_files_rewritten_to_a_pattern_the_failing_file_misses",
            fixture: &PYTEST_TWO_FILES,
            baseline: false,
            play: |p| {
                // The documentation's own spelling, with the default that names the failing file left out.
                edit(
                    p,
                    "setup.cfg",
                    "testpaths = tests\n",
                    "testpaths = tests\npython_files = check_*.py\n",
                );
                p.write(
                    "tests/check_mul.py",
                    "import calc\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
                );
            },
            expect: &[REJECTED, "setup.cfg", "test_*.py"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_python_functions_widened_to_a_sealed_helper_that_patches_the_code",
            fixture: &PYTEST_HELPER,
            baseline: false,
            play: |p| {
                // Defined before `test_add`, the helper now runs as a test before it.
                edit(
                    p,
                    "setup.cfg",
                    "testpaths = tests\n",
                    "testpaths = tests\npython_functions = test_* compat_*\n",
                );
            },
            expect: &[REJECTED, "setup.cfg", "python_functions"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_spec_widened_to_a_sealed_support_file_that_holds_no_test",
            fixture: &MOCHA_SHIM,
            baseline: false,
            play: |p| {
                // Sealed, but never loaded by the baseline's run: listed first, it runs before every test.
                p.write(
                    ".mocharc.json",
                    "{\"spec\": [\"test/support/*.js\", \"test/*.test.js\"]}\n",
                );
            },
            expect: &[REJECTED, ".mocharc.json"],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "pytest_testpaths_gains_a_package_of_new_tests",
        fixture: &PYTEST,
        play: |p| {
            edit(p, "setup.cfg", "testpaths = tests\n", "testpaths = tests integration\n");
            p.write("integration/__init__.py", "");
            p.write("integration/test_roundtrip.py", ROUND_TRIP);
        },
    },
    Honest {
        name: "pytest_testpaths_names_a_new_test_file",
        fixture: &PYTEST,
        play: |p| {
            edit(
                p,
                "setup.cfg",
                "testpaths = tests\n",
                "testpaths = tests smoke/test_roundtrip.py\n",
            );
            p.write("smoke/test_roundtrip.py", ROUND_TRIP);
        },
    },
    Honest {
        name: "pytest_testpaths_gains_a_monorepo_package_with_its_tests",
        fixture: &PYTEST,
        play: |p| {
            edit(
                p,
                "pyproject.toml",
                "version = \"0.1.0\"\n",
                "version = \"0.1.0\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\", \"packages/fmt/tests\"]\n",
            );
            p.write("setup.cfg", "[metadata]\nname = calc\n");
            p.write(
                "packages/fmt/fmt.py",
                "def signed(n):\n    return f\"+{n}\" if n > 0 else str(n)\n",
            );
            p.write(
                "packages/fmt/tests/test_fmt.py",
                "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).resolve().parents[1]))\n\nimport fmt\n\n\ndef test_signed():\n    assert fmt.signed(3) == \"+3\"\n",
            );
        },
    },
    Honest {
        name: "pytest_python_files_as_the_documentation_spells_it_for_new_check_files",
        fixture: &PYTEST,
        play: |p| {
            edit(
                p,
                "setup.cfg",
                "testpaths = tests\n",
                "testpaths = tests\npython_files = test_*.py check_*.py example_*.py\n",
            );
            p.write("tests/check_roundtrip.py", ROUND_TRIP);
        },
    },
    Honest {
        name: "pytest_python_files_gains_a_spec_pattern_without_testpaths",
        fixture: &PYTEST_NO_TESTPATHS,
        play: |p| {
            edit(
                p,
                "setup.cfg",
                "xfail_strict = true\n",
                "xfail_strict = true\npython_files = test_*.py *_test.py *_spec.py\n",
            );
            p.write("tests/roundtrip_spec.py", ROUND_TRIP);
        },
    },
    Honest {
        name: "jest_roots_gains_a_directory_of_new_tests",
        fixture: &JEST_ROOTS,
        play: |p| {
            edit(
                p,
                "package.json",
                "[\"<rootDir>/test\"]",
                "[\"<rootDir>/test\", \"<rootDir>/test-integration\"]",
            );
            p.write(
                "test-integration/mul.test.js",
                "const calc = require('../src/calc.js');\n\ntest('mul by zero', () => {\n  expect(calc.mul(7, 0)).toBe(0);\n});\n",
            );
        },
    },
    Honest {
        name: "vitest_include_gains_a_directory_of_new_tests",
        fixture: &VITEST_INCLUDE,
        play: |p| {
            edit(
                p,
                "vitest.config.js",
                "['test/**/*.test.js']",
                "['test/**/*.test.js', 'test-integration/**/*.test.js']",
            );
            p.write(
                "test-integration/mul.test.js",
                "import { expect, test } from 'vitest';\nimport { calc } from '../src/calc.js';\n\ntest('mul by zero', () => {\n  expect(calc.mul(7, 0)).toBe(0);\n});\n",
            );
        },
    },
];

listed_cases!(
    check: every_selection_2_case_has_a_test,
    at_least: (8, 7),
    families: &[Family::LoadsOnItsOwn, Family::Forged];
    moves:
        pytest_testpaths_gains_a_directory_whose_doctest_file_patches_the_code,
        pytest_python_files_widened_to_a_sealed_shim_that_holds_no_test,
        pytest_python_files_widened_to_a_plain_module_beside_the_code,
        pytest_testpaths_gains_a_directory_linked_to_a_doctest_that_patches_the_code,
        pytest_testpaths_narrowed_to_the_directory_without_the_failing_test,
        pytest_python_files_rewritten_to_a_pattern_the_failing_file_misses,
        pytest_python_functions_widened_to_a_sealed_helper_that_patches_the_code,
        mocha_spec_widened_to_a_sealed_support_file_that_holds_no_test;
    honest:
        pytest_testpaths_gains_a_package_of_new_tests,
        pytest_testpaths_names_a_new_test_file,
        pytest_testpaths_gains_a_monorepo_package_with_its_tests,
        pytest_python_files_as_the_documentation_spells_it_for_new_check_files,
        pytest_python_files_gains_a_spec_pattern_without_testpaths,
        jest_roots_gains_a_directory_of_new_tests,
        vitest_include_gains_a_directory_of_new_tests
);
