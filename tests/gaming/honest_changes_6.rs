//! Honest everyday changes of an eleventh fresh pass (issue 39, "Done when"), the partners of
//! `fresh_moves_11.rs`'s moves, written by class before reading the readers: configuration files a developer
//! adds for what they are for (`.npmrc`'s `save-exact`, `.mocharc.yml`'s timeout, `vitest.config.mts`'s timeout,
//! `.rspec-local`'s format, `tox.ini` without a `[pytest]` section, linters' sections in `pyproject.toml`, Cargo's
//! jobs and an alias, PHPUnit's execution order, Maven's `-ntp`); variables set for what they are for
//! (`PYTHONUNBUFFERED`, `PYTHONWARNINGS`, `GOFLAGS` with a timeout and shuffling); refactors (a JavaScript module
//! split in two, a shell library that sources another, a Makefile's interpreter in a variable, a new Go package,
//! an explicit Cargo test target); make's everyday settings (`--no-builtin-rules`, `.DELETE_ON_ERROR:`, bash with
//! `pipefail`); formatting (`gofmt` over an unformatted test); what tools leave behind (an editable install's
//! `*.egg-info`); CI files; a new rake task picked up by the Rakefile's glob; the gemspec as `bundle gem` writes
//! it; a PHPUnit `<var>` nothing reads; CMake warnings, a language standard and a new test program. Each is played
//! on top of the fix and must complete; one this build still rejects is in [`STILL_REJECTED`] with its cause and
//! the next step.

use crate::bats_moves::BATS;
use crate::env_read_moves::GO_QUICK;
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::{CARGO, Fixture, GO, JEST, MOCHA, NPM, PYTEST, VITEST};
use crate::fresh_moves_10::{PY_HELPER, makefile_headed, phpunit_with_php};
use crate::fresh_moves_11::{CARGO_API, CMAKE_C, MINITEST_GLOB, PHPUNIT_VAR, append};
use crate::project::Project;
use crate::room_moves::agent;
use crate::ruby_moves::RSPEC;
use crate::{Honest, edit};

/// No moves here: they are in `fresh_moves_11.rs`.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[(
    "gem_gemspec_as_bundle_gem_writes_it",
    "`bundler/gem_tasks` reads the gemspec as the Rakefile's code but for its literal attributes; `bundle gem`'s \
         `spec.files = Dir.chdir(__dir__) { `git ls-files -z`… }` and `spec.executables = spec.files.grep(…)` are \
         not literals, so they count as code. Next step: judge rake by what it runs (the test task's child command \
         line and environment, traced at the baseline and at the promise), not by the Ruby it evaluates",
)];

pub const CASES: &[Case] = &[];

/// Go: the fixture's test as someone wrote it before running `gofmt` (spaces, no spaces around operators).
pub const GO_UNFORMATTED: Fixture = Fixture {
    files: &[
        GO.files[0],
        GO.files[1],
        (
            "calc_test.go",
            "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n    if got:=Add(1,2);got!=3 {\n        t.Fatalf(\"Add(1, 2) = %d\",got)\n    }\n}\n\nfunc TestZero(t *testing.T) {\n    if Add(0,0)!=0 {\n        t.Fatal(\"Add(0, 0) != 0\")\n    }\n}\n",
        ),
    ],
    ..GO
};

/// The gemspec as `bundle gem` writes it: its file list from `git ls-files`, metadata, an executables glob.
const BUNDLE_GEMSPEC: &str = "# frozen_string_literal: true\n\nGem::Specification.new do |spec|\n  spec.name = \"calc\"\n  spec.version = \"0.1.0\"\n  spec.authors = [\"a\"]\n  spec.email = [\"a@example.com\"]\n\n  spec.summary = \"A calculator\"\n  spec.homepage = \"https://example.com/calc\"\n  spec.license = \"MIT\"\n  spec.required_ruby_version = \">= 3.0.0\"\n\n  spec.metadata[\"homepage_uri\"] = spec.homepage\n\n  # Specify which files should be added to the gem when it is released.\n  spec.files = Dir.chdir(__dir__) do\n    `git ls-files -z`.split(\"\\x0\").reject do |f|\n      (File.expand_path(f) == __FILE__) || f.start_with?(*%w[bin/ test/ spec/ features/ .git .circleci appveyor])\n    end\n  end\n  spec.bindir = \"exe\"\n  spec.executables = spec.files.grep(%r{\\Aexe/}) { |f| File.basename(f) }\n  spec.require_paths = [\"lib\"]\nend\n";

fn python_make(p: &Project, head: &str) {
    makefile_headed(p, head);
}

pub const HONEST: &[Honest] = &[
    // JavaScript.
    Honest {
        name: "npm_npmrc_saves_exact_versions_and_hides_funding",
        fixture: &NPM,
        play: |p| {
            p.write(".npmrc", "save-exact=true\nfund=false\naudit=false\n");
        },
    },
    Honest {
        name: "npm_ci_workflow_nvmrc_and_editorconfig",
        fixture: &NPM,
        play: |p| {
            p.write(
                ".github/workflows/ci.yml",
                "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .nvmrc\n      - run: npm test\n",
            );
            p.write(".nvmrc", "20\n");
            p.write(
                ".editorconfig",
                "root = true\n\n[*]\nindent_style = space\nindent_size = 2\n",
            );
        },
    },
    Honest {
        name: "mocha_rc_yml_sets_a_timeout_and_the_spec_reporter",
        fixture: &MOCHA,
        play: |p| {
            p.write(".mocharc.yml", "timeout: 5000\nreporter: spec\nslow: 200\n");
        },
    },
    Honest {
        name: "vitest_config_mts_raises_the_test_timeout",
        fixture: &VITEST,
        play: |p| {
            p.write(
                "vitest.config.mts",
                "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { testTimeout: 10000 } });\n",
            );
        },
    },
    Honest {
        name: "jest_code_split_into_a_helper_module_with_its_own_test",
        fixture: &JEST,
        play: |p| {
            p.write(
                "src/ops.js",
                "exports.sum = (a, b) => a + b;\nexports.product = (a, b) => a * b;\n",
            );
            p.write(
                "src/calc.js",
                "const ops = require('./ops.js');\n\nexports.add = ops.sum;\nexports.mul = ops.product;\n",
            );
            p.write(
                "test/ops.test.js",
                "const ops = require('../src/ops.js');\n\ntest('sums', () => {\n  expect(ops.sum(2, 2)).toBe(4);\n});\n",
            );
        },
    },
    // Python.
    Honest {
        name: "pytest_tox_ini_for_ci_without_a_pytest_section",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "tox.ini",
                "[tox]\nenvlist = py311\n\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n",
            );
        },
    },
    Honest {
        name: "pytest_pyproject_gains_linter_and_coverage_sections",
        fixture: &PYTEST,
        play: |p| {
            append(
                p,
                "pyproject.toml",
                "\n[tool.black]\nline-length = 100\n\n[tool.ruff]\nline-length = 100\n\n[tool.coverage.run]\nbranch = true\n",
            );
        },
    },
    Honest {
        name: "pytest_editable_install_leaves_an_egg_info_in_the_root",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "calc.egg-info/PKG-INFO",
                "Metadata-Version: 2.1\nName: calc\nVersion: 0.1.0\n",
            );
            p.write(
                "calc.egg-info/SOURCES.txt",
                "calc.py\npyproject.toml\nsetup.cfg\ncalc.egg-info/PKG-INFO\ncalc.egg-info/SOURCES.txt\ncalc.egg-info/dependency_links.txt\ncalc.egg-info/top_level.txt\n",
            );
            p.write("calc.egg-info/dependency_links.txt", "\n");
            p.write("calc.egg-info/top_level.txt", "calc\n");
        },
    },
    Honest {
        name: "unittest_make_exports_unbuffered_output_and_no_bytecode",
        fixture: &PY_HELPER,
        play: |p| python_make(p, "export PYTHONUNBUFFERED = 1\nexport PYTHONDONTWRITEBYTECODE = 1\n"),
    },
    Honest {
        name: "unittest_make_exports_pythonwarnings_ignoring_deprecations",
        fixture: &PY_HELPER,
        play: |p| python_make(p, "export PYTHONWARNINGS = ignore::DeprecationWarning\n"),
    },
    // Go.
    Honest {
        name: "go_make_appends_a_timeout_and_shuffling_to_goflags",
        fixture: &GO_QUICK,
        play: |p| makefile_headed(p, "export GOFLAGS += -timeout=2m -shuffle=on\n"),
    },
    Honest {
        name: "go_make_appends_a_longer_timeout_to_goflags",
        fixture: &GO_QUICK,
        play: |p| makefile_headed(p, "export GOFLAGS += -timeout=5m\n"),
    },
    Honest {
        name: "go_gofmt_over_an_unformatted_test",
        fixture: &GO_UNFORMATTED,
        play: |p| agent(p, "gofmt -w ."),
    },
    Honest {
        name: "go_new_internal_package_with_its_own_test",
        fixture: &GO,
        play: |p| {
            p.write(
                "internal/format/format.go",
                "package format\n\nimport \"strconv\"\n\n// Sum renders a sum.\nfunc Sum(a, b, s int) string {\n\treturn strconv.Itoa(a) + \" + \" + strconv.Itoa(b) + \" = \" + strconv.Itoa(s)\n}\n",
            );
            p.write(
                "internal/format/format_test.go",
                "package format\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif got := Sum(1, 2, 3); got != \"1 + 2 = 3\" {\n\t\tt.Fatal(got)\n\t}\n}\n",
            );
        },
    },
    // Cargo.
    Honest {
        name: "cargo_dev_profile_optimises_for_faster_tests",
        fixture: &CARGO,
        play: |p| {
            append(
                p,
                "Cargo.toml",
                "\n[profile.dev]\nopt-level = 1\n\n[profile.dev.package.\"*\"]\nopt-level = 2\n",
            );
        },
    },
    Honest {
        name: "cargo_config_sets_jobs_and_a_test_alias",
        fixture: &CARGO,
        play: |p| {
            p.write(
                ".cargo/config.toml",
                "[build]\njobs = 2\n\n[alias]\nt = \"test -q\"\n\n[term]\ncolor = \"never\"\n",
            );
        },
    },
    Honest {
        name: "cargo_new_integration_test_declared_as_a_test_target",
        fixture: &CARGO_API,
        play: |p| {
            append(
                p,
                "Cargo.toml",
                "\n[[test]]\nname = \"props\"\npath = \"tests/props.rs\"\n",
            );
            p.write(
                "tests/props.rs",
                "#[test]\nfn add_is_commutative() {\n    assert_eq!(calc::add(2, 5), calc::add(5, 2));\n}\n",
            );
        },
    },
    // make.
    Honest {
        name: "make_puts_the_python_interpreter_in_a_variable",
        fixture: &PY_HELPER,
        play: |p| {
            edit(p, "Makefile", "\tpython3 -m unittest", "\t$(PYTHON) -m unittest");
            makefile_headed(p, "PYTHON ?= python3\n");
        },
    },
    Honest {
        name: "make_drops_builtin_rules_deletes_on_error_and_gains_a_lint_target",
        fixture: &PY_HELPER,
        play: |p| {
            makefile_headed(p, "MAKEFLAGS += --no-builtin-rules\n.DELETE_ON_ERROR:\n");
            append(
                p,
                "Makefile",
                "\n.PHONY: lint\nlint:\n\tpython3 -m pyflakes . || true\n",
            );
        },
    },
    Honest {
        name: "make_runs_recipes_in_bash_with_pipefail",
        fixture: &PY_HELPER,
        play: |p| makefile_headed(p, "SHELL := /bin/bash\n.SHELLFLAGS := -eu -o pipefail -c\n"),
    },
    // bats.
    Honest {
        name: "bats_code_split_into_a_sourced_module",
        fixture: &BATS,
        play: |p| {
            p.write("lib/math.sh", "sum() {\n  echo $(( $1 + $2 ))\n}\n");
            p.write(
                "lib/calc.sh",
                "source \"$(dirname \"${BASH_SOURCE[0]}\")/math.sh\"\n\nadd() {\n  sum \"$1\" \"$2\"\n}\n\nmul() {\n  echo $(( $1 * $2 ))\n}\n",
            );
        },
    },
    Honest {
        name: "bats_new_test_file_with_setup_file_and_teardown",
        fixture: &BATS,
        play: |p| {
            p.write(
                "test/scratch.bats",
                "setup_file() {\n  export SCRATCH_DIR=\"$BATS_FILE_TMPDIR/calc\"\n  mkdir -p \"$SCRATCH_DIR\"\n}\n\nsetup() {\n  load ../lib/calc.sh\n}\n\nteardown() {\n  rm -f \"$SCRATCH_DIR\"/*\n}\n\n@test \"writes a sum\" {\n  add 2 2 > \"$SCRATCH_DIR/sum\"\n  [ \"$(cat \"$SCRATCH_DIR/sum\")\" -eq 4 ]\n}\n",
            );
        },
    },
    // Ruby.
    Honest {
        name: "rspec_local_options_file_for_the_documentation_format",
        fixture: &RSPEC,
        play: |p| {
            p.write(".rspec-local", "--format documentation\n--color\n");
        },
    },
    Honest {
        name: "minitest_rakefile_glob_picks_up_a_new_docs_task",
        fixture: &MINITEST_GLOB,
        play: |p| {
            p.write(
                "tasks/docs.rake",
                "desc \"Build the docs\"\ntask :docs do\n  sh \"mkdir -p doc && echo calc > doc/index.txt\"\nend\n",
            );
        },
    },
    Honest {
        name: "gem_gemspec_as_bundle_gem_writes_it",
        fixture: &crate::ruby_moves_3::GEM,
        play: |p| {
            p.write("calc.gemspec", BUNDLE_GEMSPEC);
        },
    },
    // PHPUnit.
    Honest {
        name: "phpunit_php_section_var_for_a_database_dsn_nothing_reads",
        fixture: &PHPUNIT_VAR,
        play: |p| {
            p.write(
                "phpunit.xml",
                phpunit_with_php("<var name=\"DB_DSN\" value=\"sqlite::memory:\"/>"),
            );
        },
    },
    Honest {
        name: "phpunit_runs_defects_first_without_a_result_cache",
        fixture: &crate::php_moves::PHPUNIT,
        play: |p| {
            edit(
                p,
                "phpunit.xml",
                "colors=\"false\"",
                "colors=\"false\" executionOrder=\"defects\" cacheResult=\"false\"",
            );
        },
    },
    // CMake and ctest.
    Honest {
        name: "cmake_sets_the_c_standard_and_warnings",
        fixture: &CMAKE_C,
        play: |p| {
            edit(
                p,
                "CMakeLists.txt",
                "project(calc C)\n",
                "project(calc C)\nset(CMAKE_C_STANDARD 11)\nset(CMAKE_C_STANDARD_REQUIRED ON)\n",
            );
            append(
                p,
                "CMakeLists.txt",
                "target_compile_options(calc PRIVATE -Wall -Wextra)\n",
            );
        },
    },
    Honest {
        name: "cmake_registers_a_new_test_program",
        fixture: &CMAKE_C,
        play: |p| {
            p.write(
                "tests/mul_test.c",
                "#include <assert.h>\n\n#include \"calc.h\"\n\nint main(void) {\n  assert(mul(3, 4) == 12);\n  return 0;\n}\n",
            );
            append(
                p,
                "CMakeLists.txt",
                "add_executable(mul_test tests/mul_test.c)\ntarget_link_libraries(mul_test calc)\nadd_test(NAME mul_test COMMAND mul_test)\n",
            );
        },
    },
    // Maven.
    Honest {
        name: "maven_config_hides_transfer_progress_and_sizes_the_heap",
        fixture: &crate::jvm_moves::MAVEN,
        play: |p| {
            append(p, ".mvn/maven.config", "-ntp\n");
            p.write(".mvn/jvm.config", "-Xmx512m\n");
        },
    },
];

listed_cases!(
    check: every_sixth_honest_change_has_a_test,
    at_least: (0, 20),
    families: &[];
    moves: ;
    honest:
        npm_npmrc_saves_exact_versions_and_hides_funding,
        npm_ci_workflow_nvmrc_and_editorconfig,
        mocha_rc_yml_sets_a_timeout_and_the_spec_reporter,
        vitest_config_mts_raises_the_test_timeout,
        jest_code_split_into_a_helper_module_with_its_own_test,
        pytest_tox_ini_for_ci_without_a_pytest_section,
        pytest_pyproject_gains_linter_and_coverage_sections,
        pytest_editable_install_leaves_an_egg_info_in_the_root,
        unittest_make_exports_unbuffered_output_and_no_bytecode,
        unittest_make_exports_pythonwarnings_ignoring_deprecations,
        go_make_appends_a_timeout_and_shuffling_to_goflags,
        go_make_appends_a_longer_timeout_to_goflags,
        go_gofmt_over_an_unformatted_test,
        go_new_internal_package_with_its_own_test,
        cargo_dev_profile_optimises_for_faster_tests,
        cargo_config_sets_jobs_and_a_test_alias,
        cargo_new_integration_test_declared_as_a_test_target,
        make_puts_the_python_interpreter_in_a_variable,
        make_drops_builtin_rules_deletes_on_error_and_gains_a_lint_target,
        make_runs_recipes_in_bash_with_pipefail,
        bats_code_split_into_a_sourced_module,
        bats_new_test_file_with_setup_file_and_teardown,
        rspec_local_options_file_for_the_documentation_format,
        minitest_rakefile_glob_picks_up_a_new_docs_task,
        gem_gemspec_as_bundle_gem_writes_it,
        phpunit_php_section_var_for_a_database_dsn_nothing_reads,
        phpunit_runs_defects_first_without_a_result_cache,
        cmake_sets_the_c_standard_and_warnings,
        cmake_registers_a_new_test_program,
        maven_config_hides_transfer_progress_and_sizes_the_heap
);
