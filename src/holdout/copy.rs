//! The private copy of the project where the held-out tests run, under the loop's held-out store: never the
//! user's tree, so neither the agent nor the code under test ever finds them in the project.
//!
//! Kept between promises and synced, not rebuilt: a file is copied only when its size or modification time
//! differs from the copy's (the copy takes the original's time), and copies of files gone from the project go.
//! Left out: what the oracle's room leaves out (VCS directories, build outputs and caches, `.claude/`). The big
//! dependency directories at the root (`node_modules`, `.venv`, `venv`) are symbolic links to the project's
//! own, so nothing is installed twice; a cache of one tree's builds (Cargo's target, `room::caches::PER_TREE`)
//! has a private place beside the copy ([`TARGET`]), kept between promises so its builds are incremental.
//!
//! Then the test side stands as sealed (as in the oracle's own run, see `testswap`): existing test files as
//! they were sealed, the agent's new test files left out; and the held-out files are laid over it.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use crate::walk::{Flow, Walker};

/// The private copy, under the held-out store.
pub(crate) const TREE: &str = "tree";
/// The private places of the caches of the copy's builds (`room::caches::PER_TREE`), under the held-out store.
pub(crate) const TARGET: &str = "target";
/// Dependency directories at the project root that the copy links to instead of copying.
const LINKED: [&str; 3] = ["node_modules", ".venv", "venv"];
/// Not copied: what the oracle's own room leaves out of its copy of the tree (`room::tree::SKIPPED`: VCS data,
/// build outputs and caches of every ecosystem, loopgate's and Claude Code's files, linked dependencies), so the
/// held-out run sees the project as the visible run does.
const COPY_WALK: Walker = Walker::skipping(crate::room::tree::SKIPPED).strict();
const TREE_WALK: Walker = Walker::skipping(&LINKED);

/// What the private copy needs besides the project: the test side as sealed and the held-out files.
pub(crate) struct Overlay<'a> {
    /// `(project-relative path, sealed content)` of existing test files that differ from their seal.
    pub(crate) sealed: Vec<(&'a str, &'a str)>,
    /// The agent's new test files, left out of the copy.
    pub(crate) left_out: Vec<String>,
    /// Directories whose files are laid over the copy at the same relative paths.
    pub(crate) held_out: Vec<PathBuf>,
}

/// Brings the private copy under `dir` up to date with `root` and lays `overlay` over it; returns the copy's
/// root.
pub(crate) fn build(root: &Path, dir: &Path, overlay: &Overlay) -> io::Result<PathBuf> {
    let tree = dir.join(TREE);
    crate::seal::create_private_dir(dir)?;
    std::fs::create_dir_all(&tree)?;
    let mut present = BTreeSet::new();
    COPY_WALK.walk(root, |entry| {
        sync_file(entry.path, &tree.join(entry.relative), entry.kind)?;
        present.insert(entry.relative.to_string());
        Ok(Flow::Continue(()))
    })?;
    let mut stale = Vec::new();
    TREE_WALK.walk(&tree, |entry| {
        if !present.contains(entry.relative) && !LINKED.contains(&entry.relative) {
            stale.push(entry.path.to_path_buf());
        }
        Ok(Flow::Continue(()))
    })?;
    for path in stale {
        std::fs::remove_file(path)?;
    }
    for name in LINKED {
        link_dependency(&root.join(name), &tree.join(name))?;
    }
    for (path, content) in overlay.sealed.iter().filter(|(path, _)| !under_link(path)) {
        replace(&tree.join(path), content.as_bytes())?;
    }
    for path in overlay.left_out.iter().filter(|path| !under_link(path)) {
        match std::fs::remove_file(tree.join(path)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    for source in &overlay.held_out {
        if !source.is_dir() {
            continue;
        }
        Walker::skipping(&[]).strict().walk(source, |entry| {
            if entry.kind.is_file() && !under_link(entry.relative) {
                replace(&tree.join(entry.relative), &std::fs::read(entry.path)?)?;
            }
            Ok(Flow::Continue(()))
        })?;
    }
    Ok(tree)
}

/// Whether a relative path lies in a linked dependency directory: writing there would write the project's own.
fn under_link(relative: &str) -> bool {
    LINKED.iter().any(|name| Path::new(relative).starts_with(name))
}

/// Copies one file of the project into the copy unless the copy already has its size and time.
fn sync_file(from: &Path, to: &Path, kind: std::fs::FileType) -> io::Result<()> {
    if kind.is_symlink() {
        let target = std::fs::read_link(from)?;
        if std::fs::read_link(to).ok().as_ref() != Some(&target) {
            crate::fsutil::remove_any(to)?;
            ensure_parent(to)?;
            std::os::unix::fs::symlink(&target, to)?;
        }
        return Ok(());
    }
    let meta = std::fs::metadata(from)?;
    let same = std::fs::symlink_metadata(to)
        .is_ok_and(|m| m.is_file() && m.len() == meta.len() && m.modified().ok() == meta.modified().ok());
    if same {
        return Ok(());
    }
    crate::fsutil::remove_any(to)?;
    ensure_parent(to)?;
    std::fs::copy(from, to)?;
    if let Ok(time) = meta.modified() {
        std::fs::File::options().write(true).open(to)?.set_modified(time)?;
    }
    Ok(())
}

/// Makes `link` a symbolic link to `target` when `target` is a directory; removes a stale link otherwise.
fn link_dependency(target: &Path, link: &Path) -> io::Result<()> {
    let current = std::fs::read_link(link).ok();
    if !target.is_dir() {
        if current.is_some() {
            std::fs::remove_file(link)?;
        }
        return Ok(());
    }
    if current.as_deref() == Some(target) {
        return Ok(());
    }
    crate::fsutil::remove_any(link)?;
    std::os::unix::fs::symlink(target, link)
}

/// Writes `bytes` at `path` as a new file (never through a link the copy holds).
fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    crate::fsutil::remove_any(path)?;
    ensure_parent(path)?;
    std::fs::write(path, bytes)
}

fn ensure_parent(path: &Path) -> io::Result<()> {
    path.parent().map_or(Ok(()), std::fs::create_dir_all)
}
