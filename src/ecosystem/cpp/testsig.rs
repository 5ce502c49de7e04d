//! C++ units: the top-level declarations of a GoogleTest or Catch2 test source.
//!
//! GoogleTest's `TEST(Suite, Name)`, `TEST_F`, `TEST_P`, `TYPED_TEST` and `TYPED_TEST_P` are tests named
//! `Suite.Name`, as GoogleTest and ctest print them (a `DISABLED_` prefix stays in the name, and is a skip
//! marker); Catch2's `TEST_CASE("name", "[tags]")`, `TEST_CASE_METHOD(Fixture, "name")` and `SCENARIO("name")`
//! are tests named by their string (`Scenario: name` for a scenario, as Catch2 names it), their `SECTION`s part
//! of their body. The macros that make a parameterized or typed suite's instances (`INSTANTIATE_TEST_SUITE_P`,
//! `TYPED_TEST_SUITE`, `REGISTER_TYPED_TEST_SUITE_P`), a `main`, and classes and structs (fixtures, whose
//! `SetUp` runs around the tests) are setup; `#include` is an import; a `namespace`'s units are read as the
//! file's own (GoogleTest's and Catch2's names do not hold the namespace, so neither do these, and wrapping
//! tests in `namespace {` moves nothing); other functions are helpers, and the rest (other preprocessor lines, variables,
//! `using`) is other code.

use std::ops::Range;

use super::braces::{first_line, leaf};
use super::lex::{Lexed, TokKind};
use super::{Node, UnitKind};

/// GoogleTest's test macros: the test is `Suite.Name` from their first two arguments.
pub(crate) const GTEST: [&str; 5] = ["TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"];
/// Catch2's test macros, the string argument naming the test, and the prefix Catch2 gives the name.
pub(crate) const CATCH2: [(&str, &str); 4] = [
    ("TEST_CASE", ""),
    ("TEST_CASE_METHOD", ""),
    ("SCENARIO", "Scenario: "),
    ("TEMPLATE_TEST_CASE", ""),
];
/// Macros that decide which instances of a suite run.
const INSTANCES: [&str; 5] = [
    "INSTANTIATE_TEST_SUITE_P",
    "INSTANTIATE_TEST_CASE_P",
    "TYPED_TEST_SUITE",
    "TYPED_TEST_CASE",
    "REGISTER_TYPED_TEST_SUITE_P",
];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    units_in(lx, 0, lx.toks.len())
}

fn units_in(lx: &Lexed, from: usize, to: usize) -> Vec<Node> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        let end = unit_end(lx, i, to).max(i + 1).min(to);
        match namespace_body(lx, i, end) {
            Some((open, close)) => out.extend(units_in(lx, open + 1, close)),
            None => out.push(unit(lx, i..end)),
        }
        i = end;
    }
    out
}

/// The index past the unit starting at `s`: a preprocessor line (with its continuations), or a declaration
/// up to its `;` or the `}` closing its body (and a `;` right after it).
fn unit_end(lx: &Lexed, s: usize, to: usize) -> usize {
    if lx.is(s, b'#') {
        let mut j = s + 1;
        while j < to && (lx.toks[j].line == lx.toks[s].line || continued(lx, j)) {
            j += 1;
        }
        return j;
    }
    let mut j = s;
    while j < to {
        if lx.is(j, b';') {
            return j + 1;
        }
        if lx.is(j, b'{') {
            let after = lx.skip(j).min(to);
            return if lx.is(after, b';') { after + 1 } else { after };
        }
        if lx.is(j, b'#') && j > s && lx.toks[j].line > lx.toks[j - 1].end_line {
            return j;
        }
        j = lx.skip(j).max(j + 1);
    }
    to
}

/// Whether token `j` is on a line that the line before continues (it ends with `\`).
fn continued(lx: &Lexed, j: usize) -> bool {
    j > 0 && lx.is(j - 1, b'\\') && lx.toks[j].line == lx.toks[j - 1].end_line + 1
}

fn unit(lx: &Lexed, range: Range<usize>) -> Node {
    let s = range.start;
    let word = lx.s(s);
    if lx.is(s, b'#') {
        let kind = if lx.is_word(s + 1, "include") || lx.is_word(s + 1, "import") {
            UnitKind::Import
        } else {
            UnitKind::Other
        };
        return leaf(lx, kind, first_line(lx, s), s, range);
    }
    if let Some(name) = test_name(lx, s) {
        return leaf(lx, UnitKind::Test, name, s, range);
    }
    if INSTANCES.contains(&word) {
        let args = lx
            .partner(s + 1)
            .map(|close| arguments(lx, s + 2, close))
            .unwrap_or_default();
        let name = format!(
            "{word}({})",
            args.iter().take(2).cloned().collect::<Vec<_>>().join(", ")
        );
        return leaf(lx, UnitKind::Setup, name, s, range);
    }
    if ["class", "struct"].contains(&word) || (word == "template" && mentions(lx, &range, &["class", "struct"])) {
        let name = (s + 1..range.end)
            .find(|&j| lx.kind(j) == Some(TokKind::Ident) && !["class", "struct", "final"].contains(&lx.s(j)))
            .map_or_else(|| first_line(lx, s), |j| lx.s(j).to_string());
        return leaf(lx, UnitKind::Setup, name, s, range);
    }
    if let Some(paren) = (s..range.end).find(|&j| lx.is(j, b'(')).filter(|&p| p > s)
        && lx.is(lx.skip(paren).saturating_sub(1), b')')
        && lx.is(range.end - 1, b'}')
        && lx.kind(paren - 1) == Some(TokKind::Ident)
    {
        let name = lx.s(paren - 1).to_string();
        let kind = if name == "main" {
            UnitKind::Setup
        } else {
            UnitKind::Helper
        };
        return leaf(lx, kind, name, s, range);
    }
    leaf(lx, UnitKind::Other, first_line(lx, s), s, range)
}

/// The braces of a `namespace NAME { … }` spanning tokens `s..end`.
fn namespace_body(lx: &Lexed, s: usize, end: usize) -> Option<(usize, usize)> {
    if !lx.is_word(s, "namespace") {
        return None;
    }
    let open = (s + 1..end).find(|&j| lx.is(j, b'{'))?;
    let close = lx.partner(open).filter(|&close| close < end)?;
    Some((open, close))
}

fn mentions(lx: &Lexed, range: &Range<usize>, words: &[&str]) -> bool {
    range.clone().any(|j| words.contains(&lx.s(j)))
}

/// The test a macro at `s` defines, named as its framework names it.
fn test_name(lx: &Lexed, s: usize) -> Option<String> {
    let word = lx.s(s);
    if !lx.is(s + 1, b'(') {
        return None;
    }
    let close = lx.partner(s + 1)?;
    let args = arguments(lx, s + 2, close);
    if GTEST.contains(&word) {
        let [suite, name] = [args.first()?, args.get(1)?];
        return Some(format!("{suite}.{name}"));
    }
    let (_, prefix) = CATCH2.iter().find(|(macro_name, _)| *macro_name == word)?;
    let string = (s + 2..close).find(|&j| lx.kind(j) == Some(TokKind::Str))?;
    Some(format!("{prefix}{}", unquote(lx.s(string))))
}

/// The arguments between `from` and `to` (a `(`'s partner), each as its tokens' text joined.
fn arguments(lx: &Lexed, from: usize, to: usize) -> Vec<String> {
    let mut args = vec![String::new()];
    let mut j = from;
    while j < to {
        if lx.is(j, b',') {
            args.push(String::new());
            j += 1;
            continue;
        }
        let next = lx.skip(j).max(j + 1).min(to);
        if let Some(arg) = args.last_mut() {
            for k in j..next {
                arg.push_str(lx.s(k));
            }
        }
        j = next;
    }
    args
}

/// A string literal's content (`"adds two numbers"`), escapes left as written.
fn unquote(s: &str) -> String {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
        .to_string()
}
