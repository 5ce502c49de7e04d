//! The state file `.claude/pua-loop.local.md`: YAML frontmatter, then the task verbatim.
//!
//! Invariants: the frontmatter is produced by a YAML serializer (never by pasting strings), the task after the
//! closing `---` line is kept byte for byte (so a task holding `---` lines, quotes, backticks, `$(…)` or CRLF
//! line ends round-trips), and every write is atomic. The state file is a convenience copy for humans and
//! scripts: the oracle fields in it are checked against the seal, which wins (see `seal`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsutil;
use crate::schema::{Best, Check, Driver, PendingBlock, Speech, Track};

/// Default completion promise the agent must echo inside `<promise>` tags.
pub(crate) const DEFAULT_PROMISE: &str = "LOOP_DONE";
/// Default verify timeout in seconds.
pub(crate) const DEFAULT_VERIFY_TIMEOUT: u64 = 600;

/// Whether the loop is being worked on or waiting for a session to pick it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum LoopStatus {
    #[default]
    Running,
    Paused,
}

/// When the verify command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum VerifyOn {
    /// Only when the agent claims completion.
    #[default]
    Promise,
    /// At every stop; a pass completes the loop.
    Always,
}

/// The frontmatter fields. Optional fields default so that older or hand-trimmed files still load; the ones a
/// loop cannot exist without (`loop_id`, `iteration`) are required and named in the error when missing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateFields {
    #[serde(default = "yes")]
    pub active: bool,
    #[serde(default)]
    pub status: LoopStatus,
    pub loop_id: String,
    /// Empty when the loop waits to be adopted by a session (`loopgate resume` or the next session start).
    #[serde(default)]
    pub session_id: String,
    pub iteration: u64,
    /// 0 means unlimited.
    #[serde(default)]
    pub max_iterations: u64,
    #[serde(default = "default_promise")]
    pub completion_promise: String,
    #[serde(default)]
    pub verify_command: Option<String>,
    #[serde(default = "default_timeout")]
    pub verify_timeout: u64,
    #[serde(default)]
    pub verify_on: VerifyOn,
    /// Maximum wall time of the loop in seconds; absent means unlimited.
    #[serde(default)]
    pub max_duration: Option<u64>,
    #[serde(default)]
    pub promise_rejections: u64,
    #[serde(default)]
    pub rejections_in_a_row: u64,
    #[serde(default)]
    pub started_at: String,
    #[serde(default)]
    pub sealed: Vec<String>,
    #[serde(default)]
    pub lang: Speech,
    /// A verify that passes while running no tests counts as a failure (`--require-tests`).
    #[serde(default)]
    pub require_tests: bool,
    /// A desktop notification when the loop completes, pauses, stalls or ends (`--no-notify` turns it off).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub notify: bool,
    /// Iterations without progress that pause the loop as `stalled`; 0 disables.
    #[serde(default = "default_stall_limit")]
    pub stall_limit: u64,
    /// End the loop once the session transcript records this many tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Complete on a score read from the verify output instead of the exit code alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<crate::score::ScoreGate>,
    /// Working-tree fingerprint at the last stop (see `progress`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_fingerprint: Option<String>,
    /// Stops in a row at which the working tree had not changed.
    #[serde(default)]
    pub unchanged_streak: u64,
    /// Tokens the session transcript recorded since the loop started (only with `max_tokens`).
    #[serde(default)]
    pub tokens_used: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_cursor: Option<crate::tokens::Cursor>,
    /// Best score so far and verifies in a row without beating it (only with `score`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_score: Option<f64>,
    #[serde(default)]
    pub plateau_streak: u64,
    /// Fingerprint of the last verify failure, to call out the same failure again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fingerprint: Option<String>,
    /// How many verify failures in a row had that fingerprint.
    #[serde(default)]
    pub same_failure_streak: u64,
    /// Why the loop was paused, shown to the session that resumes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_reason: Option<String>,
    /// Stops in a row whose last message gave up, asked the user or named a blocker without a tag (`giveup`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub give_up_streak: u64,
    /// Per-iteration checkpoints of the working tree (absent: off, or not a git work tree; see `checkpoint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<Track>,
    /// The test-count ratchet: the most tests a verify of this loop ran, the fewest a passing one skipped.
    #[serde(default, skip_serializing_if = "Best::is_unset")]
    pub counts_best: Best,
    /// The test counts of the last verify that printed a summary (what `loopgate allow --counts` accepts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_counts: Option<crate::summary::TestCounts>,
    /// Checks of the oracle's inputs the user turned off at setup (all are on by default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opt_out: Vec<Check>,
    /// What drives the loop when it is not a Claude Code session's Stop hook (absent then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<Driver>,
    /// loopgate's last block, while the turn it continued has not come back to the Stop hook (see
    /// `stop::block_cap`: Claude Code's stop-hook block cap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_block: Option<PendingBlock>,
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

/// Default `--stall-limit`.
pub(crate) const DEFAULT_STALL_LIMIT: u64 = 10;

fn default_stall_limit() -> u64 {
    DEFAULT_STALL_LIMIT
}

fn default_timeout() -> u64 {
    DEFAULT_VERIFY_TIMEOUT
}

/// A fresh loop's fields, with the same defaults a state file that leaves them out gets: iteration 1, the
/// default promise, verify timeout and stall limit, nothing counted yet.
impl Default for StateFields {
    fn default() -> Self {
        Self {
            active: true,
            status: LoopStatus::Running,
            loop_id: String::new(),
            session_id: String::new(),
            iteration: 1,
            max_iterations: 0,
            completion_promise: default_promise(),
            verify_command: None,
            verify_timeout: DEFAULT_VERIFY_TIMEOUT,
            verify_on: VerifyOn::Promise,
            max_duration: None,
            promise_rejections: 0,
            rejections_in_a_row: 0,
            started_at: String::new(),
            sealed: Vec::new(),
            lang: Speech::En,
            require_tests: false,
            notify: true,
            stall_limit: DEFAULT_STALL_LIMIT,
            max_tokens: None,
            score: None,
            tree_fingerprint: None,
            unchanged_streak: 0,
            tokens_used: 0,
            transcript_cursor: None,
            best_score: None,
            plateau_streak: 0,
            last_fingerprint: None,
            same_failure_streak: 0,
            pause_reason: None,
            give_up_streak: 0,
            checkpoints: None,
            counts_best: Best::default(),
            last_counts: None,
            opt_out: Vec::new(),
            driver: None,
            pending_block: None,
        }
    }
}

impl StateFields {
    /// Whether a check of the oracle's inputs is on for this loop.
    pub(crate) fn checks(&self, check: Check) -> bool {
        !self.opt_out.contains(&check)
    }

    /// Hands the loop to `session` and sets it running again: a person (or a new session) stepped in, so the
    /// stall counters start over. Returns the session it belonged to before.
    pub(crate) fn adopt(&mut self, session: &str) -> String {
        self.status = LoopStatus::Running;
        self.pause_reason = None;
        self.unchanged_streak = 0;
        self.same_failure_streak = 0;
        self.plateau_streak = 0;
        self.give_up_streak = 0;
        self.pending_block = None;
        std::mem::replace(&mut self.session_id, session.to_string())
    }
}

/// A loop's state: fields plus the task text.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub fields: StateFields,
    pub task: String,
}

/// Failures reading or writing the state file; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("failed to read `{}`: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("state file `{}` is corrupt: {problem}", path.display())]
    Corrupt { path: PathBuf, problem: String },
    #[error("failed to write `{}`: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}

impl StateFields {
    /// `started_at` as a date-time. Strict: an empty or unparsable value is an error naming the field, so that
    /// `--max-duration` is never silently disabled.
    pub(crate) fn started(&self) -> Result<chrono::DateTime<chrono::Utc>, String> {
        crate::history::timestamp::parse(&self.started_at).map_err(|e| {
            format!(
                "field `started_at` is not an RFC 3339 date-time ({:?}: {e}), so `--max-duration` cannot be measured",
                self.started_at
            )
        })
    }
}

impl State {
    /// Renders the file: `---`, the YAML, `---`, the task exactly as given.
    pub fn render(&self) -> Result<String, String> {
        let yaml = yaml_serde::to_string(&self.fields).map_err(|e| e.to_string())?;
        let yaml = yaml.strip_prefix("---\n").unwrap_or(&yaml);
        Ok(format!("---\n{yaml}---\n{}", self.task))
    }

    /// Parses a rendered file. Accepts CRLF delimiters; the task keeps its bytes, CRs included.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let rest = strip_delimiter_line(text).ok_or("it does not start with a `---` line")?;
        let mut offset = 0;
        for line in rest.split_inclusive('\n') {
            if is_delimiter(line) {
                let yaml = &rest[..offset];
                let task = &rest[offset + line.len()..];
                let fields: StateFields = yaml_serde::from_str(yaml).map_err(|e| e.to_string())?;
                return Ok(Self {
                    fields,
                    task: task.to_string(),
                });
            }
            offset += line.len();
        }
        Err("the frontmatter has no closing `---` line".to_string())
    }

    /// Loads the state file; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Self>, StateError> {
        let Some(bytes) = fsutil::read_optional(path).map_err(|source| StateError::Read {
            path: path.into(),
            source,
        })?
        else {
            return Ok(None);
        };
        let text = String::from_utf8(bytes).map_err(|_| StateError::Corrupt {
            path: path.into(),
            problem: "it is not valid UTF-8".into(),
        })?;
        Self::parse(&text).map(Some).map_err(|problem| StateError::Corrupt {
            path: path.into(),
            problem,
        })
    }

    /// Writes the state file atomically, creating `.claude/` if needed (for tests: loopgate itself renders
    /// first, to note the bytes in the seal, then calls [`State::write_rendered`]).
    #[cfg(test)]
    pub(crate) fn save(&self, path: &Path) -> Result<(), StateError> {
        let write_err = |source| StateError::Write {
            path: path.into(),
            source,
        };
        let text = self.render().map_err(|e| write_err(std::io::Error::other(e)))?;
        Self::write_rendered(path, &text)
    }

    /// Writes a rendered state file atomically, creating `.claude/` if needed.
    pub(crate) fn write_rendered(path: &Path, text: &str) -> Result<(), StateError> {
        let write_err = |source| StateError::Write {
            path: path.into(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(write_err)?;
        }
        // A mirror of the seal (which is flushed to disk): no flush of its own, see `write_atomic_unsynced`.
        fsutil::write_atomic_unsynced(path, text.as_bytes(), 0o644).map_err(write_err)
    }
}

fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches(['\n', '\r']) == "---"
}

fn strip_delimiter_line(text: &str) -> Option<&str> {
    let first = text.split_inclusive('\n').next()?;
    is_delimiter(first).then(|| &text[first.len()..])
}

#[cfg(test)]
pub(crate) mod tests;
