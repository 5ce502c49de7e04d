//! Normalized hashing: what a unit's hash covers, so that reformatting is not a change and every edit that could
//! alter behaviour is.
//!
//! The hash is taken over the unit's tokens, one separator byte between them: comments and white space are gone.
//! On top of that, the spellings formatters change freely are made equal: a trailing comma before a closing
//! bracket (kept in Python and Rust when it makes a one-element tuple), quote style of a plain Python or
//! JavaScript string (`'a'` and `"a"`), JavaScript's optional semicolons and the parentheses around a lone arrow
//! function parameter, and Python's line continuations. What formatters cannot change is kept:
//! Python's block structure (each logical line carries its depth relative to the unit), and a line break right
//! after a JavaScript or Go `return` (automatic semicolon insertion makes `return` + newline return nothing).

use sha2::{Digest, Sha256};

use super::Lang;
use super::lex::{Lexed, TokKind};

/// Separates tokens in the hashed text; it cannot occur inside a token.
const SEP: u8 = 0x1f;

/// Hex digits kept of a SHA-256.
const HASH_HEX: usize = 16;

/// Accumulates normalized text and hashes it.
pub(crate) struct Norm<'l, 'a> {
    lx: &'l Lexed<'a>,
    buf: Vec<u8>,
    /// Token ranges left out (a table's rows), sorted and apart.
    cuts: Vec<std::ops::Range<usize>>,
}

thread_local! {
    /// A buffer kept between units, so hashing thousands of small units does not allocate thousands of times.
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Norm<'_, '_> {
    fn drop(&mut self) {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        SCRATCH.with(|scratch| scratch.set(buf));
    }
}

impl<'l, 'a> Norm<'l, 'a> {
    pub(crate) fn new(lx: &'l Lexed<'a>) -> Self {
        let buf = SCRATCH.with(std::cell::Cell::take);
        Norm {
            lx,
            buf,
            cuts: Vec::new(),
        }
    }

    /// Leaves token ranges `cuts` (sorted, apart) out of what `tokens` adds from now on.
    pub(crate) fn cut(&mut self, cuts: Vec<std::ops::Range<usize>>) {
        self.cuts = cuts;
    }

    /// Adds tokens `from..to`, less the cuts.
    pub(crate) fn tokens(&mut self, from: usize, to: usize) {
        let to = to.min(self.lx.toks.len());
        let mut cut = self.cuts.partition_point(|range| range.end <= from);
        let mut i = from;
        while i < to {
            match self.cuts.get(cut) {
                Some(range) if range.start <= i => {
                    i = i.max(range.end);
                    cut += 1;
                }
                _ => {
                    self.token(i, from, to);
                    i += 1;
                }
            }
        }
    }

    /// Adds token `i` of the run `from..to`, normalized.
    fn token(&mut self, i: usize, from: usize, to: usize) {
        let tok = self.lx.toks[i];
        if self.lone_arrow_parameter_paren(i) || self.optional_call_paren(i, to) {
            return;
        }
        if let Some(spelled) = self.lx.language.load_spelling(self.lx, i) {
            self.buf.extend_from_slice(spelled.as_bytes());
            self.buf.push(SEP);
            return;
        }
        match tok.kind {
            TokKind::Cont => return,
            TokKind::Punct if self.lx.is(i, b',') && self.trailing_comma(i, to) => return,
            // Formatters add or drop JavaScript's optional semicolons; a `return` before a line break is marked
            // below, so the one place a line break ends a statement still counts.
            TokKind::Punct
                if self.lx.lang == Lang::JavaScript
                    && self.lx.is(i, b';')
                    && !(i > from && self.lx.is_word(i - 1, "return")) =>
            {
                return;
            }
            TokKind::Str if self.lx.language.strings_by_value() => {
                push_string(&mut self.buf, self.lx.s(i), self.lx.language.quote_sensitive());
            }
            _ => self.buf.extend_from_slice(self.lx.s(i).as_bytes()),
        }
        self.buf.push(SEP);
        let returns_nothing = matches!(self.lx.lang, Lang::JavaScript | Lang::Go)
            && self.lx.is_word(i, "return")
            && i + 1 < to
            && self.lx.toks[i + 1].line > tok.end_line;
        if returns_nothing {
            self.buf.extend_from_slice(&[b';', SEP]);
        }
    }

    /// Starts a Python logical line at `depth` blocks below the unit's head.
    pub(crate) fn line(&mut self, depth: usize) {
        self.buf.push(b'\n');
        self.buf.extend_from_slice(depth.to_string().as_bytes());
        self.buf.push(SEP);
    }

    /// Adds the text of the comments inside `span` (Go examples compare their output with a comment).
    pub(crate) fn comments(&mut self, span: std::ops::Range<usize>) {
        let comments = &self.lx.comments;
        let first = comments.partition_point(|c| c.start < span.start);
        for comment in comments[first..].iter().take_while(|c| c.end <= span.end) {
            let text = self.lx.text.get(comment.start..comment.end).unwrap_or("");
            self.buf.extend_from_slice(text.trim().as_bytes());
            self.buf.push(SEP);
        }
    }

    /// The hash of everything added since the last call; starts afresh.
    pub(crate) fn finish(&mut self) -> String {
        let hash = digest(&self.buf);
        self.buf.clear();
        hash
    }

    /// Whether token `i` is a parenthesis around the one parameter of a JavaScript arrow function: `(x) => x` is
    /// `x => x` (Prettier adds them).
    fn lone_arrow_parameter_paren(&self, i: usize) -> bool {
        if self.lx.lang != Lang::JavaScript {
            return false;
        }
        let (open, close) = match (self.lx.is(i, b'('), self.lx.is(i, b')')) {
            (true, _) => (i, i + 2),
            (_, true) => (i.saturating_sub(2), i),
            _ => return false,
        };
        self.lx.is(open, b'(')
            && self.lx.partner(open) == Some(close)
            && self.lx.kind(open + 1) == Some(TokKind::Ident)
            && super::braces::arrow_at(self.lx, close + 1)
    }

    /// Whether token `i` is a parenthesis of a call whose parentheses are optional (Ruby's), so that `eq(3)` is
    /// `eq 3` (RuboCop adds them, and many authors drop them). Only where both spellings mean the same call: the
    /// `(` right after a method's name (`eq (3)` is `eq((3))` and `eq(1) + 2` is not `eq 1 + 2`), the `)` ending
    /// the line, the unit, or a one-line block (`}`, `end`), and the arguments starting with a word, a number or
    /// a literal — never with `[`, `-`, `*`, `&` or `::`, which after a local variable's name (`x [0]`, `x -1`)
    /// would index or subtract instead of calling; and not an empty list (`x()` calls, `x` may read a local).
    fn optional_call_paren(&self, i: usize, to: usize) -> bool {
        let lx = self.lx;
        if !lx.language.optional_call_parens() {
            return false;
        }
        match (lx.is(i, b'('), lx.is(i, b')'), lx.partner(i)) {
            (true, _, Some(close)) => self.optional_call(i, close, to, 0),
            (_, true, Some(open)) => self.optional_call(open, i, to, 0),
            _ => false,
        }
    }

    /// Whether the parentheses `open`..`close` are a call's optional ones (see `optional_call_paren`); a `)`
    /// followed by the `)` of an outer call whose parentheses are optional ends the line as well, so that
    /// `f(1, g(2))` and `f 1, g(2)` read alike.
    fn optional_call(&self, open: usize, close: usize, to: usize, depth: usize) -> bool {
        let lx = self.lx;
        let tight =
            open > 0 && lx.kind(open - 1) == Some(TokKind::Ident) && lx.toks[open - 1].end == lx.toks[open].start;
        let first = open + 1;
        let operand = first < close
            && matches!(lx.kind(first), Some(TokKind::Ident | TokKind::Num | TokKind::Str))
            && !lx.s(first).starts_with("::");
        if !(tight && operand) {
            return false;
        }
        let after = close + 1;
        after >= to
            || lx.toks[after].line > lx.toks[close].end_line
            || lx.is(after, b'}')
            || lx.is_word(after, "end")
            || (depth < 8
                && lx.is(after, b')')
                && lx
                    .partner(after)
                    .is_some_and(|outer| self.optional_call(outer, after, to, depth + 1)))
    }

    /// Whether the comma at `i` is a trailing one a formatter may add or drop: right before a closing bracket,
    /// and, before `)` in Python and Rust, not the only comma of a one-element tuple.
    fn trailing_comma(&self, i: usize, to: usize) -> bool {
        let next = i + 1;
        if next >= to {
            return false;
        }
        if self.lx.is(next, b']') || self.lx.is(next, b'}') {
            return true;
        }
        if !self.lx.is(next, b')') {
            return false;
        }
        if !self.lx.language.tuple_comma() {
            return true;
        }
        let Some(open) = self.lx.partner(next) else {
            return false;
        };
        // A call's or definition's argument list is no tuple: `f(x,)` is `f(x)`.
        let called = open > 0
            && match self.lx.kind(open - 1) {
                Some(TokKind::Ident) => !TUPLE_AFTER.contains(&self.lx.s(open - 1)),
                Some(TokKind::Punct) => self.lx.is(open - 1, b')') || self.lx.is(open - 1, b']'),
                _ => false,
            };
        if called {
            return true;
        }
        let mut k = open + 1;
        while k < i {
            if self.lx.is(k, b',') {
                return true;
            }
            k = self.lx.skip(k);
        }
        false
    }
}

/// Python and Rust keywords after which `(` opens a tuple or parenthesized expression, not an argument list.
const TUPLE_AFTER: [&str; 27] = [
    "return", "in", "yield", "await", "not", "and", "or", "if", "elif", "else", "for", "while", "assert", "is",
    "lambda", "del", "with", "as", "except", "raise", "match", "let", "mut", "break", "move", "print", "case",
];

/// A plain string (not triple-quoted, not a template or regex, no quote or backslash inside, nor any of the
/// language's `sensitive` characters: Ruby's `#`, which interpolates between double quotes only) with double
/// quotes.
fn push_string(buf: &mut Vec<u8>, text: &str, sensitive: &[char]) {
    let quote_at = text.find(['\'', '"']);
    if let Some(at) = quote_at {
        let (prefix, rest) = text.split_at(at);
        let body = rest.get(1..rest.len().saturating_sub(1)).unwrap_or("");
        let closed = rest.len() >= 2 && rest.as_bytes()[0] == rest.as_bytes()[rest.len() - 1];
        let plain = closed
            && !body.contains(['\'', '"', '\\'])
            && !body.contains(sensitive)
            && !prefix.contains('`')
            && !prefix.contains('/');
        if plain {
            buf.extend_from_slice(prefix.as_bytes());
            buf.push(b'"');
            buf.extend_from_slice(body.as_bytes());
            buf.push(b'"');
            return;
        }
    }
    buf.extend_from_slice(text.as_bytes());
}

/// Truncated hex SHA-256 of `bytes`.
pub(crate) fn digest(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut hex = String::with_capacity(HASH_HEX);
    for byte in hash.iter().take(HASH_HEX / 2) {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    hex
}

/// The hash of a container: its shell's hash and its children's, in order.
pub(crate) fn combine<'h>(shell: &str, children: impl Iterator<Item = &'h str>) -> String {
    let mut bytes = Vec::with_capacity(HASH_HEX * 4);
    bytes.extend_from_slice(shell.as_bytes());
    for child in children {
        bytes.push(SEP);
        bytes.extend_from_slice(child.as_bytes());
    }
    digest(&bytes)
}
