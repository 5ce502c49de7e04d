//! The SessionStart hook: hands a loop to the session that should work on it.
//!
//! A paused loop (or one started from a terminal without a session) is adopted by the next session that starts
//! in the project, and its task reaches the model as additional context. A session's own running loop is
//! re-injected after compaction or a resume, with the iteration and the last failure, because the summary that
//! replaces the conversation may have dropped them. Another session's running loop is left alone.

use crate::error::Error;
use crate::history::{self, Record, Status};
use crate::history::{Event, event::Resumed};
use crate::hook::{HookInput, HookOutput};
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::messages::{self, Handover, HandoverLabel, user};
use crate::project::Project;
use crate::state::{LoopStatus, State};

/// Most of the context file handed over.
const CONTEXT_BYTES: usize = 4096;

/// Handles one SessionStart event.
pub(crate) fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    decide(input).map_err(|e| e.to_string())
}

fn decide(input: &HookInput) -> Result<Option<HookOutput>, Error> {
    let project = Project::for_hook(input.cwd.as_deref());
    if !matches!(lookup(&project)?, Lookup::Loop(_)) {
        return Ok(None);
    }
    let session = input.session().map_err(Error::Usage)?;
    let _lock = crate::lifecycle::lock(&project)?;
    let Lookup::Loop(mut active) = lookup(&project)? else {
        return Ok(None);
    };
    let f = &active.seal.fields;
    let paused = f.progress.status == LoopStatus::Paused;
    let adopt = paused || f.progress.session_id.is_empty();
    if !adopt && f.progress.session_id != session {
        return Ok(None);
    }
    active.reconcile()?;
    let mut state = active.state();
    if adopt {
        let pause_reason = state.fields.progress.pause_reason.clone();
        let from = state.fields.adopt(session);
        let record = Record::new(
            active.loop_id(),
            state.fields.progress.iteration,
            Event::Resumed(Resumed {
                from_session: from.to_string(),
                session_id: session.to_string(),
                source: input.source.as_deref().unwrap_or("startup").to_string(),
            }),
        );
        active.record(&record)?;
        active.save(&state)?;
        // "Taken over a paused loop" only for one that was paused; a loop started from a terminal was waiting.
        let kind = if paused { Handover::Adopted } else { Handover::Started };
        let context = context(&active, &state, kind, pause_reason.as_deref());
        let notice = user::adopted(state.fields.config.lang, &state.fields.config.loop_id);
        return Ok(Some(HookOutput::session_context(context, Some(notice))));
    }
    // The session's own loop: a block still pending means the turn it continued ended without coming back.
    let notice = match crate::stop::block_cap::unanswered_at_session_start(
        &mut active.seal.fields.progress,
        input.source.as_deref(),
    ) {
        Some(pending) => {
            let cap = super::agent::of(input.agent).block_cap();
            let notice = crate::stop::block_cap::report_unanswered(&mut active, &pending, "session_start", cap)?;
            state = active.state();
            active.save(&state)?;
            Some(notice)
        }
        None => None,
    };
    Ok(Some(HookOutput::session_context(
        context(&active, &state, Handover::Reinjected, None),
        notice,
    )))
}

/// The text the model gets: what is happening, why it paused, notes, last failure, the task, how to finish.
fn context(active: &ActiveLoop, state: &State, kind: Handover, pause_reason: Option<&str>) -> String {
    let f = &state.fields;
    let lang = f.config.lang;
    let mut parts = vec![messages::handover(
        lang,
        kind,
        f.progress.iteration,
        f.config.limits.max_iterations,
    )];
    if let Some(reason) = pause_reason {
        parts.push(format!(
            "{} {reason}",
            messages::handover_label(lang, HandoverLabel::PausedBecause)
        ));
    }
    if kind != Handover::Reinjected
        && let Ok(notes) = std::fs::read(active.project.context_path())
    {
        let notes = String::from_utf8_lossy(&notes[..notes.len().min(CONTEXT_BYTES)]).into_owned();
        parts.push(format!(
            "{}\n{}",
            messages::handover_label(lang, HandoverLabel::Notes),
            notes.trim_end()
        ));
    }
    if let Some(failure) = last_failure(active) {
        parts.push(format!(
            "{}\n{failure}",
            messages::handover_label(lang, HandoverLabel::LastFailure)
        ));
    }
    parts.push(crate::block_reason::task_and_how_to_finish(state));
    parts.join("\n\n")
}

/// The summary (or output tail) of this loop's most recent failed verify, from the history.
fn last_failure(active: &ActiveLoop) -> Option<String> {
    let read = history::read_loop(&active.project.history_path(), active.loop_id()).ok()?;
    let record = read
        .records
        .iter()
        .rfind(|r| matches!(r.status(), Status::PromiseRejected | Status::VerifyFailed))?;
    let verify = record.event.verify()?;
    let body = [&verify.summary, &verify.tail]
        .into_iter()
        .find_map(|text| text.as_deref().filter(|s| !s.is_empty()))?;
    Some(format!("(iteration {}) {}", record.iteration, body.trim_end()))
}
