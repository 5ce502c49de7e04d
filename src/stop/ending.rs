//! The ways a stop lets the agent go: the oracle passed (complete), the agent gave up (abort) or needs the user
//! (pause), a limit was reached, or the loop stalled. A loop that ends without success leaves a report.

use crate::error::Error;
use crate::history::event::{self, Reason};
use crate::history::{self, Event, Record, Status};
use crate::lifecycle::ActiveLoop;
use crate::messages::{self, user};
use crate::oracle::Run;
use crate::report;
use crate::schema::Speech;
use crate::state::{LoopStatus, State};

use super::{LetGo, Outcome};

/// The oracle passed (or there is none): the loop is done.
/// `review`: what the reviewer decided, when the loop has one (clean, or not reviewed and why).
pub(crate) fn complete(
    active: Box<ActiveLoop>,
    run: Option<&Run>,
    review: Option<crate::schema::ReviewNote>,
) -> Result<Option<Outcome>, Error> {
    let f = &active.seal.fields;
    let (lang, iteration, rejections) = (
        f.config.lang,
        f.progress.iteration,
        f.progress.rejections.promise_rejections,
    );
    let record = Record::new(
        active.loop_id(),
        iteration,
        Event::Complete(event::Complete {
            promise_rejections: rejections,
            verify: run.map(Run::result),
            review: review.clone(),
        }),
    );
    let mut notice = user::complete(lang, iteration, rejections, run.is_some());
    if let Some(note) = &review {
        notice.push_str(&messages::review::at_complete(lang, note));
    }
    if run.is_some_and(|run| run.summary.zero_tests) {
        notice.push_str(&user::suspicious(lang));
    }
    let notice = with_tamper(
        notice + &super::budgets::said(lang, f, true).unwrap_or_default(),
        &active,
    );
    let notification = notification(&active, "loop complete");
    let back = active.end(&record)?;
    Ok(Some(Outcome::LetGo {
        how: LetGo::Complete,
        notice: notice + &held_out_back(&back),
        notification,
    }))
}

/// The held-out tests' put-back lines, as a sentence after the notice.
fn held_out_back(lines: &str) -> String {
    lines.lines().map(|line| format!(" {line}")).collect()
}

/// The agent says the task cannot be done.
pub(crate) fn abort(active: Box<ActiveLoop>, reason: &str) -> Result<Option<Outcome>, Error> {
    let f = &active.seal.fields;
    let notice = user::aborted(f.config.lang, reason);
    let record = Record::new(
        active.loop_id(),
        f.progress.iteration,
        Event::Aborted(Reason::new(reason)),
    );
    unsuccessful(active, record, notice)
}

/// Ends the loop with `end` (a limit or an abort), writes the report and tells the user where it is.
pub(crate) fn unsuccessful(active: Box<ActiveLoop>, end: Record, notice: String) -> Result<Option<Outcome>, Error> {
    let state = active.state(); // for the report, written once the loop has ended
    let lang = state.fields.config.lang;
    let status = end.status();
    let detail = end.event.reason().unwrap_or(status.as_str()).to_string();
    let told = with_tamper(
        super::budgets::said(lang, &state.fields, true).unwrap_or_default(),
        &active,
    );
    let project = active.project.clone();
    let ended = format!("loop ended without success ({})", status.as_str());
    let notification = notification(&active, &ended);
    let how = match status {
        Status::Aborted => LetGo::Aborted(detail.clone()),
        _ => LetGo::Limit(status),
    };
    let back = active.end(&end)?;
    let notice = notice + &report_notice(&project, &state, status, &detail, lang) + &told + &held_out_back(&back);
    Ok(Some(Outcome::LetGo {
        how,
        notice,
        notification,
    }))
}

/// The circuit breaker tripped: pause (not end) the loop, so the user can unblock it and resume.
pub(crate) fn stall(mut active: Box<ActiveLoop>, why: &str) -> Result<Option<Outcome>, Error> {
    let f = &mut active.seal.fields;
    let (lang, iteration) = (f.config.lang, f.progress.iteration);
    f.progress.status = LoopStatus::Paused;
    f.progress.pause_reason = Some(format!("stalled: {why}"));
    active.record_unsaved(&Record::new(
        active.loop_id(),
        iteration,
        Event::Stalled(Reason::new(why)),
    ))?;
    active.write()?;
    let path = report::write(
        &active.project,
        &active.state(),
        &records(&active),
        Status::Stalled,
        why,
    )
    .map_or_else(|e| format!("(not written: {e})"), |p| p.display().to_string());
    Ok(Some(Outcome::LetGo {
        how: LetGo::Stalled(why.to_string()),
        notice: with_tamper(user::stalled(lang, why, &path), &active),
        notification: notification(&active, &format!("loop stalled: {why}")),
    }))
}

/// One more block would pass Claude Code's stop-hook block cap (see `block_cap`): let the turn end here, the
/// loop still running, and tell the user how to go on. The next message in the session continues the loop.
pub(crate) fn at_block_cap(
    mut active: Box<ActiveLoop>,
    tally: &super::block_cap::Tally,
) -> Result<Option<Outcome>, Error> {
    let record = super::block_cap::yielded(active.loop_id(), active.seal.fields.progress.iteration, tally);
    active.record_unsaved(&record)?;
    let f = &mut active.seal.fields;
    f.progress.iteration += 1;
    f.progress.pending_block = None;
    let notice = if tally.own_cap {
        messages::cap::own_cap_yielded(f.config.lang, tally.without_tool, f.progress.iteration)
    } else {
        messages::cap::yielded(f.config.lang, tally.without_tool, f.progress.iteration)
    };
    active.write()?;
    Ok(Some(goes_on(with_tamper(notice, &active))))
}

/// The agent needs something only the user can give.
pub(crate) fn pause(mut active: Box<ActiveLoop>, need: &str) -> Result<Option<Outcome>, Error> {
    let f = &mut active.seal.fields;
    let (lang, iteration) = (f.config.lang, f.progress.iteration);
    f.progress.status = LoopStatus::Paused;
    f.progress.pause_reason = Some(need.to_string());
    active.record_unsaved(&Record::new(
        active.loop_id(),
        iteration,
        Event::Paused(Reason::new(need)),
    ))?;
    active.write()?;
    let unwritten = write_context_if_missing(&active, need)
        .map(|err| format!(" (`{}` not written: {err})", crate::project::CONTEXT_FILE))
        .unwrap_or_default();
    Ok(Some(Outcome::LetGo {
        how: LetGo::Paused(need.to_string()),
        notice: with_tamper(user::paused(lang, need), &active) + &unwritten,
        notification: notification(&active, &format!("loop paused: {need}")),
    }))
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
    let records = history::read_loop(&project.history_path(), &state.fields.config.loop_id)
        .map(|read| read.records)
        .unwrap_or_default();
    match report::write(project, state, &records, status, detail) {
        Ok(path) => user::report(lang, &path.display().to_string()),
        Err(err) => format!(" (report not written: {err})"),
    }
}

/// Leaves `.claude/pua-loop-context.md` for the next session unless the agent wrote one during this loop; the
/// error when it could not be written (a link in its place: never written through, see `fsutil::nofollow`).
fn write_context_if_missing(active: &ActiveLoop, need: &str) -> Option<std::io::Error> {
    let path = active.project.context_path();
    let (fields, task) = (&active.seal.fields, &active.seal.task);
    let started = fields.started().ok();
    // A link is no note of the agent's (its own time says nothing): it is refused below, and the user told.
    let written_by_agent = std::fs::symlink_metadata(&path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|m| m.modified().ok())
        .zip(started)
        .is_some_and(|(modified, started)| chrono::DateTime::<chrono::Utc>::from(modified) >= started);
    if written_by_agent {
        return None;
    }
    let text = format!(
        "# Paused loop `{}`\n\nPaused at iteration {} because the agent needs: {need}\n\n## Task\n\n{}\n",
        fields.config.loop_id,
        fields.progress.iteration,
        task.trim_end()
    );
    crate::fsutil::write_atomic(&path, text.as_bytes(), 0o644).err()
}

/// The desktop notification of a stop that lets the agent go, unless the loop was set up `--no-notify`.
fn notification(active: &ActiveLoop, text: &str) -> Option<String> {
    active.seal.fields.config.notify.then(|| text.to_string())
}

/// The turn ends, the loop goes on with the next message in the session; no notification.
pub(crate) fn goes_on(notice: String) -> Outcome {
    Outcome::LetGo {
        how: LetGo::GoesOn,
        notice,
        notification: None,
    }
}

/// Appends the tampering notices, then the warnings (a state file that could not be written), to a user message.
pub(crate) fn with_tamper(message: String, active: &ActiveLoop) -> String {
    let lang = active.seal.fields.config.lang;
    let message = active
        .tamper
        .iter()
        .fold(message, |acc, what| format!("{acc} {}", messages::tampered(lang, what)));
    active
        .warnings
        .iter()
        .fold(message, |acc, warning| format!("{acc} ⚠ {warning}."))
}
