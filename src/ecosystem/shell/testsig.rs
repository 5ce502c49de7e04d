//! Shell units: the top-level commands of a `.bats` file.
//!
//! `@test "name" { … }` is a test, named as bats names it (the string's content); `setup`, `teardown`,
//! `setup_file`, `teardown_file` (and `_suite`) functions are setup; `load` / `source` / `.` / `bats_load_library`
//! are imports (what they load is the code under test or the test side's helpers, see `testseal::helpers`);
//! other functions (`name() { … }`, `function name { … }`) are helpers; anything else is other code, one command
//! to its line's end.

use std::ops::Range;

use super::braces::{first_line, leaf};
use super::lex::{Lexed, TokKind};
use super::{Node, UnitKind};

/// bats' hooks, which it calls by name.
pub(crate) const SETUP: [&str; 6] = [
    "setup",
    "teardown",
    "setup_file",
    "teardown_file",
    "setup_suite",
    "teardown_suite",
];
const LOADS: [&str; 4] = ["load", "source", ".", "bats_load_library"];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lx.toks.len() {
        let (kind, name, end) = unit_at(lx, i);
        let end = end.max(i + 1);
        out.push(leaf(lx, kind, name, i, Range { start: i, end }));
        i = end;
    }
    out
}

/// The unit starting at token `s`: its kind, its name and the index past it.
fn unit_at(lx: &Lexed, s: usize) -> (UnitKind, String, usize) {
    let word = lx.s(s);
    if word == "@test" {
        let Some(open) = (s + 1..lx.toks.len()).find(|&j| lx.is(j, b'{')) else {
            return (UnitKind::Other, first_line(lx, s), line_end(lx, s));
        };
        let name = (s + 1..open).map(|j| unquote(lx.s(j))).collect::<Vec<_>>().join(" ");
        return (UnitKind::Test, name, lx.skip(open));
    }
    let function = if word == "function" && lx.kind(s + 1) == Some(TokKind::Ident) {
        Some(s + 1)
    } else if lx.kind(s) == Some(TokKind::Ident) && lx.is(s + 1, b'(') && lx.is(s + 2, b')') {
        Some(s)
    } else {
        None
    };
    if let Some(at) = function {
        let name = lx.s(at).to_string();
        if let Some(open) = (at + 1..(at + 5).min(lx.toks.len())).find(|&j| lx.is(j, b'{')) {
            let kind = if SETUP.contains(&name.as_str()) {
                UnitKind::Setup
            } else {
                UnitKind::Helper
            };
            return (kind, name, lx.skip(open));
        }
    }
    let kind = if LOADS.contains(&word) {
        UnitKind::Import
    } else {
        UnitKind::Other
    };
    (kind, first_line(lx, s), line_end(lx, s))
}

/// The index past the command starting at `s`: to its line's end, groups followed whole, continued lines too.
fn line_end(lx: &Lexed, s: usize) -> usize {
    let mut j = s;
    while j < lx.toks.len() {
        let next = lx.skip(j);
        let last = next - 1;
        match lx.toks.get(next) {
            Some(tok) if tok.line > lx.toks[last].end_line && lx.kind(last) != Some(TokKind::Cont) => return next,
            None => return next,
            _ => j = next,
        }
    }
    j
}

/// A word or string as the shell reads it: quotes removed.
fn unquote(s: &str) -> String {
    let s = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s);
    let s = s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')).unwrap_or(s);
    s.to_string()
}
