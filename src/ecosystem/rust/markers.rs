//! Rust's markers (`testsig::markers::rust`): `#[ignore]` and a `cfg` predicate that is false in a test build,
//! found on tokens.

use super::{Found, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if !lx.is(i, b'#') {
        return i + 1;
    }
    let open = if lx.is(i + 1, b'!') { i + 2 } else { i + 1 };
    let Some(close) = lx.partner(open).filter(|&close| lx.is(open, b'[') && close > open) else {
        return i + 1;
    };
    let attr = open + 1..close;
    let name = crate::testsig::rust::attribute_name(lx, &attr);
    let text = || attr.clone().map(|k| lx.s(k)).collect::<String>();
    match name {
        "ignore" => push(out, lx, i, MarkerKind::Ignore, "ignore".into()),
        "should_panic" => push(out, lx, i, MarkerKind::Xfail, "should_panic".into()),
        "cfg" if lx.is(attr.start + 1, b'(') => {
            let args = attr.start + 2..lx.partner(attr.start + 1).unwrap_or(close);
            if cfg(lx, args, 0) == Tri::False {
                push(out, lx, i, MarkerKind::Exclude, text());
            }
        }
        "cfg_attr" if lx.is(attr.start + 1, b'(') => {
            let args_end = lx.partner(attr.start + 1).unwrap_or(close);
            let attrs = (attr.start + 2..args_end).map(|k| lx.s(k));
            let words: Vec<&str> = attrs.collect();
            if words.contains(&"ignore") {
                push(out, lx, i, MarkerKind::Ignore, text());
            } else if words.contains(&"should_panic") {
                push(out, lx, i, MarkerKind::Xfail, text());
            }
        }
        _ => {}
    }
    // Attributes do not nest; go on after this one.
    close + 1
}

/// A `cfg` predicate's value in a test build, when it can be known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tri {
    True,
    False,
    Maybe,
}

/// Configuration names that may be set in a test build (so a predicate on them proves nothing).
const CFG_NAMES: [&str; 12] = [
    "unix",
    "windows",
    "debug_assertions",
    "doc",
    "doctest",
    "miri",
    "proc_macro",
    "overflow_checks",
    "panic",
    "fuzzing",
    "coverage",
    "ub_checks",
];

/// Evaluates the `cfg` predicate in tokens `range` with `test` set: `any()`, an unknown name and `not(test)` are
/// false; `feature = "x"`, `unix` and the like may go either way.
fn cfg(lx: &Lexed, range: std::ops::Range<usize>, depth: usize) -> Tri {
    let i = range.start;
    if depth > 16 || i >= range.end {
        return Tri::Maybe;
    }
    let word = lx.s(i);
    if lx.kind(i) != Some(TokKind::Ident) {
        return Tri::Maybe;
    }
    if lx.is(i + 1, b'(') && matches!(word, "any" | "all" | "not") {
        let close = lx.partner(i + 1).unwrap_or(range.end).min(range.end);
        let mut values = Vec::new();
        let mut k = i + 2;
        while k < close {
            let mut end = k;
            while end < close && !lx.is(end, b',') {
                end = lx.skip(end);
            }
            values.push(cfg(lx, k..end, depth + 1));
            k = end + 1;
        }
        return match word {
            "any" if values.contains(&Tri::True) => Tri::True,
            "any" if values.iter().all(|&v| v == Tri::False) => Tri::False,
            "all" if values.contains(&Tri::False) => Tri::False,
            "all" if values.iter().all(|&v| v == Tri::True) => Tri::True,
            "not" => match values.as_slice() {
                [Tri::True] => Tri::False,
                [Tri::False] => Tri::True,
                _ => Tri::Maybe,
            },
            _ => Tri::Maybe,
        };
    }
    match word {
        "test" | "true" => Tri::True,
        "false" => Tri::False,
        _ if lx.is(i + 1, b'=') => Tri::Maybe,
        _ if CFG_NAMES.contains(&word) || word.starts_with("target_") => Tri::Maybe,
        _ => Tri::False,
    }
}
