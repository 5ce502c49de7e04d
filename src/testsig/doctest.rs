//! Rust doctests: the code blocks of doc comments, which `cargo test` compiles and runs as tests of a library.
//!
//! The lexer keeps comments out of the token stream, so a doctest would otherwise be invisible: an agent could
//! weaken `assert_eq!(add(1, 2), 3)` in a `///` example, or mark it `ignore`, and the run would still pass. Each
//! Rust code block of a `///` or `//!` comment (fence info empty, `rust`, or only rustdoc's attributes such as
//! `should_panic`, `no_run`, `ignore`, `edition2021`) becomes a unit named after the item it documents
//! (`doctest add: assert_eq!(…)`, by its first line; `doctest (module): …` for `//!`), hashed over its fence info and its trimmed, non-blank lines.
//! The units are matched by content, as helpers are (so the scanner counts them as such, not as tests): a new
//! example anywhere is an addition, a changed, ignored or deleted one is named.
//! They are gathered under one container, `(doctests)`, placed at the end of the file (an empty span there, so no
//! marker of the code is attributed to it). Adding a doc example is adding a test; changing, deleting or
//! ignoring one changes or removes a test.
//!
//! Python's doctests (run by `pytest --doctest-modules`) are read the same way from a source module read inline,
//! in its folder (`src/ecosystem/python/doctest.rs`, `doctest::python`), into the same container.

include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/doctest.rs"));

use super::lex::{Lexed, TokKind};
use super::norm;
use super::{Node, UnitKind};

/// Fence words that keep a block a Rust doctest.
const RUST_FENCE: &[&str] = &[
    "rust",
    "should_panic",
    "no_run",
    "ignore",
    "compile_fail",
    "test_harness",
    "allow_fail",
    "edition2015",
    "edition2018",
    "edition2021",
    "edition2024",
];
/// Item keywords whose next identifier names the item.
const ITEMS: &[&str] = &[
    "fn",
    "struct",
    "enum",
    "trait",
    "mod",
    "const",
    "static",
    "type",
    "union",
    "macro_rules",
];

/// The `(doctests)` container of a Rust file, if it has any doctest.
pub(crate) fn container(lx: &Lexed) -> Option<Node> {
    let end = lx.text.len();
    let mut tests: Vec<Node> = Vec::new();
    let mut group: Vec<(u32, &str)> = Vec::new();
    let mut group_end = 0;
    let mut inner = false;
    let flush = |group: &mut Vec<(u32, &str)>, group_end: usize, inner: bool, tests: &mut Vec<Node>| {
        if group.is_empty() {
            return;
        }
        let item = if inner {
            "(module)".to_string()
        } else {
            item_after(lx, group_end)
        };
        for (line, first, hash) in blocks(group) {
            tests.push(example(&item, &first, line, hash, end));
        }
        group.clear();
    };
    for comment in &lx.comments {
        let text = &lx.text[comment.start..comment.end];
        let (doc, is_inner) = if let Some(rest) = text.strip_prefix("//!") {
            (rest, true)
        } else if let Some(rest) = text.strip_prefix("///").filter(|r| !r.starts_with('/')) {
            (rest, false)
        } else {
            flush(&mut group, group_end, inner, &mut tests);
            continue;
        };
        let follows = group.last().is_some_and(|(line, _)| line + 1 == comment.line) && inner == is_inner;
        if !follows {
            flush(&mut group, group_end, inner, &mut tests);
        }
        inner = is_inner;
        group.push((comment.line, doc.strip_prefix(' ').unwrap_or(doc)));
        group_end = comment.end;
    }
    flush(&mut group, group_end, inner, &mut tests);
    gather(tests, end)
}

/// One example unit, placed at the end of the file, named by its item and first line (`doctest add: >>> add(1,
/// 2)`). Matched by content, not by position: a new example before an existing one of the same item is an
/// addition, and a changed or deleted example is named.
fn example(item: &str, first: &str, line: u32, hash: String, end: usize) -> Node {
    const MAX: usize = 60;
    let first: String = first.chars().take(MAX).collect();
    Node {
        kind: UnitKind::Helper,
        name: format!("doctest {item}: {first}"),
        line,
        hash,
        shell_hash: None,
        span: end..end,
        gated: true,
        names: Vec::new(),
        table: None,
        children: Vec::new(),
    }
}

/// The container of a file's examples; none without any.
fn gather(tests: Vec<Node>, end: usize) -> Option<Node> {
    if tests.is_empty() {
        return None;
    }
    let shell = norm::digest(b"(doctests)");
    Some(Node {
        kind: UnitKind::Container,
        name: "(doctests)".to_string(),
        line: tests[0].line,
        hash: norm::combine(&shell, tests.iter().map(|t| t.hash.as_str())),
        shell_hash: Some(shell),
        span: end..end,
        gated: true,
        names: Vec::new(),
        table: None,
        children: tests,
    })
}

/// The Rust code blocks of one doc comment: the line of each opening fence, the block's first line of code and
/// its hash.
fn blocks(lines: &[(u32, &str)]) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(u32, String, Vec<String>)> = None;
    for (line, text) in lines {
        let trimmed = text.trim();
        match (open.take(), trimmed.strip_prefix("```")) {
            (None, Some(info)) => open = Some((*line, info.trim().to_string(), Vec::new())),
            (Some((start, info, code)), Some(_)) => {
                let rust = info
                    .split([',', ' '])
                    .filter(|w| !w.is_empty())
                    .all(|w| RUST_FENCE.contains(&w));
                if rust {
                    let body = format!("{info}\n{}", code.join("\n"));
                    let first = code.first().cloned().unwrap_or_default();
                    out.push((start, first, norm::digest(body.as_bytes())));
                }
            }
            (Some((start, info, mut code)), None) => {
                if !trimmed.is_empty() {
                    code.push(trimmed.to_string());
                }
                open = Some((start, info, code));
            }
            (None, None) => {}
        }
    }
    out
}

/// The name of the item that starts after byte `pos`: the identifier after its keyword (`impl` for an impl).
fn item_after(lx: &Lexed, pos: usize) -> String {
    let first = lx.toks.partition_point(|t| t.start < pos);
    let words = lx.toks[first..]
        .iter()
        .take(64)
        .filter(|t| t.kind == TokKind::Ident)
        .map(|t| &lx.text[t.start..t.end]);
    let mut previous = "";
    for word in words {
        if ITEMS.contains(&previous) {
            return word.to_string();
        }
        if word == "impl" {
            return "impl".to_string();
        }
        previous = word;
    }
    "(item)".to_string()
}
