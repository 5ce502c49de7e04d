//! Where a project's git repository is, read from the files git keeps (no git process): the work tree's root,
//! the project's place in it, the git directory (a `.git` directory, or the `gitdir:` a `.git` file names, as in
//! linked work trees and submodules), the common directory holding refs, and what `HEAD` points at.
//!
//! Invariant: anything unusual — `GIT_DIR`-style variables, the reftable ref store, SHA-256 object ids, a
//! `core.worktree` — gives [`None`], and the probe falls back to file metadata. `GIT_CEILING_DIRECTORIES` is
//! followed as git does: the search never steps up into one of them.

use std::fs;
use std::path::{Path, PathBuf};

/// A project inside a git work tree.
#[derive(Debug)]
pub(super) struct Repo {
    /// The work tree's root.
    pub work_tree: PathBuf,
    /// The project root relative to the work tree, `/`-separated, empty or ending in `/`.
    pub prefix: Vec<u8>,
    /// The per-work-tree git directory (`HEAD`, `index`).
    pub git_dir: PathBuf,
    /// Where the shared refs live (`commondir`, else the git directory).
    pub common_dir: PathBuf,
}

/// Environment variables that move the repository or the index away from where the files say.
const GIT_ENV: [&str; 5] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
];

/// Finds the repository `root` is in, walking up as git does; `None` outside git or when unusual (see above).
pub(super) fn find(root: &Path) -> Option<Repo> {
    if GIT_ENV.iter().any(|name| std::env::var_os(name).is_some()) {
        return None;
    }
    find_below(root, &ceilings())
}

/// [`find`] without the environment: never stepping up into one of `ceilings` (canonical paths).
pub(super) fn find_below(root: &Path, ceilings: &[PathBuf]) -> Option<Repo> {
    let root = fs::canonicalize(root).ok()?;
    let mut dir = root.as_path();
    let (work_tree, git_dir) = loop {
        let dot_git = dir.join(".git");
        if let Ok(meta) = fs::symlink_metadata(&dot_git) {
            if meta.is_dir() {
                break (dir.to_path_buf(), dot_git);
            }
            let text = fs::read_to_string(&dot_git).ok()?;
            let target = text.strip_prefix("gitdir:")?.trim();
            break (dir.to_path_buf(), dir.join(target));
        }
        dir = dir.parent().filter(|parent| !ceilings.iter().any(|c| c == parent))?;
    };
    let common_dir = match fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir.clone(),
    };
    if !supported_config(&common_dir) || common_dir.join("reftable").exists() {
        return None;
    }
    let relative = root.strip_prefix(&work_tree).ok()?;
    let mut prefix = relative.as_os_str().as_encoded_bytes().to_vec();
    if !prefix.is_empty() {
        prefix.push(b'/');
    }
    Some(Repo {
        work_tree,
        prefix,
        git_dir,
        common_dir,
    })
}

/// The directories of `GIT_CEILING_DIRECTORIES` (absolute paths, `:`-separated), resolved as git resolves
/// them: the search for a repository never steps up into one (the starting directory itself is always looked at).
fn ceilings() -> Vec<PathBuf> {
    let Some(value) = std::env::var_os("GIT_CEILING_DIRECTORIES") else {
        return Vec::new();
    };
    std::env::split_paths(&value)
        .filter(|path| path.is_absolute())
        .map(|path| fs::canonicalize(&path).unwrap_or(path))
        .collect()
}

/// False when the repository's config asks for what this reader does not do: SHA-256 object ids, another ref
/// store, a work tree elsewhere.
fn supported_config(common_dir: &Path) -> bool {
    let Ok(config) = fs::read_to_string(common_dir.join("config")) else {
        return true;
    };
    let config = config.to_ascii_lowercase();
    !["objectformat", "refstorage", "worktree"]
        .iter()
        .any(|key| config.lines().any(|line| line.trim_start().starts_with(key)))
}

impl Repo {
    /// What `HEAD` points at: a commit id, or `ref: NAME` for a branch without commits yet.
    pub(super) fn head(&self) -> Option<String> {
        let mut text = fs::read_to_string(self.git_dir.join("HEAD")).ok()?;
        // A symbolic ref may point at another; git allows five levels.
        for _ in 0..5 {
            let Some(name) = text.trim().strip_prefix("ref:").map(str::trim) else {
                return Some(text.trim().to_string());
            };
            if name.contains("..") {
                return None;
            }
            let dir = if name.starts_with("refs/") {
                &self.common_dir
            } else {
                &self.git_dir
            };
            match fs::read_to_string(dir.join(name)) {
                Ok(next) => text = next,
                Err(_) => return Some(self.packed_ref(name).unwrap_or_else(|| format!("ref: {name}"))),
            }
        }
        None
    }

    /// A ref's id from `packed-refs`.
    fn packed_ref(&self, name: &str) -> Option<String> {
        let packed = fs::read_to_string(self.common_dir.join("packed-refs")).ok()?;
        packed.lines().find_map(|line| {
            let (id, line_name) = line.split_once(' ')?;
            (line_name == name).then(|| id.to_string())
        })
    }
}
