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

/// What cargo, rustc, libtest and the build scripts of dependencies read (`cc`'s compiler and flags,
/// `pkg-config`, the target), but the variables that only change what is printed: a panic's backtrace and the
/// logging crates' filter and style (`env_logger`, `tracing-subscriber`).
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &[
        "RUST*",
        "CARGO*",
        "CC",
        "CC_*",
        "CXX",
        "CXX_*",
        "CFLAGS*",
        "CXXFLAGS*",
        "AR",
        "AR_*",
        "PKG_CONFIG*",
        "TARGET",
        "TARGET_*",
        "HOST",
        "HOST_*",
    ],
    prints: &["RUST_BACKTRACE", "RUST_LIB_BACKTRACE", "RUST_LOG", "RUST_LOG_STYLE"],
    words: &[],
};

super::runners!(Cargo = CARGO, Nextest = NEXTEST; environment: ENVIRONMENT);
