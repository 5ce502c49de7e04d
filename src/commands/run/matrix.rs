//! Best-of-N as a CI matrix: the tournament's one sealed oracle, with the candidates as jobs of the CI a team
//! already runs instead of processes of ours (`.github/workflows/loopgate-best-of-n.yml`, docs/ci.md).
//!
//! Three steps, three flags of `loopgate run`:
//!
//! - `--emit-matrix DIR` (with `--candidates N`): seals the oracle and runs the baseline **once**, on the
//!   commit checked out, in a private scratch clone (as `loopgate check` does); writes it to `DIR` (the
//!   seal and its companions, their root replaced by a mark, `Store::export`; the `init` record; `matrix.json`:
//!   the base commit, the loop, each candidate's agent) for the CI to ship as an artifact; prints the
//!   candidates as a job matrix (`{"include":[{"candidate":"c1","agent":"…"}]}`).
//! - `--oracle DIR` (one matrix job, in its own checkout of the same commit): takes that oracle as this
//!   checkout's loop (`clone::install`, as a tournament's worktree takes the first one's) and runs it as
//!   `--resume` does. Nothing of the oracle is made in the job: the agent's job cannot re-seal or re-baseline it.
//! - `--collect DIR` (the final job): reads each candidate's result folder (`DIR/<candidate>/history.jsonl`, its
//!   loop's history, and `change.patch`, its diff against the base), ranks them as the tournament does
//!   (`tournament::rank`) and prints the winner (JSON on stdout; `winner=` in `$GITHUB_OUTPUT`). Exit 0 when a
//!   candidate passed the oracle, `LIMIT_REACHED` when none did.
//!
//! What a job's result folder says is the job's own word: a job could forge its history. The ranking is only as
//! trusted as the jobs are isolated from the agent (a job's agent should not hold the token that uploads its
//! artifact); docs/ci.md says so.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::RunArgs;
use crate::commands::check::tree::Scratch;
use crate::commands::setup;
use crate::error::Error;
use crate::exit_codes;
use crate::history::{self, Record, Status};
use crate::project::Project;
use crate::seal::{Seal, Store};

use super::agents;
use super::options::{Options, Start};
use super::tournament::{clone, rank, run_git as git, toplevel};

/// The matrix's description in an emitted oracle.
const MATRIX: &str = "matrix.json";
/// The loop's `init` record in an emitted oracle.
const INIT: &str = "init.json";
/// A candidate's result: its loop's history, and its change against the base.
const HISTORY: &str = "history.jsonl";
const PATCH: &str = "change.patch";

/// What `--emit-matrix` writes beside the oracle.
#[derive(Debug, Serialize, Deserialize)]
struct Matrix {
    /// The commit every job must have checked out: the baseline is of it.
    base: String,
    loop_id: String,
    /// The score's direction, where a score is gated (the ranking needs it).
    direction: Option<crate::score::Direction>,
    candidates: Vec<Entry>,
}

/// One job of the matrix.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    candidate: String,
    /// The agent's command line, quoted for `sh -c`.
    agent: String,
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Io { action, path, source }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Error> {
    let text = std::fs::read_to_string(path).map_err(io("read the matrix file", path))?;
    serde_json::from_str(&text)
        .map_err(|e| Error::Usage(format!("`{}` is not what `--emit-matrix` wrote: {e}", path.display())))
}

fn write_json(path: &Path, value: &impl Serialize) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    std::fs::write(path, text + "\n").map_err(io("write the matrix file", path))
}

/// `--emit-matrix DIR`.
pub(crate) fn emit(mut args: RunArgs, out: &Path) -> Result<u8, Error> {
    // Its baseline runs the verify command as `setup` does: a signal stops that run (no orphan left) and the
    // scratch clone's seal and room go with it, as for `setup` and `check` (`lib::run` re-raises the signal).
    let _ = crate::interrupt::install_quiet();
    let n = args.setup.candidates.unwrap_or(1);
    if n == 0 || n > super::tournament::MAX_CANDIDATES {
        return Err(Error::Usage(format!(
            "`--candidates` takes 1 to {}, not {n}",
            super::tournament::MAX_CANDIDATES
        )));
    }
    if !args.setup.holdout.is_empty() {
        return Err(Error::Usage(
            "`--holdout` does not go with `--emit-matrix`: the held-out files would ship to every job; keep them for `loopgate check --holdout-from` on the winner".into(),
        ));
    }
    let t = &args.tournament;
    let argvs = agents::per_candidate(n as usize, &t.agents, &t.models, &args.agent)?;
    args.agent.clone_from(&argvs[0]);
    args.tournament.agents.clear();
    args.tournament.models.clear();
    args.setup.candidates = None;
    let options = Options::from_args(args)?;
    let Start::New(config) = options.start else {
        return Err(Error::Usage("`--resume` does not go with `--emit-matrix`".into()));
    };
    let cwd = Project::for_terminal().root;
    let repo = toplevel(&cwd).map_err(|_| {
        Error::Usage(format!(
            "`--emit-matrix` needs a git repository: `{}` is not in one",
            cwd.display()
        ))
    })?;
    let base = git(&repo, &["rev-parse", "HEAD"])
        .map_err(|_| Error::Usage("`--emit-matrix` needs a commit to start from: commit your work first".into()))?;
    let scratch = Scratch::new()?;
    scratch.check_out(&repo, &base)?;
    let project = Project { root: scratch.tree() };
    let started = setup::start(&config, project.clone())?;
    clone::release(&project)?;
    let loop_id = started.state.fields.config.loop_id.clone();
    Store::open().export(&project, out)?;
    if let Some(init) = clone::init_of(&project, &loop_id) {
        write_json(&out.join(INIT), &init)?;
    }
    let matrix = Matrix {
        base,
        loop_id,
        direction: config.loop_config.verify.score.as_ref().map(|gate| gate.direction),
        candidates: argvs
            .iter()
            .enumerate()
            .map(|(k, argv)| Entry {
                candidate: format!("c{}", k + 1),
                agent: argv
                    .iter()
                    .map(|word| crate::confine::rewrite::quote(word))
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect(),
    };
    write_json(&out.join(MATRIX), &matrix)?;
    drop(scratch);
    let include = serde_json::json!({ "include": matrix.candidates });
    crate::say(include);
    Ok(exit_codes::OK)
}

/// `--oracle DIR`: makes the oracle `--emit-matrix` wrote to `DIR` this checkout's loop, waiting to be resumed.
pub(crate) fn adopt(dir: &Path, project: &Project) -> Result<(), Error> {
    let matrix: Matrix = read_json(&dir.join(MATRIX))?;
    let head = git(&project.root, &["rev-parse", "HEAD"]).unwrap_or_default();
    if head != matrix.base {
        return Err(Error::Usage(format!(
            "`--oracle {}` was sealed on commit {}, but this checkout is at `{}`: check out that commit",
            dir.display(),
            matrix.base,
            if head.is_empty() { "no commit" } else { &head }
        )));
    }
    if let crate::lifecycle::Lookup::Loop(_) = crate::lifecycle::lookup(project)? {
        return Err(Error::Usage(format!(
            "`--oracle` makes the oracle this checkout's loop, but `{}` already has one: `loopgate cancel` it first (a matrix job runs in a fresh checkout)",
            project.root.display()
        )));
    }
    let store = Store::open();
    let text = store.import(dir, project)?;
    let seal: Seal = serde_json::from_str(&text)
        .map_err(|e| Error::Usage(format!("`{}` holds no seal: {e}", dir.join("seal.json").display())))?;
    let init_path = dir.join(INIT);
    let init: Option<Record> = init_path.exists().then(|| read_json(&init_path)).transpose()?;
    clone::install(project, store, seal, &matrix.loop_id, init).map(|_| ())
}

/// One candidate's result, as `--collect` read it.
#[derive(Debug, Serialize)]
struct Finished {
    candidate: String,
    /// How its loop ended (`complete`, `max_iterations`, …; `unfinished` without an ending).
    ending: String,
    passed: bool,
    iterations: u64,
    score: Option<f64>,
    diff_lines: u64,
    /// What its agent's runs cost, where they reported their usage (ranks after the diff).
    cost: Option<f64>,
    /// How long its agent's runs took.
    seconds: f64,
    /// Its loop had the oracle reject a change to its sealed inputs at least once.
    moved_the_oracle: bool,
    patch: PathBuf,
}

/// Reads one result folder.
fn result_of(dir: &Path) -> Result<Finished, Error> {
    let history_path = dir.join(HISTORY);
    let records = history::read(&history_path)
        .map_err(io("read a candidate's history", &history_path))?
        .records;
    let ending = records
        .iter()
        .rev()
        .map(Record::status)
        .find(|s| s.ends_loop() || *s == Status::Stalled);
    let verifies = || records.iter().filter_map(|r| r.event.verify());
    let agent_runs = || {
        records.iter().filter_map(|r| match &r.event {
            history::Event::AgentRun(run) => Some(run),
            _ => None,
        })
    };
    let patch = dir.join(PATCH);
    let diff_lines = std::fs::read_to_string(&patch).map_or(0, |text| {
        text.lines()
            .filter(|l| (l.starts_with('+') && !l.starts_with("+++")) || (l.starts_with('-') && !l.starts_with("---")))
            .count() as u64
    });
    Ok(Finished {
        candidate: dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        ending: ending.map_or_else(
            || "unfinished".into(),
            |s| {
                serde_json::to_value(s)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            },
        ),
        passed: ending == Some(Status::Complete),
        iterations: records.iter().filter(|r| r.status() == Status::AgentRun).count() as u64,
        score: verifies().filter_map(|v| v.score).next_back(),
        diff_lines,
        cost: crate::cost::total(agent_runs().filter_map(|run| run.receipt.as_ref())).cost_usd,
        seconds: agent_runs().map(|run| run.agent_ms as f64 / 1000.0).sum(),
        moved_the_oracle: verifies().any(|v| v.sealed_changes.as_ref().is_some_and(|c| !c.is_empty()))
            || records.iter().any(|r| r.status() == Status::TamperDetected),
        patch,
    })
}

/// `--collect DIR`.
pub(crate) fn collect(dir: &Path) -> Result<u8, Error> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io("read the candidates' results in", dir))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(HISTORY).is_file())
        .collect();
    folders.sort();
    if folders.is_empty() {
        return Err(Error::Usage(format!(
            "`--collect {}` holds no candidate's result: one folder per candidate with `{HISTORY}` and `{PATCH}`",
            dir.display()
        )));
    }
    let results = folders.iter().map(|f| result_of(f)).collect::<Result<Vec<_>, _>>()?;
    let direction = ["oracle", "."]
        .iter()
        .map(|sub| dir.join(sub).join(MATRIX))
        .find(|p| p.is_file())
        .and_then(|p| read_json::<Matrix>(&p).ok())
        .and_then(|m| m.direction);
    let standings: Vec<rank::Standing> = results
        .iter()
        .map(|r| rank::Standing {
            passed: r.passed,
            score: r.score,
            diff_lines: r.diff_lines,
            cost: r.cost,
            seconds: r.seconds,
            iterations: r.iterations,
        })
        .collect();
    // The tournament's default ranking: the smaller diff, then the lower cost.
    let winner = rank::order(&standings, direction, crate::cli::run::Rank::default())
        .first()
        .copied();
    for (i, r) in results.iter().enumerate() {
        let mark = if winner == Some(i) { "★" } else { " " };
        let moved = if r.moved_the_oracle {
            ", rejected for moving the oracle"
        } else {
            ""
        };
        eprintln!(
            " {mark} {:<4} {:<15} {} iteration(s), {} line(s) changed{moved}",
            r.candidate, r.ending, r.iterations, r.diff_lines
        );
    }
    let name = winner.map(|w| results[w].candidate.clone());
    if let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|v| !v.is_empty()) {
        use std::io::Write;
        let line = format!("winner={}\n", name.as_deref().unwrap_or(""));
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()))
            .map_err(io("write the winner to", Path::new(&path)))?;
    }
    crate::say(serde_json::json!({ "winner": name, "candidates": results }));
    Ok(if winner.is_some() {
        exit_codes::OK
    } else {
        exit_codes::LIMIT_REACHED
    })
}
