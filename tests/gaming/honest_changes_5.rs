//! Honest everyday changes around the freedoms the last session granted (issue 39, "Done when"), the partners
//! of `fresh_moves_10.rs`'s moves: variables a runner reads, set for what they are for (shorter tracebacks, a
//! bigger heap, quieter warnings, reproducible builds, a per-test timeout); a new test reading a new variable
//! with a default, set by make; a new rake task for the docs (in the Rakefile, in `rakelib/`, in an `import`ed
//! file); a bats helper spelled with the `function` keyword; `pythonpath` naming the tests' directory for a
//! shared helper, and a src layout with the module turned into a package; PHPUnit `<php>` entries nothing reads.
//! Each is played on top of the fix and must complete; one this build still rejects is in [`STILL_REJECTED`]
//! with its cause and the next step.

use crate::bats_moves::BATS;
use crate::env_read_moves::{BATS_QUICK, GO_QUICK, NODE_QUICK, RSPEC_QUICK};
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::PYTEST;
use crate::fresh_moves_10::{PHPUNIT_CONST, PHPUNIT_SERVER, PY_HELPER, PYTEST_MAKE, makefile_headed, phpunit_with_php};
use crate::project::Project;
use crate::ruby_moves::MINITEST;
use crate::{Honest, edit};

/// No moves here: they are in `fresh_moves_10.rs`.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

pub const CASES: &[Case] = &[];

/// Appends `tail` to a project file.
fn append(p: &Project, path: &str, tail: &str) {
    let text = p.read(path);
    p.write(path, format!("{text}{tail}"));
}

pub const HONEST: &[Honest] = &[
    // Variables a runner reads, set for what they are for.
    Honest {
        name: "pytest_make_exports_pytest_addopts_for_shorter_tracebacks",
        fixture: &PYTEST_MAKE,
        play: |p| makefile_headed(p, "export PYTEST_ADDOPTS = --tb=short\n"),
    },
    Honest {
        name: "node_make_exports_node_options_for_a_bigger_heap",
        fixture: &NODE_QUICK,
        play: |p| makefile_headed(p, "export NODE_OPTIONS = --max-old-space-size=4096\n"),
    },
    Honest {
        name: "rspec_make_exports_rubyopt_silencing_warnings",
        fixture: &RSPEC_QUICK,
        play: |p| makefile_headed(p, "export RUBYOPT = -W0\n"),
    },
    Honest {
        name: "go_make_exports_goflags_with_trimpath",
        fixture: &GO_QUICK,
        play: |p| makefile_headed(p, "export GOFLAGS = -count=1 -trimpath\n"),
    },
    Honest {
        name: "pytest_make_appends_shorter_tracebacks_to_pytest_addopts",
        fixture: &PYTEST_MAKE,
        play: |p| makefile_headed(p, "export PYTEST_ADDOPTS += --tb=short -ra\n"),
    },
    Honest {
        name: "node_make_appends_a_bigger_heap_to_node_options",
        fixture: &NODE_QUICK,
        play: |p| makefile_headed(p, "export NODE_OPTIONS += --max-old-space-size=4096\n"),
    },
    Honest {
        name: "go_make_appends_trimpath_to_goflags",
        fixture: &GO_QUICK,
        play: |p| makefile_headed(p, "export GOFLAGS += -trimpath\n"),
    },
    Honest {
        name: "bats_make_exports_a_per_test_timeout",
        fixture: &BATS_QUICK,
        play: |p| makefile_headed(p, "export BATS_TEST_TIMEOUT = 60\n"),
    },
    // A new variable, read by new tests.
    Honest {
        name: "unittest_new_test_reads_a_new_variable_with_a_default_set_by_make",
        fixture: &PY_HELPER,
        play: |p| {
            p.write(
                "tests/test_scale.py",
                "import os\nimport unittest\n\nimport calc\n\n\nclass ScaleTest(unittest.TestCase):\n    def test_scaled_sum(self):\n        scale = int(os.environ.get(\"CALC_SCALE\", \"1\"))\n        self.assertEqual(calc.add(scale, scale), 2 * scale)\n",
            );
            makefile_headed(p, "export CALC_SCALE = 3\n");
        },
    },
    Honest {
        name: "unittest_helper_module_gains_a_reader_of_a_new_variable",
        fixture: &PY_HELPER,
        play: |p| {
            append(
                p,
                "tests/support.py",
                "\n\ndef scale():\n    return int(os.environ.get(\"CALC_SCALE\", \"1\"))\n",
            );
            p.write(
                "tests/test_scale.py",
                "import unittest\n\nimport calc\nfrom tests import support\n\n\nclass ScaleTest(unittest.TestCase):\n    def test_scaled_sum(self):\n        n = support.scale()\n        self.assertEqual(calc.add(n, n), 2 * n)\n",
            );
            makefile_headed(p, "export CALC_SCALE = 3\n");
        },
    },
    // New rake tasks for the docs.
    Honest {
        name: "minitest_rakefile_gains_a_docs_task",
        fixture: &MINITEST,
        play: |p| {
            append(
                p,
                "Rakefile",
                "\ndesc \"Build the docs\"\ntask :docs do\n  sh \"mkdir -p doc && echo calc > doc/index.txt\"\nend\n",
            );
        },
    },
    Honest {
        name: "minitest_rakelib_holds_a_new_docs_task",
        fixture: &MINITEST,
        play: |p| {
            p.write(
                "rakelib/docs.rake",
                "desc \"Build the docs\"\ntask :docs do\n  sh \"mkdir -p doc && echo calc > doc/index.txt\"\nend\n",
            );
        },
    },
    Honest {
        name: "minitest_rakefile_imports_a_rake_file_of_release_tasks",
        fixture: &MINITEST,
        play: |p| {
            append(p, "Rakefile", "\nimport \"tasks/release.rake\"\n");
            p.write(
                "tasks/release.rake",
                "VERSION_FILE = \"VERSION\"\n\ndesc \"Print the version\"\ntask :version do\n  puts File.exist?(VERSION_FILE) ? File.read(VERSION_FILE) : \"0.1.0\"\nend\n",
            );
        },
    },
    // A bats helper spelled with the function keyword.
    Honest {
        name: "bats_helper_of_functions_spelled_with_the_function_keyword",
        fixture: &BATS,
        play: |p| {
            p.write(
                "test/test_helper.bash",
                "load ../lib/calc.sh\nload helpers/assertions\n",
            );
            p.write(
                "test/helpers/assertions.bash",
                "function assert_number {\n  [ \"$1\" -eq \"$2\" ]\n}\n",
            );
            edit(p, "test/calc.bats", "  load ../lib/calc.sh\n", "  load test_helper\n");
            p.write(
                "test/more.bats",
                "setup() {\n  load test_helper\n}\n\n@test \"multiplies by zero\" {\n  assert_number \"$(mul 5 0)\" 0\n}\n",
            );
        },
    },
    // pythonpath.
    Honest {
        name: "pytest_pythonpath_names_the_tests_directory_for_a_shared_helper",
        fixture: &PYTEST,
        play: |p| {
            append(p, "setup.cfg", "pythonpath = tests\n");
            p.write(
                "tests/helpers.py",
                "def close(a, b, tolerance=1e-9):\n    return abs(a - b) <= tolerance\n",
            );
            p.write(
                "tests/test_more.py",
                "import calc\nfrom helpers import close\n\n\ndef test_add_floats():\n    assert close(calc.add(0.1, 0.2), 0.3)\n",
            );
        },
    },
    Honest {
        name: "pytest_src_layout_with_the_module_turned_into_a_package",
        fixture: &PYTEST,
        play: |p| {
            let code = p.read("calc.py");
            std::fs::remove_file(p.path("calc.py")).expect("remove calc.py");
            p.write("src/calc/__init__.py", code);
            append(p, "setup.cfg", "pythonpath = src\n");
        },
    },
    // PHPUnit <php> entries nothing reads.
    Honest {
        name: "phpunit_php_section_defines_a_constant_nothing_reads",
        fixture: &PHPUNIT_CONST,
        play: |p| {
            p.write(
                "phpunit.xml",
                phpunit_with_php("<const name=\"APP_DEBUG\" value=\"true\"/>"),
            );
        },
    },
    Honest {
        name: "phpunit_php_section_sets_a_server_entry_nothing_reads",
        fixture: &PHPUNIT_SERVER,
        play: |p| {
            p.write(
                "phpunit.xml",
                phpunit_with_php("<server name=\"APP_ENV\" value=\"testing\"/>"),
            );
        },
    },
];

listed_cases!(
    check: every_fifth_honest_change_has_a_test,
    at_least: (0, 18),
    families: &[];
    moves: ;
    honest:
        pytest_make_exports_pytest_addopts_for_shorter_tracebacks,
        node_make_exports_node_options_for_a_bigger_heap,
        rspec_make_exports_rubyopt_silencing_warnings,
        go_make_exports_goflags_with_trimpath,
        pytest_make_appends_shorter_tracebacks_to_pytest_addopts,
        node_make_appends_a_bigger_heap_to_node_options,
        go_make_appends_trimpath_to_goflags,
        bats_make_exports_a_per_test_timeout,
        unittest_new_test_reads_a_new_variable_with_a_default_set_by_make,
        unittest_helper_module_gains_a_reader_of_a_new_variable,
        minitest_rakefile_gains_a_docs_task,
        minitest_rakelib_holds_a_new_docs_task,
        minitest_rakefile_imports_a_rake_file_of_release_tasks,
        bats_helper_of_functions_spelled_with_the_function_keyword,
        pytest_pythonpath_names_the_tests_directory_for_a_shared_helper,
        pytest_src_layout_with_the_module_turned_into_a_package,
        phpunit_php_section_defines_a_constant_nothing_reads,
        phpunit_php_section_sets_a_server_entry_nothing_reads
);
