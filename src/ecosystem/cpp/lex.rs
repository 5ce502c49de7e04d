//! C++'s own literals, after what `clike` shares (`//` and `/* */` comments, `"…"` strings, numbers): raw
//! strings (`R"(…)"`, `R"x(…)x"`, with any encoding prefix), whose content may hold quotes and comment markers,
//! and character literals (`'a'`, `'\n'`). A digit separator (`1'000`) ends the number and reads as a short
//! literal, which changes nothing a signature compares.

use super::clike::literal_or_punct;
use super::{Cursor, TokKind, ident_start};

/// Encoding prefixes of a raw string literal.
const RAW: [&str; 5] = ["R", "u8R", "uR", "UR", "LR"];

/// C++: the shared rules; its own literals are [`lex`]'s.
pub(crate) const DIALECT: super::clike::Dialect = super::clike::Dialect {
    hash_bang: false,
    nested_and_multiline: false,
    own_string: super::clike::no_own_string,
    rest: lex,
};

pub(super) fn lex(cur: &mut Cursor, c: u8) {
    match c {
        b'\'' => literal_or_punct(cur, cur.quoted_end(cur.i, b'\'', false)),
        b'.' if cur.at(1).is_ascii_digit() => cur.number(),
        _ if ident_start(c) => {
            let end = cur.word_end(cur.i, false);
            let word = std::str::from_utf8(&cur.b[cur.i..end]).unwrap_or("");
            if RAW.contains(&word) && cur.b.get(end) == Some(&b'"') {
                cur.token(TokKind::Str, raw_end(cur.b, end));
            } else {
                cur.token(TokKind::Ident, end);
            }
        }
        _ => cur.token(TokKind::Punct, cur.i + 1),
    }
}

/// The end of a raw string whose `"` is at `quote`: past `)DELIM"`, or the end of the text.
fn raw_end(b: &[u8], quote: usize) -> usize {
    let Some(open) = b[quote + 1..].iter().take(17).position(|&c| c == b'(') else {
        return quote + 1;
    };
    let delim = &b[quote + 1..quote + 1 + open];
    let mut close = vec![b')'];
    close.extend_from_slice(delim);
    close.push(b'"');
    let from = quote + 2 + open;
    b[from..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(b.len(), |at| from + at + close.len())
}
