//! The shell's traces of the test runner in code under test (`aware::rules`): bats' variables, which exist only
//! while bats runs a test (`$BATS_TEST_FILENAME`, `${BATS_TEST_TMPDIR:-}`). A shell reads a variable by `$NAME`
//! or `${NAME…}`, bare or inside a double-quoted string, and `aware::rules::shell_expansions` reads both.
//! `BATS_LIB_PATH`, which a user sets for bats' libraries, is not among them.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    strong: &[
        (Match::Prefix("BATS_TEST_"), Family::RunnerEnv),
        (Match::Exact("BATS_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_RUN_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_FILE_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_SUITE_TMPDIR"), Family::RunnerEnv),
        (Match::Exact("BATS_SUITE_TEST_NUMBER"), Family::RunnerEnv),
        (Match::Exact("BATS_VERSION"), Family::RunnerEnv),
        (Match::Exact("BATS_ROOT"), Family::RunnerEnv),
        (Match::Exact("BATS_CWD"), Family::RunnerEnv),
    ],
    ..Traces::none(Lang::Shell)
};
