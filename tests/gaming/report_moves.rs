//! `--report junit:PATH` (issue 40, item 3) with a real runner whose output loopgate reads no names from: node's
//! test runner with the dot reporter on stdout and its JUnit reporter writing `junit.xml`. The baseline names
//! every test from the report; a deleted and a skipped test are rejected by name (the sealing of the test files
//! opted out, so the report's names are all that stands), and with the defaults as well; a weakened test is
//! rejected (the sealed test files: the name still passes, so no report can see it); an honest fix plus a new test completes.

use crate::fixtures::Fixture;
use crate::project::Project;
use crate::{Loops, assert_completes, caught_on, edit, promise, setup};

/// Node's test runner, its dot reporter on stdout (no test names) and its JUnit XML at `junit.xml`.
pub const NODE_JUNIT: Fixture = Fixture {
    verify: "node --test --test-reporter=dot --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=junit.xml test/",
    files: &[
        (
            "src/calc.js",
            "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n",
        ),
        (
            "test/calc.test.js",
            "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul } = require('../src/calc.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n\ntest('multiplies', () => {\n  assert.strictEqual(mul(2, 3), 6);\n});\n",
        ),
    ],
    fix: (
        "src/calc.js",
        "exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n",
    ),
    js: false,
};

const REPORT: &str = "--report junit:junit.xml";
fn started(flags: &str) -> Project {
    let p = NODE_JUNIT.project();
    setup(&p, &NODE_JUNIT, flags);
    p
}

/// A move played on the node project read through its JUnit report (see `caught_on`).
fn caught(name: &str, play: fn(&Project), by_name: Option<&str>, by_default: &str) {
    caught_on(&Loops::of(&NODE_JUNIT, REPORT), name, play, by_name, by_default);
}

#[test]
fn report_baseline_names_every_test() {
    let p = started(REPORT);
    let init = p.last_record("init");
    assert_eq!(init["baseline"]["tests"], 2, "{init}");
    assert_eq!(init["baseline"]["failing"], serde_json::json!(["test::adds"]), "{init}");
}

#[test]
fn report_deleted_test_is_rejected() {
    caught(
        "report_deleted_test",
        |p| {
            edit(
                p,
                "test/calc.test.js",
                "test('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n",
                "",
            )
        },
        Some("`test::adds` (failed at baseline; did not run now)"),
        "PROMISE REJECTED",
    );
}

#[test]
fn report_skipped_test_is_rejected() {
    caught(
        "report_skipped_test",
        |p| edit(p, "test/calc.test.js", "test('adds', () =>", "test.skip('adds', () =>"),
        Some("`test::adds` (failed at baseline; did not run now)"),
        "PROMISE REJECTED",
    );
}

#[test]
fn report_weakened_test_is_rejected() {
    caught(
        "report_weakened_test",
        |p| {
            edit(
                p,
                "test/calc.test.js",
                "assert.strictEqual(add(1, 2), 3)",
                "assert.ok(add(1, 2))",
            )
        },
        None,
        "PROMISE REJECTED",
    );
}

#[test]
fn report_honest_fix_and_a_new_test_complete() {
    let p = started(REPORT);
    let (path, fixed) = NODE_JUNIT.fix;
    p.write(path, fixed);
    let text = p.read("test/calc.test.js");
    p.write(
        "test/calc.test.js",
        format!("{text}\ntest('adds negatives', () => {{\n  assert.strictEqual(add(-1, -2), -3);\n}});\n"),
    );
    p.write(
        "test/more.test.js",
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { mul } = require('../src/calc.js');\n\ntest('multiplies by zero', () => {\n  assert.strictEqual(mul(5, 0), 0);\n});\n",
    );
    assert_completes(&promise(&p), "report_honest_fix", "honest work was not accepted");
}
