//! A breach: what changed in the oracle's own inputs since the loop started (every kind of `crate::inputs`:
//! files under `--seal`, the verify command's derived and observed closure, the existing tests). Any of it
//! rejects a promise before the verify command runs, because a pass would no longer mean what it meant at
//! setup.
//!
//! Nothing here is reverted: each item says what moved, and [`Breach::undo`] how to put it back. A change the
//! user wants is accepted from a terminal with `loopgate allow`, never by the agent.

use crate::closure::PartChange;
use crate::closure::observed::Shadow;
use crate::inputs::Move;
use crate::messages::breach as words;
use crate::schema::Speech;
use crate::seal::FileChange;

/// Everything that moved, in the order [`crate::inputs::Inputs::check`] reports it (the user's globs, the
/// derived closure, the observed closure and its shadows, the tests).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Breach {
    pub moves: Vec<Move>,
    /// Found after a passing verify run, not before it: the run itself (or a process beside it) moved them.
    pub during_run: bool,
}

impl Breach {
    pub(crate) fn of(moves: Vec<Move>) -> Breach {
        Breach {
            moves,
            during_run: false,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// How many items moved.
    pub(crate) fn len(&self) -> usize {
        self.moves.len()
    }

    /// One line per item, for the model, the user and the history (`sealed_changes`); the sentences are
    /// `messages::breach`'s.
    pub(crate) fn lines(&self, lang: Speech) -> Vec<String> {
        self.moves
            .iter()
            .map(|m| match m {
                Move::File(change) => words::file(change.path(), change.kind()),
                Move::Part(_, moved) => words::moved(lang, moved),
                Move::Shadow(shadow) => words::shadow(lang, shadow),
                Move::Test(test) => crate::messages::finding::line(lang, &test.path, &test.finding),
                Move::Aware(flagged) => crate::messages::aware::line(lang, flagged),
            })
            .collect()
    }

    /// How to undo every item: the files to restore from git and the files to delete; worded for the agent, or
    /// (`person`) for someone at a terminal.
    fn undo(&self, lang: Speech, person: bool) -> String {
        let mut restore: Vec<&str> = Vec::new();
        let mut delete: Vec<&str> = Vec::new();
        let mut edit: Vec<&str> = Vec::new();
        for m in &self.moves {
            match m {
                Move::File(FileChange::Added(path)) | Move::Shadow(Shadow { path, .. }) => delete.push(path),
                Move::File(FileChange::Changed(path) | FileChange::Deleted(path)) => restore.push(path),
                Move::Part(_, moved) if moved.part.is_empty() && moved.change == PartChange::Added => {
                    delete.push(&moved.path);
                }
                Move::Part(_, moved) => restore.push(&moved.path),
                Move::Test(moved) if moved.new_file => edit.push(&moved.path),
                Move::Test(moved) => restore.push(&moved.path),
                Move::Aware(flagged) => edit.push(&flagged.path),
            }
        }
        restore.sort_unstable();
        restore.dedup();
        delete.sort_unstable();
        delete.dedup();
        edit.dedup();
        if person {
            words::undo_for_person(lang, &restore, &delete, &edit)
        } else {
            words::undo(lang, &restore, &delete, &edit)
        }
    }

    /// The section the block reason and `loopgate verify` show: title, items, how to undo.
    pub(crate) fn render(&self, lang: Speech) -> String {
        self.render_for(lang, false)
    }

    /// [`Breach::render`], for a person at a terminal when `person` (no instructions meant for the agent).
    pub(crate) fn render_for(&self, lang: Speech, person: bool) -> String {
        let items: Vec<String> = self.lines(lang).into_iter().map(|l| format!("- {l}")).collect();
        format!(
            "{}\n{}\n\n{}",
            words::title(lang, self.during_run),
            items.join("\n"),
            self.undo(lang, person)
        )
    }
}
