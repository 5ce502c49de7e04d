//! Per-iteration checkpoints: at every stop the working tree is saved as a git commit under
//! `refs/loopgate/<loop>/<iteration>` (and at setup as iteration `0`, the starting point), so any iteration can
//! be listed (`loopgate checkpoints`), compared (`loopgate diff`) and restored (`loopgate rollback`).
//!
//! Invariants:
//! - the user's branch, index, stash and HEAD are never touched: checkpoints go through a private index
//!   (see `snapshot`) and live only under `refs/loopgate/`;
//! - a checkpoint holds tracked and untracked files under the project root that git does not ignore, except
//!   `.claude/`; ignored files (build output, `node_modules`) are neither saved nor restored;
//! - a stop whose tree fingerprint (`treeprobe`) did not change since the last checkpoint reuses it and runs no
//!   process: the iteration is noted in the loop's [`Track`] (`unwritten`), whose refs (all at the last
//!   checkpoint's commit) are written with the next changed stop's ref, in the same `git update-ref --stdin`, or
//!   when the loop ends; until then `checkpoints`, `diff` and `rollback` read them from the track;
//! - a stop whose tree changed re-stages only the paths the probe found dirty (see `snapshot`), and its tree
//!   is the one `git add -A` would write;
//! - taking a checkpoint never fails a stop: an error is recorded in the stop's history record and the loop
//!   goes on; outside git there are no checkpoints, and setup says so;
//! - a rollback first saves the current tree as `save-N` (never loses work) and refuses while a verify runs;
//! - when the loop ends, iteration checkpoints are pruned to the start, the last and the best-scoring
//!   (`--keep-checkpoints`); saves are kept.

pub(crate) mod git;
pub(crate) mod list;
pub(crate) mod prune;
pub(crate) mod restore;
pub mod snapshot;

use std::fmt;
use std::str::FromStr;

use crate::project::{Project, safe_name};
use crate::treeprobe::{self, Probe};

pub use crate::schema::{Keep, Taken, Track};
pub use git::{Git, GitError};

/// A checkpoint's name within its loop: an iteration (`3`) or a save made before a rollback (`save-1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Name {
    Iteration(u64),
    Save(u64),
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Iteration(n) => write!(f, "{n}"),
            Self::Save(n) => write!(f, "save-{n}"),
        }
    }
}

impl FromStr for Name {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is not a checkpoint: use an iteration number (`3`) or a save (`save-1`)");
        match text.trim().strip_prefix("save-") {
            Some(n) => n.parse().map(Self::Save).map_err(|_| bad()),
            None => text.trim().parse().map(Self::Iteration).map_err(|_| bad()),
        }
    }
}

/// The ref of a checkpoint.
pub fn refname(loop_id: &str, name: Name) -> String {
    format!("{}{}/{name}", REFS, safe_name(loop_id))
}

/// Where every checkpoint lives.
pub(crate) const REFS: &str = "refs/loopgate/";

/// What setup did about checkpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// On; the starting point is checkpoint `0`.
    On,
    /// `--no-checkpoints`.
    Off,
    /// The project is not in a git work tree.
    NotGit,
    /// Git failed; checkpoints are off for this loop (the message says why).
    Failed(String),
}

/// At setup: turns checkpoints on for a loop in a git work tree and saves the starting point as `0`.
/// `fingerprint`: the tree's fingerprint if setup took one (else it is taken here). Returns what happened and,
/// when on, the loop's new [`Track`] (the caller keeps it in the loop's fields).
pub fn start(
    project: &Project,
    loop_id: &str,
    fingerprint: Option<&str>,
    keep: Option<Keep>,
) -> (Setup, Option<Track>) {
    let Some(keep) = keep else {
        return (Setup::Off, None);
    };
    let git = Git::new(project);
    if !git.is_work_tree() {
        return (Setup::NotGit, None);
    }
    let message = format!("loopgate checkpoint: loop {loop_id}, start");
    // A probe taken here lists what differs from the index too: only that is staged (as at a stop), not the
    // whole tree walked again — in a tournament, once per candidate (issue 41).
    let (fingerprint, dirty) = match fingerprint {
        Some(taken) => (taken.to_string(), None),
        None => {
            let probe = treeprobe::probe(&project.root);
            (probe.fingerprint, probe.dirty)
        }
    };
    match snapshot::take(&git, dirty.as_ref(), &refname(loop_id, Name::Iteration(0)), &message) {
        Ok(commit) => {
            let track = Track {
                keep,
                last: Some(Taken {
                    iteration: 0,
                    commit,
                    fingerprint: Some(fingerprint),
                }),
                unwritten: Vec::new(),
            };
            (Setup::On, Some(track))
        }
        Err(err) => (Setup::Failed(err.to_string()), None),
    }
}

/// At a stop: checkpoints the working tree as the current iteration. `probe` is this stop's progress probe
/// when the caller took one (else it is taken here: it tells an unchanged tree and lists the dirty paths).
/// `None` when checkpoints are off (no `track`); else the commit id, or what went wrong (for the stop's history
/// record).
pub fn at_stop(
    project: &Project,
    loop_id: &str,
    iteration: u64,
    track: Option<&mut Track>,
    probe: Option<Probe>,
) -> Option<Result<String, String>> {
    let track = track?;
    let probe = probe.unwrap_or_else(|| treeprobe::probe(&project.root));
    if let Some(last) = &track.last
        && last.iteration < iteration
        && last.fingerprint.as_deref() == Some(probe.fingerprint.as_str())
    {
        if !track.unwritten.contains(&iteration) {
            track.unwritten.push(iteration);
        }
        return Some(Ok(last.commit.clone()));
    }
    let git = Git::new(project);
    let message = format!("loopgate checkpoint: loop {loop_id}, iteration {iteration}");
    let taken = snapshot::tree(&git, probe.dirty.as_ref())
        .and_then(|tree| snapshot::commit(&git, &tree, &message))
        .and_then(|commit| {
            let mut refs = unwritten_refs(loop_id, track);
            refs.push((refname(loop_id, Name::Iteration(iteration)), commit.clone()));
            snapshot::set_refs(&git, &refs).map(|()| commit)
        });
    Some(match taken {
        Ok(commit) => {
            track.unwritten.clear();
            track.last = Some(Taken {
                iteration,
                commit: commit.clone(),
                fingerprint: Some(probe.fingerprint),
            });
            Ok(commit)
        }
        Err(err) => Err(err.to_string()),
    })
}

/// The refs of `track`'s unwritten iterations, each with the commit it reuses.
pub(crate) fn unwritten_refs(loop_id: &str, track: &Track) -> Vec<(String, String)> {
    let Some(last) = &track.last else {
        return Vec::new();
    };
    track
        .unwritten
        .iter()
        .map(|&n| (refname(loop_id, Name::Iteration(n)), last.commit.clone()))
        .collect()
}

#[cfg(test)]
mod tests;
