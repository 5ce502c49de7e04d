//! Rust's own literals: raw strings `r#"…"#`, byte and C strings, byte characters, raw identifiers, and
//! character literals told apart from lifetimes and labels (`'a'` vs `'a`).

use super::{Cursor, TokKind, ident_start};

/// Rust: block comments nest and strings span lines; its own literals are [`lex`]'s.
pub(crate) const DIALECT: super::clike::Dialect = super::clike::Dialect {
    hash_bang: false,
    nested_and_multiline: true,
    own_string: super::clike::no_own_string,
    rest: lex,
};

pub(super) fn lex(cur: &mut Cursor, c: u8) {
    match c {
        b'r' | b'b' | b'c' => {
            if let Some(end) = rust_prefixed_literal(cur.b, cur.i) {
                cur.token(TokKind::Str, end);
            } else if c == b'r' && cur.at(1) == b'#' && ident_start(cur.at(2)) {
                // A raw identifier: `r#match`.
                let end = cur.word_end(cur.i + 2, false);
                cur.token(TokKind::Ident, end);
            } else {
                let end = cur.word_end(cur.i, false);
                cur.token(TokKind::Ident, end);
            }
        }
        b'\'' => rust_quote(cur),
        _ if ident_start(c) => {
            let end = cur.word_end(cur.i, false);
            cur.token(TokKind::Ident, end);
        }
        _ => cur.token(TokKind::Punct, cur.i + 1),
    }
}

/// A literal with a prefix at `at`: `r"…"`, `r#"…"#`, `b"…"`, `br#"…"#`, `b'…'`, `c"…"`, `cr"…"`. `None` if
/// there is none (`r` is then the start of an identifier).
fn rust_prefixed_literal(b: &[u8], at: usize) -> Option<usize> {
    let mut j = at + 1;
    if b[at] != b'r' && b.get(j) == Some(&b'r') {
        j += 1;
    }
    let raw = b[at] == b'r' || j == at + 2;
    if raw {
        let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
        if b.get(j + hashes) != Some(&b'"') {
            return None;
        }
        let body = j + hashes + 1;
        let mut k = body;
        while let Some(rel) = b.get(k..).and_then(|rest| memchr::memchr(b'"', rest)) {
            let quote = k + rel;
            if b.get(quote + 1..quote + 1 + hashes)
                .is_some_and(|tail| tail.iter().all(|&c| c == b'#'))
            {
                return Some(quote + 1 + hashes);
            }
            k = quote + 1;
        }
        return Some(b.len());
    }
    match b.get(j) {
        Some(b'"') => Some(quoted_end_multiline(b, j)),
        Some(b'\'') if b[at] == b'b' => char_end(b, j),
        _ => None,
    }
}

fn quoted_end_multiline(b: &[u8], open: usize) -> usize {
    let mut j = open + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end of a character literal opened at `open`: `'a'`, `'\n'`, `'\u{1F600}'`, `'é'`. `None` if the quote
/// does not open one (a lifetime, or stray punctuation).
fn char_end(b: &[u8], open: usize) -> Option<usize> {
    let first = *b.get(open + 1)?;
    if first == b'\\' {
        // An escape: the closing quote comes within a dozen bytes, on the same line.
        let window = b
            .get(open + 3..)?
            .iter()
            .take(12)
            .position(|&c| c == b'\'' || c == b'\n')?;
        let close = open + 3 + window;
        return (b[close] == b'\'').then_some(close + 1);
    }
    if first == b'\'' || first == b'\n' {
        return None;
    }
    let width = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    (b.get(open + 1 + width) == Some(&b'\'')).then_some(open + 2 + width)
}

/// A `'` in Rust: a character literal, a lifetime or label (`'a`, `'static`), or punctuation.
fn rust_quote(cur: &mut Cursor) {
    if let Some(end) = char_end(cur.b, cur.i) {
        cur.token(TokKind::Str, end);
    } else if ident_start(cur.at(1)) {
        let end = cur.word_end(cur.i + 1, false);
        cur.token(TokKind::Lifetime, end);
    } else {
        cur.token(TokKind::Punct, cur.i + 1);
    }
}
