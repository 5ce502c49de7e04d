//! Walking the project the way test runners discover files. Used for the closure's watched names
//! (`conftest.py`), the test inventory and the tests' data.
//!
//! Directories no runner collects from are not entered (`.git`, `node_modules`, virtual environments, caches),
//! so the walk stays cheap on large repositories. Build directories are another matter: Go, Jest and node's
//! test runner collect tests from a `build/` or `target/` directory like from any other, so `build`, `dist`
//! and `target` are entered unless they are build *output*: a directory holding a `CACHEDIR.TAG` (what Cargo
//! writes in its `target/`), or one the project's root `.gitignore` lists by name (`build/`, `/dist`).
//! Symbolic links to directories are followed, as pytest and Go's `./...` do, each real directory once (so a
//! link to an ancestor ends there).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Directory names never walked into.
const SKIP_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".claude",
    "node_modules",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".next",
    ".cache",
];
/// Build directories, entered only when they are not build output (see the module doc).
const BUILD_DIRS: &[&str] = &["target", "build", "dist"];
/// Most directory entries one walk looks at.
const MAX_ENTRIES: usize = 500_000;

/// Project-relative paths (with `/`) of the files whose name is one of `names`, sorted.
pub fn find_named(root: &Path, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    if names.is_empty() {
        return out;
    }
    files(root, |relative, name| {
        if names.contains(&name) {
            out.push(relative.to_string());
        }
    });
    out.sort();
    out
}

/// Calls `visit(relative path, file name)` for every file (not directory) under `root`, in no particular
/// order; files reached through a linked directory are named by the path through the link.
pub fn files(root: &Path, mut visit: impl FnMut(&str, &str)) {
    let mut walk = Walk {
        visit: &mut visit,
        budget: MAX_ENTRIES,
        seen: HashSet::new(),
        links: Vec::new(),
        ignored: ignored_build_dirs(root),
    };
    if let Some(id) = dir_id(root) {
        walk.seen.insert(id);
    }
    walk.dir(root, "");
    // Linked directories after every real one, in name order, so a directory inside the project is always
    // named by its real path and the names do not depend on the order the file system lists entries in.
    while !walk.links.is_empty() {
        let mut links = std::mem::take(&mut walk.links);
        links.sort();
        for (path, relative) in links {
            if dir_id(&path).is_some_and(|id| walk.seen.insert(id)) {
                walk.dir(&path, &relative);
            }
        }
    }
}

/// A directory's identity (device, inode), following links.
fn dir_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino()))
}

struct Walk<'v> {
    visit: &'v mut dyn FnMut(&str, &str),
    budget: usize,
    /// Directories entered, by identity, so a linked directory is walked once.
    seen: HashSet<(u64, u64)>,
    /// Linked directories met, walked after the real ones.
    links: Vec<(PathBuf, String)>,
    /// Build directories the root `.gitignore` lists.
    ignored: Vec<String>,
}

impl Walk<'_> {
    fn dir(&mut self, dir: &Path, prefix: &str) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            let Ok(mut kind) = entry.file_type() else { continue };
            let path = entry.path();
            let link = kind.is_symlink();
            if link {
                let Ok(meta) = std::fs::metadata(&path) else { continue };
                kind = meta.file_type();
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let relative = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}/{name}")
            };
            if !kind.is_dir() {
                (self.visit)(&relative, &name);
                continue;
            }
            if SKIP_DIRS.contains(&name.as_ref()) || self.is_build_output(&path, &name, prefix) {
                continue;
            }
            if link {
                self.links.push((path, relative));
                continue;
            }
            if dir_id(&path).is_some_and(|id| self.seen.insert(id)) {
                self.dir(&path, &relative);
            }
        }
    }

    fn is_build_output(&self, path: &Path, name: &str, prefix: &str) -> bool {
        BUILD_DIRS.contains(&name)
            && (path.join("CACHEDIR.TAG").is_file() || (prefix.is_empty() && self.ignored.iter().any(|d| d == name)))
    }
}

/// The build directories the root `.gitignore` lists by name (`build`, `build/`, `/build/`).
fn ignored_build_dirs(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(".gitignore")).unwrap_or_default();
    text.lines()
        .map(|l| l.trim().trim_matches('/'))
        .filter(|l| BUILD_DIRS.contains(l))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_names_at_any_depth_but_not_in_skipped_directories() {
        let dir = tempfile::tempdir().expect("tempdir");
        for path in [
            "conftest.py",
            "tests/conftest.py",
            "tests/unit/conftest.py",
            "node_modules/x/conftest.py",
            ".venv/conftest.py",
            "tests/test_a.py",
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "").expect("write");
        }
        assert_eq!(
            find_named(dir.path(), &["conftest.py"]),
            vec!["conftest.py", "tests/conftest.py", "tests/unit/conftest.py"]
        );
        assert!(find_named(dir.path(), &[]).is_empty());
    }

    fn touch(root: &Path, path: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }

    #[test]
    fn build_directories_are_walked_unless_they_are_build_output() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in [
            "build/pkg/conftest.py",
            "target/it/conftest.py",
            "dist/conftest.py",
            "crates/a/target/debug/conftest.py",
            "crates/a/target/CACHEDIR.TAG",
        ] {
            touch(root, path);
        }
        std::fs::write(
            root.join(".gitignore"),
            "/dist/
*.log
",
        )
        .expect("write");
        assert_eq!(
            find_named(root, &["conftest.py"]),
            vec!["build/pkg/conftest.py", "target/it/conftest.py"]
        );
    }

    #[test]
    fn linked_directories_are_followed_once_and_cycles_end() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        touch(root, "real/tests/conftest.py");
        let outside = tempfile::tempdir().expect("tempdir");
        touch(outside.path(), "conftest.py");
        std::os::unix::fs::symlink(root.join("real"), root.join("linked")).expect("symlink");
        std::os::unix::fs::symlink(root, root.join("real/tests/up")).expect("symlink");
        std::os::unix::fs::symlink(outside.path(), root.join("shared")).expect("symlink");
        let found = find_named(root, &["conftest.py"]);
        assert!(found.contains(&"shared/conftest.py".to_string()), "{found:?}");
        let real = found.iter().filter(|p| p.ends_with("tests/conftest.py")).count();
        assert_eq!(
            real, 1,
            "the linked twin of a walked directory is walked once: {found:?}"
        );
    }
}
