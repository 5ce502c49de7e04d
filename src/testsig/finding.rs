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
    /// `line`/`text`: its head in the new file until [`Finding::point_at_change`] finds the line that changed;
    /// `old_line`: its head at setup (0 when unknown, in records written before it was kept).
    TestChanged {
        name: String,
        line: u32,
        text: String,
        #[serde(default)]
        old_line: u32,
    },
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
    /// Points a changed test at the first line that differs from the sealed text, walking the old and the new
    /// file from the test's head (setup's `old` text, the file `new` now): the line a person would quote, not the
    /// `def` line. Leaves the head when the texts agree from there on (only lines were removed at the end).
    pub(crate) fn point_at_change(&mut self, old: &str, new: &str) {
        const MAX_CHARS: usize = 160;
        let Finding::TestChanged {
            line, text, old_line, ..
        } = self
        else {
            return;
        };
        if *old_line == 0 || *line == 0 {
            return;
        }
        let old_lines = old.lines().skip(*old_line as usize - 1);
        let mut new_lines = new.lines().skip(*line as usize - 1);
        let mut at = *line;
        for old in old_lines {
            let Some(new) = new_lines.next() else { return };
            if old.trim() != new.trim() {
                *line = at;
                *text = new.trim().chars().take(MAX_CHARS).collect();
                return;
            }
            at += 1;
        }
        if let Some(new) = new_lines.next() {
            *line = at;
            *text = new.trim().chars().take(MAX_CHARS).collect();
        }
    }

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
