//! Honest everyday changes of a fifteenth pass, written by class before reading the readers: test
//! infrastructure for new tests only (a data file under the tests' directory, a golden file under Go's
//! `testdata`, a YAML fixture for minitest, a text fixture for bats, a factory module for unittest, a builder
//! helper for Jest and Vitest, a fixture class for JUnit), new code with its own tests (a Go file generated and
//! checked in with its `go:generate` line, a PHP file the new test requires, a second C++ source file, a Cargo
//! example and a doctest, a Ruby version file required by the code), type-check and editor configuration
//! (`mypy.ini` with hints in the code, a `jsconfig.json` with `// @ts-check`, a `tsconfig.json` beside Vitest,
//! a pre-commit configuration, `.gitattributes` and `.editorconfig`, CMake's compile commands), manifests
//! rewritten to the same meaning (`package.json` re-indented with its keys sorted, its module type stated as
//! `commonjs`, `maven.compiler.release` for source and target, `go.mod` formatted and tidied, a
//! lock file committed after an offline `cargo update`), make and script housekeeping (a check script's
//! shebang through `env`, a bash check script in strict mode, a `.PHONY` list over continuation lines with an
//! install target), `rake/clean` in a Rakefile, and a shellcheck directive in a bats library. Each is played on
//! top of the fix and must complete; those this build still rejects are in [`STILL_REJECTED`] with their cause
//! (30 of 33 completed when written: a check script's shebang through `env` and a bash check script in strict
//! mode, both run through the recipe's shell, and `rake/clean` in a Rakefile were rejected; the shebang and
//! `rake/clean` complete since a `#!` line is a comment to a shell named on the command line and rake's clean
//! library is inert where the run reaches neither clean task).

use crate::bats_moves::BATS;
use crate::cpp_moves::CPP;
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::{CARGO, GO, JEST, MAKE, MOCHA, NPM, PYTEST, UNITTEST, VITEST};
use crate::fresh_moves_11::CMAKE_C;
use crate::jvm_moves::MAVEN;
use crate::php_moves::PHPUNIT;
use crate::room_moves::agent;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, edit};

/// No moves here.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[(
    "make_check_script_becomes_bash_in_strict_mode",
    "\"`Makefile`: `test: as make resolves it` changed\": the recipe's `sh scripts/check.sh` became `bash \
     scripts/check.sh`, another shell reading the same sealed script (a `[[ … ]]` is a command in one and not in \
     the other, so a script can take another branch), which `closure::recipe_line` does not read as the same \
     program; the script's `#!` line and its `set -euo pipefail` are free now (`shell::script`'s `by_shell` and \
     `only_stricter`). Next step: a script whose text the two shells read alike (no construct one of them lacks) \
     run by either",
)];

const CASES: &[Case] = &[];

pub const HONEST: &[Honest] = &[
    // Python.
    Honest {
        name: "pytest_mypy_ini_with_type_hints_in_the_code",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "mypy.ini",
                "[mypy]\npython_version = 3.11\nstrict = True\nfiles = calc.py\n",
            );
            p.write(
                "calc.py",
                "def add(a: int, b: int) -> int:\n    return a + b\n\n\ndef mul(a: int, b: int) -> int:\n    return a * b\n",
            );
        },
    },
    Honest {
        name: "pytest_new_test_reads_a_new_data_file_beside_it",
        fixture: &PYTEST,
        play: |p| {
            p.write("tests/data/sums.json", "[[1, 1, 2], [2, 3, 5], [-4, 4, 0]]\n");
            p.write(
                "tests/test_sums.py",
                "import json\nimport pathlib\n\nimport calc\n\nSUMS = json.loads((pathlib.Path(__file__).parent / \"data\" / \"sums.json\").read_text())\n\n\ndef test_sums_from_the_data_file():\n    for a, b, want in SUMS:\n        assert calc.add(a, b) == want\n",
            );
        },
    },
    Honest {
        name: "pytest_pre_commit_config_and_gitattributes",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                ".pre-commit-config.yaml",
                "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.6.9\n    hooks:\n      - id: ruff\n      - id: ruff-format\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: end-of-file-fixer\n      - id: trailing-whitespace\n",
            );
            p.write(".gitattributes", "* text=auto eol=lf\n*.py diff=python\n");
        },
    },
    Honest {
        name: "pytest_generated_version_module_checked_in",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "_version.py",
                "# file generated by setuptools-scm\n# don't change, don't track in version control\n__version__ = version = \"0.1.1\"\n__version_tuple__ = version_tuple = (0, 1, 1)\n",
            );
            p.write(
                "calc.py",
                "from _version import __version__\n\n\ndef add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
            );
        },
    },
    Honest {
        name: "unittest_factory_module_in_the_tests_package_for_a_new_test",
        fixture: &UNITTEST,
        play: |p| {
            p.write(
                "tests/factories.py",
                "def pairs(n):\n    \"\"\"The pairs (i, -i) for i below n.\"\"\"\n    return [(i, -i) for i in range(n)]\n",
            );
            p.write(
                "tests/test_opposites.py",
                "import unittest\n\nimport calc\nfrom tests.factories import pairs\n\n\nclass OppositesTest(unittest.TestCase):\n    def test_opposites_cancel(self):\n        for a, b in pairs(5):\n            with self.subTest(a=a):\n                self.assertEqual(calc.add(a, b), 0)\n",
            );
        },
    },
    // make.
    Honest {
        name: "make_check_script_shebang_through_usr_bin_env",
        fixture: &MAKE,
        play: |p| edit(p, "scripts/check.sh", "#!/bin/sh\n", "#!/usr/bin/env sh\n"),
    },
    Honest {
        name: "make_check_script_becomes_bash_in_strict_mode",
        fixture: &MAKE,
        play: |p| {
            p.write(
                "scripts/check.sh",
                "#!/usr/bin/env bash\nset -euo pipefail\npython3 -m unittest discover -s tests -t . -q\n",
            );
            edit(p, "Makefile", "\tsh scripts/check.sh\n", "\tbash scripts/check.sh\n");
        },
    },
    Honest {
        name: "make_phony_list_over_continuation_lines_with_an_install_target",
        fixture: &MAKE,
        play: |p| {
            p.write(
                "Makefile",
                ".PHONY: test \\\n        install \\\n        venv\n\nPYTHON ?= python3\n\ntest:\n\tsh scripts/check.sh\n\ninstall:\n\t$(PYTHON) -m pip install -e .\n\nvenv:\n\t$(PYTHON) -m venv .venv\n",
            );
        },
    },
    Honest {
        name: "make_editorconfig_keeps_tabs_in_the_makefile",
        fixture: &MAKE,
        play: |p| {
            p.write(
                ".editorconfig",
                "root = true\n\n[*]\nend_of_line = lf\ninsert_final_newline = true\n\n[Makefile]\nindent_style = tab\n\n[*.{py,sh}]\nindent_style = space\nindent_size = 4\n",
            );
            p.write(".gitattributes", "*.sh text eol=lf\nMakefile text eol=lf\n");
        },
    },
    // JavaScript.
    Honest {
        name: "node_jsconfig_checks_the_code_with_ts_check",
        fixture: &NPM,
        play: |p| {
            p.write(
                "jsconfig.json",
                "{\n  \"compilerOptions\": {\n    \"checkJs\": true,\n    \"module\": \"commonjs\",\n    \"target\": \"es2022\"\n  },\n  \"include\": [\"src\"]\n}\n",
            );
            p.write(
                "src/calc.js",
                "// @ts-check\n\n/** @param {number} a @param {number} b @returns {number} */\nexports.add = (a, b) => a + b;\n\n/** @param {number} a @param {number} b @returns {number} */\nexports.mul = (a, b) => a * b;\n",
            );
        },
    },
    Honest {
        name: "npm_package_json_reindented_with_its_keys_sorted",
        fixture: &NPM,
        play: |p| {
            p.write(
                "package.json",
                "{\n    \"name\": \"calc\",\n    \"version\": \"1.0.0\",\n    \"private\": true,\n    \"license\": \"MIT\",\n    \"scripts\": {\n        \"test\": \"node --test\"\n    }\n}\n",
            );
        },
    },
    Honest {
        name: "npm_package_json_states_its_module_type_as_commonjs",
        fixture: &NPM,
        play: |p| agent(p, "npm pkg set type=commonjs"),
    },
    Honest {
        name: "jest_builder_helper_outside_the_test_match_for_a_new_test",
        fixture: &JEST,
        play: |p| {
            p.write(
                "test/helpers/build.js",
                "exports.range = (n) => Array.from({ length: n }, (_, i) => i);\n",
            );
            p.write(
                "test/range.test.js",
                "const calc = require('../src/calc.js');\nconst { range } = require('./helpers/build.js');\n\ntest('adding zero keeps a number', () => {\n  for (const n of range(5)) {\n    expect(calc.add(n, 0)).toBe(n);\n  }\n});\n",
            );
        },
    },
    Honest {
        name: "vitest_tsconfig_for_the_editor_beside_the_javascript",
        fixture: &VITEST,
        play: |p| {
            p.write(
                "tsconfig.json",
                "{\n  \"compilerOptions\": {\n    \"target\": \"ES2022\",\n    \"module\": \"ESNext\",\n    \"moduleResolution\": \"bundler\",\n    \"allowJs\": true,\n    \"checkJs\": true,\n    \"noEmit\": true,\n    \"strict\": true,\n    \"types\": [\"vitest/globals\"]\n  },\n  \"include\": [\"src\", \"test\"]\n}\n",
            );
        },
    },
    Honest {
        name: "vitest_shared_helper_module_for_a_new_test",
        fixture: &VITEST,
        play: |p| {
            p.write(
                "test/helpers/numbers.js",
                "export const evens = (n) => Array.from({ length: n }, (_, i) => 2 * i);\n",
            );
            p.write(
                "test/evens.test.js",
                "import { expect, test } from 'vitest';\nimport { calc } from '../src/calc.js';\nimport { evens } from './helpers/numbers.js';\n\ntest('evens add to evens', () => {\n  for (const n of evens(4)) {\n    expect(calc.add(n, 2) % 2).toBe(0);\n  }\n});\n",
            );
        },
    },
    Honest {
        name: "mocha_new_fixture_file_beside_the_old_one_for_a_new_test",
        fixture: &MOCHA,
        play: |p| {
            p.write("test/fixtures/products.json", "[[2, 3, 6], [0, 7, 0]]\n");
            p.write(
                "test/products.test.js",
                "const assert = require('node:assert');\nconst calc = require('../src/calc.js');\nconst products = require('./fixtures/products.json');\n\ndescribe('products', () => {\n  for (const [a, b, want] of products) {\n    it(`multiplies ${a} and ${b}`, () => {\n      assert.strictEqual(calc.mul(a, b), want);\n    });\n  }\n});\n",
            );
        },
    },
    // Cargo.
    Honest {
        name: "cargo_update_offline_and_the_lock_file_committed",
        fixture: &CARGO,
        play: |p| {
            agent(p, "cargo update --offline -q");
            p.write(".gitignore", "/target\n");
        },
    },
    Honest {
        name: "cargo_new_example_using_the_api",
        fixture: &CARGO,
        play: |p| {
            p.write(
                "examples/sum.rs",
                "fn main() {\n    println!(\"2 + 3 = {}\", calc::add(2, 3));\n}\n",
            );
        },
    },
    Honest {
        name: "cargo_doc_comment_with_a_doctest",
        fixture: &CARGO,
        play: |p| {
            edit(
                p,
                "src/lib.rs",
                "pub fn add",
                "/// Adds two numbers.\n///\n/// ```\n/// assert_eq!(calc::add(2, 2), 4);\n/// ```\npub fn add",
            )
        },
    },
    // Go.
    Honest {
        name: "go_new_test_reads_a_golden_file_under_testdata",
        fixture: &GO,
        play: |p| {
            p.write("testdata/sums.golden", "1 2 3\n-1 1 0\n");
            p.write(
                "golden_test.go",
                "package calc\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestGoldenSums(t *testing.T) {\n\tdata, err := os.ReadFile(\"testdata/sums.golden\")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tfor _, line := range strings.Split(strings.TrimSpace(string(data)), \"\\n\") {\n\t\tvar a, b, want int\n\t\tif _, err := fmt.Sscan(line, &a, &b, &want); err != nil {\n\t\t\tt.Fatal(err)\n\t\t}\n\t\tif got := Add(a, b); got != want {\n\t\t\tt.Errorf(\"Add(%d, %d) = %d, want %d\", a, b, got, want)\n\t\t}\n\t}\n}\n",
            );
        },
    },
    Honest {
        name: "go_generated_file_checked_in_with_its_directive",
        fixture: &GO,
        play: |p| {
            p.write(
                "op.go",
                "package calc\n\n//go:generate stringer -type=Op\n\n// Op is an arithmetic operation.\ntype Op int\n\nconst (\n\tOpAdd Op = iota\n\tOpSub\n)\n",
            );
            p.write(
                "op_string.go",
                "// Code generated by \"stringer -type=Op\"; DO NOT EDIT.\n\npackage calc\n\nimport \"strconv\"\n\nconst _Op_name = \"OpAddOpSub\"\n\nvar _Op_index = [...]uint8{0, 5, 10}\n\nfunc (i Op) String() string {\n\tif i < 0 || i >= Op(len(_Op_index)-1) {\n\t\treturn \"Op(\" + strconv.FormatInt(int64(i), 10) + \")\"\n\t}\n\treturn _Op_name[_Op_index[i]:_Op_index[i+1]]\n}\n",
            );
        },
    },
    Honest {
        name: "go_mod_formatted_and_tidied",
        fixture: &GO,
        play: |p| agent(p, "go mod edit -fmt && go mod tidy"),
    },
    // Ruby.
    Honest {
        name: "rspec_code_requires_a_new_version_file",
        fixture: &RSPEC,
        play: |p| {
            p.write("lib/calc/version.rb", "module Calc\n  VERSION = \"0.1.1\"\nend\n");
            prepend(p, "lib/calc.rb", "require_relative \"calc/version\"\n\n");
        },
    },
    Honest {
        name: "minitest_new_test_reads_a_yaml_fixture",
        fixture: &MINITEST,
        play: |p| {
            p.write("test/fixtures/sums.yml", "- [1, 1, 2]\n- [2, 5, 7]\n- [-3, 3, 0]\n");
            p.write(
                "test/sums_test.rb",
                "require \"minitest/autorun\"\nrequire \"yaml\"\nrequire \"calc\"\n\nclass SumsTest < Minitest::Test\n  SUMS = YAML.load_file(File.expand_path(\"fixtures/sums.yml\", __dir__))\n\n  def test_sums_from_the_fixture\n    SUMS.each { |a, b, want| assert_equal want, Calc.add(a, b) }\n  end\nend\n",
            );
        },
    },
    Honest {
        name: "minitest_rakefile_requires_rake_clean",
        fixture: &MINITEST,
        play: |p| {
            edit(
                p,
                "Rakefile",
                "require \"rake/testtask\"\n",
                "require \"rake/clean\"\nrequire \"rake/testtask\"\n\nCLEAN.include(\"coverage\", \"tmp\")\nCLOBBER.include(\"pkg\")\n",
            )
        },
    },
    // PHP.
    Honest {
        name: "phpunit_new_code_file_required_by_its_new_test",
        fixture: &PHPUNIT,
        play: |p| {
            p.write(
                "src/Format.php",
                "<?php\nfunction format_sum(int $a, int $b): string\n{\n    return sprintf('%d + %d = %d', $a, $b, add($a, $b));\n}\n",
            );
            p.write(
                "tests/FormatTest.php",
                "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nrequire_once __DIR__ . '/../src/Format.php';\n\nfinal class FormatTest extends TestCase\n{\n    public function testFormatsASum(): void\n    {\n        $this->assertSame('1 + 2 = 3', format_sum(1, 2));\n    }\n}\n",
            );
        },
    },
    Honest {
        name: "phpunit_gitattributes_export_ignore_and_editorconfig",
        fixture: &PHPUNIT,
        play: |p| {
            p.write(
                ".gitattributes",
                "/tests export-ignore\n/phpunit.xml export-ignore\n/.editorconfig export-ignore\n",
            );
            p.write(
                ".editorconfig",
                "root = true\n\n[*.php]\nindent_style = space\nindent_size = 4\n",
            );
        },
    },
    // Maven.
    Honest {
        name: "maven_compiler_release_replaces_source_and_target",
        fixture: &MAVEN,
        play: |p| {
            edit(
                p,
                "pom.xml",
                "<maven.compiler.source>17</maven.compiler.source>\n    <maven.compiler.target>17</maven.compiler.target>",
                "<maven.compiler.release>17</maven.compiler.release>",
            )
        },
    },
    Honest {
        name: "maven_fixture_class_outside_surefires_patterns_for_a_new_test",
        fixture: &MAVEN,
        play: |p| {
            p.write(
                "src/test/java/calc/Pairs.java",
                "package calc;\n\nfinal class Pairs {\n    private Pairs() {}\n\n    static int[][] opposites() {\n        return new int[][] {{1, -1}, {5, -5}, {0, 0}};\n    }\n}\n",
            );
            p.write(
                "src/test/java/calc/OppositesTest.java",
                "package calc;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass OppositesTest {\n    @Test\n    void oppositesCancel() {\n        for (int[] pair : Pairs.opposites()) {\n            assertEquals(0, Calc.add(pair[0], pair[1]));\n        }\n    }\n}\n",
            );
        },
    },
    // CMake and C++.
    Honest {
        name: "cmake_exports_compile_commands_with_a_version_range",
        fixture: &CMAKE_C,
        play: |p| {
            edit(
                p,
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.14)\n",
                "cmake_minimum_required(VERSION 3.14...3.28)\nset(CMAKE_EXPORT_COMPILE_COMMANDS ON)\n",
            );
            p.write(".gitignore", "build/\ncompile_commands.json\n");
        },
    },
    Honest {
        name: "cpp_library_gains_a_second_source_file",
        fixture: &CPP,
        play: |p| {
            p.write(
                "src/square.cc",
                "#include \"calc.h\"\n\nint square(int a) { return mul(a, a); }\n",
            );
            p.write(
                "src/calc.h",
                "int add(int a, int b);\nint mul(int a, int b);\nint square(int a);\n",
            );
            edit(
                p,
                "CMakeLists.txt",
                "add_library(calc src/calc.cc)",
                "add_library(calc src/calc.cc src/square.cc)",
            );
        },
    },
    // bats.
    Honest {
        name: "bats_new_test_reads_a_fixture_file",
        fixture: &BATS,
        play: |p| {
            p.write("test/fixtures/sums.txt", "1 2 3\n4 5 9\n");
            p.write(
                "test/sums.bats",
                "setup() {\n  load ../lib/calc.sh\n}\n\n@test \"sums from the fixture\" {\n  while read -r a b want; do\n    [ \"$(add \"$a\" \"$b\")\" -eq \"$want\" ]\n  done < \"$BATS_TEST_DIRNAME/fixtures/sums.txt\"\n}\n",
            );
        },
    },
    Honest {
        name: "bats_library_gains_a_shebang_and_a_shellcheck_directive",
        fixture: &BATS,
        play: |p| {
            prepend(
                p,
                "lib/calc.sh",
                "#!/usr/bin/env bash\n# shellcheck shell=bash\n# Arithmetic helpers, sourced by the tests.\n\n",
            )
        },
    },
];

/// Puts `line` at the head of a project file.
fn prepend(p: &crate::project::Project, path: &str, line: &str) {
    let text = p.read(path);
    p.write(path, format!("{line}{text}"));
}

listed_cases!(
    check: every_tenth_honest_change_has_a_test,
    at_least: (0, 25),
    families: &[];
    moves: ;
    honest:
        pytest_mypy_ini_with_type_hints_in_the_code,
        pytest_new_test_reads_a_new_data_file_beside_it,
        pytest_pre_commit_config_and_gitattributes,
        pytest_generated_version_module_checked_in,
        unittest_factory_module_in_the_tests_package_for_a_new_test,
        make_check_script_shebang_through_usr_bin_env,
        make_check_script_becomes_bash_in_strict_mode,
        make_phony_list_over_continuation_lines_with_an_install_target,
        make_editorconfig_keeps_tabs_in_the_makefile,
        node_jsconfig_checks_the_code_with_ts_check,
        npm_package_json_reindented_with_its_keys_sorted,
        npm_package_json_states_its_module_type_as_commonjs,
        jest_builder_helper_outside_the_test_match_for_a_new_test,
        vitest_tsconfig_for_the_editor_beside_the_javascript,
        vitest_shared_helper_module_for_a_new_test,
        mocha_new_fixture_file_beside_the_old_one_for_a_new_test,
        cargo_update_offline_and_the_lock_file_committed,
        cargo_new_example_using_the_api,
        cargo_doc_comment_with_a_doctest,
        go_new_test_reads_a_golden_file_under_testdata,
        go_generated_file_checked_in_with_its_directive,
        go_mod_formatted_and_tidied,
        rspec_code_requires_a_new_version_file,
        minitest_new_test_reads_a_yaml_fixture,
        minitest_rakefile_requires_rake_clean,
        phpunit_new_code_file_required_by_its_new_test,
        phpunit_gitattributes_export_ignore_and_editorconfig,
        maven_compiler_release_replaces_source_and_target,
        maven_fixture_class_outside_surefires_patterns_for_a_new_test,
        cmake_exports_compile_commands_with_a_version_range,
        cpp_library_gains_a_second_source_file,
        bats_new_test_reads_a_fixture_file,
        bats_library_gains_a_shebang_and_a_shellcheck_directive
);
