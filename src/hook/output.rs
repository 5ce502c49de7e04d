//! Hook output: the JSON loopgate prints for Claude Code.
//!
//! For Stop, `decision: block` with a `reason` sends the model back to work (the model reads the reason);
//! printing nothing lets it stop. `systemMessage` is shown to the user only.

use serde::Serialize;

/// What a hook prints; `None` fields are left out.
#[derive(Debug, Default, Serialize)]
pub(crate) struct HookOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<String>,
    #[serde(rename = "systemMessage", skip_serializing_if = "Option::is_none")]
    pub(crate) system_message: Option<String>,
    #[serde(rename = "hookSpecificOutput", skip_serializing_if = "Option::is_none")]
    pub(crate) hook_specific: Option<serde_json::Value>,
    /// An escape sequence Claude Code writes to the terminal (2.1.141 and later; present in 2.1.197 and 2.1.330,
    /// which accept OSC 0/1/2/9/99/777 and BEL only): loopgate's desktop notification.
    #[serde(rename = "terminalSequence", skip_serializing_if = "Option::is_none")]
    pub(crate) terminal_sequence: Option<String>,
}

impl HookOutput {
    /// Keep the agent working; the model reads `reason`.
    pub(crate) fn block(reason: String, system_message: String) -> Self {
        Self {
            decision: Some("block"),
            reason: Some(reason),
            system_message: Some(system_message),
            ..Self::default()
        }
    }

    /// Adds a desktop notification (OSC 9, which terminals such as iTerm2, Windows Terminal, kitty, WezTerm and
    /// ghostty show): `text` with its control characters dropped, after `loopgate: ` (an OSC 9 body may not
    /// begin with a digit), at most 120 characters.
    #[must_use]
    pub(crate) fn with_notification(mut self, text: &str) -> Self {
        let clean: String = text.chars().filter(|c| !c.is_control()).take(110).collect();
        self.terminal_sequence = Some(format!("\u{1b}]9;loopgate: {clean}\u{7}"));
        self
    }

    /// Let the agent stop, telling the user why.
    pub(crate) fn allow(system_message: String) -> Self {
        Self {
            system_message: Some(system_message),
            ..Self::default()
        }
    }

    /// Extra context for the model at session start.
    pub(crate) fn session_context(context: String, system_message: Option<String>) -> Self {
        let specific = serde_json::json!({"hookEventName": "SessionStart", "additionalContext": context});
        Self {
            hook_specific: Some(specific),
            system_message,
            ..Self::default()
        }
    }

    /// Extra context for the model with the prompt the user submitted (UserPromptSubmit).
    pub(crate) fn prompt_context(context: String, system_message: String) -> Self {
        let specific = serde_json::json!({"hookEventName": "UserPromptSubmit", "additionalContext": context});
        Self {
            hook_specific: Some(specific),
            system_message: Some(system_message),
            ..Self::default()
        }
    }

    /// Refuse a tool call; the model reads the reason as the tool's error.
    pub(crate) fn deny_tool(reason: String) -> Self {
        let specific = serde_json::json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        });
        Self {
            hook_specific: Some(specific),
            ..Self::default()
        }
    }

    /// Puts `notice` before whatever this output already tells the user.
    #[must_use]
    pub(crate) fn with_notice_first(mut self, notice: String) -> Self {
        self.system_message = Some(match self.system_message.take() {
            Some(message) => format!("{notice} {message}"),
            None => notice,
        });
        self
    }

    /// The JSON line to print.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }
}
