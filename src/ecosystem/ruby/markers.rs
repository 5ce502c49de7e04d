//! Ruby's markers (`testsig::markers::ruby`): minitest's `skip` and test-unit's `omit` (a call that ends the test
//! as skipped), RSpec's `skip` and `pending` (as a call inside an example, or an example or group declared with
//! them), the `x` forms (`xit`, `xdescribe`, `xcontext`, `xspecify`, …), the `f` forms and `focus` that run
//! only the marked examples (`fit`, `fdescribe`, `focus: true`, `:focus`), and metadata that skips (`skip:
//! true`, `:skip`, `pending: "…"`, `:pending`). A word used as a variable or method of an object (`pending =
//! []`, `queue.skip`) is none.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

const SKIPPED: [&str; 11] = [
    "xit",
    "xspecify",
    "xexample",
    "xscenario",
    "xdescribe",
    "xcontext",
    "xfeature",
    "skip",
    "omit",
    "omit_if",
    "omit_unless",
];
const ONLY: [&str; 8] = [
    "fit",
    "fspecify",
    "fexample",
    "fscenario",
    "fdescribe",
    "fcontext",
    "ffeature",
    "focus",
];

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    match lx.kind(i) {
        Some(TokKind::Ident) if called(lx, i) => {
            let word = lx.s(i);
            let kind = if SKIPPED.contains(&word) {
                Some(MarkerKind::Skip)
            } else if word == "pending" {
                Some(MarkerKind::Xfail)
            } else if ONLY.contains(&word) {
                Some(MarkerKind::Only)
            } else {
                None
            };
            if let Some(kind) = kind {
                push(out, lx, i, kind, word.into());
            }
        }
        Some(TokKind::Ident) if metadata_key(lx, i) => {
            let word = lx.s(i);
            let kind = match word {
                "skip" => Some(MarkerKind::Skip),
                "pending" => Some(MarkerKind::Xfail),
                "focus" => Some(MarkerKind::Only),
                _ => None,
            };
            if let Some(kind) = kind.filter(|_| !lx.is_word(i + 2, "false") && !lx.is_word(i + 2, "nil")) {
                push(out, lx, i, kind, format!("{word}:"));
            }
        }
        Some(TokKind::Str) if after_comma(lx, i) => {
            let kind = match lx.s(i) {
                ":skip" => Some(MarkerKind::Skip),
                ":pending" => Some(MarkerKind::Xfail),
                ":focus" => Some(MarkerKind::Only),
                _ => None,
            };
            if let Some(kind) = kind {
                push(out, lx, i, kind, lx.s(i).into());
            }
        }
        _ => {}
    }
    i + 1
}

/// Whether the word at `i` is called as a command or function: not a method of an object (`x.skip`), not being
/// defined (`def skip`), assigned (`skip = 1`) or read as a value (`skip.size`, `skip[0]`), nor a hash key.
fn called(lx: &Lexed, i: usize) -> bool {
    let prev_dot = i > 0 && (lx.is(i - 1, b'.') || lx.is_word(i - 1, "def") || lx.is(i - 1, b':'));
    let next = i + 1;
    let glued = |c: u8| lx.is(next, c) && lx.toks.get(next).is_some_and(|t| t.start == lx.toks[i].end);
    let value = (lx.is(next, b'=') && !lx.is(next + 1, b'=') && !lx.is(next + 1, b'~'))
        || lx.is(next, b'.')
        || glued(b'[')
        || glued(b':');
    !prev_dot && !value
}

/// Whether the word at `i` is a metadata key after a comma (`it "x", skip: true do`).
fn metadata_key(lx: &Lexed, i: usize) -> bool {
    after_comma(lx, i) && lx.is(i + 1, b':') && lx.toks.get(i + 1).is_some_and(|t| t.start == lx.toks[i].end)
}

/// Whether token `i` is an argument after the first (metadata follows the description).
fn after_comma(lx: &Lexed, i: usize) -> bool {
    i > 0 && lx.is(i - 1, b',')
}
