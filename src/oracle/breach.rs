//! A breach: what changed in the oracle's own inputs since the loop started — files under `--seal`, the files
//! that define what the verify command runs (its closure), and the existing tests. Any of it rejects a
//! promise before the verify command runs, because a pass would no longer mean what it meant at setup.
//!
//! Nothing here is reverted: each item says what moved, and [`Breach::undo`] how to put it back. A change the
//! user wants is accepted from a terminal with `loopgate allow`, never by the agent.

use crate::closure::{self, PartChange};
use crate::inventory::TestMove;
use crate::messages::breach as words;
use crate::schema::Speech;
use crate::seal::FileChange;

/// Everything that moved, grouped by where it was sealed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Breach {
    /// Files matched by `--seal` globs.
    pub sealed: Vec<FileChange>,
    /// Parts of the closure's configuration files.
    pub closure: Vec<closure::Moved>,
    /// Files the traced baseline run read, ran or looked for (see `closure::observed`).
    pub observed: Vec<closure::Moved>,
    /// New files that would be found instead of something the baseline run used.
    pub shadows: Vec<closure::observed::Shadow>,
    /// Existing tests changed, skipped or deleted; setup code added around them.
    pub tests: Vec<TestMove>,
    /// Found after a passing verify run, not before it: the run itself (or a process beside it) moved them.
    pub during_run: bool,
}

impl Breach {
    pub fn is_empty(&self) -> bool {
        self.sealed.is_empty()
            && self.closure.is_empty()
            && self.observed.is_empty()
            && self.shadows.is_empty()
            && self.tests.is_empty()
    }

    /// How many items moved.
    pub fn len(&self) -> usize {
        self.sealed.len() + self.closure.len() + self.observed.len() + self.shadows.len() + self.tests.len()
    }

    /// One line per item, for the model, the user and the history (`sealed_changes`).
    pub fn lines(&self, lang: Speech) -> Vec<String> {
        let sealed = self.sealed.iter().map(|c| format!("{} ({})", c.path(), c.kind()));
        let closure = self.closure.iter().chain(&self.observed).map(|m| words::moved(lang, m));
        let shadows = self.shadows.iter().map(|s| words::shadow(lang, s));
        let tests = self
            .tests
            .iter()
            .map(|t| crate::messages::finding::line(lang, &t.path, &t.finding));
        sealed.chain(closure).chain(shadows).chain(tests).collect()
    }

    /// How to undo every item: the files to restore from git and the files to delete.
    pub fn undo(&self, lang: Speech) -> String {
        let mut restore: Vec<&str> = Vec::new();
        let mut delete: Vec<&str> = Vec::new();
        for change in &self.sealed {
            match change {
                FileChange::Added(path) => delete.push(path),
                FileChange::Changed(path) | FileChange::Deleted(path) => restore.push(path),
            }
        }
        for moved in self.closure.iter().chain(&self.observed) {
            let created = moved.part.is_empty() && moved.change == PartChange::Added;
            if created {
                delete.push(&moved.path);
            } else {
                restore.push(&moved.path);
            }
        }
        delete.extend(self.shadows.iter().map(|s| s.path.as_str()));
        let mut edit: Vec<&str> = Vec::new();
        for moved in &self.tests {
            if moved.new_file {
                edit.push(&moved.path);
            } else {
                restore.push(&moved.path);
            }
        }
        restore.sort_unstable();
        restore.dedup();
        delete.sort_unstable();
        delete.dedup();
        edit.dedup();
        words::undo(lang, &restore, &delete, &edit)
    }

    /// The section the block reason and `loopgate verify` show: title, items, how to undo.
    pub fn render(&self, lang: Speech) -> String {
        let items: Vec<String> = self.lines(lang).into_iter().map(|l| format!("- {l}")).collect();
        format!(
            "{}\n{}\n\n{}",
            words::title(lang, self.during_run),
            items.join("\n"),
            self.undo(lang)
        )
    }
}
