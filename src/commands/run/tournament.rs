//! `loopgate run --candidates N`: best of N under one sealed oracle.
//!
//! N loops start from the commit the user's branch is at, each in a clone of its own under loopgate's store
//! (`worktrees/<id>/cK`: `git clone --shared`, see `git`), outside the user's tree. The oracle is sealed and
//! baselined **once**, in the first clone (`setup::start`: the seal, its companions, the baseline run); every
//! other candidate gets a copy of that seal with its own root and loop id (`clone`), so all are judged by the
//! same command, the same sealed inputs and the same baseline, and none can change it for the others. Each
//! candidate is an ordinary `loopgate run --resume` child process in its clone (`compete`): the same stop
//! decision, the same limits (each stopped at its own), the same rejections. At most `--jobs` run at once.
//! The same reviewer too (`--review`, in the seal): a candidate's passing promise is reviewed in its own loop
//! before that loop can complete, so only a reviewed (or, the reviewer failing, "not reviewed") candidate can be
//! offered as the winner; each clone takes its own starting checkpoint (`clone::install`), which the reviewer
//! reads the change from.
//!
//! **Isolation.** Each candidate's agent runs in the agent's world (`confine::world`) with its clone as the one
//! writable place under the store, and the user's repository — its tree and its git directory — read-only
//! (`plane::CANDIDATE_KEEP_ENV`). The store holds every other candidate's clone and every seal, so a candidate
//! can write neither a sibling nor its own oracle. Its git directory is its own; only loopgate writes the refs
//! the user sees (`git::commit_candidate`).
//!
//! **Life cycle.** A record is written `running` before the first clone exists, and at the end, whatever ends
//! it: every candidate stopped (Ctrl-C, SIGTERM, SIGHUP: `compete`), the record `interrupted` or `finished`.
//! `loopgate tournament clean` removes what it left (`clean`); a tournament with no winner cleans up by itself
//! unless `--keep`.
//!
//! The end: with `--until first` the first candidate whose loop completes wins and the others are stopped;
//! with `--until all` every candidate runs to its end and the best passing one wins (`rank`: passing first,
//! then `--rank`). Every candidate's work is committed on `loopgate/<id>/cK`, the winner's also on
//! `loopgate/<id>/winner`; the user's branch and working tree are untouched until `loopgate accept`. A
//! candidate whose loop had the oracle reject a change to its sealed inputs is named in the report.

mod changed;
pub(crate) mod clean;
pub(crate) mod clone;
mod compete;
mod events;
mod git;
mod layer;
pub(crate) mod rank;
pub(crate) mod record;
pub(crate) mod watch;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cli::RunArgs;
use crate::commands::setup;
use crate::error::Error;
use crate::exit_codes;
use crate::project::Project;

use super::agents;
use super::options::{Options, Start};
use compete::{Entrant, Launch, Rules};
use record::{Candidate, Status, Tournament};

pub(crate) use git::{git as run_git, merge_conflicts, toplevel};

/// Most candidates in one tournament.
pub(crate) const MAX_CANDIDATES: u32 = 32;

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
            "`--holdout` does not go with `--candidates` yet: the held-out files would stay in the other candidates' clones".into(),
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
    let repo = canonical(&repo);
    let base = git::git(&repo, &["rev-parse", "HEAD"])
        .map_err(|_| Error::Usage("`--candidates` needs a commit to start from: commit your work first".into()))?;
    if !git::git(&repo, &["status", "--porcelain", "--untracked-files=no"])?.is_empty() {
        eprintln!(
            "loopgate: note: your uncommitted changes are not in the candidates' clones; they start from {}",
            &base[..base.len().min(12)]
        );
    }
    // Before the first thread (the signals' watcher): the kernel lets only a single-threaded process enter the
    // namespace the layered trees are mounted in.
    let trees = layer::Trees::choose();
    // Signals are the tournament's from here: the candidates are stopped, the record written.
    let _ = crate::interrupt::install(|_| {});
    let id = new_id();
    let mut tournament = Tournament {
        id: id.clone(),
        repo: repo.clone(),
        base: base.clone(),
        until: t.until,
        candidates: Vec::new(),
        winner: None,
        accepted: false,
        target: config.loop_config.verify.score.as_ref().map(|gate| gate.target),
        budget_spent: false,
        status: Status::Running,
        pid: Some(std::process::id()),
        rank: t.rank,
        cleaned: false,
    };
    tournament.save()?;
    let dir = record::worktrees(&id);
    let (mut entrants, layered) = match prepare(&config, &repo, &base, &dir, n, &argvs, trees) {
        Ok(prepared) => prepared,
        Err(err) => {
            // No candidate ran: nothing to keep but the record of the attempt.
            let _ = clean::remove(&id, &repo);
            tournament.status = Status::Interrupted;
            tournament.pid = None;
            tournament.cleaned = true;
            let _ = tournament.save();
            return match crate::interrupt::requested() {
                Some(signal) => {
                    eprintln!(
                        "loopgate: tournament {id} interrupted ({}) before its candidates started; nothing is left",
                        crate::interrupt::name(signal)
                    );
                    Ok(crate::interrupt::reraise(signal))
                }
                None => Err(err),
            };
        }
    };
    let dir = canonical(&dir);
    // Who runs where, in the record from the start: `loopgate status` in the repository reads their rows.
    tournament.candidates = entrants.iter().map(clone::entered).collect();
    tournament.save()?;

    let jobs = t.jobs.map_or(entrants.len(), |j| j.max(1) as usize);
    let rules = Rules {
        jobs,
        until: t.until,
        max_cost: options.cost.max_cost,
    };
    let keep = std::env::join_paths([repo.clone(), canonical(&git::common_dir(&repo)?)]).map_err(|e| {
        Error::Usage(format!(
            "the repository's path `{}` cannot be passed to the candidates: {e}",
            repo.display()
        ))
    })?;
    let events = events::Events { json: t.json };
    let layered: Vec<PathBuf> = if layered {
        entrants.iter().map(|e| e.tree.clone()).collect()
    } else {
        Vec::new()
    };
    let launch = Launch {
        flags: &child_flags,
        dir: &dir,
        keep: &keep,
        events,
        layered: &layered,
    };
    events.emit(&events::Event::Started {
        tournament: &id,
        base: &base,
        candidates: entrants.len(),
        jobs,
        isolation: &isolation(),
    });
    let tether = crate::process::tether::arm(&repo);
    let (interrupted, spent) = compete::compete(&mut entrants, &launch, &rules);
    drop(tether);
    for tree in &layered {
        layer::forget_room(tree);
    }

    let direction = config.loop_config.verify.score.as_ref().map(|gate| gate.direction);
    let candidates: Vec<Candidate> = entrants.iter().map(|e| clone::result(e, &repo, &base, &id)).collect();
    let standings: Vec<rank::Standing> = candidates
        .iter()
        .map(|c| rank::Standing {
            passed: c.ending == "complete",
            score: c.score,
            diff_lines: c.diff_lines,
            cost: c.cost.as_ref().and_then(|r| r.cost_usd),
            seconds: c.seconds,
            iterations: c.iterations,
        })
        .collect();
    // An interrupted tournament names no winner: the others were stopped before they could finish.
    let winner = if interrupted.is_some() {
        None
    } else {
        rank::order(&standings, direction, t.rank).first().copied()
    };
    if let Some(commit) = winner.and_then(|w| candidates[w].commit.as_deref()) {
        git::git(
            &repo,
            &["update-ref", &format!("refs/heads/loopgate/{id}/winner"), commit],
        )?;
    }
    tournament.candidates = candidates;
    tournament.winner = winner;
    tournament.budget_spent = spent;
    tournament.status = if interrupted.is_some() {
        Status::Interrupted
    } else {
        Status::Finished
    };
    tournament.pid = None;
    tournament.save()?;
    events.emit(&events::Event::Ended {
        tournament: &id,
        status: tournament.status,
        winner: tournament.winner().map(|w| w.name.as_str()),
        candidates: &tournament.candidates,
    });
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
    // The layered trees' work is committed and their histories copied: their overlays go, and their layers are
    // left removable by their owner (`rm -r`, `tournament clean`) once this namespace is gone.
    for tree in &layered {
        layer::unmount(tree);
    }
    report(&tournament);
    if winner.is_none() && interrupted.is_none() && !t.keep {
        match clean::remove(&id, &repo) {
            Ok(_) => {
                tournament.cleaned = true;
                tournament.save()?;
                eprintln!(
                    "loopgate: no winner: the candidates' clones and branches are removed (`--keep` keeps them); `loopgate tournament show {id}` tells what each did"
                );
            }
            Err(err) => eprintln!("loopgate: {err}; `loopgate tournament clean {id}` tries again"),
        }
    }
    match crate::commands::report::tournament_page(&tournament) {
        Ok(path) => eprintln!("loopgate: the picture: {}", path.display()),
        Err(err) => eprintln!("loopgate: {err}"),
    }
    if let Some(signal) = interrupted {
        eprintln!(
            "loopgate: tournament {id} interrupted ({}): every candidate was stopped; `loopgate tournament clean {id}` removes its clones and branches",
            crate::interrupt::name(signal)
        );
        return Ok(crate::interrupt::reraise(signal));
    }
    Ok(if winner.is_some() {
        exit_codes::OK
    } else {
        exit_codes::LIMIT_REACHED
    })
}

/// Makes the candidates' clones and seals the oracle once, in the first (see the module docs); the candidates
/// ready to start.
fn prepare(
    config: &setup::Config,
    repo: &Path,
    base: &str,
    dir: &Path,
    n: u32,
    argvs: &[Vec<String>],
    mut trees: layer::Trees,
) -> Result<(Vec<Entrant>, bool), Error> {
    crate::seal::create_private_dir(dir).map_err(|source| Error::Io {
        action: "create the tournament's directory",
        path: dir.to_path_buf(),
        source,
    })?;
    let dir = canonical(dir);
    eprintln!(
        "loopgate: tournament {}: {n} candidate(s) from {} in {}",
        dir.file_name().unwrap_or_default().to_string_lossy(),
        &base[..12.min(base.len())],
        dir.display()
    );
    eprintln!("loopgate: candidates' isolation: {}", isolation());
    let prepared = Instant::now();
    let names: Vec<String> = (1..=n).map(|k| format!("c{k}")).collect();
    let first = Project {
        root: dir.join(&names[0]),
    };
    let shared = dir.join(layer::BASE);
    if matches!(trees, layer::Trees::Layered) {
        git::clone_candidate(repo, &shared, base)?;
        // The first mount tells whether the store's file system takes an overlay; if not, clones.
        if let Err(err) = layer::mount(&shared, &first.root) {
            layer::unmount(&first.root);
            trees = layer::Trees::Clones(err.to_string());
        }
    }
    eprintln!("loopgate: candidates' trees: {}", trees.describe());
    let layered = matches!(trees, layer::Trees::Layered);
    // A candidate's tree: its overlay (the first's is mounted above) and loopgate's index of it, or a clone.
    let make = |tree: &Path, mounted: bool| -> Result<(), Error> {
        if !layered {
            return git::clone_candidate(repo, tree, base);
        }
        if !mounted {
            layer::mount(&shared, tree)?;
        }
        git::share_index(&shared, tree)
    };
    make(&first.root, true)?;
    let started = setup::start(config, first.clone())?;
    let sealed_in = prepared.elapsed();
    clone::release(&first)?;
    if layered {
        layer::share_room(&dir, &first.root)?;
    }
    let mut loop_ids = vec![started.state.fields.config.loop_id.clone()];
    for name in &names[1..] {
        if let Some(signal) = crate::interrupt::requested() {
            return Err(Error::Usage(format!(
                "interrupted ({}) while the candidates' clones were made",
                crate::interrupt::name(signal)
            )));
        }
        let tree = Project { root: dir.join(name) };
        make(&tree.root, false)?;
        loop_ids.push(clone::into(&first, &tree, &format!("{}-{name}", loop_ids[0]))?);
    }
    eprintln!(
        "loopgate: sealed and baselined once in {:.1}s; {n} clone(s) ready in {:.1}s",
        sealed_in.as_secs_f64(),
        prepared.elapsed().as_secs_f64()
    );
    let entrants = names
        .into_iter()
        .zip(argvs)
        .zip(loop_ids)
        .map(|((name, argv), loop_id)| Entrant::new(name.clone(), loop_id, dir.join(&name), argv.clone()))
        .collect();
    Ok((entrants, layered))
}

/// What keeps the candidates apart on this machine, said plainly: never a protection that is not there.
fn isolation() -> String {
    let protection = crate::confine::probe();
    if protection.is_protected() {
        format!(
            "{protection}: each agent writes its own clone only — not the store, the other candidates, your tree or your .git"
        )
    } else {
        format!(
            "NONE — {protection}: a candidate's agent can write the store, the other candidates, your tree and your .git"
        )
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
        for note in c.notes() {
            eprintln!("        {}", super::display::truncate(&note, 200));
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
        None if t.status == Status::Interrupted => {
            eprintln!("\nloopgate: no winner: the tournament was stopped before its end");
        }
        None => eprintln!("\nloopgate: no winner: no candidate passed the oracle"),
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
