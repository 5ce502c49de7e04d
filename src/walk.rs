//! Walking the project the way test runners discover files: directories that no runner collects from (`.git`,
//! `node_modules`, `target`, virtual environments, caches) are not entered, and symlinks are not followed, so
//! the walk stays cheap on large repositories. Used for the closure's watched names (`conftest.py`) and the
//! test inventory.

use std::path::Path;

/// Directory names never walked into.
const SKIP_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".claude",
    "node_modules",
    "target",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "dist",
    "build",
    ".next",
    ".cache",
];
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

/// Calls `visit(relative path, file name)` for every file (not directory, not followed symlink target) under
/// `root`, in no particular order.
pub fn files(root: &Path, mut visit: impl FnMut(&str, &str)) {
    let mut budget = MAX_ENTRIES;
    walk(root, "", &mut visit, &mut budget);
}

fn walk(dir: &Path, prefix: &str, visit: &mut dyn FnMut(&str, &str), budget: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let Ok(kind) = entry.file_type() else { continue };
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let relative = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}/{name}")
        };
        if kind.is_dir() {
            if !SKIP_DIRS.contains(&name.as_ref()) {
                walk(&entry.path(), &relative, visit, budget);
            }
        } else {
            visit(&relative, &name);
        }
    }
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
}
