//! Ruby units: the statements of a minitest or RSpec file, blocks followed to their `end` (or `}`).
//!
//! - minitest: a `class` (or `module`) is a container; `def test_…` in it is a test, named as minitest names
//!   the method; `test "adds two" do … end` (ActiveSupport's, which defines `test_adds_two`) is a test named by
//!   its string; `setup`/`teardown` (`def`, or a block) and `before_setup`/`after_teardown` … are setup.
//! - RSpec: `describe`/`context`/`feature` (also `RSpec.describe`, `xdescribe`, `fcontext`, `shared_examples`) are
//!   containers named by their first argument; `it`/`specify`/`example`/`scenario`/`its` (and their `x`/`f`
//!   forms) are tests named by their description; `before`/`after`/`around`/`let`/`let!`/`subject` are setup.
//! - `RSpec.configure do |config| … end` is a group whose statements are read setting by setting
//!   (`configure.rs`): a setting that cannot change a verdict is a definition, anything else other code.
//! - `require`, `require_relative`, `load` are imports; another `def` is a helper; anything else (`include
//!   Helpers`, a constant, a monkeypatch, `it_behaves_like`) is other code, one statement with its blocks.
//!
//! Blocks are matched by keyword: `def` (not an endless `def x = …`), `class`, `module`, `do`, `begin`, `case`,
//! `for`, and `if`/`unless`/`while`/`until` where they start a statement (not as a modifier: `x if y`) each close
//! at an `end`; a `while … do` opens once. Brackets are paired by the lexer.

#[path = "configure.rs"]
mod configure;

use std::ops::Range;

use super::braces::{container, first_line, leaf};
use super::lex::{Lexed, TokKind};
use super::{MAX_DEPTH, Node, UnitKind};

const CONTAINERS: [&str; 14] = [
    "describe",
    "context",
    "feature",
    "xdescribe",
    "xcontext",
    "xfeature",
    "fdescribe",
    "fcontext",
    "ffeature",
    "shared_examples",
    "shared_examples_for",
    "shared_context",
    "experiment",
    "example_group",
];
const TESTS: [&str; 17] = [
    "it",
    "specify",
    "example",
    "scenario",
    "its",
    "xit",
    "xspecify",
    "xexample",
    "xscenario",
    "fit",
    "fspecify",
    "fexample",
    "fscenario",
    "focus",
    "pending",
    "skip",
    "test",
];
const SETUP: [&str; 16] = [
    "before",
    "after",
    "around",
    "let",
    "let!",
    "subject",
    "subject!",
    "setup",
    "teardown",
    "before_setup",
    "after_setup",
    "before_teardown",
    "after_teardown",
    "before_all",
    "after_all",
    "prepend_before",
];
const IMPORTS: [&str; 3] = ["require", "require_relative", "load"];
/// Keywords that open a block closed by `end` wherever they stand.
const OPENERS: [&str; 7] = ["def", "class", "module", "do", "begin", "case", "for"];
/// Keywords that open a block only where they start a statement (`x if y` is a modifier).
const STATEMENT_OPENERS: [&str; 4] = ["if", "unless", "while", "until"];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    units_in(lx, 0..lx.toks.len(), 0)
}

fn units_in(lx: &Lexed, range: Range<usize>, depth: usize) -> Vec<Node> {
    let mut out = Vec::new();
    let mut i = range.start;
    while i < range.end {
        let end = statement_end(lx, i, range.end).max(i + 1);
        out.push(unit(lx, i..end, depth));
        i = end;
    }
    out
}

/// The unit that is the statement over `range`.
fn unit(lx: &Lexed, range: Range<usize>, depth: usize) -> Node {
    let s = range.start;
    let word = head_word(lx, s);
    let body = block_body(lx, range.clone());
    if depth < MAX_DEPTH
        && let Some(body) = body.clone()
    {
        if let Some(group) = configure::configure(lx, range.clone(), body.clone()) {
            return group;
        }
        let named = match word.as_str() {
            "class" | "module" => Some(constant_after(lx, s + 1)),
            w if CONTAINERS.contains(&w) => Some(description(lx, callee(lx, s) + 1, body.start)),
            _ => None,
        };
        if let Some(name) = named {
            let children = units_in(lx, body.clone(), depth + 1);
            return container(lx, name, s, range, body, children);
        }
    }
    let (kind, name) = match word.as_str() {
        "def" => {
            let name = def_name(lx, s + 1);
            let kind = if name.starts_with("test_") {
                UnitKind::Test
            } else if SETUP.contains(&name.as_str()) {
                UnitKind::Setup
            } else {
                UnitKind::Helper
            };
            (kind, name)
        }
        // With a block, or a description alone (RSpec's `it "is pending"`); not `skip "why"` inside a test, nor a
        // variable (`test = 1`).
        w if TESTS.contains(&w)
            && (body.is_some()
                || (w != "skip" && w != "pending" && lx.kind(callee(lx, s) + 1) == Some(TokKind::Str))) =>
        {
            let at = callee(lx, s) + 1;
            let name = description(lx, at, body.as_ref().map_or(range.end, |b| b.start));
            let name = if name.is_empty() { first_line(lx, s) } else { name };
            (UnitKind::Test, name)
        }
        w if SETUP.contains(&w) => (UnitKind::Setup, first_line(lx, s)),
        w if IMPORTS.contains(&w) => (UnitKind::Import, first_line(lx, s)),
        _ => (UnitKind::Other, first_line(lx, s)),
    };
    leaf(lx, kind, name, s, range)
}

/// The word a statement starts with, `RSpec.describe` read as `describe`.
fn head_word(lx: &Lexed, s: usize) -> String {
    lx.s(callee(lx, s)).to_string()
}

/// The token naming what a statement calls: `describe` in `RSpec.describe`, else the first token.
fn callee(lx: &Lexed, s: usize) -> usize {
    if lx.is_word(s, "RSpec") && lx.is(s + 1, b'.') && lx.kind(s + 2) == Some(TokKind::Ident) {
        s + 2
    } else {
        s
    }
}

/// A class's or module's name: the constant path after the keyword (`Calc::AddTest`; `class << self`: `<<`).
fn constant_after(lx: &Lexed, at: usize) -> String {
    let mut name = String::new();
    let mut j = at;
    while j < lx.toks.len() && (lx.kind(j) == Some(TokKind::Ident) || lx.is(j, b':')) {
        if lx.kind(j) == Some(TokKind::Ident) && name.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            break;
        }
        name.push_str(lx.s(j));
        j += 1;
    }
    if name.is_empty() { lx.s(at).to_string() } else { name }
}

/// A method's name after `def`: `test_adds`, `self.helper`, `==`.
fn def_name(lx: &Lexed, at: usize) -> String {
    if lx.is_word(at, "self") && lx.is(at + 1, b'.') {
        return format!("self.{}", lx.s(at + 2));
    }
    lx.s(at).to_string()
}

/// How RSpec or minitest names a block from its arguments `at..end`: a string's content, else the argument's
/// text (`describe Calc do` is `Calc`); empty without arguments (`it { is_expected.to be_valid }`).
fn description(lx: &Lexed, at: usize, end: usize) -> String {
    let at = if lx.is(at, b'(') { at + 1 } else { at };
    match lx.kind(at) {
        _ if at >= end => String::new(),
        Some(TokKind::Str) => unquote(lx.s(at)),
        Some(TokKind::Ident) => {
            let mut name = String::new();
            let mut j = at;
            while j < end
                && !lx.is_word(j, "do")
                && (lx.kind(j) == Some(TokKind::Ident) || lx.is(j, b':') || lx.is(j, b'.'))
            {
                name.push_str(lx.s(j));
                j += 1;
            }
            name
        }
        _ => String::new(),
    }
}

/// A string literal's content: quotes, `%q(…)` and a symbol's colon removed.
fn unquote(s: &str) -> String {
    for (open, close) in [("\"", "\""), ("'", "'"), (":\"", "\""), (":", "")] {
        if let Some(inner) = s.strip_prefix(open).and_then(|s| s.strip_suffix(close)) {
            return inner.to_string();
        }
    }
    if s.starts_with('%') && s.len() >= 4 {
        let body = s
            .trim_start_matches('%')
            .trim_start_matches(|c: char| c.is_ascii_alphabetic());
        return body.get(1..body.len().saturating_sub(1)).unwrap_or(body).to_string();
    }
    s.to_string()
}

/// The tokens inside the statement's first block, between its `do` (or `{`, or the head of a `class`,
/// `module`, `def`) and the `end` (or `}`) closing it; `None` when it has none.
fn block_body(lx: &Lexed, range: Range<usize>) -> Option<Range<usize>> {
    let s = range.start;
    let last = range.end.checked_sub(1)?;
    let head = callee(lx, s);
    if ["class", "module", "def"].iter().any(|w| lx.is_word(head, w)) && lx.is_word(last, "end") {
        let line = lx.toks[head].end_line;
        let start = (head + 1..last)
            .find(|&j| lx.toks[j].line > line || lx.is(j, b';'))
            .map_or(last, |j| if lx.is(j, b';') { j + 1 } else { j });
        return Some(start..last);
    }
    let mut j = head + 1;
    while j < last {
        if lx.is_word(j, "do") && lx.is_word(last, "end") {
            return Some(j + 1..last);
        }
        if lx.is(j, b'{') && lx.partner(j) == Some(last) && braces_are_block(lx, j) {
            return Some(j + 1..last);
        }
        j = lx.skip(j);
    }
    None
}

/// Whether the `{` at `j` opens a block (after a call's arguments) rather than a hash argument.
fn braces_are_block(lx: &Lexed, j: usize) -> bool {
    j > 0 && (lx.kind(j - 1) == Some(TokKind::Str) || lx.is(j - 1, b')') || lx.kind(j - 1) == Some(TokKind::Ident))
}

/// The index past the statement starting at `s` (not past `limit`): to its line's end, with every block it
/// opens followed to its `end`, brackets whole, and continued lines (a trailing operator or `\`, a next line
/// starting with `.`) too.
pub(crate) fn statement_end(lx: &Lexed, s: usize, limit: usize) -> usize {
    let mut open = 0usize;
    let mut j = s;
    while j < limit {
        let at_start = j == s || starts_statement(lx, j);
        if opens(lx, j, at_start) {
            open += 1;
        } else if lx.is_word(j, "end") && !after_dot(lx, j) && !is_label(lx, j) {
            open = open.saturating_sub(1);
        }
        let next = lx.skip(j).min(limit);
        if open == 0
            && next < limit
            && lx.toks[next].line > lx.toks[next - 1].end_line
            && !continues(lx, next - 1, next)
        {
            return next;
        }
        if open == 0 && lx.is(next - 1, b';') {
            return next;
        }
        j = next;
    }
    limit
}

/// Whether token `j` opens a block closed by `end`.
fn opens(lx: &Lexed, j: usize, at_start: bool) -> bool {
    if lx.kind(j) != Some(TokKind::Ident) || after_dot(lx, j) || is_label(lx, j) {
        return false;
    }
    let word = lx.s(j);
    if word == "def" {
        return !endless_def(lx, j);
    }
    if word == "do" {
        // `while x do` / `until x do` / `for x in y do`: the loop's own `do`.
        let line = lx.toks[j].line;
        return !(0..j).rev().take_while(|&k| lx.toks[k].line == line).any(|k| {
            ["while", "until", "for"].iter().any(|w| lx.is_word(k, w)) && opens(lx, k, starts_statement(lx, k))
        });
    }
    OPENERS.contains(&word) || (STATEMENT_OPENERS.contains(&word) && at_start)
}

/// Whether the word at `j` is a hash key or keyword argument (`if:`, `end:`), not a keyword.
fn is_label(lx: &Lexed, j: usize) -> bool {
    lx.is(j + 1, b':') && !lx.is(j + 2, b':') && lx.toks.get(j + 1).is_some_and(|t| t.start == lx.toks[j].end)
}

/// Whether token `j` follows `.` or `&.` (a method named like a keyword: `range.end`, `x.class`).
fn after_dot(lx: &Lexed, j: usize) -> bool {
    j > 0 && lx.is(j - 1, b'.') && !(j > 1 && lx.is(j - 2, b'.'))
}

/// Whether token `j` starts a statement or an operand: first on its line, or after `;`, `=`, `(`, `,`, `[`,
/// `{`, `|`, `&`, `!`, `?`, `:` or a keyword that takes one.
fn starts_statement(lx: &Lexed, j: usize) -> bool {
    let Some(prev) = j.checked_sub(1) else {
        return true;
    };
    (lx.toks[prev].end_line < lx.toks[j].line && !continues(lx, prev, j))
        || [
            b';', b'=', b'(', b',', b'[', b'{', b'|', b'&', b'!', b'?', b':', b'<', b'>', b'+', b'-', b'*',
        ]
        .iter()
        .any(|c| lx.is(prev, *c))
        || ["then", "do", "else", "and", "or", "begin"]
            .iter()
            .any(|w| lx.is_word(prev, w))
}

/// Whether the line ending at token `last` goes on at `next`: a trailing operator, comma or `\`, or a next
/// line that starts with `.` or `&.` (a method chain).
fn continues(lx: &Lexed, last: usize, next: usize) -> bool {
    lx.kind(last) == Some(TokKind::Cont)
        || [
            b',', b'.', b'\\', b'+', b'-', b'*', b'/', b'=', b'(', b'[', b'{', b'|', b'&', b'<', b'>', b'?', b':',
        ]
        .iter()
        .any(|c| lx.is(last, *c))
        || ["and", "or", "not"].iter().any(|w| lx.is_word(last, w))
        || lx.is(next, b'.')
        || (lx.is(next, b'&') && lx.is(next + 1, b'.'))
}

/// Whether the `def` at `j` is endless (`def x = 1`, `def f(a) = a + 1`): no `end` closes it.
fn endless_def(lx: &Lexed, j: usize) -> bool {
    let mut k = j + 1;
    if lx.is_word(k, "self") && lx.is(k + 1, b'.') {
        k += 2;
    }
    k += 1;
    if lx.is(k, b'(') {
        k = lx.skip(k);
    }
    lx.is(k, b'=') && !lx.is(k + 1, b'=') && lx.toks.get(k).is_some_and(|t| t.line == lx.toks[j].line)
}
