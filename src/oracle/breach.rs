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
    /// The moved files git does not track (or that lie outside the project, or with no repository at all):
    /// `git checkout` cannot put them back, so the advice says to restore them by hand.
    pub untracked: Vec<String>,
}

impl Breach {
    /// What moved in the project at `root`; asks git which of the moved files it can restore.
    pub(crate) fn of(moves: Vec<Move>, root: &std::path::Path) -> Breach {
        let paths: Vec<&str> = moves.iter().map(Move::path).collect();
        let tracked = tracked(root, &paths);
        let mut untracked: Vec<String> = paths
            .into_iter()
            .filter(|path| !tracked.contains(*path))
            .map(str::to_string)
            .collect();
        untracked.sort();
        untracked.dedup();
        Breach {
            moves,
            during_run: false,
            untracked,
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
        // Outside the project (an absolute path): possibly the user's own change to their machine.
        let is_outside = |path: &&str| std::path::Path::new(path).is_absolute();
        let mut outside: Vec<&str> = restore.iter().chain(&delete).copied().filter(is_outside).collect();
        restore.retain(|path| !is_outside(path));
        delete.retain(|path| !is_outside(path));
        outside.sort_unstable();
        outside.dedup();
        let (restore, by_hand): (Vec<&str>, Vec<&str>) = restore
            .into_iter()
            .partition(|path| !self.untracked.iter().any(|u| u == path));
        let (mut restore, mut by_hand) = (restore, by_hand);
        restore.sort_unstable();
        restore.dedup();
        by_hand.sort_unstable();
        by_hand.dedup();
        delete.sort_unstable();
        delete.dedup();
        edit.dedup();
        if person {
            words::undo_for_person(lang, &restore, &by_hand, &delete, &edit, &outside)
        } else {
            words::undo(lang, &restore, &by_hand, &delete, &edit, &outside)
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

/// Which of `paths` (project-relative) git tracks in the repository at `root`: none without git or a
/// repository. Asked once per rejection.
fn tracked(root: &std::path::Path, paths: &[&str]) -> std::collections::BTreeSet<String> {
    let inside: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| !std::path::Path::new(p).is_absolute())
        .collect();
    if inside.is_empty() {
        return std::collections::BTreeSet::new();
    }
    let output = crate::confine::git(root, &["--literal-pathspecs", "ls-files", "-z", "--"])
        .args(&inside)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    match output {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        _ => std::collections::BTreeSet::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    fn git(root: &std::path::Path, args: &[&str]) {
        let ok = Command::new("git").arg("-C").arg(root).args(args).status();
        assert!(ok.is_ok_and(|s| s.success()), "git {args:?}");
    }

    /// Issue 29: what lies outside the project may be the user's own change; the agent is never told to delete
    /// or put it back, only to undo what it did there itself.
    #[test]
    fn the_advice_never_tells_the_agent_to_delete_or_restore_what_lies_outside_the_project() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let moves = vec![
            Move::File(FileChange::Added("/home/u/.inputrc".into())),
            Move::File(FileChange::Changed("/home/u/.npmrc".into())),
            Move::File(FileChange::Added("tests/new.txt".into())),
        ];
        for lang in [Speech::En, Speech::Zh] {
            let text = Breach::of(moves.clone(), tmp.path()).render(lang);
            assert!(!text.contains("rm -- /home"), "{text}");
            assert!(!text.contains("put back `/home"), "{text}");
            assert!(text.contains("`rm -- tests/new.txt`"), "{text}");
            assert!(text.contains("`/home/u/.inputrc`, `/home/u/.npmrc`"), "{text}");
        }
        let en = Breach::of(moves, tmp.path()).render(Speech::En);
        assert!(
            en.contains("outside the project, undo only what you did there yourself"),
            "{en}"
        );
    }

    #[test]
    fn the_advice_restores_from_git_only_what_git_tracks() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        std::fs::create_dir_all(root.join("tests")).expect("mkdir");
        std::fs::write(root.join("tests/kept.txt"), "a\n").expect("write");
        let moves = || {
            vec![
                Move::File(FileChange::Changed("tests/kept.txt".into())),
                Move::File(FileChange::Changed("tests/loose.txt".into())),
                Move::File(FileChange::Added("tests/new.txt".into())),
            ]
        };
        // No repository: nothing is restored from git.
        let text = Breach::of(moves(), root).render(Speech::En);
        assert!(!text.contains("git checkout --"), "{text}");
        assert!(
            text.contains("put back `tests/kept.txt`, `tests/loose.txt` as they were"),
            "{text}"
        );
        assert!(text.contains("`rm -- tests/new.txt`"), "{text}");
        git(root, &["init", "-q"]);
        git(root, &["add", "tests/kept.txt"]);
        let text = Breach::of(moves(), root).render_for(Speech::En, true);
        assert!(text.contains("`git checkout -- tests/kept.txt`"), "{text}");
        assert!(text.contains("put back `tests/loose.txt` as it was"), "{text}");
        assert!(text.contains("`rm -- tests/new.txt`"), "{text}");
    }
}
