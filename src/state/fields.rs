//! The loop's settings as two types: [`LoopConfig`], what setup decided (immutable until the next `setup`), and
//! [`LoopProgress`], what the stops count and cache. Each groups its fields by feature in sub-structs under
//! `#[serde(flatten)]`, so the files keep their flat keys.
//!
//! Invariant: the bytes of a state file or seal do not depend on this grouping. [`StateFields`] serializes its
//! keys in the order the files always had ([`FILE_ORDER`]; a key not listed there — a new field — follows them),
//! and a value of the wrong type is still named by its key ([`StateFields::name_the_field`]), which serde's
//! flattening alone would lose. `state/tests.rs` re-saves files the previous layout wrote, byte for byte.
//!
//! A new setting goes in the feature's sub-struct of `LoopConfig` (with a serde default, so older files load), a
//! new counter in `LoopProgress`'s.

use serde::{Deserialize, Serialize, Serializer};

use crate::schema::{Best, Check, Driver, PendingBlock, Speech, Track};

use super::{DEFAULT_PROMISE, DEFAULT_STALL_LIMIT, DEFAULT_VERIFY_TIMEOUT, LoopStatus, VerifyOn};

/// The frontmatter fields: the loop's configuration and its progress. Optional fields default so that older or
/// hand-trimmed files still load; the ones a loop cannot exist without (`loop_id`, `iteration`) are required
/// and named in the error when missing.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct StateFields {
    #[serde(flatten)]
    pub config: LoopConfig,
    #[serde(flatten)]
    pub progress: LoopProgress,
}

/// What setup decided: sealed with the oracle, changed by no stop (a new `setup` replaces the loop).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopConfig {
    pub loop_id: String,
    #[serde(default = "default_promise")]
    pub completion_promise: String,
    #[serde(default)]
    pub started_at: String,
    /// The `--seal` globs.
    #[serde(default)]
    pub sealed: Vec<String>,
    #[serde(default)]
    pub lang: Speech,
    /// A desktop notification when the loop completes, pauses, stalls or ends (`--no-notify` turns it off).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub notify: bool,
    /// Checks of the oracle's inputs the user turned off at setup (all are on by default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opt_out: Vec<Check>,
    /// The reviewer at a passing promise (`--review`; absent: none, the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<crate::schema::Reviewer>,
    #[serde(flatten)]
    pub verify: VerifyConfig,
    #[serde(flatten)]
    pub limits: Limits,
}

/// The oracle: the verify command and what a pass of it must also meet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerifyConfig {
    #[serde(default)]
    pub verify_command: Option<String>,
    #[serde(default = "default_timeout")]
    pub verify_timeout: u64,
    #[serde(default)]
    pub verify_on: VerifyOn,
    /// A verify that passes while running no tests counts as a failure (`--require-tests`).
    #[serde(default)]
    pub require_tests: bool,
    /// Complete on a score read from the verify output instead of the exit code alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<crate::score::ScoreGate>,
    /// The structured report the verify command writes itself, read test by test (`--report junit:PATH`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<crate::schema::VerifyReport>,
}

/// What ends or pauses the loop short of a pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// 0 means unlimited.
    #[serde(default)]
    pub max_iterations: u64,
    /// Maximum wall time of the loop in seconds; absent means unlimited.
    #[serde(default)]
    pub max_duration: Option<u64>,
    /// End the loop once the session transcript records this many tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// End the loop once the session transcript's usage, priced, reaches this many US dollars (`--max-cost`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost: Option<f64>,
    /// The user's price rows when the loop was set up (`$LOOPGATE_HOME/prices.json`), sealed with the budget so
    /// the table that prices its stops is the one it started with (the built-in rows are in the binary).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub prices: std::collections::BTreeMap<String, crate::cost::Price>,
    /// Iterations without progress that pause the loop as `stalled`; 0 disables.
    #[serde(default = "default_stall_limit")]
    pub stall_limit: u64,
}

/// What the stops count and cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopProgress {
    #[serde(default = "yes")]
    pub active: bool,
    #[serde(default)]
    pub status: LoopStatus,
    /// Empty when the loop waits to be adopted by a session (`loopgate resume` or the next session start).
    #[serde(default)]
    pub session_id: String,
    pub iteration: u64,
    /// Why the loop was paused, shown to the session that resumes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_reason: Option<String>,
    /// Per-iteration checkpoints of the working tree (absent: off, or not a git work tree; see `checkpoint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<Track>,
    /// What drives the loop when it is not a Claude Code session's Stop hook (absent then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<Driver>,
    /// loopgate's last block, while the turn it continued has not come back to the Stop hook (see
    /// `stop::block_cap`: Claude Code's stop-hook block cap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_block: Option<PendingBlock>,
    #[serde(flatten)]
    pub rejections: Rejections,
    #[serde(flatten)]
    pub stall: Stall,
    #[serde(flatten)]
    pub tokens: TokenCount,
    #[serde(flatten)]
    pub score: ScoreProgress,
    #[serde(flatten)]
    pub counts: CountsProgress,
}

/// Promises the oracle rejected, and the failure they repeat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rejections {
    #[serde(default)]
    pub promise_rejections: u64,
    #[serde(default)]
    pub rejections_in_a_row: u64,
    /// Fingerprint of the last verify failure, to call out the same failure again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fingerprint: Option<String>,
    /// How many verify failures in a row had that fingerprint.
    #[serde(default)]
    pub same_failure_streak: u64,
}

/// The stall breaker's counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stall {
    /// Working-tree fingerprint at the last stop (see `progress`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_fingerprint: Option<String>,
    /// Stops in a row at which the working tree had not changed.
    #[serde(default)]
    pub unchanged_streak: u64,
    /// Stops in a row whose last message gave up, asked the user or named a blocker without a tag (`giveup`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give_up_streak: u64,
}

/// The token and dollar budgets' counts (only with `max_tokens` or `max_cost`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenCount {
    /// Tokens the session transcript recorded since the loop started.
    #[serde(default)]
    pub tokens_used: u64,
    /// What the session's usage since the loop started came to, priced (only with `max_cost`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spent: Option<crate::schema::Receipt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_cursor: Option<crate::tokens::Cursor>,
}

/// Best score so far and verifies in a row without beating it (only with `score`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreProgress {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_score: Option<f64>,
    #[serde(default)]
    pub plateau_streak: u64,
}

/// The test-count ratchet's memory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CountsProgress {
    /// The most tests a verify of this loop ran, the fewest a passing one skipped.
    #[serde(default, skip_serializing_if = "Best::is_unset")]
    pub counts_best: Best,
    /// The test counts of the last verify that printed a summary (what `loopgate allow --counts` accepts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_counts: Option<crate::readout::TestCounts>,
}

/// The order of the keys in the files, as the single flat struct before this split wrote them.
const FILE_ORDER: [&str; 40] = [
    "active",
    "status",
    "loop_id",
    "session_id",
    "iteration",
    "max_iterations",
    "completion_promise",
    "verify_command",
    "verify_timeout",
    "verify_on",
    "max_duration",
    "promise_rejections",
    "rejections_in_a_row",
    "started_at",
    "sealed",
    "lang",
    "require_tests",
    "notify",
    "stall_limit",
    "max_tokens",
    "max_cost",
    "prices",
    "score",
    "tree_fingerprint",
    "unchanged_streak",
    "tokens_used",
    "spent",
    "transcript_cursor",
    "best_score",
    "plateau_streak",
    "last_fingerprint",
    "same_failure_streak",
    "pause_reason",
    "give_up_streak",
    "checkpoints",
    "counts_best",
    "last_counts",
    "opt_out",
    "driver",
    "pending_block",
];

/// Both parts, flat.
#[derive(Serialize)]
struct Flat<'a> {
    #[serde(flatten)]
    config: &'a LoopConfig,
    #[serde(flatten)]
    progress: &'a LoopProgress,
}

impl Serialize for StateFields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        let flat = Flat {
            config: &self.config,
            progress: &self.progress,
        };
        let mut map = match serde_json::to_value(flat).map_err(S::Error::custom)? {
            serde_json::Value::Object(map) => map,
            _ => return Err(S::Error::custom("the loop's fields are not a map")),
        };
        let mut ordered = serde_json::Map::with_capacity(map.len());
        for key in FILE_ORDER {
            if let Some(value) = map.shift_remove(key) {
                ordered.insert(key.to_string(), value);
            }
        }
        ordered.extend(map);
        ordered.serialize(serializer)
    }
}

impl StateFields {
    /// After `problem` (a failed parse of `yaml`, which flattening leaves without the key): the same problem
    /// with the key whose value is of the wrong type, found by trying each key alone over a fresh loop's fields.
    pub(crate) fn name_the_field(yaml: &str, problem: String) -> String {
        let Ok(yaml_serde::Value::Mapping(found)) = yaml_serde::from_str::<yaml_serde::Value>(yaml) else {
            return problem;
        };
        let Ok(yaml_serde::Value::Mapping(fresh)) = yaml_serde::to_value(Self::default()) else {
            return problem;
        };
        for (key, value) in found {
            let mut one = fresh.clone();
            one.insert(key.clone(), value);
            if let Err(e) = yaml_serde::from_value::<Self>(yaml_serde::Value::Mapping(one)) {
                let name = key.as_str().unwrap_or("?");
                return format!("field `{name}`: {e}");
            }
        }
        problem
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_yes(value: &bool) -> bool {
    *value
}

fn default_promise() -> String {
    DEFAULT_PROMISE.to_string()
}

fn default_stall_limit() -> u64 {
    DEFAULT_STALL_LIMIT
}

fn default_timeout() -> u64 {
    DEFAULT_VERIFY_TIMEOUT
}

/// A fresh loop's configuration: the default promise, verify timeout and stall limit, no limit.
impl Default for LoopConfig {
    fn default() -> Self {
        Self {
            loop_id: String::new(),
            completion_promise: default_promise(),
            started_at: String::new(),
            sealed: Vec::new(),
            lang: Speech::En,
            notify: true,
            opt_out: Vec::new(),
            review: None,
            verify: VerifyConfig::default(),
            limits: Limits::default(),
        }
    }
}

impl Default for VerifyConfig {
    fn default() -> Self {
        Self {
            verify_command: None,
            verify_timeout: DEFAULT_VERIFY_TIMEOUT,
            verify_on: VerifyOn::Promise,
            require_tests: false,
            score: None,
            report: None,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_iterations: 0,
            max_duration: None,
            max_tokens: None,
            max_cost: None,
            prices: std::collections::BTreeMap::new(),
            stall_limit: DEFAULT_STALL_LIMIT,
        }
    }
}

/// A fresh loop's progress: running, iteration 1, nothing counted yet.
impl Default for LoopProgress {
    fn default() -> Self {
        Self {
            active: true,
            status: LoopStatus::Running,
            session_id: String::new(),
            iteration: 1,
            pause_reason: None,
            checkpoints: None,
            driver: None,
            pending_block: None,
            rejections: Rejections::default(),
            stall: Stall::default(),
            tokens: TokenCount::default(),
            score: ScoreProgress::default(),
            counts: CountsProgress::default(),
        }
    }
}
