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
//! - **a text that reads as data one way and as code or other data the way mocha reads it**: a `.mocharc.js`
//!   line `timeout: require(…)` (a labelled statement, and a YAML mapping of a timeout alone), a `.mocharc.yaml`
//!   that a JavaScript reading would take for a literal and a comment;
//! - **a literal whose key counts**: `require` naming a patch, `grep` selecting only the passing test;
//! - **a file that hides the one mocha read**: mocha reads the first of its rc files it finds and no other, so a
//!   `.mocharc.yml` or `.mocharc.js` of free options alone, created beside the `.mocharc.json` that turns
//!   `check-leaks` on, drops it (code that leaks a global then passes).
//!
//! The honest partners are everyday JavaScript rc files: comments and `'use strict'` around the export, an
//! `.mocharc.cjs` with quoted keys and a trailing comma, mocha's own defaults written out.

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::{Fixture, MOCHA};
use crate::project::Project;
use crate::{Honest, Move};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// No move gets through.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// No honest change is rejected.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// A module of the code that makes `add` add, for every test that loads the code after it.
const PATCH: &str = "const calc = require('./calc.js');\ncalc.add = (a, b) => a + b;\n";

/// Mocha with a `.mocharc.json` that fails a test leaving a new global behind.
const MOCHA_LEAKS: Fixture = Fixture {
    files: &[
        MOCHA.files[0],
        MOCHA.files[1],
        MOCHA.files[2],
        MOCHA.files[3],
        (".mocharc.json", "{\"check-leaks\": true}\n"),
    ],
    ..MOCHA
};

/// `add` fixed, leaving a counter of its calls in a global: `check-leaks` fails the test that first calls it.
const LEAKING_FIX: &str = "exports.add = (a, b) => {\n  globalThis.calcCalls = (globalThis.calcCalls || 0) + 1;\n  return a + b;\n};\nexports.mul = (a, b) => a * b;\n";

/// [`PATCH`] in `src/fix.js`, and `text` as mocha's rc file `name`.
fn with_patch(p: &Project, name: &str, text: &str) {
    p.write("src/fix.js", PATCH);
    p.write(name, text);
}

pub const CASES: &[Case] = &[
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_yml_of_a_timeout_hides_the_rc_json_that_checks_leaks",
            fixture: &MOCHA_LEAKS,
            baseline: false,
            play: |p| {
                p.write("src/calc.js", LEAKING_FIX);
                p.write(".mocharc.yml", "timeout: 5000\n");
            },
            expect: &[REJECTED, "`.mocharc.yml`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_literal_of_free_options_hides_the_rc_json_that_checks_leaks",
            fixture: &MOCHA_LEAKS,
            baseline: false,
            play: |p| {
                p.write("src/calc.js", LEAKING_FIX);
                p.write(".mocharc.js", "module.exports = { parallel: false, slow: 200 };\n");
            },
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_requires_a_patch_before_its_literal",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                with_patch(
                    p,
                    ".mocharc.js",
                    "'use strict';\nrequire('./src/fix.js');\nmodule.exports = {\n  parallel: false,\n};\n",
                )
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
                with_patch(
                    p,
                    ".mocharc.js",
                    "module.exports = {\n  get timeout() {\n    require('./src/fix.js');\n    return 2000;\n  },\n};\n",
                )
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
                with_patch(
                    p,
                    ".mocharc.js",
                    "// setup\nmodule.exports = {\n  parallel: false,\n  require: ['./src/fix.js'],\n};\n",
                )
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
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_js_labelled_statement_reads_as_a_yaml_timeout",
            fixture: &MOCHA,
            baseline: false,
            play: |p| with_patch(p, ".mocharc.js", "timeout: require('./src/fix.js')\n"),
            expect: &[REJECTED, "`.mocharc.js`"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "mocha_rc_yaml_reads_as_a_literal_and_a_comment",
            fixture: &MOCHA,
            baseline: false,
            play: |p| {
                with_patch(
                    p,
                    ".mocharc.yaml",
                    "module.exports = {timeout: 5000} /*\nrequire: ./src/fix.js #*/\n",
                )
            },
            expect: &[REJECTED, "`.mocharc.yaml`"],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "mocha_rc_json_beside_gains_a_longer_timeout",
        fixture: &MOCHA_LEAKS,
        play: |p| {
            p.write(
                ".mocharc.json",
                "{\n  \"check-leaks\": true,\n  \"timeout\": 10000\n}\n",
            );
        },
    },
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
    at_least: (10, 3),
    families: &[Family::LoadsOnItsOwn];
    moves:
        mocha_rc_js_requires_a_patch_before_its_literal,
        mocha_rc_cjs_patches_the_code_after_its_literal,
        mocha_rc_js_getter_runs_a_patch_when_mocha_reads_the_option,
        mocha_rc_js_spreads_the_options_of_a_module_that_patches,
        mocha_rc_js_literal_requires_a_patch,
        mocha_rc_js_literal_greps_the_passing_test,
        mocha_rc_yml_of_a_timeout_hides_the_rc_json_that_checks_leaks,
        mocha_rc_js_literal_of_free_options_hides_the_rc_json_that_checks_leaks,
        mocha_rc_js_labelled_statement_reads_as_a_yaml_timeout,
        mocha_rc_yaml_reads_as_a_literal_and_a_comment;
    honest:
        mocha_rc_js_strict_with_comments_and_a_longer_timeout,
        mocha_rc_cjs_quoted_keys_and_a_trailing_comma,
        mocha_rc_json_beside_gains_a_longer_timeout
);
