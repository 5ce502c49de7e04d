//! Python's places outside the project (`room::outside`): the user site-packages (`$PYTHONUSERBASE` or
//! `~/.local`, `lib/python*/site-packages`), where a `usercustomize.py` or `.pth` runs before any test.

use std::path::{Path, PathBuf};

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<PathBuf> {
    let user_base = var("PYTHONUSERBASE").unwrap_or_else(|| home.join(".local"));
    let Ok(entries) = std::fs::read_dir(user_base.join("lib")) else {
        return Vec::new();
    };
    let mut sites: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
        .map(|e| e.path().join("site-packages"))
        .collect();
    sites.sort();
    sites
}
