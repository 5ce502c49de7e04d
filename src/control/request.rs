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
//! the ticket confirms. The request file lives in the project's `.claude/` (the block can write there); an
//! agent can write one too, but nothing carries it out unless the user submits the matching command, and the
//! block of that command rewrites the file first.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::project::Project;

/// Where the pending request lives, under the project root.
pub(crate) const REQUEST_FILE: &str = ".claude/loopgate-request.json";
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

    /// Writes the request atomically, replacing any pending one.
    pub(crate) fn save(&self, project: &Project) -> std::io::Result<PathBuf> {
        let path = path(project);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        crate::fsutil::write_atomic(&path, &bytes, 0o600)?;
        Ok(path)
    }
}

fn path(project: &Project) -> PathBuf {
    project.root.join(REQUEST_FILE)
}

/// Which loopgate command a submitted prompt is, and its argument text: `/pua-loop`, `/loopgate:pua-loop`,
/// `/cancel-loop`, `/loopgate:cancel-loop`, `/resume-loop`, `/loopgate:resume-loop`. Anything else is `None` (the hook's fast path).
pub(crate) fn command_of(prompt: &str) -> Option<(Kind, &str)> {
    let prompt = prompt.trim_start();
    let name_end = prompt.find(char::is_whitespace).unwrap_or(prompt.len());
    let (name, rest) = prompt.split_at(name_end);
    let kind = match name.strip_prefix("/loopgate:").or_else(|| name.strip_prefix('/'))? {
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
    let path = path(project);
    let bytes = std::fs::read(&path).ok()?;
    let _ = std::fs::remove_file(&path);
    let request: Request = serde_json::from_slice(&bytes).ok()?;
    let fresh = (chrono::Utc::now().timestamp() - request.created).abs() <= MAX_AGE_SECS;
    let matches = request.kind == kind
        && !session.is_empty()
        && request.session_id == session
        && request.text.trim() == text.trim();
    (matches && fresh).then_some(request)
}

/// Where the ticket for `project` lives: in loopgate's store, beside the seals, named like the seal.
fn ticket_path(project: &Project) -> PathBuf {
    let seal = crate::seal::Store::open().path_for(project);
    let name = seal.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
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
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::fsutil::write_atomic(&path, &bytes, 0o600);
}

/// Whether the user's prompt already asked for this: a fresh ticket of the same command, session and text.
/// Only the hook writes tickets, into the store, which Claude Code's sandbox keeps read-only for the agent's
/// commands. The ticket is removed when `consume` is set and it matches.
pub(crate) fn ticket_matches(project: &Project, wanted: &Request, consume: bool) -> bool {
    let path = ticket_path(project);
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
/// matching ticket is left alone: its prompt may still come (2.1.197's order).
pub(crate) fn take_confirmed(project: &Project, session: &str) -> Option<Request> {
    let path = path(project);
    let bytes = std::fs::read(&path).ok()?;
    let request: Request = serde_json::from_slice(&bytes).ok()?;
    if session.is_empty() || request.session_id != session || !ticket_matches(project, &request, true) {
        return None;
    }
    let _ = std::fs::remove_file(&path);
    Some(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_name_the_command_by_either_spelling_and_nothing_else_counts() {
        assert_eq!(
            command_of("/pua-loop fix it --verify 'x'"),
            Some((Kind::Setup, " fix it --verify 'x'"))
        );
        assert_eq!(command_of("/loopgate:pua-loop\nfix"), Some((Kind::Setup, "\nfix")));
        assert_eq!(command_of("/cancel-loop"), Some((Kind::Cancel, "")));
        assert_eq!(command_of("/loopgate:cancel-loop "), Some((Kind::Cancel, " ")));
        for other in [
            "please /pua-loop x",
            "/pua-loops x",
            "/other:pua-loop x",
            "pua-loop",
            "",
            "/loop-status",
        ] {
            assert_eq!(command_of(other), None, "{other:?}");
        }
    }

    fn project() -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().expect("temp dir");
        let project = Project {
            root: dir.path().to_path_buf(),
        };
        (dir, project)
    }

    #[test]
    fn only_the_users_matching_prompt_in_the_same_session_carries_a_request_out_and_only_once() {
        let (_dir, project) = project();
        let save = |kind, session, text| Request::new(kind, session, text).save(&project).expect("save");
        save(Kind::Setup, "s1", "fix it --verify 'cargo test'\n");
        assert!(take(&project, "s1", "/pua-loop fix it --verify 'cargo test'").is_some());
        assert!(
            take(&project, "s1", "/pua-loop fix it --verify 'cargo test'").is_none(),
            "carried out once"
        );

        for (session, prompt) in [
            ("s2", "/pua-loop fix it"),               // another session
            ("s1", "/pua-loop fix it --verify true"), // other text
            ("s1", "/cancel-loop"),                   // another command
            ("s1", "continue"),                       // not a command
            ("", "/pua-loop fix it"),                 // no session
        ] {
            save(Kind::Setup, "s1", "fix it");
            assert!(take(&project, session, prompt).is_none(), "{session:?} {prompt:?}");
        }
    }

    #[test]
    fn a_stale_or_corrupt_request_is_ignored_and_removed() {
        let (_dir, project) = project();
        let mut old = Request::new(Kind::Cancel, "s", "");
        old.created -= MAX_AGE_SECS + 1;
        old.save(&project).expect("save");
        assert!(take(&project, "s", "/cancel-loop").is_none());
        assert!(!path(&project).exists());
        std::fs::write(path(&project), "{not json").expect("write");
        assert!(take(&project, "s", "/cancel-loop").is_none());
        assert!(!path(&project).exists());
    }
}
