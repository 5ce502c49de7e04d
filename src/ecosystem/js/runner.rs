//! JavaScript's runners: `node --test`, Jest, Vitest and Mocha. Babel's configuration, which Jest and Mocha
//! apply through a transform, is the closure's (`closure::derive::js`).

use super::{CommandLine, Config, Marked, NoReport, Report, Row, Spelling, Takes, TestFiles};

/// `node --test`: no configuration file; its default patterns, anywhere but `node_modules`. Its JUnit reporter
/// is asked for on the command line (`--test-reporter=junit --test-reporter-destination=FILE`).
pub(super) const NODE_TEST: Row = Row {
    id: "node_test",
    name: "node --test",
    config: Config::NONE,
    tests: TestFiles {
        names: &[
            "*.test.{js,cjs,mjs}",
            "*-test.{js,cjs,mjs}",
            "*_test.{js,cjs,mjs}",
            "test-*.{js,cjs,mjs}",
            "test.{js,cjs,mjs}",
        ],
        ..TestFiles::NONE
    },
    report: Report::None(NoReport::CommandLineOnly),
};

/// Jest: `jest.config.*` or `package.json`'s `jest`; `testMatch` (path globs) and `testRegex`. loopgate's
/// `NODE_OPTIONS` hook asks Jest's main process for its JSON report at a private path and records its test files
/// (`room::hook`).
pub(super) const JEST: Row = Row {
    id: "jest",
    name: "jest",
    config: Config {
        js_stems: &["jest.config"],
        package_key: Some("jest"),
        package_free: &[
            "testTimeout",
            "verbose",
            "silent",
            "collectCoverageFrom",
            "coverageDirectory",
            "coveragePathIgnorePatterns",
            "coverageReporters",
            "watchPathIgnorePatterns",
            "watchPlugins",
            "notify",
            "notifyMode",
        ],
        // Jest 27 and later (`jest-config`'s `Defaults`); `node` resolves to `jest-environment-node`.
        package_defaults: &[
            ("testEnvironment", "\"node\""),
            ("testEnvironment", "\"jest-environment-node\""),
            ("testEnvironmentOptions", "{}"),
            ("clearMocks", "false"),
            ("resetMocks", "false"),
            ("restoreMocks", "false"),
            ("resetModules", "false"),
            ("injectGlobals", "true"),
            ("errorOnDeprecated", "false"),
            ("bail", "0"),
            ("bail", "false"),
            ("roots", "[\"<rootDir>\"]"),
            ("testPathIgnorePatterns", "[\"/node_modules/\"]"),
            ("moduleDirectories", "[\"node_modules\"]"),
            ("setupFiles", "[]"),
            ("setupFilesAfterEnv", "[]"),
            ("snapshotSerializers", "[]"),
            ("moduleNameMapper", "{}"),
            ("globals", "{}"),
            ("testFailureExitCode", "1"),
            ("passWithNoTests", "false"),
        ],
        ..Config::NONE
    },
    tests: TestFiles {
        path_keys: &["testMatch"],
        regex_keys: &["testRegex"],
        ..TestFiles::NONE
    },
    report: Report::Hook,
};

/// Vitest: `vitest.config.*`, `vite.config.*` or `vitest.workspace.*`; `include` (path globs). loopgate's
/// `NODE_OPTIONS` hook asks Vitest's main process for its JSON report at a private path (its reporters on the
/// command line, which replace the configuration's) and records its test files (`room::hook`).
pub(super) const VITEST: Row = Row {
    id: "vitest",
    name: "vitest",
    config: Config {
        js_stems: &["vitest.config", "vite.config", "vitest.workspace"],
        ..Config::NONE
    },
    tests: TestFiles {
        path_keys: &["include"],
        ..TestFiles::NONE
    },
    report: Report::Hook,
};

/// Mocha: its `.mocharc.*` files, in the order mocha picks one (the first found is the only one it reads, so a file
/// created before the one the baseline read hides it: `closure::derive::js_files`), or `package.json`'s `mocha`;
/// `spec` (path globs). Its reporters write to
/// stdout or a path on its command line; loopgate's `NODE_OPTIONS` hook records its `Runner` events
/// (`room::hook`), and those events name the run's tests (`Report::HookNamed`): every built-in reporter is free
/// to print, and each prints the names its own way (`spec` indents the title path, `tap` and `list` join it with
/// spaces, `dot` prints none), so the names the verdict compares come from what mocha ran, not from how it
/// printed it (`honest_changes_7::mocha_package_json_key_tap_reporter_and_slow`).
pub(super) const MOCHA: Row = Row {
    id: "mocha",
    name: "mocha",
    config: Config {
        files: &[
            ".mocharc.cjs",
            ".mocharc.js",
            ".mocharc.mjs",
            ".mocharc.yaml",
            ".mocharc.yml",
            ".mocharc.jsonc",
            ".mocharc.json",
        ],
        package_key: Some("mocha"),
        // What only shows (colour, diffs, the slow mark) or gives a test longer: a longer limit cannot make a
        // failing assertion pass, and a run with none is ended by loopgate's own. And how many files run at once
        // (`parallel`, `jobs`): the same files run, in workers, and their results come back to the main process
        // as the same `Runner` events loopgate's hook records, test by test (measured:
        // `honest_changes_2::mocha_runs_in_parallel_with_two_jobs`).
        package_free: &[
            "parallel",
            "jobs",
            "slow",
            "diff",
            "full-trace",
            "inline-diffs",
            "color",
            "colors",
            "timeout",
            "timeouts",
        ],
        // A built-in reporter only prints: mocha looks a name up among its own reporters before it loads a file
        // of that name, and loopgate's hook records the `Runner` events whichever prints them. A reporter named
        // by a path or a package is code mocha loads, and counts.
        package_defaults: &[
            ("reporter", "\"spec\""),
            ("reporter", "\"dot\""),
            ("reporter", "\"list\""),
            ("reporter", "\"tap\""),
            ("reporter", "\"min\""),
            ("reporter", "\"progress\""),
            ("reporter", "\"landing\""),
            ("reporter", "\"nyan\""),
            ("reporter", "\"doc\""),
            ("reporter", "\"markdown\""),
        ],
        ..Config::NONE
    },
    tests: TestFiles {
        path_keys: &["spec"],
        ..TestFiles::NONE
    },
    report: Report::HookNamed,
};

/// JavaScript's tools' own directories in a project (`runner::CACHE_DIRS`): Next.js's and Turborepo's builds,
/// nyc's coverage data, Parcel's cache.
pub(super) const CACHE_DIRS: &[&str] = &[".next", ".nyc_output", ".turbo", ".parcel-cache"];

/// The reporters Jest ships (its `reporters` key and `--reporters`): naming one only prints.
pub(crate) const JEST_REPORTERS: &[&str] = &["default", "summary", "github-actions", "verbose"];

/// The reporters Vitest ships (`test.reporters` and `--reporter`): naming one only prints, or writes a report
/// beside the run.
pub(crate) const VITEST_REPORTERS: &[&str] = &[
    "default",
    "basic",
    "verbose",
    "dot",
    "tree",
    "json",
    "junit",
    "tap",
    "tap-flat",
    "hanging-process",
    "github-actions",
    "blob",
];

/// istanbul's coverage reporters, which Jest (`coverageReporters`) and Vitest (`test.coverage.reporter`) ship.
pub(crate) const COVERAGE_REPORTERS: &[&str] = &[
    "clover",
    "cobertura",
    "html",
    "html-spa",
    "json",
    "json-summary",
    "lcov",
    "lcovonly",
    "none",
    "teamcity",
    "text",
    "text-lcov",
    "text-summary",
];

/// Vitest's built-in pools (`test.pool`, `--pool`): each runs the same tests in workers of another kind.
pub(crate) const VITEST_POOLS: &[&str] = &["threads", "forks", "vmThreads", "vmForks"];

/// The JavaScript runners' free options on their command lines (`runner::command_line`): the options that are
/// free as keys of their configuration (`js/config/keys.rs`, checked by a test there), spelled as each runner's
/// parser reads them, and beside them a few that exist only on the command line.
pub(crate) const COMMAND_LINES: &[CommandLine] = &[
    // node's built-in reporters that loopgate's reader of its output reads (`tap`, the default off a terminal
    // on node 20, and `spec`, the default on a terminal and from node 23); `dot` and `junit` print no line the
    // reader names a test by. How many test files run at once changes when each runs, not which; a test's time
    // limit can only fail it.
    CommandLine {
        programs: &["node"],
        marked: Marked::Anywhere(&["--test"]),
        options: &[
            ("testReporter", Takes::OneOf(&["spec", "tap"])),
            ("testConcurrency", Takes::Count),
            ("testTimeout", Takes::Count),
        ],
        aliases: &[],
        spelling: Spelling::Kebab,
        unless: &["--test-reporter-destination"],
    },
    // Jest's: its `--json` report, which loopgate's hook asks for, is written whatever prints. `--runInBand`
    // (`-i`) runs the same files in the main process, one after another, and `--colors` forces colour: neither
    // is a key of the configuration.
    CommandLine {
        programs: &["jest"],
        marked: Marked::Anywhere(&[]),
        options: &[
            ("maxWorkers", Takes::Count),
            ("maxConcurrency", Takes::Count),
            ("testTimeout", Takes::Count),
            ("silent", Takes::Flag),
            ("verbose", Takes::Flag),
            ("logHeapUsage", Takes::Flag),
            ("noStackTrace", Takes::Flag),
            ("expand", Takes::Flag),
            ("useStderr", Takes::Flag),
            ("cache", Takes::Flag),
            ("watchman", Takes::Flag),
            ("collectCoverage", Takes::Flag),
            ("coverage", Takes::Flag),
            ("coverageProvider", Takes::OneOf(&["v8", "babel"])),
            ("coverageReporters", Takes::OneOf(COVERAGE_REPORTERS)),
            ("reporters", Takes::OneOf(JEST_REPORTERS)),
            ("runInBand", Takes::Flag),
            ("colors", Takes::Flag),
        ],
        aliases: &[("-w", "maxWorkers"), ("-i", "runInBand"), ("-e", "expand")],
        spelling: Spelling::CamelOrKebab,
        unless: &[],
    },
    // Vitest's: its reporters on the command line replace the configuration's, and loopgate's hook adds its JSON
    // report beside built-in ones (`report.cjs`); an output file sends a reporter's report elsewhere.
    CommandLine {
        programs: &["vitest"],
        marked: Marked::Anywhere(&[]),
        options: &[
            ("fileParallelism", Takes::Flag),
            ("maxWorkers", Takes::Count),
            ("minWorkers", Takes::Count),
            ("maxConcurrency", Takes::Count),
            ("testTimeout", Takes::Count),
            ("hookTimeout", Takes::Count),
            ("teardownTimeout", Takes::Count),
            ("silent", Takes::Flag),
            ("logHeapUsage", Takes::Flag),
            ("printConsoleTrace", Takes::Flag),
            ("hideSkippedTests", Takes::Flag),
            ("pool", Takes::OneOf(VITEST_POOLS)),
            ("reporter", Takes::OneOf(VITEST_REPORTERS)),
        ],
        aliases: &[],
        spelling: Spelling::CamelOrKebab,
        unless: &["--outputFile", "--output-file"],
    },
];

/// The options of `NODE_OPTIONS` (and of `.npmrc`'s `node-options`, the `NODE_OPTIONS` of every script npm runs,
/// so of every test process) that change neither what runs nor what counts: the heap's size, and what node prints about
/// warnings, deprecations and stack traces. Any other option counts: a preload (`--require`, `--import`), a
/// loader, `--test-only` or a test filter (which skip tests), conditions that change what a `require` resolves.
pub(crate) const NODE_OPTIONS_FREE: [&str; 8] = [
    "--max-old-space-size=*",
    "--max-semi-space-size=*",
    "--enable-source-maps",
    "--no-warnings",
    "--no-deprecation",
    "--trace-warnings",
    "--trace-deprecation",
    "--trace-uncaught",
];

/// What node, npm and the runners read (`CI`: Jest will not write a missing snapshot, and test code asks
/// `is-ci`).
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &[
        "NODE_*",
        "NPM_*",
        "YARN_*",
        "PNPM_*",
        "COREPACK_*",
        "JEST_*",
        "VITEST*",
        "VITE_*",
        "MOCHA_*",
        "BABEL_*",
        "TS_NODE_*",
        "CI",
    ],
    prints: &[],
    // node reads `NODE_OPTIONS` as options of every node process ([`NODE_OPTIONS_FREE`]).
    words: &[super::Words {
        name: "NODE_OPTIONS",
        free: &NODE_OPTIONS_FREE,
    }],
};

super::runners!(NodeTest = NODE_TEST, Jest = JEST, Vitest = VITEST, Mocha = MOCHA; environment: ENVIRONMENT);
