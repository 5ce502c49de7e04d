//! Rust's test helpers (`testseal::helpers`): the project's name in `Cargo.toml`'s `[package]`. A test's `use`
//! names a crate's item, not a file: no helper is found through it.

use super::{Helpers, toml_name};
use crate::testsig::Lang;

pub(super) const HELPERS: Helpers = Helpers {
    lang: Lang::Rust,
    project_name: |root| toml_name(root, "Cargo.toml", "package"),
    files: |_, _, _| Vec::new(),
};
