//! Sealed files: `--seal GLOB` patterns, the hashes taken at setup, and the check at each promise.
//!
//! Patterns follow gitignore's reading: one without a `/` matches at any depth (`*.snap` is `**/*.snap`), one
//! with a `/` is anchored at the project root (`tests/**`), a trailing `/` means the whole directory. Only the
//! directories a pattern can reach are walked (the literal prefix of an anchored pattern), `.git` never is, and
//! symlinks are not followed, so sealing `tests/**` in a repository with a huge `target/` stays cheap.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use sha2::{Digest, Sha256};

use crate::fsutil;
use crate::walk::{Flow, Walker};

/// The sealed files' walk: every directory but `.git`, links not followed (a sealed link is hashed as a link),
/// and an unreadable directory or entry is an error, never a file silently left out of the seal.
const SEALED_WALK: Walker = Walker::skipping(&[".git"]).strict();

/// A compiled set of seal patterns.
pub struct SealedFiles {
    set: GlobSet,
    /// Directories (relative) that contain every possible match.
    roots: Vec<PathBuf>,
}

/// How a sealed file differs from setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    Added(String),
    Changed(String),
    Deleted(String),
}

impl FileChange {
    /// The file's path relative to the project root.
    pub fn path(&self) -> &str {
        match self {
            Self::Added(p) | Self::Changed(p) | Self::Deleted(p) => p,
        }
    }

    /// `added`, `changed` or `deleted`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Added(_) => "added",
            Self::Changed(_) => "changed",
            Self::Deleted(_) => "deleted",
        }
    }
}

impl SealedFiles {
    /// Compiles the patterns; the error names the pattern that does not parse.
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        let mut builder = GlobSetBuilder::new();
        let mut roots = Vec::new();
        for pattern in patterns {
            let (glob, root) = normalize(pattern);
            let compiled = GlobBuilder::new(&glob)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("seal pattern `{pattern}` is not a valid glob: {}", e.kind()))?;
            builder.add(compiled);
            roots.push(root);
        }
        let set = builder
            .build()
            .map_err(|e| format!("seal patterns do not compile: {e}"))?;
        roots.sort();
        roots.dedup();
        // A root inside another root is walked already.
        let roots = roots
            .iter()
            .filter(|r| !roots.iter().any(|o| o != *r && r.starts_with(o)))
            .cloned()
            .collect();
        Ok(Self { set, roots })
    }

    /// The compiled patterns, matched against project-relative paths.
    pub fn glob_set(&self) -> &GlobSet {
        &self.set
    }

    /// Whether a project-relative path is sealed.
    pub fn matches(&self, relative: &Path) -> bool {
        self.set.is_match(relative)
    }

    /// SHA-256 of every sealed file now, keyed by relative path (with `/` separators).
    pub fn hash_all(&self, project_root: &Path) -> io::Result<BTreeMap<String, String>> {
        let mut hashes = BTreeMap::new();
        for root in &self.roots {
            SEALED_WALK.walk_from(project_root, &project_root.join(root), |entry| {
                let Ok(relative) = entry.path.strip_prefix(project_root) else {
                    return Ok(Flow::Continue(()));
                };
                if (entry.kind.is_file() || entry.kind.is_symlink()) && self.matches(relative) {
                    let key = relative.to_string_lossy().replace('\\', "/");
                    hashes.insert(key, hash_file(entry.path)?);
                }
                Ok(Flow::Continue(()))
            })?;
        }
        Ok(hashes)
    }
}

/// Compares the hashes taken at setup with the files now; sorted by path.
pub fn changes(sealed: &BTreeMap<String, String>, now: &BTreeMap<String, String>) -> Vec<FileChange> {
    let mut changes: Vec<FileChange> = sealed
        .iter()
        .filter_map(|(path, hash)| match now.get(path) {
            None => Some(FileChange::Deleted(path.clone())),
            Some(current) if current != hash => Some(FileChange::Changed(path.clone())),
            Some(_) => None,
        })
        .chain(
            now.keys()
                .filter(|p| !sealed.contains_key(*p))
                .map(|p| FileChange::Added(p.clone())),
        )
        .collect();
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    changes
}

/// SHA-256 of a file's bytes (of the link target's path for a symlink, so retargeting a link is a change).
fn hash_file(path: &Path) -> io::Result<String> {
    let meta = std::fs::symlink_metadata(path)?;
    let mut hasher = Sha256::new();
    if meta.file_type().is_symlink() {
        hasher.update(b"symlink:");
        hasher.update(std::fs::read_link(path)?.as_os_str().as_encoded_bytes());
        return Ok(fsutil::hex(&hasher.finalize()));
    }
    fsutil::sha256_hex(File::open(path)?)
}

/// Turns a gitignore-style pattern into an anchored glob and the directory its matches live under.
fn normalize(pattern: &str) -> (String, PathBuf) {
    let trimmed = pattern.trim().trim_start_matches("./");
    let dir_only = trimmed.ends_with('/');
    let body = trimmed.trim_end_matches('/');
    let anchored = body.contains('/');
    let body = body.trim_start_matches('/');
    let mut glob = if anchored {
        body.to_string()
    } else {
        format!("**/{body}")
    };
    if dir_only || !has_glob_chars(body) {
        // A plain name may be a directory: seal what is inside it too.
        glob = format!("{{{glob},{glob}/**}}");
    }
    let root: PathBuf = if anchored {
        body.split('/').take_while(|part| !has_glob_chars(part)).collect()
    } else {
        PathBuf::new()
    };
    // The last literal part may be a file, not a directory: walk its parent then.
    let root = if !dir_only && root.as_os_str() == body {
        root.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        root
    };
    (glob, root)
}

fn has_glob_chars(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

#[cfg(test)]
mod tests;
