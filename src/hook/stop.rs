//! The Stop hook: the decision table of SPEC.md, "The loop, per Stop event".
//!
//! Fast path first: no loop, another session's loop or a paused loop → print nothing, touch nothing. Otherwise
//! the state is read and written under the project lock, which is released while the verify command runs (it may
//! take minutes; `loopgate cancel` must not wait for it) and re-checked afterwards: if the loop was cancelled or
//! changed meanwhile, the verify result is dropped and the agent may stop.

use std::time::Duration;

use crate::error::Error;
use crate::feedback::{Failure, Reason};
use crate::history::{Record, Status};
use crate::hook::{HookInput, HookOutput};
use crate::lifecycle::{self, ActiveLoop, Lookup, lookup};
use crate::messages::{self, Event, user};
use crate::oracle::{self, Run, Verdict};
use crate::project::Project;
use crate::signals::{self, Signal};
use crate::state::{LoopStatus, State, VerifyOn};

/// Handles one Stop event.
pub fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    decide(input).map_err(|e| e.to_string())
}

fn decide(input: &HookInput) -> Result<Option<HookOutput>, Error> {
    let project = Project::for_hook(input.cwd.as_deref());
    let session = input.session_id.as_deref().unwrap_or_default();
    at_stop(&project, session, || last_message(input))
}

/// One stop of `session`'s loop in `project`: the whole decision table. `message` (the agent's last message) is
/// only read once the loop is known to be this session's. Shared by the Stop hook and `loopgate run`.
pub fn at_stop(
    project: &Project,
    session: &str,
    message: impl FnOnce() -> String,
) -> Result<Option<HookOutput>, Error> {
    if !owned_by(project, session)? {
        return Ok(None);
    }
    let lock = lifecycle::lock(project)?;
    let Some(mut active) = owned_loop(project, session)? else {
        return Ok(None);
    };
    active.reconcile()?;
    let message = message();
    let fields = &active.seal.fields;
    let signal = signals::scan(&message, &fields.completion_promise);
    let wants_verify = match &signal {
        Signal::Promise => true,
        Signal::None => fields.verify_on == VerifyOn::Always && fields.verify_command.is_some(),
        Signal::Abort(_) | Signal::Pause(_) => false,
    };
    match signal {
        Signal::Abort(reason) => abort(active, &reason),
        Signal::Pause(need) => pause(active, &need),
        Signal::None if !wants_verify => next_iteration(active, Event::Continue, &Failure::None, None),
        claim => {
            let iteration = active.seal.fields.iteration;
            drop(lock);
            let verdict = oracle::judge(&active, iteration, oracle::Caller::StopHook)?;
            let _lock = lifecycle::lock(project)?;
            let tamper = std::mem::take(&mut active.tamper);
            let Some(mut fresh) = owned_loop(project, session)? else {
                return Ok(None);
            };
            if fresh.loop_id() != active.loop_id() || fresh.seal.fields.iteration != iteration {
                return Ok(None);
            }
            fresh.tamper = tamper;
            if let Verdict::Pass(run) | Verdict::Fail(run) = &verdict {
                fresh.mark_log(&run.outcome.log_path);
            }
            apply_verdict(fresh, verdict, claim == Signal::Promise)
        }
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
    !session.is_empty() && fields.session_id == session && fields.status == LoopStatus::Running
}

/// `last_assistant_message`, or the transcript read from its end when the client did not send it.
fn last_message(input: &HookInput) -> String {
    if let Some(message) = &input.last_assistant_message {
        return message.clone();
    }
    input
        .transcript_path
        .as_deref()
        .and_then(|path| {
            crate::transcript::last_assistant_text(std::path::Path::new(path))
                .ok()
                .flatten()
        })
        .unwrap_or_default()
}

fn apply_verdict(active: Box<ActiveLoop>, verdict: Verdict, promised: bool) -> Result<Option<HookOutput>, Error> {
    match verdict {
        Verdict::Honor => complete(active, None),
        Verdict::Pass(run) => complete(active, Some(&run)),
        Verdict::SealBroken(changes) => {
            let mut state = active.state();
            count_rejection(&mut state);
            let paths: Vec<String> = changes.iter().map(|c| format!("{} ({})", c.path(), c.kind())).collect();
            let record = Record::new(active.loop_id(), state.fields.iteration, Status::PromiseRejected)
                .with("verify_exit", serde_json::Value::Null)
                .with("timed_out", false)
                .with("rejections", state.fields.promise_rejections)
                .with("sealed_changes", paths);
            let summary = format!("{} sealed file(s) changed", changes.len());
            next_iteration_with(
                active,
                state,
                Event::SealBroken,
                &Failure::Sealed(&changes),
                record,
                Some(summary),
            )
        }
        Verdict::Fail(run) => {
            let mut state = active.state();
            let (status, event) = if promised {
                count_rejection(&mut state);
                (Status::PromiseRejected, Event::PromiseRejected)
            } else {
                (Status::VerifyFailed, Event::VerifyFailed)
            };
            let f = &mut state.fields;
            f.same_failure_streak = if f.last_fingerprint.as_deref() == Some(&run.fingerprint) {
                f.same_failure_streak + 1
            } else {
                1
            };
            f.last_fingerprint = Some(run.fingerprint.clone());
            let record = run
                .annotate(Record::new(active.loop_id(), f.iteration, status))
                .with("rejections", f.promise_rejections);
            let failure = Failure::Verify {
                run: &run,
                same_failure_streak: f.same_failure_streak,
            };
            next_iteration_with(active, state, event, &failure, record, Some(run.result_text()))
        }
    }
}

fn count_rejection(state: &mut State) {
    state.fields.promise_rejections += 1;
    state.fields.rejections_in_a_row += 1;
}

/// A stop without a claim: record `continue` and go on (or end at a limit).
fn next_iteration(
    active: Box<ActiveLoop>,
    event: Event,
    failure: &Failure,
    summary: Option<String>,
) -> Result<Option<HookOutput>, Error> {
    let mut state = active.state();
    state.fields.rejections_in_a_row = 0;
    let record = Record::new(active.loop_id(), state.fields.iteration, Status::Continue);
    next_iteration_with(active, state, event, failure, record, summary)
}

/// Records what happened, ends the loop at a limit, or blocks with the feedback for the next iteration.
fn next_iteration_with(
    mut active: Box<ActiveLoop>,
    mut state: State,
    event: Event,
    failure: &Failure,
    record: Record,
    summary: Option<String>,
) -> Result<Option<HookOutput>, Error> {
    active.record(&record)?;
    let lang = state.fields.lang;
    let iteration = state.fields.iteration;
    if let Some((status, what)) = limit_reached(&state) {
        let end = Record::new(active.loop_id(), iteration, status)
            .with("promise_rejections", state.fields.promise_rejections);
        let tamper = active.tamper.clone();
        active.end(&end)?;
        return Ok(Some(HookOutput::allow(with_tamper(
            user::limit(lang, what, iteration),
            &tamper,
            lang,
        ))));
    }
    state.fields.iteration += 1;
    active.save(&state)?;
    let reason = Reason {
        project: &active.project,
        state: &state,
        event,
        failure: *failure,
        tamper: &active.tamper,
    }
    .render();
    let notice = match summary {
        Some(result) if event != Event::Continue => user::rejected(lang, iteration, &result),
        _ => user::iteration(lang, state.fields.iteration, state.fields.max_iterations),
    };
    Ok(Some(HookOutput::block(
        reason,
        with_tamper(notice, &active.tamper, lang),
    )))
}

/// `max_iterations` or `max_duration`, when reached.
fn limit_reached(state: &State) -> Option<(Status, &'static str)> {
    let f = &state.fields;
    if f.max_iterations > 0 && f.iteration >= f.max_iterations {
        return Some((Status::MaxIterations, "max_iterations"));
    }
    let limit = Duration::from_secs(f.max_duration?);
    let started = chrono::DateTime::parse_from_rfc3339(&f.started_at).ok()?;
    let elapsed = chrono::Utc::now()
        .signed_duration_since(started)
        .to_std()
        .unwrap_or_default();
    (elapsed >= limit).then_some((Status::MaxDuration, "max_duration"))
}

fn complete(active: Box<ActiveLoop>, run: Option<&Run>) -> Result<Option<HookOutput>, Error> {
    let f = &active.seal.fields;
    let (lang, iteration, rejections) = (f.lang, f.iteration, f.promise_rejections);
    let mut record = Record::new(active.loop_id(), iteration, Status::Complete).with("promise_rejections", rejections);
    if let Some(run) = run {
        record = run.annotate(record);
    }
    let tamper = active.tamper.clone();
    active.end(&record)?;
    Ok(Some(HookOutput::allow(with_tamper(
        user::complete(lang, iteration, rejections, run.is_some()),
        &tamper,
        lang,
    ))))
}

fn abort(active: Box<ActiveLoop>, reason: &str) -> Result<Option<HookOutput>, Error> {
    let f = &active.seal.fields;
    let lang = f.lang;
    let record = Record::new(active.loop_id(), f.iteration, Status::Aborted).with("reason", reason);
    active.end(&record)?;
    Ok(Some(HookOutput::allow(user::aborted(lang, reason))))
}

fn pause(mut active: Box<ActiveLoop>, need: &str) -> Result<Option<HookOutput>, Error> {
    let mut state = active.state();
    state.fields.status = LoopStatus::Paused;
    state.fields.pause_reason = Some(need.to_string());
    active.record(&Record::new(active.loop_id(), state.fields.iteration, Status::Paused).with("reason", need))?;
    active.save(&state)?;
    write_context_if_missing(&active, &state, need);
    Ok(Some(HookOutput::allow(user::paused(state.fields.lang, need))))
}

/// Leaves `.claude/pua-loop-context.md` for the next session unless the agent wrote one during this loop.
fn write_context_if_missing(active: &ActiveLoop, state: &State, need: &str) {
    let path = active.project.context_path();
    let started = chrono::DateTime::parse_from_rfc3339(&state.fields.started_at).ok();
    let written_by_agent = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .zip(started)
        .is_some_and(|(modified, started)| chrono::DateTime::<chrono::Utc>::from(modified) >= started);
    if written_by_agent {
        return;
    }
    let text = format!(
        "# Paused loop `{}`\n\nPaused at iteration {} because the agent needs: {need}\n\n## Task\n\n{}\n",
        state.fields.loop_id,
        state.fields.iteration,
        state.task.trim_end()
    );
    let _ = crate::fsutil::write_atomic(&path, text.as_bytes(), 0o644);
}

fn with_tamper(message: String, tamper: &[String], lang: crate::state::Lang) -> String {
    tamper
        .iter()
        .fold(message, |acc, what| format!("{acc} {}", messages::tampered(lang, what)))
}
