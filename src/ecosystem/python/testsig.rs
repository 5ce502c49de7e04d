//! Python units, by indentation.
//!
//! Tokens are grouped into logical lines (brackets and backslashes continue a line), logical lines into
//! statements (a head, the lines indented under it, and `elif`/`else`/`except`/`finally` clauses), decorators
//! into the statement they decorate. A `def` named `test…` is a test, at module level and in any class (pytest
//! and unittest both collect by that prefix, and a mix-in's tests run in its subclasses); fixtures, pytest hooks,
//! `load_tests`, the xunit setup/teardown methods and methods that replace unittest's own (`assertEqual`, `run`,
//! `__init__`) are setup; other functions are helpers; classes are
//! containers; imports are imports; a statement that is only a string (a docstring) is no unit at all; the rest
//! is other code (it runs at import, so it can change what every test sees).

use super::braces::{line_of, span};
use super::lex::{Lexed, TokKind};
use super::norm::{self, Norm};
use super::{MAX_DEPTH, Node, UnitKind};
use super::{imports, table};

#[path = "load_tests.rs"]
mod load_tests;

/// Functions pytest, unittest and nose call around tests.
const SETUP_NAMES: [&str; 19] = [
    "setup_module",
    "teardown_module",
    "setup_function",
    "teardown_function",
    "setup_class",
    "teardown_class",
    "setup_method",
    "teardown_method",
    "setup",
    "teardown",
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "setUpModule",
    "tearDownModule",
    "asyncSetUp",
    "asyncTearDown",
    "load_tests",
];

/// Keywords that continue a compound statement at the same indentation.
const CLAUSES: [&str; 4] = ["elif", "else", "except", "finally"];

/// A logical line: tokens `first..end`, the column it starts at, and its block depth in the file.
struct Line {
    first: usize,
    end: usize,
    col: usize,
    depth: usize,
}

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    let lines = logical_lines(lx);
    block(lx, &lines, 0, lines.len(), 0)
}

fn logical_lines(lx: &Lexed) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let n = lx.toks.len();
    let mut i = 0;
    while i < n {
        let first = i;
        loop {
            let last = lx.skip(i) - 1;
            i = last + 1;
            let continued = lx.toks[last].kind == TokKind::Cont;
            if i >= n || (!continued && lx.toks[i].line > lx.toks[last].end_line) {
                break;
            }
        }
        let col = lx.column(first);
        while stack.last().is_some_and(|&top| top > col) {
            stack.pop();
        }
        if stack.last() != Some(&col) {
            stack.push(col);
        }
        lines.push(Line {
            first,
            end: i,
            col,
            depth: stack.len() - 1,
        });
    }
    lines
}

fn block(lx: &Lexed, lines: &[Line], from: usize, to: usize, depth: usize) -> Vec<Node> {
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        let start = i;
        while i + 1 < to && lx.is(lines[i].first, b'@') {
            i += 1;
        }
        let head = i;
        let col = lines[head].col;
        let mut end = head + 1;
        loop {
            while end < to && lines[end].col > col {
                end += 1;
            }
            let clause = end < to && lines[end].col == col && CLAUSES.iter().any(|w| lx.is_word(lines[end].first, w));
            if !clause {
                break;
            }
            end += 1;
        }
        if let Some(node) = unit(lx, lines, start, head, end, depth) {
            out.push(node);
        }
        i = end;
    }
    out
}

/// The type annotations of a `def` (`x: int`, `*args: str`, `-> None`) as token ranges: adding or changing
/// them changes no test's behaviour, so they are left out of its hash.
fn annotation_cuts(lx: &Lexed, def_at: usize, head_end: usize) -> Vec<std::ops::Range<usize>> {
    let open = def_at + 2;
    let Some(close) = lx.is(open, b'(').then(|| lx.partner(open)).flatten() else {
        return Vec::new();
    };
    let mut cuts = Vec::new();
    let mut i = open + 1;
    while i < close {
        if lx.is(i, b':') {
            let mut j = i + 1;
            while j < close && !lx.is(j, b',') && !lx.is(j, b'=') {
                j = lx.skip(j);
            }
            cuts.push(i..j);
            i = j;
        } else {
            i = lx.skip(i);
        }
    }
    if lx.is(close + 1, b'-') && lx.is(close + 2, b'>') {
        let mut j = close + 3;
        while j < head_end && !lx.is(j, b':') {
            j = lx.skip(j);
        }
        cuts.push(close + 1..j);
    }
    cuts
}

/// `if __name__ == "__main__":` — runs only when the file is a script, never when a runner imports it.
fn main_guard(lx: &Lexed, t: usize) -> bool {
    let main = matches!(lx.s(t + 4), "\"__main__\"" | "'__main__'");
    lx.is_word(t, "if")
        && lx.is_word(t + 1, "__name__")
        && lx.is(t + 2, b'=')
        && lx.is(t + 3, b'=')
        && main
        && lx.is(t + 5, b':')
}

/// `BIG = 10**6`, `A, B = 1, 2`, `CASES: list = [(1, 2)]`: binds names of this module (or class) only and calls
/// nothing, so it cannot reach the code under test or another test. A monkeypatch assigns to an attribute or an
/// item (`calc.add = …`) or calls something (`setattr(…)`, `patch(…).start()`), and dunder names and `pytestmark`
/// speak to the runner: those stay other code.
fn plain_binding(lx: &Lexed, from: usize, to: usize) -> bool {
    let name = lx.s(from);
    if lx.kind(from) != Some(TokKind::Ident)
        || name.starts_with("__")
        || name == "pytestmark"
        || KEYWORDS.contains(&name)
    {
        return false;
    }
    let mut i = from;
    // Targets: names and commas, then an optional annotation, up to a lone `=`.
    while i < to && (lx.kind(i) == Some(TokKind::Ident) || lx.is(i, b',')) {
        i += 1;
    }
    let lone_equals = |i: usize| lx.is(i, b'=') && !lx.is(i + 1, b'=');
    if lx.is(i, b':') {
        while i < to && !lone_equals(i) {
            i += 1;
        }
    }
    if !lone_equals(i) {
        return false;
    }
    let calls = (i + 1..to).any(|j| {
        lx.is(j, b'(') && (lx.kind(j - 1) == Some(TokKind::Ident) || lx.is(j - 1, b')') || lx.is(j - 1, b']'))
    });
    !calls
}

/// Python keywords that can start a statement, so never a plain binding's target.
const KEYWORDS: &[&str] = &[
    "assert", "await", "del", "for", "global", "if", "nonlocal", "pass", "raise", "return", "while", "with", "yield",
];

/// The unit of the statement on lines `start..end` whose head (after decorators) is line `head`.
fn unit(lx: &Lexed, lines: &[Line], start: usize, head: usize, end: usize, depth: usize) -> Option<Node> {
    let t = lines[head].first;
    let def_at = if lx.is_word(t, "async") { t + 1 } else { t };
    let name_after = |i: usize| lx.s(i + 1).to_string();
    let (kind, name) = match lx.s(def_at) {
        "def" if lx.is_word(def_at, "def") => (
            match def_kind(lx, lines, start, head, lx.s(def_at + 1), depth > 0) {
                // unittest's documented package `load_tests` returns what no `load_tests` returns.
                UnitKind::Setup
                    if depth == 0 && load_tests::is_documented(lx, lines[start].first, lines[end - 1].end) =>
                {
                    UnitKind::Helper
                }
                kind => kind,
            },
            name_after(def_at),
        ),
        "class" if lx.is_word(t, "class") && depth < MAX_DEPTH => {
            return Some(class(lx, lines, start, head, end, depth, name_after(t)));
        }
        "import" | "from" if lx.kind(t) == Some(TokKind::Ident) => (UnitKind::Import, lx.line_text(line_of(lx, t))),
        _ if start == head && end == head + 1 && only_strings(lx, &lines[head]) => return None,
        _ if depth == 0 && main_guard(lx, t) => (UnitKind::Helper, "__main__".to_string()),
        _ if start == head && plain_binding(lx, t, lines[end - 1].end) => (UnitKind::Helper, lx.s(t).to_string()),
        _ => (UnitKind::Other, lx.line_text(line_of(lx, t))),
    };
    let is_def = lx.is_word(def_at, "def");
    let mut norm = Norm::new(lx);
    if is_def {
        norm.cut(annotation_cuts(lx, def_at, lines[head].end));
    }
    let body = |norm: &mut Norm| match is_def.then(|| docstring(lx, lines, head, end)).flatten() {
        Some(doc) => {
            hash_lines(norm, lines, start..doc, lines[head].depth);
            hash_lines(norm, lines, doc + 1..end, lines[head].depth);
        }
        None => hash_lines(norm, lines, start..end, lines[head].depth),
    };
    body(&mut norm);
    let hash = norm.finish();
    drop(norm);
    let rows = table::rows(lx, lines[start].first..lines[end - 1].end);
    let table = (!rows.is_empty()).then(|| table::digest(lx, &rows, body));
    let node = Node {
        kind,
        name,
        line: line_of(lx, def_at),
        hash,
        shell_hash: None,
        span: lines_span(lx, lines, start, end),
        children: Vec::new(),
        gated: false,
        names: Vec::new(),
        table,
    };
    if kind == UnitKind::Import {
        let tokens = lines[start].first..lines[end - 1].end;
        return Some(imports::classify(node, imports::python::import(lx, tokens)));
    }
    Some(node)
}

fn class(lx: &Lexed, lines: &[Line], start: usize, head: usize, end: usize, depth: usize, name: String) -> Node {
    let children = block(lx, lines, head + 1, end, depth + 1);
    let mut norm = Norm::new(lx);
    hash_lines(&mut norm, lines, start..head + 1, lines[head].depth);
    let shell = norm.finish();
    Node {
        kind: UnitKind::Container,
        name,
        line: line_of(lx, lines[head].first),
        hash: norm::combine(&shell, children.iter().map(|child| child.hash.as_str())),
        shell_hash: Some(shell),
        span: lines_span(lx, lines, start, end),
        children,
        gated: false,
        names: Vec::new(),
        table: None,
    }
}

/// The kind of a `def`; `in_class`: is it a method?
fn def_kind(lx: &Lexed, lines: &[Line], start: usize, head: usize, name: &str, in_class: bool) -> UnitKind {
    let decorated_by = |words: &[&str]| {
        lines[start..head]
            .iter()
            .any(|line| (line.first..line.end).any(|i| words.contains(&lx.s(i)) && lx.kind(i) == Some(TokKind::Ident)))
    };
    let fixture = decorated_by(&["fixture", "yield_fixture"]);
    // A fixture without `autouse` runs only for the tests that ask for it by name: a helper.
    if fixture && !decorated_by(&["autouse"]) {
        UnitKind::Helper
    } else if fixture
        || decorated_by(&["hookimpl"])
        || SETUP_NAMES.contains(&name)
        || name.starts_with("pytest_")
        || overrides_framework(name, in_class)
    {
        UnitKind::Setup
    } else if name.starts_with("test") {
        UnitKind::Test
    } else {
        UnitKind::Helper
    }
}

/// Whether a definition named `name` replaces part of how tests run: in a class, unittest's assertion methods
/// (`assertEqual`, `fail`), its machinery (`run`, `subTest`, `_callTestMethod`) and special methods (`__init__`
/// even stops pytest collecting the class); in a module, `__getattr__`.
fn overrides_framework(name: &str, in_class: bool) -> bool {
    let camel_after = |prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    if !in_class {
        return matches!(name, "__getattr__" | "__dir__");
    }
    camel_after("assert")
        || camel_after("fail")
        || (name.starts_with("__") && name.ends_with("__"))
        || name.starts_with("_call")
        || matches!(name, "run" | "debug" | "subTest" | "skipTest" | "defaultTestResult")
}

/// Hashes logical lines, each marked with its depth below `base`.
fn hash_lines(norm: &mut Norm, lines: &[Line], range: std::ops::Range<usize>, base: usize) {
    for line in &lines[range] {
        norm.line(line.depth.saturating_sub(base));
        norm.tokens(line.first, line.end);
    }
}

/// The line of a `def`'s docstring (the first line of its body, only a string), when it holds no `>>>` example:
/// prose a runner never reads, so adding or rewording it (unittest prints its first line beside the test's name)
/// leaves the test as it was, as a docstring of the module or a class does. One with an example stays: `pytest
/// --doctest-modules` collects it as a test of its own.
fn docstring(lx: &Lexed, lines: &[Line], head: usize, end: usize) -> Option<usize> {
    let doc = head + 1;
    let line = lines.get(doc).filter(|_| doc < end)?;
    let prose = (line.first..line.end).all(|i| !lx.s(i).contains(">>>"));
    (line.depth > lines[head].depth && prose && only_strings(lx, line)).then_some(doc)
}

/// Whether a logical line is only string literals, none of them an f-string with a replacement field (which
/// would run code).
fn only_strings(lx: &Lexed, line: &Line) -> bool {
    (line.first..line.end).all(|i| match lx.kind(i) {
        Some(TokKind::Str) => {
            let text = lx.s(i);
            let prefix_len = text.find(['\'', '"']).unwrap_or(0);
            !(text[..prefix_len].contains(['f', 'F']) && text.contains('{'))
        }
        Some(TokKind::Cont) => true,
        _ => false,
    })
}

fn lines_span(lx: &Lexed, lines: &[Line], start: usize, end: usize) -> std::ops::Range<usize> {
    let first = lines[start].first;
    let last_end = lines[end - 1].end;
    span(lx, &(first..last_end))
}
