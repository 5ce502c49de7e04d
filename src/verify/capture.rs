//! Bounded capture of a verify command's output, and its bounded log file.
//!
//! A verify command may print gigabytes (a runaway test, `yes`); memory here is fixed whatever the
//! output size. All bytes pass through one ring of the last [`Limits::ring`] bytes, plus a small
//! head buffer. The log file gets the first [`Limits::log_head`] bytes as they arrive (so a person
//! can `tail -f` it during a long verify) and, at the end, a marker line `[… N bytes omitted …]`
//! and the last [`Limits::log_tail`] bytes: head and tail kept, never more than about 2 MiB.
//!
//! [`Lines`] cuts the same stream into lines for an observer, holding at most one [`MAX_LINE`] line.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// The longest line handed to a line observer; the rest of a longer line is dropped (memory stays bounded).
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// Size limits of the capture; [`Limits::DEFAULT`] in production, small ones in tests.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// Bytes of the start of the output kept in memory.
    pub(crate) head: usize,
    /// Bytes of the end of the output kept in memory for the outcome.
    pub(crate) tail: usize,
    /// Bytes of the start of the output streamed to the log.
    pub(crate) log_head: u64,
    /// Bytes of the end of the output appended to the log after the omission marker.
    pub(crate) log_tail: usize,
}

impl Limits {
    pub(super) const DEFAULT: Limits = Limits {
        head: 8 * 1024,
        tail: 32 * 1024,
        log_head: 1024 * 1024,
        log_tail: 1024 * 1024,
    };

    fn ring(self) -> usize {
        self.tail.max(self.log_tail)
    }
}

/// The captured output once the command is done.
pub(super) struct Captured {
    pub(crate) head: Vec<u8>,
    pub(crate) tail: Vec<u8>,
    pub(crate) total: u64,
}

/// Output accumulator: head buffer, tail ring and log file.
pub(super) struct Capture {
    limits: Limits,
    head: Vec<u8>,
    ring: Ring,
    total: u64,
    log: LogSink,
}

/// The log file; after the first write error it stops writing and keeps the error for `finish`.
struct LogSink {
    file: Option<File>,
    error: Option<io::Error>,
    ends_with_newline: bool,
}

impl LogSink {
    fn write(&mut self, parts: &[&[u8]]) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        for part in parts.iter().filter(|p| !p.is_empty()) {
            if let Err(err) = file.write_all(part) {
                self.error = Some(err);
                self.file = None;
                return;
            }
            self.ends_with_newline = part.ends_with(b"\n");
        }
    }
}

impl Capture {
    /// Creates the log file, which must not exist (each run writes a fresh one and renames it over the log), and
    /// its parent directories, never through a link (see `fsutil::nofollow`).
    pub(super) fn create(log_path: &Path, limits: Limits) -> io::Result<Capture> {
        let log = crate::fsutil::create_new(log_path, 0o644)?;
        Ok(Capture {
            limits,
            head: Vec::new(),
            ring: Ring::new(limits.ring()),
            total: 0,
            log: LogSink {
                file: Some(log),
                error: None,
                ends_with_newline: true,
            },
        })
    }

    /// Takes the next chunk of output.
    pub(super) fn push(&mut self, chunk: &[u8]) {
        let head_room = self.limits.head.saturating_sub(self.head.len());
        self.head.extend_from_slice(&chunk[..head_room.min(chunk.len())]);
        let log_room = self.limits.log_head.saturating_sub(self.total);
        let to_log = usize::try_from(log_room).unwrap_or(usize::MAX).min(chunk.len());
        if to_log > 0 {
            self.log.write(&[&chunk[..to_log]]);
        }
        self.ring.push(chunk);
        self.total += chunk.len() as u64;
    }

    /// Completes the log (marker and tail) and returns what was kept, or the first log error.
    pub(super) fn finish(mut self) -> io::Result<Captured> {
        let after_head = self.total.saturating_sub(self.limits.log_head);
        if after_head > 0 {
            let keep = usize::try_from(after_head)
                .unwrap_or(usize::MAX)
                .min(self.limits.log_tail);
            let omitted = after_head - keep as u64;
            if omitted > 0 {
                let lead = if self.log.ends_with_newline { "" } else { "\n" };
                let marker = format!("{lead}[… {omitted} bytes omitted …]\n");
                self.log.write(&[marker.as_bytes()]);
            }
            let (older, newer) = self.ring.last(keep);
            self.log.write(&[older, newer]);
        }
        if let Some(err) = self.log.error {
            return Err(err);
        }
        let (older, newer) = self.ring.last(self.limits.tail);
        Ok(Captured {
            head: self.head,
            tail: [older, newer].concat(),
            total: self.total,
        })
    }
}

/// Cuts the output into lines for an observer: each complete line without its `\n`, cut to [`MAX_LINE`] bytes.
#[derive(Default)]
pub(super) struct Lines {
    /// The start of the line being read (at most `MAX_LINE` bytes).
    partial: Vec<u8>,
    /// The line being read is longer than `MAX_LINE`; its rest is skipped up to the next `\n`.
    overlong: bool,
}

impl Lines {
    /// Takes the next chunk; calls `on_line` for every line it completes.
    pub(super) fn push(&mut self, mut chunk: &[u8], on_line: &mut (dyn FnMut(&[u8]) + Send)) {
        while let Some(end) = memchr::memchr(b'\n', chunk) {
            let (line, rest) = (&chunk[..end], &chunk[end + 1..]);
            if self.partial.is_empty() && !self.overlong {
                on_line(&line[..line.len().min(MAX_LINE)]);
            } else {
                self.keep(line);
                on_line(&self.partial);
                self.partial.clear();
                self.overlong = false;
            }
            chunk = rest;
        }
        self.keep(chunk);
    }

    /// The output ended: a last line without `\n` is a line too.
    pub(super) fn finish(mut self, on_line: &mut (dyn FnMut(&[u8]) + Send)) {
        if !self.partial.is_empty() || self.overlong {
            on_line(&self.partial);
            self.partial.clear();
        }
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = MAX_LINE - self.partial.len();
        if bytes.len() > room {
            self.overlong = true;
        }
        self.partial.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
}

/// The last `cap` bytes written, in a buffer allocated only as far as output arrives.
///
/// Invariant: while `buf.len() < cap`, `pos == 0` and `buf` is in order; once full, the oldest
/// byte is at `pos`.
struct Ring {
    buf: Vec<u8>,
    cap: usize,
    pos: usize,
}

impl Ring {
    fn new(cap: usize) -> Ring {
        Ring {
            buf: Vec::new(),
            cap,
            pos: 0,
        }
    }

    fn push(&mut self, mut data: &[u8]) {
        if self.cap == 0 {
            return;
        }
        if data.len() >= self.cap {
            self.buf.clear();
            self.buf.extend_from_slice(&data[data.len() - self.cap..]);
            self.pos = 0;
            return;
        }
        let room = self.cap - self.buf.len();
        if room > 0 {
            let n = room.min(data.len());
            self.buf.extend_from_slice(&data[..n]);
            data = &data[n..];
        }
        while !data.is_empty() {
            let n = (self.cap - self.pos).min(data.len());
            self.buf[self.pos..self.pos + n].copy_from_slice(&data[..n]);
            self.pos = (self.pos + n) % self.cap;
            data = &data[n..];
        }
    }

    /// The last `n` bytes (fewer if fewer were written) as two slices, older part first.
    fn last(&self, n: usize) -> (&[u8], &[u8]) {
        let skip = self.buf.len() - n.min(self.buf.len());
        let (newer, older) = self.buf.split_at(self.pos);
        if skip < older.len() {
            (&older[skip..], newer)
        } else {
            (&newer[skip - older.len()..], &[])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn ring_last(ring: &Ring, n: usize) -> Vec<u8> {
        let (a, b) = ring.last(n);
        [a, b].concat()
    }

    #[test]
    fn ring_keeps_the_last_bytes_across_wraps_and_big_writes() {
        let mut ring = Ring::new(5);
        ring.push(b"abc");
        assert_eq!(ring_last(&ring, 10), b"abc");
        ring.push(b"defg");
        assert_eq!(ring_last(&ring, 10), b"cdefg");
        assert_eq!(ring_last(&ring, 2), b"fg");
        ring.push(b"hi");
        assert_eq!(ring_last(&ring, 5), b"efghi");
        ring.push(b"0123456789");
        assert_eq!(ring_last(&ring, 5), b"56789");
        let all: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut ring = Ring::new(64);
        for chunk in all.chunks(7) {
            ring.push(chunk);
        }
        assert_eq!(ring_last(&ring, 64), &all[1000 - 64..]);
        assert_eq!(ring_last(&ring, 3), &all[997..]);
    }

    fn small() -> Limits {
        Limits {
            head: 4,
            tail: 6,
            log_head: 10,
            log_tail: 8,
        }
    }

    #[test]
    fn log_keeps_head_marker_and_tail_when_output_is_long() -> io::Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("nested/dir/verify.log");
        let mut capture = Capture::create(&path, small())?;
        let output: Vec<u8> = (b'a'..=b'z').collect();
        for chunk in output.chunks(3) {
            capture.push(chunk);
        }
        let captured = capture.finish()?;
        assert_eq!(captured.total, 26);
        assert_eq!(captured.head, b"abcd");
        assert_eq!(captured.tail, b"uvwxyz");
        assert_eq!(
            fs::read(&path)?,
            "abcdefghij\n[… 8 bytes omitted …]\nstuvwxyz".as_bytes()
        );
        Ok(())
    }

    #[test]
    fn log_is_the_whole_output_when_it_fits() -> io::Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("verify.log");
        for output in [&b"0123456789\n"[..], b"short", b"0123456789ABCDEFGH"] {
            let _ = fs::remove_file(&path);
            let mut capture = Capture::create(&path, small())?;
            capture.push(output);
            capture.finish()?;
            assert_eq!(fs::read(&path)?, output);
        }
        Ok(())
    }

    /// Feeds `chunks` to a [`Lines`] and returns the lines it handed out.
    fn lines_of(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut seen = Vec::new();
        let mut lines = Lines::default();
        let mut on_line = |line: &[u8]| seen.push(line.to_vec());
        for chunk in chunks {
            lines.push(chunk, &mut on_line);
        }
        lines.finish(&mut on_line);
        seen
    }

    #[test]
    fn lines_are_whole_across_chunk_boundaries_and_the_last_one_counts_without_newline() {
        let expected: Vec<Vec<u8>> = vec![b"test a ... ok".to_vec(), b"".to_vec(), b"test result: ok".to_vec()];
        assert_eq!(lines_of(&[b"test a ... ok\n\ntest result: ok"]), expected);
        assert_eq!(
            lines_of(&[b"test a", b" ... ok\n", b"\ntest res", b"ult: ok"]),
            expected
        );
        assert_eq!(lines_of(&[b"te", b"st a ... ok\n\n", b"test result: ok\n"]), expected);
        assert_eq!(lines_of(&[b""]), Vec::<Vec<u8>>::new());
        assert_eq!(
            lines_of(&[b"\r\n"]),
            vec![b"\r".to_vec()],
            "only the newline is cut off"
        );
    }

    #[test]
    fn an_overlong_line_is_cut_and_the_next_line_is_whole() {
        let long = vec![b'x'; MAX_LINE + 10];
        let whole = [long.as_slice(), b"\nnext\n"].concat();
        let expected = vec![vec![b'x'; MAX_LINE], b"next".to_vec()];
        assert_eq!(lines_of(&[&whole]), expected, "in one chunk");
        let pieces: Vec<&[u8]> = whole.chunks(1000).collect();
        assert_eq!(lines_of(&pieces), expected, "in many chunks");
        assert_eq!(
            lines_of(&[&long]),
            vec![vec![b'x'; MAX_LINE]],
            "at the end, without newline"
        );
    }

    #[test]
    fn unwritable_log_is_an_error_at_create() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("file");
        fs::write(&file, "x").expect("write");
        assert!(Capture::create(&file.join("verify.log"), small()).is_err());
    }
}
