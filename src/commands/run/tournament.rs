//! `loopgate run --candidates N`: best of N under one sealed oracle.
//!
//! N loops start from the commit the user's branch is at, each in its own detached git worktree under loopgate's
//! store (`worktrees/<id>/cK`), outside the user's tree. The oracle is sealed and baselined **once**, in the
//! first worktree (`setup::start`: the seal, its companions, the baseline run); every other candidate gets a copy
//! of that seal with its own root and loop id (`clone`), so all are judged by the same command, the same sealed
//! inputs and the same baseline, and none can change it for the others. Each candidate is an ordinary
//! `loopgate run --resume` child process in its worktree: the same stop decision, the same limits (each stopped at
//! its own), the same rejections. At most `--jobs` run at once.
//!
//! The end: with `--until first` the first candidate whose loop completes wins and the others are stopped
//! (SIGTERM, which cancels their loops); with `--until all` every candidate runs to its end and the best passing
//! one wins (`rank`). Every candidate's work is committed on `loopgate/<id>/cK`, the winner's also on
//! `loopgate/<id>/winner`; the user's branch and working tree are untouched until `loopgate accept`. A
//! candidate whose loop had the oracle reject a change to its sealed inputs is named in the report.
//!
//! The agent of each candidate is confined off loopgate's store like any `loopgate run` agent; its own worktree
//! (`LOOPGATE_CANDIDATE_TREE`) is the one directory under the store it may write (`plane`).

pub(crate) mod clone;
mod git;
pub(crate) mod rank;
pub(crate) mod record;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::{RunArgs, Until};
use crate::commands::setup;
use crate::error::Error;
use crate::exit_codes;
use crate::project::Project;

use super::agents;
use super::options::{Options, Start};
use record::{Candidate, Tournament};

pub(crate) use git::{git as run_git, remove_worktree, toplevel};

/// Most candidates in one tournament.
pub(crate) const MAX_CANDIDATES: u32 = 32;
/// How often the running candidates are looked at.
const POLL: Duration = Duration::from_millis(200);
/// How often their cost is added up (each candidate's history is read).
const COST_CHECK: Duration = Duration::from_secs(1);
/// The variable that tells a candidate's `loopgate run` (and so its agent's confinement) its worktree.
const TREE_ENV: &str = crate::plane::CANDIDATE_TREE_ENV;

/// Runs a tournament; the exit code is 0 when a candidate won.
pub(crate) fn run(mut args: RunArgs) -> Result<u8, Error> {
    let t = args.tournament.clone();
    let n = args.setup.candidates.unwrap_or(1);
    if n == 0 || n > MAX_CANDIDATES {
        return Err(Error::Usage(format!(
            "`--candidates` takes 1 to {MAX_CANDIDATES}, not {n}"
        )));
    }
    if args.resume {
        return Err(Error::Usage(
            "`--resume` continues one loop; it does not go with `--candidates`".into(),
        ));
    }
    if !args.setup.holdout.is_empty() {
        return Err(Error::Usage(
            "`--holdout` does not go with `--candidates` yet: the held-out files would stay in the other candidates' worktrees".into(),
        ));
    }
    let argvs = agents::per_candidate(n as usize, &t.agents, &t.models, &args.agent)?;
    args.agent.clone_from(&argvs[0]);
    args.tournament.agents.clear();
    args.tournament.models.clear();
    let mut child_flags = vec!["--quiet".to_string()];
    if args.stdin {
        child_flags.push("--stdin".into());
    }
    if let Some(timeout) = &args.agent_timeout {
        child_flags.extend(["--agent-timeout".to_string(), timeout.clone()]);
    }
    if let Some(prices) = &args.cost.prices {
        child_flags.extend(["--prices".to_string(), prices.to_string_lossy().into_owned()]);
    }
    args.setup.candidates = None;
    let options = Options::from_args(args)?;
    let Start::New(config) = options.start else {
        return Err(Error::Usage("`--resume` does not go with `--candidates`".into()));
    };
    let user = Project::for_terminal();
    let repo = git::toplevel(&user.root).map_err(|_| {
        Error::Usage(format!(
            "`--candidates` needs a git repository: `{}` is not in one",
            user.root.display()
        ))
    })?;
    if canonical(&repo) != canonical(&user.root) {
        return Err(Error::Usage(format!(
            "run `loopgate run --candidates` from the repository's top level (`{}`)",
            repo.display()
        )));
    }
    let base = git::git(&repo, &["rev-parse", "HEAD"])
        .map_err(|_| Error::Usage("`--candidates` needs a commit to start from: commit your work first".into()))?;
    if !git::git(&repo, &["status", "--porcelain", "--untracked-files=no"])?.is_empty() {
        eprintln!(
            "loopgate: note: your uncommitted changes are not in the candidates' worktrees; they start from {}",
            &base[..base.len().min(12)]
        );
    }
    let id = new_id();
    let dir = record::worktrees(&id);
    crate::seal::create_private_dir(&dir).map_err(|source| Error::Io {
        action: "create the tournament's directory",
        path: dir.clone(),
        source,
    })?;
    let dir = canonical(&dir);
    eprintln!(
        "loopgate: tournament {id}: {n} candidate(s) from {} in {}",
        &base[..12.min(base.len())],
        dir.display()
    );

    // Seal and baseline once, in the first worktree; every other candidate gets a copy of that oracle.
    let prepared = Instant::now();
    let names: Vec<String> = (1..=n).map(|k| format!("c{k}")).collect();
    let first = Project {
        root: dir.join(&names[0]),
    };
    git::add_worktree(&repo, &first.root, &base)?;
    let started = setup::start(&config, first.clone())?;
    let sealed_in = prepared.elapsed();
    clone::release(&first)?;
    let mut loop_ids = vec![started.state.fields.config.loop_id.clone()];
    for name in &names[1..] {
        let tree = Project { root: dir.join(name) };
        git::add_worktree(&repo, &tree.root, &base)?;
        loop_ids.push(clone::into(&first, &tree, &format!("{}-{name}", loop_ids[0]))?);
    }
    eprintln!(
        "loopgate: sealed and baselined once in {:.1}s; {n} worktree(s) ready in {:.1}s",
        sealed_in.as_secs_f64(),
        prepared.elapsed().as_secs_f64()
    );

    let jobs = t
        .jobs
        .map(|j| j.max(1) as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let mut entrants: Vec<Entrant> = names
        .iter()
        .zip(&argvs)
        .zip(&loop_ids)
        .map(|((name, argv), loop_id)| Entrant {
            name: name.clone(),
            loop_id: loop_id.clone(),
            tree: dir.join(name),
            argv: argv.clone(),
            child: None,
            exit: None,
            started: None,
            seconds: 0.0,
        })
        .collect();
    let _ = crate::interrupt::install(|_| {});
    let rules = Rules {
        jobs,
        until: t.until,
        max_cost: options.cost.max_cost,
    };
    let (interrupted, spent) = compete(&mut entrants, &child_flags, &dir, &rules);

    let direction = config.loop_config.verify.score.as_ref().map(|gate| gate.direction);
    let candidates: Vec<Candidate> = entrants.iter().map(|e| clone::result(e, &base, &id)).collect();
    let standings: Vec<rank::Standing> = candidates
        .iter()
        .map(|c| rank::Standing {
            passed: c.ending == "complete",
            score: c.score,
            diff_lines: c.diff_lines,
            iterations: c.iterations,
        })
        .collect();
    let winner = rank::order(&standings, direction).first().copied();
    if let Some(commit) = winner.and_then(|w| candidates[w].commit.as_deref()) {
        git::git(&repo, &["branch", "--force", &format!("loopgate/{id}/winner"), commit])?;
    }
    let tournament = Tournament {
        id,
        repo,
        base,
        until: t.until,
        candidates,
        winner,
        accepted: false,
        target: config.loop_config.verify.score.as_ref().map(|gate| gate.target),
        budget_spent: spent,
    };
    tournament.save()?;
    for candidate in &tournament.candidates {
        let copy = record::history_copy(&tournament.id, &candidate.name);
        let _ = crate::seal::create_private_dir(copy.parent().unwrap_or(&dir));
        let _ = std::fs::copy(
            Project {
                root: candidate.worktree.clone(),
            }
            .history_path(),
            copy,
        );
    }
    report(&tournament);
    match crate::commands::report::tournament_page(&tournament) {
        Ok(path) => eprintln!("loopgate: the picture: {}", path.display()),
        Err(err) => eprintln!("loopgate: {err}"),
    }
    if let Some(signal) = interrupted {
        return Ok(crate::interrupt::reraise(signal));
    }
    Ok(if winner.is_some() {
        exit_codes::OK
    } else {
        exit_codes::LIMIT_REACHED
    })
}

/// How the candidates run: how many at once, when the tournament ends, and its dollar budget.
struct Rules {
    jobs: usize,
    until: Until,
    max_cost: Option<f64>,
}

/// One candidate while the tournament runs.
pub(crate) struct Entrant {
    pub(crate) name: String,
    pub(crate) loop_id: String,
    pub(crate) tree: PathBuf,
    pub(crate) argv: Vec<String>,
    child: Option<Child>,
    /// Its `loopgate run`'s exit code, once it ended (`None` if it never started or was killed by a signal).
    pub(crate) exit: Option<u8>,
    started: Option<Instant>,
    pub(crate) seconds: f64,
}

/// Runs the candidates, at most `jobs` at once, until the end rule or the budget says so; returns the signal
/// that interrupted the tournament, if one did, and whether the budget (`--max-cost`, over every candidate) was
/// spent.
fn compete(entrants: &mut [Entrant], flags: &[String], dir: &Path, rules: &Rules) -> (Option<i32>, bool) {
    let mut next = 0;
    let mut decided = false;
    let mut spent = false;
    let mut last_count = Instant::now();
    loop {
        let interrupted = crate::interrupt::requested();
        let running = entrants.iter().filter(|e| e.child.is_some()).count();
        let open = !decided && !spent && interrupted.is_none();
        if open && next < entrants.len() && running < rules.jobs {
            let entrant = &mut entrants[next];
            next += 1;
            match spawn(entrant, flags, dir) {
                Ok(child) => {
                    entrant.child = Some(child);
                    entrant.started = Some(Instant::now());
                }
                Err(err) => eprintln!("loopgate: candidate {} could not start: {err}", entrant.name),
            }
            continue;
        }
        if running == 0 && (!open || next >= entrants.len()) {
            return (interrupted, spent);
        }
        std::thread::sleep(POLL);
        for entrant in entrants.iter_mut() {
            let Some(child) = entrant.child.as_mut() else { continue };
            let Ok(Some(status)) = child.try_wait() else { continue };
            entrant.exit = status.code().and_then(|c| u8::try_from(c).ok());
            entrant.seconds = entrant.started.map_or(0.0, |s| s.elapsed().as_secs_f64());
            entrant.child = None;
            eprintln!(
                "loopgate: candidate {} ended ({}) after {:.0}s",
                entrant.name,
                ending_word(entrant.exit),
                entrant.seconds
            );
            if rules.until == Until::First && entrant.exit == Some(exit_codes::OK) {
                decided = true;
            }
        }
        if let Some(max) = rules.max_cost
            && !spent
            && last_count.elapsed() >= COST_CHECK
        {
            last_count = Instant::now();
            let dollars: f64 = entrants
                .iter()
                .filter(|e| e.started.is_some())
                .filter_map(|e| {
                    super::spent_in(&Project { root: e.tree.clone() }, &e.loop_id)
                        .0
                        .cost_usd
                })
                .sum();
            if dollars >= max {
                eprintln!(
                    "loopgate: the tournament's cost budget is spent: ${dollars:.4} of --max-cost ${max:.2}; stopping the candidates"
                );
                spent = true;
            }
        }
        if decided || spent {
            for entrant in entrants.iter().filter(|e| e.child.is_some()) {
                if let Some(child) = &entrant.child {
                    // SIGTERM: its `loopgate run` stops its agent and verify and records the loop cancelled.
                    let pid = libc::pid_t::try_from(child.id()).unwrap_or(0);
                    if pid > 0 {
                        // SAFETY: kill(2) on a child we spawned and have not reaped yet.
                        unsafe { libc::kill(pid, libc::SIGTERM) };
                    }
                }
            }
        }
    }
}

/// Starts one candidate: `loopgate run --resume` in its worktree, its output in `dir/cK.log`.
fn spawn(entrant: &Entrant, flags: &[String], dir: &Path) -> std::io::Result<Child> {
    let log = std::fs::File::create(dir.join(format!("{}.log", entrant.name)))?;
    let exe = std::env::current_exe()?;
    Command::new(exe)
        .arg("run")
        .arg("--resume")
        .args(flags)
        .arg("--")
        .args(&entrant.argv)
        .current_dir(&entrant.tree)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env(TREE_ENV, &entrant.tree)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
}

/// How a candidate's `loopgate run` ended, from its exit code.
fn ending_word(exit: Option<u8>) -> &'static str {
    match exit {
        Some(exit_codes::OK) => "complete",
        Some(exit_codes::LIMIT_REACHED) => "limit reached",
        Some(exit_codes::ABORTED) => "aborted",
        Some(exit_codes::PAUSED) => "paused",
        Some(exit_codes::CANCELLED) => "cancelled",
        Some(_) => "failed",
        None => "stopped",
    }
}

/// The end-of-tournament report: one line per candidate, the winner and how to take it.
fn report(t: &Tournament) {
    eprintln!("\nloopgate: tournament {} — {} candidate(s):", t.id, t.candidates.len());
    for (i, c) in t.candidates.iter().enumerate() {
        let mark = if t.winner == Some(i) { "★" } else { " " };
        let score = c.score.map_or(String::new(), |s| format!(", score {s}"));
        let cost = c
            .cost
            .as_ref()
            .map_or(String::new(), |r| format!(", {}", crate::cost::describe(r)));
        eprintln!(
            " {mark} {:<4} {:<16} {:<15} {} iteration(s), {} line(s) changed{score}, {:.0}s{cost}",
            c.name,
            super::display::truncate(&c.agent, 16),
            c.ending,
            c.iterations,
            c.diff_lines,
            c.seconds
        );
        if !c.gamed.is_empty() {
            eprintln!(
                "        rejected for changing the oracle's inputs: {}",
                super::display::truncate(&c.gamed.join("; "), 200)
            );
        }
    }
    if t.budget_spent {
        eprintln!("loopgate: the tournament ended on its cost budget (--max-cost)");
    }
    match t.winner() {
        Some(w) => eprintln!(
            "\nloopgate: winner: {} — branch `loopgate/{}/winner` ({} line(s) changed). Your branch is untouched: \
             `loopgate accept` takes it in; `git diff HEAD loopgate/{}/winner` shows it.",
            w.name, t.id, w.diff_lines, t.id
        ),
        None => eprintln!(
            "\nloopgate: no candidate passed the oracle; their work is on the branches `loopgate/{}/cK`",
            t.id
        ),
    }
}

/// `t-<UTC time>-<4 hex digits>`: sorts by time.
fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    format!(
        "t-{}-{:04x}",
        chrono::Utc::now().format("%Y%m%d-%H%M%S"),
        hasher.finish() & 0xffff
    )
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}
