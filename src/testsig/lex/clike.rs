//! JavaScript/TypeScript, Rust, Go, C++ and Java: what they share — `//` and `/* */` comments (nested in Rust),
//! double-quoted strings, numbers — and Go's own raw strings and runes. JavaScript's and Rust's own literals are
//! in `js` and `rust`.

use super::{Cursor, TokKind, ident_start};

/// What one C-like language adds to what they share, declared in its ecosystem's `lex.rs` (Go's is [`GO`]: its
/// lexer is the shared one).
pub(crate) struct Dialect {
    /// A `#!` first line is a comment (JavaScript).
    pub(crate) hash_bang: bool,
    /// Block comments nest and strings may span lines (Rust).
    pub(crate) nested_and_multiline: bool,
    /// Lexes a string literal of its own that opens with `"` at the cursor (Java's text blocks), if one does:
    /// whether it did.
    pub(crate) own_string: fn(&mut Cursor) -> bool,
    /// Everything else at the cursor, whose byte is `c`: the language's own literals, words and punctuation.
    pub(crate) rest: fn(&mut Cursor, u8),
}

/// Go: raw strings and runes, on the shared rules.
pub(crate) const GO: Dialect = Dialect {
    hash_bang: false,
    nested_and_multiline: false,
    own_string: no_own_string,
    rest: go,
};

/// Tokenizes the whole text at `cur` as the C-like `dialect`.
pub(crate) fn lex(cur: &mut Cursor, dialect: &Dialect) {
    if cur.at(0) == b'#' && cur.at(1) == b'!' && dialect.hash_bang {
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
                let end = block_comment_end(cur.b, cur.i, dialect.nested_and_multiline);
                cur.comment(end);
            }
            (b'"', _) => {
                if !(dialect.own_string)(cur) {
                    // JavaScript and Go strings end at the line; Rust strings may span lines.
                    let multiline = dialect.nested_and_multiline;
                    literal_or_punct(cur, cur.quoted_end(cur.i, b'"', multiline));
                }
            }
            (b'0'..=b'9', _) => cur.number(),
            _ => (dialect.rest)(cur, c),
        }
    }
}

/// The [`Dialect::own_string`] of a language with none.
pub(crate) fn no_own_string(_: &mut Cursor) -> bool {
    false
}

pub(super) fn literal_or_punct(cur: &mut Cursor, end: Option<usize>) {
    match end {
        Some(end) => cur.token(TokKind::Str, end),
        None => cur.token(TokKind::Punct, cur.i + 1),
    }
}

/// The end of a block comment opened at `open` (past `*/`, or the end of the text).
pub(super) fn block_comment_end(b: &[u8], open: usize, nested: bool) -> usize {
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
