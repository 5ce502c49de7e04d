//! JavaScript and TypeScript units: Jest, Vitest, Mocha, Jasmine, Playwright and `node:test` spellings.
//!
//! A call statement is read by its callee: `describe`/`context`/`suite` (and their `x`/`f`/`.each`/`.skip`
//! forms) open a container whose children are the statements of its callback's body; `it`/`test`/`specify` (and
//! `.each`, `.concurrent`, `.skip`, `xit`, `fit`, …) are tests named by their title string, so `it.skip('x')` is
//! the test `x` changed, not a new one; hooks (`beforeEach`, …) and `jest.*`/`vi.*`/`expect.*` calls are setup.
//! Declarations that run nothing (functions, classes without static code, types, `const` data) are helpers;
//! `import` and `require` are imports; anything else is other code.
//!
//! Statements end at `;` or at a line break the language would end them at (roughly: the line so far can end
//! and the next one cannot continue it).

use std::ops::Range;

#[path = "testsig/declaration.rs"]
mod declaration;

use super::braces::{self, arrow_at, first_line, leaf, statements};
use super::imports;
use super::lex::{Lexed, TokKind};
use super::{MAX_DEPTH, Node, UnitKind};

/// Callees whose call is a test.
pub(crate) const TEST_ROOTS: [&str; 8] = ["it", "test", "specify", "xit", "xtest", "xspecify", "fit", "ftest"];
/// Callees whose call is a block of tests.
pub(crate) const CONTAINER_ROOTS: [&str; 8] = [
    "describe",
    "context",
    "suite",
    "xdescribe",
    "xcontext",
    "xsuite",
    "fdescribe",
    "fcontext",
];
/// Hooks that run around tests (Jest, Vitest, Mocha BDD and TDD, Playwright as `test.beforeEach`).
const HOOKS: [&str; 10] = [
    "beforeEach",
    "beforeAll",
    "afterEach",
    "afterAll",
    "before",
    "after",
    "setup",
    "teardown",
    "suiteSetup",
    "suiteTeardown",
];
/// Objects whose method calls at statement level change how tests run: mocks, fake timers, custom matchers.
const SETUP_OBJECTS: [&str; 4] = ["jest", "vi", "expect", "mock"];

/// Whether `name` is one the test frameworks bind (often as globals): a declaration or import of it from
/// elsewhere shadows the framework.
pub(crate) fn framework_name(name: &str) -> bool {
    TEST_ROOTS.contains(&name)
        || CONTAINER_ROOTS.contains(&name)
        || HOOKS.contains(&name)
        || SETUP_OBJECTS.contains(&name)
        || name == "assert"
}

/// Keywords after which a line cannot end a statement.
const NO_END: [&str; 24] = [
    "in",
    "instanceof",
    "typeof",
    "new",
    "delete",
    "void",
    "extends",
    "implements",
    "as",
    "satisfies",
    "keyof",
    "await",
    "yield",
    "case",
    "export",
    "import",
    "from",
    "default",
    "async",
    "function",
    "class",
    "const",
    "let",
    "var",
];
/// Keywords that continue the previous line's statement.
const CONTINUES: [&str; 10] = [
    "else",
    "catch",
    "finally",
    "instanceof",
    "in",
    "of",
    "as",
    "satisfies",
    "extends",
    "implements",
];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    block(lx, 0, lx.toks.len(), 0)
}

fn block(lx: &Lexed, from: usize, to: usize, depth: usize) -> Vec<Node> {
    statements(lx, from, to, |_, last, next| ends(lx, last, next))
        .into_iter()
        .map(|range| unit(lx, range, depth))
        .collect()
}

fn ends(lx: &Lexed, last: usize, next: usize) -> bool {
    if lx.toks[next].line <= lx.toks[last].end_line {
        return false;
    }
    let can_end = match lx.toks[last].kind {
        TokKind::Ident => !NO_END.contains(&lx.s(last)),
        TokKind::Punct => lx.is(last, b')') || lx.is(last, b']') || lx.is(last, b'}'),
        _ => true,
    };
    let continues = match lx.toks[next].kind {
        TokKind::Ident => CONTINUES.contains(&lx.s(next)),
        TokKind::Punct => !matches!(lx.s(next), "!" | "~" | "@" | "#" | ";"),
        TokKind::Str => lx.s(next).starts_with('`'),
        _ => false,
    };
    can_end && !continues
}

fn unit(lx: &Lexed, range: Range<usize>, depth: usize) -> Node {
    let mut s = range.start;
    while s + 1 < range.end && (lx.is_word(s, "export") || lx.is_word(s, "default") || lx.is_word(s, "declare")) {
        s += 1;
    }
    let word = if lx.kind(s) == Some(TokKind::Ident) {
        lx.s(s)
    } else {
        ""
    };
    let other = || leaf(lx, UnitKind::Other, first_line(lx, range.start), s, range.clone());
    match word {
        "import" if !(lx.is(s + 1, b'(') || lx.is(s + 1, b'.')) => {
            let import = imports::js::import(lx, s, range.end);
            imports::classify(
                leaf(lx, UnitKind::Import, first_line(lx, range.start), s, range.clone()),
                import,
            )
        }
        "const" | "let" | "var" => declaration::unit(lx, s, range),
        "function" | "async" if function_at(lx, s) => {
            let name = (s..range.end)
                .find(|&i| lx.kind(i) == Some(TokKind::Ident) && !matches!(lx.s(i), "async" | "function"))
                .map_or_else(String::new, |i| lx.s(i).to_string());
            // `function it() {}` would shadow the framework's `it`: that is no helper.
            let kind = if framework_name(&name) {
                UnitKind::Other
            } else {
                UnitKind::Helper
            };
            leaf(lx, kind, name, s, range)
        }
        "class" | "abstract" => {
            let has_static = (s..range.end).any(|i| lx.is_word(i, "static"));
            let kind = if has_static { UnitKind::Other } else { UnitKind::Helper };
            let name = (s + 1..range.end)
                .find(|&i| lx.kind(i) == Some(TokKind::Ident) && lx.s(i) != "class")
                .map_or_else(String::new, |i| lx.s(i).to_string());
            leaf(lx, kind, name, s, range)
        }
        "if" if depth < MAX_DEPTH && in_source_tests(lx, s) => {
            // Vitest's in-source tests: `if (import.meta.vitest) { … }` holds tests even in a source file.
            let open = lx.skip(s + 1);
            let body = lx
                .partner(open)
                .filter(|&close| lx.is(open, b'{') && close > open && close < range.end);
            let body = body.map_or(range.end..range.end, |close| open + 1..close);
            let children = block(lx, body.start, body.end, depth + 1);
            let mut node = braces::container(lx, "import.meta.vitest".into(), s, range, body, children);
            node.gated = true;
            node
        }
        "type" | "interface" | "enum" if lx.kind(s + 1) == Some(TokKind::Ident) => {
            leaf(lx, UnitKind::Helper, lx.s(s + 1).to_string(), s, range)
        }
        _ if word.is_empty() => other(),
        _ => call(lx, s, range.clone(), depth).unwrap_or_else(other),
    }
}

/// Whether the `if` at `s` tests `import.meta.vitest`.
fn in_source_tests(lx: &Lexed, s: usize) -> bool {
    let Some(close) = lx.partner(s + 1).filter(|_| lx.is(s + 1, b'(')) else {
        return false;
    };
    let words: Vec<&str> = (s + 2..close).map(|i| lx.s(i)).collect();
    words.windows(5).any(|w| w == ["import", ".", "meta", ".", "vitest"])
}

fn function_at(lx: &Lexed, s: usize) -> bool {
    lx.is_word(s, "function") || (lx.is_word(s, "async") && lx.is_word(s + 1, "function"))
}

/// A call statement: `callee.chain(…)(…)` or with a tagged template (`it.each\`…\`(…)`).
fn call(lx: &Lexed, s: usize, range: Range<usize>, depth: usize) -> Option<Node> {
    let mut chain = vec![lx.s(s)];
    let mut i = s + 1;
    while lx.is(i, b'.') && lx.kind(i + 1) == Some(TokKind::Ident) {
        chain.push(lx.s(i + 1));
        i += 2;
    }
    let callee_len = chain.len();
    // Argument lists, tagged templates and further members: `it.skipIf(x).each(table)('title', fn)`.
    let mut groups = Vec::new();
    while i < range.end {
        if lx.is(i, b'(') {
            groups.push(i);
            i = lx.skip(i);
        } else if lx.kind(i) == Some(TokKind::Str) && lx.s(i).starts_with('`') {
            i += 1;
        } else if lx.is(i, b'.') && lx.kind(i + 1) == Some(TokKind::Ident) && !groups.is_empty() {
            chain.push(lx.s(i + 1));
            i += 2;
        } else {
            break;
        }
    }
    if groups.is_empty() {
        return None;
    }
    let root = chain[0];
    let callee = &chain[..callee_len];
    let has = |names: &[&str]| callee.iter().any(|part| names.contains(part));
    // Playwright's `test.use(…)` and `test.describe.configure({ retries })` change how tests run.
    let kind = if callee.last() == Some(&"configure") || (root == "test" && has(&["use"])) {
        UnitKind::Setup
    } else if CONTAINER_ROOTS.contains(&root) || has(&["describe"]) {
        UnitKind::Container
    } else if has(&HOOKS) {
        UnitKind::Setup
    } else if TEST_ROOTS.contains(&root) {
        UnitKind::Test
    } else if SETUP_OBJECTS.contains(&root) && callee_len > 1 {
        UnitKind::Setup
    } else {
        return None;
    };
    match kind {
        UnitKind::Container if depth >= MAX_DEPTH => None,
        UnitKind::Container => {
            let name = title(lx, &groups);
            // A block given a named function has no body here: all of it is shell.
            let body = callback_body(lx, &groups).unwrap_or(range.end..range.end);
            let children = block(lx, body.start, body.end, depth + 1);
            Some(braces::container(lx, name, s, range, body, children))
        }
        UnitKind::Setup => Some(leaf(lx, kind, callee.join("."), s, range)),
        _ => Some(leaf(lx, kind, title(lx, &groups), s, range)),
    }
}

/// A test's or block's title: the first string that opens an argument list (`it.each(table)('title', …)` skips
/// the table), without its quotes; else the first argument's text.
fn title(lx: &Lexed, groups: &[usize]) -> String {
    for &group in groups {
        if lx.kind(group + 1) == Some(TokKind::Str) && lx.partner(group).is_some() {
            let text = lx.s(group + 1);
            let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or(text);
            return inner.to_string();
        }
    }
    let group = groups[0];
    let close = lx.partner(group).unwrap_or(group + 1);
    let mut end = group + 1;
    while end < close && !lx.is(end, b',') {
        end = lx.skip(end);
    }
    (group + 1..end.min(close))
        .map(|i| lx.s(i))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The body of the last callback passed in `groups`: the tokens inside `{…}` after `=>` or `function (…)`.
fn callback_body(lx: &Lexed, groups: &[usize]) -> Option<Range<usize>> {
    for &group in groups.iter().rev() {
        let close = lx.partner(group).filter(|&close| close > group)?;
        let mut found = None;
        let mut k = group + 1;
        while k < close {
            let after_arrow = k >= 2 && arrow_at(lx, k - 2);
            if lx.is(k, b'{') && (after_arrow || lx.is(k - 1, b')')) {
                found = lx.partner(k).filter(|&end| end > k).map(|end| k + 1..end);
            }
            k = lx.skip(k);
        }
        if found.is_some() {
            return found;
        }
    }
    None
}
