//! PHP units: the top-level statements of a PHPUnit test file and the members of its classes.
//!
//! At the top: `namespace`, `use`, `require`/`include` and `declare` are imports (they declare no code); a
//! class, trait or interface is a container of its members; a function is a helper; anything else is other
//! code. In a class, as PHPUnit collects them: a method whose name starts with `test`, or that is marked
//! `#[Test]` or `@test`, is a test named as the class declares it (`CalcTest.testAdds`); `setUp`, `tearDown`,
//! `setUpBeforeClass`, `tearDownAfterClass`, `assertPreConditions`, `assertPostConditions`,
//! `onNotSuccessfulTest`, the constructor, a method marked `#[Before]`, `#[After]`, `#[BeforeClass]`,
//! `#[AfterClass]`, `#[PreCondition]`, `#[PostCondition]` (or their `@before`… annotations), and a `use` of a
//! trait are setup; other methods (data providers among them), properties and constants are helpers. A member's
//! attributes and docblock belong to it, so `#[Group('slow')]` or `@dataProvider other` added to a test
//! changes that test. A data provider's `return [...]` is a table of test cases (`testsig::table`): a provider
//! that only gained rows only gained tests.

use std::ops::Range;

use super::braces::{closes_block, container, first_line, leaf, statements};
use super::lex::{Lexed, TokKind};
use super::{Node, UnitKind};

const IMPORTS: [&str; 7] = [
    "namespace",
    "use",
    "require",
    "require_once",
    "include",
    "include_once",
    "declare",
];
const CLASSES: [&str; 4] = ["class", "trait", "interface", "enum"];
const SETUP: [&str; 8] = [
    "setUp",
    "tearDown",
    "setUpBeforeClass",
    "tearDownAfterClass",
    "assertPreConditions",
    "assertPostConditions",
    "onNotSuccessfulTest",
    "__construct",
];
/// Attributes and annotations that make a method a hook run around the tests.
const HOOK_MARKS: [&str; 6] = [
    "Before",
    "After",
    "BeforeClass",
    "AfterClass",
    "PreCondition",
    "PostCondition",
];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    level(lx, 0, lx.toks.len())
        .into_iter()
        .map(|range| top(lx, past_open_tag(lx, range)))
        .collect()
}

/// `range` without the `<?php` tag it may start with: the tag opens the file, not the statement after it, so a
/// statement put before that one (`declare(strict_types=1);` under the tag) leaves it as it was.
fn past_open_tag(lx: &Lexed, range: Range<usize>) -> Range<usize> {
    let at = range.start;
    if !(lx.is(at, b'<') && lx.is(at + 1, b'?')) {
        return range;
    }
    let past = at + if lx.is_word(at + 2, "php") { 3 } else { 2 };
    past.min(range.end)..range.end
}

/// The statements of tokens `from..to`: each ends at a `;` or at the `}` that closes a body opened in it.
fn level(lx: &Lexed, from: usize, to: usize) -> Vec<Range<usize>> {
    statements(lx, from, to, |start, last, _| closes_block(lx, start, last))
}

/// The first token of a statement past its docblocks, attributes and the `<?php` tag.
fn head(lx: &Lexed, range: &Range<usize>) -> usize {
    let mut i = range.start;
    while i < range.end {
        if lx.kind(i) == Some(TokKind::Str) && lx.s(i).starts_with("/**") {
            i += 1;
        } else if lx.is(i, b'#') && lx.is(i + 1, b'[') {
            i = lx.skip(i + 1);
        } else if lx.is(i, b'<') && lx.is(i + 1, b'?') {
            i += if lx.is_word(i + 2, "php") { 3 } else { 2 };
        } else {
            return i;
        }
    }
    range.start
}

fn top(lx: &Lexed, range: Range<usize>) -> Node {
    let h = head(lx, &range);
    let word = lx.s(h);
    if IMPORTS.contains(&word) {
        return leaf(lx, UnitKind::Import, first_line(lx, h), h, range);
    }
    let mut k = h;
    while matches!(lx.s(k), "abstract" | "final" | "readonly") {
        k += 1;
    }
    if CLASSES.contains(&lx.s(k)) && lx.kind(k + 1) == Some(TokKind::Ident) {
        let name = lx.s(k + 1).to_string();
        if let Some(open) = (k + 2..range.end).find(|&j| lx.is(j, b'{'))
            && let Some(close) = lx.partner(open).filter(|&c| c > open && c < range.end)
        {
            let children = level(lx, open + 1, close)
                .into_iter()
                .map(|member| member_of(lx, member))
                .collect();
            return container(lx, name, h, range, open + 1..close, children);
        }
    }
    if word == "function" {
        let name = name_after(lx, h).unwrap_or_else(|| first_line(lx, h));
        return leaf(lx, UnitKind::Helper, name, h, range);
    }
    leaf(lx, UnitKind::Other, first_line(lx, h), h, range)
}

/// The function's name after `function` at `at` (past a `&` returning by reference).
fn name_after(lx: &Lexed, at: usize) -> Option<String> {
    let at = if lx.is(at + 1, b'&') { at + 2 } else { at + 1 };
    (lx.kind(at) == Some(TokKind::Ident)).then(|| lx.s(at).to_string())
}

/// A class member: a test, a hook, or a helper (see the module's header).
fn member_of(lx: &Lexed, range: Range<usize>) -> Node {
    let h = head(lx, &range);
    if lx.is_word(h, "use") {
        return leaf(lx, UnitKind::Setup, first_line(lx, h), h, range);
    }
    let function = (h..range.end)
        .take_while(|&i| !lx.is(i, b'(') && !lx.is(i, b'=') && !lx.is(i, b'{'))
        .find(|&i| lx.is_word(i, "function"));
    let Some(function) = function else {
        let name = (h..range.end)
            .find(|&i| lx.kind(i) == Some(TokKind::Ident) && lx.s(i).starts_with('$'))
            .map_or_else(|| first_line(lx, h), |i| lx.s(i).to_string());
        return leaf(lx, UnitKind::Helper, name, h, range);
    };
    let name = name_after(lx, function).unwrap_or_else(|| first_line(lx, h));
    let marks = marks(lx, range.start, h);
    let kind = if name.starts_with("test") || marks.iter().any(|m| m == "Test" || m == "test") {
        UnitKind::Test
    } else if SETUP.contains(&name.as_str())
        || marks
            .iter()
            .any(|m| HOOK_MARKS.iter().any(|hook| m.eq_ignore_ascii_case(hook)))
    {
        UnitKind::Setup
    } else {
        UnitKind::Helper
    };
    let range = if kind == UnitKind::Helper {
        past_docblocks(lx, range)
    } else {
        range
    };
    leaf(lx, kind, name, h, range)
}

/// A helper's tokens without the docblocks before it: PHPUnit reads annotations on tests and hooks only (one that
/// makes a method a test or a hook, `@test`, `@before`, makes it no helper), so a data provider's `@return
/// array<…>` for a static analyser, or a property's `@var`, is prose to the run.
fn past_docblocks(lx: &Lexed, range: Range<usize>) -> Range<usize> {
    let mut start = range.start;
    while start < range.end && lx.kind(start) == Some(TokKind::Str) && lx.s(start).starts_with("/**") {
        start += 1;
    }
    start..range.end
}

/// The attributes (`#[Test]`, `#[\PHPUnit\Framework\Attributes\Before]`: the last name of each) and docblock
/// annotations (`@test`, `@before`: without the `@`) on a member, in tokens `from..head`.
fn marks(lx: &Lexed, from: usize, head: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = from;
    while i < head {
        if lx.is(i, b'#') && lx.is(i + 1, b'[') {
            let end = lx.skip(i + 1).min(head);
            let mut depth = 0usize;
            let mut last = None;
            for j in i + 2..end {
                match lx.s(j) {
                    "(" | "[" => depth += 1,
                    ")" | "]" => depth = depth.saturating_sub(1),
                    "," if depth == 0 => out.extend(last.take()),
                    word if depth == 0 && lx.kind(j) == Some(TokKind::Ident) => last = Some(word.to_string()),
                    _ => {}
                }
            }
            out.extend(last);
            i = end;
            continue;
        }
        if lx.kind(i) == Some(TokKind::Str) && lx.s(i).starts_with("/**") {
            out.extend(annotations(lx.s(i)).map(|(name, _)| name.to_string()));
        }
        i += 1;
    }
    out
}

/// The `@name value` annotations of a docblock, in order.
pub(crate) fn annotations(doc: &str) -> impl Iterator<Item = (&str, &str)> {
    doc.lines().filter_map(|line| {
        let line = line.trim_start().trim_start_matches(['/', '*']).trim_start();
        let rest = line.strip_prefix('@')?;
        let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let name = name.trim_end_matches("*/");
        Some((name, value.trim().trim_end_matches("*/").trim()))
    })
}

/// The data providers a file names (`@dataProvider NAME`, `#[DataProvider('NAME')]`): their returned lists are
/// tables of test cases (`testsig::table`).
pub(crate) fn providers(lx: &Lexed) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..lx.toks.len() {
        if lx.kind(i) == Some(TokKind::Str) && lx.s(i).starts_with("/**") {
            out.extend(
                annotations(lx.s(i))
                    .filter(|(name, _)| *name == "dataProvider")
                    .filter_map(|(_, value)| value.split_whitespace().next())
                    .map(|name| name.rsplit("::").next().unwrap_or(name).to_string()),
            );
        } else if lx.is_word(i, "DataProvider") && lx.is(i + 1, b'(') && lx.kind(i + 2) == Some(TokKind::Str) {
            out.push(lx.s(i + 2).trim_matches(['\'', '"']).to_string());
        }
    }
    out
}

/// Whether the unit starting at token `start` is a data provider the file names (`function NAME` in its head).
pub(crate) fn provides(lx: &Lexed, start: usize) -> bool {
    let h = head(lx, &(start..lx.toks.len()));
    (h..(h + 6).min(lx.toks.len()))
        .find(|&i| lx.is_word(i, "function"))
        .and_then(|f| name_after(lx, f))
        .is_some_and(|name| lx.tables.contains(&name))
}
