//! A runner's options on its own command line (a `package.json` script, a make recipe's line), by class: the
//! options that are free as keys of the runner's configuration are free there too (`runner::command_line`: how
//! many workers run the same files, how long a test may take, a reporter the runner ships, unittest's `-b`), and
//! each way an option can still change what runs or what counts stays caught. Each move is first shown to make
//! the verify pass bare (`crate::prove`).
//!
//! The classes of moves, with their members:
//! - **a free option beside one that selects**: a name filter after free flags (Jest's `-t`, node's
//!   `--test-name-pattern`, unittest's `-k` after `-b`);
//! - **a word after a flag, which the runner reads as a test path filter** (`jest --silent multiplies`, where a
//!   reading that took the word for the flag's value would drop the filter with it);
//! - **a reporter or a pool that is code** beside a built-in one (`vitest run --reporter=dot --reporter=./x.js`),
//!   and a built-in reporter's output sent to a file (`--outputFile`);
//!
//! The honest partners are everyday spellings of the free options: the short aliases (`-i`, `-w 2`), the
//! kebab spelling, the space between an option and its value, negated flags.

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::{JEST, NPM, VITEST};
use crate::fresh_moves_10::PY_HELPER;
use crate::project::Project;
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// No move gets through.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// No honest change is rejected.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// `package.json`'s test script `from` made `to`.
fn script(p: &Project, from: &str, to: &str) {
    edit(p, "package.json", &format!("\"{from}\""), &format!("\"{to}\""));
}

/// A Vitest reporter that ends the run with status 0 once every file is done, whatever failed.
const EXIT_ZERO_REPORTER: &str = "export default class {\n  onFinished() {\n    process.exit(0);\n  }\n  onTestRunEnd() {\n    process.exit(0);\n  }\n}\n";

pub const CASES: &[Case] = &[
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "jest_script_free_flags_then_a_name_filter",
            fixture: &JEST,
            baseline: false,
            play: |p| script(p, "jest --ci", "jest --ci --silent --maxWorkers=2 -t multiplies"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "jest_script_a_flag_then_a_test_path_filter",
            fixture: &JEST,
            baseline: false,
            play: |p| {
                p.write(
                    "test/mul.test.js",
                    "const calc = require('../src/calc.js');\n\ntest('multiplies again', () => {\n  expect(calc.mul(3, 3)).toBe(9);\n});\n",
                );
                script(p, "jest --ci", "jest --ci --silent mul");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "vitest_script_a_reporter_of_its_own_beside_the_dot_reporter",
            fixture: &VITEST,
            baseline: false,
            play: |p| {
                p.write("test/.reporter.js", EXIT_ZERO_REPORTER);
                script(
                    p,
                    "vitest run",
                    "vitest run --reporter=dot --reporter=./test/.reporter.js",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "vitest_script_free_options_then_a_file_filter",
            fixture: &VITEST,
            baseline: false,
            play: |p| {
                p.write(
                    "test/mul.test.js",
                    "import { test, expect } from 'vitest';\nimport { calc } from '../src/calc.js';\n\ntest('multiplies again', () => {\n  expect(calc.mul(3, 3)).toBe(9);\n});\n",
                );
                script(p, "vitest run", "vitest run --no-file-parallelism --pool forks mul");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "node_test_script_one_file_at_a_time_and_a_name_pattern",
            fixture: &NPM,
            baseline: false,
            play: |p| {
                script(
                    p,
                    "node --test",
                    "node --test --test-concurrency=1 --test-reporter=spec --test-name-pattern=multiplies",
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "make_unittest_buffered_and_a_name_pattern",
            fixture: &PY_HELPER,
            baseline: false,
            play: |p| edit(p, "Makefile", "-t . -q\n", "-t . -q -b -k zero\n"),
            expect: &[REJECTED],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "jest_script_runs_in_band_with_short_options",
        fixture: &JEST,
        play: |p| script(p, "jest --ci", "jest --ci -i --silent --no-cache"),
    },
    Honest {
        name: "jest_script_kebab_worker_count_and_a_built_in_reporter",
        fixture: &JEST,
        play: |p| {
            script(
                p,
                "jest --ci",
                "jest --ci --max-workers 50% --reporters=default --testTimeout=20000",
            )
        },
    },
    Honest {
        name: "vitest_script_forks_pool_one_worker_and_a_longer_timeout",
        fixture: &VITEST,
        play: |p| {
            script(
                p,
                "vitest run",
                "vitest run --pool=forks --maxWorkers=1 --test-timeout 20000",
            )
        },
    },
    Honest {
        name: "vitest_script_verbose_reporter_spelled_apart",
        fixture: &VITEST,
        play: |p| script(p, "vitest run", "vitest run --reporter verbose"),
    },
    Honest {
        name: "node_test_script_spec_reporter_and_concurrency_spelled_apart",
        fixture: &NPM,
        play: |p| {
            script(
                p,
                "node --test",
                "node --test --test-reporter spec --test-concurrency 1",
            )
        },
    },
    Honest {
        name: "make_unittest_buffer_spelled_long",
        fixture: &PY_HELPER,
        play: |p| edit(p, "Makefile", "-t . -q\n", "-t . -q --buffer\n"),
    },
];

listed_cases!(
    check: every_command_line_case_has_a_test,
    at_least: (6, 6),
    families: &[Family::LoadsOnItsOwn];
    moves:
        jest_script_free_flags_then_a_name_filter,
        jest_script_a_flag_then_a_test_path_filter,
        vitest_script_a_reporter_of_its_own_beside_the_dot_reporter,
        vitest_script_free_options_then_a_file_filter,
        node_test_script_one_file_at_a_time_and_a_name_pattern,
        make_unittest_buffered_and_a_name_pattern;
    honest:
        jest_script_runs_in_band_with_short_options,
        jest_script_kebab_worker_count_and_a_built_in_reporter,
        vitest_script_forks_pool_one_worker_and_a_longer_timeout,
        vitest_script_verbose_reporter_spelled_apart,
        node_test_script_spec_reporter_and_concurrency_spelled_apart,
        make_unittest_buffer_spelled_long
);
