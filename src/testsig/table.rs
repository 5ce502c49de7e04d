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
        match lx.lang {
            super::Lang::Python if lx.is_word(i, "parametrize") && lx.is(i + 1, b'(') => {
                python_parametrize(lx, i + 1, &mut out);
            }
            super::Lang::JavaScript if lx.is_word(i, "each") && lx.is(i + 1, b'(') && i > 0 && lx.is(i - 1, b'.') => {
                if let Some(first) = arguments(lx, i + 1).first() {
                    list_rows(lx, first.start, &mut out);
                }
            }
            super::Lang::Rust if lx.is(i, b'#') && lx.is(i + 1, b'[') => {
                let end = lx.skip(i + 1);
                let name = super::rust::attribute_name(lx, &(i + 2..end.saturating_sub(1)));
                if matches!(name, "case" | "test_case") {
                    out.push(i..end);
                }
                i = end;
                continue;
            }
            // A PHPUnit data provider's returned list: `return [...]` or `return array(...)`.
            super::Lang::Php if lx.is_word(i, "return") && super::php::provides(lx, range.start) => {
                let list = if lx.is_word(i + 1, "array") { i + 2 } else { i + 1 };
                list_rows(lx, list, &mut out);
            }
            super::Lang::Go if lx.is_word(i, "struct") && lx.is(i + 1, b'{') && i > 0 && lx.is(i - 1, b']') => {
                let literal = lx.skip(i + 1);
                list_rows(lx, literal, &mut out);
            }
            _ => {}
        }
        i += 1;
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
        let argument = match lx.lang {
            super::Lang::Python if lx.is_word(i, "parametrize") && lx.is(i + 1, b'(') => {
                arguments(lx, i + 1).get(1).cloned()
            }
            super::Lang::JavaScript if lx.is_word(i, "each") && lx.is(i + 1, b'(') && i > 0 && lx.is(i - 1, b'.') => {
                arguments(lx, i + 1).first().cloned()
            }
            _ => None,
        };
        let Some(argument) = argument else { continue };
        let end = if lx.is(argument.end.saturating_sub(1), b',') {
            argument.end - 1
        } else {
            argument.end
        };
        if end == argument.start + 1 && lx.kind(argument.start) == Some(TokKind::Ident) {
            out.push(lx.s(argument.start).to_string());
        }
    }
    if lx.lang == super::Lang::Php {
        out.extend(super::php::providers(lx));
    }
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
    let name_at = match lx.lang {
        super::Lang::Python => s,
        super::Lang::JavaScript if lx.is_word(s, "const") || lx.is_word(s, "let") => s + 1,
        _ => return None,
    };
    let named = lx.kind(name_at) == Some(TokKind::Ident) && lx.tables.iter().any(|name| name == lx.s(name_at));
    let list = name_at + 2;
    (named && lx.is(name_at + 1, b'=') && !lx.is(list, b'=') && (lx.is(list, b'[') || lx.is(list, b'(')))
        .then_some(list)
}

/// The top-level arguments of the call whose `(` is at `open`, each with its trailing comma.
fn arguments(lx: &Lexed, open: usize) -> Vec<Range<usize>> {
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
fn list_rows(lx: &Lexed, open: usize, out: &mut Vec<Range<usize>>) {
    if !(lx.is(open, b'[') || lx.is(open, b'{') || lx.is(open, b'(')) {
        return;
    }
    if let Some(close) = lx.partner(open).filter(|&close| close > open) {
        out.extend(items(lx, open + 1, close));
    }
}

/// `parametrize(names, [rows], ids=[…])`: the rows of the second argument (or `argvalues=`) and of `ids=`.
fn python_parametrize(lx: &Lexed, open: usize, out: &mut Vec<Range<usize>>) {
    for (n, argument) in arguments(lx, open).into_iter().enumerate() {
        let keyword = lx.kind(argument.start) == Some(TokKind::Ident) && lx.is(argument.start + 1, b'=');
        let value = if keyword { argument.start + 2 } else { argument.start };
        let table = if keyword {
            matches!(lx.s(argument.start), "argvalues" | "ids")
        } else {
            n == 1
        };
        if table && (lx.is(value, b'[') || lx.is(value, b'(')) {
            list_rows(lx, value, out);
        }
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
