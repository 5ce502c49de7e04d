//! A small shell tokenizer: just enough of POSIX sh / bash to find the simple commands in a Bash tool call.
//!
//! It honors quotes (`'…'`, `"…"`, `$'…'`, backslashes), splits on `;`, `&&`, `||`, `|`, `&`, newlines and
//! parentheses, records redirections (`>`, `>>`, `>|`, `&>`, `N>`, `<>`, here-documents and here-strings) and
//! descends into `$(…)`, backticks and `<(…)` / `>(…)`. Words keep their structure (literal text, quoted or
//! not; `$NAME`; `~`; unknown pieces such as a command substitution's output) so the analysis can expand what
//! it knows and say "unknown" for the rest. It never fails: any input yields some list of commands, and
//! nesting deeper than [`MAX_DEPTH`] is reported instead of recursed into.

mod word;

/// How deeply substitutions and `sh -c` strings may nest before the command is judged too complex.
pub(crate) const MAX_DEPTH: usize = 12;

/// A piece of a word.
#[derive(Debug, Clone)]
pub(crate) enum Part {
    /// Literal text; `quoted` text is never a glob or brace pattern.
    Lit { text: String, quoted: bool },
    /// `$NAME` or `${NAME}`.
    Var(String),
    /// A leading `~` (the home directory).
    Tilde,
    /// Something only a real shell could know: `$(…)` output, `$1`, `${X:-y}`, arithmetic.
    Unknown,
}

/// One shell word before expansion.
#[derive(Debug, Clone, Default)]
pub(crate) struct Word(pub(crate) Vec<Part>);

impl Word {
    /// The text with quotes removed, if the word is purely literal.
    pub(crate) fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.0 {
            match part {
                Part::Lit { text, .. } => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }
}

/// What a command reads on standard input, when the command line itself says.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    /// A here-document body.
    HereDoc(String),
    /// A here-string (`<<< word`).
    HereString(Word),
}

/// One simple command.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cmd {
    pub(crate) words: Vec<Word>,
    /// Targets of redirections that open a file for writing.
    pub(crate) outputs: Vec<Word>,
    pub(crate) input: Option<Input>,
    /// Command lists run inside this command's words: substitutions, here-document expansions.
    pub(crate) nested: Vec<Vec<Cmd>>,
}

impl Cmd {
    fn is_empty(&self) -> bool {
        self.words.is_empty() && self.outputs.is_empty() && self.input.is_none() && self.nested.is_empty()
    }
}

/// The command nests deeper than [`MAX_DEPTH`].
#[derive(Debug)]
pub(crate) struct TooDeep;

/// Splits `src` into simple commands; `depth` is how deeply `src` itself is already nested.
pub(crate) fn parse(src: &str, depth: usize) -> Result<Vec<Cmd>, TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    let mut lx = Lexer {
        s: src.chars().collect(),
        i: 0,
        depth,
        too_deep: false,
    };
    let cmds = lx.list(false);
    if lx.too_deep { Err(TooDeep) } else { Ok(cmds) }
}

/// A here-document seen on the current line, waiting for its body after the next newline.
struct Pending {
    cmd: usize,
    delim: String,
    strip_tabs: bool,
    expands: bool,
}

struct Lexer {
    s: Vec<char>,
    i: usize,
    depth: usize,
    too_deep: bool,
}

/// Characters that end an unquoted word.
fn ends_word(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>')
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.at(0) == Some(c);
        if hit {
            self.i += 1;
        }
        hit
    }

    /// Commands up to the end of input, or (in a substitution) up to its closing `)`.
    fn list(&mut self, in_subst: bool) -> Vec<Cmd> {
        let mut out = Vec::new();
        let mut cur = Cmd::default();
        let mut pending = Vec::new();
        let mut parens = 0usize;
        while let Some(c) = self.at(0) {
            let before = self.i;
            match c {
                ' ' | '\t' | '\r' => self.i += 1,
                '\\' if self.at(1) == Some('\n') => self.i += 2,
                '\n' => {
                    self.i += 1;
                    finish(&mut out, &mut cur);
                    self.heredocs(&mut pending, &mut out);
                }
                '#' => {
                    while self.at(0).is_some_and(|c| c != '\n') {
                        self.i += 1;
                    }
                }
                ')' if parens == 0 && in_subst => {
                    self.i += 1;
                    break;
                }
                ')' => {
                    self.i += 1;
                    parens = parens.saturating_sub(1);
                    finish(&mut out, &mut cur);
                }
                '(' => {
                    self.i += 1;
                    parens += 1;
                    finish(&mut out, &mut cur);
                }
                '<' | '>' if self.at(1) == Some('(') => {
                    let w = self.word(&mut cur.nested);
                    cur.words.push(w);
                }
                '&' if self.at(1) == Some('>') => self.redirect(&mut cur, &mut pending, out.len()),
                '<' | '>' => self.redirect(&mut cur, &mut pending, out.len()),
                ';' | '&' | '|' => {
                    self.i += 1;
                    finish(&mut out, &mut cur);
                }
                c if c.is_ascii_digit() && self.fd_redirect_ahead() => {
                    self.redirect(&mut cur, &mut pending, out.len());
                }
                _ => {
                    let w = self.word(&mut cur.nested);
                    cur.words.push(w);
                }
            }
            if self.i == before {
                self.i += 1; // never loop without progress, whatever the input
            }
        }
        finish(&mut out, &mut cur);
        out
    }

    fn fd_redirect_ahead(&self) -> bool {
        let mut k = 0;
        while self.at(k).is_some_and(|c| c.is_ascii_digit()) {
            k += 1;
        }
        matches!(self.at(k), Some('<' | '>')) && self.at(k + 1) != Some('(')
    }

    /// One redirection operator and its target; output targets and stdin texts go into `cur`.
    fn redirect(&mut self, cur: &mut Cmd, pending: &mut Vec<Pending>, cmd: usize) {
        while self.at(0).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        enum Op {
            Write,
            MaybeDup,
            Ignore,
            HereDoc(bool),
            HereString,
        }
        let op = if self.eat('&') {
            self.eat('>');
            self.eat('>');
            Op::Write
        } else if self.eat('<') {
            if self.eat('<') {
                if self.eat('<') {
                    Op::HereString
                } else {
                    Op::HereDoc(self.eat('-'))
                }
            } else if self.eat('>') {
                Op::Write
            } else {
                self.eat('&');
                Op::Ignore
            }
        } else {
            self.eat('>');
            let _ = self.eat('>') || self.eat('|');
            if self.eat('&') { Op::MaybeDup } else { Op::Write }
        };
        while matches!(self.at(0), Some(' ' | '\t')) {
            self.i += 1;
        }
        if self.at(0).is_none_or(ends_word) {
            return;
        }
        let target = self.word(&mut cur.nested);
        match op {
            Op::Write => cur.outputs.push(target),
            Op::MaybeDup => {
                let text = target.literal().unwrap_or_default();
                if !(text == "-" || (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))) {
                    cur.outputs.push(target);
                }
            }
            Op::Ignore => {}
            Op::HereString => cur.input = Some(Input::HereString(target)),
            Op::HereDoc(strip_tabs) => {
                let quoted = target.0.iter().any(|p| matches!(p, Part::Lit { quoted: true, .. }));
                let delim = target.0.iter().fold(String::new(), |mut s, p| {
                    if let Part::Lit { text, .. } = p {
                        s.push_str(text);
                    }
                    s
                });
                cur.input = Some(Input::HereDoc(String::new()));
                pending.push(Pending {
                    cmd,
                    delim,
                    strip_tabs,
                    expands: !quoted,
                });
            }
        }
    }

    /// Reads the bodies of the here-documents declared on the line just ended.
    fn heredocs(&mut self, pending: &mut Vec<Pending>, out: &mut [Cmd]) {
        for doc in pending.drain(..) {
            let mut body = String::new();
            while self.i < self.s.len() {
                let start = self.i;
                while self.at(0).is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                let line: String = self.s[start..self.i].iter().collect();
                self.i = (self.i + 1).min(self.s.len());
                let cmp = if doc.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    &line
                };
                if cmp == doc.delim {
                    break;
                }
                body.push_str(&line);
                body.push('\n');
            }
            let Some(cmd) = out.get_mut(doc.cmd) else {
                continue;
            };
            if doc.expands {
                self.substitutions_in(&body, &mut cmd.nested);
            }
            cmd.input = Some(Input::HereDoc(body));
        }
    }

    /// Parses the `$(…)` and backtick substitutions of an expanding here-document body.
    fn substitutions_in(&mut self, body: &str, nested: &mut Vec<Vec<Cmd>>) {
        let mut sub = Lexer {
            s: body.chars().collect(),
            i: 0,
            depth: self.depth,
            too_deep: false,
        };
        while let Some(c) = sub.at(0) {
            match c {
                '\\' => sub.i += 2,
                '$' if sub.at(1) == Some('(') => {
                    sub.i += 2;
                    sub.subst(nested);
                }
                '`' => {
                    sub.i += 1;
                    sub.backtick(nested);
                }
                _ => sub.i += 1,
            }
        }
        self.too_deep |= sub.too_deep;
    }
}

fn finish(out: &mut Vec<Cmd>, cur: &mut Cmd) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}
