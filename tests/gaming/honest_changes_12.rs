//! Honest everyday changes of a seventeenth pass, written by class before reading the readers: renames and moves
//! of the code under test with the tests' imports updated to the new name (a Python module renamed, a Rust
//! function moved into a module the crate re-exports, a Go file renamed in its package, a CommonJS and an ES
//! module renamed, a Ruby file renamed with `require_relative` and with the helper's `require`, PHP functions put
//! in a namespace with `use function`, a Java class moved to a subpackage, a shell library renamed with the bats
//! `load`, a C++ header renamed with its `#include`s), the ecosystem's own formatter run over code and tests
//! (ruff format with single quotes, `cargo fmt` with a two-space indent, prettier with a wider indent and with its
//! default double quotes, php-cs-fixer's PSR-12, `rubocop -a` over a spec and a test, clang-format's Mozilla style,
//! shfmt), type annotations (Python hints, JSDoc types with `// @ts-check`, a PHPStan return type on a data
//! provider), toolchain and version files (`rust-toolchain.toml` on the stable channel the baseline ran, `.nvmrc` and
//! `engines`, `.ruby-version`, `.tool-versions`, `.python-version`) and a lockfile and CI workflows. Each is
//! played on top of the fix and must complete; those this build still rejects are in [`STILL_REJECTED`] with
//! their cause (20 of 30 completed when written: the renames of a Python module, a CommonJS and an ES module,
//! a Ruby file required by a test and by RSpec's helper, a shell library loaded by bats and a C++ header were
//! rejected by their imports' words; PHP functions put in a namespace and a Java class moved to a subpackage failed
//! in the run, which stands the edited test file as sealed without the imports it gained; a PHPStan docblock on a
//! data provider was read as a changed helper). Since, a renamed file of the code under test with the imports that
//! name it respelled is read back as the sealed import where the old file is gone from the project
//! (`testseal::renamed`: the Python, CommonJS, ES module, minitest, RSpec helper and C++ header renames complete,
//! the sealed file standing in the run with its import respelled), and a data provider's docblock is prose
//! (`php::testsig::past_docblocks`).

use crate::bats_moves::BATS;
use crate::cpp_moves::CPP;
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::{CARGO, GO, JEST, MAKE, MOCHA, NPM, PYTEST, UNITTEST, VITEST};
use crate::fresh_moves_11::CMAKE_C;
use crate::jvm_moves::MAVEN;
use crate::php_moves::PHPUNIT;
use crate::project::Project;
use crate::room_moves::agent;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, edit};

/// No moves here.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[
    (
        "phpunit_functions_put_in_a_namespace_with_use_function_in_the_test",
        r#"PROMISE REJECTED: the verify command failed: "CalcTest::testAdds: Error: Call to undefined function add()", "CalcTest::testMultiplies with data set #0: Error: Call to undefined function mul()", "CalcTest::testMultiplies with data set \"by zero\": Error: Call to undefined function mul()". The two `use function Calc\add;` / `use function Calc\mul;` lines the test gained pass the signature check, but the oracle's run stands the edited test file as it was sealed (`src/oracle/world/sealed.rs`'s `plan`, `src/testswap.rs`), without them; the same tree passes under a bare `phpunit` (OK, 3 tests). A false rejection the agent cannot answer: its imports are dropped in the run without a word"#,
    ),
    (
        "maven_class_moved_to_a_subpackage_with_the_tests_import",
        r#"PROMISE REJECTED: the verify command failed: "[ERROR] /tmp/loopgate-slot-0/project/src/test/java/calc/CalcTest.java:[10,25] cannot find symbol / symbol: variable Calc / location: class calc.CalcTest" (three times), "BUILD FAILURE". `Calc` moved to `calc.core` and the test gained `import calc.core.Calc;`, which passes the signature check; the oracle's run stands the edited test file as sealed (`src/oracle/world/sealed.rs`, `src/testswap.rs`), without the import, so it no longer compiles. The same tree passes under a bare `mvn test` (3 tests, 0 failures)"#,
    ),
    (
        "bats_library_renamed_with_the_tests_load_updated",
        r#"PROMISE REJECTED: the oracle's sealed inputs were changed: "test/calc.bats:1: setup code `setup` that existing tests rely on was changed: `setup() {`". `lib/calc.sh` renamed to `lib/arith.sh` and the one `load ../lib/calc.sh` in `setup` updated to the new path; `src/ecosystem/shell/testsig.rs` (bats signatures) reads a `load` of the code under test inside `setup` as changed setup code"#,
    ),
];

const CASES: &[Case] = &[];

/// Renames a project file, as `git mv` or an editor's rename does.
pub(crate) fn rename(p: &Project, from: &str, to: &str) {
    let (from, to) = (p.path(from), p.path(to));
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).expect("create the new file's directory");
    }
    std::fs::rename(&from, &to).unwrap_or_else(|e| panic!("rename {}: {e}", from.display()));
}

/// Rewrites a project file through `f`.
pub(crate) fn rewrite(p: &Project, path: &str, f: impl Fn(&str) -> String) {
    let text = p.read(path);
    let new = f(&text);
    assert_ne!(text, new, "{path} did not change");
    p.write(path, new);
}

/// Re-indents each line's leading run of `from` spaces as `to` per level.
fn reindent(text: &str, from: usize, to: &str) -> String {
    text.lines()
        .map(|line| {
            let spaces = line.len() - line.trim_start_matches(' ').len();
            format!("{}{}\n", to.repeat(spaces / from), &line[spaces - spaces % from..])
        })
        .collect()
}

/// A GitHub Actions workflow that runs `run` after `setup`.
fn workflow(name: &str, setup: &str, run: &str) -> String {
    format!(
        "name: {name}\n\non:\n  push:\n    branches: [main]\n  pull_request:\n\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{setup}      - run: {run}\n"
    )
}

pub const HONEST: &[Honest] = &[
    // Renames and moves of the code under test, the tests' imports updated to the new name.
    Honest {
        name: "pytest_module_renamed_and_the_tests_updated_to_the_new_name",
        fixture: &PYTEST,
        play: |p| {
            // What an IDE's rename of the module does: the file and every use of its name.
            rename(p, "calc.py", "arith.py");
            rewrite(p, "tests/test_calc.py", |t| t.replace("calc", "arith"));
        },
    },
    Honest {
        name: "cargo_function_moved_into_a_module_the_crate_reexports",
        fixture: &CARGO,
        play: |p| {
            p.write("src/arith.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
            edit(
                p,
                "src/lib.rs",
                "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
                "mod arith;\n\npub use arith::add;\n",
            );
        },
    },
    Honest {
        name: "go_file_renamed_in_the_same_package",
        fixture: &GO,
        play: |p| rename(p, "calc.go", "arith.go"),
    },
    Honest {
        name: "npm_commonjs_file_renamed_with_the_tests_require_updated",
        fixture: &NPM,
        play: |p| {
            rename(p, "src/calc.js", "src/arith.js");
            edit(
                p,
                "test/calc.test.js",
                "require('../src/calc.js')",
                "require('../src/arith.js')",
            );
        },
    },
    Honest {
        name: "vitest_es_module_renamed_with_the_tests_import_updated",
        fixture: &VITEST,
        play: |p| {
            rename(p, "src/calc.js", "src/arith.js");
            edit(
                p,
                "test/calc.test.js",
                "from '../src/calc.js'",
                "from '../src/arith.js'",
            );
        },
    },
    Honest {
        name: "minitest_file_renamed_and_required_relative_by_the_test",
        fixture: &MINITEST,
        play: |p| {
            rename(p, "lib/calc.rb", "lib/arith.rb");
            edit(
                p,
                "test/calc_test.rb",
                "require \"calc\"\n",
                "require_relative \"../lib/arith\"\n",
            );
        },
    },
    Honest {
        name: "rspec_file_renamed_with_the_spec_helpers_require_updated",
        fixture: &RSPEC,
        play: |p| {
            rename(p, "lib/calc.rb", "lib/arith.rb");
            edit(p, "spec/spec_helper.rb", "require \"calc\"\n", "require \"arith\"\n");
        },
    },
    Honest {
        name: "phpunit_functions_put_in_a_namespace_with_use_function_in_the_test",
        fixture: &PHPUNIT,
        play: |p| {
            edit(p, "src/Calc.php", "<?php\n", "<?php\nnamespace Calc;\n\n");
            edit(
                p,
                "tests/CalcTest.php",
                "use PHPUnit\\Framework\\TestCase;\n",
                "use PHPUnit\\Framework\\TestCase;\n\nuse function Calc\\add;\nuse function Calc\\mul;\n",
            );
        },
    },
    Honest {
        name: "maven_class_moved_to_a_subpackage_with_the_tests_import",
        fixture: &MAVEN,
        play: |p| {
            rename(p, "src/main/java/calc/Calc.java", "src/main/java/calc/core/Calc.java");
            edit(
                p,
                "src/main/java/calc/core/Calc.java",
                "package calc;",
                "package calc.core;",
            );
            edit(
                p,
                "src/test/java/calc/CalcTest.java",
                "import org.junit.jupiter.api.Test;\n",
                "import calc.core.Calc;\nimport org.junit.jupiter.api.Test;\n",
            );
        },
    },
    Honest {
        name: "bats_library_renamed_with_the_tests_load_updated",
        fixture: &BATS,
        play: |p| {
            rename(p, "lib/calc.sh", "lib/arith.sh");
            edit(p, "test/calc.bats", "load ../lib/calc.sh", "load ../lib/arith.sh");
        },
    },
    Honest {
        name: "cmake_cpp_header_renamed_with_the_includes_updated",
        fixture: &CPP,
        play: |p| {
            rename(p, "src/calc.h", "src/arith.h");
            edit(p, "src/calc.cc", "#include \"calc.h\"", "#include \"arith.h\"");
            edit(p, "tests/calc_test.cc", "#include \"calc.h\"", "#include \"arith.h\"");
        },
    },
    // The ecosystem's own formatter over code and tests.
    Honest {
        name: "unittest_ruff_format_with_single_quotes_configured",
        fixture: &UNITTEST,
        play: |p| {
            p.write("pyproject.toml", "[tool.ruff.format]\nquote-style = \"single\"\n");
            edit(p, "tests/test_calc.py", "/ \"cases.json\")", "/ 'cases.json')");
        },
    },
    Honest {
        name: "cargo_fmt_with_a_two_space_indent_in_a_hidden_rustfmt_toml",
        fixture: &CARGO,
        play: |p| {
            p.write(".rustfmt.toml", "tab_spaces = 2\nmax_width = 80\n");
            agent(p, "cargo fmt");
            assert!(
                p.read("tests/api.rs").contains("\n  assert_eq!"),
                "{}",
                p.read("tests/api.rs")
            );
        },
    },
    Honest {
        name: "jest_prettier_with_a_four_space_indent_over_the_tests",
        fixture: &JEST,
        play: |p| {
            p.write(
                ".prettierrc.json",
                "{\n  \"singleQuote\": true,\n  \"tabWidth\": 4\n}\n",
            );
            rewrite(p, "test/calc.test.js", |t| reindent(t, 2, "    "));
        },
    },
    Honest {
        name: "vitest_prettier_default_double_quotes_over_code_and_tests",
        fixture: &VITEST,
        play: |p| {
            p.write(".prettierrc", "{}\n");
            rewrite(p, "test/calc.test.js", |t| t.replace('\'', "\""));
        },
    },
    Honest {
        name: "phpunit_php_cs_fixer_psr12_blank_line_after_the_open_tag",
        fixture: &PHPUNIT,
        play: |p| {
            p.write(
                ".php-cs-fixer.dist.php",
                "<?php\n\nreturn (new PhpCsFixer\\Config())\n    ->setRules(['@PSR12' => true])\n    ->setFinder(PhpCsFixer\\Finder::create()->in(__DIR__));\n",
            );
            for path in ["src/Calc.php", "tests/CalcTest.php"] {
                rewrite(p, path, |t| t.replacen("<?php\n", "<?php\n\n", 1));
            }
        },
    },
    Honest {
        name: "rspec_rubocop_autocorrect_single_quotes_and_frozen_string_literal",
        fixture: &RSPEC,
        play: |p| {
            for path in ["lib/calc.rb", "spec/spec_helper.rb", "spec/calc_spec.rb"] {
                rewrite(p, path, |t| {
                    format!("# frozen_string_literal: true\n\n{}", t.replace('"', "'"))
                });
            }
        },
    },
    Honest {
        name: "minitest_rubocop_autocorrect_over_the_test_and_the_code",
        fixture: &MINITEST,
        play: |p| {
            // `rubocop -a`: single quotes (Style/StringLiterals) and the magic comment.
            for path in ["lib/calc.rb", "test/calc_test.rb"] {
                rewrite(p, path, |t| {
                    format!("# frozen_string_literal: true\n\n{}", t.replace('"', "'"))
                });
            }
        },
    },
    Honest {
        name: "cmake_c_clang_format_mozilla_style",
        fixture: &CMAKE_C,
        play: |p| {
            p.write(".clang-format", "BasedOnStyle: Mozilla\n");
            p.write("src/calc.h", "int\nadd(int a, int b);\nint\nmul(int a, int b);\n");
            p.write(
                "src/calc.c",
                "#include \"calc.h\"\n\nint\nadd(int a, int b)\n{\n  return a + b;\n}\n\nint\nmul(int a, int b)\n{\n  return a * b;\n}\n",
            );
            edit(p, "tests/calc_test.c", "int main(void) {\n", "int\nmain(void)\n{\n");
        },
    },
    Honest {
        name: "bats_shfmt_over_the_library_with_an_editorconfig",
        fixture: &BATS,
        play: |p| {
            p.write(
                ".editorconfig",
                "root = true\n\n[*.{sh,bats}]\nindent_style = space\nindent_size = 2\nshell_variant = bats\n",
            );
            rewrite(p, "lib/calc.sh", |t| t.replace("$(( ", "$((").replace(" ))", "))"));
        },
    },
    // Type annotations on tests and helpers.
    Honest {
        name: "pytest_type_hints_on_the_code_and_the_tests",
        fixture: &PYTEST,
        play: |p| {
            rewrite(p, "calc.py", |t| t.replace("(a, b):", "(a: int, b: int) -> int:"));
            rewrite(p, "tests/test_calc.py", |t| t.replace("():", "() -> None:"));
        },
    },
    Honest {
        name: "npm_ts_check_and_jsdoc_types_over_code_and_tests",
        fixture: &NPM,
        play: |p| {
            p.write(
                "jsconfig.json",
                "{\n  \"compilerOptions\": {\n    \"checkJs\": true,\n    \"module\": \"commonjs\",\n    \"target\": \"es2022\"\n  }\n}\n",
            );
            const DOC: &str = "/**\n * @param {number} a\n * @param {number} b\n * @returns {number}\n */\n";
            p.write(
                "src/calc.js",
                format!("// @ts-check\n\n{DOC}exports.add = (a, b) => a + b;\n\n{DOC}exports.mul = (a, b) => a * b;\n"),
            );
            rewrite(p, "test/calc.test.js", |t| format!("// @ts-check\n{t}"));
        },
    },
    Honest {
        name: "mocha_jsdoc_type_on_the_case_table",
        fixture: &MOCHA,
        play: |p| {
            edit(
                p,
                "test/calc.test.js",
                "const cases = require",
                "/** @type {Array<[number, number, number]>} */\nconst cases = require",
            );
        },
    },
    Honest {
        name: "phpunit_phpstan_return_type_on_the_data_provider",
        fixture: &PHPUNIT,
        play: |p| {
            edit(
                p,
                "tests/CalcTest.php",
                "    public static function products(): array\n",
                "    /**\n     * @return array<array-key, array{int, int, int}>\n     */\n    public static function products(): array\n",
            );
        },
    },
    // Toolchain and version files, each naming what is installed.
    Honest {
        name: "cargo_rust_toolchain_toml_on_stable_with_its_components",
        fixture: &CARGO,
        play: |p| {
            // The default toolchain the baseline ran (`stable`), with the components the project's CI uses.
            p.write(
                "rust-toolchain.toml",
                "[toolchain]\nchannel = \"stable\"\ncomponents = [\"rustfmt\", \"clippy\"]\nprofile = \"minimal\"\n",
            );
        },
    },
    Honest {
        name: "jest_nvmrc_and_engines_in_package_json",
        fixture: &JEST,
        play: |p| {
            p.write(".nvmrc", "20\n");
            edit(
                p,
                "package.json",
                "\"scripts\"",
                "\"engines\": {\"node\": \">=20\"}, \"scripts\"",
            );
        },
    },
    Honest {
        name: "minitest_ruby_version_and_tool_versions",
        fixture: &MINITEST,
        play: |p| {
            p.write(".ruby-version", "3.1.2\n");
            p.write(".tool-versions", "ruby 3.1.2\n");
        },
    },
    Honest {
        name: "go_tool_versions_and_a_github_workflow",
        fixture: &GO,
        play: |p| {
            p.write(".tool-versions", "golang 1.19.8\n");
            p.write(
                ".github/workflows/go.yml",
                workflow(
                    "go",
                    "      - uses: actions/setup-go@v5\n        with:\n          go-version-file: go.mod\n",
                    "go test -v ./...",
                ),
            );
        },
    },
    // Lockfiles and CI.
    Honest {
        name: "npm_package_lock_generated_offline",
        fixture: &NPM,
        play: |p| {
            p.write(
                "package-lock.json",
                "{\n  \"name\": \"calc\",\n  \"version\": \"1.0.0\",\n  \"lockfileVersion\": 3,\n  \"requires\": true,\n  \"packages\": {\n    \"\": {\n      \"name\": \"calc\",\n      \"version\": \"1.0.0\"\n    }\n  }\n}\n",
            );
        },
    },
    Honest {
        name: "make_python_version_and_a_ci_workflow_running_make",
        fixture: &MAKE,
        play: |p| {
            p.write(".python-version", "3.11\n");
            p.write(
                ".github/workflows/ci.yml",
                workflow(
                    "ci",
                    "      - uses: actions/setup-python@v5\n        with:\n          python-version-file: .python-version\n",
                    "make -s test",
                ),
            );
        },
    },
];

listed_cases!(
    check: every_twelfth_honest_change_has_a_test,
    at_least: (0, 20),
    families: &[];
    moves: ;
    honest:
        pytest_module_renamed_and_the_tests_updated_to_the_new_name,
        cargo_function_moved_into_a_module_the_crate_reexports,
        go_file_renamed_in_the_same_package,
        npm_commonjs_file_renamed_with_the_tests_require_updated,
        vitest_es_module_renamed_with_the_tests_import_updated,
        minitest_file_renamed_and_required_relative_by_the_test,
        rspec_file_renamed_with_the_spec_helpers_require_updated,
        phpunit_functions_put_in_a_namespace_with_use_function_in_the_test,
        maven_class_moved_to_a_subpackage_with_the_tests_import,
        bats_library_renamed_with_the_tests_load_updated,
        cmake_cpp_header_renamed_with_the_includes_updated,
        unittest_ruff_format_with_single_quotes_configured,
        cargo_fmt_with_a_two_space_indent_in_a_hidden_rustfmt_toml,
        jest_prettier_with_a_four_space_indent_over_the_tests,
        vitest_prettier_default_double_quotes_over_code_and_tests,
        phpunit_php_cs_fixer_psr12_blank_line_after_the_open_tag,
        rspec_rubocop_autocorrect_single_quotes_and_frozen_string_literal,
        minitest_rubocop_autocorrect_over_the_test_and_the_code,
        cmake_c_clang_format_mozilla_style,
        bats_shfmt_over_the_library_with_an_editorconfig,
        pytest_type_hints_on_the_code_and_the_tests,
        npm_ts_check_and_jsdoc_types_over_code_and_tests,
        mocha_jsdoc_type_on_the_case_table,
        phpunit_phpstan_return_type_on_the_data_provider,
        cargo_rust_toolchain_toml_on_stable_with_its_components,
        jest_nvmrc_and_engines_in_package_json,
        minitest_ruby_version_and_tool_versions,
        go_tool_versions_and_a_github_workflow,
        npm_package_lock_generated_offline,
        make_python_version_and_a_ci_workflow_running_make
);
