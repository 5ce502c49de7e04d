//! Honest everyday changes of a thirteenth pass, written by class before reading the readers: a test file renamed
//! or moved within the suite (Jest's `.spec.js`, node's test directory, a Cargo integration test, the inline tests
//! of a crate moved to their own file, an RSpec spec under a directory mirroring `lib`, a PHPUnit class under
//! `tests/Unit`, a bats file), runner options that only change printing, timing or parallelism (pytest's JUnit
//! report for CI and live logs, unittest's `-b`, Jest's workers, Vitest without file parallelism and the dot
//! reporter, mocha in parallel from a JavaScript rc file, node's test concurrency, Go's parallel subtests,
//! Surefire's test output redirected to files), logging in the code, a banner in a make recipe, Sphinx docs with
//! their `conf.py`, environment and editor files the tests do not read (`.envrc`, `.ruby-version`, a
//! `.golangci.yml`), and CMake's `include(CTest)` with a project version. Each is played on top of the fix and
//! must complete; those this build still rejects are in [`STILL_REJECTED`] with their cause and the next step.
//! A runner's options on its command line that are free as keys of its configuration (`jest --maxWorkers=2`,
//! `vitest run --no-file-parallelism --reporter=dot`, `node --test --test-concurrency=1`, unittest's `-b`) are
//! free there too (`runner::command_line`; their moves are `command_line_moves`).
//! A recipe line that only prints literal words (`@echo "==> unit tests"`) is free in make's plan
//! (`make/plan/printing.rs::only_prints`); the move of that class that must stay caught is a banner ending a
//! `.ONESHELL` recipe, whose status 0 would be the recipe's.

use crate::bats_moves::BATS;
use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::{CARGO, Fixture, GO, JEST, MAKE, MOCHA, NPM, PYTEST, VITEST};
use crate::fresh_moves_10::PY_HELPER;
use crate::fresh_moves_11::{CMAKE_C, append};
use crate::project::Project;
use crate::room_moves::agent;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, Move, edit};

/// No move gets through.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// No honest change is rejected.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// unittest under make with `.ONESHELL`: the recipe is one script, whose last command gives make its status.
const MAKE_ONESHELL: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        (
            "Makefile",
            ".ONESHELL:\n.PHONY: test\ntest:\n\tpython3 -m unittest discover -s tests -t . -q\n",
        ),
        MAKE.files[2],
        MAKE.files[3],
        MAKE.files[4],
    ],
    fix: MAKE.fix,
    js: false,
};

/// The move of the recipe banner's class that must stay caught: under `.ONESHELL` a banner after the runner is
/// the script's last command, and its status 0 is the recipe's. The plan names it (the expectation); without the
/// `.ONESHELL` guard the per-test verdict still sees the failing test, so this case fails then on the missing part.
pub const CASES: &[Case] = &[Case {
    family: Family::Forged,
    m: Move {
        name: "make_oneshell_recipe_ends_with_a_banner",
        fixture: &MAKE_ONESHELL,
        baseline: false,
        play: |p| append(p, "Makefile", "\techo \"==> done\"\n"),
        expect: &["REJECTED", "as make resolves it"],
    },
}];

/// Moves `from` to `to` in the project, as `git mv` would.
pub(crate) fn moved(p: &Project, from: &str, to: &str) {
    agent(p, &format!("mkdir -p \"$(dirname {to})\" && mv {from} {to}"));
}

pub const HONEST: &[Honest] = &[
    // Python.
    Honest {
        name: "pytest_configuration_writes_a_junit_report_for_ci",
        fixture: &PYTEST,
        play: |p| {
            append(p, "setup.cfg", "addopts = --junitxml=reports/junit.xml\n");
            p.write(".gitignore", "__pycache__/\n/reports/\n");
        },
    },
    Honest {
        name: "pytest_code_logs_and_the_configuration_shows_the_log_live",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "calc.py",
                "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef add(a, b):\n    log.debug(\"add %s %s\", a, b)\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
            );
            append(p, "setup.cfg", "log_cli = true\nlog_cli_level = DEBUG\n");
        },
    },
    Honest {
        name: "pytest_sphinx_docs_with_their_conf_py",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "docs/conf.py",
                "project = \"calc\"\nextensions = [\"sphinx.ext.autodoc\"]\nhtml_theme = \"alabaster\"\n",
            );
            p.write("docs/index.rst", "calc\n====\n\n.. automodule:: calc\n   :members:\n");
            p.write("docs/requirements.txt", "sphinx>=7\n");
        },
    },
    Honest {
        name: "make_unittest_buffers_the_output_of_passing_tests",
        fixture: &PY_HELPER,
        play: |p| edit(p, "Makefile", "-t . -q\n", "-t . -q -b\n"),
    },
    Honest {
        name: "make_test_recipe_echoes_a_banner",
        fixture: &MAKE,
        play: |p| {
            edit(
                p,
                "Makefile",
                "test:\n\tsh scripts/check.sh\n",
                "test:\n\t@echo \"==> unit tests\"\n\tsh scripts/check.sh\n",
            )
        },
    },
    // JavaScript.
    Honest {
        name: "jest_test_file_renamed_to_the_spec_suffix",
        fixture: &JEST,
        play: |p| moved(p, "test/calc.test.js", "test/calc.spec.js"),
    },
    Honest {
        name: "jest_script_limits_the_workers",
        fixture: &JEST,
        play: |p| edit(p, "package.json", "\"jest --ci\"", "\"jest --ci --maxWorkers=2\""),
    },
    Honest {
        name: "vitest_script_runs_files_one_at_a_time_with_the_dot_reporter",
        fixture: &VITEST,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"vitest run\"",
                "\"vitest run --no-file-parallelism --reporter=dot\"",
            )
        },
    },
    Honest {
        name: "vitest_code_logs_with_console_debug",
        fixture: &VITEST,
        play: |p| {
            p.write(
                "src/calc.js",
                "export const calc = {\n  add: (a, b) => {\n    console.debug('add', a, b);\n    return a + b;\n  },\n  mul: (a, b) => a * b,\n};\n",
            );
        },
    },
    Honest {
        name: "mocha_rc_js_runs_the_files_in_parallel",
        fixture: &MOCHA,
        play: |p| {
            p.write(".mocharc.js", "module.exports = {\n  parallel: true,\n  jobs: 2,\n};\n");
        },
    },
    Honest {
        name: "node_test_script_runs_one_file_at_a_time",
        fixture: &NPM,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"node --test\"",
                "\"node --test --test-concurrency=1\"",
            )
        },
    },
    Honest {
        name: "node_test_file_renamed_within_the_test_directory",
        fixture: &NPM,
        play: |p| moved(p, "test/calc.test.js", "test/arith.test.js"),
    },
    // Go.
    Honest {
        name: "go_new_test_file_with_parallel_subtests",
        fixture: &GO,
        play: |p| {
            p.write(
                "add_test.go",
                "package calc\n\nimport \"testing\"\n\nfunc TestAddTable(t *testing.T) {\n\tt.Parallel()\n\tfor _, c := range []struct{ a, b, want int }{{1, 1, 2}, {-1, 1, 0}} {\n\t\tc := c\n\t\tt.Run(\"case\", func(t *testing.T) {\n\t\t\tt.Parallel()\n\t\t\tif got := Add(c.a, c.b); got != c.want {\n\t\t\t\tt.Errorf(\"Add(%d, %d) = %d\", c.a, c.b, got)\n\t\t\t}\n\t\t})\n\t}\n}\n",
            );
        },
    },
    Honest {
        name: "go_code_logs_through_the_standard_logger",
        fixture: &GO,
        play: |p| {
            p.write(
                "calc.go",
                "package calc\n\nimport \"log\"\n\nfunc Add(a, b int) int {\n\tlog.Printf(\"add %d %d\", a, b)\n\treturn a + b\n}\n",
            );
        },
    },
    Honest {
        name: "go_envrc_and_a_golangci_config",
        fixture: &GO,
        play: |p| {
            p.write(
                ".envrc",
                "export APP_ENV=development\nexport DATABASE_URL=postgres://localhost/calc\n",
            );
            p.write(".golangci.yml", "linters:\n  enable:\n    - gofmt\n    - govet\n");
        },
    },
    // Cargo.
    Honest {
        name: "cargo_inline_tests_moved_to_their_own_file",
        fixture: &CARGO,
        play: |p| {
            p.write(
                "src/lib.rs",
                "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests;\n",
            );
            p.write(
                "src/tests.rs",
                "use super::*;\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n\n#[test]\nfn zero() {\n    assert_eq!(add(0, 0), 0);\n}\n",
            );
        },
    },
    Honest {
        name: "cargo_integration_test_file_renamed",
        fixture: &CARGO,
        play: |p| moved(p, "tests/api.rs", "tests/commutative.rs"),
    },
    // Ruby.
    Honest {
        name: "rspec_spec_moved_under_a_directory_mirroring_lib",
        fixture: &RSPEC,
        play: |p| moved(p, "spec/calc_spec.rb", "spec/lib/calc_spec.rb"),
    },
    Honest {
        name: "minitest_ruby_version_file_and_a_gitignore",
        fixture: &MINITEST,
        play: |p| {
            p.write(".ruby-version", "3.1.2\n");
            p.write(".gitignore", "/coverage/\n/pkg/\n.bundle/\n");
        },
    },
    // PHPUnit.
    Honest {
        name: "phpunit_test_class_moved_into_a_unit_directory",
        fixture: &crate::php_moves::PHPUNIT,
        play: |p| moved(p, "tests/CalcTest.php", "tests/Unit/CalcTest.php"),
    },
    // bats.
    Honest {
        name: "bats_test_file_renamed",
        fixture: &BATS,
        play: |p| moved(p, "test/calc.bats", "test/arithmetic.bats"),
    },
    // Maven.
    Honest {
        name: "maven_surefire_redirects_test_output_to_files",
        fixture: &crate::jvm_moves::MAVEN,
        play: |p| {
            edit(
                p,
                "pom.xml",
                "<version>2.22.3</version>\n",
                "<version>2.22.3</version>\n        <configuration>\n          <redirectTestOutputToFile>true</redirectTestOutputToFile>\n        </configuration>\n",
            );
        },
    },
    // CMake and ctest.
    Honest {
        name: "cmake_include_ctest_and_a_project_version",
        fixture: &CMAKE_C,
        play: |p| {
            edit(
                p,
                "CMakeLists.txt",
                "project(calc C)\n",
                "project(calc VERSION 1.2.0 LANGUAGES C)\n",
            );
            edit(p, "CMakeLists.txt", "enable_testing()\n", "include(CTest)\n");
        },
    },
];

listed_cases!(
    check: every_eighth_honest_change_has_a_test,
    at_least: (1, 16),
    families: &[Family::Forged];
    moves: make_oneshell_recipe_ends_with_a_banner;
    honest:
        pytest_configuration_writes_a_junit_report_for_ci,
        pytest_code_logs_and_the_configuration_shows_the_log_live,
        pytest_sphinx_docs_with_their_conf_py,
        make_unittest_buffers_the_output_of_passing_tests,
        make_test_recipe_echoes_a_banner,
        jest_test_file_renamed_to_the_spec_suffix,
        jest_script_limits_the_workers,
        vitest_script_runs_files_one_at_a_time_with_the_dot_reporter,
        vitest_code_logs_with_console_debug,
        mocha_rc_js_runs_the_files_in_parallel,
        node_test_script_runs_one_file_at_a_time,
        node_test_file_renamed_within_the_test_directory,
        go_new_test_file_with_parallel_subtests,
        go_code_logs_through_the_standard_logger,
        go_envrc_and_a_golangci_config,
        cargo_inline_tests_moved_to_their_own_file,
        cargo_integration_test_file_renamed,
        rspec_spec_moved_under_a_directory_mirroring_lib,
        minitest_ruby_version_file_and_a_gitignore,
        phpunit_test_class_moved_into_a_unit_directory,
        bats_test_file_renamed,
        maven_surefire_redirects_test_output_to_files,
        cmake_include_ctest_and_a_project_version
);
