//! Marks on files loopgate writes inside the project — the history and the verify logs — so that an edit by
//! anyone else is noticed. A mark is the length, modification time and SHA-256 of a byte range of a file.
//!
//! Checking is cheap when nothing happened: equal length and modification time skip the hash. Otherwise the
//! marked range is re-hashed; a shorter file, different bytes in the range, or bytes after it that loopgate did
//! not append are reported. (An attacker who restores the modification time by hand is a hostile process, which
//! the README's threat model leaves out of scope.)

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};

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
        })
    }

    /// Compares the file with the mark.
    pub fn check(&self, path: &Path) -> io::Result<MarkCheck> {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(MarkCheck::Missing),
            Err(err) => return Err(err),
        };
        if meta.len() == self.len && mtime_ns(&meta) == self.mtime_ns {
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
}
