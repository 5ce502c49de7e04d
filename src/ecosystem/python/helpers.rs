//! Python's test helpers (`testseal::helpers`): the project's name in `pyproject.toml`, and a module an import
//! names, found from the project root, `src/` and the test's directory (`from .x import` from the test's
//! package).

use std::path::{Path, PathBuf};

use super::{Helpers, normalize, toml_name};
use crate::testsig::{Lang, Unit};

pub(super) const HELPERS: Helpers = Helpers {
    lang: Lang::Python,
    project_name: |root| toml_name(root, "pyproject.toml", "project"),
    files,
};

/// `a.b` (and `a.b.NAME` for each imported name, which may be a submodule) as files.
fn files(root: &Path, dir: &Path, unit: &Unit) -> Vec<PathBuf> {
    let module = unit.name.as_str();
    let dots = module.chars().take_while(|c| *c == '.').count();
    let bases: Vec<PathBuf> = if dots > 0 {
        let mut base = dir.to_path_buf();
        for _ in 1..dots {
            base.pop();
        }
        vec![base]
    } else {
        vec![PathBuf::new(), PathBuf::from("src"), dir.to_path_buf()]
    };
    let module = &module[dots..];
    let mut modules = vec![module.to_string()];
    modules.extend(unit.names.iter().map(|n| {
        if module.is_empty() {
            n.clone()
        } else {
            format!("{module}.{n}")
        }
    }));
    let mut out = Vec::new();
    for base in &bases {
        for module in &modules {
            if module.is_empty() {
                continue;
            }
            let rel = base.join(module.replace('.', "/"));
            for file in [rel.with_extension("py"), rel.join("__init__.py")] {
                if root.join(&file).is_file() {
                    out.push(normalize(&file));
                }
            }
        }
    }
    out
}
