//! What the agent is given each iteration, how it is handed over, and what of its output counts as its message.
//!
//! Iteration 1 gets the task and the briefing's how-to-finish text; every later iteration gets exactly the
//! `reason` the stop logic returned — the same text the Stop hook sends a Claude Code session — so both styles
//! of loop read alike. A resumed loop opens with the handover a new Claude Code session would get.

use crate::messages::{self, Handover, HandoverLabel};
use crate::state::State;

/// Where the prompt goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Via {
    /// Appended as the agent's last argument.
    LastArg,
    /// Substituted for every `{prompt}` in its arguments.
    Placeholder,
    /// Written to its stdin.
    Stdin,
}

/// The placeholder replaced by the prompt in the agent's arguments.
pub(crate) const PLACEHOLDER: &str = "{prompt}";

/// The first prompt of a new loop.
pub(crate) fn opening(state: &State) -> String {
    let f = &state.fields;
    format!(
        "{}\n\n{}",
        state.task.trim_end(),
        messages::how_to_finish(
            f.config.lang,
            &f.config.completion_promise,
            f.config.verify.verify_command.is_some()
        )
    )
}

/// The first prompt of a resumed loop: what a Claude Code session adopting it would be told.
pub(crate) fn resumed(state: &State, pause_reason: Option<&str>) -> String {
    let f = &state.fields;
    let lang = f.config.lang;
    let mut parts = vec![messages::handover(
        lang,
        Handover::Adopted,
        f.progress.iteration,
        f.config.limits.max_iterations,
    )];
    if let Some(reason) = pause_reason {
        parts.push(format!(
            "{} {reason}",
            messages::handover_label(lang, HandoverLabel::PausedBecause)
        ));
    }
    parts.push(crate::block_reason::task_and_how_to_finish(state));
    parts.join("\n\n")
}

/// The agent's command line with the prompt in place (nothing added when it goes on stdin).
pub(crate) fn argv(agent: &[String], prompt: &str, via: Via) -> Vec<String> {
    match via {
        Via::LastArg => agent.iter().cloned().chain([prompt.to_string()]).collect(),
        Via::Placeholder => agent.iter().map(|arg| arg.replace(PLACEHOLDER, prompt)).collect(),
        Via::Stdin => agent.to_vec(),
    }
}

/// The part of the agent's output its signals are read from.
///
/// Agent CLIs often echo their prompt (`codex exec` prints it), and the prompt quotes loopgate's own
/// instructions — `Reply <loop-abort>why</loop-abort>` — which must not count as the agent aborting. So only
/// the text after the last full echo of the prompt counts, and any line of the prompt that carries a tag
/// *among other words* is removed wherever it appears (a partial echo, or one cut by the output tail). A line
/// that is nothing but a tag (`<promise>LOOP_DONE</promise>`) is kept: that is how an agent answers.
pub(crate) fn agent_message(output: &str, prompt: &str) -> String {
    let prompt = prompt.trim();
    let after_echo = match output.rfind(prompt) {
        Some(at) if !prompt.is_empty() => &output[at + prompt.len()..],
        _ => output,
    };
    prompt
        .lines()
        .map(str::trim)
        .filter(|line| quotes_a_tag(line))
        .fold(after_echo.to_string(), |text, line| text.replace(line, ""))
}

/// A line holding a signal tag and other words besides.
fn quotes_a_tag(line: &str) -> bool {
    let mut rest = line.to_string();
    let mut found = false;
    for name in crate::tags::NAMES {
        let (open, close) = (format!("<{name}>"), format!("</{name}>"));
        while let Some(start) = rest.find(&open) {
            let Some(len) = rest[start..].find(&close) else { break };
            rest.replace_range(start..start + len + close.len(), "");
            found = true;
        }
    }
    found && !rest.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tags::{Signal, scan};

    const HOW: &str = "When done reply with <promise>LOOP_DONE</promise> and loopgate checks.\nNeed something? Reply <loop-pause>what you need</loop-pause>. Impossible? Reply <loop-abort>why</loop-abort>.";

    #[test]
    fn an_echoed_prompt_is_not_a_signal() {
        let prompt = format!("fix the parser\n\n{HOW}");
        let output = format!("user\n{prompt}\n\nthinking...\nI changed parse.rs.\n");
        assert_eq!(scan(&agent_message(&output, &prompt), "LOOP_DONE"), Signal::None);
        // Cut by the tail: only part of the echo is left.
        let cut = &output[output.find("Need something").expect("in output")..];
        assert_eq!(scan(&agent_message(cut, &prompt), "LOOP_DONE"), Signal::None);
    }

    #[test]
    fn the_agents_own_tags_count() {
        let prompt = format!("fix it\n\n{HOW}");
        let output = format!("{prompt}\nDone.\n<promise>LOOP_DONE</promise>\n");
        assert_eq!(scan(&agent_message(&output, &prompt), "LOOP_DONE"), Signal::Promise);
        let abort = "I cannot: <loop-abort>the API is gone</loop-abort>";
        assert_eq!(
            scan(&agent_message(abort, &prompt), "LOOP_DONE"),
            Signal::Abort("the API is gone".into())
        );
        // A task that itself shows the bare promise line does not hide the agent's answer.
        let prompt = "when done print\n<promise>LOOP_DONE</promise>";
        assert_eq!(
            scan(&agent_message("<promise>LOOP_DONE</promise>", prompt), "LOOP_DONE"),
            Signal::Promise
        );
    }

    #[test]
    fn the_prompt_goes_where_asked() {
        let agent: Vec<String> = ["aider", "--message", "{prompt}", "--x={prompt}!"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            argv(&agent, "P", Via::Placeholder),
            ["aider", "--message", "P", "--x=P!"]
        );
        let agent: Vec<String> = ["claude", "-p"].map(String::from).to_vec();
        assert_eq!(argv(&agent, "P q", Via::LastArg), ["claude", "-p", "P q"]);
        assert_eq!(argv(&agent, "P", Via::Stdin), ["claude", "-p"]);
    }
}
