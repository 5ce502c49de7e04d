//! What each kind of history record carries: one variant of [`Event`] per [`Status`], each with its own typed
//! fields, serialized flat next to `loop_id`, `iteration`, `status` and `timestamp` under the keys the history
//! has always used (the `status` key is the variant's tag).
//!
//! Invariant: [`Event::status`] and the tag written are the same name, so a reader that only looks at `status`
//! (jq, the README's recipes) sees what it always saw. Unknown keys in old or newer lines are ignored.

use serde::{Deserialize, Serialize};

use super::Status;
use super::verify::{self, VerifyResult};

/// One record's event and its fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Event {
    /// A loop started.
    Init(Init),
    /// A stop that the loop continued from.
    Continue(Tree),
    /// The completion promise was claimed and the verify failed (or sealed inputs changed).
    PromiseRejected(Rejected),
    /// The loop completed: by a passing verify, or by the promise alone when no verify is sealed.
    Complete(Complete),
    MaxIterations(Limit),
    MaxDuration(Limit),
    /// The token budget (`--max-tokens`) ran out.
    MaxTokens(Limit),
    /// The dollar budget (`--max-cost`, inside Claude Code) was spent.
    MaxCost(Limit),
    /// The agent judged the task impossible.
    Aborted(Reason),
    /// The agent needs something from the user.
    Paused(Reason),
    /// A session took the loop over.
    Resumed(Resumed),
    Cancelled(Reason),
    /// The circuit breaker tripped.
    Stalled(Reason),
    TamperDetected(Tamper),
    /// The agent ran `loopgate verify` itself; recorded, never completes the loop.
    SelfCheck(VerifyResult),
    /// A verify run at a stop with `verify_on: always` that did not pass.
    VerifyFailed(Rejected),
    /// The user accepted changes to the oracle's sealed inputs (`loopgate allow`).
    Allowed(Allowed),
    /// `loopgate run` ran the agent command once.
    AgentRun(AgentRun),
    /// A stop that gave up, asked the user or named a blocker without a pause or abort tag.
    GaveUp(GaveUp),
    /// `loopgate rollback` restored the working tree to a checkpoint.
    RolledBack(RolledBack),
    /// loopgate let a stop through because one more block would pass Claude Code's block cap.
    BlockCap(BlockCap),
    /// A turn loopgate had blocked ended without coming back to the Stop hook.
    TurnEnded(TurnEnded),
    /// The agent's turn ended on an API error (Claude Code's `StopFailure` hook: a rate limit, billing, a server
    /// error); the loop keeps running.
    StopFailure(StopFailure),
    /// What the agent's turn that ended at a stop used and cost (Claude Code's transcript, with `--max-cost`).
    Usage(Usage),
}

/// `init`: how the loop was set up.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Init {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify_command: Option<String>,
    #[serde(default)]
    pub session_id: String,
    #[serde(default)]
    pub max_iterations: u64,
    /// How many files the oracle sealed, its closure among them, and the test files and tests found in them.
    #[serde(default)]
    pub sealed_files: u64,
    #[serde(default)]
    pub closure_files: u64,
    #[serde(default)]
    pub test_files: u64,
    #[serde(default)]
    pub tests: u64,
    /// Why `--verify auto` chose the command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify_detected: Option<String>,
    /// Who drives the loop (`loopgate run`), when not a Claude Code session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<crate::schema::Driver>,
    /// The checkpoint commit of the tree the loop started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    /// What the verify command did when run once at setup (absent with `--no-baseline` or no verify command).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineRun>,
    /// The task as given. The report's page (`loopgate report --html`) is drawn from the history alone, so the
    /// history keeps what the page says the loop was asked to do, and its budgets below.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// `--max-duration` in seconds, as set (absent: unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_duration: Option<u64>,
    /// `--max-tokens`, as set (absent: unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// `--max-cost` in US dollars, as set for the loop's stops (absent: unlimited, or held by `loopgate run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost: Option<f64>,
}

/// The baseline run at setup, as the history keeps it (the whole baseline, test by test, is beside the seal).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BaselineRun {
    /// The shell's exit code; `None` when killed or timed out.
    pub exit: Option<i32>,
    #[serde(default)]
    pub timed_out: bool,
    #[serde(default)]
    pub duration_ms: u64,
    /// Tests that ran, by name where the runner named them, else by its totals; `None`: no result was read.
    #[serde(default)]
    pub tests: Option<u64>,
    /// The first failing tests by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing: Vec<String>,
}

impl BaselineRun {
    /// `fail (exit 1, 0.3s) — 12 tests, failing: a, b` for `loopgate status`.
    pub fn describe(&self) -> String {
        let verdict = if self.exit == Some(0) && !self.timed_out {
            "pass"
        } else {
            "fail"
        };
        let how = match (self.timed_out, self.exit) {
            (true, _) => "timed out".to_string(),
            (false, Some(code)) => format!("exit {code}"),
            (false, None) => "killed".to_string(),
        };
        #[allow(clippy::cast_precision_loss)]
        let secs = self.duration_ms as f64 / 1000.0;
        let mut text = format!("{verdict} ({how}, {secs:.1}s)");
        match self.tests {
            Some(tests) => text.push_str(&format!(" — {tests} test(s)")),
            None => text.push_str(" — no test results read"),
        }
        if !self.failing.is_empty() {
            text.push_str(&format!(", failing: {}", self.failing.join(", ")));
        }
        text
    }
}

/// What a stop did to the working tree, and the checkpoint taken of it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_changed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_stat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_error: Option<String>,
}

/// `promise_rejected` and `verify_failed`: the verify that said no.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rejected {
    /// Promise rejections so far in the loop.
    #[serde(default)]
    pub rejections: u64,
    #[serde(flatten)]
    pub verify: VerifyResult,
    #[serde(flatten)]
    pub tree: Tree,
    /// The reviewer's finding that rejected a passing promise (`--review`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<crate::schema::ReviewNote>,
}

/// `complete`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Complete {
    #[serde(default)]
    pub promise_rejections: u64,
    /// The passing verify; `None` when no verify command is sealed and the promise alone completed the loop.
    #[serde(flatten, default, deserialize_with = "verify::optional")]
    pub verify: Option<VerifyResult>,
    /// What the reviewer at the promise decided (`--review`; absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<crate::schema::ReviewNote>,
}

/// `max_iterations`, `max_duration`, `max_tokens`, `max_cost`: where the budget stood.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limit {
    #[serde(default)]
    pub promise_rejections: u64,
    #[serde(default)]
    pub tokens_used: u64,
    /// What the session's usage came to, priced (with `--max-cost`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spent: Option<crate::schema::Receipt>,
}

/// `usage`: one turn's receipt, and the loop's so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    #[serde(default)]
    pub receipt: crate::schema::Receipt,
    #[serde(default)]
    pub spent: crate::schema::Receipt,
}

/// `aborted`, `paused`, `cancelled`, `stalled`: why, in words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Reason {
    #[serde(default)]
    pub reason: String,
}

impl Reason {
    /// The reason `text`.
    pub fn new(text: impl Into<String>) -> Self {
        Self { reason: text.into() }
    }
}

/// `resumed`: which session took over from which, and how.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Resumed {
    #[serde(default)]
    pub from_session: String,
    #[serde(default)]
    pub session_id: String,
    #[serde(default)]
    pub source: String,
}

/// `tamper_detected`: what was tampered with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tamper {
    #[serde(default)]
    pub what: String,
}

/// `allowed`: the sealed-input changes the user accepted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Allowed {
    #[serde(default)]
    pub accepted: Vec<String>,
}

/// `agent_run`: one run of the agent command by `loopgate run`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentRun {
    #[serde(default)]
    pub agent: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_exit: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_signal: Option<i32>,
    #[serde(default)]
    pub agent_timed_out: bool,
    #[serde(default)]
    pub agent_ms: u64,
    #[serde(default)]
    pub agent_bytes: u64,
    #[serde(default)]
    pub agent_tail: String,
    /// What the run used and cost, when the agent's output reported its usage (see `cost`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<crate::schema::Receipt>,
}

/// `gave_up`: the sentence that gave up, and how many stops in a row did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GaveUp {
    /// `gave_up`, `asked_user` or `external_blocker` (see `giveup::Kind`).
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub phrase: String,
    #[serde(default)]
    pub sentence: String,
    #[serde(default)]
    pub give_up_streak: u64,
    #[serde(flatten)]
    pub tree: Tree,
}

/// `rolled_back`: the checkpoint restored and where the tree before it was saved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RolledBack {
    #[serde(default)]
    pub to: String,
    #[serde(default)]
    pub commit: String,
    #[serde(default)]
    pub saved: String,
    #[serde(default)]
    pub saved_commit: String,
}

/// `block_cap`: the blocks without a tool call in this turn, and Claude Code's cap.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockCap {
    #[serde(default)]
    pub blocks_without_tool: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<u64>,
}

/// `turn_ended`: like [`BlockCap`], plus where it was noticed (`stop` or `session_start`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnEnded {
    #[serde(default)]
    pub blocks_without_tool: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<u64>,
    #[serde(default)]
    pub noticed_at: String,
}

/// `stop_failure`: the error Claude Code named (`rate_limit`, `billing_error`, …) and its details, if any.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StopFailure {
    #[serde(default)]
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_details: Option<String>,
}

impl Event {
    /// The status this event is written under.
    pub fn status(&self) -> Status {
        match self {
            Self::Init(_) => Status::Init,
            Self::Continue(_) => Status::Continue,
            Self::PromiseRejected(_) => Status::PromiseRejected,
            Self::Complete(_) => Status::Complete,
            Self::MaxIterations(_) => Status::MaxIterations,
            Self::MaxDuration(_) => Status::MaxDuration,
            Self::MaxTokens(_) => Status::MaxTokens,
            Self::MaxCost(_) => Status::MaxCost,
            Self::Aborted(_) => Status::Aborted,
            Self::Paused(_) => Status::Paused,
            Self::Resumed(_) => Status::Resumed,
            Self::Cancelled(_) => Status::Cancelled,
            Self::Stalled(_) => Status::Stalled,
            Self::TamperDetected(_) => Status::TamperDetected,
            Self::SelfCheck(_) => Status::SelfCheck,
            Self::VerifyFailed(_) => Status::VerifyFailed,
            Self::Allowed(_) => Status::Allowed,
            Self::AgentRun(_) => Status::AgentRun,
            Self::GaveUp(_) => Status::GaveUp,
            Self::RolledBack(_) => Status::RolledBack,
            Self::BlockCap(_) => Status::BlockCap,
            Self::TurnEnded(_) => Status::TurnEnded,
            Self::StopFailure(_) => Status::StopFailure,
            Self::Usage(_) => Status::Usage,
        }
    }

    /// A budget limit's event (`max_iterations`, `max_duration`, `max_tokens`); any other status is `None`.
    pub fn limit(status: Status, limit: Limit) -> Option<Self> {
        match status {
            Status::MaxIterations => Some(Self::MaxIterations(limit)),
            Status::MaxDuration => Some(Self::MaxDuration(limit)),
            Status::MaxTokens => Some(Self::MaxTokens(limit)),
            Status::MaxCost => Some(Self::MaxCost(limit)),
            _ => None,
        }
    }

    /// The verify result the event carries, if any.
    pub fn verify(&self) -> Option<&VerifyResult> {
        match self {
            Self::PromiseRejected(r) | Self::VerifyFailed(r) => Some(&r.verify),
            Self::Complete(c) => c.verify.as_ref(),
            Self::SelfCheck(v) => Some(v),
            _ => None,
        }
    }

    /// What the reviewer at a passing promise decided, for the events that record it (`--review`).
    pub fn review(&self) -> Option<&crate::schema::ReviewNote> {
        match self {
            Self::PromiseRejected(r) => r.review.as_ref(),
            Self::Complete(c) => c.review.as_ref(),
            _ => None,
        }
    }

    /// What the stop did to the working tree, for events that record it.
    pub fn tree(&self) -> Option<&Tree> {
        match self {
            Self::Continue(t) => Some(t),
            Self::PromiseRejected(r) | Self::VerifyFailed(r) => Some(&r.tree),
            Self::GaveUp(g) => Some(&g.tree),
            _ => None,
        }
    }

    /// Mutable [`Event::tree`], to add a stop's observations.
    pub fn tree_mut(&mut self) -> Option<&mut Tree> {
        match self {
            Self::Continue(t) => Some(t),
            Self::PromiseRejected(r) | Self::VerifyFailed(r) => Some(&mut r.tree),
            Self::GaveUp(g) => Some(&mut g.tree),
            _ => None,
        }
    }

    /// The reason in words, for events that carry one.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Aborted(r) | Self::Paused(r) | Self::Cancelled(r) | Self::Stalled(r) => Some(&r.reason),
            _ => None,
        }
    }

    /// One line about the event (verify results through [`VerifyResult::describe`]), for `loopgate history`
    /// and the report; empty when there is nothing beyond the status.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(reason) = self.reason() {
            parts.push(reason.to_string());
        }
        match self {
            Self::Init(i) => {
                if let Some(cmd) = &i.verify_command {
                    parts.push(format!("verify: {cmd}"));
                }
            }
            Self::TamperDetected(t) => parts.push(t.what.clone()),
            Self::GaveUp(g) => parts.push(format!("{}: \"{}\"", g.kind.replace('_', " "), g.sentence)),
            Self::RolledBack(r) => parts.push(format!("to checkpoint {}, the tree before saved as {}", r.to, r.saved)),
            Self::AgentRun(a) => {
                let result = match (a.agent_timed_out, a.agent_exit) {
                    (true, _) => "timed out".to_string(),
                    (false, Some(code)) => format!("exit {code}"),
                    (false, None) => "killed".to_string(),
                };
                parts.push(format!("agent {result}, {:.1}s", a.agent_ms as f64 / 1000.0));
                if let Some(receipt) = &a.receipt {
                    parts.push(crate::cost::describe(receipt));
                }
            }
            Self::Allowed(a) => parts.push(format!("accepted: {}", a.accepted.join(", "))),
            Self::BlockCap(b) => parts.push(format!("{} block(s) without a tool call", b.blocks_without_tool)),
            Self::TurnEnded(t) => parts.push(format!(
                "{} block(s) without a tool call, noticed at {}",
                t.blocks_without_tool, t.noticed_at
            )),
            Self::StopFailure(f) => parts.push(format!("the turn ended on an API error: {}", f.error)),
            Self::Usage(u) => parts.push(format!(
                "this turn {}; so far {}",
                crate::cost::describe(&u.receipt),
                crate::cost::describe(&u.spent)
            )),
            Self::MaxCost(Limit { spent: Some(spent), .. }) => {
                parts.push(format!("spent {}", crate::cost::describe(spent)))
            }
            _ => {}
        }
        if let Some(verify) = self.verify() {
            parts.push(verify.describe());
        }
        if let Some(review) = self.review() {
            parts.push(describe_review(review));
        }
        parts.join(" · ")
    }
}

/// A review as one line: "review: " its verdict, why it was not reviewed or what it quoted first, what was cut,
/// and what it cost where its CLI said.
pub fn describe_review(note: &crate::schema::ReviewNote) -> String {
    let mut out = format!("review: {}", note.verdict.as_str());
    if let Some(detail) = note.why.as_ref().or(note.findings.first()) {
        out.push_str(&format!(" ({detail})"));
    }
    if note.findings.len() > 1 {
        out.push_str(&format!(" and {} more finding(s)", note.findings.len() - 1));
    }
    if !note.cut.is_empty() {
        out.push_str(&format!(", {} file(s) cut to fit", note.cut.len()));
    }
    if let Some(receipt) = &note.receipt {
        out.push_str(&format!(", {}", crate::cost::describe(receipt)));
    }
    out
}
