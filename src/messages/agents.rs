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
            "loopgate: ready for GitHub Copilot CLI: hooks in `{hooks}` (built from Copilot CLI's documented hook format, not yet run against Copilot itself). In a new session, type: /pua-loop \"task\" --verify 'cmd' (or /cancel-loop); `loopgate status` in a terminal."
        ),
        Agent::Opencode => format!(
            "loopgate: ready for opencode: a plugin in `{hooks}` (built from opencode's plugin API, not yet run against opencode itself). In a new session, type: /pua-loop \"task\" --verify 'cmd' (or /cancel-loop); `loopgate status` in a terminal."
        ),
        Agent::Claude => "loopgate: ready.".to_string(),
    }
}

/// The one line Codex lists beside a loopgate skill (`$CODEX_HOME/skills/NAME/SKILL.md`), when the user presses
/// `$`.
pub(crate) fn codex_skill_summary(name: &str) -> String {
    let what = match name {
        "pua-loop" => "start a loop held by a sealed verify: $pua-loop \"task\" --verify 'cmd'",
        "cancel-loop" => "end this project's loop",
        "resume-loop" => "resume this project's paused loop in this session",
        _ => "show this project's loop (loopgate status)",
    };
    format!("loopgate: {what}")
}

/// What the model reads when the user names a loopgate skill in Codex. loopgate's prompt hook carries the
/// command out and hands the model its context; where no such context came, the hooks did not run (Codex skips
/// hooks it does not trust, without a word), and this text is the only one left to say so.
pub(crate) fn codex_skill_body(name: &str) -> String {
    if name == "loop-status" {
        return "Run `loopgate status` and show its output to the user as it is.".to_string();
    }
    format!(
        "The user's message is loopgate's `${name}` command. loopgate's prompt hook carries it out and gives you its context with this message: follow that context.\n\nIf no context from loopgate came with this message, loopgate's hooks did not run and nothing was done: do not work on the message as a loop. Tell the user: \"loopgate: ${name} did nothing: Codex ran none of loopgate's hooks (they are missing or not trusted). Run `loopgate install --agent codex` (or review the hooks with /hooks), then start a new session.\""
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
