//! The reviewer at a passing promise: what no sealing can stop goes to a reader (SPEC, principle 5).
//!
//! Code that special-cases the tests, knows it is tested, patches its runner from inside its own process or makes
//! comparisons always agree passes every seal: output, report and exit code agree. So after the oracle passes a
//! promise, and before the loop completes, a separate model reads the change — never the agent's transcript or
//! explanations — and answers a fixed set of questions with quoted lines (`review/prompt.md`).
//!
//! Invariants:
//! - **It never traps the user.** A reviewer that fails, times out or answers nonsense (`answer`) leaves the
//!   promise standing: the loop completes, "not reviewed", and why, in the notice, the history and the report.
//! - **A rejection shows the line.** "gaming" must quote lines that are in the change; the quotes reach the agent
//!   in the block reason, and the history keeps them.
//! - **Text that addresses a reviewer is a finding**, found without a model (`address`), so no model is asked.
//! - **The change is data**: fenced with a marker it does not contain, cut by relevance to a budget, the cut
//!   named (`input`).
//! - **Off unless asked** (`--review`): a model call per promise costs time and money, and a loop that did not
//!   ask for it must not get slower or depend on a model being reachable.
//!
//! Submodules: `choice` (the `--review` flag, resolved at setup), `clis` (a row per agent CLI, one run of a
//! reviewer), `input` (what it reads), `answer` (how its answer is read), `address` (the deterministic finding).

pub mod address;
pub mod answer;
pub mod choice;
pub mod clis;
pub mod input;

#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::checkpoint::{self, Git, Name};
use crate::cost::Receipt;
use crate::lifecycle::ActiveLoop;
use crate::oracle::Run;
use crate::readout::TestOutcome;
use crate::schema::{ReviewNote, ReviewVerdict, Reviewer};

pub use answer::Finding;

/// The question set: the reviewer's instructions, fixed and in the repository (its tests are in `tests.rs`).
pub const PROMPT: &str = include_str!("review/prompt.md");

/// What the review at a promise decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Review {
    /// Read, and nothing found.
    Clean { cut: Vec<String>, receipt: Option<Receipt> },
    /// Lines of the change that game the tests. `by_rule`: found without a model (`address`).
    Gaming {
        findings: Vec<Finding>,
        by_rule: bool,
        cut: Vec<String>,
        receipt: Option<Receipt>,
    },
    /// The promise stands unread, and why.
    NotReviewed { why: String, receipt: Option<Receipt> },
}

impl Review {
    /// The history's note of this review.
    pub fn note(&self) -> ReviewNote {
        match self {
            Self::Clean { cut, receipt } => ReviewNote {
                verdict: ReviewVerdict::Clean,
                cut: cut.clone(),
                receipt: receipt.clone(),
                ..ReviewNote::default()
            },
            Self::Gaming {
                findings, cut, receipt, ..
            } => ReviewNote {
                verdict: ReviewVerdict::Gaming,
                findings: findings
                    .iter()
                    .map(|f| format!("{}: \"{}\"", f.question, f.quote))
                    .collect(),
                cut: cut.clone(),
                receipt: receipt.clone(),
                ..ReviewNote::default()
            },
            Self::NotReviewed { why, receipt } => ReviewNote {
                verdict: ReviewVerdict::NotReviewed,
                why: Some(why.clone()),
                receipt: receipt.clone(),
                ..ReviewNote::default()
            },
        }
    }
}

/// Reviews the change of `active`'s loop after `run` passed a promise; `now` is this stop's checkpoint commit
/// (the tree the oracle judged). `None` when the loop has no reviewer.
pub(crate) fn at_promise(active: &ActiveLoop, run: &Run, now: Option<&str>) -> Option<Review> {
    let reviewer = active.seal.fields.config.review.as_ref()?;
    Some(match diff_since_start(active, now) {
        Ok(diff) => review(reviewer, &diff, &oracle_side(active, run), &baseline_tests(active)),
        Err(why) => Review::NotReviewed { why, receipt: None },
    })
}

/// Reviews `diff` with `reviewer` (the whole review once the facts are gathered; the tests call it directly).
pub fn review(reviewer: &Reviewer, diff: &str, oracle_side: &[String], tests: &[(String, input::Was)]) -> Review {
    if diff.trim().is_empty() {
        return Review::NotReviewed {
            why: "the change since the loop began is empty".into(),
            receipt: None,
        };
    }
    let built = input::build(&input::Facts {
        diff,
        oracle_side,
        tests,
    });
    let addressed = address::findings(&built.shown);
    if !addressed.is_empty() {
        return Review::Gaming {
            findings: addressed,
            by_rule: true,
            cut: built.cut,
            receipt: None,
        };
    }
    match clis::run(&reviewer.by, PROMPT, &built.text, Duration::from_secs(reviewer.timeout)) {
        clis::Ran::Failed(why) => Review::NotReviewed { why, receipt: None },
        clis::Ran::Answered { answer: None, receipt } => Review::NotReviewed {
            why: "the reviewer's output held no answer".into(),
            receipt,
        },
        clis::Ran::Answered {
            answer: Some(text),
            receipt,
        } => match answer::parse(&text, &built.shown) {
            Ok(answer::Answer::Clean) => Review::Clean {
                cut: built.cut,
                receipt,
            },
            Ok(answer::Answer::Gaming(findings)) => Review::Gaming {
                findings,
                by_rule: false,
                cut: built.cut,
                receipt,
            },
            Err(why) => Review::NotReviewed {
                why: format!("the reviewer's answer was not understood: {why}"),
                receipt,
            },
        },
    }
}

/// `git diff` from the loop's starting checkpoint to `now`, or why there is none.
fn diff_since_start(active: &ActiveLoop, now: Option<&str>) -> Result<String, String> {
    let now =
        now.ok_or("there is no checkpoint of the change (checkpoints are off, or the project is not a git work tree)")?;
    let git = Git::new(&active.project);
    let start = checkpoint::refname(active.loop_id(), Name::Iteration(0));
    let args = [
        "--no-pager",
        "diff",
        "--no-color",
        "--no-ext-diff",
        "--relative",
        &start,
        now,
    ];
    let args: Vec<&str> = args.into_iter().chain(checkpoint::git::PATHSPEC).collect();
    git.run(&args)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| format!("the change could not be read: {e}"))
}

/// What loopgate saw on the oracle's side of this loop, one line each.
fn oracle_side(active: &ActiveLoop, run: &Run) -> Vec<String> {
    let mut lines: Vec<String> = active.tamper.iter().chain(&active.warnings).cloned().collect();
    lines.extend(
        run.sat_out
            .iter()
            .map(|path| format!("new test file `{path}` sat out the oracle's run")),
    );
    lines.extend(run.note.iter().map(|note| format!("the oracle's note: {note}")));
    lines
}

/// The baseline tests and how each ended at setup.
fn baseline_tests(active: &ActiveLoop) -> Vec<(String, input::Was)> {
    let Ok(Some(baseline)) = active.store.load_baseline(&active.project) else {
        return Vec::new();
    };
    baseline
        .results
        .tests
        .iter()
        .map(|(name, outcome)| {
            let was = match outcome {
                TestOutcome::Passed => input::Was::Passed,
                TestOutcome::Failed => input::Was::Failed,
            };
            (name.clone(), was)
        })
        .collect()
}
