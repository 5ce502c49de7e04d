//! Finding, reconciling, saving and ending the loop of a project — the one place that touches the seal, the
//! state file and the history together, so every command and hook follows the same rules:
//!
//! - the seal is authoritative; the state file is a mirror rewritten from it;
//! - a deleted, unreadable or edited state file is restored from the seal and recorded as `tamper_detected`
//!   (an unreadable one is kept aside, never deleted);
//! - the history and the verify logs carry marks in the seal; lines or logs changed by anyone but loopgate are
//!   reported as `tamper_detected` (they cannot be restored, so the mark is re-taken after reporting);
//! - ending a loop appends the final record, marks the seal ended, removes the state file, then the seal.

use crate::history::{Event, event::Tamper};
use std::path::PathBuf;

use crate::error::Error;
use crate::history::{self, Record};
use crate::project::Project;
use crate::seal::{self, FileMark, MarkCheck, Seal, Store};
use crate::state::{State, StateError};

/// What a project holds.
pub(crate) enum Lookup {
    /// No loop: no seal and no state file.
    None,
    /// A state file without a seal: not enforced (see README, "fail open").
    Unsealed(PathBuf),
    /// A loop, reconciled or not yet.
    Loop(Box<ActiveLoop>),
}

/// A loop with its seal; `state` equals the seal's state once [`ActiveLoop::reconcile`] ran.
pub(crate) struct ActiveLoop {
    pub(crate) project: Project,
    pub(crate) store: Store,
    pub(crate) seal: Seal,
    /// What was found wrong with the state file and overruled, in words for the model and the user.
    pub(crate) tamper: Vec<String>,
    /// Problems the user should hear about that changed no decision (the state file could not be written).
    pub(crate) warnings: Vec<String>,
}

/// Takes the project lock, which serializes every read-modify-write of a loop (bounded wait).
pub(crate) fn lock(project: &Project) -> Result<crate::fsutil::LockGuard, Error> {
    crate::fsutil::LockGuard::acquire(&project.lock_path()).map_err(|source| Error::Io {
        action: "lock",
        path: project.lock_path(),
        source,
    })
}

/// Takes the project lock for a command that acts only on a loop that exists (`cancel`, `resume`, `allow`):
/// `None`, creating nothing, when the project has no lock file and no loop (no seal, no state file). Such a
/// command that finds nothing to act on leaves the project as it found it — a `.claude/loopgate/lock` in a
/// project that never ran a loop reads as one that did, and lands in the user's `git status`. Where either
/// exists, the lock is taken as [`lock`] takes it.
pub(crate) fn lock_existing(project: &Project) -> Result<Option<crate::fsutil::LockGuard>, Error> {
    let any = project.lock_path().exists() || project.state_path().exists() || Store::open().path_for(project).exists();
    if any { lock(project).map(Some) } else { Ok(None) }
}

/// Looks up the project's loop from the seal alone (cheap: no state file parsing). Finishes ending a loop whose
/// seal says it ended (a crash between the steps of [`ActiveLoop::end`]).
pub(crate) fn lookup(project: &Project) -> Result<Lookup, Error> {
    let store = Store::open();
    let Some(seal) = store.load(project)? else {
        recover_held_out(project);
        let state = project.state_path();
        return Ok(if state.exists() {
            Lookup::Unsealed(state)
        } else {
            Lookup::None
        });
    };
    if seal.ended {
        let _ = std::fs::remove_file(project.state_path());
        store.remove(project);
        recover_held_out(project);
        return Ok(Lookup::None);
    }
    Ok(Lookup::Loop(Box::new(ActiveLoop {
        project: project.clone(),
        store,
        seal,
        tamper: Vec::new(),
        warnings: Vec::new(),
    })))
}

/// Puts back the held-out files of a loop that ended without doing so (see `holdout::recover_orphan`), and
/// tells whoever reads stderr (a terminal command's user; a hook's is logged by Claude Code).
fn recover_held_out(project: &Project) {
    match crate::holdout::recover_orphan(project) {
        None => {}
        Some(Ok(restored)) => eprint!(
            "{}",
            crate::messages::holdout::restored(crate::schema::Speech::En, &restored)
        ),
        Some(Err(err)) => eprintln!("loopgate: {err}; the held-out files wait safely in the store"),
    }
}

impl ActiveLoop {
    /// The loop's state, as sealed.
    pub(crate) fn state(&self) -> State {
        self.seal.state()
    }

    pub(crate) fn loop_id(&self) -> &str {
        &self.seal.fields.config.loop_id
    }

    /// Compares the state file with the seal; restores it where it differs and records what was found.
    pub(crate) fn reconcile(&mut self) -> Result<(), Error> {
        let path = self.project.state_path();
        let sealed = self.seal.state();
        // When loopgate's own write did not finish last time, the file holds an earlier state of the loop; when
        // it holds the bytes loopgate last wrote, it is the sealed state.
        // A link in place of the state file (to `~/.bashrc`, or to a copy the agent keeps) is neither read as the
        // state nor written through: it is kept aside like a corrupt file (renamed, never followed) and the file
        // restored from the seal.
        let linked = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let loaded = if linked {
            Err(StateError::Corrupt {
                path: path.clone(),
                problem: "it is a symbolic link loopgate did not make".into(),
            })
        } else if self.seal.mirror_unwritten || self.mirror_as_written(&path) {
            Ok(Some(sealed.clone()))
        } else {
            State::load(&path)
        };
        let problem = match loaded {
            Ok(Some(found)) if found == sealed => None,
            Ok(Some(found)) => {
                let fields = seal::differences(&sealed, &found);
                (!fields.is_empty()).then(|| format!("the state file's {} changed", quote_list(&fields)))
            }
            Ok(None) => Some("the state file was deleted".to_string()),
            Err(StateError::Corrupt { problem, .. }) => {
                let aside = keep_aside(&path).map_err(|source| Error::Io {
                    action: "keep aside corrupt state file",
                    path: path.clone(),
                    source,
                })?;
                Some(format!(
                    "the state file was unreadable ({problem}); it was kept at `{}`",
                    aside.display()
                ))
            }
            Err(err) => return Err(err.into()),
        };
        if problem.is_some() || self.seal.mirror_unwritten {
            let text = self.render_mirror(&sealed);
            self.write_mirror(text);
        }
        let found: Vec<String> = problem.into_iter().chain(self.check_marks()?).collect();
        for what in found {
            let record = Record::new(
                self.loop_id(),
                sealed.fields.progress.iteration,
                Event::TamperDetected(Tamper { what: what.clone() }),
            );
            self.record(&record)?;
            self.tamper.push(what);
        }
        Ok(())
    }

    /// Checks the history and verify-log marks; forgets the marks of logs found changed (they were reported).
    fn check_marks(&mut self) -> Result<Vec<String>, Error> {
        let io = |path: PathBuf| {
            move |source| Error::Io {
                action: "check",
                path,
                source,
            }
        };
        let mut found = Vec::new();
        let history = self.project.history_path();
        if let Some(mark) = &self.seal.history {
            let what = match mark.check(&history).map_err(io(history.clone()))? {
                MarkCheck::Unchanged => None,
                MarkCheck::Missing => Some("the history file was deleted"),
                MarkCheck::Truncated => Some("the history file was truncated"),
                MarkCheck::Edited => Some("lines of this loop's history were edited"),
                MarkCheck::Appended => Some("lines loopgate did not write were appended to the history"),
            };
            found.extend(what.map(str::to_string));
        }
        let root = self.project.root.clone();
        let mut kept = Vec::new();
        for (relative, mark) in std::mem::take(&mut self.seal.logs) {
            let path = root.join(&relative);
            match mark.check(&path).map_err(io(path.clone()))? {
                MarkCheck::Unchanged => kept.push((relative, mark)),
                MarkCheck::Missing => found.push(format!("the verify log `{relative}` was deleted")),
                _ => found.push(format!("the verify log `{relative}` was replaced or edited")),
            }
        }
        self.seal.logs = kept;
        Ok(found)
    }

    /// Marks a verify log loopgate just wrote, keeping the most recent [`seal::MARKED_LOGS`].
    pub(crate) fn mark_log(&mut self, path: &std::path::Path) {
        let Ok(mark) = FileMark::take(path, 0) else { return };
        let relative = path
            .strip_prefix(&self.project.root)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        self.seal.logs.retain(|(p, _)| *p != relative);
        self.seal.logs.push((relative, mark));
        let excess = self.seal.logs.len().saturating_sub(seal::MARKED_LOGS);
        self.seal.logs.drain(..excess);
    }

    /// Makes `state` the loop's state: seal first (authoritative), then the mirror.
    ///
    /// Once the seal is written the loop has moved on, whatever happens to the mirror: a mirror that cannot be
    /// written (a full disk) changes no decision and is not an error. The seal remembers it, so the next
    /// reconcile restores the file without calling loopgate's own unfinished write tampering, and the user is
    /// told through [`ActiveLoop::warnings`].
    pub(crate) fn save(&mut self, state: &State) -> Result<(), Error> {
        self.seal.set_state(state);
        self.persist(state)
    }

    /// Writes the loop as the seal holds it now, seal first, then the mirror (see [`ActiveLoop::save`]). A stop
    /// changes `seal.fields` in place and calls this once: the loop's fields have one copy, the seal's.
    pub(crate) fn write(&mut self) -> Result<(), Error> {
        let state = self.seal.state(); // the state file is rendered from the fields and the task together
        self.persist(&state)
    }

    /// Writes the seal, which already holds `state`, then the mirror.
    fn persist(&mut self, state: &State) -> Result<(), Error> {
        self.seal.mirror_unwritten = false;
        let text = self.render_mirror(state);
        self.store.save(&self.project, &self.seal)?;
        if self.write_mirror(text) {
            // Best effort: if this write fails too, the seal on disk still holds the state; the next stop then
            // finds the stale mirror and reports it as changed, the one case left to a person to judge.
            let _ = self.store.save(&self.project, &self.seal);
        }
        Ok(())
    }

    /// Whether the state file holds exactly the bytes loopgate last wrote from the seal (see
    /// [`Seal::mirror_sha256`]).
    fn mirror_as_written(&self, path: &std::path::Path) -> bool {
        let Some(want) = &self.seal.mirror_sha256 else {
            return false;
        };
        crate::fsutil::read_optional(path)
            .ok()
            .flatten()
            .is_some_and(|bytes| sha256(&bytes) == *want)
    }

    /// Renders the state file for `state` and notes its hash in the seal (in memory), for the next reconcile.
    fn render_mirror(&mut self, state: &State) -> Result<String, StateError> {
        let path = self.project.state_path();
        let text = state.render().map_err(|problem| StateError::Write {
            path,
            source: std::io::Error::other(problem),
        });
        self.seal.mirror_sha256 = text.as_ref().ok().map(|text| sha256(text.as_bytes()));
        text
    }

    /// Writes the state file; on failure notes it in the seal (in memory) and in the warnings. Returns whether
    /// the note was newly taken (the caller then writes the seal).
    fn write_mirror(&mut self, text: Result<String, StateError>) -> bool {
        let path = self.project.state_path();
        match text.and_then(|text| State::write_rendered(&path, &text)) {
            Ok(()) => {
                self.seal.mirror_unwritten = false;
                false
            }
            Err(err) => {
                self.warnings.push(format!(
                    "{err}; the loop goes on from its seal, and the file is rewritten once it can be"
                ));
                let newly = !self.seal.mirror_unwritten;
                self.seal.mirror_unwritten = true;
                newly
            }
        }
    }

    /// Appends a record to the project's history and re-marks this loop's part of it in the seal.
    pub(crate) fn record(&mut self, record: &Record) -> Result<(), Error> {
        self.record_unsaved(record)?;
        self.store.save(&self.project, &self.seal)?;
        Ok(())
    }

    /// [`ActiveLoop::record`] without writing the seal; the caller writes it next ([`ActiveLoop::save`], or
    /// ending the loop), so a stop writes the seal once, not twice. Until then the seal file's history mark is one
    /// record behind, as it would be after a crash between the append and the seal write.
    pub(crate) fn record_unsaved(&mut self, record: &Record) -> Result<(), Error> {
        let path = self.project.history_path();
        let before = std::fs::metadata(&path).ok();
        let range = history::append(&path, record)?;
        let start = self
            .seal
            .history
            .as_ref()
            .filter(|m| m.start < range.start)
            .map_or(range.start, |m| m.start);
        // Goes on from the last mark when the file was as it left it: a stop reads its own record, not the loop's
        // whole history (see `seal::marks`).
        let mark =
            FileMark::after_append(&path, start, self.seal.history.as_ref(), before.as_ref()).map_err(|source| {
                Error::Io {
                    action: "mark",
                    path,
                    source,
                }
            })?;
        self.seal.history = Some(mark);
        Ok(())
    }

    /// Puts back the agent's test files that a killed oracle run left in the stash (see `testswap`); a no-op
    /// (one failed open) when no run was cut short.
    pub(crate) fn put_back_tests(&self) -> Result<(), Error> {
        let store = &self.store;
        let Some(journal) =
            store.load_companion::<crate::testswap::Journal>(&self.project, crate::seal::SWAP_JOURNAL)?
        else {
            crate::process::tether::aside(false);
            return Ok(());
        };
        crate::testswap::put_back(&self.project.root, &journal.moved).map_err(|source| Error::Io {
            action: "put back the test files set aside for the oracle's run under",
            path: crate::testswap::stash_dir(&self.project.root),
            source,
        })?;
        store.remove_companion(&self.project, crate::seal::SWAP_JOURNAL);
        crate::process::tether::aside(false);
        Ok(())
    }

    /// Puts the held-out tests back in the project (see `holdout`); what to tell the user. A failure does not
    /// keep the loop from ending (never trap a user): the files stay safe in the store, and the next loopgate
    /// command in this project tries again.
    fn put_back_holdout(&self) -> String {
        if self.seal.holdout.is_none() {
            return String::new();
        }
        let lang = self.seal.fields.config.lang;
        match crate::holdout::restore(&self.project) {
            Ok(restored) => crate::messages::holdout::restored(lang, &restored),
            Err(err) => format!(
                "loopgate: {err}; the held-out files wait safely and are put back at the next loopgate command\n"
            ),
        }
    }

    /// Ends the loop with its final record. Crash-safe order: record, mark ended, remove state, remove seal.
    /// Returns what the user should hear about the held-out tests put back (empty when the loop had none).
    pub(crate) fn end(mut self, record: &Record) -> Result<String, Error> {
        debug_assert!(record.status().ends_loop());
        self.put_back_tests()?;
        let told = self.put_back_holdout();
        self.record_unsaved(record)?;
        self.store.mark_ended(&self.project, &self.seal)?;
        let path = self.project.state_path();
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(Error::Io {
                    action: "remove state file",
                    path,
                    source,
                });
            }
        }
        self.store.remove(&self.project);
        self.prune_checkpoints();
        Ok(told)
    }

    /// Prunes checkpoints once the loop is gone (`--keep-checkpoints`, see `checkpoint::prune`); best effort.
    fn prune_checkpoints(&self) {
        if self.seal.fields.progress.checkpoints.is_none() {
            return;
        }
        let fields = &self.seal.fields;
        let _ = crate::checkpoint::prune::at_end(
            &self.project,
            &fields.config.loop_id,
            fields.progress.checkpoints.as_ref(),
        );
    }
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    crate::fsutil::hex(&sha2::Sha256::digest(bytes))
}

/// Moves a corrupt state file aside (never deletes it) under a name no earlier copy has, and returns it.
fn keep_aside(path: &std::path::Path) -> std::io::Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let name = path
        .file_name()
        .map_or_else(|| "state".into(), |n| n.to_string_lossy().into_owned());
    let aside = (0..)
        .map(|n| {
            path.with_file_name(if n == 0 {
                format!("{name}.corrupt-{stamp}")
            } else {
                format!("{name}.corrupt-{stamp}-{n}")
            })
        })
        .find(|candidate| !candidate.exists())
        .unwrap_or_else(|| path.with_extension("corrupt"));
    crate::fsutil::rename_beside(path, &aside)?;
    Ok(aside)
}

/// `` `a`, `b` and `c` ``
pub(crate) fn quote_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
