//! Read denial, for held-out material only (`--holdout`, see `crate::holdout`): the agent may read everything
//! else, but not the tests the user keeps from it.
//!
//! What is refused:
//! - `Read`, `Grep`, `Glob`, `NotebookRead` (and any tool naming a `file_path`, `path` or `notebook_path`; Glob's
//!   `pattern` too) under the held-out store or an outside directory the tests came from;
//! - Bash commands that name those directories (also inside `python -c` code, through `~`, `$HOME` or a
//!   variable of the environment);
//! - when git history holds a held-out file: git commands that name it (or a directory holding it), and git
//!   commands that print or restore file contents from history or the index without a pathspec that leaves
//!   every held-out file out (`git show`, `git diff`, `git log -p`, `git checkout`, `git stash`, `git reset`,
//!   `git grep`, …): `git diff -- src/` still works.
//!
//! What is not: a script the agent writes and runs, git plumbing reached by a blob id, and any process running
//! as the same user. A committed test is only as secret as the git objects holding it; the README says to keep
//! such tests outside the project. Confinement of the agent's processes is the other layer (`crate::holdout::
//! store_root` is the directory it should deny).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::lex::{self, Cmd, Part};
use super::paths;

/// What the agent's tools may not read while the loop runs.
#[derive(Debug, Clone, Default)]
pub struct Unreadable {
    /// Directories, absolute and canonical: the held-out store, and outside directories held out.
    pub dirs: Vec<PathBuf>,
    /// Held-out files that git history holds, relative to the project root.
    pub in_git: Vec<String>,
}

/// git subcommands that print or restore file contents from history, the index or another tree: refused unless
/// a pathspec after `--` leaves every held-out file out.
const WHOLE_TREE: [&str; 19] = [
    "show",
    "diff",
    "checkout",
    "restore",
    "switch",
    "reset",
    "stash",
    "grep",
    "archive",
    "format-patch",
    "cat-file",
    "checkout-index",
    "read-tree",
    "worktree",
    "clone",
    "bundle",
    "fast-export",
    "blame",
    "difftool",
];
/// git subcommands that print contents only with a patch flag.
const WITH_PATCH: [&str; 3] = ["log", "whatchanged", "reflog"];
const PATCH_FLAGS: [&str; 5] = ["-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw"];

/// The reason to refuse a tool call that reads held-out material, if it does.
pub(crate) fn check(
    tool_name: &str,
    tool_input: &Value,
    cwd: &Path,
    unreadable: &Unreadable,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    if unreadable.dirs.is_empty() && unreadable.in_git.is_empty() {
        return None;
    }
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    if tool_name == "Bash" {
        let command = tool_input.get("command").and_then(Value::as_str)?;
        return bash(command, cwd, unreadable, home.as_deref(), env);
    }
    // Glob's pattern may itself be an absolute path (`/…/holdout/**`); Grep's is a regular expression.
    let fields: &[&str] = if tool_name == "Glob" {
        &["file_path", "path", "notebook_path", "pattern"]
    } else {
        &["file_path", "path", "notebook_path"]
    };
    fields
        .iter()
        .filter_map(|field| tool_input.get(field).and_then(Value::as_str))
        .find_map(|path| {
            let path = match (path.strip_prefix("~/"), &home) {
                (Some(rest), Some(home)) => home.join(rest),
                _ => PathBuf::from(path),
            };
            in_dirs(&paths::absolute(&path, cwd), unreadable).then(refused)
        })
}

/// Whether `path` (absolute) lies in a held-out directory, as written or with its links resolved.
fn in_dirs(path: &Path, unreadable: &Unreadable) -> bool {
    let lexical = paths::lexical(path);
    let resolved = paths::resolve(&lexical);
    unreadable
        .dirs
        .iter()
        .any(|dir| lexical.starts_with(dir) || resolved.starts_with(dir))
}

fn bash(
    command: &str,
    cwd: &Path,
    unreadable: &Unreadable,
    home: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    // Named anywhere in the text (code passed to an interpreter included).
    let named = unreadable
        .dirs
        .iter()
        .any(|dir| command.contains(dir.to_string_lossy().as_ref()));
    if named {
        return Some(refused());
    }
    let Ok(cmds) = lex::parse(command, 0) else {
        return None;
    };
    let mut stack: Vec<&Cmd> = cmds.iter().collect();
    while let Some(cmd) = stack.pop() {
        stack.extend(cmd.nested.iter().flatten());
        let words: Vec<String> = cmd.words.iter().filter_map(|w| expand(w, home, env)).collect();
        if words
            .iter()
            .any(|w| !w.is_empty() && in_dirs(&paths::absolute(Path::new(w), cwd), unreadable))
        {
            return Some(refused());
        }
        if let Some(reason) = git(&words, unreadable) {
            return Some(reason);
        }
    }
    None
}

/// A word's text with `~` and variables expanded; `None` for what only a shell could know.
fn expand(word: &lex::Word, home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut out = String::new();
    for part in &word.0 {
        match part {
            Part::Lit { text, .. } => out.push_str(text),
            Part::Tilde => out.push_str(&home?.to_string_lossy()),
            Part::Var(name) => out.push_str(&env(name).unwrap_or_default()),
            Part::Unknown => return None,
        }
    }
    Some(out)
}

/// A git command that would show a held-out file that git history holds.
fn git(words: &[String], unreadable: &Unreadable) -> Option<String> {
    if unreadable.in_git.is_empty() {
        return None;
    }
    let at = words.iter().position(|w| w == "git" || w.ends_with("/git"))?;
    let mut rest = words[at + 1..].iter();
    // Global options before the subcommand (`-C DIR`, `-c KEY=VALUE`, `--no-pager`).
    let sub = loop {
        let word = rest.next()?;
        match word.as_str() {
            "-C" | "-c" | "--git-dir" | "--work-tree" => {
                rest.next();
            }
            w if w.starts_with('-') => {}
            w => break w,
        }
    };
    let args: Vec<&String> = rest.collect();
    let named = unreadable
        .in_git
        .iter()
        .find(|held| args.iter().any(|arg| names(arg, held)));
    if let Some(held) = named {
        return Some(refused_git(Some(held)));
    }
    let prints = WHOLE_TREE.contains(&sub)
        || (WITH_PATCH.contains(&sub)
            && args
                .iter()
                .any(|a| PATCH_FLAGS.contains(&a.as_str()) || a.starts_with("-U")));
    if !prints {
        return None;
    }
    let pathspec: Vec<&&String> = match args.iter().position(|a| *a == "--") {
        Some(at) => args[at + 1..].iter().collect(),
        None => Vec::new(),
    };
    let narrowed = !pathspec.is_empty()
        && pathspec.iter().all(|spec| {
            !spec.contains(['*', '?', '[', ':']) && !unreadable.in_git.iter().any(|held| covers(spec, held))
        });
    (!narrowed).then(|| refused_git(None))
}

/// Whether a git argument names the held-out file `held`: the path itself, `REV:path`, or a directory holding it.
fn names(arg: &str, held: &str) -> bool {
    let path = arg.rsplit_once(':').map_or(arg, |(_, path)| path);
    covers(path, held) && !path.is_empty()
}

/// Whether the pathspec `spec` covers `held` (the same path, or a directory above it; `.` covers everything).
fn covers(spec: &str, held: &str) -> bool {
    let spec = spec.trim_start_matches("./").trim_end_matches('/');
    spec.is_empty() || spec == "." || held == spec || held.starts_with(&format!("{spec}/"))
}

fn refused() -> String {
    "loopgate: that is the user's held-out test material, which this loop keeps from you on purpose: it is not \
     yours to read. Work from the task and the visible tests; make the code correct in general."
        .to_string()
}

fn refused_git(held: Option<&str>) -> String {
    let what = held.map_or_else(
        || "this git command could print a held-out test from history".to_string(),
        |held| format!("`{held}` is a held-out test"),
    );
    format!(
        "loopgate: {what}; the user keeps those from you on purpose. Git commands that print contents need a \
         pathspec that leaves them out (e.g. `git diff -- src/`)."
    )
}
