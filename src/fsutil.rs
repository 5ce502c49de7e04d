//! Durable file primitives shared by the state file, the seal and the history.
//!
//! Invariants: nothing is written through a link loopgate did not make (every write goes through [`nofollow`]);
//! a file we replace is never seen half-written (temp file in the same directory, `sync_all`,
//! rename), and every read-modify-write happens under an exclusive `File::lock` taken with a bounded wait, so
//! a stuck process can delay loopgate but never hang it.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

pub(crate) mod nofollow;
pub(crate) mod scratch;

/// How long any loopgate process waits for a lock before giving up with an error.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a torn one. The data is
/// flushed to disk before the rename, so a power loss leaves the old file or the new one too.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    replace(path, bytes, mode, true)
}

/// [`write_atomic`] without the flush to disk (`fsync` costs milliseconds on a busy disk, at every stop): still
/// atomic for every reader and against a crash of loopgate itself, but a power loss may leave the file empty. Only
/// for files loopgate can rebuild from a durable one — the state file, a mirror of the seal, which is restored
/// from the seal whenever it is missing, unreadable or different.
pub(crate) fn write_atomic_unsynced(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    replace(path, bytes, mode, false)
}

fn replace(path: &Path, bytes: &[u8], mode: u32, sync: bool) -> io::Result<()> {
    let (dir, name) = nofollow::parent_of(path, true)?;
    dir.replace(&name, bytes, mode, sync)
}

/// Opens `path` to append to it (the history), creating it and its directories when missing; never through a link
/// or into a file with another hard link (see [`nofollow`]).
pub(crate) fn open_append(path: &Path, mode: u32) -> io::Result<File> {
    let (dir, name) = nofollow::parent_of(path, true)?;
    dir.open_in_place(&name, true, mode)
}

/// Creates `path`, which must not exist, and its missing directories (a marker, a log being written).
pub(crate) fn create_new(path: &Path, mode: u32) -> io::Result<File> {
    let (dir, name) = nofollow::parent_of(path, true)?;
    dir.create_new(&name, mode)
}

/// `fs::create_dir_all` for loopgate's own directories: below the trusted root nothing is followed.
pub(crate) fn create_dirs(path: &Path) -> io::Result<()> {
    nofollow::dir(path, true).map(drop)
}

/// Renames `from` to `to`, two names in one directory, following neither.
pub(crate) fn rename_beside(from: &Path, to: &Path) -> io::Result<()> {
    if from.parent() != to.parent() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not in one directory"));
    }
    let (dir, a) = nofollow::parent_of(from, false)?;
    let b = to.file_name().unwrap_or_default();
    dir.rename(&a, b)
}

/// Removes the file or link `path` without following a link on the way to it.
pub(crate) fn remove_file(path: &Path) -> io::Result<()> {
    let (dir, name) = nofollow::parent_of(path, false)?;
    dir.remove(&name)
}

/// Takes an exclusive lock on `file`, retrying until [`LOCK_WAIT`] has passed.
pub(crate) fn lock_bounded(file: &File) -> io::Result<()> {
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::Error(err)) => return Err(err),
            Err(TryLockError::WouldBlock) if Instant::now() >= deadline => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "another loopgate process held the lock for over {}s",
                        LOCK_WAIT.as_secs()
                    ),
                ));
            }
            Err(TryLockError::WouldBlock) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// An exclusive advisory lock on a lock file, released on drop.
///
/// The state file itself cannot carry the lock: it is replaced by rename, so a lock on it would guard an
/// inode nobody reads any more. The lock lives in a sibling file that is never replaced.
pub(crate) struct LockGuard {
    file: File,
}

impl LockGuard {
    /// Creates (if needed) and locks `path`, waiting at most [`LOCK_WAIT`]; never through a link.
    pub(crate) fn acquire(path: &Path) -> io::Result<Self> {
        let (dir, name) = nofollow::parent_of(path, true)?;
        let file = dir.open_in_place(&name, false, 0o644)?;
        lock_bounded(&file)?;
        Ok(Self { file })
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Opens `path` for reading only if it is a regular file. Paths from outside (a hook's `transcript_path`) may
/// name a FIFO, whose open blocks until a writer comes (a hung hook), or a device such as `/dev/zero`, which
/// never ends (a reader looking for a line end grows without bound). The open does not block (`O_NONBLOCK`,
/// which regular files ignore), and anything but a regular file is refused.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if file.metadata()?.is_file() {
        Ok(file)
    } else {
        Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"))
    }
}

/// Reads a file that may legitimately be absent: `Ok(None)` when it does not exist.
pub(crate) fn read_optional(path: &Path) -> io::Result<Option<Vec<u8>>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// SHA-256 (lowercase hex) of everything `reader` yields, read in 256 KiB blocks.
pub(crate) fn sha256_hex(mut reader: impl std::io::Read) -> io::Result<String> {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Lowercase hex of a byte slice.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// Unpadded URL-safe base64 (RFC 4648 §5) of a byte slice: how a wheel's `RECORD` writes a file's digest
/// (`sha256=…`, PEP 376 / 627).
pub(crate) fn base64_url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// Copies the regular files under the directory `from` into `to` (directories made as needed), those whose path
/// `keep` accepts; a reflink where the file system makes one. Links and special files are not copied: what is
/// copied is a seed of loopgate's own (`room::caches::Seeding`), never a tree someone else could have planted
/// a link in, but a link would still only say where to read.
pub(crate) fn copy_tree(from: &Path, to: &Path, keep: &dyn Fn(&Path) -> bool) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_tree(&source, &target, keep)?;
        } else if kind.is_file() && keep(&source) {
            std::fs::copy(&source, &target)?;
        }
    }
    Ok(())
}

/// Removes whatever is at `path` (a file, a link, a directory where a file now goes); nothing there is fine.
pub(crate) fn remove_any(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_url_matches_the_rfc_vectors_without_padding() {
        let cases = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
        ];
        for (input, want) in cases {
            assert_eq!(base64_url(input.as_bytes()), want);
        }
        assert_eq!(base64_url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn atomic_write_replaces_whole_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("state.md");
        write_atomic(&path, b"old contents that are longer", 0o644).expect("first write");
        write_atomic(&path, b"new", 0o644).expect("second write");
        assert_eq!(fs::read(&path).expect("read"), b"new");
        let names: Vec<_> = fs::read_dir(dir.path())
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "temp file left behind: {names:?}");
    }

    #[test]
    fn lock_guard_excludes_a_second_holder_until_dropped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("lock");
        let guard = LockGuard::acquire(&path).expect("first lock");
        let other = OpenOptions::new().read(true).write(true).open(&path).expect("open");
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(guard);
        assert!(other.try_lock().is_ok());
    }
}
