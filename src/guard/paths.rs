//! Path normalization for the guard.
//!
//! A tool call names a path the way the agent wrote it: relative to the current directory, with `.` and `..`,
//! through symlinks. Before the guard compares it with a protected path it turns it into every absolute form
//! the write could land on, and the guard denies if *any* of them is protected:
//!
//! - the lexical form (`.` and `..` removed textually, as `path.resolve` in Node and `cd` in a shell do);
//! - the resolved form, walked component by component as the kernel does: a symlink is replaced by its
//!   target (also a dangling one, so a link to a deleted sealed file still counts), and a `..` after a symlink
//!   climbs out of the link's *target*;
//! - the lexical form with its symlinks resolved.
//!
//! Resolution needs one `lstat` per component, so it is only done for paths that are about to be written; the
//! components below the first missing one are appended textually.

use std::ffi::OsStr;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// How many symlinks one resolution may follow (Linux's `ELOOP` limit).
const MAX_LINKS: u32 = 40;

/// `path` made absolute against `base`, without touching the file system.
pub(crate) fn absolute(path: &Path, base: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    }
}

/// `.` and `..` removed textually; `..` at the root stays at the root.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() && !path.is_absolute() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Symlinks resolved the way `open(2)` would, for an absolute `path`; missing tails kept as written.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    let mut budget = MAX_LINKS;
    resolve_with(path, &mut budget)
}

/// [`resolve`] for many paths that share directories (`~/.claude/settings.json`, `~/.claude/plugins`, the
/// project's `.claude/…`): every directory prefix is resolved once for all of them, so each path costs an
/// `lstat` only for the components no earlier path had. A path with `..` is resolved on its own.
pub(crate) fn resolve_all<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Vec<PathBuf> {
    // A prefix as written → (its resolution, whether it exists so that deeper components are worth probing).
    let mut memo: std::collections::HashMap<PathBuf, (PathBuf, bool)> = std::collections::HashMap::new();
    paths
        .into_iter()
        .map(|path| {
            if path.components().any(|c| c == Component::ParentDir) {
                return resolve(path);
            }
            let mut budget = MAX_LINKS;
            let (mut out, mut prefix, mut probing) = (PathBuf::new(), PathBuf::new(), true);
            for comp in path.components() {
                prefix.push(comp);
                match comp {
                    Component::Prefix(_) | Component::RootDir => out.push(comp),
                    Component::Normal(name) => {
                        if let Some((known, exists)) = memo.get(&prefix) {
                            (out, probing) = (known.clone(), *exists);
                            continue;
                        }
                        out.push(name);
                        if probing {
                            probing = follow(&mut out, &mut budget);
                        }
                        memo.insert(prefix.clone(), (out.clone(), probing));
                    }
                    Component::CurDir | Component::ParentDir => {}
                }
            }
            out
        })
        .collect()
}

fn resolve_with(path: &Path, budget: &mut u32) -> PathBuf {
    let mut out = PathBuf::new();
    // Once a component is missing nothing below it can exist, so stop asking the file system.
    let mut probing = true;
    for comp in path.components() {
        match comp {
            Component::Prefix(_) | Component::RootDir => out.push(comp),
            Component::CurDir => {}
            Component::ParentDir => {
                // `out` is already resolved, so popping it is what the kernel does with `..`.
                out.pop();
                probing = true;
            }
            Component::Normal(name) => {
                out.push(name);
                if probing {
                    probing = follow(&mut out, budget);
                }
            }
        }
    }
    out
}

/// Replaces `out` by its target if it is a symlink; returns whether `out` exists (so deeper probing helps).
fn follow(out: &mut PathBuf, budget: &mut u32) -> bool {
    let Ok(meta) = fs::symlink_metadata(&*out) else {
        return false;
    };
    if !meta.file_type().is_symlink() {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Ok(target) = fs::read_link(&*out) else {
        return false;
    };
    out.pop();
    let joined = out.join(target);
    *out = resolve_with(&joined, budget);
    true
}

/// Every absolute form of `path` (relative to `base`) a write could land on, without duplicates.
pub(crate) fn candidates(path: &Path, base: &Path) -> Vec<PathBuf> {
    let raw = absolute(path, base);
    let lex = lexical(&raw);
    let mut out = vec![lex.clone()];
    push_new(&mut out, resolve(&lex));
    if raw.components().any(|c| c == Component::ParentDir) {
        push_new(&mut out, resolve(&raw));
    }
    out
}

fn push_new(out: &mut Vec<PathBuf>, path: PathBuf) {
    if !out.contains(&path) {
        out.push(path);
    }
}

/// The components of a path as strings (lossy), for suffix matching.
pub(crate) fn comps(path: &Path) -> Vec<&OsStr> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// Whether `a` and `b` are the same file through a hard link (same device and inode).
#[cfg(unix)]
pub(crate) fn same_inode(a: &fs::Metadata, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(b).is_ok_and(|m| m.dev() == a.dev() && m.ino() == a.ino())
}

/// Whether `path` is a regular file with more than one name, i.e. possibly a hard link to a protected file.
#[cfg(unix)]
pub(crate) fn hard_linked(path: &Path) -> Option<fs::Metadata> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).ok().filter(|m| m.is_file() && m.nlink() > 1)
}

/// Whether the file `a` lies on the device of `dir` (so a hard link to it could be inside `dir`).
#[cfg(unix)]
pub(crate) fn same_device(a: &fs::Metadata, dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(dir).is_ok_and(|m| m.dev() == a.dev())
}

/// The file under `dir` that is `a` (same device and inode), looked for among at most `cap` entries, `depth`
/// levels deep, links not followed. Only called for a file with more than one name.
#[cfg(unix)]
pub(crate) fn find_inode(dir: &Path, a: &fs::Metadata, depth: usize, cap: usize) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let mut seen = 0;
    let mut found = None;
    let _ = crate::walk::Walker::skipping(&[]).max_depth(depth).walk(dir, |entry| {
        seen += 1;
        let same = entry
            .metadata()
            .is_ok_and(|m| m.is_file() && m.ino() == a.ino() && m.dev() == a.dev());
        if same {
            found = Some(entry.path.to_path_buf());
        }
        Ok(crate::walk::until(found.is_some() || seen >= cap))
    });
    found
}

#[cfg(not(unix))]
pub(crate) fn same_device(_: &fs::Metadata, _: &Path) -> bool {
    false
}

#[cfg(not(unix))]
pub(crate) fn find_inode(_: &Path, _: &fs::Metadata, _: usize, _: usize) -> Option<PathBuf> {
    None
}

#[cfg(not(unix))]
pub(crate) fn same_inode(_: &fs::Metadata, _: &Path) -> bool {
    false
}

#[cfg(not(unix))]
pub(crate) fn hard_linked(_: &Path) -> Option<fs::Metadata> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_removes_dots() {
        assert_eq!(lexical(Path::new("/a/./b/../c")), Path::new("/a/c"));
        assert_eq!(lexical(Path::new("/../a")), Path::new("/a"));
        assert_eq!(lexical(Path::new("a/../../b")), Path::new("../b"));
    }

    #[cfg(unix)]
    #[test]
    fn resolve_follows_links_like_the_kernel() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonicalize");
        fs::create_dir_all(root.join("real/sub")).expect("mkdir");
        std::os::unix::fs::symlink(root.join("real/sub"), root.join("link")).expect("symlink");
        std::os::unix::fs::symlink("real/gone.txt", root.join("dangling")).expect("symlink");

        assert_eq!(resolve(&root.join("link/x.rs")), root.join("real/sub/x.rs"));
        // `..` after a symlink leaves the link's target, not the link's directory.
        assert_eq!(resolve(&root.join("link/../y")), root.join("real/y"));
        assert_eq!(resolve(&root.join("dangling")), root.join("real/gone.txt"));
        let all = candidates(Path::new("link/../y"), &root);
        assert!(all.contains(&root.join("y")) && all.contains(&root.join("real/y")));
    }

    #[cfg(unix)]
    #[test]
    fn resolving_many_paths_at_once_gives_what_resolving_each_gives() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonicalize");
        fs::create_dir_all(root.join("dotfiles/claude")).expect("mkdir");
        std::os::unix::fs::symlink(root.join("dotfiles/claude"), root.join(".claude")).expect("symlink dir");
        std::os::unix::fs::symlink("settings.real.json", root.join("dotfiles/claude/settings.json")).expect("link");
        let paths = [
            root.join(".claude/settings.json"),
            root.join(".claude/plugins"),
            root.join(".claude/x/../settings.local.json"),
            root.join("missing/deeper/file"),
            root.clone(),
        ];
        let one_by_one: Vec<PathBuf> = paths.iter().map(|p| resolve(p)).collect();
        assert_eq!(resolve_all(paths.iter().map(PathBuf::as_path)), one_by_one);
        assert_eq!(one_by_one[0], root.join("dotfiles/claude/settings.real.json"));
    }

    #[cfg(unix)]
    #[test]
    fn resolve_survives_link_loops() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonicalize");
        std::os::unix::fs::symlink(root.join("b"), root.join("a")).expect("symlink");
        std::os::unix::fs::symlink(root.join("a"), root.join("b")).expect("symlink");
        let _ = resolve(&root.join("a/x"));
    }
}
