//! Reading one loop out of the history without parsing the others.
//!
//! The history holds every loop the project ever ran, and parsing JSON is nearly all the cost of reading it. A
//! record whose `loop_id` is the id has the id verbatim in its line, unless its JSON spells the id with `\u`
//! escapes (loopgate never does; a hand-edited line might). So lines holding neither the id nor a `\u` are
//! skipped by a substring search (SIMD, gigabytes per second), and only the others are parsed: the result is the
//! same as parsing every line and filtering by `loop_id`. (An id that JSON itself must escape — `"`, `\`, `/`,
//! control characters; never one loopgate makes — could be spelled many ways: then every line is parsed.)
//!
//! Files are read in fixed-size chunks, so memory follows the size of what is kept, not of the history. For
//! `loopgate status`, which shows one glyph per recent event of the running loop (read backwards by `tail`), a
//! [`Glance`] keeps only the fields it reads and skips the big ones (verify tails, summaries) without copying them.

use std::fs::File;
use std::io::{self, Read as _, Seek as _, SeekFrom};
use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::{Read, Record, Status};

/// Bytes read from the history at a time.
const CHUNK: usize = 1024 * 1024;

/// Reads the records of one loop; a missing file is an empty history. The same as [`parse_loop`] on the whole
/// file.
pub fn read_loop(path: &Path, loop_id: &str) -> io::Result<Read> {
    let (records, bad_lines) = scan_file(path, loop_id)?;
    Ok(Read { records, bad_lines })
}

/// The records of one loop, in order: the same as [`super::parse`] then [`super::of_loop`], without parsing the other
/// loops' lines. `bad_lines` lists the lines that might have been this loop's and did not parse.
pub fn parse_loop(bytes: &[u8], loop_id: &str) -> Read {
    let mut scan = LoopScan::new(loop_id);
    scan.feed(bytes);
    Read {
        records: scan.items,
        bad_lines: scan.bad_lines,
    }
}

/// The fields of a record that `loopgate status` reads for every event of a loop (its trajectory), and where the
/// whole record is in the file. Fields that may be absent keep JSON `null` apart from absence (an old line's `null`
/// is passed on to [`Glance::to_record`] as it was). A line loopgate wrote is a valid `Glance` exactly when it is a
/// valid [`Record`]; a hand-written one may not be (say, a bad `timestamp`): `to_record` then gives `None`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Glance {
    pub loop_id: String,
    pub iteration: u64,
    pub status: Status,
    pub timestamp: String,
    #[serde(default, deserialize_with = "present")]
    pub tree_changed: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub timed_out: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub score: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub sealed_changes: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub duration_ms: Option<Value>,
    /// Where the record's line is in the history file (see [`read_span`]).
    #[serde(skip)]
    pub span: Range<u64>,
}

/// A present field, `null` included (plain `Option` would read `null` as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl Glance {
    /// The record with only the glanced fields: enough for `trajectory::strip`. `None` if they do not make a
    /// valid record (a line that is a valid `Glance` but not a valid [`Record`]).
    pub fn to_record(&self) -> Option<Record> {
        let mut map = Map::new();
        map.insert("loop_id".into(), Value::from(self.loop_id.as_str()));
        map.insert("iteration".into(), Value::from(self.iteration));
        map.insert("status".into(), Value::from(self.status.as_str()));
        map.insert("timestamp".into(), Value::from(self.timestamp.as_str()));
        let fields = [
            ("tree_changed", &self.tree_changed),
            ("timed_out", &self.timed_out),
            ("score", &self.score),
            ("sealed_changes", &self.sealed_changes),
            ("duration_ms", &self.duration_ms),
        ];
        for (key, value) in fields {
            if let Some(value) = value {
                map.insert(key.to_string(), value.clone());
            }
        }
        serde_json::from_value(Value::Object(map)).ok()
    }
}

/// The whole record at `span` of the history (from a [`Glance`]); `None` if it no longer parses.
pub fn read_span(path: &Path, span: Range<u64>) -> io::Result<Option<Record>> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(span.start))?;
    let mut line = Vec::new();
    file.take(span.end.saturating_sub(span.start)).read_to_end(&mut line)?;
    Ok(serde_json::from_slice(&line).ok())
}

/// The last valid record of the history (`None` for a missing or empty one), read from the end of the file:
/// the same as the last of [`super::read`]'s records, without reading the rest.
pub fn read_last(path: &Path) -> io::Result<Option<Record>> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err),
    };
    let len = file.metadata()?.len();
    let mut window: u64 = 64 * 1024;
    loop {
        let start = len.saturating_sub(window);
        file.seek(SeekFrom::Start(start))?;
        let mut bytes = Vec::new();
        (&mut file).take(len - start).read_to_end(&mut bytes)?;
        // The first piece may be the end of a longer line, unless the window reaches the start of the file.
        let whole = if start == 0 {
            &bytes[..]
        } else {
            memchr::memchr(b'\n', &bytes).map_or(&bytes[..0], |i| &bytes[i + 1..])
        };
        if let Some(record) = last_record(whole) {
            return Ok(Some(record));
        }
        if start == 0 {
            return Ok(None);
        }
        window = window.saturating_mul(4);
    }
}

/// The last valid record in history bytes, found by parsing lines from the end.
pub fn last_record(bytes: &[u8]) -> Option<Record> {
    bytes
        .rsplit(|&b| b == b'\n')
        .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
        .find_map(|line| serde_json::from_slice(line).ok())
}

/// Scans a history file in chunks of whole lines.
fn scan_file(path: &Path, loop_id: &str) -> io::Result<(Vec<Record>, Vec<usize>)> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(err) => return Err(err),
    };
    let mut scan = LoopScan::new(loop_id);
    // `buf[..filled]` holds what was read and not yet scanned: the start of a line whose end is still to come.
    let mut buf = vec![0u8; CHUNK];
    let mut filled = 0;
    loop {
        if filled == buf.len() {
            buf.resize(buf.len() * 2, 0); // a line longer than the buffer
        }
        let n = match file.read(&mut buf[filled..]) {
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if n == 0 {
            scan.feed(&buf[..filled]);
            return Ok((scan.items, scan.bad_lines));
        }
        filled += n;
        // Complete lines now, the partial last one with the next read.
        if let Some(last) = memchr::memrchr(b'\n', &buf[..filled]) {
            scan.feed(&buf[..=last]);
            buf.copy_within(last + 1..filled, 0);
            filled -= last + 1;
        }
    }
}

/// The state of a scan over a history fed in pieces of whole lines.
struct LoopScan<'a> {
    loop_id: &'a str,
    /// Finds the id or a `\u` escape; `None` when the id itself would need escaping (every line is parsed then).
    finder: Option<regex::bytes::Regex>,
    items: Vec<Record>,
    bad_lines: Vec<usize>,
    /// Lines fed so far.
    lines: usize,
}

impl<'a> LoopScan<'a> {
    fn new(loop_id: &'a str) -> Self {
        let plain = !loop_id.is_empty()
            && !loop_id
                .chars()
                .any(|c| c == '"' || c == '\\' || c == '/' || c.is_control());
        let finder = plain
            .then(|| regex::bytes::Regex::new(&format!("{}|{}", regex::escape(loop_id), regex::escape("\\u"))).ok())
            .flatten();
        Self {
            loop_id,
            finder,
            items: Vec::new(),
            bad_lines: Vec::new(),
            lines: 0,
        }
    }

    /// Scans `bytes`: whole lines (only the history's last line may lack its newline).
    fn feed(&mut self, bytes: &[u8]) {
        let mut bad_starts = Vec::new();
        let finder = self.finder.take();
        match &finder {
            Some(finder) => {
                let mut from = 0;
                while let Some(found) = finder.find_at(bytes, from) {
                    let start = memchr::memrchr(b'\n', &bytes[..found.start()]).map_or(0, |i| i + 1);
                    let end = memchr::memchr(b'\n', &bytes[found.end()..]).map_or(bytes.len(), |i| found.end() + i);
                    if !self.consider(&bytes[start..end]) {
                        bad_starts.push(start);
                    }
                    from = end + 1;
                    if from >= bytes.len() {
                        break;
                    }
                }
            }
            None => {
                let mut start = 0;
                for line in bytes.split(|&b| b == b'\n') {
                    if !line.iter().all(u8::is_ascii_whitespace) && !self.consider(line) {
                        bad_starts.push(start);
                    }
                    start += line.len() + 1;
                }
            }
        }
        self.finder = finder;
        // Line numbers of the bad lines (rare), then the running totals.
        let (mut number, mut counted) = (self.lines + 1, 0);
        for start in bad_starts {
            number += memchr::memchr_iter(b'\n', &bytes[counted..start]).count();
            counted = start;
            self.bad_lines.push(number);
        }
        self.lines += memchr::memchr_iter(b'\n', bytes).count();
    }

    /// Keeps the line at `start` of the fed bytes if it is this loop's; false if it does not parse.
    fn consider(&mut self, line: &[u8]) -> bool {
        // Lines loopgate writes begin with the loop id; one that begins with another id is not this loop's record
        // (a second `loop_id` key would make it no record at all), so it is not parsed — a line holding a `\u`
        // escape (colored test output) costs a substring check, not a parse.
        if leading_loop_id(line).is_some_and(|id| id != self.loop_id.as_bytes()) {
            return true;
        }
        match serde_json::from_slice::<Record>(line).ok() {
            Some(item) if item.loop_id == self.loop_id => {
                self.items.push(item);
                true
            }
            Some(_) => true,
            None => false,
        }
    }
}

/// The id of a line that begins `{"loop_id":"ID"` (as every line loopgate writes does), when ID has no escapes.
pub(super) fn leading_loop_id(line: &[u8]) -> Option<&[u8]> {
    let rest = line.strip_prefix(br#"{"loop_id":""#)?;
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    (rest[end] == b'"').then(|| &rest[..end])
}

#[cfg(test)]
mod tests;
