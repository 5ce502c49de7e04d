//! When a loop ends, its iteration checkpoints are pruned to what is worth keeping (`--keep-checkpoints`):
//! by default the start (`0`, the tree before the agent touched it), the last one and the one with the best verify
//! result. Saves made by a rollback are always kept: they hold work that exists nowhere else.

use super::git::{Git, GitError};
use super::list::{self, Ref};
use super::{Keep, Name};
use crate::history::{Record, Status};
use crate::project::Project;
use crate::score::ScoreGate;
use crate::state::StateFields;

/// Removes the ended loop's checkpoints that `keep` does not keep. Best effort: an error is returned for the
/// caller to report, never to stop the loop from ending.
pub fn at_end(project: &Project, fields: &StateFields, records: &[Record]) -> Result<(), GitError> {
    let Some(track) = &fields.checkpoints else {
        return Ok(());
    };
    if track.keep == Keep::All && track.unwritten.is_empty() {
        return Ok(());
    }
    let git = Git::new(project);
    let mut refs = list::all(&git)?
        .remove(&crate::project::safe_name(&fields.loop_id))
        .unwrap_or_default();
    list::add_unwritten(&mut refs, track);
    let best = best_iteration(records, fields.score.as_ref());
    let kept = kept(&refs, track.keep, best);
    let unwritten = |name: &Name| matches!(name, Name::Iteration(n) if track.unwritten.contains(n));
    // Unwritten iterations are written when kept; only written refs are deleted.
    let written = super::unwritten_refs(&fields.loop_id, track)
        .into_iter()
        .zip(&track.unwritten)
        .filter(|(_, n)| kept.contains(&Name::Iteration(**n)))
        .map(|((refname, commit), _)| format!("update {refname} {commit}\n"));
    let deleted = refs
        .iter()
        .filter(|r| !kept.contains(&r.name) && !unwritten(&r.name))
        .map(|r| format!("delete {}\n", super::refname(&r.loop_id, r.name)));
    let input: String = written.chain(deleted).collect();
    if input.is_empty() {
        return Ok(());
    }
    git.run_with_input(&["update-ref", "--stdin"], input.into_bytes())
        .map(drop)
}

/// The names kept out of `refs`: saves always; with [`Keep::Best`] also the start, the last iteration and `best`.
pub fn kept(refs: &[Ref], keep: Keep, best: Option<u64>) -> Vec<Name> {
    let last = refs
        .iter()
        .filter_map(|r| match r.name {
            Name::Iteration(n) => Some(n),
            Name::Save(_) => None,
        })
        .max();
    refs.iter()
        .map(|r| r.name)
        .filter(|name| match (keep, name) {
            (_, Name::Save(_)) | (Keep::All, _) => true,
            (Keep::None, Name::Iteration(_)) => false,
            (Keep::Best, Name::Iteration(n)) => *n == 0 || Some(*n) == last || Some(*n) == best,
        })
        .collect()
}

/// The iteration whose verify did best: the latest that passed, else (with a score gate) the best score (the
/// latest of equals). `None` when no verify ran.
pub fn best_iteration(records: &[Record], gate: Option<&ScoreGate>) -> Option<u64> {
    let verdicts = records.iter().filter(|r| {
        matches!(
            r.status(),
            Status::Complete | Status::PromiseRejected | Status::VerifyFailed
        )
    });
    let passed = |r: &Record| r.status() == Status::Complete || r.event.verify().is_some_and(|v| v.passed);
    if let Some(r) = verdicts.clone().rev().find(|r| passed(r)) {
        return Some(r.iteration);
    }
    let gate = gate?;
    let mut best: Option<(f64, u64)> = None;
    for r in verdicts {
        let Some(score) = r.event.verify().and_then(|v| v.score) else {
            continue;
        };
        if best.is_none_or(|(b, _)| !gate.improves(b, Some(score))) {
            best = Some((score, r.iteration));
        }
    }
    best.map(|(_, iteration)| iteration)
}
