//! A turn that ended on an API error (Claude Code's `StopFailure` hook). Nothing about the work was decided, so
//! nothing of the loop moves: the iteration, the counters and the stall breaker stay as they were. What changes:
//! a `stop_failure` record (the error and its details), the block that was waiting to be answered is forgotten
//! (the turn did not end by the agent's doing, so the next stop must not report it as `turn_ended`), and the
//! user is told that the loop is still running and resumes with the next message in the session.

use crate::error::Error;
use crate::history::event::StopFailure;
use crate::history::{Event, Record};
use crate::lifecycle;
use crate::messages;
use crate::project::Project;

use super::{Outcome, ending, owned_by, owned_loop};

/// Records the failure for `session`'s loop; nothing when this session runs no loop here.
pub(crate) fn record(
    project: &Project,
    session: &str,
    error: &str,
    error_details: Option<String>,
) -> Result<Option<Outcome>, Error> {
    if !owned_by(project, session)? {
        return Ok(None);
    }
    let _lock = lifecycle::lock(project)?;
    let Some(mut active) = owned_loop(project, session)? else {
        return Ok(None);
    };
    active.reconcile()?;
    active.seal.fields.progress.pending_block = None;
    let (lang, iteration) = (active.seal.fields.config.lang, active.seal.fields.progress.iteration);
    let failure = StopFailure {
        error: error.to_string(),
        error_details,
    };
    let record = Record::new(active.loop_id(), iteration, Event::StopFailure(failure));
    active.record_unsaved(&record)?;
    active.write()?;
    let notice = messages::cap::stop_failure(lang, Some(error), iteration);
    Ok(Some(ending::goes_on(ending::with_tamper(notice, &active))))
}
