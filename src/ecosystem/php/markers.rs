//! PHP's markers (`testsig::markers::php`): PHPUnit's `markTestSkipped(…)` and `markTestIncomplete(…)` calls,
//! which end a test as skipped or incomplete (neither fails), as calls — not in strings or comments.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.kind(i) != Some(TokKind::Ident) || !lx.is(i + 1, b'(') {
        return i + 1;
    }
    match lx.s(i) {
        "markTestSkipped" => push(out, lx, i, MarkerKind::Skip, "markTestSkipped".into()),
        "markTestIncomplete" => push(out, lx, i, MarkerKind::Todo, "markTestIncomplete".into()),
        _ => {}
    }
    i + 1
}
