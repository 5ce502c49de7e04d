//! Claude Code's wire format of a [`HookOutput`]: `decision: block` with a `reason` for Stop, `systemMessage`
//! for the user, `hookSpecificOutput` keyed by `hookEventName` for the other events, and `terminalSequence`
//! for a desktop notification. Keys left out when they have nothing to say.

use serde::Serialize;
use serde_json::Value;

use super::{Answer, ContextEvent, HookOutput, ToolVerdict};

/// The JSON object Claude Code reads, in the order loopgate has always written its keys.
#[derive(Serialize)]
struct Wire<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(rename = "systemMessage", skip_serializing_if = "Option::is_none")]
    system_message: Option<&'a str>,
    #[serde(rename = "hookSpecificOutput", skip_serializing_if = "Option::is_none")]
    hook_specific: Option<Specific<'a>>,
    /// An escape sequence Claude Code writes to the terminal (2.1.141 and later; present in 2.1.197 and 2.1.330,
    /// which accept OSC 0/1/2/9/99/777 and BEL only): loopgate's desktop notification.
    #[serde(rename = "terminalSequence", skip_serializing_if = "Option::is_none")]
    terminal_sequence: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Decision {
    Block,
}

/// `hookSpecificOutput`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Specific<'a> {
    hook_event_name: &'static str,
    #[serde(flatten)]
    tool: Option<Tool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_context: Option<&'a str>,
}

/// PreToolUse's verdict on the tool call.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Tool<'a> {
    Deny {
        permission_decision: &'static str,
        permission_decision_reason: &'a str,
    },
    Rewrite {
        updated_input: &'a Value,
    },
}

/// The JSON line to print.
pub(super) fn render(output: &HookOutput) -> String {
    let mut wire = Wire {
        decision: None,
        reason: None,
        system_message: output.notice.as_deref(),
        hook_specific: None,
        // OSC 9, which terminals such as iTerm2, Windows Terminal, kitty, WezTerm and ghostty show; the body
        // follows `loopgate: `, since an OSC 9 body may not begin with a digit.
        terminal_sequence: output
            .notification
            .as_ref()
            .map(|text| format!("\u{1b}]9;loopgate: {text}\u{7}")),
    };
    match &output.answer {
        Answer::Allow => {}
        Answer::Block { reason } => {
            wire.decision = Some(Decision::Block);
            wire.reason = Some(reason);
        }
        Answer::Context { event, context } => {
            wire.hook_specific = Some(Specific {
                hook_event_name: match event {
                    ContextEvent::SessionStart => "SessionStart",
                    ContextEvent::UserPromptSubmit => "UserPromptSubmit",
                },
                tool: None,
                additional_context: Some(context),
            });
        }
        Answer::Tool { verdict, context } => {
            wire.hook_specific = Some(Specific {
                hook_event_name: "PreToolUse",
                tool: verdict.as_ref().map(|verdict| match verdict {
                    ToolVerdict::Deny { reason } => Tool::Deny {
                        permission_decision: "deny",
                        permission_decision_reason: reason,
                    },
                    ToolVerdict::Rewrite { input } => Tool::Rewrite { updated_input: input },
                }),
                additional_context: context.as_deref(),
            });
        }
    }
    serde_json::to_string(&wire).unwrap_or_else(|_| "{}".to_string())
}

#[cfg(test)]
mod tests {
    use super::super::HookOutput;

    #[test]
    fn each_answer_has_claude_codes_keys_in_their_order() {
        let cases = [
            (
                HookOutput::block("go on".into(), "iteration 2".into()),
                r#"{"decision":"block","reason":"go on","systemMessage":"iteration 2"}"#,
            ),
            (
                HookOutput::allow("done".into()).with_notification("loop\u{7} complete"),
                "{\"systemMessage\":\"done\",\"terminalSequence\":\"\\u001b]9;loopgate: loop complete\\u0007\"}",
            ),
            (
                HookOutput::session_context("ctx".into(), None),
                r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}"#,
            ),
            (
                HookOutput::prompt_context("ctx".into(), "note".into()),
                r#"{"systemMessage":"note","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}"#,
            ),
            (
                HookOutput::deny_tool("no".into()).with_tool_context("brief".into()),
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"brief"}}"#,
            ),
            (
                HookOutput::rewrite_tool(serde_json::json!({"command": "x"})),
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"x"}}}"#,
            ),
            (
                HookOutput::default()
                    .with_tool_context("brief".into())
                    .with_notice_first("started".into()),
                r#"{"systemMessage":"started","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"brief"}}"#,
            ),
            (HookOutput::default(), "{}"),
        ];
        for (output, json) in cases {
            assert_eq!(output.to_json(), json, "{output:?}");
        }
    }
}
