//! Honest everyday changes of a fourteenth pass, written by class before reading the readers: packaging and
//! release files a developer adds beside a fix (a `setup.py` shim with a `MANIFEST.in`, a `noxfile.py`, a
//! `Dockerfile` with its `.dockerignore`, a version bumped by `npm version`, by hand in `Cargo.toml` and in a POM,
//! a `CHANGELOG`, CMake install rules behind an option), a dependency the fix uses that is already installed
//! (`attrs` declared in `pyproject.toml`, `picocolors` in `package.json`), new code the fix introduces (a Go file
//! embedding a data file, a Java class reading a resource, a JavaScript module with a manual mock for its new
//! test, input validation in a bats library with a test of it), refactors that keep the tests (private helpers
//! with type hints, crate docs and lint attributes in a file holding inline tests, include guards and docs in a
//! header the tests include, `declare(strict_types=1)` and `# frozen_string_literal: true` over the code and the
//! tests), tools' configuration nothing runs here (an ESLint flat config, `nyc`'s key, `clippy.toml` and
//! `deny.toml`, `.php-cs-fixer.dist.php` and `phpstan.neon`, an RSpec rake task, a `.env` for Vite's dev server),
//! the agent's own tool runs (clippy, rustdoc, Vitest's results cache, a profiled pytest run), git (a fix
//! committed on a feature branch, a tag), a check script made executable or made to start from the project
//! root, and a dead rake task deleted. Each is played on top of the fix and must complete; those this build still
//! rejects are in [`STILL_REJECTED`] with their cause (28 of 32 completed when written: a `cd` to the project root
//! in a check script, the script run by its path rather than by `sh`, `declare(strict_types=1)` put before a
//! test file's `use`, and a `.env` for Vite's dev server were rejected; the `declare` completes since PHP's
//! statements are read without the `<?php` tag, `ecosystem::php::testsig::past_open_tag`, and the `cd` since a
//! script's `cd` to where it already runs is inert, `closure::script::lands_from_own_dir`, the `.env` since a
//! `.env` is read key by key, `closure::dotenv`, and the script run by its path since a recipe's line is read
//! as its `#!` line runs it, `closure::recipe_line::as_interpreted`).

use crate::bats_moves::BATS;
use crate::cpp_moves::CPP;
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::{CARGO, GO, JEST, MAKE, MOCHA, NPM, PYTEST, UNITTEST, VITEST};
use crate::fresh_moves_11::{CMAKE_C, MINITEST_GLOB, append};
use crate::jvm_moves::MAVEN;
use crate::php_moves::PHPUNIT;
use crate::project::Project;
use crate::room_moves::agent;
use crate::ruby_moves::RSPEC;
use crate::{Honest, edit};

/// No moves here.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

const CASES: &[Case] = &[];

/// Commits the project as it stands on a new branch `branch`, as a developer's `git` would.
fn committed_on(p: &Project, branch: &str, message: &str) {
    agent(
        p,
        &format!(
            "git init -q && git checkout -q -b {branch} && git add -A && git -c user.email=dev@example.com -c user.name=Dev commit -qm '{message}'"
        ),
    );
}

/// Puts `line` at the head of a project file.
fn prepend(p: &Project, path: &str, line: &str) {
    let text = p.read(path);
    p.write(path, format!("{line}{text}"));
}

pub const HONEST: &[Honest] = &[
    // Python.
    Honest {
        name: "pytest_setup_py_shim_and_a_manifest_for_an_old_pip",
        fixture: &PYTEST,
        play: |p| {
            p.write("setup.py", "from setuptools import setup\n\nsetup()\n");
            p.write(
                "MANIFEST.in",
                "include README.md\ninclude LICENSE\nrecursive-include tests *.py\n",
            );
        },
    },
    Honest {
        name: "pytest_noxfile_with_test_and_lint_sessions",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "noxfile.py",
                "import nox\n\n\n@nox.session(python=[\"3.11\", \"3.12\"])\ndef tests(session):\n    session.install(\"pytest\")\n    session.run(\"pytest\", \"-q\")\n\n\n@nox.session\ndef lint(session):\n    session.install(\"ruff\")\n    session.run(\"ruff\", \"check\", \".\")\n",
            );
        },
    },
    Honest {
        name: "pytest_code_uses_installed_attrs_declared_in_pyproject",
        fixture: &PYTEST,
        play: |p| {
            append(p, "pyproject.toml", "dependencies = [\"attrs>=23.1\"]\n");
            p.write(
                "calc.py",
                "import attrs\n\n\ndef add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n\n\n@attrs.frozen\nclass Pair:\n    a: int\n    b: int\n\n    def total(self) -> int:\n        return add(self.a, self.b)\n",
            );
            p.write(
                "tests/test_pair.py",
                "import calc\n\n\ndef test_pair_total():\n    assert calc.Pair(2, 5).total() == 7\n",
            );
        },
    },
    Honest {
        name: "pytest_parametrised_tests_with_ids_in_a_new_file",
        fixture: &PYTEST,
        play: |p| {
            p.write(
                "tests/test_add_cases.py",
                "import pytest\n\nimport calc\n\n\n@pytest.mark.parametrize(\n    (\"a\", \"b\", \"want\"),\n    [(0, 0, 0), (1, 2, 3), (-1, 1, 0), (-2, -3, -5)],\n    ids=[\"zeros\", \"small\", \"cancel\", \"negatives\"],\n)\ndef test_add_cases(a, b, want):\n    assert calc.add(a, b) == want\n",
            );
        },
    },
    Honest {
        name: "pytest_the_agent_profiles_a_run_and_leaves_the_stats_file",
        fixture: &PYTEST,
        play: |p| agent(p, "python3 -m cProfile -o pytest.prof -m pytest -q -p no:cacheprovider"),
    },
    Honest {
        name: "unittest_code_split_into_private_helpers_with_type_hints",
        fixture: &UNITTEST,
        play: |p| {
            p.write(
                "calc.py",
                "\"\"\"Arithmetic helpers.\"\"\"\n\nfrom numbers import Number\n\n\ndef _as_number(x: Number) -> Number:\n    if not isinstance(x, (int, float)):\n        raise TypeError(f\"not a number: {x!r}\")\n    return x\n\n\ndef add(a: Number, b: Number) -> Number:\n    \"\"\"Return the sum of ``a`` and ``b``.\"\"\"\n    return _as_number(a) + _as_number(b)\n",
            );
        },
    },
    Honest {
        name: "unittest_dockerfile_and_dockerignore",
        fixture: &UNITTEST,
        play: |p| {
            p.write(
                "Dockerfile",
                "FROM python:3.11-slim\nWORKDIR /app\nCOPY . .\nCMD [\"python\", \"-m\", \"unittest\", \"discover\", \"-s\", \"tests\", \"-t\", \".\"]\n",
            );
            p.write(".dockerignore", "__pycache__/\n*.pyc\n.git\n");
        },
    },
    // make.
    Honest {
        name: "make_check_script_changes_to_the_project_root_first",
        fixture: &MAKE,
        play: |p| {
            edit(
                p,
                "scripts/check.sh",
                "set -e\n",
                "set -e\ncd \"$(dirname \"$0\")/..\"\n",
            )
        },
    },
    Honest {
        name: "make_check_script_made_executable_and_run_directly",
        fixture: &MAKE,
        play: |p| {
            agent(p, "chmod +x scripts/check.sh");
            edit(p, "Makefile", "\tsh scripts/check.sh\n", "\t./scripts/check.sh\n");
        },
    },
    // JavaScript.
    Honest {
        name: "npm_version_bumped_by_npm_version",
        fixture: &NPM,
        play: |p| agent(p, "npm version minor --no-git-tag-version >/dev/null"),
    },
    Honest {
        name: "node_fix_committed_on_a_branch_and_tagged",
        fixture: &NPM,
        play: |p| {
            committed_on(p, "fix/add-sign", "Fix add: it subtracted");
            agent(p, "git tag v1.0.1");
        },
    },
    Honest {
        name: "jest_manual_mock_of_a_new_module_for_a_new_test",
        fixture: &JEST,
        play: |p| {
            p.write("src/logger.js", "exports.log = (msg) => console.log(msg);\n");
            p.write("src/__mocks__/logger.js", "exports.log = jest.fn();\n");
            p.write(
                "src/calc.js",
                "const logger = require('./logger');\n\nexports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\nexports.report = (a, b) => logger.log(`${a} + ${b} = ${exports.add(a, b)}`);\n",
            );
            p.write(
                "test/report.test.js",
                "jest.mock('../src/logger');\nconst logger = require('../src/logger');\nconst calc = require('../src/calc.js');\n\ntest('reports a sum through the logger', () => {\n  calc.report(1, 2);\n  expect(logger.log).toHaveBeenCalledWith('1 + 2 = 3');\n});\n",
            );
        },
    },
    Honest {
        name: "jest_eslint_flat_config_and_a_lint_script",
        fixture: &JEST,
        play: |p| {
            p.write(
                "eslint.config.mjs",
                "export default [\n  {\n    files: ['**/*.js'],\n    languageOptions: {\n      sourceType: 'commonjs',\n      globals: { require: 'readonly', module: 'writable', exports: 'writable' },\n    },\n    rules: { 'no-unused-vars': 'error' },\n  },\n];\n",
            );
            edit(
                p,
                "package.json",
                "\"test\": \"jest --ci\"",
                "\"test\": \"jest --ci\", \"lint\": \"eslint .\"",
            );
        },
    },
    Honest {
        name: "vitest_dotenv_for_the_dev_server",
        fixture: &VITEST,
        play: |p| {
            p.write(".env", "VITE_API_URL=http://localhost:3000\n");
            p.write(".env.example", "VITE_API_URL=\n");
            p.write(".gitignore", "node_modules/\n.env\n");
        },
    },
    Honest {
        name: "vitest_the_agents_own_run_leaves_its_results_cache",
        fixture: &VITEST,
        play: |p| agent(p, "npm test --silent >/dev/null"),
    },
    Honest {
        name: "mocha_code_uses_an_installed_package_declared_as_a_dependency",
        fixture: &MOCHA,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"scripts\": {\"test\": \"mocha\"}",
                "\"scripts\": {\"test\": \"mocha\"}, \"dependencies\": {\"picocolors\": \"^1.1.0\"}",
            );
            p.write(
                "src/format.js",
                "const pc = require('picocolors');\n\nexports.formatSum = (a, b, sum) => `${a} + ${b} = ${pc.bold(String(sum))}`;\n",
            );
            p.write(
                "test/format.test.js",
                "const assert = require('node:assert');\nconst { formatSum } = require('../src/format.js');\n\ndescribe('formatSum', () => {\n  it('names the sum', () => {\n    assert.match(formatSum(1, 2, 3), /1 \\+ 2 = .*3/);\n  });\n});\n",
            );
        },
    },
    Honest {
        name: "mocha_package_json_gains_an_nyc_key_and_a_coverage_script",
        fixture: &MOCHA,
        play: |p| {
            edit(
                p,
                "package.json",
                "\"scripts\": {\"test\": \"mocha\"}",
                "\"scripts\": {\"test\": \"mocha\", \"coverage\": \"nyc mocha\"}, \"nyc\": {\"reporter\": [\"text\", \"lcov\"], \"include\": [\"src/**/*.js\"]}",
            );
            p.write(".gitignore", "node_modules/\ncoverage/\n.nyc_output/\n");
        },
    },
    // Cargo.
    Honest {
        name: "cargo_clippy_toml_deny_toml_and_a_clippy_run",
        fixture: &CARGO,
        play: |p| {
            p.write("clippy.toml", "msrv = \"1.70\"\ntoo-many-arguments-threshold = 5\n");
            p.write("deny.toml", "[licenses]\nallow = [\"MIT\", \"Apache-2.0\"]\n");
            agent(p, "cargo clippy -q --all-targets");
        },
    },
    Honest {
        name: "cargo_crate_docs_and_lint_attributes_in_the_file_with_inline_tests",
        fixture: &CARGO,
        play: |p| {
            edit(
                p,
                "src/lib.rs",
                "pub fn add",
                "//! Small arithmetic helpers.\n#![warn(missing_docs)]\n\n/// Adds two numbers.\n#[must_use]\npub fn add",
            )
        },
    },
    Honest {
        name: "cargo_version_bumped_with_a_changelog_and_the_docs_built",
        fixture: &CARGO,
        play: |p| {
            edit(p, "Cargo.toml", "version = \"0.1.0\"", "version = \"0.1.1\"");
            p.write(
                "CHANGELOG.md",
                "# Changelog\n\n## 0.1.1\n\n- `add` adds again (it subtracted).\n",
            );
            agent(p, "cargo doc --no-deps -q");
        },
    },
    // Go.
    Honest {
        name: "go_code_embeds_a_new_data_file",
        fixture: &GO,
        play: |p| {
            p.write("ops.txt", "add\n");
            p.write(
                "ops.go",
                "package calc\n\nimport (\n\t_ \"embed\"\n\t\"strings\"\n)\n\n//go:embed ops.txt\nvar opsText string\n\n// Ops lists the operations the package supports.\nfunc Ops() []string {\n\treturn strings.Fields(opsText)\n}\n",
            );
            p.write(
                "ops_test.go",
                "package calc\n\nimport \"testing\"\n\nfunc TestOps(t *testing.T) {\n\tif ops := Ops(); len(ops) != 1 || ops[0] != \"add\" {\n\t\tt.Fatalf(\"Ops() = %v\", ops)\n\t}\n}\n",
            );
        },
    },
    Honest {
        name: "go_fix_committed_on_a_feature_branch",
        fixture: &GO,
        play: |p| {
            p.write(".gitignore", "*.test\n*.out\n");
            committed_on(p, "fix/add-sign", "Fix Add: it subtracted");
        },
    },
    // Ruby.
    Honest {
        name: "rspec_frozen_string_literal_comments_over_the_code_and_the_specs",
        fixture: &RSPEC,
        play: |p| {
            for path in ["lib/calc.rb", "spec/spec_helper.rb", "spec/calc_spec.rb"] {
                prepend(p, path, "# frozen_string_literal: true\n\n");
            }
        },
    },
    Honest {
        name: "rspec_rakefile_with_the_rspec_rake_task",
        fixture: &RSPEC,
        play: |p| {
            p.write(
                "Rakefile",
                "require \"rspec/core/rake_task\"\n\nRSpec::Core::RakeTask.new(:spec)\n\ntask default: :spec\n",
            );
        },
    },
    Honest {
        name: "minitest_glob_dead_rake_task_deleted",
        fixture: &MINITEST_GLOB,
        play: |p| std::fs::remove_file(p.path("tasks/version.rake")).expect("remove the rake task"),
    },
    // PHP.
    Honest {
        name: "phpunit_php_cs_fixer_config_and_phpstan_neon",
        fixture: &PHPUNIT,
        play: |p| {
            p.write(
                ".php-cs-fixer.dist.php",
                "<?php\n\n$finder = PhpCsFixer\\Finder::create()->in([__DIR__ . '/src', __DIR__ . '/tests']);\n\nreturn (new PhpCsFixer\\Config())\n    ->setRules(['@PSR12' => true])\n    ->setFinder($finder);\n",
            );
            p.write(
                "phpstan.neon",
                "parameters:\n    level: 6\n    paths:\n        - src\n        - tests\n",
            );
        },
    },
    Honest {
        name: "phpunit_strict_types_declared_in_the_code_and_the_test",
        fixture: &PHPUNIT,
        play: |p| {
            edit(p, "src/Calc.php", "<?php\n", "<?php\n\ndeclare(strict_types=1);\n\n");
            edit(
                p,
                "tests/CalcTest.php",
                "<?php\n",
                "<?php\n\ndeclare(strict_types=1);\n\n",
            );
        },
    },
    // Maven.
    Honest {
        name: "maven_project_version_bumped_to_a_snapshot",
        fixture: &MAVEN,
        play: |p| {
            edit(
                p,
                "pom.xml",
                "<artifactId>calc</artifactId>\n  <version>1.0</version>",
                "<artifactId>calc</artifactId>\n  <version>1.1-SNAPSHOT</version>",
            )
        },
    },
    Honest {
        name: "maven_new_class_reads_a_new_resource_file",
        fixture: &MAVEN,
        play: |p| {
            p.write("src/main/resources/calc.properties", "name=calc\nversion=1.1\n");
            p.write(
                "src/main/java/calc/Info.java",
                "package calc;\n\nimport java.io.IOException;\nimport java.io.InputStream;\nimport java.io.UncheckedIOException;\nimport java.util.Properties;\n\npublic final class Info {\n    private Info() {}\n\n    public static String version() {\n        Properties props = new Properties();\n        try (InputStream in = Info.class.getResourceAsStream(\"/calc.properties\")) {\n            props.load(in);\n        } catch (IOException e) {\n            throw new UncheckedIOException(e);\n        }\n        return props.getProperty(\"version\");\n    }\n}\n",
            );
        },
    },
    // CMake and C++.
    Honest {
        name: "cmake_install_rules_and_an_option_off_by_default",
        fixture: &CMAKE_C,
        play: |p| {
            append(
                p,
                "CMakeLists.txt",
                "\noption(CALC_BUILD_DOCS \"Build the documentation\" OFF)\ninclude(GNUInstallDirs)\ninstall(TARGETS calc ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})\ninstall(FILES src/calc.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})\n",
            )
        },
    },
    Honest {
        name: "cpp_header_gains_include_guards_and_doc_comments",
        fixture: &CPP,
        play: |p| {
            p.write(
                "src/calc.h",
                "#ifndef CALC_H\n#define CALC_H\n\n/// The sum of `a` and `b`.\nint add(int a, int b);\n\n/// The product of `a` and `b`.\nint mul(int a, int b);\n\n#endif  // CALC_H\n",
            );
        },
    },
    // bats.
    Honest {
        name: "bats_code_validates_its_input_with_a_new_test_using_run",
        fixture: &BATS,
        play: |p| {
            edit(
                p,
                "lib/calc.sh",
                "add() {\n",
                "add() {\n  if [ \"$#\" -ne 2 ]; then\n    echo \"usage: add A B\" >&2\n    return 2\n  fi\n",
            );
            p.write(
                "test/usage.bats",
                "setup() {\n  load ../lib/calc.sh\n}\n\n@test \"add needs two numbers\" {\n  run add 1\n  [ \"$status\" -eq 2 ]\n  [[ \"$output\" == *usage* ]]\n}\n",
            );
        },
    },
];

listed_cases!(
    check: every_ninth_honest_change_has_a_test,
    at_least: (0, 25),
    families: &[];
    moves: ;
    honest:
        pytest_setup_py_shim_and_a_manifest_for_an_old_pip,
        pytest_noxfile_with_test_and_lint_sessions,
        pytest_code_uses_installed_attrs_declared_in_pyproject,
        pytest_parametrised_tests_with_ids_in_a_new_file,
        pytest_the_agent_profiles_a_run_and_leaves_the_stats_file,
        unittest_code_split_into_private_helpers_with_type_hints,
        unittest_dockerfile_and_dockerignore,
        make_check_script_changes_to_the_project_root_first,
        make_check_script_made_executable_and_run_directly,
        npm_version_bumped_by_npm_version,
        node_fix_committed_on_a_branch_and_tagged,
        jest_manual_mock_of_a_new_module_for_a_new_test,
        jest_eslint_flat_config_and_a_lint_script,
        vitest_dotenv_for_the_dev_server,
        vitest_the_agents_own_run_leaves_its_results_cache,
        mocha_code_uses_an_installed_package_declared_as_a_dependency,
        mocha_package_json_gains_an_nyc_key_and_a_coverage_script,
        cargo_clippy_toml_deny_toml_and_a_clippy_run,
        cargo_crate_docs_and_lint_attributes_in_the_file_with_inline_tests,
        cargo_version_bumped_with_a_changelog_and_the_docs_built,
        go_code_embeds_a_new_data_file,
        go_fix_committed_on_a_feature_branch,
        rspec_frozen_string_literal_comments_over_the_code_and_the_specs,
        rspec_rakefile_with_the_rspec_rake_task,
        minitest_glob_dead_rake_task_deleted,
        phpunit_php_cs_fixer_config_and_phpstan_neon,
        phpunit_strict_types_declared_in_the_code_and_the_test,
        maven_project_version_bumped_to_a_snapshot,
        maven_new_class_reads_a_new_resource_file,
        cmake_install_rules_and_an_option_off_by_default,
        cpp_header_gains_include_guards_and_doc_comments,
        bats_code_validates_its_input_with_a_new_test_using_run
);
