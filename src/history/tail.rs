//! Reading the history backwards from its end, for what sits at its end: the latest events of the running loop
//! (`loopgate status` shows them as its trajectory, with the loop's last verify) and the history's last record.
//! The cost follows how much is read back, not how long the history is: a loop of 100,000 events is read back only
//! as far as its last [`TAIL_EVENTS`] events and its last verify. Lines become typed records in one place
//! ([`read_line`], shared with the forward reader `scan`).

use std::fs::File;
use std::io::{self, Read as _, Seek as _, SeekFrom};
use std::ops::ControlFlow;
use std::path::Path;

use super::Record;
use super::scan::{Line, read_line};

/// Events of the running loop that `status` shows in its trajectory.
pub const TAIL_EVENTS: usize = 60;
/// How far back (in events of the loop) `status` looks for the last verify before giving up.
const VERIFY_LOOKBACK: usize = 10_000;
/// Bytes read at a time, from the end.
const CHUNK: u64 = 256 * 1024;

/// The latest events of one loop.
#[derive(Debug, Default)]
pub struct Tail {
    /// At most [`TAIL_EVENTS`] records, oldest first.
    pub records: Vec<Record>,
    /// Whether the loop has earlier events than these.
    pub truncated: bool,
    /// The loop's last record with a verify run (`duration_ms`) or a broken seal (`sealed_changes`), if one was
    /// found.
    pub last_verify: Option<Record>,
}

/// Reads `loop_id`'s latest events from the end of the history down to byte `floor` (where the loop began).
pub fn read_tail(path: &Path, loop_id: &str, floor: u64) -> io::Result<Tail> {
    let mut tail = Tail::default();
    let mut seen = 0;
    lines_back(path, floor, |line| {
        let Line::Record(record) = read_line(line, Some(loop_id)) else {
            return ControlFlow::Continue(());
        };
        seen += 1;
        let verified = record
            .event
            .verify()
            .is_some_and(|v| v.duration_ms.is_some() || v.sealed_changes.is_some());
        if tail.last_verify.is_none() && verified {
            tail.last_verify = Some(record.clone());
        }
        if tail.records.len() < TAIL_EVENTS {
            tail.records.push(record);
        } else {
            tail.truncated = true;
            if tail.last_verify.is_some() || seen > VERIFY_LOOKBACK {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })?;
    tail.records.reverse();
    Ok(tail)
}

/// The last valid record of the history (`None` for a missing or empty one), read from the end of the file:
/// the same as the last of [`super::read`]'s records, without reading the rest.
pub fn read_last(path: &Path) -> io::Result<Option<Record>> {
    let mut last = None;
    lines_back(path, 0, |line| match read_line(line, None) {
        Line::Record(record) => {
            last = Some(record);
            ControlFlow::Break(())
        }
        Line::Other | Line::Bad => ControlFlow::Continue(()),
    })?;
    Ok(last)
}

/// Calls `visit` with each line (without its newline) of the file at `path`, from the last one back to the one
/// starting at byte `floor`, until it breaks. A missing file has no lines.
fn lines_back(path: &Path, floor: u64, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> io::Result<()> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    let mut end = file.metadata()?.len();
    // Bytes after the last newline of the chunk before: the end of a line that starts in an earlier chunk.
    let mut carry: Vec<u8> = Vec::new();
    while end > floor {
        let start = end.saturating_sub(CHUNK).max(floor);
        let mut chunk = Vec::with_capacity(usize::try_from(end - start).unwrap_or(0) + carry.len());
        file.seek(SeekFrom::Start(start))?;
        (&mut file).take(end - start).read_to_end(&mut chunk)?;
        chunk.extend_from_slice(&carry);
        // Unless the chunk starts at the floor, its first piece may be part of a longer line: keep it for later.
        let first = if start > floor {
            memchr::memchr(b'\n', &chunk).map_or(chunk.len(), |i| i + 1)
        } else {
            0
        };
        let mut line_end = chunk.len();
        for line_start in memchr::memrchr_iter(b'\n', &chunk[first..])
            .map(|i| first + i + 1)
            .chain([first])
        {
            if line_start > line_end {
                continue;
            }
            let line = &chunk[line_start..line_end];
            line_end = line_start.saturating_sub(1);
            if visit(line).is_break() {
                return Ok(());
            }
        }
        carry = chunk[..first].to_vec();
        end = start;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::history::{Status, append, test_record_of};

    #[test]
    fn reads_the_latest_events_of_one_loop_across_chunks() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        append(&path, &test_record_of("other", 1, json!({"status": "init"}))).expect("append");
        let floor = std::fs::metadata(&path).expect("meta").len();
        append(&path, &test_record_of("me", 1, json!({"status": "init"}))).expect("append");
        append(
            &path,
            &test_record_of("me", 1, json!({"status": "promise_rejected", "duration_ms": 5})),
        )
        .expect("append");
        let big = "x".repeat(300 * 1024);
        for i in 2..300 {
            let stat = if i == 150 { big.as_str() } else { "" };
            let record = test_record_of("me", i, json!({"status": "continue", "diff_stat": stat}));
            append(&path, &record).expect("append");
            append(&path, &test_record_of("other", i, json!({"status": "continue"}))).expect("append");
        }
        let tail = read_tail(&path, "me", floor).expect("tail");
        assert_eq!(tail.records.len(), TAIL_EVENTS);
        assert!(tail.truncated);
        let iterations: Vec<u64> = tail.records.iter().map(|r| r.iteration).collect();
        assert_eq!(iterations, (240..300).collect::<Vec<_>>());
        let record = tail.last_verify.expect("found the verify far back");
        assert_eq!((record.status(), record.iteration), (Status::PromiseRejected, 1));

        let short = read_tail(&path, "nobody", floor).expect("tail");
        assert!(short.records.is_empty() && !short.truncated && short.last_verify.is_none());
    }

    #[test]
    fn a_short_loop_is_read_whole_and_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        for i in 1..=5 {
            append(&path, &test_record_of("me", i, json!({"status": "continue"}))).expect("append");
        }
        let tail = read_tail(&path, "me", 0).expect("tail");
        assert_eq!(
            tail.records.iter().map(|r| r.iteration).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        assert!(!tail.truncated && tail.last_verify.is_none());
        assert!(
            read_tail(&dir.path().join("missing"), "me", 0)
                .expect("tail")
                .records
                .is_empty()
        );
    }
}
