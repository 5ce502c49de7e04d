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

/// Runs `loopgate cancel`.
pub fn run() -> Result<u8, Error> {
    let project = Project::for_terminal();
    let lock = super::lock(&project);
    if let Err(err) = &lock {
        eprintln!("loopgate: {err}; cancelling anyway");
    }
    match lookup(&project)? {
        Lookup::None => Err(Error::NoLoop { root: project.root }),
        Lookup::Unsealed(path) => {
            std::fs::remove_file(&path).map_err(|source| Error::Io {
                action: "remove",
                path: path.clone(),
                source,
            })?;
            crate::say(format!("loopgate: removed unsealed state file `{}`", path.display()));
            Ok(exit_codes::OK)
        }
        Lookup::Loop(active) => {
            let (loop_id, iteration) = (active.loop_id().to_string(), active.seal.fields.iteration);
            let record = Record::new(
                &loop_id,
                iteration,
                Event::Cancelled(Reason::new("cancelled by the user")),
            );
            active.end(&record)?;
            crate::say(format!(
                "loopgate: cancelled loop `{loop_id}` at iteration {iteration}."
            ));
            Ok(exit_codes::OK)
        }
    }
}
