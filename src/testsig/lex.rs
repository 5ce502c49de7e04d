//! Comment- and string-aware tokenizers, one per language family.
//!
//! A token is an identifier (keywords included), a number, a string-like literal (strings of every kind,
//! characters, runes, template literals, JavaScript regular expressions), a lifetime, a line continuation or a
//! single punctuation byte. Comments are not tokens; their spans are kept for the few rules that read them (Go
//! build constraints, Go example output).
//!
//! Invariants: every step consumes at least one byte, so lexing ends; token and comment boundaries fall on
//! ASCII bytes or at the end of the text, so slicing the text at them never splits a character; brackets are
//! paired by an explicit stack ([`Lexed::partner`]) that tolerates any imbalance. A literal that is not closed
//! on its line where the language forbids that (a `'` in JSX text, say) falls back to punctuation, so one odd
//! character cannot swallow the rest of the file.

pub(super) mod clike;
include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/lex.rs"));

use super::Lang;
pub(crate) use clike::GO;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    Ident,
    Num,
    /// Any literal whose content is data: strings, chars, runes, templates, regular expressions.
    Str,
    /// A Rust lifetime or loop label: `'a`.
    Lifetime,
    /// A backslash that continues a Python line.
    Cont,
    /// One ASCII punctuation byte.
    Punct,
}

/// One token: a byte range of the text and the lines it starts and ends on (1-based).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    pub(crate) kind: TokKind,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) line: u32,
    pub(crate) end_line: u32,
}

/// A comment's byte range and first line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Comment {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) line: u32,
}

/// A lexed file.
pub(crate) struct Lexed<'a> {
    pub(crate) lang: Lang,
    /// What the scanner knows of `lang` (its row of `testsig::LANGUAGES`), looked up once per file.
    pub(crate) language: &'static dyn super::Language,
    pub(crate) text: &'a str,
    pub(crate) toks: Vec<Tok>,
    pub(crate) comments: Vec<Comment>,
    /// For each token, the index of the bracket it pairs with (`u32::MAX`: none or not a bracket).
    partners: Vec<u32>,
    /// Byte offset where each line starts.
    line_starts: Vec<usize>,
    /// Names of lists passed whole as tables of test cases (`parametrize("x", CASES)`, `.each(CASES)`).
    pub(crate) tables: Vec<String>,
}

const NO_PARTNER: u32 = u32::MAX;

impl<'a> Lexed<'a> {
    /// The text of token `i` (empty past the end).
    pub(crate) fn s(&self, i: usize) -> &'a str {
        self.toks
            .get(i)
            .map_or("", |tok| self.text.get(tok.start..tok.end).unwrap_or(""))
    }

    /// Whether token `i` is the punctuation byte `c`.
    pub(crate) fn is(&self, i: usize, c: u8) -> bool {
        self.toks
            .get(i)
            .is_some_and(|tok| tok.kind == TokKind::Punct && self.text.as_bytes().get(tok.start) == Some(&c))
    }

    /// Whether token `i` is the identifier or keyword `word`.
    pub(crate) fn is_word(&self, i: usize, word: &str) -> bool {
        self.kind(i) == Some(TokKind::Ident) && self.s(i) == word
    }

    pub(crate) fn kind(&self, i: usize) -> Option<TokKind> {
        self.toks.get(i).map(|tok| tok.kind)
    }

    /// The bracket paired with token `i`, if `i` is a paired bracket.
    pub(crate) fn partner(&self, i: usize) -> Option<usize> {
        match self.partners.get(i) {
            Some(&p) if p != NO_PARTNER => Some(p as usize),
            _ => None,
        }
    }

    /// The index just past the group opened at `i` (its closing bracket included), or `i + 1` when `i` opens
    /// nothing or its group is not closed. Walking with this never goes backwards.
    pub(crate) fn skip(&self, i: usize) -> usize {
        match self.partner(i) {
            Some(close) if close > i => close + 1,
            _ => i + 1,
        }
    }

    /// The column token `i` starts at (tabs advance to the next multiple of 8, as Python reads them).
    pub(crate) fn column(&self, i: usize) -> usize {
        let Some(tok) = self.toks.get(i) else {
            return 0;
        };
        let line_start = self
            .line_starts
            .get(tok.line.saturating_sub(1) as usize)
            .copied()
            .unwrap_or(0);
        let indent = self.text.as_bytes().get(line_start..tok.start).unwrap_or(&[]);
        indent
            .iter()
            .fold(0, |col, &c| if c == b'\t' { (col / 8 + 1) * 8 } else { col + 1 })
    }

    /// Line `line` (1-based) of the text, trimmed and cut to a readable length; empty past the end.
    pub(crate) fn line_text(&self, line: u32) -> String {
        const MAX_CHARS: usize = 160;
        let index = line.saturating_sub(1) as usize;
        let Some(&start) = self.line_starts.get(index) else {
            return String::new();
        };
        let end = self.line_starts.get(index + 1).map_or(self.text.len(), |next| next - 1);
        let trimmed = self.text.get(start..end).unwrap_or("").trim();
        match trimmed.char_indices().nth(MAX_CHARS) {
            Some((cut, _)) => format!("{}…", &trimmed[..cut]),
            None => trimmed.to_string(),
        }
    }
}

/// Tokenizes `text` as `lang` (its [`super::Language::lex`]).
pub(crate) fn lex(lang: Lang, text: &str) -> Lexed<'_> {
    let language = super::language(lang);
    let mut cur = Cursor::new(text);
    language.lex(&mut cur);
    let partners = pair_brackets(text.as_bytes(), &cur.toks);
    let mut line_starts = vec![0];
    line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
    let mut lexed = Lexed {
        lang,
        language,
        text,
        toks: cur.toks,
        comments: cur.comments,
        partners,
        line_starts,
        tables: Vec::new(),
    };
    lexed.tables = super::table::names(&lexed);
    lexed
}

/// Pairs `()`, `[]` and `{}`. A closer that matches an opener deeper in the stack closes it (the openers above
/// stay unpaired); a closer that matches nothing stays unpaired.
fn pair_brackets(bytes: &[u8], toks: &[Tok]) -> Vec<u32> {
    let mut partners = vec![NO_PARTNER; toks.len()];
    let mut stack: Vec<(u8, usize)> = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if tok.kind != TokKind::Punct {
            continue;
        }
        let c = bytes.get(tok.start).copied().unwrap_or(0);
        let open = match c {
            b'(' | b'[' | b'{' => {
                stack.push((c, i));
                continue;
            }
            b')' => b'(',
            b']' => b'[',
            b'}' => b'{',
            _ => continue,
        };
        if let Some(depth) = stack.iter().rposition(|&(c, _)| c == open) {
            let (_, at) = stack[depth];
            stack.truncate(depth);
            // Token counts fit in u32: a text is at most a few GiB and every token is at least one byte.
            partners[at] = u32::try_from(i).unwrap_or(NO_PARTNER);
            partners[i] = u32::try_from(at).unwrap_or(NO_PARTNER);
        }
    }
    partners
}

/// A position in the text being lexed, and what has been found so far.
pub(crate) struct Cursor<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) i: usize,
    pub(crate) line: u32,
    pub(crate) toks: Vec<Tok>,
    pub(crate) comments: Vec<Comment>,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            b: text.as_bytes(),
            i: 0,
            line: 1,
            toks: Vec::with_capacity(text.len() / 4),
            comments: Vec::new(),
        }
    }

    /// The byte at `i + k`, or 0 past the end.
    pub(crate) fn at(&self, k: usize) -> u8 {
        self.b.get(self.i + k).copied().unwrap_or(0)
    }

    pub(crate) fn done(&self) -> bool {
        self.i >= self.b.len()
    }

    /// Lines in `b[from..to]`.
    fn lines_in(&self, from: usize, to: usize) -> u32 {
        let count = self
            .b
            .get(from..to)
            .map_or(0, |s| memchr::memchr_iter(b'\n', s).count());
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// Records a token from the cursor to `end` (at least one byte) and moves past it.
    pub(crate) fn token(&mut self, kind: TokKind, end: usize) {
        let end = end.clamp(self.i + 1, self.b.len().max(self.i + 1));
        let line = self.line;
        // Only literals and continuations can hold a line break.
        if matches!(kind, TokKind::Str | TokKind::Cont) {
            self.line = self.line.saturating_add(self.lines_in(self.i, end));
        }
        self.toks.push(Tok {
            kind,
            start: self.i,
            end,
            line,
            end_line: self.line,
        });
        self.i = end;
    }

    /// Records a comment from the cursor to `end` and moves past it.
    pub(crate) fn comment(&mut self, end: usize) {
        let end = end.clamp(self.i + 1, self.b.len().max(self.i + 1));
        self.comments.push(Comment {
            start: self.i,
            end,
            line: self.line,
        });
        self.line = self.line.saturating_add(self.lines_in(self.i, end));
        self.i = end;
    }

    /// Skips one byte of white space, counting lines. Returns false if the byte is not white space.
    pub(crate) fn space(&mut self) -> bool {
        match self.at(0) {
            b'\n' => self.line = self.line.saturating_add(1),
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {}
            _ => return false,
        }
        self.i += 1;
        true
    }

    /// The end of the run of identifier bytes starting at `from` (ASCII word bytes and any non-ASCII byte, so
    /// a multi-byte character is never split).
    pub(crate) fn word_end(&self, from: usize, dollar: bool) -> usize {
        let mut j = from;
        while let Some(&c) = self.b.get(j) {
            if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 || (dollar && c == b'$') {
                j += 1;
            } else {
                break;
            }
        }
        j
    }

    /// The end of the line that `from` is on (the index of its `\n`, or the end of the text).
    pub(crate) fn line_end(&self, from: usize) -> usize {
        self.b
            .get(from..)
            .and_then(|rest| memchr::memchr(b'\n', rest))
            .map_or(self.b.len(), |at| from + at)
    }

    /// Records a number: digits, letters, `_` and `.` (so `1.5e3`, `0x1F`, `1_000u32` are one token).
    pub(crate) fn number(&mut self) {
        let mut j = self.i + 1;
        while let Some(&c) = self.b.get(j) {
            if c.is_ascii_alphanumeric()
                || c == b'_'
                || (c == b'.' && self.b.get(j + 1).is_some_and(u8::is_ascii_digit))
            {
                j += 1;
            } else {
                break;
            }
        }
        self.token(TokKind::Num, j);
    }

    /// The end of a quoted literal opened at `open` by `quote`, honoring backslash escapes. `multiline`: may it
    /// span lines? Returns `None` if it is not closed where it must be.
    pub(crate) fn quoted_end(&self, open: usize, quote: u8, multiline: bool) -> Option<usize> {
        let mut j = open + 1;
        while let Some(&c) = self.b.get(j) {
            match c {
                b'\\' => j += 2,
                b'\n' if !multiline => return None,
                _ if c == quote => return Some(j + 1),
                _ => j += 1,
            }
        }
        multiline.then_some(self.b.len())
    }
}

/// Whether `c` may start an identifier.
pub(crate) fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}
