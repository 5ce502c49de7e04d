//! When a loop ends, checkpoints are pruned to what a person is likely to come back to (`--keep-checkpoints`).
//!
//! By default (`best`) every checkpoint of the [`RECENT_LOOPS`] most recent loops is kept — after a loop stops
//! at its limit, the iteration before it went wrong is still there to look at and return to — and a loop that
//! falls out of that window is pruned to the start (`0`, the tree before the agent touched it), its last
//! checkpoint and the one with the best verify result. `all` keeps a loop whole for good (a `keep-all` ref
//! beside its checkpoints says so); `none` removes the loop's checkpoints when it ends. Saves made by a rollback
//! are always kept: they hold work that exists nowhere else. Pruning happens only when a loop ends (one
//! `for-each-ref` and one `update-ref --stdin`), never at a stop.

use super::git::{Git, GitError};
use super::list::{self, Ref};
use super::{Keep, Name, Track};
use crate::history::{self, Record, Status};
use crate::project::Project;
use crate::score::ScoreGate;

/// How many of the most recent loops keep every checkpoint (the loop that just ended is one of them).
pub(crate) const RECENT_LOOPS: usize = 3;

/// The marker ref name beside a loop's checkpoints when it was run with `--keep-checkpoints all`.
const KEEP_ALL: &str = "keep-all";

/// Writes the ended loop's unwritten checkpoints, applies its `--keep-checkpoints`, and prunes loops that fell
/// out of the [`RECENT_LOOPS`] window. Best effort: an error is returned for the caller to report, never to stop
/// the loop from ending.
pub(crate) fn at_end(project: &Project, loop_id: &str, track: Option<&Track>) -> Result<(), GitError> {
    let Some(track) = track else {
        return Ok(());
    };
    let git = Git::new(project);
    let mut loops = list::all(&git)?;
    let id = crate::project::safe_name(loop_id);
    let mut refs = loops.remove(&id).unwrap_or_default();
    list::add_unwritten(&mut refs, track);
    // This loop stays whole (it is the most recent), unless it asked for none.
    let this_keep = if track.keep == Keep::None {
        Keep::None
    } else {
        Keep::All
    };
    let kept_now = kept(&refs, this_keep, None);
    let unwritten = |name: &Name| matches!(name, Name::Iteration(n) if track.unwritten.contains(n));
    // Unwritten iterations are written when kept; only written refs are deleted.
    let written = super::unwritten_refs(loop_id, track)
        .into_iter()
        .zip(&track.unwritten)
        .filter(|(_, n)| kept_now.contains(&Name::Iteration(**n)))
        .map(|((refname, commit), _)| format!("update {refname} {commit}\n"));
    let deleted = refs
        .iter()
        .filter(|r| !kept_now.contains(&r.name) && !unwritten(&r.name))
        .map(|r| format!("delete {}\n", super::refname(&r.loop_id, r.name)));
    let mut input: String = written.chain(deleted).collect();
    if track.keep == Keep::All
        && let Some(last) = refs
            .last()
            .map(|r| r.commit.clone())
            .or_else(|| super::unwritten_refs(loop_id, track).pop().map(|(_, commit)| commit))
    {
        input.push_str(&format!("update {}{id}/{KEEP_ALL} {last}\n", super::REFS));
    }
    input.push_str(&older_loops(project, &git, &loops)?);
    if input.is_empty() {
        return Ok(());
    }
    git.run_with_input(&["update-ref", "--stdin"], input.into_bytes())
        .map(drop)
}

/// `delete` lines for the loops older than the [`RECENT_LOOPS`] window (`loops`: every loop but the one that
/// ended), each pruned to its start, last and best checkpoints unless it was run with `--keep-checkpoints all`.
fn older_loops(
    project: &Project,
    git: &Git,
    loops: &std::collections::BTreeMap<String, Vec<Ref>>,
) -> Result<String, GitError> {
    // Loop ids start with their UTC start time (`lg-20261123T101500Z-…`): their order is the loops' order.
    let older: Vec<(&String, &Vec<Ref>)> = loops.iter().rev().skip(RECENT_LOOPS - 1).collect();
    if older.is_empty() {
        return Ok(String::new());
    }
    let pattern = format!("{}*/{KEEP_ALL}", super::REFS);
    let marked = git.run(&["for-each-ref", "--format=%(refname)", &pattern])?;
    let marked = String::from_utf8_lossy(&marked);
    let history_path = project.history_path();
    let mut input = String::new();
    for (loop_id, refs) in older {
        let marker = format!("{}{loop_id}/{KEEP_ALL}", super::REFS);
        if marked.lines().any(|l| l == marker) {
            continue;
        }
        let records = history::read_loop(&history_path, loop_id)
            .map(|read| read.records)
            .unwrap_or_default();
        let best = best_iteration(&records, None);
        let kept = kept(refs, Keep::Best, best);
        for r in refs.iter().filter(|r| !kept.contains(&r.name)) {
            input.push_str(&format!("delete {}\n", super::refname(&r.loop_id, r.name)));
        }
    }
    Ok(input)
}

/// The names kept out of `refs`: saves always; with [`Keep::Best`] also the start, the last iteration and `best`.
pub(crate) fn kept(refs: &[Ref], keep: Keep, best: Option<u64>) -> Vec<Name> {
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
pub(crate) fn best_iteration(records: &[Record], gate: Option<&ScoreGate>) -> Option<u64> {
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
