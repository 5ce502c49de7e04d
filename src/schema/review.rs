//! The reviewer's persisted vocabulary: who a loop is sealed with (`review` in the loop's configuration) and
//! what a review decided (`review` in a `complete` or `promise_rejected` history record). Behaviour is in
//! `review`.

use serde::{Deserialize, Serialize};

use super::Receipt;

/// The reviewer a loop is sealed with (absent: no reviewer, the default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reviewer {
    #[serde(flatten)]
    pub by: ReviewBy,
    /// Seconds before the reviewer is stopped and the promise stands unreviewed.
    #[serde(default = "default_timeout")]
    pub timeout: u64,
}

/// Seconds a reviewer may take by default before the promise stands unreviewed (`--review-timeout`).
pub const DEFAULT_REVIEW_TIMEOUT: u64 = 180;

fn default_timeout() -> u64 {
    DEFAULT_REVIEW_TIMEOUT
}

/// Who reads the change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "lowercase")]
pub enum ReviewBy {
    /// An agent CLI, run without tools; `model` overrides its row's small model.
    Cli {
        cli: ReviewCli,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    /// The user's command: the input on stdin, the answer on stdout.
    Command { command: String },
}

/// An agent CLI that can review (`review::clis` has a row for each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewCli {
    Claude,
    Codex,
    Gemini,
}

/// What the review at a passing promise decided, as the history keeps it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewNote {
    pub verdict: ReviewVerdict,
    /// Why the promise was not reviewed (with `not_reviewed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// `question: "quoted line"`, one per finding (with `gaming`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
    /// What was cut from a change too large for the reviewer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<String>,
    /// What the reviewer's run used, where its CLI reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<Receipt>,
}

/// A review's verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewVerdict {
    Clean,
    Gaming,
    #[default]
    NotReviewed,
}

impl ReviewVerdict {
    /// The word `status`, the history and the report use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Clean => "clean",
            Self::Gaming => "gaming",
            Self::NotReviewed => "not reviewed",
        }
    }
}
