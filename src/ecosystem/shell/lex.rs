//! Shell (bats test files): `#` comments where a word starts, single-quoted strings (no escapes), double-quoted
//! ones (backslash escapes; `$(…)` inside is kept as part of the string), the backslash that continues a line,
//! and words: a run of bytes up to a blank or one of the shell's operators, so `@test`, `../lib/calc.sh` and
//! `--flag=x` are one token each.

use super::{Cursor, TokKind};

/// Bytes that end a word (besides blanks): the shell's operators and quotes.
fn ends_word(c: u8) -> bool {
    c.is_ascii_whitespace()
        || matches!(
            c,
            b'"' | b'\'' | b'(' | b')' | b'{' | b'}' | b';' | b'|' | b'&' | b'<' | b'>' | b'`' | b'$'
        )
}

pub(crate) fn lex(cur: &mut Cursor) {
    while !cur.done() {
        if cur.space() {
            continue;
        }
        let c = cur.at(0);
        match c {
            b'#' => cur.comment(cur.line_end(cur.i)),
            b'\\' if cur.at(1) == b'\n' || (cur.at(1) == b'\r' && cur.at(2) == b'\n') => {
                cur.token(TokKind::Cont, cur.i + 1);
            }
            b'\'' => {
                let end = cur.b[cur.i + 1..]
                    .iter()
                    .position(|&b| b == b'\'')
                    .map_or(cur.b.len(), |at| cur.i + 1 + at + 1);
                cur.token(TokKind::Str, end);
            }
            b'"' => match cur.quoted_end(cur.i, b'"', true) {
                Some(end) => cur.token(TokKind::Str, end),
                None => cur.token(TokKind::Punct, cur.i + 1),
            },
            _ if ends_word(c) => cur.token(TokKind::Punct, cur.i + 1),
            _ => {
                let mut end = cur.i + 1;
                while cur.b.get(end).is_some_and(|&b| !ends_word(b)) {
                    end += 1;
                }
                cur.token(TokKind::Ident, end);
            }
        }
    }
}
