//! Reading the end of one loop's history backwards, for `loopgate status`: its trajectory shows the latest
//! events, so the cost follows how many are shown, not how long the loop has run (a loop of 100,000 events is
//! read back only as far as its last [`TAIL_EVENTS`] events and its last verify).

use std::fs::File;
use std::io::{self, Read as _, Seek as _, SeekFrom};
use std::ops::Range;
use std::path::Path;

use super::scan::{Glance, leading_loop_id};

/// Events of the running loop that `status` shows in its trajectory.
pub const TAIL_EVENTS: usize = 60;
/// How far back (in events of the loop) `status` looks for the last verify before giving up.
const VERIFY_LOOKBACK: usize = 10_000;
/// Bytes read at a time, from the end.
const CHUNK: u64 = 256 * 1024;

/// The latest events of one loop.
#[derive(Debug, Default)]
pub struct Tail {
    /// At most [`TAIL_EVENTS`] glances, oldest first.
    pub glances: Vec<Glance>,
    /// Whether the loop has earlier events than these.
    pub truncated: bool,
    /// Where the loop's last verify record is, if one was found.
    pub last_verify: Option<Range<u64>>,
}

/// Reads `loop_id`'s latest events from the end of the history down to byte `floor` (where the loop began).
pub fn glance_tail(path: &Path, loop_id: &str, floor: u64) -> io::Result<Tail> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Tail::default()),
        Err(err) => return Err(err),
    };
    let mut tail = Tail::default();
    let mut seen = 0;
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
            if line.is_empty() || leading_loop_id(line).is_some_and(|id| id != loop_id.as_bytes()) {
                continue;
            }
            let Ok(mut glance) = serde_json::from_slice::<Glance>(line) else {
                continue;
            };
            if glance.loop_id != loop_id {
                continue;
            }
            let at = start + line_start as u64;
            glance.span = at..at + line.len() as u64;
            seen += 1;
            if tail.last_verify.is_none() && (glance.duration_ms.is_some() || glance.sealed_changes.is_some()) {
                tail.last_verify = Some(glance.span.clone());
            }
            if tail.glances.len() < TAIL_EVENTS {
                tail.glances.push(glance);
            } else {
                tail.truncated = true;
                if tail.last_verify.is_some() || seen > VERIFY_LOOKBACK {
                    tail.glances.reverse();
                    return Ok(tail);
                }
            }
        }
        carry = chunk[..first].to_vec();
        end = start;
    }
    tail.glances.reverse();
    Ok(tail)
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
        let tail = glance_tail(&path, "me", floor).expect("tail");
        assert_eq!(tail.glances.len(), TAIL_EVENTS);
        assert!(tail.truncated);
        let iterations: Vec<u64> = tail.glances.iter().map(|g| g.iteration).collect();
        assert_eq!(iterations, (240..300).collect::<Vec<_>>());
        let verify = tail.last_verify.expect("found the verify far back");
        let record = crate::history::read_span(&path, verify).expect("read").expect("record");
        assert_eq!(record.status(), Status::PromiseRejected);

        let short = glance_tail(&path, "nobody", floor).expect("tail");
        assert!(short.glances.is_empty() && !short.truncated && short.last_verify.is_none());
    }

    #[test]
    fn a_short_loop_is_read_whole_and_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        for i in 1..=5 {
            append(&path, &test_record_of("me", i, json!({"status": "continue"}))).expect("append");
        }
        let tail = glance_tail(&path, "me", 0).expect("tail");
        assert_eq!(
            tail.glances.iter().map(|g| g.iteration).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        assert!(!tail.truncated && tail.last_verify.is_none());
        assert!(
            glance_tail(&dir.path().join("missing"), "me", 0)
                .expect("tail")
                .glances
                .is_empty()
        );
    }
}
