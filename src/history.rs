//! The append-only history `.claude/pua-loop-history.jsonl`.
//!
//! Invariants: the file is only ever appended to (never truncated, not even by a new loop); each record is one
//! line of JSON written with a single `write_all` while holding an exclusive lock, so concurrent hooks never
//! interleave; strings are escaped by serde_json, so whatever bytes a verify printed the line stays valid JSON.
//! Readers tolerate a torn final line (a crash mid-append) and report it instead of failing.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::fsutil;

/// What happened at one point of a loop. Serialized in snake_case (`promise_rejected`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Init,
    Continue,
    PromiseRejected,
    Complete,
    MaxIterations,
    MaxDuration,
    /// The token budget (`--max-tokens`) ran out.
    MaxTokens,
    Aborted,
    Paused,
    Resumed,
    Cancelled,
    Stalled,
    TamperDetected,
    /// The agent ran `loopgate verify` itself; recorded, never completes the loop.
    SelfCheck,
    /// A verify run at a stop with `verify_on: always` that did not pass.
    VerifyFailed,
    /// The user accepted changes to the oracle's sealed inputs (`loopgate allow`): `accepted`.
    Allowed,
    /// `loopgate run` ran the agent command once (before the stop it leads to): `agent_exit`, `agent_signal`,
    /// `agent_timed_out`, `agent_ms`, `agent_tail`.
    AgentRun,
    /// A stop whose last message gave up, asked the user or named an external blocker without a pause or abort
    /// tag (see `giveup`): `kind`, `phrase`, `sentence`, `give_up_streak`. Recorded instead of `continue`.
    GaveUp,
    /// `loopgate rollback` restored the working tree to a checkpoint: `to`, `saved`, `loop_of_checkpoint`.
    RolledBack,
    /// loopgate let a stop through because one more block would pass Claude Code's stop-hook block cap; the loop
    /// keeps running: `blocks_without_tool`, `cap`.
    BlockCap,
    /// A turn loopgate had blocked ended without coming back to the Stop hook (noticed at the session's next
    /// stop or session start): `blocks_without_tool`, `cap`, `noticed_at`.
    TurnEnded,
}

impl Status {
    /// The name used in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Init => "init",
            Self::Continue => "continue",
            Self::PromiseRejected => "promise_rejected",
            Self::Complete => "complete",
            Self::MaxIterations => "max_iterations",
            Self::MaxDuration => "max_duration",
            Self::MaxTokens => "max_tokens",
            Self::Aborted => "aborted",
            Self::Paused => "paused",
            Self::Resumed => "resumed",
            Self::Cancelled => "cancelled",
            Self::Stalled => "stalled",
            Self::TamperDetected => "tamper_detected",
            Self::SelfCheck => "self_check",
            Self::VerifyFailed => "verify_failed",
            Self::AgentRun => "agent_run",
            Self::GaveUp => "gave_up",
            Self::RolledBack => "rolled_back",
            Self::Allowed => "allowed",
            Self::BlockCap => "block_cap",
            Self::TurnEnded => "turn_ended",
        }
    }

    /// Statuses after which the loop is over.
    pub fn ends_loop(self) -> bool {
        matches!(
            self,
            Self::Complete
                | Self::MaxIterations
                | Self::MaxDuration
                | Self::MaxTokens
                | Self::Aborted
                | Self::Cancelled
        )
    }
}

/// One history line: the fields every record has, plus whatever the status carries.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    pub loop_id: String,
    pub iteration: u64,
    pub status: Status,
    pub timestamp: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Record {
    /// A record stamped now (RFC 3339, UTC, seconds).
    pub fn new(loop_id: &str, iteration: u64, status: Status) -> Self {
        Self {
            loop_id: loop_id.to_string(),
            iteration,
            status,
            timestamp: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            extra: Map::new(),
        }
    }

    /// Adds a field (builder style).
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// A field's value, if present.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.extra.get(key)
    }
}

/// Failure to append to or read the history; names the file.
#[derive(Debug, thiserror::Error)]
#[error("failed to write history `{}`: {source}", path.display())]
pub struct HistoryError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// Appends one record as one line, under the file lock, with one write. Returns the byte range it took.
pub fn append(path: &Path, record: &Record) -> Result<std::ops::Range<u64>, HistoryError> {
    let err = |source| HistoryError {
        path: path.into(),
        source,
    };
    let mut line = serde_json::to_vec(record).map_err(|e| err(std::io::Error::other(e)))?;
    line.push(b'\n');
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(err)?;
    fsutil::lock_bounded(&file).map_err(err)?;
    let record_len = line.len() as u64;
    // A process killed in the middle of a large append can leave a partial last line. Start on a new line, so that
    // line stays one bad line that readers report, and this record stays whole instead of being glued to it.
    if ends_mid_line(&file).map_err(err)? {
        line.insert(0, b'\n');
    }
    file.write_all(&line).map_err(err)?;
    let len = file.metadata().map_err(err)?.len();
    let _ = file.unlock();
    Ok(len - record_len..len)
}

/// Whether a non-empty file's last byte is not a newline.
fn ends_mid_line(file: &std::fs::File) -> std::io::Result<bool> {
    use std::os::unix::fs::FileExt;
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    let mut last = [0u8];
    file.read_exact_at(&mut last, len - 1)?;
    Ok(last[0] != b'\n')
}

/// What a reader found: the records it could parse, and how many lines it could not.
#[derive(Debug, Default)]
pub struct Read {
    pub records: Vec<Record>,
    /// Line numbers (1-based) that were not valid records, e.g. a torn final line after a crash.
    pub bad_lines: Vec<usize>,
}

/// Reads the whole history; a missing file is an empty history.
pub fn read(path: &Path) -> std::io::Result<Read> {
    let bytes = fsutil::read_optional(path)?.unwrap_or_default();
    Ok(parse(&bytes))
}

/// Parses history bytes, keeping what is valid and noting what is not.
pub fn parse(bytes: &[u8]) -> Read {
    let mut read = Read::default();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Record>(line) {
            Ok(record) => read.records.push(record),
            Err(_) => read.bad_lines.push(index + 1),
        }
    }
    read
}

/// Records of one loop, in order.
pub fn of_loop<'a>(records: &'a [Record], loop_id: &'a str) -> impl Iterator<Item = &'a Record> + 'a {
    records.iter().filter(move |r| r.loop_id == loop_id)
}

mod scan;
mod tail;
pub use scan::{Glance, last_record, parse_loop, read_last, read_loop, read_span};
pub use tail::{TAIL_EVENTS, Tail, glance_tail};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_valid_json_whatever_the_verify_printed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let nasty = String::from_utf8_lossy(b"\xff\xfe bin \x00\x1b[31m red \\ back \" quote \n newline \t");
        append(&path, &Record::new("l", 1, Status::Init)).expect("append");
        append(
            &path,
            &Record::new("l", 2, Status::PromiseRejected).with("verify_tail", nasty.as_ref()),
        )
        .expect("append");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.lines().count(), 2);
        for line in text.lines() {
            serde_json::from_str::<Value>(line).expect("valid json line");
        }
        let read = read(&path).expect("read");
        assert_eq!(
            read.records[1].get("verify_tail").and_then(Value::as_str),
            Some(nasty.as_ref())
        );
    }

    #[test]
    fn torn_final_line_is_reported_not_fatal() {
        let bytes =
            b"{\"loop_id\":\"a\",\"iteration\":1,\"status\":\"init\",\"timestamp\":\"t\"}\n{\"loop_id\":\"a\",\"itera";
        let read = parse(bytes);
        assert_eq!(read.records.len(), 1);
        assert_eq!(read.bad_lines, vec![2]);
    }

    #[test]
    fn append_after_a_torn_line_starts_a_new_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "{\"loop_id\":\"a\",\"itera").expect("torn line");
        let range = append(&path, &Record::new("b", 1, Status::Init)).expect("append");
        let bytes = std::fs::read(&path).expect("read");
        let read = parse(&bytes);
        assert_eq!(read.bad_lines, vec![1]);
        assert_eq!(read.records.len(), 1);
        assert_eq!(
            bytes[usize::try_from(range.start).expect("small")],
            b'{',
            "the range is the record itself"
        );
    }

    #[test]
    fn append_never_truncates() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "{\"old\":true}\n").expect("seed");
        append(&path, &Record::new("new", 1, Status::Init)).expect("append");
        assert!(
            std::fs::read_to_string(&path)
                .expect("read")
                .starts_with("{\"old\":true}\n")
        );
    }
}
