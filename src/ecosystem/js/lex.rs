//! JavaScript's own literals: `'…'` strings, template literals whose `${…}` substitutions may hold strings,
//! comments and further templates, and (roughly: by the token before the `/`) regular expressions.

use super::clike::{block_comment_end, literal_or_punct};
use super::{Cursor, TokKind, ident_start};

/// How deeply template literals may nest inside `${}` before the rest is skipped as text.
const MAX_TEMPLATE_DEPTH: usize = 16;

/// JavaScript: a `#!` first line is a comment; its own literals are [`lex`]'s.
pub(crate) const DIALECT: super::clike::Dialect = super::clike::Dialect {
    hash_bang: true,
    nested_and_multiline: false,
    own_string: super::clike::no_own_string,
    rest: lex,
};

pub(super) fn lex(cur: &mut Cursor, c: u8) {
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
