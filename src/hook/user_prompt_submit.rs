//! The UserPromptSubmit hook: the user's hand in the control plane.
//!
//! Claude Code runs it for every prompt the user submits — never for anything the agent does — outside its OS
//! sandbox, after a slash command's pre-executed block has run, with the submitted text in `prompt`. When that
//! text is `/pua-loop …` or `/cancel-loop` and the command's block left a matching request (see
//! `control::request`), the hook carries it out: it seals the loop (the block could not write the seal store
//! from inside the sandbox, or was asked to replace a running loop) or cancels it. The briefing reaches the
//! model as `additionalContext`; the user sees one line. Every other prompt costs one string comparison.

use super::{HookInput, HookOutput};
use crate::control::request;
use crate::project::Project;

pub(crate) fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    let Some(prompt) = input.prompt.as_deref() else {
        return Ok(None);
    };
    if request::command_of(prompt).is_none() {
        return Ok(None);
    }
    let project = Project::for_hook(input.cwd.as_deref());
    let session = input.session_id.as_deref().unwrap_or_default();
    if input.agent != crate::cli::Agent::Claude {
        return Ok(by_prompt(input.agent, project, session, prompt));
    }
    let Some(pending) = request::take(&project, session, prompt) else {
        // Claude Code 2.1.330 runs this hook *before* the command's block: leave a ticket in the store (which
        // a sandboxed command cannot write) saying the user submitted this command; the block reads it.
        request::save_ticket(&project, session, prompt);
        return Ok(None);
    };
    let done = super::carry::carry_out(project, session, &pending);
    Ok(Some(HookOutput::prompt_context(done.context, done.notice)))
}

/// An agent with no slash-command block of its own (Codex CLI, Gemini CLI): the prompt the user typed — this hook
/// runs for the user's prompts only, never for what the agent does — is the request, and its text the
/// arguments. `loopgate install --agent` writes the agent's commands that expand to such a prompt.
fn by_prompt(agent: crate::cli::Agent, project: Project, session: &str, prompt: &str) -> Option<HookOutput> {
    let (kind, text) = request::command_of(prompt)?;
    if session.is_empty() {
        return None;
    }
    let pending = request::Request::new(kind, session, text);
    let done = super::carry::carry_out_from(agent, project, session, &pending);
    Some(HookOutput::prompt_context(done.context, done.notice))
}
