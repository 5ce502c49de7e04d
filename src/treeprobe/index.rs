//! A reader for git's index file (`.git/index`, versions 2, 3 and 4), enough for the progress probe: each
//! entry's path, mode, object id, flags and the stat data git cached for it.
//!
//! Format (git's `Documentation/gitformat-index.txt`): a 12-byte header (`DIRC`, version, entry count), the
//! entries sorted by path, extensions, a trailing checksum. An entry is 40 bytes of stat data (ctime, mtime,
//! dev, ino, mode, uid, gid, size; 32-bit big-endian each), the object id, 16 bits of flags (assume-valid,
//! extended, stage, name length), 16 more with `extended` (version ≥ 3: skip-worktree, intent-to-add), then
//! the path: NUL-terminated and padded to a multiple of 8 bytes (versions 2, 3), or prefix-compressed against
//! the previous path (version 4). Invariant: a file this reader cannot vouch for (another version, a split or
//! sparse index, a truncated entry) is [`None`], and the probe falls back to file metadata.

/// One index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub ctime: (u32, u32),
    pub mtime: (u32, u32),
    pub ino: u32,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    /// The file size, truncated to 32 bits as git stores it.
    pub size: u32,
    pub oid: [u8; 20],
    /// The merge stage: 0 normally, 1–3 for a conflicted path.
    pub stage: u8,
    /// Assume-valid (`git update-index --assume-unchanged`) or skip-worktree (sparse checkout): git does not
    /// look at the file, and neither does the probe.
    pub skip: bool,
    /// Intent-to-add (`git add -N`): in the index but with no content yet.
    pub intent_to_add: bool,
    /// Relative to the work tree's root, `/`-separated.
    pub path: Vec<u8>,
}

/// The parsed index: its entries, in path order.
#[derive(Debug)]
pub(super) struct Index {
    pub entries: Vec<Entry>,
}

const ENTRY_FIXED: usize = 62;
const OID: usize = 20;
const FLAG_ASSUME_VALID: u16 = 0x8000;
const FLAG_EXTENDED: u16 = 0x4000;
const FLAG_STAGE: u16 = 0x3000;
const EXT_SKIP_WORKTREE: u16 = 0x4000;
const EXT_INTENT_TO_ADD: u16 = 0x2000;
/// Extensions that change what the entries mean: a split index (`link`) keeps most entries in another file, a
/// sparse index (`sdir`) has directory entries.
const UNSUPPORTED_EXTENSIONS: [&[u8; 4]; 2] = [b"link", b"sdir"];

/// Parses an index file's bytes (SHA-1 object ids only); `None` for anything this reader does not support.
pub(super) fn parse(data: &[u8]) -> Option<Index> {
    if data.len() < 12 + OID || &data[..4] != b"DIRC" {
        return None;
    }
    let version = be32(data, 4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = usize::try_from(be32(data, 8)?).ok()?;
    let body = &data[..data.len() - OID];
    let mut entries = Vec::with_capacity(count.min(body.len() / ENTRY_FIXED));
    let mut at = 12;
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at;
        let fixed = body.get(at..at + ENTRY_FIXED)?;
        let flags = u16::from_be_bytes([fixed[60], fixed[61]]);
        at += ENTRY_FIXED;
        let mut extended = 0;
        if flags & FLAG_EXTENDED != 0 {
            if version < 3 {
                return None;
            }
            let bytes = body.get(at..at + 2)?;
            extended = u16::from_be_bytes([bytes[0], bytes[1]]);
            at += 2;
        }
        let path = if version == 4 {
            let (strip, used) = varint(body.get(at..)?)?;
            at += used;
            let keep = previous.len().checked_sub(usize::try_from(strip).ok()?)?;
            let end = at + memchr::memchr(0, body.get(at..)?)?;
            let mut path = previous[..keep].to_vec();
            path.extend_from_slice(&body[at..end]);
            at = end + 1;
            path
        } else {
            let end = at + memchr::memchr(0, body.get(at..)?)?;
            let path = body[at..end].to_vec();
            // Padded with 1–8 NULs so that the entry's length is a multiple of 8.
            at = start + (end - start + 8) / 8 * 8;
            path
        };
        if at > body.len() || path.is_empty() {
            return None;
        }
        let field = |i: usize| be32(fixed, i * 4);
        let mut oid = [0u8; OID];
        oid.copy_from_slice(&fixed[40..40 + OID]);
        entries.push(Entry {
            ctime: (field(0)?, field(1)?),
            mtime: (field(2)?, field(3)?),
            ino: field(5)?,
            mode: field(6)?,
            uid: field(7)?,
            gid: field(8)?,
            size: field(9)?,
            oid,
            stage: u8::try_from((flags & FLAG_STAGE) >> 12).ok()?,
            skip: flags & FLAG_ASSUME_VALID != 0 || extended & EXT_SKIP_WORKTREE != 0,
            intent_to_add: extended & EXT_INTENT_TO_ADD != 0,
            path: path.clone(),
        });
        previous = path;
    }
    // Extensions: a 4-byte signature and a 32-bit length each, up to the checksum.
    while at + 8 <= body.len() {
        let signature = &body[at..at + 4];
        if UNSUPPORTED_EXTENSIONS.iter().any(|s| s.as_slice() == signature) {
            return None;
        }
        let size = usize::try_from(be32(body, at + 4)?).ok()?;
        at = at.checked_add(8 + size)?;
    }
    Some(Index { entries })
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// Git's offset varint (version 4 path compression): big-endian groups of 7 bits, each continuation adding one.
fn varint(data: &[u8]) -> Option<(u64, usize)> {
    let mut bytes = data.iter();
    let mut byte = *bytes.next()?;
    let mut value = u64::from(byte & 0x7f);
    let mut used = 1;
    while byte & 0x80 != 0 {
        byte = *bytes.next()?;
        used += 1;
        value = value.checked_add(1)?.checked_mul(128)? | u64::from(byte & 0x7f);
    }
    Some((value, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_matches_git() {
        assert_eq!(varint(&[0x05]), Some((5, 1)));
        assert_eq!(varint(&[0x7f]), Some((127, 1)));
        // git encodes 128 as 0x80 0x00: ((0 + 1) << 7) | 0.
        assert_eq!(varint(&[0x80, 0x00]), Some((128, 2)));
        assert_eq!(varint(&[0x80, 0x01]), Some((129, 2)));
        assert_eq!(varint(&[0x80]), None, "truncated");
    }

    #[test]
    fn garbage_and_truncation_are_none_never_a_panic() {
        assert!(parse(b"").is_none());
        assert!(parse(b"DIRC").is_none());
        let mut header = b"DIRC\0\0\0\x02\0\0\0\x05".to_vec();
        header.extend_from_slice(&[0; 20]);
        assert!(parse(&header).is_none(), "five entries promised, none there");
        let mut v9 = b"DIRC\0\0\0\x09\0\0\0\0".to_vec();
        v9.extend_from_slice(&[0; 20]);
        assert!(parse(&v9).is_none(), "unknown version");
        let mut empty = b"DIRC\0\0\0\x02\0\0\0\0".to_vec();
        empty.extend_from_slice(&[0; 20]);
        assert_eq!(parse(&empty).map(|i| i.entries.len()), Some(0));
    }
}
