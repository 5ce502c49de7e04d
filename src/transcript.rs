//! Fallback reader for the last assistant message, used only when the hook input lacks
//! `last_assistant_message` (older clients).
//!
//! The transcript is JSONL that grows for the whole session; it is read backwards from its end in fixed-size
//! chunks, so the cost depends on the size of the last turn, not of the transcript. A scan gives up after
//! [`MAX_SCAN`] bytes rather than reading a huge file.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

const CHUNK: u64 = 64 * 1024;
/// How far back from the end a scan may read.
const MAX_SCAN: u64 = 32 * 1024 * 1024;

/// The text of the last assistant entry that has any, or `None`.
pub(crate) fn last_assistant_text(path: &Path) -> std::io::Result<Option<String>> {
    last_entry(path, assistant_text)
}

/// What `entry` makes of the last line, read backwards from the end, of which it makes anything: the reader
/// for another agent's transcript format (Gemini CLI's, `hook::agent::gemini`).
pub(crate) fn last_entry(path: &Path, entry: fn(&[u8]) -> Option<String>) -> std::io::Result<Option<String>> {
    let mut file = crate::fsutil::open_regular(path)?;
    let len = file.metadata()?.len();
    let floor = len.saturating_sub(MAX_SCAN);
    let mut end = len;
    // Bytes after the last newline seen so far: a line split across chunk borders.
    let mut carry: Vec<u8> = Vec::new();
    while end > floor {
        let start = end.saturating_sub(CHUNK).max(floor);
        let mut chunk = vec![0u8; usize::try_from(end - start).unwrap_or(0)];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut chunk)?;
        chunk.extend_from_slice(&carry);
        let mut lines: Vec<&[u8]> = chunk.split(|&b| b == b'\n').collect();
        // The first piece may be a partial line unless we are at the start of the scan range.
        let partial = if start > floor {
            lines.remove(0).to_vec()
        } else {
            Vec::new()
        };
        for line in lines.iter().rev() {
            if let Some(text) = entry(line) {
                return Ok(Some(text));
            }
        }
        carry = partial;
        end = start;
    }
    Ok(None)
}

fn assistant_text(line: &[u8]) -> Option<String> {
    // Cheap pre-filter before parsing JSON.
    if !contains(line, b"\"assistant\"") {
        return None;
    }
    let value: Value = serde_json::from_slice(line).ok()?;
    if value.get("type")?.as_str()? != "assistant" {
        return None;
    }
    let content = value.get("message")?.get("content")?;
    let text = match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::io::Write;

    fn line(kind: &str, text: &str) -> String {
        serde_json::json!({"type": kind, "message": {"role": kind, "content": [{"type": "text", "text": text}]}})
            .to_string()
    }

    #[test]
    fn finds_the_last_assistant_text_across_chunk_borders() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.jsonl");
        let mut file = File::create(&path).expect("create");
        writeln!(file, "{}", line("assistant", "old")).expect("write");
        let big = "x".repeat(200 * 1024);
        writeln!(
            file,
            "{}",
            line("assistant", &format!("{big}<promise>LOOP_DONE</promise>"))
        )
        .expect("write");
        writeln!(file, "{}", line("user", "tool result")).expect("write");
        writeln!(
            file,
            "{{\"type\":\"assistant\",\"message\":{{\"content\":[{{\"type\":\"tool_use\"}}]}}}}"
        )
        .expect("write");
        drop(file);
        let text = last_assistant_text(&path).expect("read").expect("found");
        assert!(text.ends_with("<promise>LOOP_DONE</promise>") && text.len() > 200 * 1024);
    }

    #[test]
    fn no_assistant_text_is_none_and_garbage_is_skipped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, format!("not json\n{}\n\u{0}\u{1}", line("user", "hi"))).expect("write");
        assert_eq!(last_assistant_text(&path).expect("read"), None);
    }
}
