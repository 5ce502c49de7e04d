//! PHP (PHPUnit test files): `//` and `#` comments (but `#[`, which opens an attribute), `/* */` comments, and
//! docblocks (`/** … */`) as string-like tokens rather than comments — PHPUnit reads them (`@test`,
//! `@dataProvider`, `@group`, `@depends`, `@requires`), so an edit to one is an edit to the test it documents;
//! single- and double-quoted strings (which may span lines), backticks, heredocs and nowdocs (`<<<EOT` … `EOT`),
//! variables (`$name` is one token) and identifiers. A namespace's `\` is punctuation.

use super::{Cursor, TokKind, ident_start};

pub(crate) fn lex(cur: &mut Cursor) {
    while !cur.done() {
        if cur.space() {
            continue;
        }
        let c = cur.at(0);
        match (c, cur.at(1)) {
            (b'/', b'/') => cur.comment(cur.line_end(cur.i)),
            (b'#', b'[') => cur.token(TokKind::Punct, cur.i + 1),
            (b'#', _) => cur.comment(cur.line_end(cur.i)),
            (b'/', b'*') => {
                let end = cur.b[cur.i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(cur.b.len(), |at| cur.i + 2 + at + 2);
                if cur.at(2) == b'*' && end > cur.i + 4 {
                    cur.token(TokKind::Str, end);
                } else {
                    cur.comment(end);
                }
            }
            (b'\'' | b'"' | b'`', _) => match cur.quoted_end(cur.i, c, true) {
                Some(end) => cur.token(TokKind::Str, end),
                None => cur.token(TokKind::Punct, cur.i + 1),
            },
            (b'<', b'<') if cur.at(2) == b'<' => match heredoc_end(cur.b, cur.i) {
                Some(end) => cur.token(TokKind::Str, end),
                None => cur.token(TokKind::Punct, cur.i + 1),
            },
            (b'$', next) if ident_start(next) => {
                let end = cur.word_end(cur.i + 1, false);
                cur.token(TokKind::Ident, end);
            }
            (b'0'..=b'9', _) => cur.number(),
            _ if ident_start(c) => {
                let end = cur.word_end(cur.i, false);
                cur.token(TokKind::Ident, end);
            }
            _ => cur.token(TokKind::Punct, cur.i + 1),
        }
    }
}

/// The end of a heredoc or nowdoc opened at `open` (`<<<EOT`, `<<<"EOT"`, `<<<'EOT'` then a line break): past
/// the first later line whose text, after indentation, is the label not followed by a word byte; `None` if
/// `open` starts no such literal. An unclosed one runs to the end of the text.
fn heredoc_end(b: &[u8], open: usize) -> Option<usize> {
    let mut j = open + 3;
    while b.get(j).is_some_and(|&c| c == b' ' || c == b'\t') {
        j += 1;
    }
    let quote = b.get(j).copied().filter(|&c| c == b'\'' || c == b'"');
    if quote.is_some() {
        j += 1;
    }
    let start = j;
    while b
        .get(j)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80)
    {
        j += 1;
    }
    let label = b.get(start..j).filter(|l| !l.is_empty() && ident_start(l[0]))?;
    if let Some(q) = quote {
        if b.get(j) != Some(&q) {
            return None;
        }
        j += 1;
    }
    if b.get(j) == Some(&b'\r') {
        j += 1;
    }
    if b.get(j) != Some(&b'\n') {
        return None;
    }
    let mut line = j + 1;
    while line < b.len() {
        let mut k = line;
        while b.get(k).is_some_and(|&c| c == b' ' || c == b'\t') {
            k += 1;
        }
        let end = k + label.len();
        if b.get(k..end) == Some(label) && !b.get(end).is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_') {
            return Some(end);
        }
        line = b[line..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |at| line + at + 1);
    }
    Some(b.len())
}
