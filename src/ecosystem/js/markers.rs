//! JavaScript's markers (`testsig::markers::js`): `.skip` / `.only` / `.todo` on a test or block, and their `x`
//! and `f` forms, found on tokens.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

/// Test and block callees whose `x` form skips and `f` form focuses.
const JS_SKIPPED: [&str; 6] = ["xit", "xtest", "xspecify", "xdescribe", "xcontext", "xsuite"];
const JS_FOCUSED: [&str; 4] = ["fit", "ftest", "fdescribe", "fcontext"];

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.kind(i) != Some(TokKind::Ident) {
        return i + 1;
    }
    let word = lx.s(i);
    let member = i >= 1 && lx.is(i - 1, b'.');
    let used = lx.is(i + 1, b'(') || lx.is(i + 1, b'.') || lx.kind(i + 1) == Some(TokKind::Str);
    if !member {
        if JS_SKIPPED.contains(&word) && used {
            push(out, lx, i, MarkerKind::Skip, word.to_string());
        } else if JS_FOCUSED.contains(&word) && used {
            push(out, lx, i, MarkerKind::Only, word.to_string());
        }
        return i + 1;
    }
    let kind = match word {
        "skip" | "skipIf" | "runIf" | "fixme" => MarkerKind::Skip,
        "only" => MarkerKind::Only,
        "todo" => MarkerKind::Todo,
        "fails" | "failing" | "fail" => MarkerKind::Xfail,
        _ => return i + 1,
    };
    // Walk the member chain back to its root: `test.describe.only` → `test`.
    let mut root = i;
    while root >= 2 && lx.is(root - 1, b'.') && lx.kind(root - 2) == Some(TokKind::Ident) {
        root -= 2;
    }
    let root_word = lx.s(root);
    let test_api =
        crate::testsig::js::TEST_ROOTS.contains(&root_word) || crate::testsig::js::CONTAINER_ROOTS.contains(&root_word);
    // `this.skip()` (Mocha), `ctx.skip()` (Vitest), `t.skip()` / `t.todo()` (node:test) skip from inside a test.
    let skips_itself = matches!(word, "skip" | "todo") && lx.is(i + 1, b'(');
    if test_api || skips_itself {
        let key = (root..=i).map(|k| lx.s(k)).collect::<String>();
        push(out, lx, i, kind, key);
    }
    i + 1
}
