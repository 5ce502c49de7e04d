//! Marks on files loopgate writes inside the project — the history and the verify logs — so that an edit by
//! anyone else is noticed. A mark is the length, modification time and SHA-256 of a byte range of a file.
//!
//! Checking is cheap when nothing happened: equal length and modification time skip the hash. Otherwise the
//! marked range is re-hashed; a shorter file, different bytes in the range, or bytes after it that loopgate did
//! not append are reported. (An attacker who restores the modification time by hand is a hostile process, which
//! the README's threat model leaves out of scope.)
//!
//! Re-marking the history after each append is cheap too: the mark keeps SHA-256's state after the range's whole
//! 64-byte blocks ([`Midstate`]), and when the file is still as marked — the same length and modification time,
//! the test [`FileMark::check`] trusts without hashing — the new mark goes on from that state over the last
//! partial block and the appended bytes instead of re-reading the loop's whole history at every stop. The digest
//! is the same SHA-256 of the same range a full hash gives, so checking is unchanged; a file that is not as marked
//! is hashed in full, as before.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::digest::generic_array::GenericArray;

use crate::fsutil;

/// A byte range of a file as loopgate last left it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileMark {
    /// Where the marked range starts (the history: where this loop's first record begins).
    pub start: u64,
    /// File length when marked; the range is `start..len`.
    pub len: u64,
    pub mtime_ns: i128,
    pub sha256: String,
    /// Where the hash stood after the range's whole blocks, for the next mark of a file that only grew (marks of
    /// the history only; a seal written before this field lacks it, and its next mark hashes in full).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Midstate>,
}

/// SHA-256's state after the first `hashed` bytes of a marked range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Midstate {
    /// Bytes of the range in `state`: a multiple of 64.
    pub hashed: u64,
    /// The eight state words, big-endian hex.
    pub state: String,
}

/// What a check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkCheck {
    Unchanged,
    Missing,
    Truncated,
    Edited,
    Appended,
}

impl FileMark {
    /// Marks `start..` of the file as it is now.
    pub fn take(path: &Path, start: u64) -> io::Result<Self> {
        let meta = std::fs::metadata(path)?;
        let len = meta.len();
        Ok(Self {
            start: start.min(len),
            len,
            mtime_ns: mtime_ns(&meta),
            sha256: hash_range(path, start.min(len), len)?,
            resume: None,
        })
    }

    /// Marks `start..` of a file loopgate just appended to. `previous` is the mark before the append and `before`
    /// the file's metadata just before it: when the file then was as `previous` marked it (same range start,
    /// length and modification time), only the bytes after `previous`'s hashed blocks are read; otherwise the
    /// whole range is. Either way the mark is the SHA-256 of `start..len` as it is now, with the state to go on.
    pub fn after_append(
        path: &Path,
        start: u64,
        previous: Option<&Self>,
        before: Option<&std::fs::Metadata>,
    ) -> io::Result<Self> {
        let from = match (previous, before) {
            (Some(mark), Some(meta)) if mark.start == start && mark.as_left(meta) => mark.resume.as_ref(),
            _ => None,
        }
        .filter(|m| m.hashed % 64 == 0 && start + m.hashed <= before.map_or(0, std::fs::Metadata::len));
        let (hashed, state) = from
            .and_then(|m| Some((m.hashed, parse_state(&m.state)?)))
            .unwrap_or((0, INITIAL));
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        let len = meta.len();
        let start = start.min(len);
        file.seek(SeekFrom::Start(start + hashed))?;
        let mut rest = Vec::new();
        file.take(len.saturating_sub(start + hashed)).read_to_end(&mut rest)?;
        let mut resumed = Resumed { hashed, state };
        let tail = resumed.update(&rest);
        Ok(Self {
            start,
            len: start + resumed.hashed + tail.len() as u64,
            mtime_ns: mtime_ns(&meta),
            sha256: fsutil::hex(&resumed.finish(tail)),
            resume: Some(Midstate {
                hashed: resumed.hashed,
                state: resumed.state.iter().map(|w| format!("{w:08x}")).collect(),
            }),
        })
    }

    /// Whether the file's metadata is what this mark recorded: then [`FileMark::check`] trusts it unhashed.
    fn as_left(&self, meta: &std::fs::Metadata) -> bool {
        meta.len() == self.len && mtime_ns(meta) == self.mtime_ns
    }

    /// Compares the file with the mark.
    pub fn check(&self, path: &Path) -> io::Result<MarkCheck> {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(MarkCheck::Missing),
            Err(err) => return Err(err),
        };
        if self.as_left(&meta) {
            return Ok(MarkCheck::Unchanged);
        }
        if meta.len() < self.len {
            return Ok(MarkCheck::Truncated);
        }
        if hash_range(path, self.start, self.len)? != self.sha256 {
            return Ok(MarkCheck::Edited);
        }
        Ok(if meta.len() > self.len {
            MarkCheck::Appended
        } else {
            MarkCheck::Unchanged
        })
    }
}

fn mtime_ns(meta: &std::fs::Metadata) -> i128 {
    use std::os::unix::fs::MetadataExt;
    i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec())
}

fn hash_range(path: &Path, start: u64, end: u64) -> io::Result<String> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    fsutil::sha256_hex(file.take(end.saturating_sub(start)))
}

/// SHA-256's initial state (FIPS 180-4, 5.3.3).
const INITIAL: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

fn parse_state(hex: &str) -> Option<[u32; 8]> {
    let mut state = [0u32; 8];
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    for (word, at) in state.iter_mut().zip((0..64).step_by(8)) {
        *word = u32::from_str_radix(&hex[at..at + 8], 16).ok()?;
    }
    Some(state)
}

/// SHA-256 over whole blocks, with the count of bytes they hold.
struct Resumed {
    hashed: u64,
    state: [u32; 8],
}

impl Resumed {
    /// Hashes the whole blocks of `bytes`; returns the partial block left over.
    fn update<'b>(&mut self, bytes: &'b [u8]) -> &'b [u8] {
        let mut blocks = bytes.chunks_exact(64);
        for block in &mut blocks {
            sha2::compress256(&mut self.state, std::slice::from_ref(GenericArray::from_slice(block)));
            self.hashed += 64;
        }
        blocks.remainder()
    }

    /// The digest of everything hashed plus `tail` (under 64 bytes): SHA-256's padding, then the length in bits.
    fn finish(&self, tail: &[u8]) -> [u8; 32] {
        let mut state = self.state;
        let bits = (self.hashed + tail.len() as u64) * 8;
        let mut last = [0u8; 128];
        last[..tail.len()].copy_from_slice(tail);
        last[tail.len()] = 0x80;
        let size = if tail.len() < 56 { 64 } else { 128 };
        last[size - 8..size].copy_from_slice(&bits.to_be_bytes());
        for block in last[..size].chunks_exact(64) {
            sha2::compress256(&mut state, std::slice::from_ref(GenericArray::from_slice(block)));
        }
        let mut digest = [0u8; 32];
        for (out, word) in digest.chunks_exact_mut(4).zip(state) {
            out.copy_from_slice(&word.to_be_bytes());
        }
        digest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_edits_truncation_appends_and_deletion() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "old loop\nline one\nline two\n").expect("write");
        let mark = FileMark::take(&path, 9).expect("mark");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Unchanged);

        std::fs::write(&path, "OLD loop\nline one\nline two\n").expect("write");
        assert_eq!(
            mark.check(&path).expect("check"),
            MarkCheck::Unchanged,
            "bytes before the range are not ours"
        );
        std::fs::write(&path, "old loop\nline 1!!\nline two\n").expect("write");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Edited);
        std::fs::write(&path, "old loop\nline one\n").expect("write");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Truncated);
        std::fs::write(&path, "old loop\nline one\nline two\nforged\n").expect("write");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Appended);
        std::fs::remove_file(&path).expect("rm");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Missing);
    }

    fn sha256(bytes: &[u8]) -> String {
        fsutil::sha256_hex(bytes).expect("hash")
    }

    #[test]
    fn the_resumed_hash_is_sha256() {
        let bytes: Vec<u8> = (0..300u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for len in 0..bytes.len() {
            let mut resumed = Resumed {
                hashed: 0,
                state: INITIAL,
            };
            // Two updates, split anywhere a mark can stop: after a whole number of blocks.
            let split = len / 2 / 64 * 64;
            let first = resumed.update(&bytes[..split]);
            assert!(first.is_empty());
            let tail = resumed.update(&bytes[split..len]);
            assert_eq!(
                fsutil::hex(&resumed.finish(tail)),
                sha256(&bytes[..len]),
                "length {len}"
            );
        }
    }

    /// Record after record, the mark that goes on from the last one equals a mark taken afresh, and checks the
    /// same way: unchanged, then edited, truncated or appended to by someone else.
    #[test]
    fn a_mark_after_an_append_equals_a_fresh_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "an earlier loop's line\n").expect("write");
        let start = 23;
        let mut mark: Option<FileMark> = None;
        for n in 0..40 {
            let before = std::fs::metadata(&path).ok();
            let line = format!("{{\"record\":{n},\"pad\":\"{}\"}}\n", "x".repeat(n * 5 % 97));
            let mut file = std::fs::OpenOptions::new().append(true).open(&path).expect("open");
            std::io::Write::write_all(&mut file, line.as_bytes()).expect("append");
            let next = FileMark::after_append(&path, start, mark.as_ref(), before.as_ref()).expect("mark");
            let fresh = FileMark::take(&path, start).expect("mark");
            assert_eq!(
                (next.start, next.len, &next.sha256),
                (fresh.start, fresh.len, &fresh.sha256)
            );
            assert_eq!(next.check(&path).expect("check"), MarkCheck::Unchanged);
            mark = Some(next);
        }
        let mark = mark.expect("marked");
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, text.replacen("record\":3", "record\":4", 1)).expect("edit");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Edited);
        std::fs::write(&path, format!("{text}forged\n")).expect("append");
        assert_eq!(mark.check(&path).expect("check"), MarkCheck::Appended);
    }

    /// A file that was not as the last mark left it (here: edited before loopgate's append) is hashed in full,
    /// so the new mark describes the file as it is, never a state carried over from before the edit.
    #[test]
    fn a_file_changed_since_its_mark_is_hashed_in_full() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h.jsonl");
        std::fs::write(&path, "x".repeat(200)).expect("write");
        let mark = FileMark::after_append(&path, 0, None, None).expect("mark");
        assert!(mark.resume.as_ref().is_some_and(|m| m.hashed == 192));
        std::fs::write(&path, "y".repeat(201)).expect("edit"); // another length: a sure change
        let before = std::fs::metadata(&path).expect("meta");
        std::fs::write(&path, "y".repeat(260)).expect("append");
        let next = FileMark::after_append(&path, 0, Some(&mark), Some(&before)).expect("mark");
        assert_eq!(next.sha256, sha256("y".repeat(260).as_bytes()));
        // A damaged saved state is not trusted either.
        let mut broken = next.clone();
        broken.resume = Some(Midstate {
            hashed: 64,
            state: "zz".into(),
        });
        let before = std::fs::metadata(&path).expect("meta");
        let again = FileMark::after_append(&path, 0, Some(&broken), Some(&before)).expect("mark");
        assert_eq!(again.sha256, next.sha256);
    }
}
