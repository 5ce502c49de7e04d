//! A change to a test file that weakens its existing tests, as a fact: what kind, which unit, where.
//!
//! The sentence the model reads about it is `messages::finding`; a finding that points at a line of the new
//! file carries that line's text, so the sentence can quote it and the model sees what to undo.

use serde::{Deserialize, Serialize};

use super::{MarkerKind, UnitKind};

/// A change to a test file that weakens its existing tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "finding", rename_all = "snake_case")]
pub enum Finding {
    /// An existing test's code changed (its body, decorators, title line), or a new definition replaces it.
    TestChanged { name: String, line: u32, text: String },
    /// An existing test is gone, or renamed so the runner no longer collects it (`test_x` → `_test_x`).
    TestDeleted { name: String },
    /// An existing helper, import, setup, block or other code changed (`line`/`text`: where it is now) or is
    /// gone (`line` is `None`); `old_line` is where it was.
    BlockChanged {
        kind: UnitKind,
        name: String,
        line: Option<u32>,
        text: Option<String>,
        old_line: u32,
    },
    /// New code that runs around existing tests: a fixture, hook, mock, `init`, `TestMain`, module-level code.
    SetupAdded {
        kind: UnitKind,
        what: String,
        line: u32,
        text: String,
    },
    /// A new skip / only / xfail / ignore / todo / exclusion marker.
    MarkerAdded { kind: MarkerKind, line: u32, text: String },
}

impl Finding {
    /// The line of the new file the finding points at, if any.
    pub(crate) fn line(&self) -> Option<u32> {
        match self {
            Finding::TestChanged { line, .. }
            | Finding::SetupAdded { line, .. }
            | Finding::MarkerAdded { line, .. } => Some(*line),
            Finding::BlockChanged { line, .. } => *line,
            Finding::TestDeleted { .. } => None,
        }
    }
}
