//! A control action asked for from inside Claude Code, carried out by a loopgate hook only when
//! the prompt the user submitted is that command with that text.
//!
//! Why a file and a hook: a slash command's pre-executed block runs inside Claude Code's sandbox (checked with
//! 2.1.197 and 2.1.330: it cannot write outside the project and the temp directory), so it cannot write the seal
//! store; and it runs with the same environment as the agent's Bash tool, so nothing in the process tells the
//! user's `/pua-loop` from an agent's script. The hook runs outside the sandbox, only for prompts the user
//! submits, with their text in `prompt`. Claude Code 2.1.197 runs it after the block (the block's output is
//! written before the hook starts): the hook finds the request and carries it out. 2.1.330 runs it before the
//! block: the hook then leaves a *ticket* in loopgate's store (which a sandboxed command cannot write), and
//! whoever comes next — the block outside the sandbox, else the PreToolUse or Stop hook — acts on a request
//! the ticket confirms. The request file lives in the project's `.claude/` (the block can write there), or,
//! where the sandbox keeps `.claude/` read-only, in a temp directory keyed by the project (`place`); an agent
//! can write one too, but nothing carries it out unless the user submits the matching command, and the block of
//! that command rewrites the file first.

mod place;

use std::ffi::OsString;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::project::Project;

/// Where the pending request lives, under the project root, when `.claude/` can be written.
pub(crate) const REQUEST_FILE: &str = place::IN_PROJECT;
/// A request older than this is ignored (and removed): the hook runs within a second of the block.
const MAX_AGE_SECS: i64 = 600;

/// What the user's command asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// `/pua-loop TEXT`: start (or replace) the loop with this text.
    Setup,
    /// `/cancel-loop`: end the loop.
    Cancel,
    /// `/resume-loop`: resume the paused loop in this session.
    Resume,
}

/// A pending request, as the slash command's block wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Request {
    pub(crate) kind: Kind,
    /// The session the command ran in; only that session's prompt carries it out.
    pub(crate) session_id: String,
    /// The command's argument text exactly as the block received it (`$ARGUMENTS`).
    pub(crate) text: String,
    /// When it was written (Unix seconds).
    pub(crate) created: i64,
}

impl Request {
    pub(crate) fn new(kind: Kind, session_id: &str, text: &str) -> Self {
        Self {
            kind,
            session_id: session_id.to_string(),
            text: text.to_string(),
            created: chrono::Utc::now().timestamp(),
        }
    }

    /// Writes the request atomically, replacing any pending one, in the project's `.claude/` or else a temp
    /// directory (`place`); returns where.
    pub(crate) fn save(&self, project: &Project) -> std::io::Result<PathBuf> {
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        let path = place::save(project, &key(project), &bytes)?;
        // One pending request per project: an older one in another place must not outlive this one.
        for other in places(project).into_iter().filter(|p| *p != path) {
            let _ = std::fs::remove_file(other);
        }
        Ok(path)
    }
}

/// The name the project's seal, ticket and temp-directory request share (a hash of its canonical root).
fn key(project: &Project) -> OsString {
    project.store_key().into()
}

/// Every place a request of `project` may be, its own `.claude/` first.
fn places(project: &Project) -> Vec<PathBuf> {
    place::all(project, &key(project))
}

/// The pending requests of `project`, with their files, in place order; unreadable ones, and ones written
/// while a verify ran, are removed.
fn pending(project: &Project) -> Vec<(PathBuf, Request)> {
    let mut out = Vec::new();
    for path in places(project) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let forged = made_during_verify(project, &path);
        match serde_json::from_slice(&bytes) {
            Ok(request) if !forged => out.push((path, request)),
            _ => {
                let _ = std::fs::remove_file(&path);
            }
        }
        if forged {
            // Its ticket, if the same code forged one, goes too.
            drop_if_made_during_verify(project, &ticket_path(project));
        }
    }
    out
}

/// Removes the file at `path` if it was made while a verify ran; whether it was.
fn drop_if_made_during_verify(project: &Project, path: &std::path::Path) -> bool {
    let made = made_during_verify(project, path);
    if made {
        let _ = std::fs::remove_file(path);
    }
    made
}

/// Whether the file at `path` was made while a verify ran in `project` — by the code under test, which the
/// verify runs, not by the user — judged by when the kernel last changed it (`ctime`, which no process sets)
/// and when it was created, where the file system records that.
fn made_during_verify(project: &Project, path: &std::path::Path) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    let mut times: Vec<std::time::SystemTime> = meta.created().ok().into_iter().collect();
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let since_epoch = u64::try_from(meta.ctime()).ok().map(|secs| {
            std::time::Duration::from_secs(secs) + std::time::Duration::from_nanos(meta.ctime_nsec().unsigned_abs())
        });
        times.extend(since_epoch.map(|d| std::time::UNIX_EPOCH + d));
    }
    times.dedup();
    times
        .into_iter()
        .any(|t| crate::verify_lock::made_during_verify(project, t))
}

/// Which loopgate command a submitted prompt is, and its argument text: `/pua-loop`, `/loopgate:pua-loop`,
/// `/cancel-loop`, `/loopgate:cancel-loop`, `/resume-loop`, `/loopgate:resume-loop`, and the same names as Codex
/// skills (`$pua-loop`: Codex's interactive UI runs no custom `/` command, 0.169.0 and 0.171.0). Anything else is
/// `None` (the hook's fast path).
pub(crate) fn command_of(prompt: &str) -> Option<(Kind, &str)> {
    let prompt = prompt.trim_start();
    let name_end = prompt.find(char::is_whitespace).unwrap_or(prompt.len());
    let (name, rest) = prompt.split_at(name_end);
    let bare = name
        .strip_prefix("/loopgate:")
        .or_else(|| name.strip_prefix('/'))
        .or_else(|| name.strip_prefix('$'))?;
    let kind = match bare {
        "pua-loop" => Kind::Setup,
        "cancel-loop" => Kind::Cancel,
        "resume-loop" => Kind::Resume,
        _ => return None,
    };
    Some((kind, rest))
}

/// Takes the pending request that `prompt`, submitted by the user in `session`, carries out: same command,
/// same session, same text (surrounding white space aside), written in the last ten minutes. The file is
/// removed whenever it is read, matched or not, so a request is carried out at most once.
pub(crate) fn take(project: &Project, session: &str, prompt: &str) -> Option<Request> {
    let (kind, text) = command_of(prompt)?;
    let mut found = None;
    for (path, request) in pending(project) {
        let _ = std::fs::remove_file(&path);
        let fresh = (chrono::Utc::now().timestamp() - request.created).abs() <= MAX_AGE_SECS;
        let matches = request.kind == kind
            && !session.is_empty()
            && request.session_id == session
            && request.text.trim() == text.trim();
        if matches && fresh && found.is_none() {
            found = Some(request);
        }
    }
    found
}

/// Where the ticket for `project` lives: in loopgate's store, beside the seals, named like the seal.
fn ticket_path(project: &Project) -> PathBuf {
    let mut name = key(project);
    name.push(".json");
    crate::project::loopgate_home().join("prompts").join(name)
}

/// Records that the user submitted `prompt` (a loopgate command) in `session`, for a block that runs after the
/// hook (Claude Code 2.1.330's order). Best effort: a ticket that cannot be written is simply absent.
pub(crate) fn save_ticket(project: &Project, session: &str, prompt: &str) {
    let Some((kind, text)) = command_of(prompt) else {
        return;
    };
    let path = ticket_path(project);
    let Ok(bytes) = serde_json::to_vec(&Request::new(kind, session, text)) else {
        return;
    };
    let _ = crate::fsutil::write_atomic(&path, &bytes, 0o600);
}

/// Whether the user's prompt already asked for this: a fresh ticket of the same command, session and text.
/// Only the hook writes tickets, into the store, which Claude Code's sandbox keeps read-only for the agent's
/// commands. The ticket is removed when `consume` is set and it matches, and a ticket made while a verify ran
/// (by the code under test, which runs outside the sandbox) is removed and never matches.
pub(crate) fn ticket_matches(project: &Project, wanted: &Request, consume: bool) -> bool {
    let path = ticket_path(project);
    if drop_if_made_during_verify(project, &path) {
        return false;
    }
    let Some(ticket) = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Request>(&b).ok())
    else {
        return false;
    };
    let fresh = (chrono::Utc::now().timestamp() - ticket.created).abs() <= MAX_AGE_SECS;
    let matches = fresh
        && ticket.kind == wanted.kind
        && !ticket.session_id.is_empty()
        && ticket.session_id == wanted.session_id
        && ticket.text.trim() == wanted.text.trim();
    if matches && consume {
        let _ = std::fs::remove_file(&path);
    }
    matches
}

/// The pending request of `session` that a ticket confirms, taken (both files removed). A request without a
/// matching ticket is left alone: its prompt may still come (2.1.197's order). Costs a failed `open` per place
/// when there is none (the PreToolUse hook asks at every tool call).
pub(crate) fn take_confirmed(project: &Project, session: &str) -> Option<Request> {
    if session.is_empty() {
        return None;
    }
    let (path, request) = pending(project)
        .into_iter()
        .find(|(_, request)| request.session_id == session && ticket_matches(project, request, true))?;
    let _ = std::fs::remove_file(&path);
    Some(request)
}

#[cfg(test)]
mod tests;
