//! A file's signature: what is kept of a test file when the loop starts, to judge later versions against.
//!
//! It holds the unit tree (kinds, names, lines and hashes — no source text) and the markers counted by kind,
//! spelling and the unit they sit in. It serializes compactly (a few dozen bytes per unit) for the seal.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::lex::{self, Lexed};
use super::markers::{self, Found};
use super::{Lang, MarkerKind, Node, Unit, UnitKind};

/// What is kept of a test file to compare later versions with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSig {
    pub(crate) lang: Lang,
    #[serde(default)]
    pub(crate) scope: Scope,
    pub(crate) units: Vec<Unit>,
    /// Markers counted by kind, spelling and owner, in a stable order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) markers: Vec<MarkerCount>,
}

/// Which parts of a file count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// A test file: every unit counts.
    #[default]
    TestFile,
    /// A source file holding tests inline: only its top-level tests and test-only blocks (`#[cfg(test)] mod`,
    /// `if (import.meta.vitest)`, any container with a test in it) count; the code around them is the code under
    /// test and may change freely.
    Inline,
}

/// How many markers of one kind and spelling one unit holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkerCount {
    pub(crate) kind: MarkerKind,
    /// The spelling that matched, normalized: `mark.skip`, `it.only`, `cfg(FALSE)`, `//go:build ignore`.
    pub(crate) key: String,
    /// The path of names of the innermost unit holding it (`TestParser::test_x`); empty at file level.
    pub(crate) owner: String,
    pub(crate) count: u32,
}

impl FileSig {
    /// The signature of a test file: `text` read as `lang`.
    pub fn of(lang: Lang, text: &str) -> FileSig {
        FileSig::with_scope(lang, Scope::TestFile, text)
    }

    /// The signature of the tests inside a source file (one that [`super::may_hold_tests`]).
    pub fn inline(lang: Lang, text: &str) -> FileSig {
        FileSig::with_scope(lang, Scope::Inline, text)
    }

    fn with_scope(lang: Lang, scope: Scope, text: &str) -> FileSig {
        let scanned = scan(lang, scope, text);
        let mut counts: BTreeMap<(MarkerKind, &str, &str), u32> = BTreeMap::new();
        for (found, owner) in &scanned.markers {
            *counts
                .entry((found.kind, found.key.as_str(), owner.as_str()))
                .or_default() += 1;
        }
        let markers = counts
            .into_iter()
            .map(|((kind, key, owner), count)| MarkerCount {
                kind,
                key: key.to_string(),
                owner: owner.to_string(),
                count,
            })
            .collect();
        FileSig {
            lang,
            scope,
            units: scanned.nodes.into_iter().map(Node::into_unit).collect(),
            markers,
        }
    }
}

/// A file read in full: tokens, units and markers with their owners.
pub(crate) struct Scanned<'a> {
    pub(crate) lexed: Lexed<'a>,
    pub(crate) nodes: Vec<Node>,
    pub(crate) markers: Vec<(Found, String)>,
}

pub(crate) fn scan(lang: Lang, scope: Scope, text: &str) -> Scanned<'_> {
    let lexed = lex::lex(lang, text);
    let mut nodes = super::units(lang, &lexed);
    if scope == Scope::Inline {
        nodes.retain(test_code);
        // A module read inline may be one its runner collects examples from (Python's doctests).
        nodes.extend(lexed.language.inline_doctests(&lexed));
    }
    let markers = markers::find(&lexed)
        .into_iter()
        .map(|found| {
            let owner = owner(&nodes, found.pos, lang);
            (found, owner)
        })
        .filter(|(_, owner)| scope == Scope::TestFile || !owner.is_empty())
        .collect();
    Scanned { lexed, nodes, markers }
}

/// Whether a top-level unit of a source file is test code.
fn test_code(node: &Node) -> bool {
    node.kind == UnitKind::Test || node.gated || node.children.iter().any(test_code)
}

/// The separator of names in a unit's path: pytest and Rust write `::`, JavaScript runners ` > `.
pub(crate) fn separator(lang: Lang) -> &'static str {
    if lang == Lang::JavaScript { " > " } else { "::" }
}

/// The path of names of the innermost unit whose span holds byte `pos`.
fn owner(nodes: &[Node], pos: usize, lang: Lang) -> String {
    let mut names: Vec<&str> = Vec::new();
    let mut level = nodes;
    loop {
        let after = level.partition_point(|node| node.span.start <= pos);
        let Some(node) = after.checked_sub(1).map(|at| &level[at]) else {
            break;
        };
        if pos >= node.span.end {
            break;
        }
        names.push(&node.name);
        level = &node.children;
    }
    names.join(separator(lang))
}
