//! Word-level lexing: quotes, escapes, parameters and substitutions.

use super::{Cmd, Lexer, Part, Word, ends_word};

/// Appends literal text to `parts`, merging with the previous literal of the same quoting.
fn push_lit(parts: &mut Vec<Part>, s: &str, quoted: bool) {
    if let Some(Part::Lit { text, quoted: q }) = parts.last_mut()
        && *q == quoted
    {
        text.push_str(s);
        return;
    }
    parts.push(Part::Lit {
        text: s.to_owned(),
        quoted,
    });
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl Lexer {
    /// One word starting at the cursor; command substitutions inside it are parsed into `nested`.
    pub(super) fn word(&mut self, nested: &mut Vec<Vec<Cmd>>) -> Word {
        let mut parts = Vec::new();
        let start = self.i;
        while let Some(c) = self.at(0) {
            match c {
                '<' | '>' if self.at(1) == Some('(') => {
                    self.i += 2;
                    self.subst(nested);
                    parts.push(Part::Unknown);
                }
                c if ends_word(c) => break,
                '\\' => {
                    self.i += 1;
                    match self.at(0) {
                        Some('\n') => self.i += 1,
                        Some(n) => {
                            push_lit(&mut parts, n.encode_utf8(&mut [0; 4]), true);
                            self.i += 1;
                        }
                        None => {}
                    }
                }
                '\'' => {
                    self.i += 1;
                    let text = self.until('\'');
                    push_lit(&mut parts, &text, true);
                }
                '"' => {
                    self.i += 1;
                    self.double(&mut parts, nested);
                }
                '$' => self.dollar(&mut parts, nested, false),
                '`' => {
                    self.i += 1;
                    self.backtick(nested);
                    parts.push(Part::Unknown);
                }
                '~' if self.i == start && self.at(1).is_none_or(|n| n == '/' || ends_word(n)) => {
                    self.i += 1;
                    parts.push(Part::Tilde);
                }
                _ => {
                    push_lit(&mut parts, c.encode_utf8(&mut [0; 4]), false);
                    self.i += 1;
                }
            }
        }
        Word(parts)
    }

    /// Text up to (and consuming) `close`, or to the end of input.
    fn until(&mut self, close: char) -> String {
        let mut text = String::new();
        while let Some(c) = self.at(0) {
            self.i += 1;
            if c == close {
                break;
            }
            text.push(c);
        }
        text
    }

    /// The inside of `"…"`, cursor after the opening quote.
    fn double(&mut self, parts: &mut Vec<Part>, nested: &mut Vec<Vec<Cmd>>) {
        // An empty `""` is still a word.
        push_lit(parts, "", true);
        while let Some(c) = self.at(0) {
            match c {
                '"' => {
                    self.i += 1;
                    return;
                }
                '\\' => match self.at(1) {
                    Some(n @ ('"' | '\\' | '$' | '`')) => {
                        push_lit(parts, n.encode_utf8(&mut [0; 4]), true);
                        self.i += 2;
                    }
                    Some('\n') => self.i += 2,
                    _ => {
                        push_lit(parts, "\\", true);
                        self.i += 1;
                    }
                },
                '$' => self.dollar(parts, nested, true),
                '`' => {
                    self.i += 1;
                    self.backtick(nested);
                    parts.push(Part::Unknown);
                }
                _ => {
                    push_lit(parts, c.encode_utf8(&mut [0; 4]), true);
                    self.i += 1;
                }
            }
        }
    }

    /// A `$` expansion at the cursor.
    fn dollar(&mut self, parts: &mut Vec<Part>, nested: &mut Vec<Vec<Cmd>>, quoted: bool) {
        match self.at(1) {
            // `$((…))` is parsed as a substitution too: harmless, and it finds the matching `))`.
            Some('(') => {
                self.i += 2;
                self.subst(nested);
                parts.push(Part::Unknown);
            }
            Some('{') => {
                self.i += 2;
                let mut depth = 1usize;
                let mut inner = String::new();
                while let Some(c) = self.at(0) {
                    self.i += 1;
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    inner.push(c);
                }
                let simple = inner.starts_with(is_name_start) && inner.chars().all(is_name);
                parts.push(if simple { Part::Var(inner) } else { Part::Unknown });
            }
            Some('\'') if !quoted => {
                self.i += 2;
                let text = self.ansi_c();
                push_lit(parts, &text, true);
            }
            // `$"…"` is a translated string: the quote is handled by the caller next.
            Some('"') if !quoted => self.i += 1,
            Some(c) if is_name_start(c) => {
                self.i += 1;
                let mut name = String::new();
                while let Some(c) = self.at(0).filter(|&c| is_name(c)) {
                    name.push(c);
                    self.i += 1;
                }
                parts.push(Part::Var(name));
            }
            Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(c) => {
                self.i += 2;
                parts.push(Part::Unknown);
            }
            _ => {
                push_lit(parts, "$", quoted);
                self.i += 1;
            }
        }
    }

    /// The inside of `$'…'` with the common escapes decoded.
    fn ansi_c(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.at(0) {
            self.i += 1;
            match c {
                '\'' => break,
                '\\' => {
                    let Some(e) = self.at(0) else { break };
                    self.i += 1;
                    match e {
                        'n' => text.push('\n'),
                        't' => text.push('\t'),
                        'x' => {
                            let hex: String = (0..2)
                                .filter_map(|k| self.at(k))
                                .take_while(char::is_ascii_hexdigit)
                                .collect();
                            self.i += hex.len();
                            let code = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                            text.push(code.unwrap_or('\\'));
                        }
                        other => text.push(other),
                    }
                }
                _ => text.push(c),
            }
        }
        text
    }

    /// A `$(…)` body, cursor after the `(`; parsed in place so quotes and nesting find the right `)`.
    pub(super) fn subst(&mut self, nested: &mut Vec<Vec<Cmd>>) {
        if self.depth >= super::MAX_DEPTH {
            self.too_deep = true;
            self.i = self.s.len();
            return;
        }
        self.depth += 1;
        let cmds = self.list(true);
        self.depth -= 1;
        nested.push(cmds);
    }

    /// A backtick body, cursor after the opening backtick; re-lexed after removing its escapes.
    pub(super) fn backtick(&mut self, nested: &mut Vec<Vec<Cmd>>) {
        let mut inner = String::new();
        while let Some(c) = self.at(0) {
            self.i += 1;
            match c {
                '`' => break,
                '\\' => match self.at(0) {
                    Some(n @ ('`' | '\\' | '$')) => {
                        inner.push(n);
                        self.i += 1;
                    }
                    _ => inner.push('\\'),
                },
                _ => inner.push(c),
            }
        }
        match super::parse(&inner, self.depth + 1) {
            Ok(cmds) => nested.push(cmds),
            Err(super::TooDeep) => self.too_deep = true,
        }
    }
}
