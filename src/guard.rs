//! The PreToolUse guard's decision: may the agent's tool call go ahead while a loop is active?
//!
//! loopgate's promise is that the agent cannot fake "done": the oracle (the sealed verify command and the
//! sealed files it judges against) and loopgate's own record of the loop (state file, history, verify logs,
//! seal store) are out of the agent's reach. This module is the first line of that defence: given one tool
//! call, it says [`Verdict::Allow`] or [`Verdict::Deny`] with a reason the model reads. It is pure apart from
//! `lstat`s that resolve the paths a call would write; the hook I/O lives elsewhere.
//!
//! # What is caught
//! - `Write`, `Edit`, `MultiEdit`, `NotebookEdit` on a protected file, inside a protected directory, on a
//!   sealed file, or into the control plane outside the project ([`PlanePath`]: loopgate's home, binary and
//!   install places, Claude Code's user settings and plugin cache), however the path is written: relative to
//!   `cwd`, with `.` / `..`, through symlinks (also dangling ones, chains and `link/..`), through a hard link to
//!   a protected file (also one inside a protected directory). These tools run in Claude Code's own process,
//!   outside any sandbox, so this is their only boundary; the reason names what the path resolved to.
//! - Bash commands that plainly write to those paths: redirections, `tee`, `sed -i`, `perl -pi`, `rm`, `mv`,
//!   `cp` / `install` / `rsync` destinations, `ln`, `truncate`, `chmod`, `chown`, `touch`, `dd of=`,
//!   `curl -o`, `git rm|mv|clean|stash -u`, `find -delete|-exec`, and `python -c` / `node -e` / `ruby -e` /
//!   `perl -e` / `awk` code that looks like it writes and names a protected path. Paths may be quoted,
//!   relative, absolute, globbed, brace-expanded, behind `$CLAUDE_PROJECT_DIR`, `$HOME`, `~`, `$PWD` or a
//!   variable set earlier in the command, after a `cd`; commands may hide in pipelines, lists, `$(…)`,
//!   backticks, `bash -c`, `eval`, here-documents and wrappers such as `sudo`, `env`, `timeout`, `xargs`.
//!   Operations on a directory that *contains* protected paths (`rm -rf .claude`, `mv tests t2`) count.
//! - `loopgate cancel | setup | resume | seal` run by the agent: by any path, through the plugin's
//!   `hooks/loopgate.sh`, `npx`, `cargo run --bin loopgate --`, any of the above, or inline code.
//!
//! Reading is allowed, but for the user's held-out tests (`unread`), and so is restoring a sealed file from git (`git checkout -- F`,
//! `git restore F`) or removing one that did not exist at setup (`rm -- F`): the fixes the deny reasons
//! recommend, each only where it works (git only for a file git tracks).
//!
//! What is sealed comes from the promise's own sealed inputs (`inputs::Inputs::guard`, `inputs::Protection::seal_into`): a
//! file a `--seal` glob matches is sealed whole and refused to every tool, as the promise rejects any change to
//! it; only a partly sealed file (a test file, `package.json`) is judged on what an edit would leave.
//!
//! # Cost
//! This runs before every tool call, so the common case is kept cheap without a substring pre-filter (one
//! would miss `r""m`, `$V`, globs and `rm -rf .`, which reach protected paths without naming them): the
//! command is tokenized (a few microseconds), and the file system is touched only for paths the command would
//! write, a handful of `lstat`s each. Typical calls cost 2–25 µs; the hook's process start dominates.
//!
//! # What is not
//! This guards against an agent gaming its verifier through the tools it normally uses; it is not a sandbox.
//! A script file the agent writes and then runs (`python fix.py`), code assembled at run time
//! (`$(printf '.cl%s' aude)`), stdin-fed `xargs rm`, `source`, loops over globs, archive extraction (`tar -x`), patches
//! (`git apply`, `patch`) and any process running as the same user can still write anywhere. Those changes
//! are caught afterwards: sealed files are hashed into the seal and checked before every verify, and the state
//! file and history are checked against the seal (tamper detection), so the oracle still decides.

mod code;
mod finding;
pub(crate) mod lex;
mod paths;
mod pattern;
mod scope;
mod shell;
pub(crate) mod unread;
mod verbs;
mod words;

pub use unread::Unreadable;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde_json::Value;

use self::scope::Scope;

/// What the guard protects for the active loop.
#[derive(Debug, Clone, Default)]
pub struct Protected {
    /// The project root, canonical (symlinks resolved).
    pub project_root: PathBuf,
    /// Exact protected files, absolute: the state file `.claude/pua-loop.local.md` and the history
    /// `.claude/pua-loop-history.jsonl`.
    pub files: Vec<PathBuf>,
    /// Protected trees, absolute: `.claude/loopgate/` (verify logs).
    pub dirs: Vec<PathBuf>,
    /// The `--seal` globs, matched against paths relative to `project_root` (e.g. `tests/**`, `**/*.snap`).
    pub sealed: Option<globset::GlobSet>,
    /// Files that matched the seal at setup, relative to `project_root`, so a deleted-then-recreated one is
    /// still protected even if the globs would no longer say so. Also the verify command's closure files
    /// inside the project (existing or not).
    pub sealed_files: Vec<PathBuf>,
    /// Sealed files outside the project, absolute (`~/.npmrc`, a parent directory's `.cargo/config.toml`).
    pub sealed_outside: Vec<PathBuf>,
    /// File names sealed wherever they appear in the project (`conftest.py`): creating one counts.
    pub sealed_names: Vec<String>,
    /// Whether a new file of `sealed_names` may be written where no file of `sealed_files` lies in its directory
    /// or below (`runner::sits_out_with_new_tests`): it sits out the oracle's run with the agent's new tests, and
    /// the promise lets it through.
    pub names_sit_out: bool,
    /// Sealed files that did not exist at setup, relative to `project_root`: removing one restores the seal.
    pub removable: Vec<PathBuf>,
    /// Sealed files of which only a part is sealed (`package.json`'s test script, a test file's existing
    /// tests), relative to `project_root`: a file tool's edit to one is judged on the content it would leave
    /// ([`Verdict::Inspect`]) instead of being refused outright.
    pub inspect: Vec<PathBuf>,
    /// The control plane outside the loop's own files: loopgate's home (seals, tickets), its binary and install
    /// places, Claude Code's user settings, commands and plugin cache. Judged like `files` and `dirs`, each
    /// denial naming what the path is.
    pub plane: Vec<PlanePath>,
}

/// One path of the control plane: what it is, for the deny reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanePath {
    /// Absolute.
    pub path: PathBuf,
    /// A tree (everything under it is protected) rather than one file.
    pub dir: bool,
    /// What it is, read after "it is" (`loopgate's store of seals and tickets`).
    pub what: &'static str,
}

/// The guard's answer for one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let the call run.
    Allow,
    /// Refuse it; `reason` tells the model why and what to do instead.
    Deny {
        /// One or two sentences for the model (`permissionDecisionReason`).
        reason: String,
    },
    /// A file tool edits a partly sealed file: the caller judges the content the edit would leave.
    Inspect {
        /// The file, relative to the project root.
        path: PathBuf,
    },
}

/// `path` with `.` and `..` removed textually (no file system access), as the guard compares paths.
pub(crate) fn lexical_path(path: &Path) -> PathBuf {
    paths::lexical(path)
}

/// Whether [`check`] looks at calls of this tool at all: the tools that can write (every other call is allowed
/// without building the protected set).
#[must_use]
pub(crate) fn inspects(tool_name: &str) -> bool {
    matches!(
        tool_name,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "Bash" | "ApplyPatch"
    )
}

/// Decides whether a tool call may run.
///
/// `tool_name` and `tool_input` are as Claude Code sends them in the PreToolUse hook input; `cwd` is the hook
/// input's `cwd` (relative values are taken from `protected.project_root`). Variables in Bash commands are
/// expanded from this process's environment, which the hook shares with the agent's shell. Never panics;
/// unknown tools and malformed inputs are allowed (the tool itself rejects malformed input).
#[must_use]
pub(crate) fn check(tool_name: &str, tool_input: &Value, cwd: &Path, protected: &Protected) -> Verdict {
    check_with_env(tool_name, tool_input, cwd, protected, &|name| std::env::var(name).ok())
}

/// [`check`] with the environment given explicitly (`HOME`, `LOOPGATE_HOME`, …), for tests and callers that
/// sanitize it. `$CLAUDE_PROJECT_DIR` always means `protected.project_root`.
#[must_use]
pub fn check_with_env(
    tool_name: &str,
    tool_input: &Value,
    cwd: &Path,
    protected: &Protected,
    env: &dyn Fn(&str) -> Option<String>,
) -> Verdict {
    let scope = Scope::new(protected, env);
    let cwd = paths::absolute(cwd, &protected.project_root);
    let field = |names: &[&str]| names.iter().find_map(|n| tool_input.get(n).and_then(Value::as_str));
    let finding = match tool_name {
        "Write" | "Edit" | "MultiEdit" => field(&["file_path"]).and_then(|p| file_target(&scope, p, &cwd)),
        "NotebookEdit" => field(&["notebook_path", "file_path"]).and_then(|p| file_target(&scope, p, &cwd)),
        "Bash" => field(&["command"]).and_then(|c| shell::check(c, &cwd, &scope)),
        "ApplyPatch" => field(&["command", "input"])
            .and_then(|patch| patch_files(patch).find_map(|path| file_target(&scope, path, &cwd))),
        _ => None,
    };
    let editor = matches!(tool_name, "Write" | "Edit" | "MultiEdit");
    match finding {
        Some(finding::Finding::Hit(finding::Hit {
            kind: finding::Kind::Sealed,
            protected: path,
            via: None,
            ..
        })) if editor
            && (protected.inspect.iter().any(|p| p.as_os_str() == path.as_str()) || named(protected, &path)) =>
        {
            Verdict::Inspect {
                path: PathBuf::from(path),
            }
        }
        // A shell command that writes a partly sealed source file (`sed -i` of a source holding code and its
        // inline tests, a test appended to a test file): its result cannot be known before it runs, and the
        // promise judges the file's tests after it exactly as the inspection judges a file tool's edit (a
        // weakened test is rejected there, named, with its undo). Refusing it outright rejected honest work the
        // Edit tool's same edit may do. A partly sealed configuration file (`package.json`) stays refused: a
        // shell writes one only to change it, and the refusal names the sealed part at once.
        Some(finding::Finding::Hit(finding::Hit {
            kind: finding::Kind::Sealed,
            protected: path,
            via: None,
            ..
        })) if tool_name == "Bash"
            && crate::schema::Lang::of(Path::new(path.as_str())).is_some()
            && protected.inspect.iter().any(|p| p.as_os_str() == path.as_str()) =>
        {
            Verdict::Allow
        }
        Some(f) => {
            let undo = match &f {
                finding::Finding::Hit(hit) if hit.kind == finding::Kind::Sealed => undo(&scope, &hit.protected),
                _ => finding::Undo::Git,
            };
            Verdict::Deny { reason: f.reason(undo) }
        }
        None => Verdict::Allow,
    }
}

/// Whether `path` (as a [`finding::Hit`] names it) is a new file of a name sealed wherever it appears
/// (`conftest.py`): judged like a partly sealed file, on the content a file tool would leave, since the promise
/// judges it by what it holds (`closure::Closure::moved_if`).
fn named(protected: &Protected, path: &str) -> bool {
    Path::new(path)
        .file_name()
        .is_some_and(|name| protected.sealed_names.iter().any(|n| name == n.as_str()))
}

/// How the sealed `protected` (as a [`finding::Hit`] names it) is put back: removed if it did not exist at
/// setup, restored from git if git tracks it, by hand otherwise (untracked, outside the project, no repository).
fn undo(scope: &Scope, protected: &str) -> finding::Undo {
    if scope.removable(protected) {
        finding::Undo::Remove
    } else if tracked(scope.root(), protected) {
        finding::Undo::Git
    } else {
        finding::Undo::ByHand
    }
}

/// Whether git tracks `relative` in the repository at `root` (`git checkout -- FILE` can restore it). Only
/// asked when a call is refused, so the process it starts costs nothing on the common path.
pub(crate) fn tracked(root: &Path, relative: &str) -> bool {
    if Path::new(relative).is_absolute() || relative.starts_with("~/") {
        return false;
    }
    crate::confine::git(
        root,
        &["--literal-pathspecs", "ls-files", "--error-unmatch", "--", relative],
    )
    .stdin(std::process::Stdio::null())
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .status()
    .is_ok_and(|status| status.success())
}

/// For the fuzz target `guard_lex` (`fuzz/`), not an API: tokenizes `command` as the guard does and returns
/// how many simple commands it found, nested ones included; `None` when it nests deeper than the guard follows.
#[doc(hidden)]
pub fn lex_for_fuzzing(command: &str) -> Option<usize> {
    fn count(cmds: &[lex::Cmd]) -> usize {
        cmds.iter()
            .map(|c| 1 + c.nested.iter().map(|n| count(n)).sum::<usize>())
            .sum()
    }
    lex::parse(command, 0).ok().map(|cmds| count(&cmds))
}

/// A file tool's target. Claude Code sends absolute paths; a relative one is taken from `cwd`, and a leading
/// `~/` is checked both ways since clients differ on expanding it.
/// Every file a patch in the `apply_patch` format (Codex CLI's file-editing tool: `*** Begin Patch`, one header
/// per file) adds, updates, deletes or moves a file to.
fn patch_files(patch: &str) -> impl Iterator<Item = &str> {
    const HEADERS: [&str; 4] = [
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ];
    patch.lines().filter_map(|line| {
        HEADERS
            .iter()
            .find_map(|header| line.strip_prefix(header))
            .map(str::trim)
            .filter(|path| !path.is_empty())
    })
}

fn file_target(scope: &Scope, path: &str, cwd: &Path) -> Option<finding::Finding> {
    let home = path.strip_prefix("~/").and_then(|rest| Some(scope.home()?.join(rest)));
    home.iter()
        .map(PathBuf::as_path)
        .chain([Path::new(path)])
        .filter(|p| !p.as_os_str().is_empty())
        .find_map(|p| scope.hit_path(p, cwd))
        .map(finding::Finding::Hit)
}
