//! Java's markers (`testsig::markers::jvm`): what keeps a JUnit test from running or from failing, as code —
//! not in strings or comments. JUnit 5's `@Disabled` and its conditions (`@DisabledOnOs`, `@DisabledIf…`,
//! `@EnabledIf…`, `@EnabledOn…`: a condition that is false on the oracle's machine skips the test), JUnit 4's
//! `@Ignore`, and the assumptions that abort a test as skipped rather than failed (`assumeTrue`, `assumeFalse`,
//! `assumingThat`, `Assumptions.abort`, JUnit 4's `Assume.assume…`), with or without their class's name.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.is(i, b'@') && lx.kind(i + 1) == Some(TokKind::Ident) {
        let mut j = i + 1;
        while lx.is(j + 1, b'.') && lx.kind(j + 2) == Some(TokKind::Ident) {
            j += 2;
        }
        let name = lx.s(j);
        if name == "Disabled"
            || name == "Ignore"
            || name.starts_with("DisabledIf")
            || name.starts_with("DisabledOn")
            || name.starts_with("DisabledFor")
            || name.starts_with("EnabledIf")
            || name.starts_with("EnabledOn")
            || name.starts_with("EnabledFor")
        {
            push(out, lx, i, MarkerKind::Skip, format!("@{name}"));
        }
        return j + 1;
    }
    if lx.kind(i) != Some(TokKind::Ident) || !lx.is(i + 1, b'(') {
        return i + 1;
    }
    let word = lx.s(i);
    let qualified = i >= 2 && lx.is(i - 1, b'.');
    let owner = if qualified { lx.s(i - 2) } else { "" };
    let assumption = word.starts_with("assume") || word == "assumingThat";
    if assumption || (word == "abort" && owner == "Assumptions") {
        push(out, lx, i, MarkerKind::Skip, word.to_string());
    }
    i + 1
}
