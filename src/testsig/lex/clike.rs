//! JavaScript/TypeScript, Rust, Go, C++ and Java: what they share — `//` and `/* */` comments (nested in Rust),
//! double-quoted strings, numbers — and Go's own raw strings and runes. JavaScript's and Rust's own literals are
//! in `js` and `rust`.

use super::{Cursor, TokKind, ident_start};
use crate::testsig::Lang;

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
            (b'"', _) if lang == Lang::Java && super::jvm::at_text_block(cur) => super::jvm::text_block(cur),
            (b'"', _) => {
                // JavaScript and Go strings end at the line; Rust strings may span lines.
                let multiline = lang == Lang::Rust;
                literal_or_punct(cur, cur.quoted_end(cur.i, b'"', multiline));
            }
            (b'0'..=b'9', _) => cur.number(),
            _ => match lang {
                Lang::JavaScript => super::js::lex(cur, c),
                Lang::Rust => super::rust::lex(cur, c),
                Lang::Cpp => super::cpp::lex(cur, c),
                Lang::Java => super::jvm::lex(cur, c),
                _ => go(cur, c),
            },
        }
    }
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
