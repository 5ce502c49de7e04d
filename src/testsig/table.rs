//! Tables of test cases: the rows of `@pytest.mark.parametrize`, `.each([…])`, `#[case(…)]` / `#[test_case(…)]`,
//! Go's `[]struct{…}{…}` / `map[…]struct{…}{…}` literals and the list a PHPUnit data provider returns. Each row is a test case, so a test that only
//! gained rows gained tests and weakened none.
//!
//! Only these spellings count as tables: an item added to any other list (`assert x in [1, 2]`, an expected
//! slice) can make a check weaker, so it stays a change.

use std::ops::Range;

use super::Table;
use super::lex::{Lexed, TokKind};
use super::norm::Norm;

/// The token ranges of the rows of every table in tokens `range` (a row's trailing comma included, so that a
/// unit with its rows cut out reads the same whatever the number of rows).
pub(crate) fn rows(lx: &Lexed, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    if let Some(list) = named_table(lx, range.start) {
        list_rows(lx, list, &mut out);
    }
    let mut i = range.start;
    while i < range.end {
        i = lx.language.table_rows(lx, i, range.start, &mut out).max(i + 1);
    }
    out.retain(|row| row.start >= range.start && row.end <= range.end);
    out.sort_by_key(|row| row.start);
    out.dedup_by(|a, b| a.start < b.end);
    out
}

/// The names of lists passed whole as a table: `parametrize("a,b", CASES)`, `.each(CASES)`.
pub(crate) fn names(lx: &Lexed) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..lx.toks.len() {
        let Some(argument) = lx.language.table_argument(lx, i) else {
            continue;
        };
        let end = if lx.is(argument.end.saturating_sub(1), b',') {
            argument.end - 1
        } else {
            argument.end
        };
        if end == argument.start + 1 && lx.kind(argument.start) == Some(TokKind::Ident) {
            out.push(lx.s(argument.start).to_string());
        }
    }
    out.extend(lx.language.declared_tables(lx));
    out.sort();
    out.dedup();
    out
}

/// The list opener of a statement at `s` that binds a table by name: `CASES = [` (Python), `const CASES = [`
/// (JavaScript).
fn named_table(lx: &Lexed, s: usize) -> Option<usize> {
    if lx.tables.is_empty() {
        return None;
    }
    let name_at = lx.language.table_binding(lx, s)?;
    let named = lx.kind(name_at) == Some(TokKind::Ident) && lx.tables.iter().any(|name| name == lx.s(name_at));
    let list = name_at + 2;
    (named && lx.is(name_at + 1, b'=') && !lx.is(list, b'=') && (lx.is(list, b'[') || lx.is(list, b'(')))
        .then_some(list)
}

/// The top-level arguments of the call whose `(` is at `open`, each with its trailing comma.
pub(crate) fn arguments(lx: &Lexed, open: usize) -> Vec<Range<usize>> {
    let Some(close) = lx.partner(open).filter(|&close| close > open) else {
        return Vec::new();
    };
    items(lx, open + 1, close)
}

/// Items of tokens `from..to` separated by top-level commas, each with its trailing comma.
fn items(lx: &Lexed, from: usize, to: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = from;
    let mut i = from;
    while i < to {
        if lx.is(i, b',') {
            out.push(start..i + 1);
            start = i + 1;
            i += 1;
        } else {
            i = lx.skip(i).min(to);
        }
    }
    if start < to {
        out.push(start..to);
    }
    out
}

/// The rows of the list, tuple or composite literal opened at `open` (if it is one), pushed to `out`.
pub(crate) fn list_rows(lx: &Lexed, open: usize, out: &mut Vec<Range<usize>>) {
    if !(lx.is(open, b'[') || lx.is(open, b'{') || lx.is(open, b'(')) {
        return;
    }
    if let Some(close) = lx.partner(open).filter(|&close| close > open) {
        out.extend(items(lx, open + 1, close));
    }
}

/// A unit's table digest: its hash with the rows cut out, and each row's hash.
pub(crate) fn digest(lx: &Lexed, rows: &[Range<usize>], skeleton: impl FnOnce(&mut Norm)) -> Table {
    let mut norm = Norm::new(lx);
    norm.cut(rows.to_vec());
    skeleton(&mut norm);
    let skeleton = norm.finish();
    norm.cut(Vec::new());
    let rows = rows
        .iter()
        .map(|row| {
            let end = if lx.is(row.end.saturating_sub(1), b',') {
                row.end - 1
            } else {
                row.end
            };
            norm.tokens(row.start, end);
            norm.finish()
        })
        .collect();
    Table { skeleton, rows }
}
