//! The decision at a stop — `ARCHITECTURE.md`, "The loop, per Stop event" — shared by the Stop hook and
//! `loopgate run`.
//!
//! Fast path first: no loop, another session's loop or a paused loop → nothing to do, nothing touched.
//! Otherwise the loop is read and written under the project lock, which is released while the verify command
//! runs (it may take minutes; `loopgate cancel` must not wait for it) and re-checked afterwards: if the loop was
//! cancelled or moved on meanwhile, the verify result is dropped and the agent may stop.
//!
//! Submodules: `survey` (working-tree progress and tokens, at every stop), `verdict` (what a verify run means
//! for the loop), `iterate` (record, limits, the stall breaker, the block), `ending` (complete, abort, pause,
//! and the report of a loop that ends without success), `block_cap` (Claude Code's limit on blocks in a row),
//! `outcome` (what the stop decided, in loopgate's terms: the Stop hook and `loopgate run` each read it),
//! `budgets` (`--max-tokens` and `--max-cost`, measured from the transcript).

pub mod block_cap;
pub(crate) mod budgets;
pub(crate) mod duplicate;
mod ending;
pub(crate) mod failure;
mod iterate;
mod outcome;
mod survey;
mod verdict;

use std::path::Path;

use crate::block_reason::Failure;
use crate::error::Error;
use crate::lifecycle::{self, ActiveLoop, Lookup, lookup};
use crate::messages::Event;
use crate::oracle::{self, Verdict};
use crate::project::Project;
use crate::state::{LoopStatus, VerifyOn};
use crate::tags::{self, Signal};

pub(crate) use outcome::{LetGo, Outcome};
pub(crate) use survey::Survey;

/// One stop of `session`'s loop in `project`. `message` (the agent's last message) is only produced once the
/// loop is known to be this session's; `transcript` feeds the token budget; `turn` is what a Claude Code Stop
/// hook says about the turn (`None` for `loopgate run`, which has no block cap).
pub(crate) fn at_stop(
    project: &Project,
    session: &str,
    transcript: Option<&Path>,
    turn: Option<&block_cap::Turn>,
    message: impl FnOnce() -> String,
) -> Result<Option<Outcome>, Error> {
    let started_ns = duplicate::now_ns();
    if !owned_by(project, session)? {
        return Ok(None);
    }
    let message = message();
    let lock = lifecycle::lock(project)?;
    let Some(mut active) = owned_loop(project, session)? else {
        return Ok(None);
    };
    // Twins are told apart by the transcript, which grows between real stops: without one, no stop is a twin.
    let transcript_len = transcript
        .and_then(|t| std::fs::metadata(t).ok())
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len());
    if let (Some(turn), Some(transcript_len)) = (turn, transcript_len) {
        let key = duplicate::key(session, turn, &message, transcript_len);
        let timeout = active.seal.fields.config.verify.verify_timeout;
        // A real next stop starts after the last decision's final write of the seal (its answer is printed after
        // that write, then Claude Code asks the model again); a twin was started with the stop it repeats, before
        // that write or within a process start-up of it.
        let sealed_ns = std::fs::metadata(active.store.path_for(project))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX));
        let after_last_write = sealed_ns.is_some_and(|at| started_ns > at + duplicate::START_JITTER_NS);
        if !after_last_write && duplicate::repeats(active.seal.last_stop.as_ref(), &key, started_ns, timeout) {
            return Ok(None);
        }
        active.seal.last_stop = Some(duplicate::LastStop {
            key,
            arrived_ns: duplicate::now_ns(),
            decided_ns: None,
        });
    }
    active.reconcile()?;
    active.put_back_tests()?;
    let mut notice = None;
    let tally = match turn {
        Some(turn) => {
            let (tally, unanswered) = block_cap::arrive(&mut active, turn, turn.cap);
            if let Some(pending) = unanswered {
                notice = Some(block_cap::report_unanswered(
                    &mut active,
                    &pending,
                    "stop",
                    (turn.cap, turn.own_cap),
                )?);
            }
            Some(tally)
        }
        None => None,
    };
    let mut survey = survey::take(&mut active, transcript);
    survey.tally = tally;
    if let Some(receipt) = &survey.usage {
        // The turn's receipt, before the stop's own record (the seal is written with that one).
        let f = &active.seal.fields;
        let usage = crate::history::event::Usage {
            receipt: receipt.clone(),
            spent: f.progress.tokens.spent.clone().unwrap_or_default(),
        };
        let record = crate::history::Record::new(
            active.loop_id(),
            f.progress.iteration,
            crate::history::Event::Usage(usage),
        );
        active.record_unsaved(&record)?;
    }
    let decided = decide(project, session, lock, active, survey, message)?;
    // (Without a decision — another stop moved the loop on meanwhile — the record alone tells.)
    Ok(match notice {
        Some(notice) => decided.map(|out| out.with_notice_first(notice)),
        None => decided,
    })
}

/// The decision proper, once the loop is known to be `session`'s and its stop survey.
fn decide(
    project: &Project,
    session: &str,
    lock: crate::fsutil::LockGuard,
    mut active: Box<ActiveLoop>,
    mut survey: Survey,
    message: String,
) -> Result<Option<Outcome>, Error> {
    // Decided from here on (what follows is this stop's own work): a twin that started later is an answer.
    mark_decided(&mut active);
    let fields = &active.seal.fields;
    let signal = tags::scan(&message, &fields.config.completion_promise);
    survey.read(&message, &signal);
    // No tool call since loopgate's last block, no tag and (where it is probed) no change in the working tree:
    // a give-up by behaviour, whatever the words. A changed tree means something was done, seen or not.
    let talked_only = survey.tally.as_ref().is_some_and(|t| t.without_tool > 0) && survey.tree_changed != Some(true);
    if signal == Signal::None && survey.give_up.is_none() && talked_only {
        survey.give_up = Some(crate::giveup::talk_only(&message));
    }
    let wants_verify = match &signal {
        Signal::Promise => true,
        Signal::None => {
            fields.config.verify.verify_on == VerifyOn::Always && fields.config.verify.verify_command.is_some()
        }
        Signal::Abort(_) | Signal::Pause(_) => false,
    };
    match signal {
        Signal::Abort(reason) => ending::abort(active, &reason),
        Signal::Pause(need) => ending::pause(active, &need),
        Signal::None if !wants_verify => iterate::without_claim(active, &survey),
        claim => {
            // Keep what this stop surveyed before letting go of the lock.
            active.write()?;
            let iteration = active.seal.fields.progress.iteration;
            drop(lock);
            // Claude Code stops a hook past its timeout: the verify's group is stopped and the stash put back
            // first (installed here, not at every stop: the fast path stays free of it).
            let _ = crate::interrupt::install_quiet();
            // Killed outright (SIGKILL: a client's hook timeout), the hook can tidy nothing: its warden stops the
            // verify's group and puts the stash back at once (`process::tether`).
            let tether = crate::process::tether::arm(&project.root);
            let verdict = oracle::judge(&active, iteration, oracle::Caller::StopHook);
            // A pass completes the loop (at a promise, or at any stop with `verify_on: always`): it goes to the
            // reviewer first, when the loop has one, still outside the lock.
            let review = match &verdict {
                Ok(Verdict::Pass(run)) => {
                    let now = survey.checkpoint.as_ref().and_then(|c| c.as_ref().ok());
                    crate::review::at_promise(&active, run, now.map(String::as_str))
                }
                _ => None,
            };
            drop(tether);
            let verdict = verdict?;
            let _lock = lifecycle::lock(project)?;
            let Some(mut fresh) = owned_loop(project, session)? else {
                return Ok(None);
            };
            if fresh.loop_id() != active.loop_id() || fresh.seal.fields.progress.iteration != iteration {
                return Ok(None);
            }
            fresh.tamper = std::mem::take(&mut active.tamper);
            mark_decided(&mut fresh);
            fresh.warnings = std::mem::take(&mut active.warnings);
            if let Verdict::Pass(run) | Verdict::Fail(run) = &verdict {
                fresh.mark_log(&run.outcome.log_path);
            }
            verdict::apply(fresh, verdict, claim == Signal::Promise, &survey, review)
        }
    }
}

/// Notes in the seal (written with the stop's own write) that the stop in hand has its decision.
fn mark_decided(active: &mut ActiveLoop) {
    if let Some(last) = &mut active.seal.last_stop {
        last.decided_ns = Some(duplicate::now_ns());
    }
}

/// Whether this session owns a running loop here (cheap: reads the seal only).
fn owned_by(project: &Project, session: &str) -> Result<bool, Error> {
    Ok(match lookup(project)? {
        Lookup::None => false,
        Lookup::Unsealed(path) => {
            return Err(Error::Usage(format!(
                "`{}` has no seal, so loopgate does not enforce it; run `loopgate cancel` to remove it",
                path.display()
            )));
        }
        Lookup::Loop(active) => owns(&active, session),
    })
}

fn owned_loop(project: &Project, session: &str) -> Result<Option<Box<ActiveLoop>>, Error> {
    Ok(match lookup(project)? {
        Lookup::Loop(active) if owns(&active, session) => Some(active),
        _ => None,
    })
}

fn owns(active: &ActiveLoop, session: &str) -> bool {
    let fields = &active.seal.fields;
    !session.is_empty() && fields.progress.session_id == session && fields.progress.status == LoopStatus::Running
}

/// The event and failure a block reason is about, with the one-line result for the user.
struct Step<'a> {
    event: Event,
    failure: Failure<'a>,
    result: Option<String>,
}
