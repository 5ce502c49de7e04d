//! Rust's runners: `cargo test` (libtest) and `cargo nextest run`. Their tests are the crate's sources, read
//! by the test scanner's conventions; cargo's configuration is searched up the directory tree and in
//! `$CARGO_HOME` by the closure (`closure::derive::cargo`).

use super::{Config, NoReport, Report, Row, TestFiles};

/// `cargo test`: libtest's per-test log through loopgate's runner hook (`room::cargo_hook`), whose events name
/// the tests (`-q` prints a dot per test).
pub(super) const CARGO: Row = Row {
    id: "cargo",
    name: "cargo test",
    config: Config::NONE,
    tests: TestFiles::NONE,
    report: Report::HookNamed,
};

/// nextest: `.config/nextest.toml` at the workspace root (what makes `--verify auto` choose it).
pub(super) const NEXTEST: Row = Row {
    id: "nextest",
    name: "cargo nextest",
    config: Config {
        files: &[".config/nextest.toml"],
        ..Config::NONE
    },
    tests: TestFiles::NONE,
    report: Report::None(NoReport::ProjectConfigOnly),
};

super::runners!(Cargo = CARGO, Nextest = NEXTEST);
