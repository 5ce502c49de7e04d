//! The shell's traces of the test runner in code under test (`aware::rules`): bats' variables, which exist only
//! while bats runs a test (`$BATS_TEST_FILENAME`, `${BATS_TEST_TMPDIR:-}`). A shell reads a variable by `$NAME`
//! or `${NAME…}`, bare or inside a double-quoted string, and `aware::rules::shell_expansions` reads both.
//! Which files are shell code under test is `aware::shell_code`'s.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    // What bats sets for the test it runs; not what a user sets to configure bats (`BATS_LIB_PATH`,
    // `BATS_TEST_TIMEOUT`, `BATS_TEST_RETRIES`, `BATS_TMPDIR`), which a script running bats may well export.
    strong: &[
        (Match::Exact("BATS_TEST_FILENAME"), Family::RunnerEnv),
        (Match::Exact("BATS_TEST_DIRNAME"), Family::RunnerEnv),
        (Match::Exact("BATS_TEST_NAME"), Family::RunnerEnv),
        (Match::Exact("BATS_TEST_NAMES"), Family::RunnerEnv),
        (Match::Exact("BATS_TEST_DESCRIPTION"), Family::RunnerEnv),
        (Match::Exact("BATS_TEST_NUMBER"), Family::RunnerEnv),
        (Match::Exact("BATS_SUITE_TEST_NUMBER"), Family::RunnerEnv),
        (Match::Exact("BATS_TEST_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_FILE_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_SUITE_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_VERSION"), Family::RunnerEnv),
    ],
    ..Traces::none(Lang::Shell)
};
