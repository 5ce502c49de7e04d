//! The append-only history `.claude/pua-loop-history.jsonl`.
//!
//! Invariants: the file is only ever appended to (never truncated, not even by a new loop); each record is one
//! line of JSON written with a single `write_all` while holding an exclusive lock, so concurrent hooks never
//! interleave; strings are escaped by serde_json, so whatever bytes a verify printed the line stays valid JSON, and
//! the shell's active characters in them too, so no line can become a command if the file is sourced (`line`).
//! The file is opened without following a link or writing into a hard link someone planted (`fsutil::nofollow`).
//! Readers tolerate a torn final line (a crash mid-append) and report it instead of failing.
//!
//! Each line is a typed [`Record`]: the fields every record has, and an [`Event`] — one variant per [`Status`],
//! each with its own fields (`event`), verify runs carrying one [`VerifyResult`] (`verify`) that is described one
//! way everywhere. The keys are those the history always had, so files written before the types (the 0.1.0
//! fixture, `compat_tests`) read the same, and `jq` recipes keep working. Timestamps are date-times (`timestamp`).

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::fsutil;

/// One history line: the fields every record has, and the event with its own fields.
///
/// Serialized flat: `{"loop_id", "iteration", "status", "timestamp", …the event's fields}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    pub loop_id: String,
    pub iteration: u64,
    /// When the record was written (RFC 3339, UTC, whole seconds in the file).
    #[serde(with = "timestamp")]
    pub timestamp: DateTime<Utc>,
    #[serde(flatten)]
    pub event: Event,
}

impl Record {
    /// A record stamped now.
    pub fn new(loop_id: &str, iteration: u64, event: Event) -> Self {
        Self {
            loop_id: loop_id.to_string(),
            iteration,
            timestamp: timestamp::now(),
            event,
        }
    }

    /// The record's status (the event's name).
    pub fn status(&self) -> Status {
        self.event.status()
    }

    /// The timestamp as written in the file: `2026-11-21T19:40:00Z`.
    pub fn time(&self) -> String {
        timestamp::format(&self.timestamp)
    }
}

/// A record read from JSON as a history line would be, `loop_id` `l`, iteration 1 and a fixed time unless
/// given: for tests that build records of a kind with a few fields.
#[cfg(test)]
pub fn test_record(fields: serde_json::Value) -> Record {
    let mut line = serde_json::json!({"loop_id": "l", "iteration": 1, "timestamp": "2026-11-21T19:40:00Z"});
    if let (Some(line), Some(fields)) = (line.as_object_mut(), fields.as_object()) {
        line.extend(fields.clone());
    }
    serde_json::from_value(line).unwrap_or_else(|e| panic!("not a record: {e}"))
}

/// [`test_record`] of loop `loop_id` at `iteration`.
#[cfg(test)]
pub fn test_record_of(loop_id: &str, iteration: u64, fields: serde_json::Value) -> Record {
    let mut record = test_record(fields);
    record.loop_id = loop_id.to_string();
    record.iteration = iteration;
    record
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
    // One line a shell could source without running any of it (see `line`).
    let mut line = line::to_line(record).map_err(err)?;
    // Never through a link or a hard link someone planted at the name (`.claude/pua-loop-history.jsonl ->
    // ~/.bashrc`): the open refuses it with one line naming it (see `fsutil::nofollow`).
    let mut file = fsutil::open_append(path, 0o644).map_err(err)?;
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

/// Records of one loop, in order.
pub fn of_loop<'a>(records: &'a [Record], loop_id: &'a str) -> impl Iterator<Item = &'a Record> + 'a {
    records.iter().filter(move |r| r.loop_id == loop_id)
}

#[cfg(test)]
mod compat_tests;
pub mod event;
mod line;
mod scan;
mod status;
mod tail;
pub mod timestamp;
pub mod verify;
pub use event::Event;
pub use scan::{parse, parse_loop, read, read_loop};
pub use status::Status;
pub use tail::{TAIL_EVENTS, Tail, read_last, read_tail};
pub use verify::VerifyResult;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_valid_json_whatever_the_verify_printed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        let nasty = String::from_utf8_lossy(b"\xff\xfe bin \x00\x1b[31m red \\ back \" quote \n newline \t");
        append(&path, &test_record(serde_json::json!({"status": "init"}))).expect("append");
        let mut rejected = test_record(serde_json::json!({"status": "promise_rejected"}));
        if let Event::PromiseRejected(r) = &mut rejected.event {
            r.verify.tail = Some(nasty.to_string());
        }
        append(&path, &rejected).expect("append");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.lines().count(), 2);
        for line in text.lines() {
            serde_json::from_str::<serde_json::Value>(line).expect("valid json line");
        }
        let read = read(&path).expect("read");
        assert_eq!(read.records[1], rejected);
    }

    #[test]
    fn torn_final_line_is_reported_not_fatal() {
        let bytes =
            b"{\"loop_id\":\"a\",\"iteration\":1,\"status\":\"init\",\"timestamp\":\"2026-11-21T19:40:00Z\"}\n{\"loop_id\":\"a\",\"itera";
        let read = parse(bytes);
        assert_eq!(read.records.len(), 1);
        assert_eq!(read.bad_lines, vec![2]);
    }

    #[test]
    fn append_after_a_torn_line_starts_a_new_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "{\"loop_id\":\"a\",\"itera").expect("torn line");
        let range = append(&path, &test_record(serde_json::json!({"status": "init"}))).expect("append");
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
        append(&path, &test_record(serde_json::json!({"status": "init"}))).expect("append");
        assert!(
            std::fs::read_to_string(&path)
                .expect("read")
                .starts_with("{\"old\":true}\n")
        );
    }
}
