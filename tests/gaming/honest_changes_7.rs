//! Honest everyday changes of a twelfth fresh pass (issue 39, "Done when"), the partners of `fresh_moves_12.rs`'s
//! moves, written by class before reading the readers: make's variables as developers use them (flags in a
//! variable, the interpreter from an included `config.mk`, `/usr/bin/env`, a `clean` target), a rake file the
//! Rakefile's glob picks up and the test task's own verbosity, Go's `GOFLAGS` with a timeout and `-count=1`, a
//! `vet` prerequisite and an example test, mocha's built-in reporters from `.mocharc.json` and `package.json`,
//! Vitest with one named project and a verbose reporter, Jest's projects with coloured names and a timeout, node's
//! spec reporter, npm metadata, pytest's configuration moved into `pyproject.toml` and a new `conftest.py`, the code
//! made a package, a Rust module split out with a `rustfmt.toml`, a test profile, bats helpers and CI files, RSpec's
//! Gemfile and a new spec, PHPUnit's result cache file and coding-standard leftovers, a POM's description and
//! Surefire's stack traces, ctest's `TIMEOUT`, CMake presets, and an editor's swap file beside a sealed test. Each is
//! played on top of the fix and must complete; one this build still rejects is in [`STILL_REJECTED`] with its cause
//! and the next step.

use crate::bats_moves::BATS;
use crate::env_read_moves::GO_QUICK;
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::{CARGO, GO, JEST, JEST_PROJECTS, MOCHA, NPM, PYTEST, UNITTEST, VITEST};
use crate::fresh_moves_10::{PY_HELPER, makefile_headed};
use crate::fresh_moves_11::{CMAKE_C, MINITEST_GLOB, append};
use crate::project::Project;
use crate::room_moves::agent;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, edit};

/// No moves here: they are in `fresh_moves_12.rs`.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

pub const CASES: &[Case] = &[];

/// A GitHub Actions workflow running `run`.
fn workflow(p: &Project, run: &str) {
    p.write(
        ".github/workflows/ci.yml",
        format!(
            "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: {run}\n"
        ),
    );
}

pub const HONEST: &[Honest] = &[
    // make.
    Honest {
        name: "make_unittest_flags_in_a_plain_variable",
        fixture: &PY_HELPER,
        play: |p| {
            edit(p, "Makefile", "-t . -q\n", "-t . $(UNITTEST_FLAGS)\n");
            makefile_headed(p, "UNITTEST_FLAGS = -q\n");
        },
    },
    Honest {
        name: "make_interpreter_from_an_included_config_mk",
        fixture: &PY_HELPER,
        play: |p| {
            p.write("config.mk", "PYTHON := python3\n");
            edit(p, "Makefile", "\tpython3 -m unittest", "\t$(PYTHON) -m unittest");
            makefile_headed(p, "include config.mk\n");
        },
    },
    Honest {
        name: "make_gains_a_clean_target",
        fixture: &PY_HELPER,
        play: |p| {
            edit(p, "Makefile", ".PHONY: test\n", ".PHONY: test clean\n");
            append(
                p,
                "Makefile",
                "\nclean:\n\tfind . -name __pycache__ -prune -exec rm -rf {} +\n",
            );
        },
    },
    Honest {
        name: "make_runs_python_through_usr_bin_env",
        fixture: &PY_HELPER,
        play: |p| {
            edit(
                p,
                "Makefile",
                "\tpython3 -m unittest",
                "\t/usr/bin/env python3 -m unittest",
            )
        },
    },
    // Ruby.
    Honest {
        name: "minitest_glob_picks_up_a_lint_task_that_shells_out",
        fixture: &MINITEST_GLOB,
        play: |p| {
            p.write(
                "tasks/lint.rake",
                "desc \"Check the syntax\"\ntask :lint do\n  sh \"ruby -wc lib/calc.rb\"\nend\n",
            );
        },
    },
    Honest {
        name: "minitest_test_task_made_verbose_without_warnings",
        fixture: &MINITEST,
        play: |p| {
            edit(
                p,
                "Rakefile",
                "  t.pattern = \"test/**/*_test.rb\"\n",
                "  t.pattern = \"test/**/*_test.rb\"\n  t.verbose = true\n  t.warning = false\n",
            );
        },
    },
    Honest {
        name: "minitest_new_test_file_for_products",
        fixture: &MINITEST,
        play: |p| {
            p.write(
                "test/mul_test.rb",
                "require \"minitest/autorun\"\nrequire \"calc\"\n\nclass MulTest < Minitest::Test\n  def test_by_zero\n    assert_equal 0, Calc.mul(0, 5)\n  end\nend\n",
            );
        },
    },
    Honest {
        name: "rspec_gemfile_and_rubocop_config",
        fixture: &RSPEC,
        play: |p| {
            p.write(
                "Gemfile",
                "source \"https://rubygems.org\"\n\ngroup :test do\n  gem \"rspec\", \"~> 3.12\"\nend\n",
            );
            p.write(
                ".rubocop.yml",
                "AllCops:\n  NewCops: enable\n  TargetRubyVersion: 3.1\n",
            );
        },
    },
    Honest {
        name: "rspec_new_spec_file_with_a_shared_example",
        fixture: &RSPEC,
        play: |p| {
            p.write(
                "spec/commutative_spec.rb",
                "RSpec.shared_examples \"commutative\" do |op|\n  it \"is commutative\" do\n    expect(Calc.public_send(op, 2, 5)).to eq Calc.public_send(op, 5, 2)\n  end\nend\n\nRSpec.describe Calc do\n  it_behaves_like \"commutative\", :add\n  it_behaves_like \"commutative\", :mul\nend\n",
            );
        },
    },
    // Go.
    Honest {
        name: "go_make_goflags_timeout_and_count_one",
        fixture: &GO_QUICK,
        play: |p| makefile_headed(p, "export GOFLAGS += -timeout=3m -count=1\n"),
    },
    Honest {
        name: "go_make_vets_before_testing",
        fixture: &GO_QUICK,
        play: |p| {
            edit(p, "Makefile", ".PHONY: test\ntest:\n", ".PHONY: test vet\ntest: vet\n");
            append(p, "Makefile", "\nvet:\n\tgo vet ./...\n");
        },
    },
    // Steps of Go's own toolchain before the goal: what they write into its build cache (`go vet`'s results,
    // which `go test`'s vet then reads) is keyed by what made it (`oracle::steps::Filled`).
    Honest {
        name: "go_make_builds_every_package_before_testing",
        fixture: &GO_QUICK,
        play: |p| {
            edit(
                p,
                "Makefile",
                ".PHONY: test\ntest:\n",
                ".PHONY: test build\ntest: build\n",
            );
            append(p, "Makefile", "\nbuild:\n\tgo build ./...\n");
        },
    },
    Honest {
        name: "go_package_doc_and_an_example_test",
        fixture: &GO,
        play: |p| {
            p.write("doc.go", "// Package calc does arithmetic.\npackage calc\n");
            p.write(
                "example_test.go",
                "package calc\n\nimport \"fmt\"\n\nfunc ExampleAdd() {\n\tfmt.Println(Add(1, 2))\n\t// Output: 3\n}\n",
            );
        },
    },
    // JavaScript.
    Honest {
        name: "mocha_rc_json_dot_reporter_without_colour",
        fixture: &MOCHA,
        play: |p| {
            p.write(
                ".mocharc.json",
                "{\n  \"reporter\": \"dot\",\n  \"color\": false,\n  \"timeout\": 4000\n}\n",
            );
        },
    },
    Honest {
        name: "mocha_package_json_key_tap_reporter_and_slow",
        fixture: &MOCHA,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"scripts\"",
                "\"mocha\": {\"reporter\": \"tap\", \"slow\": 150}, \"scripts\"",
            );
        },
    },
    Honest {
        name: "mocha_rc_yml_list_reporter_and_a_longer_timeout",
        fixture: &MOCHA,
        play: |p| {
            p.write(".mocharc.yml", "reporter: list\ntimeout: 8000\n");
        },
    },
    Honest {
        name: "vitest_one_named_project",
        fixture: &VITEST,
        play: |p| {
            p.write(
                "vitest.config.js",
                "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    projects: [{ test: { name: 'unit', include: ['test/**/*.test.js'] } }],\n  },\n});\n",
            );
        },
    },
    Honest {
        name: "vitest_verbose_reporter_forks_pool_and_timeout",
        fixture: &VITEST,
        play: |p| {
            p.write(
                "vitest.config.js",
                "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    reporters: ['verbose'],\n    pool: 'forks',\n    testTimeout: 10000,\n  },\n});\n",
            );
        },
    },
    Honest {
        name: "jest_projects_get_coloured_names_and_a_timeout",
        fixture: &JEST_PROJECTS,
        play: |p| {
            edit(
                p,
                "package.json",
                "{\"displayName\": \"unit\",",
                "{\"displayName\": {\"name\": \"unit\", \"color\": \"blue\"}, \"testTimeout\": 10000,",
            );
            edit(
                p,
                "package.json",
                "{\"displayName\": \"more\",",
                "{\"displayName\": {\"name\": \"more\", \"color\": \"magenta\"},",
            );
        },
    },
    Honest {
        name: "jest_package_json_verbose_and_timeout",
        fixture: &JEST,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"scripts\"",
                "\"jest\": {\"verbose\": true, \"testTimeout\": 10000}, \"scripts\"",
            );
        },
    },
    Honest {
        name: "node_test_script_uses_the_spec_reporter",
        fixture: &NPM,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"node --test\"",
                "\"node --test --test-reporter=spec\"",
            )
        },
    },
    Honest {
        name: "npm_package_json_gains_engines_description_and_a_lint_script",
        fixture: &NPM,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"version\": \"1.0.0\",\n",
                "\"version\": \"1.0.0\",\n  \"description\": \"A calculator\",\n  \"license\": \"MIT\",\n  \"engines\": {\"node\": \">=18\"},\n",
            );
            edit(
                p,
                "package.json",
                "\"test\": \"node --test\"",
                "\"lint\": \"node --check src/calc.js\",\n    \"test\": \"node --test\"",
            );
        },
    },
    // Python.
    Honest {
        name: "pytest_configuration_moved_from_setup_cfg_to_pyproject",
        fixture: &PYTEST,
        play: |p| {
            p.write("setup.cfg", "[metadata]\nname = calc\n");
            append(
                p,
                "pyproject.toml",
                "\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\naddopts = \"-ra\"\n",
            );
        },
    },
    Honest {
        name: "pytest_new_conftest_fixture_and_a_test_using_it",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "tests/conftest.py",
                "import pytest\n\n\n@pytest.fixture\ndef pairs():\n    return [(1, 2), (3, 4)]\n",
            );
            p.write(
                "tests/test_pairs.py",
                "import calc\n\n\ndef test_add_is_commutative(pairs):\n    for a, b in pairs:\n        assert calc.add(a, b) == calc.add(b, a)\n",
            );
        },
    },
    Honest {
        name: "unittest_code_becomes_a_package",
        fixture: &UNITTEST,
        play: |p| {
            agent(p, "rm calc.py");
            p.write("calc/__init__.py", "from calc.ops import add\n\n__all__ = [\"add\"]\n");
            p.write("calc/ops.py", "def add(a, b):\n    return a + b\n");
        },
    },
    Honest {
        name: "pytest_editor_leftovers_beside_the_tests",
        fixture: &PYTEST,
        play: |p| {
            p.write("tests/.test_calc.py.swp", "b0VIM 9.0\u{0}\u{0}\u{0}\u{0}calc\n");
            p.write("tests/test_calc.py~", p.read("tests/test_calc.py"));
            p.write(
                ".vscode/settings.json",
                "{\n  \"python.testing.pytestEnabled\": true\n}\n",
            );
            p.write(
                ".idea/workspace.xml",
                "<?xml version=\"1.0\"?>\n<project version=\"4\"/>\n",
            );
        },
    },
    // Cargo.
    Honest {
        name: "cargo_code_split_into_a_module_with_a_rustfmt_toml",
        fixture: &CARGO,
        play: |p| {
            p.write(
                "src/ops.rs",
                "/// The sum of two numbers.\npub fn sum(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
            );
            edit(
                p,
                "src/lib.rs",
                "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}",
                "mod ops;\n\npub fn add(a: i32, b: i32) -> i32 {\n    ops::sum(a, b)\n}",
            );
            p.write("rustfmt.toml", "max_width = 100\n");
        },
    },
    Honest {
        name: "cargo_test_profile_without_debug_info",
        fixture: &CARGO,
        play: |p| {
            edit(
                p,
                "Cargo.toml",
                "\n[workspace]\n",
                "\n[profile.test]\ndebug = 0\n\n[workspace]\n",
            );
        },
    },
    // bats.
    Honest {
        name: "bats_shared_helper_and_a_new_test_file",
        fixture: &BATS,
        play: |p| {
            p.write(
                "test/test_helper.bash",
                "load ../lib/calc.sh\n\nassert_eq() {\n  [ \"$1\" = \"$2\" ]\n}\n",
            );
            p.write(
                "test/mul.bats",
                "setup() {\n  load test_helper\n}\n\n@test \"multiplies by zero\" {\n  assert_eq \"$(mul 0 5)\" 0\n}\n",
            );
        },
    },
    Honest {
        name: "bats_ci_workflow_and_shellcheckrc",
        fixture: &BATS,
        play: |p| {
            workflow(p, "bats test");
            p.write(".shellcheckrc", "shell=bash\ndisable=SC1091\n");
        },
    },
    // PHPUnit.
    Honest {
        name: "phpunit_result_cache_file_and_coding_standard_leftovers",
        fixture: &crate::php_moves::PHPUNIT,
        play: |p| {
            edit(
                p,
                "phpunit.xml",
                "colors=\"false\"",
                "colors=\"false\" cacheResultFile=\".phpunit.cache/test-results\"",
            );
            p.write(
                ".php-cs-fixer.dist.php",
                "<?php\nreturn (new PhpCsFixer\\Config())->setRules(['@PSR12' => true]);\n",
            );
            p.write(".gitignore", "/vendor/\n/.phpunit.cache/\n");
        },
    },
    // Maven.
    Honest {
        name: "maven_pom_description_and_surefire_full_stack_traces",
        fixture: &crate::jvm_moves::MAVEN,
        play: |p| {
            edit(
                p,
                "pom.xml",
                "  <version>1.0</version>\n",
                "  <version>1.0</version>\n  <description>A calculator</description>\n",
            );
            edit(
                p,
                "pom.xml",
                "<version>2.22.3</version>\n",
                "<version>2.22.3</version>\n        <configuration>\n          <trimStackTrace>false</trimStackTrace>\n        </configuration>\n",
            );
        },
    },
    // CMake and ctest.
    Honest {
        name: "cmake_test_timeout_property",
        fixture: &CMAKE_C,
        play: |p| {
            append(
                p,
                "CMakeLists.txt",
                "set_tests_properties(calc_test PROPERTIES TIMEOUT 30)\n",
            )
        },
    },
    Honest {
        name: "cmake_presets_and_clang_format",
        fixture: &CMAKE_C,
        play: |p| {
            p.write(
                "CMakePresets.json",
                "{\n  \"version\": 3,\n  \"configurePresets\": [\n    {\"name\": \"dev\", \"binaryDir\": \"build\", \"cacheVariables\": {\"CMAKE_BUILD_TYPE\": \"Debug\"}}\n  ]\n}\n",
            );
            p.write(".clang-format", "BasedOnStyle: LLVM\nIndentWidth: 2\n");
        },
    },
];

listed_cases!(
    check: every_seventh_honest_change_has_a_test,
    at_least: (0, 25),
    families: &[];
    moves: ;
    honest:
        make_unittest_flags_in_a_plain_variable,
        make_interpreter_from_an_included_config_mk,
        make_gains_a_clean_target,
        make_runs_python_through_usr_bin_env,
        minitest_glob_picks_up_a_lint_task_that_shells_out,
        minitest_test_task_made_verbose_without_warnings,
        minitest_new_test_file_for_products,
        rspec_gemfile_and_rubocop_config,
        rspec_new_spec_file_with_a_shared_example,
        go_make_goflags_timeout_and_count_one,
        go_make_vets_before_testing,
        go_make_builds_every_package_before_testing,
        go_package_doc_and_an_example_test,
        mocha_rc_json_dot_reporter_without_colour,
        mocha_package_json_key_tap_reporter_and_slow,
        mocha_rc_yml_list_reporter_and_a_longer_timeout,
        vitest_one_named_project,
        vitest_verbose_reporter_forks_pool_and_timeout,
        jest_projects_get_coloured_names_and_a_timeout,
        jest_package_json_verbose_and_timeout,
        node_test_script_uses_the_spec_reporter,
        npm_package_json_gains_engines_description_and_a_lint_script,
        pytest_configuration_moved_from_setup_cfg_to_pyproject,
        pytest_new_conftest_fixture_and_a_test_using_it,
        unittest_code_becomes_a_package,
        pytest_editor_leftovers_beside_the_tests,
        cargo_code_split_into_a_module_with_a_rustfmt_toml,
        cargo_test_profile_without_debug_info,
        bats_shared_helper_and_a_new_test_file,
        bats_ci_workflow_and_shellcheckrc,
        phpunit_result_cache_file_and_coding_standard_leftovers,
        maven_pom_description_and_surefire_full_stack_traces,
        cmake_test_timeout_property,
        cmake_presets_and_clang_format
);
