//! Test results by name: which test ran and how it ended, read from the lines the runners print for each
//! test. The oracle's per-test verdict (`crate::testjudge::baseline`) compares them with the baseline run's, so a pass
//! reached by removing, skipping or swapping tests is seen by name, not only by totals.
//!
//! The names come from the same per-runner line scanners as the counts (`runner/*.rs`): one scanner per runner
//! reads its summary and its per-test lines. A name is the runner's own name for the test, qualified where the
//! runner's line alone would be ambiguous (the cargo test binary, the go package); see each scanner for its
//! form. What a name must survive is honest work: no line numbers, durations or counters are part of it.
//!
//! Only two facts matter to the verdict, so only they are kept: a test *ran and passed*, or *ran and failed*.
//! A skipped test is one that did not run, the same as a missing one (a baseline test that was skipped is not
//! required to run again; one that ran must run again and pass). Where one name is reported more than once
//! (a cargo doctest on one item twice, a test repeated in a runner's failure list), a failure wins.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Names kept at most; past it the results are marked [`TestResults::truncated`] and the rest are dropped,
/// so memory stays bounded whatever the output.
pub(crate) const MAX_NAMES: usize = 200_000;
/// Characters of one name kept at most.
const MAX_NAME_CHARS: usize = 500;

/// How a test that ran ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestOutcome {
    Passed,
    Failed,
}

/// Every test a verify run reported by name, with how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResults {
    pub(crate) tests: BTreeMap<String, TestOutcome>,
    /// More than [`MAX_NAMES`] names were reported; the first ones are kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) truncated: bool,
}

impl TestResults {
    /// Records every test of `other` (a structured report's, beside the output's names).
    pub(crate) fn merge(&mut self, other: &TestResults) {
        for (name, outcome) in &other.tests {
            self.record(name, *outcome);
        }
    }

    /// Records that `name` ran and ended so; a failure recorded for the same name stays.
    pub(crate) fn record(&mut self, name: &str, outcome: TestOutcome) {
        let name = name.trim();
        if name.is_empty() {
            return;
        }
        let name = match name.char_indices().nth(MAX_NAME_CHARS) {
            Some((cut, _)) => &name[..cut],
            None => name,
        };
        if let Some(before) = self.tests.get_mut(name) {
            *before = (*before).max(outcome);
            return;
        }
        if self.tests.len() >= MAX_NAMES {
            self.truncated = true;
            return;
        }
        self.tests.insert(name.to_string(), outcome);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.tests.is_empty()
    }

    pub(crate) fn len(&self) -> usize {
        self.tests.len()
    }

    /// The names that failed, in name order.
    pub(crate) fn failing(&self) -> impl Iterator<Item = &str> {
        self.tests
            .iter()
            .filter(|(_, outcome)| **outcome == TestOutcome::Failed)
            .map(|(name, _)| name.as_str())
    }

    /// How `name` ended, if it ran.
    pub(crate) fn get(&self, name: &str) -> Option<TestOutcome> {
        self.tests.get(name).copied()
    }
}
