//! Imports read as a module and the names they bind, so that adding a name to an existing import (the usual
//! companion of a new test) is recognized as harmless, and an import that rebinds the test framework's own
//! names (`import { expect } from './fake'`, `import fake as pytest`) is recognized as not.
//!
//! The module is the import's key: `mypkg.tokenizer`, `../src/parse`, `std::collections`, and for Python's
//! `import a, b`, Go's import block and the like, the keyword itself. Names are written as in the source with
//! white space normalized (`b as c`, `f "fmt"`), sorted. Each language's statements are read in its folder
//! (`src/ecosystem/<name>/imports.rs`); this module holds what they share and [`classify`].

include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/imports.rs"));

use std::ops::Range;

use super::lex::{Lexed, TokKind};
use super::{Node, UnitKind};

/// What an import statement brings in.
pub(crate) struct Import {
    pub(crate) module: String,
    pub(crate) names: Vec<String>,
    /// Whether it binds a name the test framework owns, from somewhere else; or runs a module only for its side
    /// effects (`import './setup'`, Go's `_ "pkg"`).
    pub(crate) suspicious: bool,
}

/// Tokens `from..to` as text: punctuation joined tight, one space between words.
fn text(lx: &Lexed, from: usize, to: usize) -> String {
    let mut out = String::new();
    let mut prev_word = false;
    for i in from..to {
        let word = matches!(lx.kind(i), Some(TokKind::Ident | TokKind::Num | TokKind::Str));
        if word && prev_word {
            out.push(' ');
        }
        out.push_str(lx.s(i));
        prev_word = word;
    }
    out
}

/// The comma-separated items of tokens `range` (brackets stepped over), as text; a trailing comma gives none.
fn items(lx: &Lexed, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    let mut i = range.start;
    while i < range.end {
        if lx.is(i, b',') {
            out.push(start..i);
            start = i + 1;
            i += 1;
        } else {
            i = lx.skip(i).min(range.end);
        }
    }
    out.push(start..range.end);
    out.retain(|item| !item.is_empty());
    out
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

/// The string literal's content, without its quotes.
fn unquote(text: &str) -> &str {
    text.get(1..text.len().saturating_sub(1)).unwrap_or(text)
}

/// Makes `node` (built as an import) what the import is: an import named by its module with its names, or
/// other code when it is suspicious. Statements that are not read as imports keep their first line as name.
pub(crate) fn classify(mut node: Node, import: Option<Import>) -> Node {
    node.kind = UnitKind::Import;
    if let Some(import) = import {
        if import.suspicious {
            node.kind = UnitKind::Other;
        } else {
            node.name = import.module;
            node.names = import.names;
        }
    }
    node
}
