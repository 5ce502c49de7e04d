//! Java's own literals, after what `clike` shares (`//` and `/* */` comments, `"…"` strings, numbers): text
//! blocks (`"""` … `"""`, Java 15), whose content may hold quotes and comment markers over many lines, and
//! character literals (`'a'`, `'\''`, `'"'`). An annotation (`@Test`) is a `@` and a word.

use super::clike::literal_or_punct;
use super::{Cursor, TokKind, ident_start};

/// Java: text blocks open with `"`; its own literals are [`lex`]'s.
pub(crate) const DIALECT: super::clike::Dialect = super::clike::Dialect {
    hash_bang: false,
    nested_and_multiline: false,
    own_string: |cur| {
        let opens = at_text_block(cur);
        if opens {
            text_block(cur);
        }
        opens
    },
    rest: lex,
};

pub(super) fn lex(cur: &mut Cursor, c: u8) {
    match c {
        b'\'' => literal_or_punct(cur, cur.quoted_end(cur.i, b'\'', false)),
        b'.' if cur.at(1).is_ascii_digit() => cur.number(),
        _ if ident_start(c) => {
            let end = cur.word_end(cur.i, true);
            cur.token(TokKind::Ident, end);
        }
        _ => cur.token(TokKind::Punct, cur.i + 1),
    }
}

/// Whether a text block opens at the cursor (`"""`).
pub(super) fn at_text_block(cur: &Cursor) -> bool {
    cur.at(0) == b'"' && cur.at(1) == b'"' && cur.at(2) == b'"'
}

/// Reads the text block opening at the cursor: up to the `"""` that closes it (an escaped quote, `\"""`, does
/// not), or the end of the text.
pub(super) fn text_block(cur: &mut Cursor) {
    let b = cur.b;
    let mut j = cur.i + 3;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' if b.get(j + 1) == Some(&b'"') && b.get(j + 2) == Some(&b'"') => {
                cur.token(TokKind::Str, j + 3);
                return;
            }
            _ => j += 1,
        }
    }
    cur.token(TokKind::Str, b.len());
}
