//! JavaScript's imports (`testsig::imports`): `import … from 'm'` and `require('m')`, and which of them rebind
//! the names its test frameworks own.

use std::ops::Range;

use super::{Import, items, sorted, text, unquote};
use crate::testsig::lex::{Lexed, TokKind};

/// Modules that may bind the names JavaScript tests rely on ([`crate::testsig::js::framework_name`]).
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

/// `import D, { a, b as c } from 'm'`, `import * as ns from 'm'`, `import 'm'`; `s` is at `import`.
pub(crate) fn import(lx: &Lexed, s: usize, end: usize) -> Option<Import> {
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
    Some(framework_import(module, names))
}

/// `const PATTERN = require('m')…`: `pattern` is the binding's tokens, `call` the index of `require`.
pub(crate) fn require(lx: &Lexed, pattern: Range<usize>, call: usize) -> Option<Import> {
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
    Some(framework_import(module, names))
}

fn framework_import(module: String, names: Vec<String>) -> Import {
    let framework =
        JS_FRAMEWORKS.contains(&module.as_str()) || module.starts_with("@vitest/") || module.starts_with("@jest/");
    let binds_reserved = names.iter().any(|name| {
        let bound = name.rsplit([' ', ':']).next().unwrap_or(name);
        crate::testsig::js::framework_name(bound)
    });
    Import {
        suspicious: names.is_empty() || (binds_reserved && !framework),
        module,
        names: sorted(names),
    }
}
