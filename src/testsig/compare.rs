//! Judging a new version of a test file against its signature.
//!
//! Tests and containers are matched by (container path, name, occurrence among equal names); a test whose hash
//! differs changed, one without a match was deleted (or renamed out of collection). Other units are matched as
//! a multiset of (kind, hash): one that found no equal was changed or removed — paired with a new unit of the
//! same kind and name when there is one, to point at where it is now.
//!
//! Allowed without a finding: new tests, helpers and imports; names added to an existing import; rows added to a
//! table of test cases (`parametrize`, `.each`, `#[case]`, Go's `[]struct{…}{…}`); new containers made only of
//! those, and the setup hooks of a new container (they run around its new tests only); an existing container whose
//! shell is unchanged and that only gained such units. Not allowed: new setup or other code at any level beside
//! existing tests (it runs around them), and in Python, where a later definition replaces an earlier one of
//! the same name, a new definition named like an existing one. Markers are counted per (kind, spelling, owner);
//! each one beyond the old count is reported at its line.

mod same;

use std::collections::HashMap;

use same::{display_name, extends, only_gained_rows, same_statement};

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
        // An import that only gained names is still the same import (and one new import may take in several
        // old ones, as `isort` merges them).
        changed.retain(|unit| !new_plain.iter().any(|node| extends(unit, node)));
        for unit in changed {
            let now = new_plain
                .iter()
                .position(|node| node.kind == unit.kind && node.name == unit.name)
                .or_else(|| new_plain.iter().position(|node| same_statement(unit, node)));
            let now = now.map(|at| new_plain.remove(at));
            if now.is_some_and(|node| node.kind == unit.kind && only_gained_rows(unit, node)) {
                continue;
            }
            self.out.push(Finding::BlockChanged {
                kind: unit.kind,
                name: join(path, &display_name(unit), sep),
                line: now.map(|node| node.line),
                text: now.map(|node| self.lx.line_text(node.line)),
                old_line: unit.line,
            });
        }
        let replaceable = self.replaceable(old);
        for node in new_plain.into_iter().chain(new_keyed) {
            let replaced = self.replaces(&replaceable, node);
            self.added(node, replaced, &join(path, &node.name, sep));
        }
    }

    /// An old test or container found again under the same key.
    fn matched(&mut self, unit: &Unit, node: &Node, name: &str) {
        if unit.hash == node.hash || only_gained_rows(unit, node) {
            return;
        }
        if node.kind == UnitKind::Test {
            self.out.push(Finding::TestChanged {
                name: name.to_string(),
                line: node.line,
                text: self.lx.line_text(node.line),
                old_line: unit.line,
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

    /// The names at a level that a new definition of the same name would replace, with their lines: in Python
    /// every definition's and every name an import binds (`def parse(s): return 42` after
    /// `from mypkg import parse`); in JavaScript, function declarations'. Rust and Go reject such code.
    fn replaceable<'u>(&self, old: &'u [Unit]) -> HashMap<&'u str, u32> {
        let language = super::language(self.lang);
        let mut names = HashMap::new();
        for unit in old {
            if language.redefines(unit.kind) {
                names.entry(unit.name.as_str()).or_insert(unit.line);
            } else if unit.kind == UnitKind::Import {
                for item in &unit.names {
                    if let Some(bound) = language.import_binding(&unit.name, item) {
                        names.entry(bound).or_insert(unit.line);
                    }
                }
            }
        }
        names
    }

    /// Whether a new unit replaces an existing definition (see [`Judge::replaceable`]).
    fn replaces(&self, names: &HashMap<&str, u32>, node: &Node) -> Option<u32> {
        let defines = super::language(self.lang).redefines(node.kind);
        if defines {
            names.get(node.name.as_str()).copied()
        } else {
            None
        }
    }

    /// A unit with no old counterpart. `replaced`: the line of the old definition it replaces.
    fn added(&mut self, node: &Node, replaced: Option<u32>, name: &str) {
        let text = self.lx.line_text(node.line);
        match (node.kind, replaced) {
            (UnitKind::Test, Some(old_line)) => self.out.push(Finding::TestChanged {
                name: name.to_string(),
                line: node.line,
                text,
                old_line,
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
                // Setup in a new container (a `beforeEach` in a new `describe`, `setUp` in a new class) runs
                // around that container's tests, all of them new; whatever lasting effect it could have on
                // the existing tests is void in the oracle's run, where this file stands as sealed (`testswap`).
                for child in node.children.iter().filter(|child| child.kind != UnitKind::Setup) {
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
