//! When an old unit and a new one are the same unit, edited in a way that needs no finding or can be named
//! together: the same statement edited, an import that only gained names, a table that only gained rows.

use std::collections::HashMap;

use crate::testsig::{Node, Unit, UnitKind};

/// Whether an old import or other statement and a new one are probably the same statement edited: same kind,
/// same first word (`TOLERANCE = 1e-6` → `TOLERANCE = 1`, `import os` → `import os, sys`).
pub(super) fn same_statement(unit: &Unit, node: &Node) -> bool {
    let first_word = |name: &str| -> String {
        name.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .find(|w| !w.is_empty())
            .unwrap_or("")
            .to_string()
    };
    matches!(unit.kind, UnitKind::Import | UnitKind::Other)
        && unit.kind == node.kind
        && first_word(&unit.name) == first_word(&node.name)
}

/// How a unit is named to the model: an import by its module and names (`import os`, `mypkg (Token, parse)`).
pub(super) fn display_name(unit: &Unit) -> String {
    match (unit.kind, unit.names.is_empty()) {
        (UnitKind::Import, false) if unit.name == "import" => format!("import {}", unit.names.join(", ")),
        (UnitKind::Import, false) => format!("{} ({})", unit.name, unit.names.join(", ")),
        _ => unit.name.clone(),
    }
}

/// Whether `node` is `unit` with rows added to its tables of test cases, and nothing else changed.
pub(super) fn only_gained_rows(unit: &Unit, node: &Node) -> bool {
    let (Some(old), Some(new)) = (&unit.table, &node.table) else {
        return false;
    };
    if old.skeleton != new.skeleton {
        return false;
    }
    let mut left: HashMap<&str, usize> = HashMap::new();
    for row in &new.rows {
        *left.entry(row.as_str()).or_default() += 1;
    }
    old.rows.iter().all(|row| match left.get_mut(row.as_str()) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    })
}

/// Whether `node` is the import `unit` with names added (and none dropped).
pub(super) fn extends(unit: &Unit, node: &Node) -> bool {
    unit.kind == UnitKind::Import
        && node.kind == UnitKind::Import
        && unit.name == node.name
        && !unit.names.is_empty()
        && unit.names.iter().all(|name| node.names.contains(name))
}
