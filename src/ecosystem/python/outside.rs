//! Python's places outside the project (`room::outside`): the user site-packages (`$PYTHONUSERBASE` or
//! `~/.local`, `lib/python*/site-packages`), where a `usercustomize.py` or `.pth` runs before any test. Where no
//! `lib/python*` stands, the place is `lib` itself: made empty and read-only during a run, no process of it can
//! make a user site for the interpreters it starts.

use std::path::{Path, PathBuf};

use crate::room::outside::At;

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<At> {
    let lib = var("PYTHONUSERBASE").unwrap_or_else(|| home.join(".local")).join("lib");
    let mut sites: Vec<PathBuf> = std::fs::read_dir(&lib)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
        .map(|e| e.path().join("site-packages"))
        .collect();
    sites.sort();
    if sites.is_empty() {
        return vec![At::dir(lib)];
    }
    sites.into_iter().map(At::dir).collect()
}
