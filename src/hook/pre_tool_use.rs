//! The PreToolUse hook: while a loop is active in the project, keeps the agent's tools off the oracle's files.
//!
//! The decision itself lives in `guard` (pure, unit-tested); this module only gathers what is protected for the
//! active loop — state file, history, verify logs, the seal store and the sealed files — and prints a deny.
//! No loop: allow without reading anything else. The hook sees every tool call (the plugin's matcher is `*`)
//! because any tool call resets Claude Code's stop-hook block count (`stop::block_cap`); only the tools that
//! can write (`guard::inspects`) are checked.

pub(crate) mod confined;
mod control_plane;
mod edited;

use std::path::{Path, PathBuf};

use crate::guard::{self, Protected, Verdict};
use crate::hook::{HookInput, HookOutput};
use crate::inputs::Inputs;
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::project::Project;

/// Handles one PreToolUse event. First carries out a `/pua-loop` or `/cancel-loop` the user's prompt confirmed
/// but no hook could carry out yet (see `control`); its briefing goes to the model with this tool call.
pub(crate) fn handle(input: &HookInput) -> Result<Option<HookOutput>, String> {
    let project = Project::for_hook(input.cwd.as_deref());
    let session = input.session_id.as_deref().unwrap_or_default();
    let Some(done) = super::carry::carry_out_confirmed(&project, session) else {
        return decide(input, &project);
    };
    let output = decide(input, &project)?.unwrap_or_default();
    Ok(Some(
        output.with_tool_context(done.context).with_notice_first(done.notice),
    ))
}

/// The guard's decision for one tool call.
fn decide(input: &HookInput, project: &Project) -> Result<Option<HookOutput>, String> {
    let Lookup::Loop(active) = lookup(project).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    // Every tool call resets Claude Code's count of stop-hook blocks in a row, so loopgate counts it too.
    if let Ok(session) = input.session() {
        crate::stop::block_cap::note_tool_call(&active, session);
    }
    let tool = input.tool_name.as_deref().unwrap_or_default();
    let tool_input = input.tool_input.clone().unwrap_or(serde_json::Value::Null);
    let cwd = input.cwd.as_deref().map_or_else(|| project.root.clone(), PathBuf::from);
    if let Some(holdout) = &active.seal.holdout {
        let unreadable = guard::Unreadable {
            dirs: std::iter::once(canonical(&crate::holdout::store_root()))
                .chain(holdout.outside.iter().cloned())
                .collect(),
            in_git: holdout.in_git.clone(),
        };
        let env = |name: &str| std::env::var(name).ok();
        if let Some(reason) = guard::unread::check(tool, &tool_input, &cwd, &unreadable, &env) {
            return Ok(Some(HookOutput::deny_tool(reason)));
        }
    }
    if !guard::inspects(tool) {
        return Ok(None);
    }
    // Every session is guarded, not only the loop's own: a paused loop's oracle must survive until it resumes,
    // and another session's agent has no business editing this loop's oracle either.
    let protected = protected(&active)?;
    Ok(match guard::check(tool, &tool_input, &cwd, &protected) {
        Verdict::Allow => confined::rewrite(
            tool,
            &tool_input,
            &protected.sealed_outside,
            input.permission_mode.as_deref(),
            super::agent::of(input.agent).shell(),
        )
        .or_else(|| {
            confined::auto_mode_notice(&active, tool, input.permission_mode.as_deref())
                .map(|notice| HookOutput::default().with_notice_first(notice))
        }),
        Verdict::Deny { reason } => Some(HookOutput::deny_tool(reason)),
        Verdict::Inspect { path } => edited::judge(&active, tool, &tool_input, &path).map(HookOutput::deny_tool),
    })
}

/// What the guard must keep the agent off for this loop: loopgate's own files, and the sealed inputs the seal
/// itself holds (`inputs::Inputs::in_seal`: the guard runs at every tool call and reads no companion file).
fn protected(active: &ActiveLoop) -> Result<Protected, String> {
    let project = &active.project;
    let root = project.canonical_root();
    let fields = &active.seal.fields;
    let sealed = Inputs::in_seal(&active.seal).guard(&|check| fields.checks(check));
    let mut protected = Protected {
        files: vec![
            root.join(crate::project::STATE_FILE),
            root.join(crate::project::HISTORY_FILE),
            // An agent that disables hooks here would switch the loop off: the settings are part of the oracle.
            root.join(".claude/settings.json"),
            root.join(".claude/settings.local.json"),
        ],
        dirs: vec![root.join(crate::project::WORK_DIR)],
        plane: control_plane::paths(&root),
        project_root: root,
        ..Protected::default()
    };
    sealed.seal_into(&mut protected)?;
    Ok(protected)
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}
