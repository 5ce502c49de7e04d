//! Java units: the top-level declarations of a JUnit test class file and the members of its classes.
//!
//! At the top: `package` and `import` are imports; a class, interface, enum, record or annotation type is a
//! container of its members; anything else is other code. In a class, as JUnit collects them: a method marked
//! `@Test`, `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory` or `@TestTemplate` (JUnit 5; JUnit 4's
//! `@Test` too) is a test named by the method; a method marked `@BeforeEach`, `@AfterEach`, `@BeforeAll`,
//! `@AfterAll` (JUnit 4's `@Before`, `@After`, `@BeforeClass`, `@AfterClass`), a constructor, an initializer
//! block and a field holding an extension or rule (`@RegisterExtension`, `@Rule`, `@ClassRule`) are setup;
//! other methods (a `@MethodSource` provider among them) and fields are helpers; a nested class (`@Nested`) is a
//! container again. A member's annotations belong to it, so `@Disabled` or `@Tag("slow")` added to a test
//! changes that test, and the class's annotations (`@ExtendWith`, `@Disabled`) are its container's own.

use std::ops::Range;

use super::braces::{closes_block, container, first_line, leaf, statements};
use super::lex::{Lexed, TokKind};
use super::{Node, UnitKind};

const TYPES: [&str; 4] = ["class", "interface", "enum", "record"];
const MODIFIERS: [&str; 12] = [
    "public",
    "protected",
    "private",
    "static",
    "final",
    "abstract",
    "sealed",
    "non",
    "synchronized",
    "default",
    "strictfp",
    "native",
];
/// The annotations that make a method a test.
pub(crate) const TESTS: [&str; 5] = [
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
];
/// The annotations that make a method a hook run around the tests.
const HOOKS: [&str; 8] = [
    "BeforeEach",
    "AfterEach",
    "BeforeAll",
    "AfterAll",
    "Before",
    "After",
    "BeforeClass",
    "AfterClass",
];
/// The annotations that make a field part of every test's run.
const FIELD_HOOKS: [&str; 3] = ["RegisterExtension", "Rule", "ClassRule"];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    level(lx, 0, lx.toks.len())
        .into_iter()
        .map(|range| member(lx, range, None))
        .collect()
}

/// The statements of tokens `from..to`: each ends at a `;` or at the `}` that closes a body opened in it.
fn level(lx: &Lexed, from: usize, to: usize) -> Vec<Range<usize>> {
    statements(lx, from, to, |start, last, _| closes_block(lx, start, last))
}

/// The annotations on a declaration starting at token `from` (the last name of each: `Test` for
/// `@org.junit.jupiter.api.Test`), and the first token past them and the modifiers.
pub(crate) fn annotations<'a>(lx: &Lexed<'a>, from: usize, to: usize) -> (Vec<&'a str>, usize) {
    let mut names = Vec::new();
    let mut i = from;
    while i < to {
        if lx.is(i, b'@') && !lx.is_word(i + 1, "interface") && lx.kind(i + 1) == Some(TokKind::Ident) {
            let mut j = i + 1;
            while lx.is(j + 1, b'.') && lx.kind(j + 2) == Some(TokKind::Ident) {
                j += 2;
            }
            names.push(lx.s(j));
            i = if lx.is(j + 1, b'(') { lx.skip(j + 1) } else { j + 1 };
        } else if MODIFIERS.contains(&lx.s(i)) || (lx.is(i, b'-') && lx.is_word(i + 1, "sealed")) {
            i += 1;
        } else {
            break;
        }
    }
    (names, i.min(to))
}

/// A declaration at the top (`class_name` `None`) or in the class `class_name`.
fn member(lx: &Lexed, range: Range<usize>, class_name: Option<&str>) -> Node {
    let (marks, h) = annotations(lx, range.start, range.end);
    let word = lx.s(h);
    if class_name.is_none() && (word == "package" || word == "import") {
        return leaf(lx, UnitKind::Import, first_line(lx, h), h, range);
    }
    let is_type = TYPES.contains(&word) || (lx.is(h, b'@') && lx.is_word(h + 1, "interface"));
    if is_type {
        let at_name = if lx.is(h, b'@') { h + 2 } else { h + 1 };
        if lx.kind(at_name) == Some(TokKind::Ident)
            && let Some(open) = (at_name + 1..range.end).find(|&j| lx.is(j, b'{'))
            && let Some(close) = lx.partner(open).filter(|&c| c > open && c < range.end)
        {
            let name = lx.s(at_name);
            let children = level(lx, open + 1, close)
                .into_iter()
                .map(|inner| member(lx, inner, Some(name)))
                .collect();
            return container(lx, name.to_string(), h, range, open + 1..close, children);
        }
    }
    let Some(class_name) = class_name else {
        return leaf(lx, UnitKind::Other, first_line(lx, h), h, range);
    };
    if lx.is(h, b'{') {
        return leaf(lx, UnitKind::Setup, first_line(lx, h), h, range);
    }
    // A method: a word right before the first `(`, with no `=` before it (a field's initializer may call).
    let paren = (h..range.end).find(|&j| lx.is(j, b'(') || lx.is(j, b'=') || lx.is(j, b'{') || lx.is(j, b';'));
    if let Some(paren) = paren.filter(|&p| p > h && lx.is(p, b'(') && lx.kind(p - 1) == Some(TokKind::Ident)) {
        let name = lx.s(paren - 1).to_string();
        let kind = if marks.iter().any(|m| TESTS.contains(m)) {
            UnitKind::Test
        } else if marks.iter().any(|m| HOOKS.contains(m)) || name == class_name {
            UnitKind::Setup
        } else {
            UnitKind::Helper
        };
        return leaf(lx, kind, name, h, range);
    }
    // A field: named by the word before its `=` or `;`.
    let end = (h..range.end)
        .find(|&j| lx.is(j, b'=') || lx.is(j, b';'))
        .unwrap_or(range.end);
    let name = (h..end)
        .rev()
        .find(|&j| lx.kind(j) == Some(TokKind::Ident))
        .map_or_else(|| first_line(lx, h), |j| lx.s(j).to_string());
    let kind = if marks.iter().any(|m| FIELD_HOOKS.contains(m)) {
        UnitKind::Setup
    } else {
        UnitKind::Helper
    };
    leaf(lx, kind, name, h, range)
}
