//! Moving one of the user's files without ever losing it: a rename where source and target share a file
//! system; across file systems a copy to a temporary name beside the target, synced, checked by SHA-256, renamed
//! into place, and only then the original removed. A file is never overwritten: putting back onto a path that
//! was recreated meanwhile keeps that copy beside it.

use std::io;
use std::path::{Path, PathBuf};

/// How a held-out file came back.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Back {
    Moved,
    /// Its store copy was already gone: it came back earlier (a repeated or interrupted put-back).
    Already,
    /// The path had been recreated; that copy was kept here.
    KeptAside(PathBuf),
}

/// SHA-256 of a regular file's content.
pub(crate) fn sha256_of(path: &Path) -> io::Result<String> {
    crate::fsutil::sha256_hex(std::fs::File::open(path)?)
}

/// Moves `from` to `to` (which must not exist), checking the result against `sha` (the content's SHA-256).
pub(crate) fn move_verified(from: &Path, to: &Path, sha: &str) -> io::Result<()> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("`{}` exists", to.display()),
        ));
    }
    match std::fs::rename(from, to) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::CrossesDevices => copy_then_remove(from, to, sha),
        Err(e) => Err(e),
    }
}

/// The move across file systems: a copy beside `to` under a temporary name, synced, checked against `sha`,
/// renamed into place; only then is `from` removed. On any error `from` stays and the temporary copy goes.
pub(crate) fn copy_then_remove(from: &Path, to: &Path, sha: &str) -> io::Result<()> {
    let temp = to.with_file_name(format!(
        ".{}.loopgate-tmp",
        to.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
    ));
    let copied = copy_synced(from, &temp).and_then(|()| {
        let got = sha256_of(&temp)?;
        if got == sha {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "the copy of `{}` does not match its SHA-256; the original was kept",
                from.display()
            )))
        }
    });
    if let Err(e) = copied.and_then(|()| std::fs::rename(&temp, to)) {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    std::fs::remove_file(from)
}

fn copy_synced(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::copy(from, to)?;
    std::fs::File::open(to)?.sync_all()
}

/// Puts a held-out file back from `stored` to `home` (see [`Back`]).
pub(crate) fn put_back(stored: &Path, home: &Path, sha: &str) -> io::Result<Back> {
    if std::fs::symlink_metadata(stored).is_err() {
        return Ok(Back::Already);
    }
    let mut kept = None;
    if let Ok(meta) = std::fs::symlink_metadata(home) {
        // The same content already there (a copy that came back but whose store copy was not yet removed).
        if meta.is_file() && sha256_of(home).is_ok_and(|s| s == sha) {
            std::fs::remove_file(stored)?;
            return Ok(Back::Already);
        }
        let aside = aside_name(home);
        std::fs::rename(home, &aside)?;
        kept = Some(aside);
    }
    move_verified(stored, home, sha)?;
    Ok(kept.map_or(Back::Moved, Back::KeptAside))
}

/// `dir/name.loopgate-recreated`, or `…-2`, `…-3` when taken.
fn aside_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    (1..)
        .map(|n| match n {
            1 => path.with_file_name(format!("{name}.loopgate-recreated")),
            n => path.with_file_name(format!("{name}.loopgate-recreated-{n}")),
        })
        .find(|candidate| std::fs::symlink_metadata(candidate).is_err())
        .unwrap_or_else(|| path.with_file_name(format!("{name}.loopgate-recreated-last")))
}
