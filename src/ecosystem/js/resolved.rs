//! How a JavaScript runtime's file is named (`closure::resolved`): by its package and its path inside it, from the
//! `node_modules` directory it sits in or the nearest `package.json`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// `…/node_modules/@jest/core/build/x.js` → `js:@jest/core/build/x.js`; outside `node_modules`, the name
/// in the nearest `package.json` (a vendored or linked copy keeps its package's name).
pub(super) fn name(manifests: &mut HashMap<PathBuf, Option<String>>, path: &Path) -> Option<String> {
    let parts: Vec<&str> = path.iter().filter_map(|c| c.to_str()).collect();
    if let Some(at) = parts.iter().rposition(|c| *c == "node_modules") {
        let rest = &parts[at + 1..];
        let take = if rest.first().is_some_and(|c| c.starts_with('@')) {
            2
        } else {
            1
        };
        return (rest.len() > take).then(|| format!("js:{}", rest.join("/")));
    }
    let mut dir = path.parent()?;
    loop {
        let name = manifests
            .entry(dir.to_path_buf())
            .or_insert_with(|| package_name(&dir.join("package.json")))
            .clone();
        if let Some(name) = name {
            let inside = path.strip_prefix(dir).ok()?.to_string_lossy().replace('\\', "/");
            return Some(format!("js:{name}/{inside}"));
        }
        dir = dir.parent()?;
    }
}

/// The `name` a `package.json` declares, if it is there and declares one.
fn package_name(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value.get("name")?.as_str().map(str::to_string)
}
