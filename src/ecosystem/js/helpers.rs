//! JavaScript's test helpers (`testseal::helpers`): the project's name in `package.json`, and a relative
//! specifier with the usual extensions and `index` files.

use std::path::{Path, PathBuf};

use super::{Helpers, normalize};
use crate::testsig::Lang;

pub(super) const HELPERS: Helpers = Helpers {
    lang: Lang::JavaScript,
    project_name,
    files: |root, dir, unit| files(root, dir, &unit.name),
};

/// The last segment of `package.json`'s `name` (`@scope/name` is `name`).
fn project_name(root: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("package.json")).ok()?;
    let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
    doc.get("name")?
        .as_str()
        .map(|n| n.rsplit('/').next().unwrap_or(n).to_string())
}

fn files(root: &Path, dir: &Path, specifier: &str) -> Vec<PathBuf> {
    if !specifier.starts_with('.') {
        return Vec::new();
    }
    let base = normalize(&dir.join(specifier));
    let exts = ["js", "ts", "mjs", "cjs", "jsx", "tsx", "mts", "cts"];
    let mut tries = vec![base.clone()];
    tries.extend(exts.iter().map(|e| PathBuf::from(format!("{}.{e}", base.display()))));
    tries.extend(exts.iter().map(|e| base.join(format!("index.{e}"))));
    tries
        .into_iter()
        .filter(|p| !p.starts_with("..") && root.join(p).is_file())
        .take(1)
        .collect()
}
