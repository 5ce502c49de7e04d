//! Ruby: `#` comments and `=begin`/`=end` blocks, `__END__` (the rest is data), strings of every kind —
//! `'…'`, `"…"` and `` `…` `` with `#{…}` interpolation that may hold strings of its own, `%q(…)`, `%w[…]`,
//! `%i{…}`, `%r<…>` and the other `%` literals with nesting delimiters, heredocs (`<<~EOS`, `<<-SQL`, `<<'X'`,
//! whose body starts on the next line while the rest of the opening line is code), regular expressions where a
//! value cannot stand (`assert_match /x/, s`, `=~ /x/`), symbols (`:name`, `:"…"`) and `?a` characters — and
//! words: identifiers with their `@`, `@@` or `$` sigil and a trailing `?` or `!` (`empty?`, `let!`).

use super::{Cursor, TokKind, ident_start};

/// Words after which an operand comes, so a `/` or `%` starts a literal rather than dividing.
const BEFORE_OPERAND: [&str; 16] = [
    "if", "unless", "while", "until", "and", "or", "not", "when", "in", "return", "then", "else", "elsif", "do",
    "puts", "yield",
];

pub(crate) fn lex(cur: &mut Cursor) {
    let mut heredocs: Vec<Heredoc> = Vec::new();
    while !cur.done() {
        let c = cur.at(0);
        if c == b'\n' && !heredocs.is_empty() {
            cur.space();
            for doc in std::mem::take(&mut heredocs) {
                let end = heredoc_end(cur, &doc);
                if end > cur.i {
                    cur.token(TokKind::Str, end);
                }
            }
            continue;
        }
        if cur.space() {
            continue;
        }
        let line_start = cur.i == 0 || cur.b.get(cur.i - 1) == Some(&b'\n');
        if line_start && cur.b[cur.i..].starts_with(b"=begin") {
            let end = find_line(cur, cur.i, b"=end").map_or(cur.b.len(), |at| cur.line_end(at));
            cur.comment(end);
            continue;
        }
        if line_start && cur.b[cur.i..].starts_with(b"__END__") && ends_line(cur, cur.i + 7) {
            cur.comment(cur.b.len());
            continue;
        }
        match c {
            b'#' => cur.comment(cur.line_end(cur.i)),
            b'\\' if cur.at(1) == b'\n' || (cur.at(1) == b'\r' && cur.at(2) == b'\n') => {
                cur.token(TokKind::Cont, cur.i + 1);
            }
            b'\'' => {
                let end = plain_end(cur.b, cur.i + 1, b'\'', 0);
                cur.token(TokKind::Str, end);
            }
            b'"' | b'`' => {
                let end = interpolated_end(cur.b, cur.i + 1, c, 0);
                cur.token(TokKind::Str, end);
            }
            b'<' if cur.at(1) == b'<' => match heredoc_at(cur) {
                Some((doc, end)) => {
                    heredocs.push(doc);
                    cur.token(TokKind::Str, end);
                }
                None => cur.token(TokKind::Punct, cur.i + 1),
            },
            b'%' if operand_expected(cur) => match percent_end(cur.b, cur.i) {
                Some(end) => cur.token(TokKind::Str, end),
                None => cur.token(TokKind::Punct, cur.i + 1),
            },
            b'/' if operand_expected(cur) => {
                let end = interpolated_end(cur.b, cur.i + 1, b'/', 0);
                let end = cur.word_end(end, false);
                cur.token(TokKind::Str, end);
            }
            b':' if cur.at(1) == b'"' => {
                let end = interpolated_end(cur.b, cur.i + 2, b'"', 0);
                cur.token(TokKind::Str, end);
            }
            b':' if cur.at(1) != b':' && ident_start(cur.at(1)) && cur.b.get(cur.i.wrapping_sub(1)) != Some(&b':') => {
                let end = name_end(cur, cur.i + 1);
                cur.token(TokKind::Str, end);
            }
            b'?' if operand_expected(cur) && cur.at(1) > b' ' && !ident_start(cur.at(2)) => {
                let end = if cur.at(1) == b'\\' { cur.i + 3 } else { cur.i + 2 };
                cur.token(TokKind::Str, end);
            }
            b'0'..=b'9' => cur.number(),
            b'@' | b'$' if ident_start(cur.at(1)) || (c == b'@' && cur.at(1) == b'@') => {
                let start = if cur.at(1) == b'@' { cur.i + 2 } else { cur.i + 1 };
                let end = cur.word_end(start, false);
                cur.token(TokKind::Ident, end.max(start));
            }
            _ if ident_start(c) => {
                let end = name_end(cur, cur.i);
                cur.token(TokKind::Ident, end);
            }
            _ => cur.token(TokKind::Punct, cur.i + 1),
        }
    }
}

/// A heredoc whose body is still to come: its terminator and whether it may be indented (`<<~`, `<<-`).
struct Heredoc {
    tag: Vec<u8>,
    indented: bool,
}

/// The end of an identifier starting at `from`, with a trailing `?` or `!` that is not part of `!=`, `?:`.
fn name_end(cur: &Cursor, from: usize) -> usize {
    let end = cur.word_end(from, false);
    match cur.b.get(end) {
        Some(b'?' | b'!') if !matches!(cur.b.get(end + 1), Some(b'=' | b':')) => end + 1,
        _ => end,
    }
}

/// Whether an operand is expected at the cursor: the previous token is an operator or a keyword, or a method
/// name followed by a space where the next byte is not one (`assert_match /x/`, `puts %w[a]`).
fn operand_expected(cur: &Cursor) -> bool {
    let Some(prev) = cur.toks.last() else {
        return true;
    };
    let text = &cur.b[prev.start..prev.end];
    match prev.kind {
        TokKind::Punct => !matches!(text, b")" | b"]" | b"}"),
        TokKind::Ident => {
            let word = std::str::from_utf8(text).unwrap_or("");
            BEFORE_OPERAND.contains(&word)
                || (prev.end < cur.i
                    && cur
                        .b
                        .get(cur.i + 1)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'=')
                    && !word.starts_with(['@', '$'])
                    && !word.starts_with(|c: char| c.is_ascii_uppercase()))
        }
        _ => false,
    }
}

/// The end of a literal without interpolation opened before `from` and closed by `close` (`open`: its opening
/// delimiter where it nests, else 0); the end of the text when it is not closed.
fn plain_end(b: &[u8], from: usize, close: u8, open: u8) -> usize {
    literal_end(b, from, (open, close), false)
}

/// As [`plain_end`], for a literal with `#{…}` interpolation, whose code may hold strings and braces of its own.
fn interpolated_end(b: &[u8], from: usize, close: u8, open: u8) -> usize {
    literal_end(b, from, (open, close), true)
}

fn literal_end(b: &[u8], from: usize, (open, close): (u8, u8), interpolates: bool) -> usize {
    let mut depth = 0usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 1,
            b'#' if interpolates && b.get(j + 1) == Some(&b'{') => {
                j = code_end(b, j + 2);
                continue;
            }
            _ if c == close && depth == 0 => return j + 1,
            _ if c == close => depth -= 1,
            _ if open != 0 && c == open => depth += 1,
            _ => {}
        }
        j += 1;
    }
    b.len()
}

/// The index past the `}` that closes interpolated code starting at `from`, stepping over its strings.
fn code_end(b: &[u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        match c {
            b'{' => depth += 1,
            b'}' if depth == 0 => return j + 1,
            b'}' => depth -= 1,
            b'"' | b'`' => {
                j = interpolated_end(b, j + 1, c, 0);
                continue;
            }
            b'\'' => {
                j = plain_end(b, j + 1, b'\'', 0);
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    b.len()
}

/// The end of a `%` literal at `at` (`%w[a b]`, `%q(…)`, `%(…)`), or `None` where `%` is not one.
fn percent_end(b: &[u8], at: usize) -> Option<usize> {
    let mut j = at + 1;
    let kind = b.get(j).copied().filter(|c| b"qQwWiIrsx".contains(c));
    if kind.is_some() {
        j += 1;
    }
    let delim = *b.get(j)?;
    if delim.is_ascii_alphanumeric() || delim.is_ascii_whitespace() || delim == b'=' {
        return None;
    }
    let (open, close) = match delim {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        b'<' => (b'<', b'>'),
        other => (0, other),
    };
    let end = match kind {
        Some(b'q' | b'w' | b'i' | b's') => plain_end(b, j + 1, close, open),
        _ => interpolated_end(b, j + 1, close, open),
    };
    Some(if kind == Some(b'r') {
        word_bytes_end(b, end)
    } else {
        end
    })
}

/// Past the letters after `from` (a regular expression's flags).
fn word_bytes_end(b: &[u8], from: usize) -> usize {
    from + b
        .get(from..)
        .map_or(0, |rest| rest.iter().take_while(|c| c.is_ascii_alphabetic()).count())
}

/// A heredoc opener at the cursor (`<<~EOS`, `<<-'SQL'`, `<<EOS`): its terminator and the opener's end. A bare
/// tag must start with a capital (`list << item` shifts).
fn heredoc_at(cur: &Cursor) -> Option<(Heredoc, usize)> {
    let mut j = cur.i + 2;
    let indented = matches!(cur.b.get(j), Some(b'~' | b'-'));
    if indented {
        j += 1;
    }
    let quote = cur.b.get(j).copied().filter(|c| matches!(c, b'\'' | b'"' | b'`'));
    let (tag, end) = match quote {
        Some(q) => {
            let close = cur.b[j + 1..].iter().position(|&c| c == q || c == b'\n')?;
            let tag = cur.b[j + 1..j + 1 + close].to_vec();
            (tag, j + 1 + close + 1)
        }
        None => {
            if !cur.b.get(j).is_some_and(|c| c.is_ascii_uppercase() || *c == b'_') {
                return None;
            }
            let end = cur.word_end(j, false);
            (cur.b[j..end].to_vec(), end)
        }
    };
    (!tag.is_empty()).then_some((Heredoc { tag, indented }, end))
}

/// The end of a heredoc's body starting at the cursor: past its terminator line, or the end of the text.
fn heredoc_end(cur: &Cursor, doc: &Heredoc) -> usize {
    let mut at = cur.i;
    while at < cur.b.len() {
        let end = cur.line_end(at);
        let line = &cur.b[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = if doc.indented { trim_start(line) } else { line };
        if line == doc.tag.as_slice() {
            return end;
        }
        at = end + 1;
    }
    cur.b.len()
}

fn trim_start(line: &[u8]) -> &[u8] {
    let blank = line.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    &line[blank..]
}

/// The start of the first line at or after `from` that begins with `word`.
fn find_line(cur: &Cursor, from: usize, word: &[u8]) -> Option<usize> {
    let mut at = cur.line_end(from) + 1;
    while at < cur.b.len() {
        if cur.b[at..].starts_with(word) {
            return Some(at);
        }
        at = cur.line_end(at) + 1;
    }
    None
}

/// Whether only blanks follow `at` on its line.
fn ends_line(cur: &Cursor, at: usize) -> bool {
    cur.b[at.min(cur.b.len())..cur.line_end(at.min(cur.b.len()))]
        .iter()
        .all(u8::is_ascii_whitespace)
}
