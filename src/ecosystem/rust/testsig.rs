//! Rust units: items and the attributes on them.
//!
//! A `fn` with a test attribute (`#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(…)]`, …: any attribute
//! whose last path segment names a test) is a test; `#[ctor]`/`#[dtor]` functions run around every test and are
//! setup; `mod name { … }` and `proptest! { … }` are containers; `use`, `extern crate` and `mod name;` are imports;
//! other items (functions, types, impls, consts, statics, `macro_rules!`) are helpers; item-level macro calls,
//! inner attributes (`#![…]`) and a `macro_rules!` or `use` that takes the name of a check macro (`assert_eq`)
//! are other code.

use std::ops::Range;

use super::braces::{self, closes_block, first_line, leaf, statements};
use super::imports;
use super::lex::{Lexed, TokKind};
use super::{MAX_DEPTH, Node, UnitKind};

/// Last path segments of attributes that make a function a test.
const TEST_ATTRS: [&str; 7] = [
    "test",
    "rstest",
    "test_case",
    "test_matrix",
    "wasm_bindgen_test",
    "quickcheck",
    "bench",
];

/// Item keywords whose item ends at `;` even after a `{…}` (`const X: S = S { a: 1 };`).
const SEMI_ITEMS: [&str; 5] = ["const", "static", "let", "type", "use"];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    let mut nodes = items(lx, 0, lx.toks.len(), 0);
    nodes.extend(super::doctest::container(lx));
    nodes
}

fn items(lx: &Lexed, from: usize, to: usize, depth: usize) -> Vec<Node> {
    statements(lx, from, to, |start, last, _| ends(lx, start, last))
        .into_iter()
        .map(|range| item(lx, range, depth))
        .collect()
}

fn ends(lx: &Lexed, start: usize, last: usize) -> bool {
    if inner_attribute(lx, start) {
        return lx.skip(start + 2) == last + 1;
    }
    closes_block(lx, start, last) && !SEMI_ITEMS.contains(&lx.s(head(lx, start)))
}

fn inner_attribute(lx: &Lexed, i: usize) -> bool {
    lx.is(i, b'#') && lx.is(i + 1, b'!') && lx.is(i + 2, b'[')
}

/// The index of the item's keyword: past outer attributes, visibility and qualifiers.
fn head(lx: &Lexed, start: usize) -> usize {
    let mut i = start;
    loop {
        if lx.is(i, b'#') && lx.is(i + 1, b'[') {
            i = lx.skip(i + 1);
        } else if lx.is_word(i, "pub") {
            i = if lx.is(i + 1, b'(') { lx.skip(i + 1) } else { i + 1 };
        } else if ["unsafe", "async", "default", "safe"]
            .iter()
            .any(|word| lx.is_word(i, word))
            || (lx.is_word(i, "const") && (lx.is_word(i + 1, "fn") || lx.is_word(i + 1, "unsafe")))
        {
            i += 1;
        } else if lx.is_word(i, "extern") && lx.kind(i + 1) == Some(TokKind::Str) {
            i += 2;
        } else {
            return i;
        }
    }
}

/// The attributes before `head`, as the ranges inside their brackets.
fn attributes(lx: &Lexed, start: usize, head: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = start;
    while i < head {
        if lx.is(i, b'#') && lx.is(i + 1, b'[') {
            let end = lx.skip(i + 1);
            out.push(i + 2..end.saturating_sub(1));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The last segment of an attribute's path: `tokio::test` → `test`.
pub(crate) fn attribute_name<'a>(lx: &Lexed<'a>, attr: &Range<usize>) -> &'a str {
    let mut i = attr.start;
    let mut name = lx.s(i);
    while lx.is(i + 1, b':') && lx.is(i + 2, b':') && lx.kind(i + 3) == Some(TokKind::Ident) {
        i += 3;
        name = lx.s(i);
    }
    name
}

fn item(lx: &Lexed, range: Range<usize>, depth: usize) -> Node {
    let h = head(lx, range.start).min(range.end.saturating_sub(1));
    let word = if lx.kind(h) == Some(TokKind::Ident) {
        lx.s(h)
    } else {
        ""
    };
    let next_name = || {
        let at = if lx.is_word(h + 1, "crate") { h + 2 } else { h + 1 };
        if lx.kind(at) == Some(TokKind::Ident) {
            lx.s(at).to_string()
        } else {
            first_line(lx, h)
        }
    };
    let attrs = attributes(lx, range.start, h);
    let attr_named = |names: &[&str]| attrs.iter().any(|attr| names.contains(&attribute_name(lx, attr)));
    let mut node = match word {
        _ if inner_attribute(lx, range.start) => leaf(lx, UnitKind::Other, first_line(lx, range.start), h, range),
        "fn" => {
            let kind = if attr_named(&TEST_ATTRS) {
                UnitKind::Test
            } else if attr_named(&["ctor", "dtor"]) {
                UnitKind::Setup
            } else {
                UnitKind::Helper
            };
            leaf(lx, kind, next_name(), h, range)
        }
        "mod" if lx.is(h + 2, b'{') && depth < MAX_DEPTH => block(lx, next_name(), h, h + 2, range, depth),
        "mod" => {
            let kind = if lx.is(h + 2, b';') {
                UnitKind::Import
            } else {
                UnitKind::Other
            };
            leaf(lx, kind, next_name(), h, range)
        }
        "use" => {
            let import = imports::rust::import(lx, h, range.end);
            imports::classify(leaf(lx, UnitKind::Import, first_line(lx, h), h, range), import)
        }
        "extern" => leaf(lx, UnitKind::Import, first_line(lx, h), h, range),
        "proptest" if lx.is(h + 1, b'!') && lx.is(h + 2, b'{') && depth < MAX_DEPTH => {
            block(lx, "proptest!".to_string(), h, h + 2, range, depth)
        }
        "macro_rules" => {
            // `macro_rules! assert_eq { … }` shadows the standard macro in the code after it.
            let name = if lx.is(h + 1, b'!') {
                lx.s(h + 2).to_string()
            } else {
                next_name()
            };
            let kind = if check_macro(&name) {
                UnitKind::Other
            } else {
                UnitKind::Helper
            };
            leaf(lx, kind, name, h, range)
        }
        _ if lx.is(h + 1, b'!') => leaf(lx, UnitKind::Other, format!("{word}!"), h, range),
        "struct" | "enum" | "union" | "trait" | "type" | "const" | "static" => {
            leaf(lx, UnitKind::Helper, next_name(), h, range)
        }
        "impl" => {
            let open = (h..range.end).find(|&i| lx.is(i, b'{')).unwrap_or(range.end);
            let name = (h..open).map(|i| lx.s(i)).collect::<Vec<_>>().join(" ");
            leaf(lx, UnitKind::Helper, name, h, range)
        }
        _ => leaf(lx, UnitKind::Other, first_line(lx, h), h, range),
    };
    node.gated = attrs.iter().any(|attr| cfg_test(lx, attr));
    node
}

/// The macros tests check with: a new definition or import of one of these names replaces the real one.
const CHECK_MACROS: [&str; 14] = [
    "assert",
    "assert_eq",
    "assert_ne",
    "assert_matches",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "prop_assert",
    "prop_assert_eq",
    "prop_assert_ne",
    "prop_assume",
    "matches",
];

/// Whether `name` is one of the macros tests check with.
pub(crate) fn check_macro(name: &str) -> bool {
    CHECK_MACROS.contains(&name)
}

/// Whether an attribute is `cfg(test)`.
fn cfg_test(lx: &Lexed, attr: &Range<usize>) -> bool {
    let words: Vec<&str> = attr.clone().map(|i| lx.s(i)).collect();
    words == ["cfg", "(", "test", ")"]
}

/// A container whose body is the brace group opened at `open`.
fn block(lx: &Lexed, name: String, h: usize, open: usize, range: Range<usize>, depth: usize) -> Node {
    let close = lx
        .partner(open)
        .filter(|&close| close > open && close < range.end)
        .unwrap_or(range.end);
    let body = (open + 1).min(close)..close;
    let children = items(lx, body.start, body.end, depth + 1);
    braces::container(lx, name, h, range, body, children)
}

/// The module path rustc gives the items of the source file at `path` (project-relative): `src/ops.rs` and
/// `src/ops/mod.rs` are `ops`, `src/ops/tests.rs` is `ops::tests`, `src/lib.rs` is the crate root (empty). A test's
/// name as libtest prints it is this path and the test's path in the file, so a module turned into a directory, or
/// inline tests moved to a file of their own, keep their names. Files outside `src/` (integration tests,
/// examples) are crates of their own: the path is the file's name within its directory; but an integration test
/// target's root (`tests/api.rs`, `tests/api/main.rs`, a crate of its own that cargo finds by itself) is the crate
/// root, as libtest prints its tests' names, so a test moved to another such file (`tests/commutative.rs`) keeps
/// its name. Which target ran it is not part of the name: the sealed file stands in the oracle's run whatever the
/// agent did to it (`testswap`), and one copy never stands for two (`testseal`'s multiset).
pub(crate) fn module_path(path: &str) -> String {
    let path = path.strip_suffix(".rs").unwrap_or(path);
    let in_src = path.rsplit_once("src/").map_or(path, |(_, rest)| rest);
    let mut parts: Vec<&str> = in_src.split('/').collect();
    let root_file = matches!(parts.last(), Some(&("lib" | "main" | "mod")));
    if root_file {
        parts.pop();
    }
    if in_src.len() == path.len()
        && let Some(last) = parts.last()
    {
        // Not under `src/`: a crate of its own (a file of `tests/`, `examples/`, `benches/`). An integration test
        // target's root is `tests/NAME.rs` or `tests/NAME/main.rs`.
        let above = parts.len().checked_sub(2).and_then(|i| parts.get(i));
        let target_root = above == Some(&"tests") && (!root_file || in_src.ends_with("/main"));
        return if target_root {
            String::new()
        } else {
            (*last).to_string()
        };
    }
    parts.join("::")
}
