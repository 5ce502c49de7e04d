//! Reading checkpoints back: the refs under `refs/loopgate/`, grouped by loop, and what changed between two of
//! them — one `git for-each-ref` and one `git diff-tree --stdin` however many there are.

use std::collections::BTreeMap;

use super::git::{Git, GitError, PATHSPEC};
use super::{Name, REFS, Track};

/// One checkpoint ref.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ref {
    pub(crate) loop_id: String,
    pub(crate) name: Name,
    pub(crate) commit: String,
    pub(crate) tree: String,
    /// Commit time, seconds since the epoch (a reused checkpoint keeps the time of the one it reuses).
    pub(crate) time: i64,
}

/// Every checkpoint in the repository, by loop, each loop's sorted by name (iterations, then saves).
pub(crate) fn all(git: &Git) -> Result<BTreeMap<String, Vec<Ref>>, GitError> {
    let out = git.run(&[
        "for-each-ref",
        "--format=%(refname)%00%(objectname)%00%(tree)%00%(committerdate:unix)",
        REFS,
    ])?;
    let mut loops: BTreeMap<String, Vec<Ref>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out).lines() {
        let fields: Vec<&str> = line.split('\0').collect();
        let [refname, commit, tree, time] = fields[..] else {
            continue;
        };
        let Some((loop_id, name)) = refname.strip_prefix(REFS).and_then(|rest| rest.rsplit_once('/')) else {
            continue;
        };
        let Ok(name) = name.parse::<Name>() else { continue };
        loops.entry(loop_id.to_string()).or_default().push(Ref {
            loop_id: loop_id.to_string(),
            name,
            commit: commit.to_string(),
            tree: tree.to_string(),
            time: time.parse().unwrap_or(0),
        });
    }
    for refs in loops.values_mut() {
        refs.sort_by_key(|r| r.name);
    }
    Ok(loops)
}

/// Adds to a running loop's `refs` the iterations its `track` has not written yet: each is its last
/// checkpoint (same commit, tree and time) under its own name. `refs` stays sorted.
pub(crate) fn add_unwritten(refs: &mut Vec<Ref>, track: &Track) {
    let Some(last) = &track.last else { return };
    let Some(base) = refs.iter().find(|r| r.name == Name::Iteration(last.iteration)).cloned() else {
        return;
    };
    for &n in &track.unwritten {
        if !refs.iter().any(|r| r.name == Name::Iteration(n)) {
            refs.push(Ref {
                name: Name::Iteration(n),
                ..base.clone()
            });
        }
    }
    refs.sort_by_key(|r| r.name);
}

/// Lines and files changed from one tree to another, within the project (`.claude/` left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Change {
    pub(crate) files: u64,
    pub(crate) insertions: u64,
    pub(crate) deletions: u64,
}

/// What changed for each `(from, to)` pair of trees, in order, in one git process.
pub(crate) fn changes(git: &Git, pairs: &[(&str, &str)]) -> Result<Vec<Change>, GitError> {
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let input: String = pairs.iter().map(|(from, to)| format!("{from} {to}\n")).collect();
    let args = [
        &["diff-tree", "--stdin", "-r", "--numstat", "--relative"][..],
        &PATHSPEC[..],
    ]
    .concat();
    let out = git.run_with_input(&args, input.into_bytes())?;
    // Each pair's output starts with the pair itself as a header line, then one numstat line per file.
    let mut result = Vec::with_capacity(pairs.len());
    let mut current: Option<Change> = None;
    for line in String::from_utf8_lossy(&out).lines() {
        let mut fields = line.split('\t');
        match (fields.next(), fields.next(), fields.next()) {
            (Some(added), Some(deleted), Some(_path)) => {
                let change = current.get_or_insert_with(Change::default);
                change.files += 1;
                change.insertions += added.parse::<u64>().unwrap_or(0);
                change.deletions += deleted.parse::<u64>().unwrap_or(0);
            }
            _ if line.trim().is_empty() => {}
            _ => result.extend(current.replace(Change::default())),
        }
    }
    result.extend(current);
    result.resize(pairs.len(), Change::default());
    Ok(result)
}
