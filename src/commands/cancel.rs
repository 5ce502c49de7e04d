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

/// Runs `loopgate cancel`. Inside Claude Code (where `/cancel-loop`'s block runs, and the agent's commands too)
/// the cancel is the user's only: it is carried out at once when the user's prompt already left its ticket
/// (Claude Code 2.1.330 runs the prompt hook first) outside the sandbox, else left as a request for a loopgate
/// hook to carry out for the user's own `/cancel-loop` (see `control`).
pub(crate) fn run() -> Result<u8, Error> {
    let project = Project::for_terminal();
    let caller = crate::control::Caller::from_env();
    let session = super::session_from(None);
    let what = ("/cancel-loop", "ends the loop", "cancel");
    if crate::control::defer_to_prompt(&caller, &project, crate::control::Kind::Cancel, &session, what)? {
        return Ok(exit_codes::OK);
    }
    crate::say(cancel_in(&project)?);
    Ok(exit_codes::OK)
}

/// Ends the loop of `project` as `cancelled`; the line to show.
pub(crate) fn cancel_in(project: &Project) -> Result<String, Error> {
    let lock = super::lock_existing(project);
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
            let (loop_id, iteration) = (active.loop_id().to_string(), active.seal.fields.progress.iteration);
            let spent = spent(project, &active.seal.fields);
            let record = Record::new(
                &loop_id,
                iteration,
                Event::Cancelled(Reason::new("cancelled by the user")),
            );
            let back = active.end(&record)?;
            Ok(format!(
                "{back}loopgate: cancelled loop `{loop_id}` at iteration {iteration}.{spent}"
            ))
        }
    }
}

/// What the loop spent, in the words its own end would have used: against its `--max-cost` or `--max-tokens`
/// (the Stop hook's count, `stop::budgets::said`), else the total of its receipts (`loopgate run`'s agent runs);
/// empty when nothing was counted.
fn spent(project: &Project, fields: &crate::state::StateFields) -> String {
    if let Some(said) = crate::stop::budgets::said(fields.config.lang, fields, true) {
        return said;
    }
    let (spent, runs) = crate::commands::run::spent_in(project, &fields.config.loop_id);
    if runs == 0 {
        return String::new();
    }
    format!("\n{}", crate::commands::run::cost_line(&spent))
}
