//! Hook input: the JSON Claude Code writes on stdin.
//!
//! Read with a hard size cap (a runaway writer cannot make the hook allocate without bound) and parsed
//! leniently: only the fields loopgate uses are read, unknown ones are ignored, and every problem becomes one
//! line naming the input and the field.

use std::io::Read;

use serde::Deserialize;
use serde_json::Value;

/// Largest hook input accepted.
pub const MAX_INPUT: u64 = 10 * 1024 * 1024;

/// The fields loopgate reads from any hook event, in Claude Code's terms: another agent's adapter
/// (`hook::agent`) fills them from its own input.
#[derive(Debug, Default, Deserialize)]
pub struct HookInput {
    /// The agent whose hook this is (set by the adapter, never read from the input).
    #[serde(skip)]
    pub(crate) agent: crate::cli::Agent,
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    #[serde(default)]
    pub source: Option<String>,
    /// Claude Code's permission mode for this call (`default`, `acceptEdits`, `plan`, `bypassPermissions`,
    /// `auto`, …; seen in the Stop and PreToolUse input of 2.1.197 and 2.1.330).
    #[serde(default)]
    pub(crate) permission_mode: Option<String>,
    /// PreToolUse.
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Option<Value>,
    /// Stop and PreToolUse (seen in 2.1.197 and 2.1.330): one id per user prompt, the same for every stop and tool call
    /// of the turns that prompt started.
    #[serde(default)]
    pub(crate) prompt_id: Option<String>,
    /// Codex CLI: one id per user prompt, like Claude Code's `prompt_id` (Stop, PreToolUse, UserPromptSubmit).
    #[serde(default)]
    pub(crate) turn_id: Option<String>,
    /// Gemini CLI's AfterAgent: the model's text over the whole run so far (cumulative, not the last message).
    #[serde(default)]
    pub(crate) prompt_response: Option<String>,
    /// UserPromptSubmit: the text the user submitted (a slash command as typed, e.g. `/pua-loop fix it`).
    #[serde(default)]
    pub(crate) prompt: Option<String>,
    /// Stop: whether this stop follows a continuation forced by a Stop hook in the same turn.
    #[serde(default)]
    pub(crate) stop_hook_active: Option<bool>,
    /// StopFailure: the kind of API error (`rate_limit`, `billing_error`, …; the hook's matcher field).
    #[serde(default)]
    pub(crate) error: Option<String>,
    /// StopFailure: more about the error, in whatever shape Claude Code sends.
    #[serde(default)]
    pub(crate) error_details: Option<Value>,
    /// Copilot CLI: when the hook was called (RFC 3339), also in the session log's record of the call.
    #[serde(default)]
    pub(crate) timestamp: Option<Value>,
}

/// Another agent's raw input object put into Claude Code's field names before it is read (`hook::agent`).
pub(crate) type Translate<'a> = &'a dyn Fn(&mut serde_json::Map<String, Value>);

/// Reads and parses the hook input for the event `expected` (e.g. `Stop`), after `translate`.
pub(crate) fn read(reader: impl Read, expected: &str, translate: Translate<'_>) -> Result<HookInput, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("failed to read hook input from stdin: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!(
            "hook input on stdin is larger than {} MiB",
            MAX_INPUT / 1024 / 1024
        ));
    }
    parse_with(&bytes, expected, translate)
}

/// Fields read as strings; checked one by one so an error can name the field.
const STRING_FIELDS: &[&str] = &[
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "last_assistant_message",
    "source",
    "tool_name",
    "prompt_id",
    "error",
    "prompt",
    "turn_id",
    "prompt_response",
];

/// Field names, the type they must have in words, and the check for it.
type TypedFields = (&'static [&'static str], &'static str, fn(&Value) -> bool);

/// Fields read as booleans.
const BOOL_FIELDS: &[&str] = &["stop_hook_active"];

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses hook input bytes; see [`read`].
pub fn parse(bytes: &[u8], expected: &str) -> Result<HookInput, String> {
    parse_with(bytes, expected, &|_| {})
}

/// [`parse`], the object first put into Claude Code's field names by `translate`.
pub(crate) fn parse_with(bytes: &[u8], expected: &str, translate: Translate<'_>) -> Result<HookInput, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("hook input on stdin is empty (expected a JSON object)".to_string());
    }
    let mut value: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("hook input on stdin is not valid hook JSON: {e}"))?;
    if let Value::Object(fields) = &mut value {
        translate(fields);
    }
    let Value::Object(fields) = &value else {
        return Err(format!(
            "hook input on stdin is not valid hook JSON: expected an object, found {}",
            kind(&value)
        ));
    };
    let typed: [TypedFields; 2] = [
        (STRING_FIELDS, "a string", Value::is_string),
        (BOOL_FIELDS, "a boolean", Value::is_boolean),
    ];
    for (names, what, fits) in typed {
        for name in names {
            match fields.get(*name) {
                Some(value) if !value.is_null() && !fits(value) => {
                    return Err(format!("hook input field `{name}` must be {what}, not {}", kind(value)));
                }
                _ => {}
            }
        }
    }
    let input: HookInput =
        serde_json::from_value(value).map_err(|e| format!("hook input on stdin is not valid hook JSON: {e}"))?;
    match input.hook_event_name.as_deref() {
        Some(name) if name != expected => {
            return Err(format!(
                "hook input is for event `{name}`, but this is the `{expected}` hook"
            ));
        }
        _ => {}
    }
    Ok(input)
}

impl HookInput {
    /// The session id, required by every event loopgate acts on.
    pub(crate) fn session(&self) -> Result<&str, String> {
        match self.session_id.as_deref() {
            Some(id) if !id.is_empty() => Ok(id),
            _ => Err("hook input has no `session_id`".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_inputs_get_one_line_errors() {
        let cases: [(&[u8], &str); 5] = [
            (b"", "empty"),
            (b"   \n", "empty"),
            (b"not json", "not valid hook JSON"),
            (b"[1,2]", "expected an object, found an array"),
            (br#"{"hook_event_name":"PreToolUse"}"#, "event `PreToolUse`"),
        ];
        for (bytes, expected) in cases {
            let err = parse(bytes, "Stop").expect_err("must fail");
            assert!(err.contains(expected) && !err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn wrong_field_types_are_named() {
        let err = parse(br#"{"session_id": 5}"#, "Stop").expect_err("must fail");
        assert_eq!(err, "hook input field `session_id` must be a string, not a number");
        let err = parse(br#"{"cwd": ["/x"]}"#, "Stop").expect_err("must fail");
        assert!(err.contains("`cwd`") && err.contains("an array"), "{err}");
        let err = parse(br#"{"stop_hook_active": "yes"}"#, "Stop").expect_err("must fail");
        assert_eq!(
            err,
            "hook input field `stop_hook_active` must be a boolean, not a string"
        );
        let err = parse(br#"{"prompt_id": 7}"#, "Stop").expect_err("must fail");
        assert!(err.contains("`prompt_id`"), "{err}");
    }

    #[test]
    fn missing_session_is_named_and_unknown_fields_ignored() {
        let input = parse(br#"{"hook_event_name":"Stop","future_field":{"x":1}}"#, "Stop").expect("parses");
        assert!(input.session().expect_err("no session").contains("session_id"));
    }

    #[test]
    fn oversized_input_is_refused_without_reading_it_all() {
        let huge = std::io::repeat(b' ').take(MAX_INPUT + 100);
        assert!(
            read(huge, "Stop", &|_| {})
                .expect_err("too big")
                .contains("larger than 10 MiB")
        );
    }
}
