//! One oracle for every candidate: the loop sealed in the first worktree is copied, seal and companions, to
//! each other worktree with its own root and loop id, and left waiting for its `loopgate run --resume`. And,
//! at the end, each candidate's result read back from its worktree.

use std::path::Path;

use serde_json::Value;

use crate::error::Error;
use crate::history::{self, Record, Status};
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::project::Project;
use crate::seal::{Seal, Store, json_path};

use super::compete::Entrant;
use super::git;
use super::record::Candidate;

/// Leaves the loop of `project` waiting for any session (its candidate's `loopgate run --resume` adopts it).
pub(crate) fn release(project: &Project) -> Result<(), Error> {
    let _lock = crate::lifecycle::lock(project)?;
    let Lookup::Loop(mut active) = lookup(project)? else {
        return Err(Error::NoLoop {
            root: project.root.clone(),
        });
    };
    let mut state = active.state();
    state.fields.progress.session_id.clear();
    state.fields.progress.driver = None;
    active.save(&state)
}

/// Gives `to` a copy of `from`'s loop (released), as loop `loop_id`; returns the id.
pub(crate) fn into(from: &Project, to: &Project, loop_id: &str) -> Result<String, Error> {
    let store = Store::open();
    let seal = store.load(from)?.ok_or_else(|| Error::NoLoop {
        root: from.root.clone(),
    })?;
    let corrupt = |problem: String| crate::seal::SealError::Corrupt {
        path: store.path_for(from),
        problem,
    };
    let text = serde_json::to_string(&seal)
        .map_err(|e| corrupt(e.to_string()))?
        .replace(&json_path(&from.root), &json_path(&to.root));
    let seal: Seal = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
    store.copy_companions(from, to)?;
    let init = init_of(from, &seal.fields.config.loop_id);
    install(to, store, seal, loop_id, init)
}

/// The `init` record of loop `loop_id` in `project`'s history.
pub(crate) fn init_of(project: &Project, loop_id: &str) -> Option<Record> {
    history::read(&project.history_path()).ok().and_then(|read| {
        read.records
            .into_iter()
            .find(|r| r.loop_id == loop_id && r.status() == Status::Init)
    })
}

/// Makes `seal` (another tree's, its paths already `to`'s, its companions in place) `to`'s loop `loop_id`,
/// released, with `init` as its first record; returns the id. Shared by the tournament's worktrees and a CI
/// matrix's jobs (`matrix::adopt`).
pub(crate) fn install(
    to: &Project,
    store: Store,
    mut seal: Seal,
    loop_id: &str,
    init: Option<Record>,
) -> Result<String, Error> {
    seal.fields.config.loop_id = loop_id.to_string();
    // The starting checkpoint is taken anew in `to`, as `loop_id`'s: the one copied names a commit of the other
    // tree, under the other loop's ref. The reviewer reads the change from it (`review::at_promise`).
    let keep = seal.fields.progress.checkpoints.as_ref().map(|track| track.keep);
    seal.fields.progress.checkpoints = crate::checkpoint::start(to, loop_id, None, keep).1;
    let start = seal
        .fields
        .progress
        .checkpoints
        .as_ref()
        .and_then(|track| Some(track.last.as_ref()?.commit.clone()));
    seal.history = None;
    seal.logs.clear();
    seal.mirror_sha256 = None;
    seal.mirror_unwritten = false;
    to.ignore_work_dir();
    let _lock = crate::lifecycle::lock(to)?;
    let mut active = ActiveLoop {
        project: to.clone(),
        store,
        seal,
        tamper: Vec::new(),
        warnings: Vec::new(),
    };
    if let Some(init) = init {
        let mut event = init.event;
        if let crate::history::Event::Init(init) = &mut event {
            init.checkpoint = start.clone();
        }
        active.record_unsaved(&Record::new(loop_id, 0, event))?;
    }
    active.write()?;
    Ok(loop_id.to_string())
}

/// A finished candidate's result: how its loop ended, its iterations, last score and what it tried to change
/// of the oracle (from its history), its work committed on `loopgate/<tournament>/cK` of the user's repository
/// `repo` and the diff's size.
pub(crate) fn result(entrant: &Entrant, repo: &Path, base: &str, tournament: &str) -> Candidate {
    let loop_id = entrant.loop_id.as_str();
    let project = Project {
        root: entrant.tree.clone(),
    };
    let (spent, runs) = crate::commands::run::spent_in(&project, loop_id);
    let records: Vec<Value> = std::fs::read_to_string(project.history_path())
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|r| r["loop_id"] == loop_id)
        .collect();
    // The history lies in the candidate's clone, which its agent may write (and a process it left behind may
    // still write after its run ended): a `complete` there counts only when its `loopgate run` — loopgate's own
    // process, outside the agent's reach — exited 0, which it does only on the oracle's pass.
    let recorded = records
        .iter()
        .rev()
        .filter_map(|r| r["status"].as_str())
        .find(|s| ENDINGS.contains(s) && *s != "complete");
    let ending = match (entrant.exit, recorded) {
        (Some(crate::exit_codes::OK), _) => "complete",
        (_, Some(status)) => status,
        _ if entrant.started.is_some() => "unfinished",
        _ => "not started",
    }
    .to_string();
    // The review is read from its `complete` record only when the loop's own process said it completed.
    let review = (ending == "complete")
        .then(|| records.iter().rev().find(|r| r["status"] == "complete"))
        .flatten()
        .and_then(|r| serde_json::from_value(r["review"].clone()).ok());
    let iterations = records.iter().filter(|r| r["status"] == "agent_run").count() as u64;
    let score = records.iter().rev().find_map(|r| r["score"].as_f64());
    let mut gamed: Vec<String> = records
        .iter()
        .flat_map(|r| {
            let sealed = r["sealed_changes"].as_array().into_iter().flatten();
            let tamper = (r["status"] == "tamper_detected").then(|| r["what"].clone());
            sealed.cloned().chain(tamper)
        })
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    gamed.sort();
    gamed.dedup();
    let branch = format!("loopgate/{tournament}/{}", entrant.name);
    let message = format!("loopgate tournament {tournament}: candidate {}", entrant.name);
    let changed = entrant
        .tree
        .parent()
        .and_then(|dir| super::changed::changed(&entrant.tree, &dir.join(super::layer::BASE)));
    let commit = git::commit_candidate(repo, &entrant.tree, base, changed.as_deref(), &branch, &message)
        .map_err(|err| eprintln!("loopgate: candidate {}: {err}", entrant.name))
        .ok();
    let diff_lines = commit
        .as_deref()
        .and_then(|c| git::diff_lines(repo, base, c).ok())
        .unwrap_or(0);
    Candidate {
        name: entrant.name.clone(),
        agent: agent_name(&entrant.argv),
        worktree: entrant.tree.clone(),
        loop_id: loop_id.to_string(),
        ending,
        iterations,
        score,
        diff_lines,
        branch: commit.is_some().then_some(branch),
        commit,
        gamed,
        seconds: entrant.seconds,
        cost: (runs > 0).then_some(spent),
        review,
    }
}

/// A candidate as the record holds it while the tournament runs (`running`, nothing measured yet): who runs
/// where, so that `loopgate status` in the repository can read each one's history as it goes.
pub(crate) fn entered(entrant: &Entrant) -> Candidate {
    Candidate {
        name: entrant.name.clone(),
        agent: agent_name(&entrant.argv),
        worktree: entrant.tree.clone(),
        loop_id: entrant.loop_id.clone(),
        ending: "running".to_string(),
        iterations: 0,
        score: None,
        diff_lines: 0,
        branch: None,
        commit: None,
        gamed: Vec::new(),
        seconds: 0.0,
        cost: None,
        review: None,
    }
}

/// The agent as the report shows it: the program's file name and its arguments.
fn agent_name(argv: &[String]) -> String {
    // `env VAR=value … program`: the program is what tells the candidates apart.
    let argv = match argv.first().map(String::as_str) {
        Some("env") => {
            let rest = &argv[1..];
            &rest[rest
                .iter()
                .take_while(|w| w.contains('=') && !w.starts_with('-'))
                .count()..]
        }
        _ => argv,
    };
    let Some((program, args)) = argv.split_first() else {
        return String::new();
    };
    let name = std::path::Path::new(program)
        .file_name()
        .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned());
    std::iter::once(name)
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The history statuses that end a loop.
const ENDINGS: [&str; 8] = [
    "complete",
    "max_iterations",
    "max_duration",
    "max_tokens",
    "max_cost",
    "aborted",
    "cancelled",
    "stalled",
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_endings_are_history_statuses_that_end_a_loop() {
        for status in super::ENDINGS {
            let parsed: super::Status = serde_json::from_value(serde_json::json!(status)).expect(status);
            assert!(parsed.ends_loop() || parsed == super::Status::Stalled, "{status}");
        }
    }
}
