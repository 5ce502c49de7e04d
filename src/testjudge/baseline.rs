//! The baseline: what the sealed verify command ran when the loop started, test by test, and the per-test
//! verdict that holds a later pass to it (`ARCHITECTURE.md`, "Oracle integrity", principle 1: the user's tests, as they
//! were, by name).
//!
//! `loopgate setup` runs the verify command once before the agent's first turn (`commands::setup::baseline`)
//! and keeps the result here, beside the seal, out of the agent's reach. At a promise, a verify that exits 0
//! passes only if **every test that ran at baseline ran again and passed** — totals are not a verdict, so
//! two trivial new tests cannot pay for a removed or skipped one — unless the user accepted that test's
//! removal (`loopgate allow --tests NAME`).
//!
//! Decisions:
//! - A test *ran* at baseline if it passed or failed there. A test skipped at baseline need not run again.
//!   Failing baseline tests are the task: they must pass now.
//! - A run that reports no test by name while its runners still print totals is judged by the totals (the
//!   count ratchet), not rejected: the names were not printed this time (e.g. a runner's options changed), and
//!   a false rejection is as bad as a miss. A run that reports **neither** names nor totals after a baseline
//!   that had them is rejected: a suite that ended without a summary (a test calling `os._exit(0)`) has not
//!   shown that the tests passed.
//! - A baseline that reported no names (the suite did not build yet, or `--no-baseline`) adopts the first
//!   later verify that reports them, so the loop is judged by name from then on ([`Baseline::adopt`]).
//! - Pure: the caller runs the command, loads and saves; nothing here touches a file.
//!
//! One of the five modules the user's tests pass through, each answering one question (`ARCHITECTURE.md`, "One of
//! each mechanism"): this one judges a run by test name (`testjudge::ratchet` by count); `testsig` reads a test file,
//! `testseal` keeps every test file's signature, `testswap` stands them as sealed in the oracle's run.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::readout::{TestCounts, TestOutcome, TestResults};

/// The verify run that the loop's later passes are held to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// The iteration whose verify run this is: 0 for the run at setup.
    pub(crate) iteration: u64,
    /// The shell's exit code; `None` when killed or timed out.
    pub(crate) exit: Option<i32>,
    #[serde(default)]
    pub(crate) timed_out: bool,
    #[serde(default)]
    pub(crate) duration_ms: u64,
    /// The runners' totals, if any summary was recognized.
    #[serde(default)]
    pub(crate) counts: Option<TestCounts>,
    /// Every test reported by name, with how it ended.
    #[serde(default)]
    pub(crate) results: TestResults,
    /// Tests the user accepted as gone (`loopgate allow --tests`): no longer required to run.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) allowed: BTreeSet<String>,
    /// The run was stopped after this many seconds because setup could not wait longer (inside the slash
    /// command); it keeps no results, so the loop's first verify that reports tests becomes the baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cut: Option<u64>,
    /// What make resolved for the verify's goals at setup, where the verify command is one make call (see
    /// `closure::make_plan`); compared before each promise's run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) make: Option<crate::closure::make_plan::MakePlan>,
    /// What the runners resolved from their configuration files of code at setup, key by key (see
    /// `closure::js_config`); compared before each promise's run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) js_configs: Vec<crate::closure::js_config::Resolved>,
    /// The features the tests were built with at setup, of those the tests read (see
    /// `closure::built_features`); compared before each promise's run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) built_features: Option<crate::closure::built_features::Features>,
    /// The major version of the test runner the traced run imported, where its ecosystem reads one (see
    /// `closure::rootdir::ran`): the snapshot holds it, so only its resolution of the runner's configuration is
    /// compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) runner_version: Option<u32>,
}

/// A baseline test that a passing run did not hold to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shortfall {
    pub(crate) name: String,
    /// How it ended at baseline.
    pub(crate) was: TestOutcome,
    /// How it ended now; `None`: it did not run (removed, renamed, skipped or deselected).
    pub(crate) now: Option<TestOutcome>,
}

/// The per-test verdict on a run whose command exited 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Every baseline test ran and passed (or no names can be compared).
    Held,
    /// These baseline tests did not run and pass; in name order.
    Short(Vec<Shortfall>),
    /// The run reported no test result at all, where the baseline did.
    NoResults,
}

impl Baseline {
    /// The baseline of a run at `iteration` (0: at setup).
    pub fn of_run(
        iteration: u64,
        exit: Option<i32>,
        timed_out: bool,
        duration_ms: u64,
        counts: Option<TestCounts>,
        results: TestResults,
    ) -> Baseline {
        Baseline {
            iteration,
            exit,
            timed_out,
            duration_ms,
            counts,
            results,
            allowed: BTreeSet::new(),
            cut: None,
            make: None,
            js_configs: Vec::new(),
            built_features: None,
            runner_version: None,
        }
    }

    /// The command exited 0 at baseline: the task may already be done, or the verify does not test it.
    pub(crate) fn passed(&self) -> bool {
        !self.timed_out && self.exit == Some(0)
    }

    /// How many tests ran at baseline, by name where names were reported, else by the totals.
    pub(crate) fn tests_ran(&self) -> Option<u64> {
        if self.results.is_empty() {
            self.counts.map(|c| c.ran())
        } else {
            Some(self.results.len() as u64)
        }
    }

    /// The baseline tests that failed, in name order.
    pub(crate) fn failing(&self) -> Vec<&str> {
        self.results.failing().collect()
    }

    /// How many tests failed at baseline, counted the way [`Baseline::tests_ran`] counts: by name where names
    /// were reported, else by the totals. A quiet run (`cargo test -q`) names no test but still says how many
    /// failed, and "0 failed" there would tell the agent the suite is green.
    pub(crate) fn tests_failed(&self) -> u64 {
        if self.results.is_empty() {
            self.counts.map_or(0, |c| c.failed)
        } else {
            self.results.failing().count() as u64
        }
    }

    /// Judges a run whose command exited 0 against the baseline; see the module docs.
    pub fn judge(&self, counts: Option<TestCounts>, now: &TestResults) -> Judged {
        let had_results = !self.results.is_empty() || self.counts.is_some();
        if now.is_empty() {
            return if counts.is_none() && had_results {
                Judged::NoResults
            } else {
                Judged::Held
            };
        }
        let short: Vec<Shortfall> = self
            .results
            .tests
            .iter()
            .filter(|(name, _)| !self.allowed.contains(*name))
            .filter_map(|(name, &was)| {
                let now = now.get(name);
                (now != Some(TestOutcome::Passed)).then(|| Shortfall {
                    name: name.clone(),
                    was,
                    now,
                })
            })
            .collect();
        if short.is_empty() {
            Judged::Held
        } else {
            Judged::Short(short)
        }
    }

    /// Takes a later run's names when the baseline has none yet (see the module docs); whether it did.
    pub(crate) fn adopt(&mut self, iteration: u64, counts: Option<TestCounts>, results: &TestResults) -> bool {
        if !self.results.is_empty() || results.is_empty() {
            return false;
        }
        self.iteration = iteration;
        self.counts = counts.or(self.counts);
        self.results = results.clone();
        true
    }

    /// Accepts that these baseline tests need not run again; the names that are not baseline tests.
    pub(crate) fn allow<'a>(&mut self, names: &'a [String]) -> Vec<&'a str> {
        let mut unknown = Vec::new();
        for name in names {
            if self.results.tests.contains_key(name) {
                self.allowed.insert(name.clone());
            } else {
                unknown.push(name.as_str());
            }
        }
        unknown
    }
}

#[cfg(test)]
mod tests;
