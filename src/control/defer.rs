//! `setup` from inside Claude Code: it leaves a [`Request`] that a loopgate hook carries out only for the user's
//! own `/pua-loop` with the same text — or, when the prompt hook already ran and left its ticket, acts at once
//! (outside the sandbox) or leaves the request for the PreToolUse / Stop hook (inside it). `cancel` and `resume`
//! do the same for `/cancel-loop` and `/resume-loop` ([`defer_to_prompt`]).

use super::{Caller, Kind, Request};
use crate::error::Error;
use crate::project::Project;

/// Whether `setup` must leave the loop to the user's prompt — always from inside Claude Code, where the
/// agent's commands run too: the seal store may be out of reach (the sandbox), and starting or replacing a
/// loop is the user's call (else an agent could cancel its loop from a script and start one of its own) — and
/// if so writes the request and says so. `text` is the `--args-stdin` text; a setup without it (flags typed as
/// words, as an agent would) cannot be matched to a prompt and is refused.
pub(crate) fn defer_setup(
    caller: &Caller,
    project: &Project,
    session: &str,
    text: Option<&str>,
) -> Result<bool, Error> {
    if !caller.in_claude_code {
        return Ok(false);
    }
    let Some(text) = text else {
        return Err(Error::ControlRefused {
            action: "start or replace a loop except through /pua-loop",
            marker: caller.marker.unwrap_or("CLAUDECODE"),
        });
    };
    let request = Request::new(Kind::Setup, session, text);
    // The hook may already have run (Claude Code 2.1.330's order) and recorded the user's own prompt.
    let confirmed = super::request::ticket_matches(project, &request, !caller.sandboxed);
    if confirmed && !caller.sandboxed {
        return Ok(false);
    }
    let path = request.save(project).map_err(|source| Error::Io {
        action: "write the setup request",
        path: project.root.join(super::request::REQUEST_FILE),
        source,
    })?;
    let why = if caller.sandboxed {
        "Claude Code's sandbox keeps loopgate's seal store out of reach of the commands it runs"
    } else {
        "inside Claude Code only your own prompt starts or replaces a loop"
    };
    let when = if confirmed {
        "loopgate's PreToolUse hook seals this loop before the agent's first tool call"
    } else {
        "loopgate's UserPromptSubmit hook seals this loop as your prompt is submitted"
    };
    let place = if path.starts_with(&project.root) {
        String::new()
    } else {
        " — the project's `.claude/` is read-only here, so it waits in the temp directory".to_owned()
    };
    println!(
        "loopgate: {why}, so {when} (request `{}`{place}); the loop's briefing comes with it. Had anything but your own /pua-loop written this, nothing happens.",
        path.display()
    );
    Ok(true)
}

/// Whether `loopgate cancel` or `resume` (`kind`) must leave its action to the user's own slash command: from
/// inside Claude Code, unless the user's prompt already left its ticket and we run outside the sandbox. If so,
/// writes the request and says so, with `command` (`/cancel-loop`), what it `does` (`ends the loop`) and the
/// action's `noun` (`cancel`).
pub(crate) fn defer_to_prompt(
    caller: &Caller,
    project: &Project,
    kind: Kind,
    session: &str,
    (command, does, noun): (&str, &str, &str),
) -> Result<bool, Error> {
    if !caller.in_claude_code {
        return Ok(false);
    }
    let request = Request::new(kind, session, "");
    let confirmed = super::request::ticket_matches(project, &request, !caller.sandboxed);
    if confirmed && !caller.sandboxed {
        return Ok(false);
    }
    request.save(project).map_err(|source| Error::Io {
        action: "write the request",
        path: project.root.join(super::request::REQUEST_FILE),
        source,
    })?;
    crate::say(format!(
        "loopgate: inside Claude Code only your own {command} {does}: a loopgate hook carries this {noun} out for that prompt (and for nothing else)."
    ));
    Ok(true)
}
