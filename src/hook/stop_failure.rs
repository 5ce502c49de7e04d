//! The StopFailure hook (Claude Code 2.1.78 and later; present in 2.1.197 and 2.1.330): the agent's turn ended on
//! an API error — a rate limit, billing, a server error — instead of at a Stop, so the Stop hook never ran. The
//! loop is not over and nothing about the work was decided: see [`crate::stop::failure`].

use serde_json::Value;

use crate::hook::{HookInput, HookOutput};
use crate::project::Project;

/// Handles one StopFailure event: records it for this session's loop, if it has one.
pub(crate) fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    let project = Project::for_hook(input.cwd.as_deref());
    let Ok(session) = input.session() else {
        return Ok(None);
    };
    let error = input.error.as_deref().filter(|e| !e.is_empty()).unwrap_or("unknown");
    let details = input.error_details.as_ref().map(|value| match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    });
    crate::stop::failure::record(&project, session, error, details)
        .map(|outcome| outcome.map(super::stop::output))
        .map_err(|e| e.to_string())
}
