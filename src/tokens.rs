//! The token budget (`--max-tokens`): usage summed from the session transcript, read incrementally.
//!
//! The transcript only grows, so a cursor (byte offset of the first unread line) lives in the state and each
//! stop reads just what was appended since the last one — never the whole file. Only complete lines are
//! consumed. Claude Code writes one line per content block of a message, each repeating the message's usage, so
//! usage is counted once per message id. What counts: input, output, cache-creation and cache-read tokens — all
//! the tokens the model processed, which is what a budget of this kind is meant to cap.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where the last read of the transcript stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    pub(crate) path: String,
    pub(crate) offset: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last_message_id: Option<String>,
}

/// Reads what was appended to `path` since `cursor` and returns the tokens it records. A different transcript
/// (another session adopted the loop) or a shorter file starts from the beginning.
pub(crate) fn advance(cursor: &mut Cursor, path: &Path) -> io::Result<u64> {
    let name = path.to_string_lossy();
    let mut file = crate::fsutil::open_regular(path)?;
    let len = file.metadata()?.len();
    if cursor.path != name || len < cursor.offset {
        *cursor = Cursor {
            path: name.into_owned(),
            ..Cursor::default()
        };
    }
    file.seek(SeekFrom::Start(cursor.offset))?;
    // What was there when this stop looked; lines appended meanwhile are read at the next stop.
    let mut reader = BufReader::with_capacity(256 * 1024, file.take(len - cursor.offset));
    let mut line = Vec::new();
    let mut total = 0;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 || line.last() != Some(&b'\n') {
            break; // end, or a line still being written: read it next time
        }
        cursor.offset += n as u64;
        total += usage_of(&line, &mut cursor.last_message_id);
    }
    Ok(total)
}

fn usage_of(line: &[u8], last_id: &mut Option<String>) -> u64 {
    if !line.windows(7).any(|w| w == b"\"usage\"") {
        return 0;
    }
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return 0;
    };
    let Some(message) = value.get("message") else { return 0 };
    let Some(usage) = message.get("usage") else { return 0 };
    let id = message.get("id").and_then(Value::as_str).map(str::to_string);
    if id.is_some() && id == *last_id {
        return 0;
    }
    *last_id = id;
    [
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
    ]
    .iter()
    .filter_map(|key| usage.get(key).and_then(Value::as_u64))
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::io::Write;

    fn assistant(id: &str, input: u64, output: u64) -> String {
        serde_json::json!({"type": "assistant", "message": {"id": id, "role": "assistant",
            "usage": {"input_tokens": input, "output_tokens": output, "cache_read_input_tokens": 1}}})
        .to_string()
    }

    #[test]
    fn counts_each_message_once_and_reads_only_what_was_appended() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.jsonl");
        let mut file = File::create(&path).expect("create");
        writeln!(file, "{}", assistant("m1", 10, 5)).expect("write");
        writeln!(file, "{}", assistant("m1", 10, 5)).expect("write");
        writeln!(file, "{{\"type\":\"user\",\"message\":{{\"content\":\"hi\"}}}}").expect("write");
        let mut cursor = Cursor::default();
        assert_eq!(advance(&mut cursor, &path).expect("read"), 16);
        assert_eq!(advance(&mut cursor, &path).expect("read"), 0, "nothing new");
        writeln!(file, "{}", assistant("m2", 100, 1)).expect("write");
        write!(file, "{}", assistant("m3", 7, 7)).expect("write");
        assert_eq!(
            advance(&mut cursor, &path).expect("read"),
            102,
            "partial last line waits"
        );
        writeln!(file).expect("write");
        assert_eq!(advance(&mut cursor, &path).expect("read"), 15);
    }

    #[test]
    fn another_or_shorter_transcript_starts_over() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
        std::fs::write(&a, format!("{}\n", assistant("x", 1, 1))).expect("write");
        std::fs::write(&b, format!("{}\n", assistant("y", 2, 2))).expect("write");
        let mut cursor = Cursor::default();
        assert_eq!(advance(&mut cursor, &a).expect("read"), 3);
        assert_eq!(advance(&mut cursor, &b).expect("read"), 5);
        std::fs::write(&b, "").expect("truncate");
        assert_eq!(advance(&mut cursor, &b).expect("read"), 0);
        assert_eq!(cursor.offset, 0);
    }
}
