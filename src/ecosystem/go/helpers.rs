//! Go's test helpers (`testseal::helpers`): the last segment of `go.mod`'s module path, and every non-test file
//! of a package imported under it.

use std::path::{Path, PathBuf};

use super::Helpers;
use crate::testsig::{Lang, Unit};

pub(super) const HELPERS: Helpers = Helpers {
    lang: Lang::Go,
    project_name: |root| go_module(root).map(|m| m.rsplit('/').next().unwrap_or(&m).to_string()),
    files: import_files,
};

/// A Go import unit holds every path of the block, quoted, as its names.
fn import_files(root: &Path, _dir: &Path, unit: &Unit) -> Vec<PathBuf> {
    let module = go_module(root);
    unit.names
        .iter()
        .filter_map(|line| line.split('"').nth(1))
        .flat_map(|path| package_files(root, module.as_deref(), path))
        .collect()
}

fn package_files(root: &Path, module: Option<&str>, import: &str) -> Vec<PathBuf> {
    let Some(module) = module else { return Vec::new() };
    let Some(dir) = import.strip_prefix(module).map(|d| d.trim_start_matches('/')) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".go") && !name.ends_with("_test.go"))
        .map(|name| Path::new(dir).join(name))
        .collect();
    files.sort();
    files
}

/// The module path `go.mod` declares.
fn go_module(root: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("go.mod")).ok()?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("module "))
        .map(|m| m.trim().trim_matches('"').to_string())
}
