//! The session's usage, read incrementally from Claude Code's transcript: what `--max-tokens` counts and what
//! `--max-cost` prices (with the table of `cost`).
//!
//! The transcript only grows, so a cursor (byte offset of the first unread line) lives in the state and each
//! stop reads just what was appended since the last one — never the whole file again. Only complete lines are
//! consumed: a line still being written is read at the next stop. A different file (another session adopted
//! the loop, the file was replaced: another inode) or a shorter one starts from its beginning. A line that is
//! not JSON, or has no `message.usage`, counts nothing.
//!
//! Claude Code writes one line per content block of a message, each repeating the message's usage (a streamed
//! message's later lines may carry more output tokens than its first), so a message counts once, at the most
//! any of its lines reported: the cursor keeps the last message's id and what was counted for it, and a later
//! line of the same message adds only what it reports beyond that. Lines stamped before the loop started (the
//! conversation before `/pua-loop`) count nothing. What counts: input, output, cache-creation and cache-read
//! tokens, per model (the transcript names each message's `model`).

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cost::Tokens;

/// Where the last read of the transcript stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    pub(crate) path: String,
    pub(crate) offset: u64,
    /// The file's inode when it was last read: a file replaced under the same name is read from its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) inode: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last_message_id: Option<String>,
    /// What was counted for the last message so far (its lines may repeat or grow its usage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last_counted: Option<Tokens>,
}

/// The usage one read found, per model, in the order the models first appeared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    pub(crate) per_model: Vec<(String, Tokens)>,
    /// Lines that carried a usage (whether or not they added to it).
    pub(crate) reports: u64,
}

impl Usage {
    /// Every kind of every model, summed.
    pub(crate) fn all(&self) -> u64 {
        self.per_model.iter().map(|(_, t)| t.all()).sum()
    }

    fn add(&mut self, model: &str, tokens: Tokens) {
        match self.per_model.iter_mut().find(|(m, _)| m == model) {
            Some((_, sum)) => *sum = sum.plus(tokens),
            None => self.per_model.push((model.to_string(), tokens)),
        }
    }
}

/// Reads what was appended to `path` since `cursor` and returns the usage it records; lines stamped before
/// `since` count nothing.
pub(crate) fn advance(cursor: &mut Cursor, path: &Path, since: Option<DateTime<Utc>>) -> io::Result<Usage> {
    let name = path.to_string_lossy();
    let mut file = crate::fsutil::open_regular(path)?;
    let meta = file.metadata()?;
    let len = meta.len();
    let inode = Some(meta.ino());
    let replaced = cursor.inode.is_some() && cursor.inode != inode;
    if cursor.path != name || len < cursor.offset || replaced {
        *cursor = Cursor {
            path: name.into_owned(),
            ..Cursor::default()
        };
    }
    cursor.inode = inode;
    file.seek(SeekFrom::Start(cursor.offset))?;
    // What was there when this stop looked; lines appended meanwhile are read at the next stop.
    let mut reader = BufReader::with_capacity(256 * 1024, file.take(len - cursor.offset));
    let mut line = Vec::new();
    let mut usage = Usage::default();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 || line.last() != Some(&b'\n') {
            break; // end, or a line still being written: read it next time
        }
        cursor.offset += n as u64;
        if let Some((model, tokens)) = usage_of(&line, cursor, since) {
            usage.reports += 1;
            usage.add(&model, tokens);
        }
    }
    Ok(usage)
}

/// The model and the tokens `line` adds, if it reports a message's usage.
fn usage_of(line: &[u8], cursor: &mut Cursor, since: Option<DateTime<Utc>>) -> Option<(String, Tokens)> {
    if !line.windows(7).any(|w| w == b"\"usage\"") {
        return None;
    }
    let value = serde_json::from_slice::<Value>(line).ok()?;
    let message = value.get("message")?;
    let reported = Tokens::from_usage(message.get("usage").filter(|u| u.is_object())?);
    let before_the_loop = since.is_some_and(|since| {
        value
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(|t| DateTime::parse_from_rfc3339(t.trim()).ok())
            .is_some_and(|at| at < since)
    });
    if before_the_loop {
        return None;
    }
    let model = message.get("model").and_then(Value::as_str).unwrap_or("?").to_string();
    let id = message.get("id").and_then(Value::as_str).map(str::to_string);
    let counted = match (&id, &cursor.last_counted) {
        (Some(_), Some(counted)) if id == cursor.last_message_id => *counted,
        _ => Tokens::default(),
    };
    let most = Tokens {
        input: reported.input.max(counted.input),
        output: reported.output.max(counted.output),
        cache_read: reported.cache_read.max(counted.cache_read),
        cache_write: reported.cache_write.max(counted.cache_write),
    };
    cursor.last_message_id = id;
    cursor.last_counted = Some(most);
    Some((
        model,
        Tokens {
            input: most.input - counted.input,
            output: most.output - counted.output,
            cache_read: most.cache_read - counted.cache_read,
            cache_write: most.cache_write - counted.cache_write,
        },
    ))
}

#[cfg(test)]
mod tests;
