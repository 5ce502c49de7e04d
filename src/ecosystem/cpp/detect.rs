//! `--verify auto` for CMake projects with tests, run by ctest.

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "or a CMakeLists.txt with enable_testing()",
    detect: |probe| cmake((probe.read)("CMakeLists.txt")),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::cpp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// The root `CMakeLists.txt` turns testing on (`enable_testing()`, `include(CTest)`).
    CMakeTests,
}

/// The command for a CMake project with tests: configure, build, and ctest with the failing tests' output (what
/// the summary reads). ctest's `--test-dir` needs CMake 3.20.
pub(super) const CMAKE: &str =
    "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure";

/// CMake, where the root `CMakeLists.txt` turns testing on.
fn cmake(text: Option<String>) -> Option<Candidate> {
    let text = text?.to_ascii_lowercase().replace([' ', '\t'], "");
    (text.contains("enable_testing(") || text.contains("include(ctest)"))
        .then(|| (CMAKE.to_string(), vec![Fact::own(Found::CMakeTests)]))
}
