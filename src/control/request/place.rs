//! Where a request file lives: the project's `.claude/`, else a temp directory keyed by the project.
//!
//! Why a second place: with its sandbox on, Claude Code 2.1.197 mounts an empty, read-only `.claude/` over a
//! project that has none, for every command it runs — the slash command's block included — so the block's
//! write fails with "Read-only file system" and `/pua-loop` cannot start a loop. The block may still write its
//! temp directory (`$TMPDIR`, which Claude Code sets to `/tmp/claude-<uid>` inside the sandbox; measured with
//! 2.1.197 and 2.1.330), while the hooks that carry a request out run outside the sandbox with no `TMPDIR` of
//! theirs. So a request that cannot go into `.claude/` goes to `loopgate-requests/<key>.json` under the first
//! temp directory that takes it, and the hooks look in all of them.
//!
//! The place changes nothing of what a request is worth: it is carried out only for the user's own prompt
//! with the same session and text (see the parent module). A file another local user planted in a shared temp
//! directory would need this user's session id and prompt to count.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;

use crate::project::Project;

/// The request's place in the project, under its root.
pub(crate) const IN_PROJECT: &str = ".claude/loopgate-request.json";
/// The directory of requests under a temp directory.
const TEMP_SUBDIR: &str = "loopgate-requests";

/// Every place a request of `project` may be, the project's own first.
pub(super) fn all(project: &Project, key: &OsString) -> Vec<PathBuf> {
    let mut name = key.clone();
    name.push(".json");
    let mut out = vec![project.root.join(IN_PROJECT)];
    for dir in temp_dirs() {
        let path = dir.join(TEMP_SUBDIR).join(&name);
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// Writes `bytes` to the first place that takes them; the error, when none does, says why the project's
/// place failed (the caller names it) and names the last temp directory tried.
pub(super) fn save(project: &Project, key: &OsString, bytes: &[u8]) -> io::Result<PathBuf> {
    let mut first_error: Option<io::Error> = None;
    let mut last_error = None;
    for path in all(project, key) {
        let written = path
            .parent()
            .map_or(Ok(()), create_private_dir)
            .and_then(|()| crate::fsutil::write_atomic(&path, bytes, 0o600));
        match written {
            Ok(()) => return Ok(path),
            Err(err) if first_error.is_none() => first_error = Some(err),
            Err(err) => last_error = Some((path, err)),
        }
    }
    let err = first_error.unwrap_or_else(|| io::Error::other("no place to write it"));
    let tail = last_error.map_or_else(String::new, |(temp, e)| {
        format!("; nor in the temp directory (`{}`: {e})", temp.display())
    });
    Err(io::Error::new(
        err.kind(),
        format!("{err}{tail}; create the project's `.claude/` folder from your own terminal and run the command again"),
    ))
}

/// Creates `dir` (and its parents) readable by this user only, where it is created.
fn create_private_dir(dir: &std::path::Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// The temp directories a sandboxed block may have written to: its `$TMPDIR` (when this process has one),
/// Claude Code's sandbox temp directory — `claude-<uid>` in the temp directory Claude Code itself was given
/// (`$TMPDIR`, else `/tmp`: a user with a `TMPDIR` of their own gets `$TMPDIR/claude-<uid>`, seen with the
/// end-to-end suite's own `TMPDIR`) — and the system's.
fn temp_dirs() -> Vec<PathBuf> {
    let tmpdir = std::env::var_os("TMPDIR").filter(|t| !t.is_empty()).map(PathBuf::from);
    let mut dirs: Vec<PathBuf> = tmpdir.iter().cloned().collect();
    #[cfg(unix)]
    {
        // SAFETY: `getuid` has no preconditions and cannot fail.
        let uid = unsafe { libc::getuid() };
        let sandbox = format!("claude-{uid}");
        dirs.extend(tmpdir.iter().map(|dir| dir.join(&sandbox)));
        dirs.push(PathBuf::from("/tmp").join(&sandbox));
    }
    dirs.push(std::env::temp_dir());
    let mut seen = std::collections::BTreeSet::new();
    dirs.retain(|dir| seen.insert(dir.clone()));
    dirs
}
