//! Shell (bats test files): `#` comments where a word starts, single-quoted strings (no escapes), double-quoted
//! ones (backslash escapes; `$(…)` inside is kept as part of the string), the backslash that continues a line,
//! and words: a run of bytes up to a blank or one of the shell's operators, so `@test`, `../lib/calc.sh` and
//! `--flag=x` are one token each.

use super::{Cursor, TokKind};

/// Bytes that end a word (besides blanks): the shell's operators and quotes.
fn ends_word(c: u8) -> bool {
    c.is_ascii_whitespace()
        || matches!(
            c,
            b'"' | b'\'' | b'(' | b')' | b'{' | b'}' | b';' | b'|' | b'&' | b'<' | b'>' | b'`' | b'$'
        )
}

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
            b'\'' => {
                let end = cur.b[cur.i + 1..]
                    .iter()
                    .position(|&b| b == b'\'')
                    .map_or(cur.b.len(), |at| cur.i + 1 + at + 1);
                cur.token(TokKind::Str, end);
            }
            b'"' => match cur.quoted_end(cur.i, b'"', true) {
                Some(end) => cur.token(TokKind::Str, end),
                None => cur.token(TokKind::Punct, cur.i + 1),
            },
            _ if ends_word(c) => cur.token(TokKind::Punct, cur.i + 1),
            _ => {
                let mut end = cur.i + 1;
                while cur.b.get(end).is_some_and(|&b| !ends_word(b)) {
                    end += 1;
                }
                cur.token(TokKind::Ident, end);
            }
        }
    }
}

// The reading of shell functions by lines, shared by the test files' reading (`testsig::language`) and the sourced
// files' (`closure::shell`).

/// Shell builtins and keywords (POSIX, bash): a function of one of these names overrides what a script runs; a
/// line running one of them is no step of the run (`closure::script::steps`).
pub(crate) const BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "case",
    "cd",
    "command",
    "compgen",
    "complete",
    "continue",
    "declare",
    "dirs",
    "disown",
    "do",
    "done",
    "echo",
    "elif",
    "else",
    "enable",
    "esac",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "fi",
    "for",
    "function",
    "getopts",
    "hash",
    "help",
    "history",
    "if",
    "in",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "select",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "then",
    "time",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "until",
    "wait",
    "while",
];

/// The name a line defines a function of: `name() {`, `name () {`, `function name {`, `function name() {`.
pub(crate) fn function_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("function ").map(str::trim_start);
    let text = rest.unwrap_or(line);
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'))
        .unwrap_or(text.len());
    let (name, after) = text.split_at(end);
    let after = after.trim_start();
    let parens = after.strip_prefix("()").map(str::trim_start);
    let body = match (rest.is_some(), parens) {
        (_, Some(body)) => body,
        (true, None) => after,
        (false, None) => return None,
    };
    (!name.is_empty() && body.starts_with('{')).then_some(name)
}

/// The names of the functions `text` defines, where it holds nothing else (blank and comment lines aside) and
/// each function reads plainly: `name() {` … `}` on lines of their own, or `name() { …; }` on one, with no other
/// brace in a body but a `${…}` expansion. A shell opens and closes a brace group only in a command's place
/// (`echo }` closes nothing), so any other brace could end a function where this reading does not, leaving
/// top-level code after it; such text is `None`, judged as code.
pub(crate) fn only_functions(text: &str) -> Option<Vec<String>> {
    let plain = |body: &str| !without_expansions(body).contains(['{', '}']);
    let mut names = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let name = function_name(trimmed)?;
        let body = trimmed.get(trimmed.find('{')? + 1..)?;
        if body.trim().is_empty() {
            loop {
                let next = lines.next()?.trim();
                if next == "}" {
                    break;
                }
                if !plain(next) {
                    return None;
                }
            }
        } else {
            let inner = body.trim_end().strip_suffix('}')?;
            if !plain(inner) || !inner.trim_end().ends_with(';') {
                return None;
            }
        }
        names.push(name.to_string());
    }
    Some(names)
}

/// `text` with each `${…}` expansion (without braces inside) taken out.
fn without_expansions(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        match rest[at + 2..].find(['{', '}']) {
            Some(end) if rest.as_bytes()[at + 2 + end] == b'}' => rest = &rest[at + 2 + end + 1..],
            _ => {
                out.push_str(&rest[at..]);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `name` is something a script runs by that name: a builtin or keyword, or a program on `PATH`.
pub(crate) fn is_command(name: &str) -> bool {
    BUILTINS.contains(&name)
        || std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
}
