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
    // `go` reads `GOFLAGS` as flags of every command that knows them: one run of each test (`-count=1` turns the
    // test cache off: the tests run again, which only checks more), file paths trimmed from the binary, the
    // number of packages built at once and the verbose listing change neither what is built nor how a test ends.
    // The race detector only checks more: a test may fail on a race it finds, never pass for it; a test file it
    // leaves out by a `!race` build constraint is a baseline test that did not run, which the verdict names.
    // A time limit (`-timeout=2m`) only bounds the process, as Jest's `testTimeout` does. `-shuffle=on` draws a
    // fresh seed at each run, which the tree cannot choose, and the room's `-shuffle=off`, put back last at go's
    // start (`go/hook.rs`), orders the oracle's run as written anyway. Not `-shuffle=N`: where the start channel
    // stands on `PATH` alone, a `go` started by its full path keeps the seed the makefile picked, which orders the
    // tests as the agent chooses (a test that leaves state behind run first).
    words: &[super::Words {
        name: "GOFLAGS",
        free: &[
            "-count=1",
            "-trimpath",
            "-p=*",
            "-v",
            "-race",
            "-timeout=*",
            "-shuffle=on",
            "-shuffle=off",
        ],
    }],
};

super::runners!(Go = GO; environment: ENVIRONMENT);
