//! Rust test modules that live in files of their own: `#[cfg(test)] mod tests;` in `src/closure.rs` makes
//! `src/closure/tests.rs` test code, although no convention names it a test file. The parent module declares
//! it, so the parent is read: `lib.rs`, `main.rs` or `mod.rs` beside it, or `dir.rs` above it.

use std::path::Path;

use crate::testsig::{self, Lang, UnitKind, lex};

/// Whether `path` (relative to `root`, `/`-separated) is a Rust file its parent module declares under
/// `#[cfg(test)]`.
pub(super) fn is_test_module(root: &Path, path: &str) -> bool {
    let Some((dir, file)) = path.rsplit_once('/') else {
        return false;
    };
    let Some(stem) = file.strip_suffix(".rs") else {
        return false;
    };
    // `dir/name/mod.rs` is module `name`, declared in `dir`; `dir/name.rs` is module `name`, declared in `dir`.
    let (decl_dir, name) = if stem == "mod" {
        match dir.rsplit_once('/') {
            Some((up, name)) => (up.to_string(), name),
            None => (String::new(), dir),
        }
    } else {
        (dir.to_string(), stem)
    };
    let join = |file: &str| {
        if decl_dir.is_empty() {
            file.to_string()
        } else {
            format!("{decl_dir}/{file}")
        }
    };
    let mut parents = vec![join("lib.rs"), join("main.rs"), join("mod.rs")];
    if !decl_dir.is_empty() {
        parents.push(format!("{decl_dir}.rs"));
    }
    parents
        .iter()
        .filter(|parent| parent.as_str() != path)
        .filter_map(|parent| super::read_source(&root.join(parent)))
        .any(|text| declares_test_module(&text, name))
}

/// Whether Rust source `text` declares module `name` under `#[cfg(test)]` (`mod name;` or `mod name { … }`).
fn declares_test_module(text: &str, name: &str) -> bool {
    let lexed = lex::lex(Lang::Rust, text);
    testsig::units(Lang::Rust, &lexed)
        .iter()
        .any(|node| node.gated && node.name == name && matches!(node.kind, UnitKind::Import | UnitKind::Container))
}
