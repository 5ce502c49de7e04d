//! How Python names a module it loaded (`closure::resolved`): by its dotted name, from the package directories
//! above the file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::module_name;

/// `…/site-packages/_pytest/python.py` → `py:_pytest.python`: up through the directories that hold an
/// `__init__.py`.
pub(super) fn name(packages: &mut HashMap<PathBuf, bool>, path: &Path, name: &str) -> Option<String> {
    let stem = module_name(name)?;
    let mut parts = vec![stem.to_string()];
    let mut dir = path.parent()?;
    while *packages
        .entry(dir.to_path_buf())
        .or_insert_with(|| dir.join("__init__.py").is_file())
    {
        parts.push(dir.file_name()?.to_str()?.to_string());
        dir = dir.parent()?;
    }
    if parts.len() > 1 && parts[0] == "__init__" {
        parts.remove(0);
    }
    parts.reverse();
    Some(format!("py:{}", parts.join(".")))
}
