//! What the traced run's reading knows of Python's installed distributions and of its files by name
//! (`closure::observed`).

use std::path::Path;

use super::Files;

/// Its manifests and lockfiles (pip's, Poetry's, uv's, Pipenv's, setuptools'), and what tox and the interpreter
/// pick up from a directory.
pub(super) const FILES: Files = Files {
    manifest: |name| {
        matches!(
            name,
            "pyproject.toml" | "poetry.lock" | "uv.lock" | "Pipfile" | "Pipfile.lock" | "setup.cfg"
        ) || (name.starts_with("requirements") && name.ends_with(".txt"))
    },
    listed: &["tox.ini", "sitecustomize.py", "usercustomize.py"],
    listed_prefixes: &[],
};

/// Whether a distribution's metadata directory (`*.dist-info`) declares a pytest plugin (an `entry_points.txt`
/// with a `[pytest11]` group): pytest loads it on its own, so a new one where the baseline searched is a shadow.
pub(super) fn declares_plugin(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("entry_points.txt")).is_ok_and(|text| text.contains("[pytest11]"))
}
