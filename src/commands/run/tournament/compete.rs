//! The candidates while they run: at most `--jobs` at once, each a `loopgate run --resume` in its clone, leading
//! a process group of its own, until the end rule, the budget or a signal says stop.
//!
//! Stopping is the tournament's job, not the terminal's: a candidate's group is its own, so Ctrl-C at the
//! terminal reaches only the tournament, and `kill PID` or a closed terminal (SIGHUP) reach it the same way.
//! At the first signal (`crate::interrupt`), or when the end rule or the budget decides, every running candidate
//! gets SIGTERM — its `loopgate run` records its loop `cancelled` and stops its agent and verify within its own
//! grace — and any group still there [`STOP_GRACE`] later gets SIGKILL, so every candidate is gone within about
//! three seconds. Should the tournament itself die outright (SIGKILL), its warden (`process::tether`, armed by
//! the caller) stops the groups it was told of, and each candidate's own warden stops its agent.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use std::os::unix::process::CommandExt;

use super::events::Event;
use crate::cli::Until;
use crate::exit_codes;
use crate::process::{tether, unix};

/// How often the running candidates are looked at.
const POLL: Duration = Duration::from_millis(100);
/// How often each candidate's history is read: its row of the live table redrawn (`watch`), its cost added up.
const LOOK: Duration = Duration::from_secs(1);
/// From a candidate's SIGTERM to its group's SIGKILL: past its own `loopgate run`'s grace for its agent
/// (`process::KILL_GRACE`), well inside the five seconds a person waits.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// How the candidates run: how many at once, when the tournament ends, and its dollar budget.
pub(super) struct Rules {
    pub(super) jobs: usize,
    pub(super) until: Until,
    pub(super) max_cost: Option<f64>,
}

/// What every candidate's `loopgate run` is started with.
pub(super) struct Launch<'a> {
    /// Flags after `run --resume`.
    pub(super) flags: &'a [String],
    /// Where the candidates' logs go (`cK.log`).
    pub(super) dir: &'a Path,
    /// The user's paths no candidate may write (`plane::CANDIDATE_KEEP_ENV`).
    pub(super) keep: &'a std::ffi::OsStr,
    /// Where the candidates' starts and ends are told (`--json`).
    pub(super) events: super::events::Events,
    /// Every candidate's tree where they are overlays (`layer`), else empty: each candidate starts without the
    /// others'.
    pub(super) layered: &'a [PathBuf],
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
    pub(crate) started: Option<Instant>,
    pub(crate) seconds: f64,
    /// When it was told to stop (SIGTERM), if it was.
    stopping: Option<Instant>,
}

impl Entrant {
    pub(super) fn new(name: String, loop_id: String, tree: PathBuf, argv: Vec<String>) -> Self {
        Entrant {
            name,
            loop_id,
            tree,
            argv,
            child: None,
            exit: None,
            started: None,
            seconds: 0.0,
            stopping: None,
        }
    }

    /// Its `loopgate run`'s pid, as a process-group id (it leads its group), while it has not been reaped.
    fn group(&self) -> Option<unix::pid_t> {
        self.child.as_ref().and_then(|c| unix::pid_t::try_from(c.id()).ok())
    }
}

/// Runs the candidates until they all ended; returns the signal that interrupted the tournament, if one did,
/// and whether the budget (`--max-cost`, over every candidate) was spent.
pub(super) fn compete(entrants: &mut [Entrant], launch: &Launch<'_>, rules: &Rules) -> (Option<i32>, bool) {
    let mut next = 0;
    let mut decided = false;
    let mut spent = false;
    let mut last_look: Option<Instant> = None;
    let mut board = super::watch::Board::new(launch.events);
    loop {
        let interrupted = crate::interrupt::requested();
        let running = entrants.iter().filter(|e| e.child.is_some()).count();
        let open = !decided && !spent && interrupted.is_none();
        if open && next < entrants.len() && running < rules.jobs {
            let entrant = &mut entrants[next];
            next += 1;
            match spawn(entrant, launch) {
                Ok(child) => {
                    tether::group(unix::pid_t::try_from(child.id()).unwrap_or(0), true);
                    entrant.child = Some(child);
                    entrant.started = Some(Instant::now());
                    launch.events.emit(&Event::CandidateStarted {
                        name: &entrant.name,
                        loop_id: &entrant.loop_id,
                    });
                }
                Err(err) => board.say(&format!("loopgate: candidate {} could not start: {err}", entrant.name)),
            }
            continue;
        }
        if running == 0 && (!open || next >= entrants.len()) {
            board.show(rows(entrants));
            board.finish();
            return (interrupted, spent);
        }
        if !open {
            stop(entrants);
        }
        std::thread::sleep(POLL);
        for entrant in entrants.iter_mut() {
            if !reap(entrant) {
                continue;
            }
            board.say(&format!(
                "loopgate: candidate {} ended ({}) after {:.0}s",
                entrant.name,
                ending_word(entrant.exit),
                entrant.seconds
            ));
            launch.events.emit(&Event::CandidateEnded {
                name: &entrant.name,
                exit: entrant.exit,
                seconds: entrant.seconds,
            });
            if rules.until == Until::First && entrant.exit == Some(exit_codes::OK) {
                decided = true;
            }
        }
        if last_look.is_some_and(|at| at.elapsed() < LOOK) {
            continue;
        }
        last_look = Some(Instant::now());
        let rows = rows(entrants);
        let dollars: f64 = rows.iter().filter_map(|r| r.cost_usd).sum();
        board.show(rows);
        if let Some(max) = rules.max_cost
            && !spent
            && dollars >= max
        {
            board.say(&format!(
                "loopgate: the tournament's cost budget is spent: ${dollars:.4} of --max-cost ${max:.2}; stopping the candidates"
            ));
            spent = true;
        }
    }
}

/// Every candidate's row now, from its history (see `watch`).
fn rows(entrants: &[Entrant]) -> Vec<super::watch::Row> {
    entrants
        .iter()
        .map(|e| {
            let seconds = match (e.child.is_some(), e.started) {
                (true, Some(started)) => started.elapsed().as_secs_f64(),
                _ => e.seconds,
            };
            super::watch::Row::read(&e.name, &e.tree, &e.loop_id, e.started.is_some(), seconds)
        })
        .collect()
}

/// Reaps the candidate if its `loopgate run` ended; whether it just did.
fn reap(entrant: &mut Entrant) -> bool {
    let Some(child) = entrant.child.as_mut() else {
        return false;
    };
    let Ok(Some(status)) = child.try_wait() else {
        return false;
    };
    tether::group(unix::pid_t::try_from(child.id()).unwrap_or(0), false);
    entrant.exit = status.code().and_then(|c| u8::try_from(c).ok());
    entrant.seconds = entrant.started.map_or(0.0, |s| s.elapsed().as_secs_f64());
    entrant.child = None;
    true
}

/// SIGTERM to every running candidate's group not told yet; SIGKILL to any still there [`STOP_GRACE`] after.
/// Only groups whose leader is not reaped yet are signalled: the id cannot have been reused.
fn stop(entrants: &mut [Entrant]) {
    let now = Instant::now();
    for entrant in entrants.iter_mut() {
        let Some(group) = entrant.group() else { continue };
        match entrant.stopping {
            None => {
                // Its `loopgate run` stops its agent and verify and records the loop cancelled.
                unix::terminate_group(group);
                entrant.stopping = Some(now);
            }
            Some(since) if now - since >= STOP_GRACE => unix::kill_group(group),
            Some(_) => {}
        }
    }
}

/// Starts one candidate: `loopgate run --resume` in its clone, leading its own process group, its output in
/// `dir/cK.log`; its world keeps it off the store, the user's repository and the other candidates.
fn spawn(entrant: &Entrant, launch: &Launch<'_>) -> std::io::Result<Child> {
    let log = std::fs::File::create(launch.dir.join(format!("{}.log", entrant.name)))?;
    let exe = std::env::current_exe()?;
    // The warden is there before the child is (see the module docs).
    tether::ensure();
    let mut command = Command::new(exe);
    if !launch.layered.is_empty() {
        let (others, room) = super::layer::alone(launch.dir, &entrant.tree, launch.layered)?;
        // SAFETY: the closure makes system calls on strings prepared before the fork.
        unsafe {
            command.pre_exec(move || crate::confine::mount::layer::alone(&others, room.as_ref()));
        }
    }
    command
        .arg("run")
        .arg("--resume")
        .args(launch.flags)
        .arg("--")
        .args(&entrant.argv)
        .current_dir(&entrant.tree)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env(crate::plane::CANDIDATE_TREE_ENV, &entrant.tree)
        .env(crate::plane::CANDIDATE_KEEP_ENV, launch.keep)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .process_group(0)
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
