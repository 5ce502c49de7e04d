//! Carrying out a request for the user (see `control` for the request itself): by the `UserPromptSubmit` hook when the command's block ran before it
//! (Claude Code 2.1.197), or by the `PreToolUse` hook before the agent's first tool call when the prompt hook
//! ran first and left a ticket in the store (2.1.330). Both hooks run outside Claude Code's sandbox.

use crate::cli::Agent;
use crate::commands::install::ready::{self, Ready};
use crate::control::{Kind, Request, request};
use crate::project::Project;

/// What carrying out a request tells the model (`context`) and the user (`notice`).
pub(crate) struct Done {
    pub(crate) context: String,
    pub(crate) notice: String,
}

/// Seals the loop, cancels it or resumes it, as `pending` asks, for `session`.
pub(crate) fn carry_out(project: Project, session: &str, pending: &Request) -> Done {
    match pending.kind {
        Kind::Setup => match crate::commands::setup::start_from_text(project, session, &pending.text) {
            Ok(briefing) => Done {
                context: briefing,
                notice: format!(
                    "loopgate: the loop is sealed (by a loopgate hook, outside {}'s sandbox).",
                    crate::cli::client().title()
                ),
            },
            Err(err) => Done {
                context: format!("loopgate: the loop did NOT start: {err}. No loop is running for this prompt."),
                notice: format!("loopgate: the loop did not start: {err}"),
            },
        },
        Kind::Cancel => {
            let line = crate::commands::cancel::cancel_in(&project)
                .unwrap_or_else(|err| format!("loopgate: nothing was cancelled: {err}"));
            Done {
                context: line.clone(),
                notice: line,
            }
        }
        Kind::Resume => {
            let line = crate::commands::resume::resume_in(&project, session, false)
                .unwrap_or_else(|err| format!("loopgate: nothing was resumed: {err}"));
            Done {
                context: line.clone(),
                notice: line,
            }
        }
    }
}

/// The pending request of `session` that the user's prompt already confirmed (a ticket in the store), carried
/// out; `None` — after one `stat` — when there is none.
pub(crate) fn carry_out_confirmed(project: &Project, session: &str) -> Option<Done> {
    let pending = request::take_confirmed(project, session)?;
    Some(carry_out(project.clone(), session, &pending))
}

/// [`carry_out`] for a request typed in another agent CLI (`agent`). A loop starts only where that CLI will run
/// loopgate's Stop and pre-tool hooks (`commands::install::ready`): otherwise nothing would enforce it, so the
/// start is refused with the reason and the fix. A loop that starts is recorded as `agent`'s, for `status`.
pub(crate) fn carry_out_from(agent: Agent, project: Project, session: &str, pending: &Request) -> Done {
    if pending.kind != Kind::Setup {
        return carry_out(project, session, pending);
    }
    if let Ready::No { why, fix } = ready::check(agent, &project.root, true) {
        let line = crate::messages::agents::not_ready(&why, &fix);
        return Done {
            context: format!("{line} Tell the user exactly this; do not work on the task as a loop."),
            notice: line,
        };
    }
    let done = carry_out(project.clone(), session, pending);
    let store = crate::seal::Store::open();
    if let Ok(Some(seal)) = store.load(&project)
        && seal.fields.progress.session_id == session
    {
        let _ = store.save_companion(
            &project,
            crate::seal::AGENT,
            &(&seal.fields.config.loop_id, agent.name()),
        );
    }
    done
}
