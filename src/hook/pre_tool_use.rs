//! The PreToolUse hook: while a loop is active in the project, keeps the agent's tools off the oracle's files.
//!
//! The decision itself lives in `guard` (pure, unit-tested); this module only gathers what is protected for the
//! active loop — state file, history, verify logs, the seal store and the sealed files — and prints a deny.
//! No loop: allow without reading anything else. The hook sees every tool call (the plugin's matcher is `*`)
//! because any tool call resets Claude Code's stop-hook block count (`stop::block_cap`); only the tools that
//! can write (`guard::inspects`) are checked.

use std::path::{Path, PathBuf};

use crate::guard::{self, Protected, Verdict};
use crate::hook::{HookInput, HookOutput};
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::project::Project;

/// Handles one PreToolUse event.
pub fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    let project = Project::for_hook(input.cwd.as_deref());
    let Lookup::Loop(active) = lookup(&project).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    // Every tool call resets Claude Code's count of stop-hook blocks in a row, so loopgate counts it too.
    if let Ok(session) = input.session() {
        crate::stop::block_cap::note_tool_call(&active, session);
    }
    let tool = input.tool_name.as_deref().unwrap_or_default();
    if !guard::inspects(tool) {
        return Ok(None);
    }
    // Every session is guarded, not only the loop's own: a paused loop's oracle must survive until it resumes,
    // and another session's agent has no business editing this loop's oracle either.
    let tool_input = input.tool_input.clone().unwrap_or(serde_json::Value::Null);
    let cwd = input.cwd.as_deref().map_or_else(|| project.root.clone(), PathBuf::from);
    let protected = protected(&active)?;
    Ok(match guard::check(tool, &tool_input, &cwd, &protected) {
        Verdict::Allow => None,
        Verdict::Deny { reason } => Some(HookOutput::deny_tool(reason)),
    })
}

/// What the guard must keep the agent off for this loop.
fn protected(active: &ActiveLoop) -> Result<Protected, String> {
    let project = &active.project;
    let root = project.canonical_root();
    let sealed = &active.seal.fields.sealed;
    let globs = if sealed.is_empty() {
        None
    } else {
        Some(crate::seal::SealedFiles::new(sealed)?.glob_set().clone())
    };
    Ok(Protected {
        files: vec![
            root.join(crate::project::STATE_FILE),
            root.join(crate::project::HISTORY_FILE),
            // An agent that disables hooks here would switch the loop off: the settings are part of the oracle.
            root.join(".claude/settings.json"),
            root.join(".claude/settings.local.json"),
        ],
        dirs: vec![
            root.join(crate::project::WORK_DIR),
            canonical(&crate::project::loopgate_home()),
        ],
        sealed: globs,
        sealed_files: active.seal.files.keys().map(PathBuf::from).collect(),
        project_root: root,
    })
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}
