//! go test. Its tests are `*_test.go`, by the test scanner's conventions; `go.mod` and `go.work` are the
//! closure's (`closure::derive`).

use super::{Config, Report, Row, TestFiles};

/// Its structured stream (`-json`) is its stdout, which the code under test writes to as well; loopgate's
/// `GOFLAGS=-exec` hook records, per test binary, whether its `M.Run` finished (`room::hook`).
pub(super) const GO: Row = Row {
    id: "go",
    name: "go test",
    config: Config::NONE,
    tests: TestFiles::NONE,
    report: Report::Hook,
};

/// `go test -v` prints `--- PASS: TestX` for every test (other go commands print the packages they build, on
/// stderr; `runner::NAMING_OPTIONS`).
pub(super) const NAMES_EVERY_TEST: (&str, &str) = ("GOFLAGS", "-v");

/// What the go command, cgo and the test binaries read.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &["GO*", "CGO_*", "CC", "CXX"],
    prints: &[],
};

super::runners!(Go = GO; environment: ENVIRONMENT);
