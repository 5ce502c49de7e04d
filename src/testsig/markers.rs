//! Markers: the spellings that switch a test off, narrow a run to a few tests, or turn a failure into a pass.
//!
//! Found on tokens, so text in comments and strings never counts — except Go build constraints, which are
//! comments by design. Each marker carries a key (the spelling that matched, e.g. `mark.skip`, `it.only`,
//! `cfg(FALSE)`) so that signatures can count them without caring how the surrounding line is formatted.
//! Each language's spellings are in its ecosystem's folder (`src/ecosystem/<name>/markers.rs`); this table
//! dispatches and holds what they share.

#[path = "../ecosystem/cpp/markers.rs"]
mod cpp;
#[path = "../ecosystem/go/markers.rs"]
mod go;
#[path = "../ecosystem/js/markers.rs"]
mod js;
#[path = "../ecosystem/jvm/markers.rs"]
mod jvm;
#[path = "../ecosystem/php/markers.rs"]
mod php;
#[path = "../ecosystem/python/markers.rs"]
mod python;
#[path = "../ecosystem/ruby/markers.rs"]
mod ruby;
#[path = "../ecosystem/rust/markers.rs"]
mod rust;
#[path = "../ecosystem/shell/markers.rs"]
mod shell;

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
            Lang::Python => python::at(lx, i, &mut out),
            Lang::JavaScript => js::at(lx, i, &mut out),
            Lang::Rust => rust::at(lx, i, &mut out),
            Lang::Go => go::at(lx, i, &mut out),
            Lang::Shell => shell::at(lx, i, &mut out),
            Lang::Cpp => cpp::at(lx, i, &mut out),
            Lang::Ruby => ruby::at(lx, i, &mut out),
            Lang::Php => php::at(lx, i, &mut out),
            Lang::Java => jvm::at(lx, i, &mut out),
        };
        i = step.max(i + 1);
    }
    if lang == Lang::Go {
        go::constraints(lx, &mut out);
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
