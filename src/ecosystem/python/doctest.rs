//! Python's doctests, run by `pytest --doctest-modules` (`testsig::doctest`, which reads Rust's): each example of
//! a docstring of a source module read inline (a `>>>` line, its `...` lines and its expected output) is a unit
//! named after the docstring's function or class (`doctest add`, `doctest (module)`), hashed over those lines,
//! trimmed: prose is not part of it, and a new example in an existing docstring is an addition.

use super::{example, gather};
use crate::testsig::Node;
use crate::testsig::lex::{Lexed, TokKind};
use crate::testsig::norm;

/// The `(doctests)` container of a Python module read inline: its docstrings that hold examples.
pub(crate) fn container(lx: &Lexed) -> Option<Node> {
    let end = lx.text.len();
    let mut tests = Vec::new();
    for (i, tok) in lx.toks.iter().enumerate() {
        let text = &lx.text[tok.start..tok.end];
        let body = text.trim_start_matches(['r', 'R', 'u', 'U']);
        if tok.kind != TokKind::Str || !(body.starts_with("\"\"\"") || body.starts_with("'''")) {
            continue;
        }
        if !body.contains(">>>") {
            continue;
        }
        let Some(owner) = owner(lx, i) else { continue };
        for (offset, lines) in examples(body) {
            let line = tok.line + u32::try_from(offset).unwrap_or(0);
            let hash = norm::digest(lines.join("\n").as_bytes());
            tests.push(example(&owner, lines[0], line, hash, end));
        }
    }
    gather(tests, end)
}

/// The examples of a docstring: each `>>>` line with the `...` and expected-output lines after it (up to a blank
/// line or the next `>>>`), trimmed, with the line offset where it starts.
fn examples(body: &str) -> Vec<(usize, Vec<&str>)> {
    let mut out: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut open = false;
    for (offset, line) in body.lines().enumerate() {
        let line = line.trim().trim_end_matches("\"\"\"").trim_end_matches("'''").trim();
        if line.starts_with(">>>") {
            out.push((offset, vec![line]));
            open = true;
        } else if line.is_empty() {
            open = false;
        } else if open && let Some((_, lines)) = out.last_mut() {
            lines.push(line);
        }
    }
    out
}

/// The function or class whose docstring token `i` is (`(module)` for the file's first token); none when the
/// string is not a docstring (not the first statement after a `def` or `class` header's `:`).
fn owner(lx: &Lexed, i: usize) -> Option<String> {
    let Some(previous) = i.checked_sub(1) else {
        return Some("(module)".to_string());
    };
    if !lx.is(previous, b':') {
        return None;
    }
    let header = lx.toks[..i].iter().rposition(|t| {
        let word = &lx.text[t.start..t.end];
        t.kind == TokKind::Ident && (word == "def" || word == "class")
    })?;
    let name = lx.toks.get(header + 1)?;
    Some(lx.text[name.start..name.end].to_string())
}
