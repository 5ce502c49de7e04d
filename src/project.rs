//! Where a loop's files live.
//!
//! Hooks take the project root from `$CLAUDE_PROJECT_DIR`, else the hook input's `cwd`. Terminal commands walk up
//! from the current directory to the first `.claude/` holding loopgate files, as git finds `.git`, so
//! `loopgate status` works from any subdirectory. The seal store lives outside every project, under
//! `$LOOPGATE_HOME` (default: `$XDG_STATE_HOME/loopgate`, else `~/.local/state/loopgate`).

use std::env;
use std::path::{Path, PathBuf};

/// State file: YAML frontmatter, then the task verbatim.
pub(crate) const STATE_FILE: &str = ".claude/pua-loop.local.md";
/// Append-only JSONL history of every loop in this project.
pub(crate) const HISTORY_FILE: &str = ".claude/pua-loop-history.jsonl";
/// Notes the agent leaves for the next session when it pauses.
pub(crate) const CONTEXT_FILE: &str = ".claude/pua-loop-context.md";
/// Verify logs, reports and the lock file.
pub(crate) const WORK_DIR: &str = ".claude/loopgate";

/// Claude Code's user configuration directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub(crate) fn claude_config_dir() -> Option<PathBuf> {
    let var = |name| env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("CLAUDE_CONFIG_DIR").or_else(|| var("HOME").map(|home| home.join(".claude")))
}

/// A project that may hold a loop.
#[derive(Clone, Debug)]
pub struct Project {
    pub root: PathBuf,
}

impl Project {
    /// The project a hook runs for: `$CLAUDE_PROJECT_DIR`, else the hook's `cwd`, else the current directory.
    pub(crate) fn for_hook(cwd: Option<&str>) -> Self {
        let root = env::var_os("CLAUDE_PROJECT_DIR")
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .or_else(|| cwd.filter(|c| !c.is_empty()).map(PathBuf::from))
            .or_else(|| env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        Self { root }
    }

    /// The project a terminal command acts on: `$CLAUDE_PROJECT_DIR` when set (inside Claude Code), else the
    /// nearest ancestor of the current directory with loopgate files, else the current directory itself.
    pub(crate) fn for_terminal() -> Self {
        if let Some(dir) = env::var_os("CLAUDE_PROJECT_DIR").filter(|d| !d.is_empty()) {
            return Self {
                root: PathBuf::from(dir),
            };
        }
        let cwd = env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let found = cwd
            .ancestors()
            .find(|dir| dir.join(STATE_FILE).exists() || dir.join(HISTORY_FILE).exists());
        Self {
            root: found.unwrap_or(&cwd).to_path_buf(),
        }
    }

    pub(crate) fn state_path(&self) -> PathBuf {
        self.root.join(STATE_FILE)
    }

    pub(crate) fn history_path(&self) -> PathBuf {
        self.root.join(HISTORY_FILE)
    }

    pub(crate) fn context_path(&self) -> PathBuf {
        self.root.join(CONTEXT_FILE)
    }

    pub fn work_dir(&self) -> PathBuf {
        self.root.join(WORK_DIR)
    }

    /// Makes the work directory ignore itself, as cargo's `target/` does: a `.gitignore` holding `*` inside it,
    /// so the logs and the stash never show in `git status` nor go in with `git add -A`, and the user's own
    /// `.gitignore` is left alone. Best effort and silent (a read-only tree still gets its loop); an existing
    /// file is kept as the user may have edited it.
    pub(crate) fn ignore_work_dir(&self) {
        let path = self.work_dir().join(".gitignore");
        if std::fs::symlink_metadata(&path).is_err()
            && let Ok(mut file) = crate::fsutil::create_new(&path, 0o644)
        {
            let _ = std::io::Write::write_all(&mut file, b"*\n");
        }
    }

    /// Serializes state updates between hook processes and terminal commands.
    pub(crate) fn lock_path(&self) -> PathBuf {
        self.work_dir().join("lock")
    }

    /// Full verify log of one iteration. `loop_id` comes from the seal and is checked to be a safe file name.
    pub(crate) fn verify_log_path(&self, loop_id: &str, iteration: u64) -> PathBuf {
        self.work_dir()
            .join(format!("verify-{}-{iteration}.log", safe_name(loop_id)))
    }

    /// The canonical root, used to key the seal; falls back to the root as given when it cannot be resolved.
    pub(crate) fn canonical_root(&self) -> PathBuf {
        self.root.canonicalize().unwrap_or_else(|_| self.root.clone())
    }

    /// The project's name in loopgate's store (its seal, ticket and verify windows): 32 hex digits of the
    /// SHA-256 of its canonical root.
    pub(crate) fn store_key(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(self.canonical_root().as_os_str().as_encoded_bytes());
        crate::fsutil::hex(&digest)[..32].to_owned()
    }
}

/// The seal store: `$LOOPGATE_HOME`, else `$XDG_STATE_HOME/loopgate`, else `~/.local/state/loopgate`.
pub(crate) fn loopgate_home() -> PathBuf {
    if let Some(home) = env::var_os("LOOPGATE_HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(home);
    }
    if let Some(state) = env::var_os("XDG_STATE_HOME").filter(|h| !h.is_empty()) {
        return Path::new(&state).join("loopgate");
    }
    let home = env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    home.join(".local/state/loopgate")
}

/// Maps any id to a string that is safe as one path component: `/`, `..`, NUL and friends cannot escape.
pub(crate) fn safe_name(id: &str) -> String {
    let cleaned: String = id
        .chars()
        .take(96)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() { "_".to_string() } else { cleaned }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_name_never_escapes_a_directory() {
        for id in ["../../etc/passwd", "a/b", "..", "x\0y", "", "/abs", "ok-id_1"] {
            let name = safe_name(id);
            assert!(
                !name.contains('/') && !name.contains('\0') && name != "." && name != "..",
                "{id:?} -> {name:?}"
            );
        }
        assert_eq!(safe_name("ok-id_1"), "ok-id_1");
    }
}
