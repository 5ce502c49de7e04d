//! The ways a stop lets the agent go: the oracle passed (complete), the agent gave up (abort) or needs the user
//! (pause), a limit was reached, or the loop stalled. A loop that ends without success leaves a report.

use crate::error::Error;
use crate::history::event::{self, Reason};
use crate::history::{self, Event, Record, Status};
use crate::hook::HookOutput;
use crate::lifecycle::ActiveLoop;
use crate::messages::{self, user};
use crate::oracle::Run;
use crate::report;
use crate::schema::Speech;
use crate::state::{LoopStatus, State};

/// The oracle passed (or there is none): the loop is done.
pub fn complete(active: Box<ActiveLoop>, run: Option<&Run>) -> Result<Option<HookOutput>, Error> {
    let f = &active.seal.fields;
    let (lang, iteration, rejections) = (f.lang, f.iteration, f.promise_rejections);
    let record = Record::new(
        active.loop_id(),
        iteration,
        Event::Complete(event::Complete {
            promise_rejections: rejections,
            verify: run.map(Run::result),
        }),
    );
    let mut notice = user::complete(lang, iteration, rejections, run.is_some());
    if run.is_some_and(|run| run.summary.zero_tests) {
        notice.push_str(&user::suspicious(lang));
    }
    let notice = with_tamper(notice, &active);
    let out = notify(HookOutput::allow(notice), &active, "loop complete");
    active.end(&record)?;
    Ok(Some(out))
}

/// The agent says the task cannot be done.
pub fn abort(active: Box<ActiveLoop>, reason: &str) -> Result<Option<HookOutput>, Error> {
    let state = active.state();
    let lang = state.fields.lang;
    let record = Record::new(
        active.loop_id(),
        state.fields.iteration,
        Event::Aborted(Reason::new(reason)),
    );
    unsuccessful(active, &state, record, user::aborted(lang, reason))
}

/// Ends the loop with `end` (a limit or an abort), writes the report and tells the user where it is.
pub fn unsuccessful(
    active: Box<ActiveLoop>,
    state: &State,
    end: Record,
    notice: String,
) -> Result<Option<HookOutput>, Error> {
    let lang = state.fields.lang;
    let status = end.status();
    let detail = end.event.reason().unwrap_or(status.as_str()).to_string();
    let told = with_tamper(String::new(), &active);
    let project = active.project.clone();
    let ended = format!("loop ended without success ({})", status.as_str());
    let out = notify(HookOutput::default(), &active, &ended);
    active.end(&end)?;
    let notice = notice + &report_notice(&project, state, status, &detail, lang) + &told;
    Ok(Some(HookOutput {
        system_message: Some(notice),
        ..out
    }))
}

/// The circuit breaker tripped: pause (not end) the loop, so the user can unblock it and resume.
pub fn stall(mut active: Box<ActiveLoop>, mut state: State, why: &str) -> Result<Option<HookOutput>, Error> {
    let lang = state.fields.lang;
    state.fields.status = LoopStatus::Paused;
    state.fields.pause_reason = Some(format!("stalled: {why}"));
    active.record_unsaved(&Record::new(
        active.loop_id(),
        state.fields.iteration,
        Event::Stalled(Reason::new(why)),
    ))?;
    active.save(&state)?;
    let path = report::write(&active.project, &state, &records(&active), Status::Stalled, why)
        .map_or_else(|e| format!("(not written: {e})"), |p| p.display().to_string());
    let out = HookOutput::allow(with_tamper(user::stalled(lang, why, &path), &active));
    Ok(Some(notify(out, &active, &format!("loop stalled: {why}"))))
}

/// One more block would pass Claude Code's stop-hook block cap (see `block_cap`): let the turn end here, the
/// loop still running, and tell the user how to go on. The next message in the session continues the loop.
pub fn at_block_cap(
    mut active: Box<ActiveLoop>,
    mut state: State,
    tally: &super::block_cap::Tally,
) -> Result<Option<HookOutput>, Error> {
    let lang = state.fields.lang;
    let record = super::block_cap::yielded(active.loop_id(), state.fields.iteration, tally);
    active.record_unsaved(&record)?;
    state.fields.iteration += 1;
    state.fields.pending_block = None;
    active.save(&state)?;
    let notice = messages::cap::yielded(lang, tally.without_tool, state.fields.iteration);
    Ok(Some(HookOutput::allow(with_tamper(notice, &active))))
}

/// The agent needs something only the user can give.
pub fn pause(mut active: Box<ActiveLoop>, need: &str) -> Result<Option<HookOutput>, Error> {
    let mut state = active.state();
    state.fields.status = LoopStatus::Paused;
    state.fields.pause_reason = Some(need.to_string());
    active.record_unsaved(&Record::new(
        active.loop_id(),
        state.fields.iteration,
        Event::Paused(Reason::new(need)),
    ))?;
    active.save(&state)?;
    write_context_if_missing(&active, &state, need);
    let out = HookOutput::allow(with_tamper(user::paused(state.fields.lang, need), &active));
    Ok(Some(notify(out, &active, &format!("loop paused: {need}"))))
}

fn records(active: &ActiveLoop) -> Vec<Record> {
    history::read_loop(&active.project.history_path(), active.loop_id())
        .map(|read| read.records)
        .unwrap_or_default()
}

fn report_notice(
    project: &crate::project::Project,
    state: &State,
    status: Status,
    detail: &str,
    lang: Speech,
) -> String {
    let records = history::read_loop(&project.history_path(), &state.fields.loop_id)
        .map(|read| read.records)
        .unwrap_or_default();
    match report::write(project, state, &records, status, detail) {
        Ok(path) => user::report(lang, &path.display().to_string()),
        Err(err) => format!(" (report not written: {err})"),
    }
}

/// Leaves `.claude/pua-loop-context.md` for the next session unless the agent wrote one during this loop.
fn write_context_if_missing(active: &ActiveLoop, state: &State, need: &str) {
    let path = active.project.context_path();
    let started = state.fields.started().ok();
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

/// Adds the desktop notification to a stop that lets the agent go, unless the loop was set up `--no-notify`.
fn notify(out: HookOutput, active: &ActiveLoop, text: &str) -> HookOutput {
    if active.seal.fields.notify {
        out.with_notification(text)
    } else {
        out
    }
}

/// Appends the tampering notices, then the warnings (a state file that could not be written), to a user message.
pub fn with_tamper(message: String, active: &ActiveLoop) -> String {
    let lang = active.seal.fields.lang;
    let message = active
        .tamper
        .iter()
        .fold(message, |acc, what| format!("{acc} {}", messages::tampered(lang, what)));
    active
        .warnings
        .iter()
        .fold(message, |acc, warning| format!("{acc} ⚠ {warning}."))
}
