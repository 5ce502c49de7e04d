//! Mocha's configuration in JavaScript (`.mocharc.js`, `.mocharc.cjs`), by class: a module that only exports a
//! literal reads as the data it denotes and is judged key by key, like `.mocharc.json` (`closure::js_literal`), so
//! its free options (how many files run at once, how long a test may take, a reporter mocha ships) are free; and
//! every way such a file can still change what runs or what counts stays caught. Each move is first shown to make
//! the verify pass bare (`crate::prove`).
//!
//! The classes of moves, with their members:
//! - **code beside the export**: a statement run as mocha loads the file, in the process that then runs the
//!   tests (a `require` of a patch before the export; a patch after it);
//! - **code inside the exported value**: a getter, a spread of another module's export (each no literal, so
//!   judged by the file's bytes; a `__proto__` key is no literal either, though mocha reads no inherited option);
//! - **a literal whose key counts**: `require` naming a patch, `spec` narrowed to a file that passes, `grep`
//!   selecting only the passing test, a reporter that is a path.
//!
//! The honest partners are everyday JavaScript rc files: comments and `'use strict'` around the export, an
//! `.mocharc.cjs` with quoted keys and a trailing comma, mocha's own defaults written out.

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::MOCHA;
use crate::{Honest, Move};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// No move gets through.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// No honest change is rejected.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// A module of the code that makes `add` add, for every test that loads the code after it.
const PATCH: &str = "const calc = require('./calc.js');\ncalc.add = (a, b) => a + b;\n";

pub const CASES: &[Case] = &[
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_requires_a_patch_before_its_literal",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write("src/fix.js", PATCH);
                p.write(
                    ".mocharc.js",
                    "'use strict';\nrequire('./src/fix.js');\nmodule.exports = {\n  parallel: false,\n};\n",
                );
            },
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_cjs_patches_the_code_after_its_literal",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write(
                    ".mocharc.cjs",
                    "module.exports = { timeout: 5000 };\nrequire('./src/calc.js').add = (a, b) => a + b;\n",
                );
            },
            expect: &[REJECTED, "`.mocharc.cjs`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_getter_runs_a_patch_when_mocha_reads_the_option",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write("src/fix.js", PATCH);
                p.write(
                    ".mocharc.js",
                    "module.exports = {\n  get timeout() {\n    require('./src/fix.js');\n    return 2000;\n  },\n};\n",
                );
            },
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_spreads_the_options_of_a_module_that_patches",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write("src/options.js", format!("{PATCH}module.exports = {{ slow: 100 }};\n"));
                p.write(
                    ".mocharc.js",
                    "module.exports = {\n  ...require('./src/options.js'),\n  jobs: 1,\n};\n",
                );
            },
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_literal_requires_a_patch",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write("src/fix.js", PATCH);
                p.write(
                    ".mocharc.js",
                    "// setup\nmodule.exports = {\n  parallel: false,\n  require: ['./src/fix.js'],\n};\n",
                );
            },
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_literal_greps_the_passing_test",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                p.write(".mocharc.js", "module.exports = { grep: 'multiplies', slow: 100 };\n");
            },
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "mocha_rc_js_strict_with_comments_and_a_longer_timeout",
        fixture: &MOCHA,
        play: |p| {
            p.write(
                ".mocharc.js",
                "'use strict';\n\n/** Mocha's options: slower CI machines. */\nmodule.exports = {\n  timeout: 10000, // ms\n  slow: 300,\n  reporter: 'dot',\n};\n",
            );
        },
    },
    Honest {
        name: "mocha_rc_cjs_quoted_keys_and_a_trailing_comma",
        fixture: &MOCHA,
        play: |p| {
            p.write(
                ".mocharc.cjs",
                "module.exports = {\n  \"full-trace\": true,\n  'inline-diffs': true,\n  color: false,\n};\n",
            );
        },
    },
];

listed_cases!(
    check: every_mocha_rc_js_case_has_a_test,
    at_least: (6, 2),
    families: &[Family::LoadsOnItsOwn];
    moves:
        mocha_rc_js_requires_a_patch_before_its_literal,
        mocha_rc_cjs_patches_the_code_after_its_literal,
        mocha_rc_js_getter_runs_a_patch_when_mocha_reads_the_option,
        mocha_rc_js_spreads_the_options_of_a_module_that_patches,
        mocha_rc_js_literal_requires_a_patch,
        mocha_rc_js_literal_greps_the_passing_test;
    honest:
        mocha_rc_js_strict_with_comments_and_a_longer_timeout,
        mocha_rc_cjs_quoted_keys_and_a_trailing_comma
);
