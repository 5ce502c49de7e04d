//! Judging a new version of a test file against its signature.
//!
//! Tests and containers are matched by (container path, name, occurrence among equal names); a test whose hash
//! differs changed, one without a match was deleted (or renamed out of collection). Other units are matched as
//! a multiset of (kind, hash): one that found no equal was changed or removed — paired with a new unit of the
//! same kind and name when there is one, to point at where it is now.
//!
//! Allowed without a finding: new tests, helpers and imports; new containers made only of those; an existing
//! container whose shell is unchanged and that only gained such units. Not allowed: new setup or other code at
//! any level (it runs around existing tests), and in Python, where a later definition replaces an earlier one of
//! the same name, a new definition named like an existing one. Markers are counted per (kind, spelling, owner);
//! each one beyond the old count is reported at its line.

use std::collections::HashMap;

use super::lex::Lexed;
use super::sig::{self, Scanned};
use super::{FileSig, Finding, Lang, Node, Unit, UnitKind};

/// The findings on `new_text` (read as `lang`) against the signature taken earlier, in line order.
pub fn compare(old: &FileSig, new_text: &str, lang: Lang) -> Vec<Finding> {
    let scanned = sig::scan(lang, old.scope, new_text);
    let mut judge = Judge {
        lx: &scanned.lexed,
        lang,
        out: Vec::new(),
    };
    judge.level(&old.units, &scanned.nodes, "");
    judge.markers(old, &scanned);
    let mut out = judge.out;
    out.sort_by_key(|finding| finding.line().unwrap_or(u32::MAX));
    out
}

/// The findings for a test file that no longer exists: each of its tests was deleted.
pub fn deleted_file(old: &FileSig) -> Vec<Finding> {
    let mut out = Vec::new();
    gone_tests(&old.units, "", sig::separator(old.lang), &mut out);
    out
}

fn gone_tests(units: &[Unit], path: &str, sep: &str, out: &mut Vec<Finding>) {
    for unit in units {
        let name = join(path, &unit.name, sep);
        match unit.kind {
            UnitKind::Test => out.push(Finding::TestDeleted { name }),
            UnitKind::Container => gone_tests(&unit.children, &name, sep, out),
            _ => {}
        }
    }
}

fn join(path: &str, name: &str, sep: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}{sep}{name}")
    }
}

/// Whether an old import or other statement and a new one are probably the same statement edited: same kind,
/// same first word (`TOLERANCE = 1e-6` → `TOLERANCE = 1`, `import os` → `import os, sys`).
fn same_statement(unit: &Unit, node: &Node) -> bool {
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

struct Judge<'l, 'a> {
    lx: &'l Lexed<'a>,
    lang: Lang,
    out: Vec<Finding>,
}

/// A test's or container's identity within its level.
type Key<'u> = (bool, &'u str, usize);

/// Gives each test and container its key: containers and tests apart, the n-th of a name gets n.
fn keys<'u>(names: impl Iterator<Item = (UnitKind, &'u str)>) -> Vec<Option<Key<'u>>> {
    let mut seen: HashMap<(bool, &str), usize> = HashMap::new();
    names
        .map(|(kind, name)| {
            let container = match kind {
                UnitKind::Test => false,
                UnitKind::Container => true,
                _ => return None,
            };
            let n = seen.entry((container, name)).or_default();
            *n += 1;
            Some((container, name, *n - 1))
        })
        .collect()
}

impl Judge<'_, '_> {
    fn level(&mut self, old: &[Unit], new: &[Node], path: &str) {
        let sep = sig::separator(self.lang);
        let old_keys = keys(old.iter().map(|unit| (unit.kind, unit.name.as_str())));
        let new_keys = keys(new.iter().map(|node| (node.kind, node.name.as_str())));
        let mut keyed: HashMap<Key, &Unit> = HashMap::new();
        let mut pool: HashMap<(UnitKind, &str), Vec<&Unit>> = HashMap::new();
        for (unit, key) in old.iter().zip(&old_keys) {
            match key {
                Some(key) => {
                    keyed.insert(*key, unit);
                }
                None => pool.entry((unit.kind, unit.hash.as_str())).or_default().push(unit),
            }
        }
        let mut new_keyed = Vec::new();
        let mut new_plain = Vec::new();
        for (node, key) in new.iter().zip(&new_keys) {
            match key {
                Some(key) => match keyed.remove(key) {
                    Some(unit) => self.matched(unit, node, &join(path, &node.name, sep)),
                    None => new_keyed.push(node),
                },
                None => match pool.get_mut(&(node.kind, node.hash.as_str())).and_then(Vec::pop) {
                    Some(_) => {}
                    None => new_plain.push(node),
                },
            }
        }
        let mut gone: Vec<&Unit> = keyed.into_values().collect();
        gone.sort_by_key(|unit| unit.line);
        for unit in gone {
            self.gone(unit, path);
        }
        let mut changed: Vec<&Unit> = pool.into_values().flatten().collect();
        changed.sort_by_key(|unit| unit.line);
        for unit in changed {
            let now = new_plain
                .iter()
                .position(|node| node.kind == unit.kind && node.name == unit.name)
                .or_else(|| new_plain.iter().position(|node| same_statement(unit, node)));
            let now = now.map(|at| new_plain.remove(at));
            self.out.push(Finding::BlockChanged {
                kind: unit.kind,
                name: join(path, &unit.name, sep),
                line: now.map(|node| node.line),
                text: now.map(|node| self.lx.line_text(node.line)),
                old_line: unit.line,
            });
        }
        for node in new_plain.into_iter().chain(new_keyed) {
            let replaced = self.replaces(old, node);
            self.added(node, replaced, &join(path, &node.name, sep));
        }
    }

    /// An old test or container found again under the same key.
    fn matched(&mut self, unit: &Unit, node: &Node, name: &str) {
        if unit.hash == node.hash {
            return;
        }
        if node.kind == UnitKind::Test {
            self.out.push(Finding::TestChanged {
                name: name.to_string(),
                line: node.line,
                text: self.lx.line_text(node.line),
            });
            return;
        }
        if unit.shell_hash != node.shell_hash {
            self.out.push(Finding::BlockChanged {
                kind: UnitKind::Container,
                name: name.to_string(),
                line: Some(node.line),
                text: Some(self.lx.line_text(node.line)),
                old_line: unit.line,
            });
        }
        self.level(&unit.children, &node.children, name);
    }

    /// An old test or container with no match: its tests are deleted; a container without tests is reported
    /// itself.
    fn gone(&mut self, unit: &Unit, path: &str) {
        let before = self.out.len();
        gone_tests(
            std::slice::from_ref(unit),
            path,
            sig::separator(self.lang),
            &mut self.out,
        );
        if self.out.len() == before {
            self.out.push(Finding::BlockChanged {
                kind: unit.kind,
                name: join(path, &unit.name, sig::separator(self.lang)),
                line: None,
                text: None,
                old_line: unit.line,
            });
        }
    }

    /// Whether `node` takes the name of an existing definition at its level, which in Python (and for
    /// JavaScript function declarations) replaces it.
    fn replaces(&self, old: &[Unit], node: &Node) -> Option<u32> {
        let named = |kind: UnitKind| {
            matches!(
                kind,
                UnitKind::Test | UnitKind::Container | UnitKind::Helper | UnitKind::Setup
            )
        };
        let applies = match self.lang {
            Lang::Python => named(node.kind),
            Lang::JavaScript => node.kind == UnitKind::Helper,
            Lang::Rust | Lang::Go => false,
        };
        if !applies {
            return None;
        }
        old.iter()
            .find(|unit| {
                named(unit.kind) && unit.name == node.name && (self.lang == Lang::Python || unit.kind == node.kind)
            })
            .map(|unit| unit.line)
    }

    /// A unit with no old counterpart. `replaced`: the line of the old definition it replaces.
    fn added(&mut self, node: &Node, replaced: Option<u32>, name: &str) {
        let text = self.lx.line_text(node.line);
        match (node.kind, replaced) {
            (UnitKind::Test, Some(_)) => self.out.push(Finding::TestChanged {
                name: name.to_string(),
                line: node.line,
                text,
            }),
            (UnitKind::Container | UnitKind::Helper, Some(old_line)) => self.out.push(Finding::BlockChanged {
                kind: node.kind,
                name: name.to_string(),
                line: Some(node.line),
                text: Some(text),
                old_line,
            }),
            (UnitKind::Setup | UnitKind::Other, _) => self.out.push(Finding::SetupAdded {
                kind: node.kind,
                what: name.to_string(),
                line: node.line,
                text,
            }),
            (UnitKind::Container, None) => {
                for child in &node.children {
                    self.added(child, None, &join(name, &child.name, sig::separator(self.lang)));
                }
            }
            (UnitKind::Test | UnitKind::Helper | UnitKind::Import, _) => {}
        }
    }

    /// Each marker beyond the old count of its (kind, spelling, owner).
    fn markers(&mut self, old: &FileSig, scanned: &Scanned) {
        let allowance: HashMap<(super::MarkerKind, &str, &str), u32> = old
            .markers
            .iter()
            .map(|m| ((m.kind, m.key.as_str(), m.owner.as_str()), m.count))
            .collect();
        let mut seen: HashMap<(super::MarkerKind, &str, &str), u32> = HashMap::new();
        // Of n markers where m were there before, the last n - m are the new ones.
        for (found, owner) in &scanned.markers {
            let key = (found.kind, found.key.as_str(), owner.as_str());
            let index = seen.entry(key).or_default();
            *index += 1;
            if *index > allowance.get(&key).copied().unwrap_or(0) {
                self.out.push(Finding::MarkerAdded {
                    kind: found.kind,
                    line: found.line,
                    text: self.lx.line_text(found.line),
                });
            }
        }
    }
}
