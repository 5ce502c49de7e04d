//! JavaScript/TypeScript, Rust and Go: `//` and `/* */` comments (nested in Rust), double-quoted strings, and
//! each language's own literals — JavaScript's `'…'`, template literals with `${}` nesting and (roughly) regular
//! expressions; Rust's raw strings `r#"…"#`, byte and C strings, and characters told apart from lifetimes; Go's
//! raw strings and runes.

use super::{Cursor, TokKind, ident_start};
use crate::testscan::Lang;

/// How deeply template literals may nest inside `${}` before the rest is skipped as text.
const MAX_TEMPLATE_DEPTH: usize = 16;

pub(super) fn lex(cur: &mut Cursor, lang: Lang) {
    if cur.at(0) == b'#' && cur.at(1) == b'!' && lang == Lang::JavaScript {
        cur.comment(cur.line_end(0));
    }
    while !cur.done() {
        if cur.space() {
            continue;
        }
        let c = cur.at(0);
        match (c, cur.at(1)) {
            (b'/', b'/') => cur.comment(cur.line_end(cur.i)),
            (b'/', b'*') => {
                let end = block_comment_end(cur.b, cur.i, lang == Lang::Rust);
                cur.comment(end);
            }
            (b'"', _) => {
                // JavaScript and Go strings end at the line; Rust strings may span lines.
                let multiline = lang == Lang::Rust;
                literal_or_punct(cur, cur.quoted_end(cur.i, b'"', multiline));
            }
            (b'0'..=b'9', _) => cur.number(),
            _ => match lang {
                Lang::JavaScript => js(cur, c),
                Lang::Rust => rust(cur, c),
                _ => go(cur, c),
            },
        }
    }
}

fn literal_or_punct(cur: &mut Cursor, end: Option<usize>) {
    match end {
        Some(end) => cur.token(TokKind::Str, end),
        None => cur.token(TokKind::Punct, cur.i + 1),
    }
}

/// The end of a block comment opened at `open` (past `*/`, or the end of the text).
fn block_comment_end(b: &[u8], open: usize, nested: bool) -> usize {
    let mut depth = 1usize;
    let mut j = open + 2;
    while j < b.len() {
        match (b[j], b.get(j + 1)) {
            (b'*', Some(b'/')) => {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    return j;
                }
            }
            (b'/', Some(b'*')) if nested => {
                depth += 1;
                j += 2;
            }
            _ => j += 1,
        }
    }
    b.len()
}

fn js(cur: &mut Cursor, c: u8) {
    match c {
        b'\'' => literal_or_punct(cur, cur.quoted_end(cur.i, b'\'', false)),
        b'`' => {
            let end = template_end(cur.b, cur.i, 0);
            cur.token(TokKind::Str, end);
        }
        b'/' if regex_allowed(cur) => literal_or_punct(cur, regex_end(cur.b, cur.i)),
        b'.' if cur.at(1).is_ascii_digit() => cur.number(),
        _ if ident_start(c) || c == b'$' => {
            let end = cur.word_end(cur.i, true);
            cur.token(TokKind::Ident, end);
        }
        _ => cur.token(TokKind::Punct, cur.i + 1),
    }
}

/// Keywords after which a `/` starts a regular expression rather than a division.
const REGEX_AFTER: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// Whether a `/` here starts a regular expression: at the start, after punctuation other than a closing bracket,
/// or after a keyword that takes an expression.
fn regex_allowed(cur: &Cursor) -> bool {
    let Some(prev) = cur.toks.last() else {
        return true;
    };
    let text = &cur.b[prev.start..prev.end];
    match prev.kind {
        TokKind::Punct => !matches!(text, b")" | b"]" | b"}"),
        TokKind::Ident => REGEX_AFTER.iter().any(|word| word.as_bytes() == text),
        _ => false,
    }
}

/// The end of a regular expression literal opened at `open` (flags included), or `None` if it does not close on
/// its line.
fn regex_end(b: &[u8], open: usize) -> Option<usize> {
    let mut j = open + 1;
    let mut in_class = false;
    loop {
        match *b.get(j)? {
            b'\\' => j += 2,
            b'\n' => return None,
            b'[' => {
                in_class = true;
                j += 1;
            }
            b']' => {
                in_class = false;
                j += 1;
            }
            b'/' if !in_class => break,
            _ => j += 1,
        }
    }
    j += 1;
    while b.get(j).is_some_and(u8::is_ascii_alphabetic) {
        j += 1;
    }
    Some(j)
}

/// The end of a template literal opened at `open`: past its closing backtick (or the end of the text).
/// `${…}` substitutions may hold strings, comments and further templates.
fn template_end(b: &[u8], open: usize, depth: usize) -> usize {
    let mut j = open + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'`' => return j + 1,
            b'$' if b.get(j + 1) == Some(&b'{') => j = substitution_end(b, j + 2, depth),
            _ => j += 1,
        }
    }
    b.len()
}

/// The end of a `${…}` substitution whose text starts at `from`: past its matching `}`.
fn substitution_end(b: &[u8], from: usize, depth: usize) -> usize {
    let mut braces = 1usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        match (c, b.get(j + 1)) {
            (b'{', _) => braces += 1,
            (b'}', _) => {
                braces -= 1;
                if braces == 0 {
                    return j + 1;
                }
            }
            (b'`', _) if depth < MAX_TEMPLATE_DEPTH => {
                j = template_end(b, j, depth + 1);
                continue;
            }
            (b'\'' | b'"', _) => {
                j = skip_quoted(b, j);
                continue;
            }
            (b'/', Some(b'/')) => {
                j = b[j..].iter().position(|&c| c == b'\n').map_or(b.len(), |at| j + at);
                continue;
            }
            (b'/', Some(b'*')) => {
                j = block_comment_end(b, j, false);
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    b.len()
}

/// Past a one-line quoted string at `open` (or past the quote alone if it does not close on its line).
fn skip_quoted(b: &[u8], open: usize) -> usize {
    let quote = b[open];
    let mut j = open + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'\n' => return open + 1,
            _ if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    open + 1
}

fn rust(cur: &mut Cursor, c: u8) {
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

fn go(cur: &mut Cursor, c: u8) {
    match c {
        b'`' => {
            let end = cur.b[cur.i + 1..]
                .iter()
                .position(|&c| c == b'`')
                .map_or(cur.b.len(), |at| cur.i + 2 + at);
            cur.token(TokKind::Str, end);
        }
        b'\'' => literal_or_punct(cur, cur.quoted_end(cur.i, b'\'', false)),
        b'.' if cur.at(1).is_ascii_digit() => cur.number(),
        _ if ident_start(c) => {
            let end = cur.word_end(cur.i, false);
            cur.token(TokKind::Ident, end);
        }
        _ => cur.token(TokKind::Punct, cur.i + 1),
    }
}
