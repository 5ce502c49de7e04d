//! go test. Its tests are `*_test.go`, by the test scanner's conventions; `go.mod` and `go.work` are the
//! closure's (`closure::derive`).

use super::{Config, NoReport, Report, Row, TestFiles};

pub(super) const GO: Row = Row {
    name: "go test",
    config: Config::NONE,
    tests: TestFiles::NONE,
    report: Report::None(NoReport::StdoutOnly),
};
