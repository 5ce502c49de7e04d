//! The persisted vocabulary: types that the state file, the seal and the history records hold, and that
//! behaviour modules (checkpoints, the ratchet, the Stop hook, the messages) share. A schema module imports no
//! behaviour: whatever it holds can be read by every layer above it without an import circle (see
//! `tests/architecture.rs` and `ARCHITECTURE.md`).

use serde::{Deserialize, Serialize};

/// Language of everything loopgate tells the model and the user (`--lang en|zh`; the state field `lang`).
/// Not to be confused with a programming language (`testscan::Lang`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Speech {
    #[default]
    En,
    Zh,
}

/// A check on the oracle's inputs that setup turns on by default and the user may opt out of
/// (`--no-closure-seal`, `--no-test-seal`, `--no-count-ratchet`, `--no-skip-check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// The files that define what the verify command runs (`package.json` scripts, `pytest.ini`, …).
    Closure,
    /// The existing tests: edits to them are rejected; new tests are welcome.
    Tests,
    /// A passing verify must run at least as many tests, and skip no more, than the most this loop has seen.
    Counts,
    /// Skip / ignore / xfail / only markers added, and tests deleted.
    Skips,
    /// A pass must run and pass every test that ran at baseline, by name (see `baseline`).
    ByName,
    /// The agent's new test files sit out the oracle's run (see `testside`); off with `--with-new-tests`.
    NewTestsAside,
}
