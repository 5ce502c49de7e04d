//! JavaScript declarations: `const`, `let` and `var`. One that binds `require(…)` is an import; one that binds a
//! function or plain data runs nothing when the file loads and is a helper; one that computes its value (a call,
//! `new`, `await`, an assignment) is other code, and so is every `var` (it may rebind an existing name) and any
//! declaration of a name the test framework owns (`const expect = …`).

use std::ops::Range;

use super::framework_name;
use crate::testsig::braces::{adjacent, arrow_at, first_line, leaf};
use crate::testsig::imports;
use crate::testsig::lex::{Lexed, TokKind};
use crate::testsig::{Node, UnitKind};

/// `const`/`let`/`var`: an import if it binds `require(…)`; a helper if it binds a function or plain data (no
/// call, assignment, `new` or `await` in it); other code otherwise (`var` always: it may rebind a name).
pub(super) fn unit(lx: &Lexed, s: usize, range: Range<usize>) -> Node {
    let name = if lx.kind(s + 1) == Some(TokKind::Ident) {
        lx.s(s + 1).to_string()
    } else {
        first_line(lx, range.start)
    };
    let mut eq = s + 1;
    while eq < range.end && !(lx.is(eq, b'=') && !lx.is(eq + 1, b'=') && !arrow_at(lx, eq)) {
        eq = lx.skip(eq);
    }
    let init = eq + 1;
    if lx.is_word(init, "require") || (lx.is_word(init, "await") && lx.is_word(init + 1, "import")) {
        let import = imports::js::require(lx, s + 1..eq, init);
        return imports::classify(
            leaf(lx, UnitKind::Import, first_line(lx, range.start), s, range),
            import,
        );
    }
    let kind = if lx.is_word(s, "var") || framework_name(&name) {
        UnitKind::Other
    } else if init >= range.end || function_value(lx, init, range.end) || plain_data(lx, init, range.end) {
        // `let x;` binds `undefined`, and `const`/`let` cannot rebind an existing name.
        UnitKind::Helper
    } else {
        UnitKind::Other
    };
    leaf(lx, kind, name, s, range)
}

/// Whether tokens `from..to` are a function expression: `function …`, `async (…) => …`, `x => …`, `(…): T => …`.
fn function_value(lx: &Lexed, from: usize, to: usize) -> bool {
    let start = if lx.is_word(from, "async") { from + 1 } else { from };
    if lx.is_word(start, "function") {
        return true;
    }
    if lx.kind(start) == Some(TokKind::Ident) {
        return arrow_at(lx, start + 1);
    }
    if !(lx.is(start, b'(') || lx.is(start, b'<')) {
        return false;
    }
    let mut k = start;
    while k < to {
        if arrow_at(lx, k) {
            return true;
        }
        if lx.is(k, b';') || lx.is(k, b',') {
            return false;
        }
        k = lx.skip(k);
    }
    false
}

/// Whether tokens `from..to` are data whose evaluation runs no code: no call, tagged template, template
/// substitution, assignment, increment, `new`, `await`, `yield`, `delete` or `import`.
fn plain_data(lx: &Lexed, from: usize, to: usize) -> bool {
    (from..to.min(lx.toks.len())).all(|k| {
        let callee_before = k > from
            && (matches!(lx.kind(k - 1), Some(TokKind::Ident | TokKind::Str))
                || lx.is(k - 1, b')')
                || lx.is(k - 1, b']')
                || lx.is(k - 1, b'>'));
        let text = lx.s(k);
        match lx.kind(k) {
            Some(TokKind::Ident) => !matches!(text, "new" | "await" | "yield" | "delete" | "import" | "require"),
            Some(TokKind::Str) if text.starts_with('`') => !text.contains("${") && !callee_before,
            Some(TokKind::Punct) => match text {
                "(" => !callee_before,
                "=" => {
                    arrow_at(lx, k)
                        || (k > from && adjacent(lx, k - 1) && lx.is(k - 1, b'='))
                        || (adjacent(lx, k) && lx.is(k + 1, b'='))
                        || (k > from && adjacent(lx, k - 1) && matches!(lx.s(k - 1), "!" | "<" | ">"))
                }
                "+" | "-" => !(adjacent(lx, k) && lx.s(k + 1) == text),
                _ => true,
            },
            _ => true,
        }
    })
}
