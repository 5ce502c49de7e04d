//! Markers: the spellings that switch a test off, narrow a run to a few tests, or turn a failure into a pass.
//!
//! Found on tokens, so text in comments and strings never counts — except Go build constraints, which are
//! comments by design. Each marker carries a key (the spelling that matched, e.g. `mark.skip`, `it.only`,
//! `cfg(FALSE)`) so that signatures can count them without caring how the surrounding line is formatted.

use super::lex::{Lexed, TokKind};
use super::{Lang, MarkerKind};

/// A marker and where it is.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) kind: MarkerKind,
    pub(crate) line: u32,
    /// Byte offset, to find the unit it belongs to.
    pub(crate) pos: usize,
    pub(crate) key: String,
}

/// The markers of a lexed file, in order.
pub(crate) fn find(lang: Lang, lx: &Lexed) -> Vec<Found> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lx.toks.len() {
        let step = match lang {
            Lang::Python => python(lx, i, &mut out),
            Lang::JavaScript => js(lx, i, &mut out),
            Lang::Rust => rust(lx, i, &mut out),
            Lang::Go => go(lx, i, &mut out),
        };
        i = step.max(i + 1);
    }
    if lang == Lang::Go {
        go_constraints(lx, &mut out);
    }
    out
}

fn push(out: &mut Vec<Found>, lx: &Lexed, i: usize, kind: MarkerKind, key: String) {
    let tok = lx.toks[i];
    out.push(Found {
        kind,
        line: tok.line,
        pos: tok.start,
        key,
    });
}

/// The identifier two tokens back, if the token before `i` is a `.`: the object of a member access.
fn object_of<'a>(lx: &Lexed<'a>, i: usize) -> Option<&'a str> {
    (i >= 2 && lx.is(i - 1, b'.') && lx.kind(i - 2) == Some(TokKind::Ident)).then(|| lx.s(i - 2))
}

fn python(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.kind(i) != Some(TokKind::Ident) {
        return i + 1;
    }
    let word = lx.s(i);
    let object = object_of(lx, i);
    let decorator = i >= 1 && lx.is(i - 1, b'@');
    let called = lx.is(i + 1, b'(');
    use MarkerKind::{Exclude, Skip, Xfail};
    let found = match (word, object) {
        ("skip" | "skipif", Some("mark")) => Some((Skip, format!("mark.{word}"))),
        ("xfail", Some("mark")) => Some((Xfail, "mark.xfail".into())),
        ("skip" | "importorskip", Some("pytest")) if called => Some((Skip, format!("pytest.{word}("))),
        ("xfail", Some("pytest")) if called => Some((Xfail, "pytest.xfail(".into())),
        ("skip" | "skipIf" | "skipUnless", Some("unittest")) => Some((Skip, format!("unittest.{word}"))),
        ("skip" | "skipIf" | "skipUnless" | "skipif", None) if decorator => Some((Skip, format!("@{word}"))),
        ("xfail", None) if decorator => Some((Xfail, "@xfail".into())),
        ("expectedFailure", _) if decorator || object.is_some() => Some((Xfail, "expectedFailure".into())),
        ("skipTest", Some(_)) if called => Some((Skip, "skipTest(".into())),
        ("SkipTest" | "Skipped", _) if (i.saturating_sub(3)..i).any(|k| lx.is_word(k, "raise")) => {
            Some((Skip, format!("raise {word}")))
        }
        // `__test__ = False` in a module or class, or `test_x.__test__ = False` on a function.
        ("__test__", _) if lx.is(i + 1, b'=') && !lx.is(i + 2, b'=') => Some((Exclude, "__test__ =".into())),
        ("collect_ignore" | "collect_ignore_glob", None) => Some((Exclude, word.to_string())),
        _ => None,
    };
    if let Some((kind, key)) = found {
        push(out, lx, i, kind, key);
    }
    i + 1
}

/// Test and block callees whose `x` form skips and `f` form focuses.
const JS_SKIPPED: [&str; 6] = ["xit", "xtest", "xspecify", "xdescribe", "xcontext", "xsuite"];
const JS_FOCUSED: [&str; 4] = ["fit", "ftest", "fdescribe", "fcontext"];

fn js(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
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
    let test_api = super::js::TEST_ROOTS.contains(&root_word) || super::js::CONTAINER_ROOTS.contains(&root_word);
    // `this.skip()` (Mocha), `ctx.skip()` (Vitest), `t.skip()` / `t.todo()` (node:test) skip from inside a test.
    let skips_itself = matches!(word, "skip" | "todo") && lx.is(i + 1, b'(');
    if test_api || skips_itself {
        let key = (root..=i).map(|k| lx.s(k)).collect::<String>();
        push(out, lx, i, kind, key);
    }
    i + 1
}

fn rust(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if !lx.is(i, b'#') {
        return i + 1;
    }
    let open = if lx.is(i + 1, b'!') { i + 2 } else { i + 1 };
    let Some(close) = lx.partner(open).filter(|&close| lx.is(open, b'[') && close > open) else {
        return i + 1;
    };
    let attr = open + 1..close;
    let name = super::rust::attribute_name(lx, &attr);
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

fn go(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.kind(i) != Some(TokKind::Ident) || !lx.is(i + 1, b'(') {
        return i + 1;
    }
    let word = lx.s(i);
    match (word, object_of(lx, i)) {
        ("Skip" | "Skipf" | "SkipNow", Some(_)) => push(out, lx, i, MarkerKind::Skip, format!(".{word}(")),
        ("Short", Some("testing")) => push(out, lx, i, MarkerKind::Skip, "testing.Short(".into()),
        _ => {}
    }
    i + 1
}

/// `//go:build …` and `// +build …` lines: they exclude the file from some builds (`ignore` from all).
fn go_constraints(lx: &Lexed, out: &mut Vec<Found>) {
    let mut found = Vec::new();
    for comment in &lx.comments {
        let text = lx.text.get(comment.start..comment.end).unwrap_or("");
        if text.starts_with("//go:build") || text.starts_with("// +build") {
            found.push(Found {
                kind: MarkerKind::Exclude,
                line: comment.line,
                pos: comment.start,
                key: text.split_whitespace().collect::<Vec<_>>().join(" "),
            });
        }
    }
    out.extend(found);
    out.sort_by_key(|found| found.pos);
}
