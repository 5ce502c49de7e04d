//! `loopgate resume`: adopts a paused or orphaned loop into a Claude Code session.
//!
//! From a terminal it binds the loop to `--session-id` at once. Inside Claude Code (where `/resume-loop`'s block
//! runs, and the agent's commands too) a resume is the user's only, like a cancel (see `control`): the agent
//! paused to ask the user something, and only the user's own `/resume-loop` prompt sends it back to work — it is
//! carried out at once when that prompt already left its ticket, else left as a request for a loopgate hook.
//!
//! A loop another session is *running* (not paused, not waiting) is not taken without `--force`: rebinding it
//! would leave that session's stops unjudged.

use crate::error::Error;
use crate::exit_codes;
use crate::history::Record;
use crate::history::{Event, event::Resumed};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;
use crate::state::LoopStatus;

/// Runs `loopgate resume`.
pub(crate) fn run(session_id: Option<String>, force: bool) -> Result<u8, Error> {
    let session = super::session_from(session_id);
    if session.is_empty() {
        return Err(Error::Usage(
            "no session to resume into: pass `--session-id ID` (`loopgate status` shows the loop's), or type /resume-loop in the Claude Code session"
                .into(),
        ));
    }
    let project = Project::for_terminal();
    let caller = crate::control::Caller::from_env();
    let what = ("/resume-loop", "resumes the loop", "resume");
    if crate::control::defer_to_prompt(&caller, &project, crate::control::Kind::Resume, &session, what)? {
        return Ok(exit_codes::OK);
    }
    crate::say(resume_in(&project, &session, force)?);
    Ok(exit_codes::OK)
}

/// Binds the loop of `project` to `session`, recording `resumed`; the line to show. A loop another session
/// runs is refused unless `force`.
pub(crate) fn resume_in(project: &Project, session: &str, force: bool) -> Result<String, Error> {
    let _lock = super::lock_existing(project)?;
    let Lookup::Loop(mut active) = lookup(project)? else {
        return Err(Error::NoLoop {
            root: project.root.clone(),
        });
    };
    active.reconcile()?;
    let mut state = active.state();
    let f = &state.fields;
    if f.progress.session_id == session && f.progress.status == LoopStatus::Running {
        return Ok(format!(
            "loopgate: loop `{}` already runs in session `{session}`.",
            f.config.loop_id
        ));
    }
    if f.progress.status == LoopStatus::Running && !f.progress.session_id.is_empty() && !force {
        return Err(Error::Usage(format!(
            "loop `{}` is running in session `{}`, not paused: resuming it here takes it from that session, whose stops would no longer be judged; pass `--force` to take it anyway",
            f.config.loop_id, f.progress.session_id
        )));
    }
    let from = state.fields.adopt(session);
    let record = Record::new(
        active.loop_id(),
        state.fields.progress.iteration,
        Event::Resumed(Resumed {
            from_session: from.to_string(),
            session_id: session.to_string(),
            source: "loopgate resume".into(),
        }),
    );
    active.record(&record)?;
    active.save(&state)?;
    Ok(format!(
        "loopgate: loop `{}` now runs in session `{session}` (iteration {}).",
        state.fields.config.loop_id, state.fields.progress.iteration
    ))
}
