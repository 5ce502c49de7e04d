//! Python: `#` comments, strings with any prefix (`r`, `b`, `f`, `u` and their pairs), single and triple quotes,
//! f-string replacement fields with nested strings (Python 3.12 lets them reuse the outer quote), and the
//! backslash that continues a line.

use super::{Cursor, TokKind, ident_start};

/// How deeply f-strings may nest inside f-string replacement fields before the rest is taken as plain text.
const MAX_FSTRING_DEPTH: usize = 8;

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
            b'\'' | b'"' => {
                let end = string_end(cur.b, cur.i, cur.i, 0);
                cur.token(TokKind::Str, end);
            }
            b'0'..=b'9' => cur.number(),
            b'.' if cur.at(1).is_ascii_digit() => cur.number(),
            _ if ident_start(c) => {
                let end = cur.word_end(cur.i, false);
                if is_prefix(&cur.b[cur.i..end]) && matches!(cur.b.get(end), Some(b'\'' | b'"')) {
                    let end = string_end(cur.b, cur.i, end, 0);
                    cur.token(TokKind::Str, end);
                } else {
                    cur.token(TokKind::Ident, end);
                }
            }
            _ => cur.token(TokKind::Punct, cur.i + 1),
        }
    }
}

/// Whether `word` is a string prefix (`r`, `b`, `f`, `u`, `rb`, `fr`, … in any case).
fn is_prefix(word: &[u8]) -> bool {
    word.len() <= 2
        && word
            .iter()
            .all(|c| matches!(c.to_ascii_lowercase(), b'r' | b'b' | b'f' | b'u'))
        && !(word.len() == 2 && word[0].eq_ignore_ascii_case(&word[1]))
}

/// The end of the string whose prefix starts at `start` and whose quote is at `quote_at`. An unclosed one-line
/// string ends before its line break; an unclosed triple-quoted one at the end of the text.
pub(super) fn string_end(b: &[u8], start: usize, quote_at: usize, depth: usize) -> usize {
    let prefix = &b[start.min(quote_at)..quote_at];
    let fstring = prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'f'));
    let quote = b[quote_at];
    let triple = b.get(quote_at + 1) == Some(&quote) && b.get(quote_at + 2) == Some(&quote);
    let mut j = quote_at + if triple { 3 } else { 1 };
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'\n' if !triple => return j,
            _ if c == quote => {
                if !triple {
                    return j + 1;
                }
                if b.get(j + 1) == Some(&quote) && b.get(j + 2) == Some(&quote) {
                    return j + 3;
                }
                j += 1;
            }
            b'{' if fstring && b.get(j + 1) == Some(&b'{') => j += 2,
            b'{' if fstring => j = field_end(b, j + 1, triple, depth),
            _ => j += 1,
        }
    }
    b.len()
}

/// The end of an f-string replacement field whose text starts at `from` (just after `{`): past its matching
/// `}`, skipping nested strings. Stops at a line break in a one-line string (the string then ends there).
fn field_end(b: &[u8], from: usize, triple: bool, depth: usize) -> usize {
    let mut braces = 1usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        match c {
            b'{' => braces += 1,
            b'}' => {
                braces -= 1;
                if braces == 0 {
                    return j + 1;
                }
            }
            b'\n' if !triple => return j,
            b'\'' | b'"' if depth < MAX_FSTRING_DEPTH => {
                let start = prefix_start(b, from, j);
                j = string_end(b, start, j, depth + 1);
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    b.len()
}

/// Where the string prefix before the quote at `quote_at` starts (no earlier than `floor`).
fn prefix_start(b: &[u8], floor: usize, quote_at: usize) -> usize {
    let mut start = quote_at;
    while start > floor && start + 2 > quote_at && b[start - 1].is_ascii_alphabetic() {
        start -= 1;
    }
    let word_before = start > floor && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_');
    if word_before || !is_prefix(&b[start..quote_at]) {
        quote_at
    } else {
        start
    }
}
