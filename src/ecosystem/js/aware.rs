//! JavaScript's traces of the test runner in code under test (`aware::rules`): the variables and globals of
//! Jest, Vitest, Mocha and node's runner, their setup files, the assertion libraries' objects, and the stack.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    strong: &[
        (Match::Prefix("JEST_"), Family::RunnerEnv),
        (Match::Exact("VITEST"), Family::RunnerEnv),
        (Match::Prefix("VITEST_"), Family::RunnerEnv),
        (Match::Prefix("MOCHA_"), Family::RunnerEnv),
        (Match::Exact("NODE_TEST_CONTEXT"), Family::RunnerEnv),
        (Match::Exact("__vitest_worker__"), Family::RunnerLoaded),
    ],
    weak: &["jest", "vitest", "mocha", "jasmine"],
    setup_files: &["jest", "vitest", "mocha"],
    globals: &[
        "jest",
        "vi",
        "vitest",
        "describe",
        "it",
        "expect",
        "beforeEach",
        "afterEach",
        "beforeAll",
        "afterAll",
        "mocha",
        "jasmine",
        "suite",
        "__vitest_worker__",
    ],
    global_objects: &["globalThis", "global", "window"],
    loaded_members: &[("meta", "vitest")],
    // `assert`, `expect` and `chai` are also common names of a project's own helpers: they count only in a
    // file that imports its assertions from one of these.
    objects: &["assert", "expect", "chai", "should"],
    assertion_modules: &[
        "assert",
        "node:assert",
        "assert/strict",
        "node:assert/strict",
        "chai",
        "expect",
        "should",
        "@jest/globals",
        "vitest",
    ],
    caller_heads: &[("", &["stack", "captureStackTrace", "prepareStackTrace"])],
    ..Traces::none(Lang::JavaScript)
};
