//! The room's cache of Cargo (`room::caches`): its target directory, private unless the project expects it where
//! it is — its Cargo configuration names one (`build.target-dir`), or its Rust files name `target/` by path (a
//! test running `target/debug/tool`).

use std::collections::BTreeMap;
use std::path::Path;

use super::{Cache, How, Shared, Why};

/// Holds Cargo's build outputs (test binaries and their fingerprints).
pub(super) const TARGET: Cache = Cache {
    vars: &[VAR],
    place: "cargo-target",
    file: false,
    how: How::Var,
};

/// The variable that names Cargo's target directory.
const VAR: &str = "CARGO_TARGET_DIR";

/// The reasons its target directory stays the user's (persisted: never changed), each shown by a file.
pub(crate) const TARGET_DIR_CONFIGURED: &str = "target_dir_configured";
pub(crate) const TARGET_NAMED_BY_PATH: &str = "target_named_by_path";

/// Cargo's target directory stays the user's where the project expects it where it is.
pub(super) fn shared(root: &Path, _command: &str, _vars: &BTreeMap<String, String>) -> Option<Shared> {
    target_named(root).map(|why| Shared {
        var: VAR.to_string(),
        why,
    })
}

/// Why Cargo's target directory must stay where the project expects it, if it must.
fn target_named(root: &Path) -> Option<Why> {
    let configured = root.ancestors().find_map(|dir| {
        ["config.toml", "config"].iter().find_map(|name| {
            let path = dir.join(".cargo").join(name);
            let text = std::fs::read_to_string(&path).ok()?;
            text.contains("target-dir").then(|| path.display().to_string())
        })
    });
    if let Some(file) = configured {
        return Some(Why::new(TARGET_DIR_CONFIGURED, Some(file)));
    }
    let mut named = None;
    let _ = crate::walk::Walker::RUNNERS.walk(root, |entry| {
        if entry.relative.ends_with(".rs")
            && std::fs::read_to_string(entry.path).is_ok_and(|text| names_target_by_path(&text))
        {
            named = Some(entry.relative.to_string());
        }
        Ok(crate::walk::until(named.is_some()))
    });
    named.map(|file| Why::new(TARGET_NAMED_BY_PATH, Some(file)))
}

/// `"target/debug/tool"`, `Path::new("target")`: a string literal that starts with the target directory.
fn names_target_by_path(text: &str) -> bool {
    text.contains("\"target/") || text.contains("\"target\"") || text.contains("\"./target/")
}
