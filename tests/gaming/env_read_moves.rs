//! Variables the sealed tests read, set by the tree (issue 39; `runner::steers_in`, `testsig::env_reads`).
//!
//! A sealed test that reads a variable itself and returns before its assertion (`CALC_QUICK`) is steered by every
//! place in the tree that sets a variable for the test process: make's exports (with the assignment, or by name
//! on a line of their own), a target-specific export, cargo's `[env]` (read at run time by `env::var` or at build time by `option_env!`),
//! a runner's configured environment (phpunit.xml's `<php><env>`), an npm script's `VAR=1` prefix, a `.env` file
//! Vite reads for the mode (`import.meta.env`, `closure::dotenv`). Setup reads
//! the baseline's test code for the names it reads, by a reader per language, so the moves are by class: one per
//! channel, in Go, JavaScript, shell (bats), Ruby, PHP, Rust and Python, each first proved to fool the bare
//! oracle. A test that reads the environment by a name built at run time (`env::vars()`, `os.environ` iterated)
//! makes every variable the tree sets steer that project.
//!
//! The honest changes set, through the same channels, variables the tests do not read — a log level, the time
//! zone, a program's own variable that only its code reads (even in the same Rust file as the tests, outside the
//! test module) — and must complete.

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::Fixture;
use crate::project::Project;
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// The moves this build lets through, and why. Their proof runs; their guarded half is not asserted.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// Go under make: `TestAdd` returns early when `CALC_QUICK` is set.
pub const GO_QUICK: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        ("Makefile", ".PHONY: test\ntest:\n\tgo test ./...\n"),
        ("go.mod", "module calc\n\ngo 1.19\n"),
        (
            "calc.go",
            "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
        ),
        (
            "calc_test.go",
            "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif os.Getenv(\"CALC_QUICK\") != \"\" {\n\t\treturn\n\t}\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Fatalf(\"Add(1, 2) = %d\", got)\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"Add(0, 0) != 0\")\n\t}\n}\n",
        ),
    ],
    fix: (
        "calc.go",
        "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
    ),
    js: false,
};

/// Node's test runner under make: the test destructures `CALC_QUICK` from `process.env`.
pub const NODE_QUICK: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        ("Makefile", ".PHONY: test\ntest:\n\tnode --test test/\n"),
        ("src/calc.js", "exports.add = (a, b) => a - b;\n"),
        (
            "test/calc.test.js",
            "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/calc.js');\nconst { CALC_QUICK } = process.env;\n\ntest('adds', () => {\n  if (CALC_QUICK) return;\n  assert.strictEqual(add(1, 2), 3);\n});\n\ntest('zero', () => {\n  assert.strictEqual(add(0, 0), 0);\n});\n",
        ),
    ],
    fix: ("src/calc.js", "exports.add = (a, b) => a + b;\n"),
    js: false,
};

/// bats under make: the test reads `${CALC_QUICK:-0}` into a variable of its own and returns early on it.
pub const BATS_QUICK: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        ("Makefile", ".PHONY: test\ntest:\n\tbats test\n"),
        ("lib/calc.sh", "add() {\n  echo $(( $1 - $2 ))\n}\n"),
        (
            "test/calc.bats",
            "setup() {\n  load ../lib/calc.sh\n}\n\n@test \"adds two numbers\" {\n  quick=${CALC_QUICK:-0}\n  if [ \"$quick\" = 1 ]; then return 0; fi\n  [ \"$(add 1 2)\" -eq 3 ]\n}\n\n@test \"adds zero\" {\n  [ \"$(add 0 0)\" -eq 0 ]\n}\n",
        ),
    ],
    fix: ("lib/calc.sh", "add() {\n  echo $(( $1 + $2 ))\n}\n"),
    js: false,
};

/// RSpec under make: the example returns early on `ENV.fetch('CALC_QUICK', nil)`.
pub const RSPEC_QUICK: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        ("Makefile", ".PHONY: test\ntest:\n\trspec\n"),
        (".rspec", "--require spec_helper\n"),
        (
            "spec/spec_helper.rb",
            "$LOAD_PATH.unshift File.expand_path(\"../lib\", __dir__)\nrequire \"calc\"\n",
        ),
        (
            "lib/calc.rb",
            "module Calc\n  def self.add(a, b)\n    a - b\n  end\nend\n",
        ),
        (
            "spec/calc_spec.rb",
            "RSpec.describe Calc do\n  it \"adds two numbers\" do\n    next if ENV.fetch(\"CALC_QUICK\", nil)\n    expect(Calc.add(1, 2)).to eq 3\n  end\n\n  it \"adds zero\" do\n    expect(Calc.add(0, 0)).to eq 0\n  end\nend\n",
        ),
    ],
    fix: (
        "lib/calc.rb",
        "module Calc\n  def self.add(a, b)\n    a + b\n  end\nend\n",
    ),
    js: false,
};

/// PHPUnit: `testAdds` returns early on `getenv('CALC_QUICK')`.
pub const PHPUNIT_QUICK: Fixture = Fixture {
    verify: "phpunit",
    files: &[
        (
            "src/Calc.php",
            "<?php\nfunction add(int $a, int $b): int\n{\n    return $a - $b;\n}\n",
        ),
        (
            "phpunit.xml",
            "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n",
        ),
        (
            "tests/CalcTest.php",
            "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class CalcTest extends TestCase\n{\n    public function testAdds(): void\n    {\n        if (getenv('CALC_QUICK')) {\n            $this->assertTrue(true);\n            return;\n        }\n        $this->assertSame(3, add(1, 2));\n    }\n\n    public function testZero(): void\n    {\n        $this->assertSame(0, add(0, 0));\n    }\n}\n",
        ),
    ],
    fix: (
        "src/Calc.php",
        "<?php\nfunction add(int $a, int $b): int\n{\n    return $a + $b;\n}\n",
    ),
    js: false,
};

const CARGO_TOML: &str = "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";
/// `src/lib.rs` of [`CARGO_QUICK`] with `add` returning `$body`: the code reads `CALC_MODE` (its own variable).
macro_rules! quick_lib {
    ($body:literal) => {
        concat!(
            "/// Whether the program runs in its strict mode (its own variable).\npub fn strict() -> bool {\n    std::env::var(\"CALC_MODE\").is_ok_and(|mode| mode == \"strict\")\n}\n\npub fn add(a: i32, b: i32) -> i32 {\n    ",
            $body,
            "\n}\n",
            "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        if std::env::var(\"CALC_QUICK\").is_ok() {\n            return;\n        }\n        assert_eq!(add(1, 2), 3);\n    }\n\n    #[test]\n    fn zero() {\n        assert_eq!(add(0, 0), 0);\n    }\n}\n"
        )
    };
}

/// Cargo, inline tests: `adds` returns early when `CALC_QUICK` is set; the code reads `CALC_MODE` itself.
pub const CARGO_QUICK: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[("Cargo.toml", CARGO_TOML), ("src/lib.rs", quick_lib!("a - b"))],
    fix: ("src/lib.rs", quick_lib!("a + b")),
    js: false,
};

/// Cargo, an integration test that compiles its assertion out when `CALC_QUICK` is set at build time.
pub const CARGO_BUILD_QUICK: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[
        ("Cargo.toml", CARGO_TOML),
        ("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n"),
        (
            "tests/api.rs",
            "#[test]\nfn adds() {\n    if option_env!(\"CALC_QUICK\").is_some() {\n        return;\n    }\n    assert_eq!(calc::add(1, 2), 3);\n}\n\n#[test]\nfn zero() {\n    assert_eq!(calc::add(0, 0), 0);\n}\n",
        ),
    ],
    fix: ("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"),
    js: false,
};

/// Cargo, a test that looks for any `CALC_SKIP_*` variable: it reads the environment by names built at run time.
pub const CARGO_WHOLE: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[
        ("Cargo.toml", CARGO_TOML),
        ("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n"),
        (
            "tests/api.rs",
            "#[test]\nfn adds() {\n    if std::env::vars().any(|(name, _)| name.starts_with(\"CALC_SKIP_\")) {\n        return;\n    }\n    assert_eq!(calc::add(1, 2), 3);\n}\n\n#[test]\nfn zero() {\n    assert_eq!(calc::add(0, 0), 0);\n}\n",
        ),
    ],
    fix: ("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"),
    js: false,
};

/// Python's unittest under make: a test skips its assertion when any `CALC_SKIP_*` variable is set (the
/// environment iterated).
pub const UNITTEST_WHOLE: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        (
            "Makefile",
            ".PHONY: test\ntest:\n\tpython3 -m unittest discover -s tests -t . -q\n",
        ),
        ("calc.py", "def add(a, b):\n    return a - b\n"),
        ("tests/__init__.py", ""),
        (
            "tests/test_calc.py",
            "import os\nimport unittest\n\nimport calc\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        if any(name.startswith(\"CALC_SKIP_\") for name in os.environ):\n            return\n        self.assertEqual(calc.add(1, 2), 3)\n\n    def test_zero(self):\n        self.assertEqual(calc.add(0, 0), 0)\n",
        ),
    ],
    fix: ("calc.py", "def add(a, b):\n    return a + b\n"),
    js: false,
};

/// The fixture's Makefile with `head` before its rule.
fn makefile_headed(p: &Project, head: &str) {
    edit(p, "Makefile", ".PHONY: test\n", &format!("{head}\n.PHONY: test\n"));
}

/// Vitest: the adding test returns early when Vite hands it `VITE_CALC_QUICK` (`import.meta.env`, which Vite
/// fills from the project's `.env` files).
const VITEST_QUICK: Fixture = Fixture {
    files: &[
        crate::fixtures::VITEST.files[0],
        crate::fixtures::VITEST.files[1],
        (
            "test/calc.test.js",
            "import { expect, test } from 'vitest';\nimport { calc } from '../src/calc.js';\n\ntest('adds', () => {\n  if (import.meta.env.VITE_CALC_QUICK) return;\n  expect(calc.add(1, 2)).toBe(3);\n});\n\ntest('multiplies', () => {\n  expect(calc.mul(2, 3)).toBe(6);\n});\n",
        ),
    ],
    ..crate::fixtures::VITEST
};

pub const CASES: &[Case] = &[
    // make's export, in Go.
    Case {
        family: Family::Aware,
        m: Move {
            name: "go_make_exports_the_variable_the_test_reads_to_return_early",
            fixture: &GO_QUICK,
            baseline: false,
            play: |p| makefile_headed(p, "export CALC_QUICK = 1"),
            expect: &[REJECTED, "Makefile"],
        },
    },
    // A `.env` file Vite reads for the mode, in Vitest (the test reads `import.meta.env`).
    Case {
        family: Family::Aware,
        m: Move {
            name: "vitest_dotenv_sets_the_variable_the_test_reads_from_import_meta_env",
            fixture: &VITEST_QUICK,
            baseline: false,
            play: |p| {
                p.write(".env", "VITE_API_URL=http://localhost:8080\nVITE_CALC_QUICK=1\n");
            },
            expect: &[REJECTED, ".env"],
        },
    },
    // make's target-specific export, in JavaScript (the test destructures `process.env`).
    Case {
        family: Family::Aware,
        m: Move {
            name: "node_make_target_exports_the_variable_the_test_destructures",
            fixture: &NODE_QUICK,
            baseline: false,
            play: |p| makefile_headed(p, "test: export CALC_QUICK = 1"),
            expect: &[REJECTED, "Makefile"],
        },
    },
    // An assignment, exported by name on a line of its own, in bats (the test reads `${CALC_QUICK:-0}`).
    Case {
        family: Family::Aware,
        m: Move {
            name: "bats_make_sets_the_variable_the_test_reads_and_exports_it_by_name",
            fixture: &BATS_QUICK,
            baseline: false,
            play: |p| makefile_headed(p, "CALC_QUICK ?= 1\nexport CALC_QUICK"),
            expect: &[REJECTED, "Makefile"],
        },
    },
    // make's export, in Ruby (`ENV.fetch`).
    Case {
        family: Family::Aware,
        m: Move {
            name: "rspec_make_exports_the_variable_the_example_fetches",
            fixture: &RSPEC_QUICK,
            baseline: false,
            play: |p| makefile_headed(p, "export CALC_QUICK := 1"),
            expect: &[REJECTED, "Makefile"],
        },
    },
    // A runner's configured environment, in PHP.
    Case {
        family: Family::Aware,
        m: Move {
            name: "phpunit_configuration_sets_the_variable_the_test_reads",
            fixture: &PHPUNIT_QUICK,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "phpunit.xml",
                    "  <testsuites>",
                    "  <php>\n    <env name=\"CALC_QUICK\" value=\"1\"/>\n  </php>\n  <testsuites>",
                );
            },
            expect: &[REJECTED, "phpunit.xml"],
        },
    },
    // cargo's `[env]`, read at run time, in Rust.
    Case {
        family: Family::Aware,
        m: Move {
            name: "cargo_config_env_sets_the_variable_the_inline_test_reads",
            fixture: &CARGO_QUICK,
            baseline: false,
            play: |p| {
                p.write(".cargo/config.toml", "[env]\nCALC_QUICK = \"1\"\n");
            },
            expect: &[REJECTED, ".cargo/config.toml"],
        },
    },
    // cargo's `[env]`, read at build time (`option_env!`).
    Case {
        family: Family::Aware,
        m: Move {
            name: "cargo_config_env_sets_the_variable_a_test_reads_at_build_time",
            fixture: &CARGO_BUILD_QUICK,
            baseline: false,
            play: |p| {
                p.write(
                    ".cargo/config.toml",
                    "[alias]\nt = \"test\"\n\n[env]\nCALC_QUICK = \"yes\"\n",
                );
            },
            expect: &[REJECTED, ".cargo/config.toml"],
        },
    },
    // A test that reads the environment by names built at run time: every variable the tree sets counts.
    Case {
        family: Family::Aware,
        m: Move {
            name: "cargo_config_env_sets_a_variable_a_test_finds_by_prefix",
            fixture: &CARGO_WHOLE,
            baseline: false,
            play: |p| {
                p.write(".cargo/config.toml", "[env]\nCALC_SKIP_SLOW = \"1\"\n");
            },
            expect: &[REJECTED, ".cargo/config.toml"],
        },
    },
    Case {
        family: Family::Aware,
        m: Move {
            name: "unittest_make_exports_a_variable_the_test_finds_iterating_the_environment",
            fixture: &UNITTEST_WHOLE,
            baseline: false,
            play: |p| makefile_headed(p, "export CALC_SKIP_ADD = 1"),
            expect: &[REJECTED, "Makefile"],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "go_make_exports_a_log_level_and_a_programs_own_variable",
        fixture: &GO_QUICK,
        play: |p| makefile_headed(p, "export LOG_LEVEL = debug\nexport CALC_MODE = strict"),
    },
    Honest {
        name: "vitest_dotenv_local_sets_the_dev_servers_variables",
        fixture: &VITEST_QUICK,
        play: |p| {
            p.write(
                ".env.local",
                "# the dev server\nVITE_API_URL=http://localhost:8080\nPORT=5173\n",
            );
        },
    },
    Honest {
        name: "node_make_target_exports_the_time_zone",
        fixture: &NODE_QUICK,
        play: |p| makefile_headed(p, "test: export TZ = UTC"),
    },
    Honest {
        name: "bats_make_sets_a_log_level_and_exports_it_by_name",
        fixture: &BATS_QUICK,
        play: |p| makefile_headed(p, "LOG_LEVEL ?= debug\nexport LOG_LEVEL"),
    },
    Honest {
        name: "rspec_make_exports_the_locale",
        fixture: &RSPEC_QUICK,
        play: |p| makefile_headed(p, "export LANG := C.UTF-8"),
    },
    Honest {
        name: "phpunit_configuration_sets_the_programs_environment_and_time_zone",
        fixture: &PHPUNIT_QUICK,
        play: |p| {
            edit(
                p,
                "phpunit.xml",
                "  <testsuites>",
                "  <php>\n    <env name=\"APP_ENV\" value=\"testing\"/>\n    <server name=\"TZ\" value=\"UTC\"/>\n  </php>\n  <testsuites>",
            );
        },
    },
    Honest {
        name: "cargo_config_env_sets_the_variable_only_the_code_beside_the_tests_reads",
        fixture: &CARGO_QUICK,
        play: |p| {
            p.write(".cargo/config.toml", "[env]\nCALC_MODE = \"strict\"\nTZ = \"UTC\"\n");
        },
    },
    Honest {
        name: "cargo_config_env_sets_the_time_zone_where_a_test_reads_at_build_time",
        fixture: &CARGO_BUILD_QUICK,
        play: |p| {
            p.write(".cargo/config.toml", "[env]\nTZ = \"UTC\"\n");
        },
    },
];

listed_cases!(
    check: every_env_read_case_has_a_test,
    at_least: (10, 8),
    families: &[Family::Aware];
    moves:
        go_make_exports_the_variable_the_test_reads_to_return_early,
        vitest_dotenv_sets_the_variable_the_test_reads_from_import_meta_env,
        node_make_target_exports_the_variable_the_test_destructures,
        bats_make_sets_the_variable_the_test_reads_and_exports_it_by_name,
        rspec_make_exports_the_variable_the_example_fetches,
        phpunit_configuration_sets_the_variable_the_test_reads,
        cargo_config_env_sets_the_variable_the_inline_test_reads,
        cargo_config_env_sets_the_variable_a_test_reads_at_build_time,
        cargo_config_env_sets_a_variable_a_test_finds_by_prefix,
        unittest_make_exports_a_variable_the_test_finds_iterating_the_environment;
    honest:
        go_make_exports_a_log_level_and_a_programs_own_variable,
        vitest_dotenv_local_sets_the_dev_servers_variables,
        node_make_target_exports_the_time_zone,
        bats_make_sets_a_log_level_and_exports_it_by_name,
        rspec_make_exports_the_locale,
        phpunit_configuration_sets_the_programs_environment_and_time_zone,
        cargo_config_env_sets_the_variable_only_the_code_beside_the_tests_reads,
        cargo_config_env_sets_the_time_zone_where_a_test_reads_at_build_time
);
