//! `loopgate resume`: adopts a paused or orphaned loop into the current Claude Code session.

use crate::error::Error;
use crate::exit_codes;
use crate::history::Record;
use crate::history::{Event, event::Resumed};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;
use crate::state::LoopStatus;

/// Runs `loopgate resume`.
pub(crate) fn run(session_id: Option<String>) -> Result<u8, Error> {
    let session = super::session_from(session_id);
    if session.is_empty() {
        return Err(Error::Usage(
            "no session to resume into: pass `--session-id ID` or run it inside Claude Code (`$CLAUDE_CODE_SESSION_ID`)"
                .into(),
        ));
    }
    let project = Project::for_terminal();
    let _lock = super::lock(&project)?;
    let Lookup::Loop(mut active) = lookup(&project)? else {
        return Err(Error::NoLoop { root: project.root });
    };
    active.reconcile()?;
    let mut state = active.state();
    if state.fields.session_id == session && state.fields.status == LoopStatus::Running {
        crate::say(format!(
            "loopgate: loop `{}` already runs in session `{session}`.",
            state.fields.loop_id
        ));
        return Ok(exit_codes::OK);
    }
    let from = state.fields.adopt(&session);
    let record = Record::new(
        active.loop_id(),
        state.fields.iteration,
        Event::Resumed(Resumed {
            from_session: from.to_string(),
            session_id: session.clone(),
            source: "loopgate resume".into(),
        }),
    );
    active.record(&record)?;
    active.save(&state)?;
    crate::say(format!(
        "loopgate: loop `{}` now runs in session `{session}` (iteration {}).",
        state.fields.loop_id, state.fields.iteration
    ));
    Ok(exit_codes::OK)
}
