//! The state file `.claude/pua-loop.local.md`: YAML frontmatter, then the task verbatim.
//!
//! Invariants: the frontmatter is produced by a YAML serializer (never by pasting strings), the task after the
//! closing `---` line is kept byte for byte (so a task holding `---` lines, quotes, backticks, `$(…)` or CRLF
//! line ends round-trips), and every write is atomic. The state file is a convenience copy for humans and
//! scripts: the oracle fields in it are checked against the seal, which wins (see `seal`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsutil;
use crate::schema::Check;

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

mod fields;
pub use fields::{
    CountsProgress, Limits, LoopConfig, LoopProgress, Rejections, ScoreProgress, Stall, StateFields, TokenCount,
    VerifyConfig,
};

/// Default `--stall-limit`.
pub(crate) const DEFAULT_STALL_LIMIT: u64 = 10;

impl StateFields {
    /// Whether a check of the oracle's inputs is on for this loop.
    pub(crate) fn checks(&self, check: Check) -> bool {
        !self.config.opt_out.contains(&check)
    }

    /// Hands the loop to `session` and sets it running again: a person (or a new session) stepped in, so the
    /// stall counters start over. Returns the session it belonged to before.
    pub(crate) fn adopt(&mut self, session: &str) -> String {
        let p = &mut self.progress;
        p.status = LoopStatus::Running;
        p.pause_reason = None;
        p.stall.unchanged_streak = 0;
        p.rejections.same_failure_streak = 0;
        p.score.plateau_streak = 0;
        p.stall.give_up_streak = 0;
        p.pending_block = None;
        std::mem::replace(&mut p.session_id, session.to_string())
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
        crate::history::timestamp::parse(&self.config.started_at).map_err(|e| {
            format!(
                "field `started_at` is not an RFC 3339 date-time ({:?}: {e}), so `--max-duration` cannot be measured",
                self.config.started_at
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
                let fields: StateFields =
                    yaml_serde::from_str(yaml).map_err(|e| StateFields::name_the_field(yaml, e.to_string()))?;
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
        // `.claude/` is made if needed, and nothing below the project root is followed (see `fsutil::nofollow`).
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
