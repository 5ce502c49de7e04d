//! The test-count ratchet: a passing verify must run at least as many tests as this loop has seen
//! run, and leave no more tests unrun than its passing verifies have, or the pass is suspect —
//! deleting, skipping or ignoring the failing test is the cheapest way to a green run.
//!
//! Pure: [`Best`] is the record (it lives in the seal, outside the agent's reach), [`Best::check`]
//! says what moved. The caller checks a passing verify before recording it, rejects the pass
//! when something moved unless the user allows it, and records every verify with
//! [`Best::record`] (recording a rejected pass changes nothing: it is worse on what moved and no
//! better on the rest). An allowed pass becomes the new record with [`Best::rebase`].
//!
//! Decisions:
//! - *Ran* is passed + failed ([`TestCounts::ran`]). Every verify raises the most ran, a failing
//!   one too: tests that ran and failed are tests the pass must still run.
//! - *Skipped* is skipped + ignored ([`TestCounts::not_run`]): `#[ignore]` and `skip` are the same
//!   act. Only passing verifies set the fewest skipped, because a failing run often stops early
//!   (cargo stops at the first failing test binary, a collection error stops pytest) and never
//!   reaches the tests that are skipped further on; the first pass would then look like "more
//!   skipped". Until a verify passed, only *ran* is compared.
//! - No counts (no runner summary recognized, `None`) is no ratchet: never a rejection, and
//!   nothing recorded.
//!
//! One of the five modules the user's tests pass through, each answering one question (`ARCHITECTURE.md`, "One of
//! each mechanism"): this one judges a run by count (`testjudge::baseline` by test name); `testsig` reads a test file,
//! `testseal` keeps every test file's signature, `testswap` stands them as sealed in the oracle's run.

use crate::readout::TestCounts;

pub(crate) use crate::schema::{Best, Count, MovedCount};

/// How a verify ended, for [`Best::record`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunVerdict {
    /// The verify command passed.
    Passed,
    /// The verify command failed or timed out.
    Failed,
}

impl Best {
    /// Records a verify's counts; `None` (no summary recognized) records nothing.
    pub(crate) fn record(&mut self, counts: Option<TestCounts>, outcome: RunVerdict) {
        let Some(counts) = counts else {
            return;
        };
        self.most_ran = Some(self.most_ran.map_or(counts.ran(), |most| most.max(counts.ran())));
        if outcome == RunVerdict::Passed {
            let skipped = counts.not_run();
            self.fewest_skipped = Some(self.fewest_skipped.map_or(skipped, |fewest| fewest.min(skipped)));
        }
    }

    /// What a passing verify's counts moved the wrong way, ran first; empty when nothing did,
    /// when nothing was recorded yet, or when the verify's counts are `None`.
    pub(crate) fn check(&self, counts: Option<TestCounts>) -> Vec<MovedCount> {
        let Some(counts) = counts else {
            return Vec::new();
        };
        let ran = self
            .most_ran
            .filter(|&most| counts.ran() < most)
            .map(|best| MovedCount {
                count: Count::Ran,
                best,
                now: counts.ran(),
            });
        let skipped = self
            .fewest_skipped
            .filter(|&fewest| counts.not_run() > fewest)
            .map(|best| MovedCount {
                count: Count::Skipped,
                best,
                now: counts.not_run(),
            });
        ran.into_iter().chain(skipped).collect()
    }

    /// Makes a pass the user allowed the new record, although it ran fewer or skipped more.
    pub(crate) fn rebase(&mut self, counts: TestCounts) {
        self.most_ran = Some(counts.ran());
        self.fewest_skipped = Some(counts.not_run());
    }
}

#[cfg(test)]
mod tests;
