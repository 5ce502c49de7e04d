//! Imports read as a module and the names they bind, so that adding a name to an existing import (the usual
//! companion of a new test) is recognized as harmless, and an import that rebinds the test framework's own
//! names (`import { expect } from './fake'`, `import fake as pytest`) is recognized as not.
//!
//! The module is the import's key: `mypkg.tokenizer`, `../src/parse`, `std::collections`, and for Python's
//! `import a, b`, Go's import block and the like, the keyword itself. Names are written as in the source with
//! white space normalized (`b as c`, `f "fmt"`), sorted.

use std::ops::Range;

use super::lex::{Lexed, TokKind};
use super::{Node, UnitKind};

/// What an import statement brings in.
pub(crate) struct Import {
    pub(crate) module: String,
    pub(crate) names: Vec<String>,
    /// Whether it binds a name the test framework owns, from somewhere else; or runs a module only for its side
    /// effects (`import './setup'`, Go's `_ "pkg"`).
    pub(crate) suspicious: bool,
}

/// Names pytest and unittest tests rely on, and the modules that may bind them.
const PY_RESERVED: [&str; 10] = [
    "pytest", "unittest", "TestCase", "mock", "fixture", "mark", "raises", "approx", "skip", "param",
];
const PY_FRAMEWORKS: [&str; 5] = ["pytest", "_pytest", "unittest", "mock", "pytest_asyncio"];

/// Modules that may bind the names JavaScript tests rely on ([`super::js::framework_name`]).
const JS_FRAMEWORKS: [&str; 12] = [
    "vitest",
    "mocha",
    "node:test",
    "@playwright/test",
    "bun:test",
    "node:assert",
    "node:assert/strict",
    "assert",
    "assert/strict",
    "chai",
    "expect",
    "jest",
];

/// Tokens `from..to` as text: punctuation joined tight, one space between words.
fn text(lx: &Lexed, from: usize, to: usize) -> String {
    let mut out = String::new();
    let mut prev_word = false;
    for i in from..to {
        let word = matches!(lx.kind(i), Some(TokKind::Ident | TokKind::Num | TokKind::Str));
        if word && prev_word {
            out.push(' ');
        }
        out.push_str(lx.s(i));
        prev_word = word;
    }
    out
}

/// The comma-separated items of tokens `range` (brackets stepped over), as text; a trailing comma gives none.
fn items(lx: &Lexed, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    let mut i = range.start;
    while i < range.end {
        if lx.is(i, b',') {
            out.push(start..i);
            start = i + 1;
            i += 1;
        } else {
            i = lx.skip(i).min(range.end);
        }
    }
    out.push(start..range.end);
    out.retain(|item| !item.is_empty());
    out
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

/// The string literal's content, without its quotes.
fn unquote(text: &str) -> &str {
    text.get(1..text.len().saturating_sub(1)).unwrap_or(text)
}

/// `import a.b as c, d` or `from m import (x, y as z)`: tokens `range` of the statement's logical lines.
pub(crate) fn python(lx: &Lexed, range: Range<usize>) -> Option<Import> {
    let s = range.start;
    let (module, list) = if lx.is_word(s, "import") {
        ("import".to_string(), s + 1..range.end)
    } else {
        let at = (s..range.end).find(|&i| lx.is_word(i, "import"))?;
        (text(lx, s + 1, at), at + 1..range.end)
    };
    let list = if lx.is(list.start, b'(') {
        list.start + 1..lx.partner(list.start)?.min(range.end)
    } else {
        list
    };
    let mut suspicious = false;
    let mut names = Vec::new();
    for item in items(lx, list) {
        let bound_at = if lx.is_word(item.end.saturating_sub(2), "as") {
            item.end - 1
        } else {
            item.start
        };
        let origin = if module == "import" {
            lx.s(item.start)
        } else {
            module.split('.').next().unwrap_or("")
        };
        suspicious |= PY_RESERVED.contains(&lx.s(bound_at)) && !PY_FRAMEWORKS.contains(&origin);
        names.push(text(lx, item.start, item.end));
    }
    Some(Import {
        module,
        names: sorted(names),
        suspicious,
    })
}

/// `import D, { a, b as c } from 'm'`, `import * as ns from 'm'`, `import 'm'`; `s` is at `import`.
pub(crate) fn js(lx: &Lexed, s: usize, end: usize) -> Option<Import> {
    let source = (s + 1..end).rev().find(|&i| lx.kind(i) == Some(TokKind::Str))?;
    let module = unquote(lx.s(source)).to_string();
    let from = (s + 1..source).find(|&i| lx.is_word(i, "from")).unwrap_or(source);
    let mut start = s + 1;
    if lx.is_word(start, "type") && start < from {
        start += 1;
    }
    let mut names = Vec::new();
    for item in items(lx, start..from) {
        if lx.is(item.start, b'{') {
            let close = lx.partner(item.start).unwrap_or(item.end).min(item.end);
            names.extend(
                items(lx, item.start + 1..close)
                    .into_iter()
                    .map(|inner| text(lx, inner.start, inner.end)),
            );
        } else {
            names.push(text(lx, item.start, item.end));
        }
    }
    Some(js_import(module, names))
}

/// `const PATTERN = require('m')…`: `pattern` is the binding's tokens, `call` the index of `require`.
pub(crate) fn js_require(lx: &Lexed, pattern: Range<usize>, call: usize) -> Option<Import> {
    if !lx.is(call + 1, b'(') || lx.kind(call + 2) != Some(TokKind::Str) {
        return None;
    }
    let module = unquote(lx.s(call + 2)).to_string();
    let names = if lx.is(pattern.start, b'{') {
        let close = lx.partner(pattern.start).unwrap_or(pattern.end).min(pattern.end);
        items(lx, pattern.start + 1..close)
            .into_iter()
            .map(|item| text(lx, item.start, item.end))
            .collect()
    } else {
        vec![text(lx, pattern.start, pattern.end)]
    };
    Some(js_import(module, names))
}

fn js_import(module: String, names: Vec<String>) -> Import {
    let framework =
        JS_FRAMEWORKS.contains(&module.as_str()) || module.starts_with("@vitest/") || module.starts_with("@jest/");
    let binds_reserved = names.iter().any(|name| {
        let bound = name.rsplit([' ', ':']).next().unwrap_or(name);
        super::js::framework_name(bound)
    });
    Import {
        suspicious: names.is_empty() || (binds_reserved && !framework),
        module,
        names: sorted(names),
    }
}

/// `use a::b::{c, d as e};` or `use a::b;`: `h` is at `use`, `end` past the `;`.
pub(crate) fn rust(lx: &Lexed, h: usize, end: usize) -> Option<Import> {
    let end = if lx.is(end.saturating_sub(1), b';') {
        end - 1
    } else {
        end
    };
    let group = (h + 1..end).find(|&i| lx.is(i, b'{'));
    let (module, names) = match group {
        Some(open) => {
            let close = lx.partner(open).unwrap_or(end).min(end);
            let path_end = if lx.is(open.saturating_sub(1), b':') {
                open.saturating_sub(2)
            } else {
                open
            };
            let names = items(lx, open + 1..close)
                .into_iter()
                .map(|item| text(lx, item.start, item.end));
            (text(lx, h + 1, path_end.max(h + 1)), names.collect())
        }
        None => {
            let last_sep = (h + 1..end)
                .rev()
                .find(|&i| lx.is(i, b':') && lx.is(i.saturating_sub(1), b':'));
            match last_sep {
                Some(sep) => (text(lx, h + 1, sep - 1), vec![text(lx, sep + 1, end)]),
                None => (String::new(), vec![text(lx, h + 1, end)]),
            }
        }
    };
    // `use fake::assert_eq;` shadows the standard macro.
    let suspicious = names.iter().any(|name| {
        let bound = name.rsplit([' ', ':']).next().unwrap_or(name);
        super::rust::check_macro(bound)
    });
    Some(Import {
        module,
        names: sorted(names),
        suspicious,
    })
}

/// `import "fmt"`, `import f "fmt"` or an import block, one path per line. A blank import (`_ "pkg"`) runs the
/// package's `init` only.
pub(crate) fn go(lx: &Lexed, s: usize, end: usize) -> Option<Import> {
    let (from, to) = if lx.is(s + 1, b'(') {
        (s + 2, lx.partner(s + 1)?.min(end))
    } else {
        (s + 1, end)
    };
    let mut names = Vec::new();
    let mut start = from;
    for i in from..to {
        let last_on_line = i + 1 == to || lx.toks[i + 1].line > lx.toks[i].end_line || lx.is(i + 1, b';');
        if lx.is(i, b';') {
            start = i + 1;
        } else if last_on_line {
            names.push(text(lx, start, i + 1));
            start = i + 1;
        }
    }
    let suspicious = names.iter().any(|name| name.starts_with("_ "));
    Some(Import {
        module: "import".to_string(),
        names: sorted(names),
        suspicious,
    })
}

/// Makes `node` (built as an import) what the import is: an import named by its module with its names, or
/// other code when it is suspicious. Statements that are not read as imports keep their first line as name.
pub(crate) fn classify(mut node: Node, import: Option<Import>) -> Node {
    node.kind = UnitKind::Import;
    if let Some(import) = import {
        if import.suspicious {
            node.kind = UnitKind::Other;
        } else {
            node.name = import.module;
            node.names = import.names;
        }
    }
    node
}
