//! Shell: bats (Bash Automated Testing System). Its tests are `*.bats` files, each `@test "name" { … }`; the code
//! under test is the scripts they `load` or `source` (`lib/*.sh`), which the tests read rather than run.

use super::{Config, NoReport, Report, Row, TestFiles};

/// bats reads no configuration file. Its JUnit report (`--report-formatter junit --output DIR`, or `--formatter
/// junit` on stdout) is asked for on the command line only: `BATS_REPORT_OUTPUT_DIR` moves a report the command
/// asked for, but no variable asks for one, and the sealed command is not rewritten. A verify command that asks
/// for it can name it with `--report junit:DIR/report.xml` (`oracle::own_report`).
pub(super) const BATS: Row = Row {
    id: "bats",
    name: "bats",
    config: Config::NONE,
    tests: TestFiles {
        names: &["*.bats"],
        loads_scripts: true,
        ..TestFiles::NONE
    },
    report: Report::None(NoReport::CommandLineOnly),
};

/// What bats reads.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &["BATS_*"],
    prints: &[],
    // A per-test time limit in seconds only bounds the run: a test it stops fails, none passes because of it.
    words: &[super::Words {
        name: "BATS_TEST_TIMEOUT",
        free: &["#"],
    }],
};

super::runners!(Bats = BATS; environment: ENVIRONMENT);
