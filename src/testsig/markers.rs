//! Markers: the spellings that switch a test off, narrow a run to a few tests, or turn a failure into a pass.
//!
//! Found on tokens, so text in comments and strings never counts — except Go build constraints, which are
//! comments by design. Each marker carries a key (the spelling that matched, e.g. `mark.skip`, `it.only`,
//! `cfg(FALSE)`) so that signatures can count them without caring how the surrounding line is formatted.
//! Each language's spellings are in its ecosystem's folder (`src/ecosystem/<name>/markers.rs`); this table
//! dispatches and holds what they share.

include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/markers.rs"));

use super::MarkerKind;
use super::lex::{Lexed, TokKind};

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
pub(crate) fn find(lx: &Lexed) -> Vec<Found> {
    let mut out = Vec::new();
    let mut i = 0;
    let language = lx.language;
    while i < lx.toks.len() {
        let step = language.marker(lx, i, &mut out);
        i = step.max(i + 1);
    }
    language.file_markers(lx, &mut out);
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
