//! The proptest settings every property test of loopgate uses, shared by the integration tests
//! (`tests/properties.rs`) and the unit tests that include this file by path (`src/testsig/tests/props.rs`).

use proptest::test_runner::Config as ProptestConfig;

/// `cases` cases, a bounded shrink, and no regression files.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Shrinking a failure is worth a little time; an endless shrink is not.
        max_shrink_iters: 2_000,
        // A failure prints its minimal input; it becomes a named regression test, not a file in the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
