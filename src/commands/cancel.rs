//! `loopgate cancel`: ends the loop now, whatever the agent is doing, and records `cancelled`.
//!
//! It must work even when something holds the project lock (a hook stuck in a long verify): after the bounded
//! wait it proceeds without the lock. The Stop hook re-checks the seal after every verify, so it drops its result
//! instead of resurrecting the loop.

use crate::error::Error;
use crate::exit_codes;
use crate::history::Record;
use crate::history::{Event, event::Reason};
use crate::lifecycle::{Lookup, lookup};
use crate::project::Project;

/// Runs `loopgate cancel`. Inside Claude Code's sandbox (where `/cancel-loop`'s block runs) the seal store
/// cannot be written, so the cancel is left as a request the `UserPromptSubmit` hook carries out for the
/// user's own `/cancel-loop` (see `control`).
pub fn run() -> Result<u8, Error> {
    let project = Project::for_terminal();
    let caller = crate::control::Caller::from_env();
    if caller.in_claude_code && caller.sandboxed {
        let session = super::session_from(None);
        crate::control::Request::new(crate::control::Kind::Cancel, &session, "")
            .save(&project)
            .map_err(|source| Error::Io {
                action: "write the cancel request",
                path: project.root.join(crate::control::request::REQUEST_FILE),
                source,
            })?;
        crate::say(
            "loopgate: Claude Code's sandbox keeps loopgate's store out of reach here, so the cancel is carried out by loopgate's UserPromptSubmit hook — only if it came from your own /cancel-loop.",
        );
        return Ok(exit_codes::OK);
    }
    crate::say(cancel_in(&project)?);
    Ok(exit_codes::OK)
}

/// Ends the loop of `project` as `cancelled`; the line to show.
pub fn cancel_in(project: &Project) -> Result<String, Error> {
    let lock = super::lock(project);
    if let Err(err) = &lock {
        eprintln!("loopgate: {err}; cancelling anyway");
    }
    match lookup(project)? {
        Lookup::None => Err(Error::NoLoop {
            root: project.root.clone(),
        }),
        Lookup::Unsealed(path) => {
            std::fs::remove_file(&path).map_err(|source| Error::Io {
                action: "remove",
                path: path.clone(),
                source,
            })?;
            Ok(format!("loopgate: removed unsealed state file `{}`", path.display()))
        }
        Lookup::Loop(active) => {
            let (loop_id, iteration) = (active.loop_id().to_string(), active.seal.fields.iteration);
            let record = Record::new(
                &loop_id,
                iteration,
                Event::Cancelled(Reason::new("cancelled by the user")),
            );
            active.end(&record)?;
            Ok(format!(
                "loopgate: cancelled loop `{loop_id}` at iteration {iteration}."
            ))
        }
    }
}
