//! Whether git history holds a held-out file: a committed test can be read back from git objects
//! (`git show HEAD:path`, `git log -p`) after it leaves the tree, so setup says so and recommends a directory
//! outside the project.

use std::path::Path;
use std::process::Stdio;

/// The `paths` (project-relative) that any commit of any ref in `root`'s repository touched; empty outside a
/// git work tree or without git (the caveat then does not apply, or cannot be checked).
pub(crate) fn in_history<'a>(root: &Path, paths: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let paths: Vec<&String> = paths.into_iter().collect();
    if paths.is_empty() {
        return Vec::new();
    }
    let output = crate::confine::git(
        root,
        &[
            "log",
            "--all",
            "--format=",
            "--name-only",
            "--relative",
            "--no-renames",
            "--",
        ],
    )
    .args(&paths)
    .stdin(Stdio::null())
    .stderr(Stdio::null())
    .output();
    let Ok(output) = output else {
        return Vec::new();
    };
    if !output.status.success() {
        return Vec::new();
    }
    let named: std::collections::BTreeSet<&str> = std::str::from_utf8(&output.stdout)
        .unwrap_or_default()
        .lines()
        .collect();
    paths
        .into_iter()
        .filter(|p| named.contains(p.as_str()))
        .cloned()
        .collect()
}
