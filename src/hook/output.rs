//! Hook output: what a hook answers, typed per event and independent of the agent that asked; each agent's wire
//! format is a renderer of it ([`claude`] for Claude Code).
//!
//! For Stop, [`Answer::Block`] sends the model back to work (the model reads the reason); [`Answer::Allow`] lets
//! it stop. The `notice` is shown to the user only.

mod claude;

use serde_json::Value;

/// What a hook prints: the decision for the event, and what the user is told beside it.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct HookOutput {
    pub(crate) answer: Answer,
    /// A line for the user only (the model does not read it).
    pub(crate) notice: Option<String>,
    /// A desktop notification's text (control characters dropped, at most 110 characters).
    pub(crate) notification: Option<String>,
}

/// The decision, by event.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) enum Answer {
    /// Nothing to decide: the agent stops, the tool runs (any event).
    #[default]
    Allow,
    /// Stop: keep the agent working; the model reads `reason`.
    Block { reason: String },
    /// SessionStart and UserPromptSubmit: extra context for the model.
    Context { event: ContextEvent, context: String },
    /// PreToolUse: what happens to the tool call, and extra context for the model with it.
    Tool {
        verdict: Option<ToolVerdict>,
        context: Option<String>,
    },
}

/// The events whose answer is context for the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContextEvent {
    SessionStart,
    UserPromptSubmit,
}

/// PreToolUse: a tool call refused or rewritten.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ToolVerdict {
    /// Refused; the model reads the reason as the tool's error.
    Deny { reason: String },
    /// Run with this input instead (the confined Bash command).
    Rewrite { input: Value },
}

impl HookOutput {
    fn answer(answer: Answer, notice: Option<String>) -> Self {
        Self {
            answer,
            notice,
            notification: None,
        }
    }

    /// Keep the agent working; the model reads `reason`.
    pub(crate) fn block(reason: String, system_message: String) -> Self {
        Self::answer(Answer::Block { reason }, Some(system_message))
    }

    /// Adds a desktop notification: `text` with its control characters dropped, at most 110 characters (the
    /// renderer adds its own prefix).
    #[must_use]
    pub(crate) fn with_notification(mut self, text: &str) -> Self {
        self.notification = Some(text.chars().filter(|c| !c.is_control()).take(110).collect());
        self
    }

    /// Let the agent stop, telling the user why.
    pub(crate) fn allow(system_message: String) -> Self {
        Self::answer(Answer::Allow, Some(system_message))
    }

    /// Extra context for the model at session start.
    pub(crate) fn session_context(context: String, system_message: Option<String>) -> Self {
        let event = ContextEvent::SessionStart;
        Self::answer(Answer::Context { event, context }, system_message)
    }

    /// Extra context for the model with the prompt the user submitted (UserPromptSubmit).
    pub(crate) fn prompt_context(context: String, system_message: String) -> Self {
        let event = ContextEvent::UserPromptSubmit;
        Self::answer(Answer::Context { event, context }, Some(system_message))
    }

    /// Refuse a tool call; the model reads the reason as the tool's error.
    pub(crate) fn deny_tool(reason: String) -> Self {
        Self::tool(ToolVerdict::Deny { reason })
    }

    /// Run a tool call with `input` instead of the one the agent sent.
    pub(crate) fn rewrite_tool(input: Value) -> Self {
        Self::tool(ToolVerdict::Rewrite { input })
    }

    fn tool(verdict: ToolVerdict) -> Self {
        let answer = Answer::Tool {
            verdict: Some(verdict),
            context: None,
        };
        Self::answer(answer, None)
    }

    /// Adds context for the model to a PreToolUse answer (an `Allow` becomes one that only adds context).
    #[must_use]
    pub(crate) fn with_tool_context(mut self, text: String) -> Self {
        match &mut self.answer {
            Answer::Tool { context, .. } => *context = Some(text),
            _ => {
                self.answer = Answer::Tool {
                    verdict: None,
                    context: Some(text),
                }
            }
        }
        self
    }

    /// Puts `notice` before whatever this output already tells the user.
    #[must_use]
    pub(crate) fn with_notice_first(mut self, notice: String) -> Self {
        self.notice = Some(match self.notice.take() {
            Some(message) => format!("{notice} {message}"),
            None => notice,
        });
        self
    }

    /// The JSON line Claude Code reads.
    pub(crate) fn to_json(&self) -> String {
        claude::render(self)
    }
}
