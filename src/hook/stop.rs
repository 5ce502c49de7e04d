//! The Stop hook: reads the hook input, finds the agent's last message, hands the decision to `stop`, and turns
//! its [`Outcome`] into Claude Code's JSON (a block with the `reason` the model reads, or a stop allowed with a
//! `systemMessage` for the user and, at the end of a loop, a desktop notification).

use std::path::Path;

use crate::hook::{HookInput, HookOutput};
use crate::project::Project;

use crate::stop::Outcome;
pub(crate) use crate::stop::at_stop;
use crate::stop::block_cap::Turn;

/// Handles one Stop event.
pub(crate) fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    let project = Project::for_hook(input.cwd.as_deref());
    let Ok(session) = input.session() else {
        // Without a session nothing can be decided; say so only when there is a loop to be missed.
        return match crate::lifecycle::lookup(&project).map_err(|e| e.to_string())? {
            crate::lifecycle::Lookup::Loop(_) => Err(format!(
                "hook input has no `session_id`, so the loop in `{}` was not enforced",
                project.root.display()
            )),
            _ => Ok(None),
        };
    };
    // A /pua-loop or /cancel-loop the user's prompt confirmed, in a turn without a tool call (see `control`).
    let pending = super::carry::carry_out_confirmed(&project, session);
    let transcript = input.transcript_path.as_deref().map(Path::new);
    let (cap, own_cap) = super::agent::of(input.agent).block_cap();
    let turn = Turn {
        prompt_id: input.prompt_id.clone(),
        stop_hook_active: input.stop_hook_active,
        cap,
        own_cap,
    };
    let output = at_stop(&project, session, transcript, Some(&turn), || last_message(input))
        .map_err(|e| e.to_string())?
        .map(output)
        .map(|out| with_hooks_checked(input.agent, &project, out));
    Ok(match pending {
        Some(done) => Some(output.unwrap_or_default().with_notice_first(done.notice)),
        None => output,
    })
}

/// A loop's stop in another agent CLI: where that CLI will not run loopgate's hooks (its pre-tool hook edited,
/// untrusted or gone; the Stop hook itself runs, or this would not), the user is told at this stop, with the fix
/// (`commands::install::ready`). Two small files read, only at a loop's stop of such an agent.
fn with_hooks_checked(agent: crate::cli::Agent, project: &Project, out: HookOutput) -> HookOutput {
    if agent == crate::cli::Agent::Claude {
        return out;
    }
    match crate::commands::install::ready::check(agent, &project.root, true) {
        crate::commands::install::ready::Ready::No { why, fix } => {
            out.with_notice_first(crate::messages::agents::unprotected(&why, &fix))
        }
        _ => out,
    }
}

/// Claude Code's JSON for a stop's outcome.
pub(crate) fn output(outcome: Outcome) -> HookOutput {
    match outcome {
        Outcome::Block { reason, notice } => HookOutput::block(reason, notice),
        Outcome::LetGo {
            notice, notification, ..
        } => {
            let out = HookOutput::allow(notice);
            match notification {
                Some(text) => out.with_notification(&text),
                None => out,
            }
        }
    }
}

/// `last_assistant_message`, or the transcript read from its end when the client did not send it.
fn last_message(input: &HookInput) -> String {
    if let Some(message) = &input.last_assistant_message {
        return message.clone();
    }
    if let Some(message) = super::agent::of(input.agent).last_message(input) {
        return message;
    }
    input
        .transcript_path
        .as_deref()
        .and_then(|path| crate::transcript::last_assistant_text(Path::new(path)).ok().flatten())
        .unwrap_or_default()
}
