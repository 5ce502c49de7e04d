//! What the brace languages (JavaScript/TypeScript, Rust, Go) share: splitting a run of tokens into statements,
//! and building leaf and container units with their hashes.
//!
//! A statement ends at a `;` outside brackets, or where the language's rule says (a line break that inserts a
//! semicolon, the `}` that closes an item's body). Bracketed groups are stepped over whole, so a statement never
//! ends inside one and the split is linear in the number of tokens.

use std::ops::Range;

use super::lex::Lexed;
use super::norm::{self, Norm};
use super::table;
use super::{Node, UnitKind};

/// Splits tokens `from..to` into statements. `ends(start, last, next)` says whether the statement that began at
/// `start` ends after token `last`, given that `next` comes next (a `;` always ends one).
pub(crate) fn statements(
    lx: &Lexed,
    from: usize,
    to: usize,
    ends: impl Fn(usize, usize, usize) -> bool,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        let start = i;
        loop {
            if lx.is(i, b';') {
                i += 1;
                break;
            }
            let next = match lx.skip(i) {
                after if after <= to => after,
                _ => i + 1,
            };
            let last = next - 1;
            i = next;
            if i >= to || ends(start, last, i) {
                break;
            }
        }
        out.push(start..i);
    }
    out
}

/// Whether tokens `i` and `i + 1` spell `=>` with nothing between them.
pub(crate) fn arrow_at(lx: &Lexed, i: usize) -> bool {
    lx.is(i, b'=') && lx.is(i + 1, b'>') && adjacent(lx, i)
}

/// Whether token `i + 1` starts right where token `i` ends (`+=`, `::`, `=>` are two tokens each).
pub(crate) fn adjacent(lx: &Lexed, i: usize) -> bool {
    match (lx.toks.get(i), lx.toks.get(i + 1)) {
        (Some(a), Some(b)) => a.end == b.start,
        _ => false,
    }
}

/// Whether `last` is the `}` closing a brace group that opened inside the statement starting at `start`.
pub(crate) fn closes_block(lx: &Lexed, start: usize, last: usize) -> bool {
    lx.is(last, b'}') && lx.partner(last).is_some_and(|open| open >= start && open < last)
}

/// The byte span of tokens `range`.
pub(crate) fn span(lx: &Lexed, range: &Range<usize>) -> Range<usize> {
    let start = lx.toks.get(range.start).map_or(0, |tok| tok.start);
    let end = range
        .end
        .checked_sub(1)
        .and_then(|last| lx.toks.get(last))
        .map_or(start, |tok| tok.end);
    start..end
}

/// The 1-based line of token `i`.
pub(crate) fn line_of(lx: &Lexed, i: usize) -> u32 {
    lx.toks.get(i).map_or(1, |tok| tok.line)
}

/// A unit without children, hashed over `range`.
pub(crate) fn leaf(lx: &Lexed, kind: UnitKind, name: String, head: usize, range: Range<usize>) -> Node {
    let mut norm = Norm::new(lx);
    norm.tokens(range.start, range.end);
    let hash = norm.finish();
    drop(norm);
    let rows = table::rows(lx, range.clone());
    let table = (!rows.is_empty()).then(|| table::digest(lx, &rows, |norm| norm.tokens(range.start, range.end)));
    Node {
        kind,
        name,
        line: line_of(lx, head),
        hash,
        shell_hash: None,
        span: span(lx, &range),
        children: Vec::new(),
        gated: false,
        names: Vec::new(),
        table,
    }
}

/// A container over `range` whose children fill `body` (the tokens between its braces).
pub(crate) fn container(
    lx: &Lexed,
    name: String,
    head: usize,
    range: Range<usize>,
    body: Range<usize>,
    children: Vec<Node>,
) -> Node {
    let mut norm = Norm::new(lx);
    norm.tokens(range.start, body.start);
    norm.tokens(body.end, range.end);
    let shell = norm.finish();
    let hash = norm::combine(&shell, children.iter().map(|child| child.hash.as_str()));
    Node {
        kind: UnitKind::Container,
        name,
        line: line_of(lx, head),
        hash,
        shell_hash: Some(shell),
        span: span(lx, &range),
        children,
        gated: false,
        names: Vec::new(),
        table: None,
    }
}

/// The name of a unit that has none of its own (imports, other statements): its first line.
pub(crate) fn first_line(lx: &Lexed, head: usize) -> String {
    lx.line_text(line_of(lx, head))
}
