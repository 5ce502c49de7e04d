//! Reading the history forwards: every record, or one loop's without parsing the others. With `tail` (reading
//! backwards from the end) this is the one reader of the history, and [`read_line`] the one place a line becomes a
//! typed [`Record`]: its keys are the serde names of `Record` and `Event`, nowhere else.
//!
//! The history holds every loop the project ever ran, and parsing JSON is nearly all the cost of reading it. A
//! record whose `loop_id` is the id has the id verbatim in its line, unless its JSON spells the id with `\u`
//! escapes (loopgate never does in an id — it writes `\u` only for control characters and the shell's active
//! characters in other strings, see `line`; a hand-edited line might). So lines holding neither the id nor a `\u` are
//! skipped by a substring search (SIMD, gigabytes per second), and only the others are parsed: the result is the
//! same as parsing every line and filtering by `loop_id`. (An id that JSON itself must escape — `"`, `\`, `/`,
//! control characters; never one loopgate makes — could be spelled many ways: then every line is parsed.)
//!
//! Files are read in fixed-size chunks, so memory follows the size of what is kept, not of the history.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::Path;

use super::{Read, Record};

/// Bytes read from the history at a time.
const CHUNK: usize = 1024 * 1024;

/// Reads the whole history; a missing file is an empty history.
pub fn read(path: &Path) -> io::Result<Read> {
    scan_file(path, None)
}

/// Parses history bytes, keeping what is valid and noting what is not.
pub fn parse(bytes: &[u8]) -> Read {
    let mut scan = LoopScan::new(None);
    scan.feed(bytes);
    scan.into_read()
}

/// Reads the records of one loop; a missing file is an empty history. The same as [`parse_loop`] on the whole
/// file.
pub fn read_loop(path: &Path, loop_id: &str) -> io::Result<Read> {
    scan_file(path, Some(loop_id))
}

/// The records of one loop, in order: the same as [`parse`] then [`super::of_loop`], without parsing the other
/// loops' lines. `bad_lines` lists the lines that might have been this loop's and did not parse.
pub fn parse_loop(bytes: &[u8], loop_id: &str) -> Read {
    let mut scan = LoopScan::new(Some(loop_id));
    scan.feed(bytes);
    scan.into_read()
}

/// What one line of the history is to a reader of one loop (of every loop: `None`).
#[allow(clippy::large_enum_variant)] // returned once per line and unpacked at once, never stored
pub(super) enum Line {
    /// A record of the loop.
    Record(Record),
    /// Blank, or another loop's record.
    Other,
    /// Not a valid record (a torn line after a crash, a hand edit).
    Bad,
}

/// Reads one line (without its newline) for the reader of `loop_id` (every loop: `None`). A line that begins
/// with another loop's id is not parsed: see [`leading_loop_id`].
pub(super) fn read_line(line: &[u8], loop_id: Option<&str>) -> Line {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Other;
    }
    if let Some(id) = loop_id
        && leading_loop_id(line).is_some_and(|leading| leading != id.as_bytes())
    {
        return Line::Other;
    }
    match serde_json::from_slice::<Record>(line) {
        Ok(record) if loop_id.is_none_or(|id| record.loop_id == id) => Line::Record(record),
        Ok(_) => Line::Other,
        Err(_) => Line::Bad,
    }
}

/// Scans a history file in chunks of whole lines.
fn scan_file(path: &Path, loop_id: Option<&str>) -> io::Result<Read> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Read::default()),
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
            return Ok(scan.into_read());
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
    /// The loop read; `None`: every loop.
    loop_id: Option<&'a str>,
    /// Finds the id or a `\u` escape; `None` when the id itself would need escaping (every line is parsed then).
    finder: Option<regex::bytes::Regex>,
    items: Vec<Record>,
    bad_lines: Vec<usize>,
    /// Lines fed so far.
    lines: usize,
}

impl<'a> LoopScan<'a> {
    fn new(loop_id: Option<&'a str>) -> Self {
        let plain =
            |id: &str| !id.is_empty() && !id.chars().any(|c| c == '"' || c == '\\' || c == '/' || c.is_control());
        let finder = loop_id
            .filter(|id| plain(id))
            .and_then(|id| regex::bytes::Regex::new(&format!("{}|{}", regex::escape(id), regex::escape("\\u"))).ok());
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

    /// Keeps the line if it is a record of the loop read; false if it does not parse.
    fn consider(&mut self, line: &[u8]) -> bool {
        match read_line(line, self.loop_id) {
            Line::Record(record) => {
                self.items.push(record);
                true
            }
            Line::Other => true,
            Line::Bad => false,
        }
    }

    fn into_read(self) -> Read {
        Read {
            records: self.items,
            bad_lines: self.bad_lines,
        }
    }
}

/// Lines loopgate writes begin with the loop id; one that begins with another id is not the record of the loop
/// read (a second `loop_id` key would make it no record at all), so it is not parsed — a line holding a `\u`
/// escape (colored test output) costs a substring check, not a parse.
///
/// The id of a line that begins `{"loop_id":"ID"` (as every line loopgate writes does), when ID has no escapes.
pub(super) fn leading_loop_id(line: &[u8]) -> Option<&[u8]> {
    let rest = line.strip_prefix(br#"{"loop_id":""#)?;
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    (rest[end] == b'"').then(|| &rest[..end])
}

#[cfg(test)]
mod tests;
