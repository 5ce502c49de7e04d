//! Shell's markers (`testsig::markers::shell`): bats' `skip` command, which ends a test as skipped.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.is_word(i, "skip") && command_start(lx, i) {
        push(out, lx, i, MarkerKind::Skip, "skip".into());
    }
    i + 1
}

/// Whether token `i` starts a command: first on its line, or after `;`, `{`, `&&`, `||`, `|`, `then`, `do`,
/// `else`.
fn command_start(lx: &Lexed, i: usize) -> bool {
    let Some(prev) = i.checked_sub(1) else {
        return true;
    };
    lx.toks[prev].end_line < lx.toks[i].line && lx.kind(prev) != Some(TokKind::Cont)
        || [b';', b'{', b'&', b'|'].iter().any(|c| lx.is(prev, *c))
        || ["then", "do", "else"].iter().any(|w| lx.is_word(prev, w))
}
