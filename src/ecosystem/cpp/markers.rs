//! C++'s markers (`testsig::markers::cpp`): GoogleTest's `GTEST_SKIP()`, a test or suite name starting with
//! `DISABLED_` (GoogleTest compiles it but never runs it), and Catch2's tags that keep a test out of a default
//! run or from failing it: `[.]` and any tag starting with `.` (hidden), `[!mayfail]`, `[!shouldfail]`.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::cpp::{CATCH2, GTEST};
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.kind(i) != Some(TokKind::Ident) || !lx.is(i + 1, b'(') {
        return i + 1;
    }
    let word = lx.s(i);
    let args = || i + 2..lx.partner(i + 1).unwrap_or(i + 2);
    if word == "GTEST_SKIP" {
        push(out, lx, i, MarkerKind::Skip, "GTEST_SKIP(".into());
    } else if GTEST.contains(&word) {
        if let Some(j) = args().find(|&j| lx.s(j).starts_with("DISABLED_")) {
            push(out, lx, j, MarkerKind::Skip, "DISABLED_".into());
        }
    } else if CATCH2.iter().any(|(name, _)| *name == word) {
        // The string arguments hold the tags.
        for j in args().filter(|&j| lx.kind(j) == Some(TokKind::Str)) {
            for tag in hiding_tags(lx.s(j)) {
                push(out, lx, j, MarkerKind::Skip, tag);
            }
        }
    }
    i + 1
}

/// The tags of a Catch2 tag string that hide a test or let it fail: `[.]`, `[.slow]`, `[!mayfail]`,
/// `[!shouldfail]`.
fn hiding_tags(text: &str) -> Vec<String> {
    text.split('[')
        .skip(1)
        .filter_map(|rest| rest.split_once(']').map(|(tag, _)| tag))
        .filter(|tag| tag.starts_with('.') || *tag == "!mayfail" || *tag == "!shouldfail")
        .map(|tag| format!("[{tag}]"))
        .collect()
}
