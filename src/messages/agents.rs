//! What `loopgate install --agent` tells the user (in English, as every `install` line: it has no `--lang`).

use std::path::Path;

use crate::cli::Agent;

/// After installing an agent's hooks: where they are, how to start a loop there, and what the agent needs.
pub(crate) fn installed(agent: Agent, hooks: &Path) -> String {
    let hooks = hooks.display();
    match agent {
        Agent::Codex => format!(
            "loopgate: ready for Codex CLI: hooks in `{hooks}`, trusted in config.toml (Codex skips an untrusted hook without a word: if you edit them, review them with /hooks). In a new Codex session, loopgate's commands are skills: $pua-loop \"task\" --verify 'cmd' · $loop-status · $cancel-loop · $resume-loop (also as the prompt of `codex exec`)."
        ),
        Agent::Gemini => format!(
            "loopgate: ready for Gemini CLI: hooks in `{hooks}`. Gemini CLI runs them only in a trusted folder (trust the project when it asks, or run with --skip-trust). In a new Gemini session: /pua-loop \"task\" --verify 'cmd' · /loop-status · /cancel-loop."
        ),
        Agent::Cursor => format!(
            "loopgate: ready for Cursor: hooks in `{hooks}` (built from Cursor's documented hook format, not yet run against Cursor itself). In a new Agent chat, type: /pua-loop \"task\" --verify 'cmd' (or /cancel-loop); `loopgate status` in a terminal."
        ),
        Agent::Copilot => format!(
            "loopgate: ready for GitHub Copilot CLI: hooks in `{hooks}`, and loopgate's commands as skills. In a new Copilot session (in a folder you trust): /pua-loop \"task\" --verify 'cmd' · /loop-status · /cancel-loop · /resume-loop (also as the prompt of `copilot -p`)."
        ),
        Agent::Opencode => format!(
            "loopgate: ready for opencode: a plugin in `{hooks}` (built from opencode's plugin API, not yet run against opencode itself). In a new session, type: /pua-loop \"task\" --verify 'cmd' (or /cancel-loop); `loopgate status` in a terminal."
        ),
        Agent::Claude => "loopgate: ready.".to_string(),
    }
}

/// The one line a CLI lists beside a loopgate skill (`skills/NAME/SKILL.md`: Codex when the user presses `$`,
/// Copilot CLI under `/`).
pub(crate) fn skill_summary(agent: Agent, name: &str) -> String {
    let what = match name {
        "pua-loop" => format!(
            "start a loop held by a sealed verify: {} \"task\" --verify 'cmd'",
            agent.command("pua-loop")
        ),
        "cancel-loop" => "end this project's loop".to_string(),
        "resume-loop" => "resume this project's paused loop in this session".to_string(),
        _ => "show this project's loop (loopgate status)".to_string(),
    };
    format!("loopgate: {what}")
}

/// What the model reads when the user invokes a loopgate skill. loopgate's prompt hook carries the command out
/// and hands the model its context; where no such context came, the hooks did not run (Codex skips hooks it
/// does not trust, without a word), and this text is the only one left to say so.
pub(crate) fn skill_body(agent: Agent, name: &str) -> String {
    if name == "loop-status" {
        return "Run `loopgate status` and show its output to the user as it is.".to_string();
    }
    let (command, cli, fix) = (
        agent.command(name),
        agent.title(),
        format!("loopgate install --agent {}", agent.name()),
    );
    let review = if agent == Agent::Codex {
        " (or review the hooks with /hooks)"
    } else {
        ""
    };
    format!(
        "The user's message is loopgate's `{command}` command. loopgate's prompt hook carries it out and gives you its context with this message: follow that context.\n\nIf no context from loopgate came with this message, loopgate's hooks did not run and nothing was done: do not work on the message as a loop. Tell the user: \"loopgate: {command} did nothing: {cli} ran none of loopgate's hooks (they are missing or not trusted). Run `{fix}`{review}, then start a new session.\""
    )
}

/// `loopgate uninstall --agent A`: what went.
pub(crate) fn uninstalled(agent: Agent) -> String {
    format!(
        "loopgate: removed loopgate's hooks and commands for {} (and nothing of the CLI's own settings).",
        agent.name()
    )
}

/// After an uninstall without `--purge`: what stays, and the command that removes it.
pub(crate) fn what_stays(store: &Path) -> String {
    format!(
        "loopgate: kept loopgate's store of loops `{}`, shared by every agent CLI (`loopgate uninstall --purge` removes it too), and this binary.",
        store.display()
    )
}

/// A `/pua-loop` typed in an agent CLI whose loopgate hooks will not run (`commands::install::ready`).
pub(crate) fn not_ready(why: &str, fix: &str) -> String {
    format!(
        "loopgate: the loop did NOT start: {why}, so nothing would hold the loop. Fix: {fix}; then start a new session."
    )
}

/// Said at a loop's stop in an agent CLI that will not run one of loopgate's hooks (`commands::install::ready`).
pub(crate) fn unprotected(why: &str, fix: &str) -> String {
    format!("loopgate: control plane: unprotected ({why}). Fix: {fix}; then start a new session.")
}

/// Ends Gemini CLI's `/pua-loop` command (`~/.gemini/commands/pua-loop.toml`): in a folder Gemini does not trust it
/// runs none of loopgate's hooks and the command reaches the model as plain text, so the model is the one left to
/// say that no loop started. Where the hooks run, the prompt hook cuts it off the arguments
/// (`hook::agent::gemini`).
pub(crate) const GEMINI_NO_HOOKS_NOTE: &str = "[loopgate: if no loopgate context about a sealed loop came with this prompt, loopgate's hooks did not run and NO loop started: do not work on it as a loop; tell the user \"loopgate: the loop did NOT start: Gemini CLI runs no hooks in an untrusted folder. Trust this folder (/permissions) and start a new session.\"]";
