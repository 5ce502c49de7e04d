//! What a file of test code reads of the environment: the names it reads by a literal, and whether it reads it
//! by a name built at run time (`schema::EnvReads`).
//!
//! Why: a sealed test that reads `CALC_QUICK` and returns before its assertion is steered by that variable, and
//! a Makefile's `export CALC_QUICK = 1` (or cargo's `[env]`, a runner's configured environment) then passes it
//! without a line of the test changing. No classification by name can know which of a program's own names a
//! test reads; the test's code says it. So setup reads the baseline's test code for them (`testseal::env_reads`)
//! and every place in the tree that sets a variable for the run asks `runner::steers_in` with them.
//!
//! How each language reads the environment is a row in its folder's `env_reads.rs` ([`Reads`]): the calls that
//! take a name (`os.getenv`, `env::var`, `System.getenv`), the environment as a map (`os.environ`,
//! `process.env`, `ENV`, `$_ENV`) read by index, method, member or destructuring, what reads it whole
//! (`env::vars()`, `os.Environ()`), the shell's `$NAME`. The scan over tokens is shared: comments never count,
//! and a string literal counts as a name only where the code reads the environment by it. Whatever the row
//! cannot list — a key built at run time, the map copied, iterated or passed on — reads it **whole**: then every
//! variable the tree sets counts for that project, the blanket the classifier had before it freed a program's
//! own names, now only where a test reads the environment wholesale. A write (`monkeypatch.setenv`,
//! `patch.dict(os.environ, …)`, `t.Setenv`) reads nothing.
//!
//! A language with named constants a configuration defines before the run (PHP, whose `<const>` PHPUnit's `<php>`
//! defines) reads them in its row too ([`constants`]): the same question for the language's other channel.
//!
//! What no scan sees (`docs/threat-model.md`): a name read by code the tests call that is not test code (the
//! code under test's own reads are the agent's anyway), by a library the tests import, or by a program the
//! tests start; and a name spelled in a way no row knows (a variable holding `os.environ` under another name in
//! Python, `std::env::var` imported as `var`).

use std::ops::Range;

include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/env_reads.rs"));

use super::Lang;
use super::lex::{self, Lexed, TokKind};
use crate::schema::EnvReads;

/// A path of identifiers as the code joins them with `.`, `::` or `->` (`os.environ`, `env::var`), matched by
/// its end: `["env", "var"]` is also `std::env::var`.
pub(crate) type Path = &'static [&'static str];

/// How one language's code reads the environment (see the module doc); one per ecosystem folder.
pub(crate) struct Reads {
    pub(crate) lang: Lang,
    /// Calls (or macros, `env!`) whose first argument is the name; with no argument, or one that is not a plain
    /// literal, the call reads a name built at run time.
    pub(crate) calls: &'static [Path],
    /// Calls that read every variable (`env::vars`, `os.Environ`).
    pub(crate) whole: &'static [Path],
    /// The environment as a map (`os.environ`, `process.env`, `ENV`): indexed by a literal, or one of
    /// [`Reads::methods`] called with one, it reads that name; any use but those below reads it whole.
    pub(crate) maps: &'static [Path],
    /// The map's methods whose first argument is a name it reads (`get`, `fetch`, `key?`).
    pub(crate) methods: &'static [&'static str],
    /// The map's methods that only write it (`update`, `clear`): they read nothing.
    pub(crate) writes: &'static [&'static str],
    /// Calls the map is handed to only to be written (`patch.dict(os.environ, …)`): they read nothing.
    pub(crate) writers: &'static [Path],
    /// Whether a member of the map is a name it reads (`process.env.CI`).
    pub(crate) members: bool,
    /// The keyword of a membership test whose left side is the name (`"CI" in os.environ`).
    pub(crate) membership: Option<&'static str>,
    /// Whether `const { A, B: b } = map` reads `A` and `B` (a rest element reads the map whole).
    pub(crate) destructures: bool,
    /// Objects that hold one of [`Reads::maps`] as a member, with that member's name (`import.meta` holds `env`,
    /// `process` holds `env`): a use of the holder that reaches the map without the map's path — destructured
    /// (`const { env } = import.meta`, a rest element) or indexed (`import.meta['env']`, a computed index) — reads
    /// the environment whole, where the map goes on under another name; any other use (`import.meta.url`,
    /// `process.argv`) reads nothing.
    pub(crate) holders: &'static [(Path, &'static str)],
    /// What opens an interpolation in a string literal (`${`, `#{`, `{` of an f-string): a literal holding one is
    /// read as code too.
    pub(crate) interpolates: &'static [&'static str],
    /// The shell's reading: `$NAME` and `${NAME…}`, inside double quotes too, where the file did not set
    /// `NAME` first; an indirect `${!NAME}` reads a name built at run time.
    pub(crate) shell: bool,
    /// Named constants a configuration can define for the run (PHP's `<const>` in PHPUnit's `<php>`), where the
    /// language has them: how its code reads them ([`constants`]).
    pub(crate) constants: Option<constants::Constants>,
    /// The words that read what the run prints or warns (an output matcher, a warning hook, a captured stream,
    /// a subprocess's output) or call a method by a computed name, which could be any of them: a test file
    /// holding one, anywhere but in a comment, reads the run's output ([`reads_output`]). `None`: the language
    /// has no such reading, and every test file of it counts as reading output.
    pub(crate) output: Option<&'static [&'static str]>,
}

impl Reads {
    /// A language that reads nothing of the environment this way (a starting point for a row).
    pub(crate) const fn none(lang: Lang) -> Reads {
        Reads {
            lang,
            calls: &[],
            whole: &[],
            maps: &[],
            methods: &[],
            writes: &[],
            writers: &[],
            members: false,
            membership: None,
            destructures: false,
            holders: &[],
            interpolates: &[],
            shell: false,
            constants: None,
            output: None,
        }
    }
}

/// Every language's row: each registered folder with an `env_reads.rs`.
const READS: &[&Reads] = &each_env_reads!(&READS);

/// How deep string literals are read as code (an interpolation inside an interpolation).
const MAX_DEPTH: usize = 2;

/// What `text`, a file of `lang`, reads of the environment. A source file that holds code and its tests
/// (`inline`: Rust's `#[cfg(test)] mod tests`) is read in its test modules only: the code's own reads are the
/// agent's code, whose variables the tree may set as data.
pub(crate) fn read(lang: Lang, text: &str, inline: bool) -> EnvReads {
    let mut out = EnvReads::default();
    let Some(row) = READS.iter().find(|row| row.lang == lang) else {
        return out;
    };
    let lx = lex::lex(lang, text);
    let within = if inline {
        super::test_modules(lang, &lx)
    } else {
        Vec::new()
    };
    if !(inline && within.is_empty()) {
        scan(row, &lx, &within, 0, &mut out);
    }
    out
}

/// Whether `text`, a test file of `lang`, may read what the run prints or warns (see [`Reads::output`]): one of
/// its row's words is a token of it or a word inside a token (a symbol, a string naming a method); no row, or
/// a row without the reading, counts as reading it.
pub(crate) fn reads_output(lang: Lang, text: &str) -> bool {
    let Some(words) = READS.iter().find(|row| row.lang == lang).and_then(|row| row.output) else {
        return true;
    };
    let lx = lex::lex(lang, text);
    (0..lx.toks.len()).any(|i| {
        let token = lx.s(i);
        // A literal that runs a program and reads what it prints (Ruby's backticks, `%x{…}`).
        words.iter().any(|w| w.starts_with(['`', '%']) && token.starts_with(w))
            || token
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .any(|word| {
                    words.iter().any(|w| match w.strip_suffix('*') {
                        Some(prefix) => word.starts_with(prefix),
                        None => word == *w,
                    })
                })
    })
}

/// The reads of `lx` by `row`, within the byte ranges `within` when any are given.
fn scan(row: &Reads, lx: &Lexed, within: &[Range<usize>], depth: usize, out: &mut EnvReads) {
    if row.shell {
        shell(lx, within, out);
        return;
    }
    for (i, tok) in lx.toks.iter().enumerate() {
        if !within.is_empty() && !within.iter().any(|range| range.contains(&tok.start)) {
            continue;
        }
        match tok.kind {
            TokKind::Str if depth < MAX_DEPTH => {
                let literal = lx.s(i);
                if row.interpolates.iter().any(|open| literal.contains(open)) {
                    // Each opener becomes a plain brace, so `#{` is not read as Ruby's comment.
                    let code = row.interpolates.iter().fold(inner(literal).to_string(), |code, open| {
                        code.replace(open, &format!("{}{{", " ".repeat(open.len() - 1)))
                    });
                    scan(row, &lex::lex(row.lang, &code), &[], depth + 1, out);
                }
            }
            TokKind::Ident => {
                at(row, lx, i, out);
                if let Some(consts) = &row.constants {
                    constants::at(consts, lx, i, out);
                }
            }
            _ => {}
        }
    }
}

/// A string literal's text between its first and last quote (its prefix and quotes cut off).
fn inner(literal: &str) -> &str {
    let open = literal.find(['"', '\'', '`']).map_or(0, |at| at + 1);
    let close = literal
        .rfind(['"', '\'', '`'])
        .filter(|&at| at >= open)
        .unwrap_or(literal.len());
    &literal[open..close]
}

/// Whether tokens `at - k` (`k` in `1..=n`) form a separator: `.`, `::`, `->` or `?.`; the index of the token
/// before it.
fn separator_before(lx: &Lexed, at: usize) -> Option<usize> {
    let before = at.checked_sub(1)?;
    if lx.is(before, b'.') {
        // `?.` (optional chaining) is one separator.
        return Some(if before >= 1 && lx.is(before - 1, b'?') {
            before - 1
        } else {
            before
        });
    }
    if (lx.is(before, b':') && before >= 1 && lx.is(before - 1, b':'))
        || (lx.is(before, b'>') && before >= 1 && lx.is(before - 1, b'-'))
    {
        return Some(before - 1);
    }
    None
}

/// The index of the first token of `path` when it ends at token `i`, else `None`.
fn path_at(lx: &Lexed, i: usize, path: Path) -> Option<usize> {
    let mut at = i;
    for (k, word) in path.iter().rev().enumerate() {
        if k > 0 {
            at = separator_before(lx, at)?.checked_sub(1)?;
        }
        if lx.kind(at) != Some(TokKind::Ident) || lx.s(at) != *word {
            return None;
        }
    }
    Some(at)
}

/// Whether token `i` is a separator (`.`, `::`, `->`, `?.`) and the index just past it.
fn separator_after(lx: &Lexed, i: usize) -> Option<usize> {
    if lx.is(i, b'.') {
        return Some(i + 1);
    }
    if lx.is(i, b'?') && lx.is(i + 1, b'.') {
        return Some(i + 2);
    }
    if (lx.is(i, b':') && lx.is(i + 1, b':')) || (lx.is(i, b'-') && lx.is(i + 1, b'>')) {
        return Some(i + 2);
    }
    None
}

/// The name a string literal at `i` spells when it is the whole argument (followed by `,`, `)` or `]`).
fn literal_name(lx: &Lexed, i: usize) -> Option<String> {
    if lx.kind(i) != Some(TokKind::Str) || !(lx.is(i + 1, b',') || lx.is(i + 1, b')') || lx.is(i + 1, b']')) {
        return None;
    }
    let text = lx.s(i);
    let name = inner(text);
    // A literal that interpolates is built at run time.
    let plain = !name.is_empty()
        && name.len() + 2 <= text.len()
        && !name.contains(['$', '{', '}', '\\', '#'])
        && name.chars().all(|c| !c.is_whitespace());
    plain.then(|| name.to_string())
}

/// The first argument of the call whose `(` is at `open`: its name, or wholesale.
fn argument(lx: &Lexed, open: usize, out: &mut EnvReads) {
    match literal_name(lx, open + 1) {
        Some(name) => {
            out.names.insert(name);
        }
        None => out.wholesale = true,
    }
}

/// What token `i` (an identifier) reads, by the row's calls, whole reads and maps.
fn at(row: &Reads, lx: &Lexed, i: usize, out: &mut EnvReads) {
    // A macro's `!` may stand between the name and its parenthesis (`env!("X")`).
    let open = if lx.is(i + 1, b'!') { i + 2 } else { i + 1 };
    if lx.is(open, b'(') {
        if row.calls.iter().any(|path| path_at(lx, i, path).is_some()) {
            argument(lx, open, out);
            return;
        }
        if row.whole.iter().any(|path| path_at(lx, i, path).is_some()) {
            out.wholesale = true;
            return;
        }
    }
    // The longest of the row's paths that ends here (`os.environ` before `environ`), so what precedes it is read.
    let Some(start) = row.maps.iter().filter_map(|path| path_at(lx, i, path)).min() else {
        if let Some((start, member)) = row
            .holders
            .iter()
            .find_map(|(path, member)| path_at(lx, i, path).map(|start| (start, *member)))
            && reaches_its_map(lx, start, i, member)
        {
            out.wholesale = true;
        }
        return;
    };
    // `os.environ` inside a longer path (`os.environ.get`) is matched here, at its own last word.
    if imports(lx, start) || written_by(row, lx, start) {
        return;
    }
    if let Some(name) = membership(row, lx, start) {
        out.names.insert(name);
        return;
    }
    if row.destructures && destructured(lx, start, out) {
        return;
    }
    map_use(row, lx, i + 1, out);
}

/// What the map read at the tokens from `next` does: an index, a method, a member, or anything else (whole).
fn map_use(row: &Reads, lx: &Lexed, next: usize, out: &mut EnvReads) {
    if lx.is(next, b'[') {
        match literal_name(lx, next + 1) {
            Some(name) => {
                out.names.insert(name);
            }
            None => out.wholesale = true,
        }
        return;
    }
    if let Some(member) = separator_after(lx, next)
        && lx.kind(member) == Some(TokKind::Ident)
    {
        let word = lx.s(member);
        if row.writes.contains(&word) {
            return;
        }
        if row.methods.contains(&word) && lx.is(member + 1, b'(') {
            argument(lx, member + 1, out);
            return;
        }
        if row.members && !lx.is(member + 1, b'(') {
            out.names.insert(word.to_string());
            return;
        }
    }
    out.wholesale = true;
}

/// Whether the holder at tokens `start..=end` hands on its map `member` under another name: indexed by that name
/// or by anything computed, or destructured with that key or a rest element.
fn reaches_its_map(lx: &Lexed, start: usize, end: usize, member: &str) -> bool {
    if lx.is(end + 1, b'[') {
        return literal_name(lx, end + 2).is_none_or(|name| name == member);
    }
    let Some((open, close)) = pattern_before(lx, start) else {
        return false;
    };
    (open + 1..close).any(|k| {
        lx.is(k, b'.') || (lx.kind(k) == Some(TokKind::Ident) && lx.s(k) == member) || inner(lx.s(k)) == member
    })
}

/// Whether the tokens from `start` are on a line that imports (`from os import environ`, `use std::env`).
fn imports(lx: &Lexed, start: usize) -> bool {
    let line = lx.toks.get(start).map_or(0, |tok| tok.line);
    let first = lx.toks.iter().position(|tok| tok.line == line).unwrap_or(start);
    ["import", "from", "use", "require", "require_once", "include"]
        .iter()
        .any(|word| lx.is_word(first, word))
}

/// Whether the map at `start` is an argument of one of the row's writers (`patch.dict(os.environ, …)`).
fn written_by(row: &Reads, lx: &Lexed, start: usize) -> bool {
    let Some(open) = start.checked_sub(1).filter(|&open| lx.is(open, b'(')) else {
        return false;
    };
    open.checked_sub(1)
        .is_some_and(|callee| row.writers.iter().any(|path| path_at(lx, callee, path).is_some()))
}

/// The name tested by `"NAME" in map` (or `not in`) when the map at `start` is the right side of one.
fn membership(row: &Reads, lx: &Lexed, start: usize) -> Option<String> {
    let keyword = row.membership?;
    let before = start.checked_sub(1).filter(|&k| lx.is_word(k, keyword))?;
    let mut literal = before.checked_sub(1)?;
    if lx.is_word(literal, "not") {
        literal = literal.checked_sub(1)?;
    }
    (lx.kind(literal) == Some(TokKind::Str)).then(|| inner(lx.s(literal)).to_string())
}

/// The braces of the destructuring pattern whose value starts at `start` (`{ … } = value`), where there is one.
fn pattern_before(lx: &Lexed, start: usize) -> Option<(usize, usize)> {
    let close = start
        .checked_sub(2)
        .filter(|&c| lx.is(start - 1, b'=') && lx.is(c, b'}'))?;
    let open = lx.partner(close).filter(|&open| open < close)?;
    Some((open, close))
}

/// Whether the map at `start` is destructured (`const { A, B: b } = map`): its names read, a rest element whole.
fn destructured(lx: &Lexed, start: usize, out: &mut EnvReads) -> bool {
    let Some((open, close)) = pattern_before(lx, start) else {
        return false;
    };
    let mut k = open + 1;
    let mut expect_key = true;
    while k < close {
        if lx.is(k, b'.') {
            out.wholesale = true;
        } else if expect_key && lx.kind(k) == Some(TokKind::Ident) {
            out.names.insert(lx.s(k).to_string());
            expect_key = false;
        } else if expect_key && lx.kind(k) == Some(TokKind::Str) {
            out.names.insert(inner(lx.s(k)).to_string());
            expect_key = false;
        } else if lx.is(k, b',') {
            expect_key = true;
        }
        k = lx.skip(k);
    }
    true
}

/// Whether `name` is a shell variable's name (`CALC_QUICK`, `_x1`).
fn shell_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The name at the start of `text` (`CALC_QUICK:-0` → `CALC_QUICK`).
fn leading_name(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Words after which a shell word names a variable the file sets.
const SHELL_SETTERS: &[&str] = &["local", "declare", "typeset", "export", "readonly", "read", "for"];

/// The shell's reads (see [`Reads::shell`]): each `$NAME` / `${NAME…}` whose name the file did not set on an
/// earlier line; an indirect `${!NAME}` reads whole.
fn shell(lx: &Lexed, within: &[Range<usize>], out: &mut EnvReads) {
    let mut set: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    // `X=${X:-0}` reads `X` before it sets it: an assignment counts from the next line.
    let mut pending: Vec<(String, u32)> = Vec::new();
    let read = |name: &str, set: &std::collections::BTreeSet<String>, out: &mut EnvReads| {
        if shell_name(name) && !set.contains(name) {
            out.names.insert(name.to_string());
        }
    };
    for (i, tok) in lx.toks.iter().enumerate() {
        pending.retain(|(name, line)| {
            if *line < tok.line {
                set.insert(name.clone());
                false
            } else {
                true
            }
        });
        if !within.is_empty() && !within.iter().any(|range| range.contains(&tok.start)) {
            continue;
        }
        match tok.kind {
            TokKind::Ident => {
                let word = lx.s(i);
                if let Some((name, _)) = word.split_once('=')
                    && shell_name(name)
                {
                    pending.push((name.to_string(), tok.line));
                } else if shell_name(word)
                    && i >= 1
                    && (SHELL_SETTERS.iter().any(|s| lx.is_word(i - 1, s)) || lx.s(i - 1).starts_with('-'))
                    && lx.toks.get(i - 1).is_some_and(|t| t.line == tok.line)
                {
                    set.insert(word.to_string());
                }
            }
            TokKind::Punct if lx.is(i, b'$') => {
                let adjacent = |k: usize| lx.toks.get(k).is_some_and(|t| t.start == lx.toks[k - 1].end);
                if lx.is(i + 1, b'{') && adjacent(i + 1) {
                    let inside = lx.s(i + 2);
                    if inside.starts_with('!') {
                        out.wholesale = true;
                    } else {
                        read(leading_name(inside.trim_start_matches('#')), &set, out);
                    }
                } else if lx.kind(i + 1) == Some(TokKind::Ident) && adjacent(i + 1) {
                    read(leading_name(lx.s(i + 1)), &set, out);
                }
            }
            TokKind::Str if lx.s(i).starts_with('"') => {
                let text = lx.s(i);
                let bytes = text.as_bytes();
                for (at, _) in text.match_indices('$') {
                    if at > 0 && bytes[at - 1] == b'\\' {
                        continue;
                    }
                    let rest = &text[at + 1..];
                    if let Some(braced) = rest.strip_prefix('{') {
                        if braced.starts_with('!') {
                            out.wholesale = true;
                        } else {
                            read(leading_name(braced.trim_start_matches('#')), &set, out);
                        }
                    } else {
                        read(leading_name(rest), &set, out);
                    }
                }
            }
            _ => {}
        }
    }
}

pub(crate) mod constants;

#[cfg(test)]
mod tests;
