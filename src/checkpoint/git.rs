//! Running git for checkpoints: in the project root, with loopgate's **private index** (so the user's index,
//! HEAD, branches and stash are never touched), a fixed identity for the checkpoint commits, the C locale (the
//! output is parsed) and no prompts. Every command's output is captured; a failure carries git's stderr.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::project::Project;

/// Limits every path-taking command to the project (the root may be a subdirectory of the repository) and
/// leaves `.claude/` out: loopgate's own files and Claude Code's settings are not the agent's work.
pub(crate) const PATHSPEC: [&str; 3] = ["--", ".", ":(exclude).claude"];

/// Settings for commands on the private index (see [`Git::command`]).
const PRIVATE_INDEX_CONFIG: [&str; 4] = ["-c", "index.skipHash=true", "-c", "core.untrackedCache=true"];

/// git, set up for one project.
pub struct Git {
    root: PathBuf,
    index: PathBuf,
}

/// A git command that failed: what ran and what it said.
#[derive(Debug, thiserror::Error)]
#[error("`git {command}` failed: {detail}")]
pub struct GitError {
    pub(crate) command: String,
    pub(crate) detail: String,
}

impl Git {
    pub fn new(project: &Project) -> Self {
        let root = project.root.clone();
        let index = project.work_dir().join("checkpoint-index");
        let index = if index.is_absolute() {
            index
        } else {
            std::env::current_dir().map_or(index.clone(), |cwd| cwd.join(&index))
        };
        Self { root, index }
    }

    /// The private index file (`.claude/loopgate/checkpoint-index`).
    pub(crate) fn index(&self) -> &Path {
        &self.index
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the project root is inside a git work tree (and git runs at all).
    pub(crate) fn is_work_tree(&self) -> bool {
        self.user(&["rev-parse", "--is-inside-work-tree"])
            .is_ok_and(|out| out.trim_ascii() == b"true")
    }

    /// A git command with the private index. Its index is written without a checksum and keeps an untracked
    /// cache (what git's `feature.manyFiles` turns on): loopgate reads and writes it at every changed stop, and
    /// nobody else ever reads it.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = self.base(&[&PRIVATE_INDEX_CONFIG[..], args].concat());
        cmd.env("GIT_INDEX_FILE", &self.index);
        cmd
    }

    /// Runs git with the private index; stdout on success.
    pub(crate) fn run(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        output(self.command(args), args, None)
    }

    /// [`Git::run`], feeding `input` on stdin.
    pub(crate) fn run_with_input(&self, args: &[&str], input: Vec<u8>) -> Result<Vec<u8>, GitError> {
        output(self.command(args), args, Some(input))
    }

    /// [`Git::run`] as trimmed text.
    pub(crate) fn text(&self, args: &[&str]) -> Result<String, GitError> {
        self.run(args)
            .map(|out| String::from_utf8_lossy(&out).trim().to_string())
    }

    /// Runs git with the user's own index (read-only uses: finding it).
    pub(crate) fn user(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        let mut cmd = self.base(args);
        cmd.env_remove("GIT_INDEX_FILE");
        output(cmd, args, None)
    }

    fn base(&self, args: &[&str]) -> Command {
        let mut cmd = crate::confine::git(&self.root, args);
        cmd.env("GIT_AUTHOR_NAME", "loopgate")
            .env("GIT_AUTHOR_EMAIL", "loopgate@localhost")
            .env("GIT_COMMITTER_NAME", "loopgate")
            .env("GIT_COMMITTER_EMAIL", "loopgate@localhost");
        cmd
    }
}

/// Runs `cmd` (git `args`, named in the error), feeding `input` on stdin when given; stdout on success, else git's
/// last line of stderr.
pub(crate) fn output(mut cmd: Command, args: &[&str], input: Option<Vec<u8>>) -> Result<Vec<u8>, GitError> {
    let fail = |detail: String| GitError {
        command: args.join(" "),
        detail,
    };
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = cmd.spawn().map_err(|e| fail(format!("cannot run git: {e}")))?;
    // Fed from a thread: git may fill its stdout pipe before it has read all of its input.
    let feeder = input.and_then(|bytes| {
        let mut stdin = child.stdin.take()?;
        Some(std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        }))
    });
    let out = child.wait_with_output().map_err(|e| fail(e.to_string()))?;
    if let Some(feeder) = feeder {
        let _ = feeder.join();
    }
    if out.status.success() {
        return Ok(out.stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let detail = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map_or_else(|| format!("exit status {}", out.status), |l| l.trim().to_string());
    Err(fail(detail))
}
