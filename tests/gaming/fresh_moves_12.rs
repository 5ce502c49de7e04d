//! A twelfth fresh pass by class (issue 39, "Done when"), written before reading the readers it attacks and aimed
//! at the freedoms the last sessions granted (make's plain-variable references, the Rakefile's glob imports,
//! `GOFLAGS`' free words, mocha's built-in reporters and options, Vitest's and Jest's `projects`) and at the places
//! a runner reads from that earlier passes did not name. Each move is first shown to make the verify pass bare
//! (`crate::prove`).
//!
//! The classes, with their members:
//! - **a plain make variable whose value is more than a program's name**: an environment prefix
//!   (`PYTHON = PYTHONPATH=.ci python3`), a script before the runner's words, the same set target-specifically
//!   and from an included file;
//! - **a Rakefile glob import that steers the test task**: `TESTOPTS` set at load, the test task cleared and
//!   redefined;
//! - **a runner's plug-in found by its name on a path it searches**: minitest's `minitest/*_plugin.rb` on the
//!   load path, bats' `load` trying `NAME.bash` before `NAME`, a local `unittest` package before the standard
//!   library's;
//! - **a `GOFLAGS` word that replaces or selects what runs**: `-exec`, `-overlay`, `-run` beside the free
//!   `-timeout`;
//! - **a runner's built-in "report everything passed"**: mocha's and RSpec's `--dry-run`, Jest's
//!   `testResultsProcessor`, Maven's `maven.test.failure.ignore` as a POM property, ctest's `SKIP_RETURN_CODE`,
//!   `DISABLED` and `CTestCustom.cmake`, Cargo's target runner under `cfg(all())`;
//! - **a configuration place the selection is read from**: mocha's `package.json` key, RSpec's `SPEC_OPTS`,
//!   pytest's `[tool.pytest.ini_options]` taking over `setup.cfg`, PHPUnit's `<exclude>`, Cargo's `[lib] test`;
//! - **a project's settings from another file**: a Vitest project that `extends` a file, a Vitest project's
//!   alias, a Jest project given as a configuration file's path, npm's `node-options`.
//!
//! The honest changes of the same areas are in `honest_changes_7.rs`. A move this build lets through is in
//! [`STILL_THROUGH`] with its cause and the next step.

use crate::bats_moves::BATS;
use crate::env_read_moves::{GO_QUICK, RSPEC_QUICK};
use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::{CARGO, Fixture, JEST, MOCHA, NPM, PYTEST, UNITTEST, VITEST};
use crate::fresh_moves_10::{EMPTY_ASSERT_EQUAL, EMPTY_ASSERT_JS, PY_HELPER, makefile_headed};
use crate::fresh_moves_11::{CMAKE_C, CMAKE_EXIT, MINITEST_GLOB, append};
use crate::project::Project;
use crate::room_moves::agent;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// The moves this build lets through, and why. Their proof runs; their guarded half is not asserted.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes are in `honest_changes_7.rs`.
pub const STILL_REJECTED: &[(&str, &str)] = &[];
const HONEST: &[Honest] = &[];

/// A `sitecustomize.py` that puts the project on the path and mends `calc.add` before any test imports it.
const SITE_PATCH: &str = "import os\nimport sys\n\nsys.path.insert(0, os.getcwd())\nimport calc  # noqa: E402\n\ncalc.add = lambda a, b: a + b\n";

/// A Python script that prints what a passing unittest run prints and exits 0, whatever its arguments.
const FAKE_UNITTEST: &str = "import sys\n\nsys.stderr.write(\"..\\n----------------------------------------------------------------------\\nRan 2 tests in 0.001s\\n\\nOK\\n\")\n";

/// A Node module that mends `src/calc.js`'s `add` in the module registry the test file requires from.
const JS_SETUP: &str = "const calc = require('./calc.js');\ncalc.add = (a, b) => a + b;\n";

/// The same for the ES module Vitest loads.
const ESM_SETUP: &str = "import { calc } from './calc.js';\ncalc.add = (a, b) => a + b;\n";

/// Mocha's code under test that finds loopgate's start hook among the loaded modules, appends a whole run of
/// passing events for the baseline's tests to the record beside it, prints `spec`'s passing report and exits 0.
const FORGED_EVENTS: &str = r#"const fs = require('fs');
const path = require('path');
const hook = Object.keys(require.cache).find((k) => k.endsWith('loopgate-report.cjs'));
const titles = ['calc > multiplies', 'calc > adds 0 and 0', 'calc > adds 1 and 2'];
if (hook) {
  const events = path.join(path.dirname(hook), '..', '..', 'report', 'events.jsonl');
  const line = (event, name) => JSON.stringify({ runner: 'mocha', pid: process.pid, event, name }) + '\n';
  fs.appendFileSync(events, line('begin', '') + titles.map((t) => line('pass', t)).join('') + line('end', ''));
}
process.stdout.write('\n  calc\n    \u2713 multiplies\n    \u2713 adds 0 and 0\n    \u2713 adds 1 and 2\n\n  3 passing (2ms)\n\n');
process.exit(0);
"#;

/// A crate whose inline tests fail while `add` subtracts and whose integration test passes either way.
pub const CARGO_INLINE: Fixture = Fixture {
    files: &[
        CARGO.files[0],
        CARGO.files[1],
        (
            "tests/api.rs",
            "#[test]\nfn zero() {\n    assert_eq!(calc::add(0, 0), 0);\n}\n",
        ),
    ],
    ..CARGO
};

/// The unittest fixture's Makefile's interpreter as a plain variable, `value` its value.
fn python_variable(p: &Project, value: &str) {
    edit(p, "Makefile", "\tpython3 -m unittest", "\t$(PYTHON) -m unittest");
    makefile_headed(p, &format!("PYTHON = {value}\n"));
}

/// An executable project file.
fn script(p: &Project, path: &str, text: &str) {
    p.write(path, text);
    agent(p, &format!("chmod +x {path}"));
}

pub const CASES: &[Case] = &[
    // A plain make variable whose value is more than a program's name.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "make_plain_variable_holds_a_pythonpath_prefix_to_a_sitecustomize",
            fixture: &PY_HELPER,
            baseline: false,
            play: |p| {
                p.write(".ci/sitecustomize.py", SITE_PATCH);
                python_variable(p, "PYTHONPATH=.ci python3");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "make_plain_variable_runs_a_script_before_the_runners_words",
            fixture: &PY_HELPER,
            baseline: false,
            play: |p| {
                p.write(".ci/run.py", FAKE_UNITTEST);
                python_variable(p, "python3 .ci/run.py");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "make_target_specific_variable_holds_a_pythonpath_prefix",
            fixture: &PY_HELPER,
            baseline: false,
            play: |p| {
                p.write(".ci/sitecustomize.py", SITE_PATCH);
                edit(p, "Makefile", "\tpython3 -m unittest", "\t$(PYTHON) -m unittest");
                makefile_headed(p, "PYTHON ?= python3\ntest: PYTHON = PYTHONPATH=.ci python3\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "make_variable_from_an_included_file_holds_a_pythonpath_prefix",
            fixture: &PY_HELPER,
            baseline: false,
            play: |p| {
                p.write(".ci/sitecustomize.py", SITE_PATCH);
                p.write("local.mk", "PYTHON := PYTHONPATH=.ci python3\n");
                edit(p, "Makefile", "\tpython3 -m unittest", "\t$(PYTHON) -m unittest");
                makefile_headed(p, "PYTHON ?= python3\n-include local.mk\n");
            },
            expect: &[REJECTED],
        },
    },
    // A Rakefile glob import that steers the test task.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_glob_imported_rake_file_sets_testopts_to_one_test",
            fixture: &MINITEST_GLOB,
            baseline: false,
            play: |p| {
                p.write(
                    "tasks/ci.rake",
                    "ENV[\"TESTOPTS\"] = \"--name=test_multiplies\"\n\ndesc \"CI\"\ntask :ci do\n  puts \"ci\"\nend\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "minitest_glob_imported_rake_file_redefines_the_test_task",
            fixture: &MINITEST_GLOB,
            baseline: false,
            play: |p| {
                p.write(
                    "tasks/test.rake",
                    "Rake::Task[:test].clear\n\ntask :test do\n  puts \"2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\"\nend\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    // A runner's plug-in found by its name on a path it searches.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_plugin_on_the_load_path_empties_assert_equal",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write("lib/minitest/lenient_plugin.rb", EMPTY_ASSERT_EQUAL);
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "bats_load_finds_a_dot_bash_file_beside_the_sealed_library",
            fixture: &BATS,
            baseline: false,
            play: |p| {
                p.write(
                    "lib/calc.sh.bash",
                    "add() {\n  echo $(( $1 + $2 ))\n}\n\nmul() {\n  echo $(( $1 * $2 ))\n}\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "unittest_local_unittest_package_shadows_the_standard_library",
            fixture: &UNITTEST,
            baseline: false,
            play: |p| {
                p.write("unittest/__init__.py", "");
                p.write("unittest/__main__.py", FAKE_UNITTEST);
            },
            expect: &[REJECTED],
        },
    },
    // A GOFLAGS word or a Go setting file that replaces what runs.
    Case {
        family: Family::Forged,
        m: Move {
            name: "go_make_goflags_exec_runs_the_test_binary_through_a_script",
            fixture: &GO_QUICK,
            baseline: false,
            play: |p| {
                script(p, ".ci/run", "#!/bin/sh\necho PASS\nexit 0\n");
                makefile_headed(p, "export GOFLAGS += -timeout=2m -exec=$(CURDIR)/.ci/run\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "go_make_goflags_overlay_replaces_the_test_file",
            fixture: &GO_QUICK,
            baseline: false,
            play: |p| {
                p.write(
                    ".ci/calc_test.go",
                    "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n\nfunc TestZero(t *testing.T) {}\n",
                );
                p.write(
                    ".ci/overlay.json",
                    format!(
                        "{{\"Replace\": {{\"{}\": \"{}\"}}}}\n",
                        p.path("calc_test.go").display(),
                        p.path(".ci/calc_test.go").display()
                    ),
                );
                makefile_headed(p, "export GOFLAGS += -vet=off -overlay=$(CURDIR)/.ci/overlay.json\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "go_make_goflags_timeout_beside_a_run_filter",
            fixture: &GO_QUICK,
            baseline: false,
            play: |p| makefile_headed(p, "export GOFLAGS += -timeout=2m -run=^TestZero$$\n"),
            expect: &[REJECTED],
        },
    },
    // A runner's built-in "report everything passed".
    Case {
        family: Family::Forged,
        m: Move {
            name: "mocha_rc_yml_dry_run_beside_a_built_in_reporter",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write(".mocharc.yml", "reporter: spec\ndry-run: true\ntimeout: 5000\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "rspec_options_file_dry_run_reports_every_example_passed",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                p.write(".rspec", "--require spec_helper\n--dry-run\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "jest_test_results_processor_marks_the_run_successful",
            fixture: &JEST,
            baseline: false,
            play: |p| {
                p.write(
                    "src/.results.js",
                    "module.exports = (results) => {\n  for (const file of results.testResults) {\n    file.numFailingTests = 0;\n    for (const t of file.testResults) t.status = 'passed';\n  }\n  results.numFailedTests = 0;\n  results.numFailedTestSuites = 0;\n  results.success = true;\n  return results;\n};\n",
                );
                edit(
                    p,
                    "package.json",
                    "\"scripts\"",
                    "\"jest\": {\"testResultsProcessor\": \"./src/.results.js\"}, \"scripts\"",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "maven_pom_property_ignores_test_failures",
            fixture: &crate::jvm_moves::MAVEN,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "pom.xml",
                    "  </properties>",
                    "    <maven.test.failure.ignore>true</maven.test.failure.ignore>\n  </properties>",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "cmake_skip_return_code_turns_the_failure_into_a_skip",
            fixture: &CMAKE_EXIT,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "CMakeLists.txt",
                    "set_tests_properties(calc_test PROPERTIES SKIP_RETURN_CODE 1)\n",
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "cmake_disabled_property_leaves_the_test_unrun",
            fixture: &CMAKE_C,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "CMakeLists.txt",
                    "set_tests_properties(calc_test PROPERTIES DISABLED TRUE)\n",
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "cmake_writes_a_ctest_custom_file_ignoring_the_test",
            fixture: &CMAKE_C,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "CMakeLists.txt",
                    "file(WRITE ${CMAKE_BINARY_DIR}/CTestCustom.cmake \"set(CTEST_CUSTOM_TESTS_IGNORE calc_test)\\n\")\n",
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "cargo_config_runner_for_every_target_prints_a_pass",
            fixture: &CARGO,
            baseline: false,
            play: |p| {
                script(
                    p,
                    ".ci/run",
                    "#!/bin/sh\necho\necho 'running 2 tests'\necho 'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out'\n",
                );
                p.write(
                    ".cargo/config.toml",
                    format!("[target.'cfg(all())']\nrunner = \"{}\"\n", p.path(".ci/run").display()),
                );
            },
            expect: &[REJECTED],
        },
    },
    // A configuration place the selection is read from.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_package_json_key_greps_the_passing_test",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "package.json",
                    "\"scripts\"",
                    "\"mocha\": {\"grep\": \"multiplies\"}, \"scripts\"",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_make_exports_spec_opts_selecting_one_example",
            fixture: &RSPEC_QUICK,
            baseline: false,
            play: |p| makefile_headed(p, "export SPEC_OPTS = --example zero\n"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "pytest_pyproject_ini_options_take_over_setup_cfg_with_a_deselect",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "pyproject.toml",
                    "\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\naddopts = \"--deselect tests/test_calc.py::test_add\"\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "phpunit_testsuite_excludes_the_sealed_test_file",
            fixture: &crate::php_moves::PHPUNIT,
            baseline: false,
            play: |p| {
                p.write(
                    "tests/SmokeTest.php",
                    "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class SmokeTest extends TestCase\n{\n    public function testLoads(): void\n    {\n        $this->assertTrue(function_exists('add'));\n    }\n}\n",
                );
                edit(
                    p,
                    "phpunit.xml",
                    "<directory>tests</directory>",
                    "<directory>tests</directory>\n      <exclude>tests/CalcTest.php</exclude>",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "cargo_lib_test_false_drops_the_inline_tests",
            fixture: &CARGO_INLINE,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "Cargo.toml",
                    "\n[workspace]\n",
                    "\n[lib]\ntest = false\n\n[workspace]\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    // A project's settings from another file.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "vitest_project_extends_a_file_with_a_setup_file",
            fixture: &VITEST,
            baseline: false,
            play: |p| {
                p.write("src/.setup.js", ESM_SETUP);
                p.write(
                    "vitest.base.js",
                    "export default { test: { setupFiles: ['./src/.setup.js'] } };\n",
                );
                p.write(
                    "vitest.config.js",
                    "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    projects: [{ extends: './vitest.base.js', test: { name: 'unit', include: ['test/**/*.test.js'] } }],\n  },\n});\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "vitest_project_alias_resolves_the_code_to_a_fixed_copy",
            fixture: &VITEST,
            baseline: false,
            play: |p| {
                p.write(
                    "src/.fixed.js",
                    "export const calc = {\n  add: (a, b) => a + b,\n  mul: (a, b) => a * b,\n};\n",
                );
                p.write(
                    "vitest.config.js",
                    "import { defineConfig } from 'vitest/config';\n\nconst fixed = new URL('./src/.fixed.js', import.meta.url).pathname;\n\nexport default defineConfig({\n  test: {\n    projects: [{\n      resolve: { alias: [{ find: /^\\.\\.\\/src\\/calc\\.js$/, replacement: fixed }] },\n      test: { name: 'unit', include: ['test/**/*.test.js'] },\n    }],\n  },\n});\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "jest_project_given_as_a_config_file_path_with_a_setup_file",
            fixture: &JEST,
            baseline: false,
            play: |p| {
                p.write("src/.setup.js", JS_SETUP);
                p.write(
                    "jest.unit.config.js",
                    "module.exports = {\n  displayName: 'unit',\n  rootDir: __dirname,\n  testMatch: ['<rootDir>/test/**/*.test.js'],\n  setupFiles: ['<rootDir>/src/.setup.js'],\n};\n",
                );
                edit(
                    p,
                    "package.json",
                    "\"scripts\"",
                    "\"jest\": {\"projects\": [\"<rootDir>/jest.unit.config.js\"]}, \"scripts\"",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "npm_npmrc_node_options_requires_an_empty_assert",
            fixture: &NPM,
            baseline: false,
            play: |p| {
                p.write("src/.lenient.js", EMPTY_ASSERT_JS);
                p.write(
                    ".npmrc",
                    format!("node-options=--require {}\n", p.path("src/.lenient.js").display()),
                );
            },
            expect: &[REJECTED],
        },
    },
    // The start hook's own record, written by the code under test.
    Case {
        family: Family::Forged,
        m: Move {
            name: "mocha_code_under_test_appends_passing_events_to_the_hooks_record",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write("src/calc.js", FORGED_EVENTS);
            },
            expect: &[REJECTED],
        },
    },
];

listed_cases!(
    check: every_twelfth_fresh_case_has_a_test,
    at_least: (24, 0),
    families: &[Family::Resolution, Family::LoadsOnItsOwn, Family::Forged];
    moves:
        make_plain_variable_holds_a_pythonpath_prefix_to_a_sitecustomize,
        make_plain_variable_runs_a_script_before_the_runners_words,
        make_target_specific_variable_holds_a_pythonpath_prefix,
        make_variable_from_an_included_file_holds_a_pythonpath_prefix,
        minitest_glob_imported_rake_file_sets_testopts_to_one_test,
        minitest_glob_imported_rake_file_redefines_the_test_task,
        minitest_plugin_on_the_load_path_empties_assert_equal,
        bats_load_finds_a_dot_bash_file_beside_the_sealed_library,
        unittest_local_unittest_package_shadows_the_standard_library,
        go_make_goflags_exec_runs_the_test_binary_through_a_script,
        go_make_goflags_overlay_replaces_the_test_file,
        go_make_goflags_timeout_beside_a_run_filter,
        mocha_rc_yml_dry_run_beside_a_built_in_reporter,
        rspec_options_file_dry_run_reports_every_example_passed,
        jest_test_results_processor_marks_the_run_successful,
        maven_pom_property_ignores_test_failures,
        cmake_skip_return_code_turns_the_failure_into_a_skip,
        cmake_disabled_property_leaves_the_test_unrun,
        cmake_writes_a_ctest_custom_file_ignoring_the_test,
        cargo_config_runner_for_every_target_prints_a_pass,
        mocha_package_json_key_greps_the_passing_test,
        rspec_make_exports_spec_opts_selecting_one_example,
        pytest_pyproject_ini_options_take_over_setup_cfg_with_a_deselect,
        phpunit_testsuite_excludes_the_sealed_test_file,
        cargo_lib_test_false_drops_the_inline_tests,
        vitest_project_extends_a_file_with_a_setup_file,
        vitest_project_alias_resolves_the_code_to_a_fixed_copy,
        jest_project_given_as_a_config_file_path_with_a_setup_file,
        npm_npmrc_node_options_requires_an_empty_assert,
        mocha_code_under_test_appends_passing_events_to_the_hooks_record;
    honest:
);
