//! Go's markers (`testsig::markers::go`): `t.Skip(…)` and `testing.Short()`, and the build constraints that
//! leave a file out of some builds (the one marker read from comments).

use super::{Found, object_of, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
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
pub(crate) fn constraints(lx: &Lexed, out: &mut Vec<Found>) {
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
