//! C and C++: CMake's `ctest` running GoogleTest binaries (registered with `add_test` or
//! `gtest_discover_tests`), and a GoogleTest binary run directly. Test files are C++ sources that hold
//! GoogleTest's or Catch2's test macros (`testsig::cpp`); CMake's test-side commands are the closure's
//! (`closure::cmake`).

use super::{Config, Format, Report, Row, TestFiles};

/// What CMake writes at the top of every build directory it configures.
pub(super) const BUILD_DIR_MARKER: &str = "CMakeCache.txt";

/// GoogleTest reads `GTEST_OUTPUT` from the environment, and ctest passes the environment through to every test
/// it runs: `xml:DIR/` makes each test binary write its JUnit XML into `DIR`, named after the binary, and never
/// over a report already there (`calc_test.xml`, then `calc_test_1.xml` for the next process of the same binary,
/// as `gtest_discover_tests` runs one per test). So the sealed command runs unchanged and every process of every
/// binary leaves its own report (`room::gtest` reads them all).
const GTEST_REPORT: Report = Report::Private {
    format: Format::JunitXml,
    var: "GTEST_OUTPUT",
    option: "xml:",
};

/// ctest reads `CTestCustom.cmake` (or `.ctest`) in the build directory it runs, which CMake copies from the
/// source tree where a project keeps one; what it runs is `CTestTestfile.cmake`, generated from `CMakeLists.txt`'s
/// test-side commands (sealed command by command, `closure::cmake`).
pub(super) const CTEST: Row = Row {
    id: "ctest",
    name: "ctest",
    config: Config {
        files: &["CTestCustom.cmake", "CTestCustom.ctest"],
        ..Config::NONE
    },
    tests: TestFiles::NONE,
    report: GTEST_REPORT,
};

/// A GoogleTest binary run by the verify command itself (`./build/calc_test`).
pub(super) const GTEST: Row = Row {
    id: "gtest",
    name: "googletest",
    config: Config::NONE,
    tests: TestFiles::NONE,
    report: GTEST_REPORT,
};

/// What CMake, ctest, the compilers and the test frameworks read.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &[
        "CMAKE_*", "CTEST_*", "CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "GTEST_*", "CATCH_*",
    ],
    prints: &[],
    words: &[],
};

super::runners!(Ctest = CTEST, Gtest = GTEST; environment: ENVIRONMENT);
