//! Taking the held-out tests at setup: the globs' files moved out of the project, the outside directories'
//! files copied in. All of it or nothing: on any error the files moved so far go back and the error names the
//! value or the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{FILES, MANIFEST, Manifest, OUTSIDE, moves};
use crate::error::Error;
use crate::project::Project;
use crate::schema::Holdout;
use crate::walk::{Flow, Walker};

/// An outside directory's walk: everything but VCS directories, strictly (an unreadable file is an error).
const OUTSIDE_WALK: Walker = Walker::skipping(&[".git", ".hg", ".svn"]).strict();

/// One `--holdout` value, classified.
enum Source {
    /// A glob, matched against project-relative paths.
    Glob(String),
    /// A directory outside the project (absolute, `~` expanded).
    Outside(PathBuf),
}

/// Classifies a value: absolute or `~/…` is a directory outside the project, anything else a glob inside it.
fn classify(value: &str, project: &Project) -> Result<Source, Error> {
    let usage = |m: String| Err(Error::Usage(m));
    let trimmed = value.trim();
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let path = match (trimmed.strip_prefix("~/"), trimmed == "~") {
        (Some(rest), _) => home.map(|h| h.join(rest)),
        (None, true) => home,
        _ if trimmed.starts_with('/') => Some(PathBuf::from(trimmed)),
        _ => return Ok(Source::Glob(trimmed.to_string())),
    };
    let Some(path) = path else {
        return usage(format!("`--holdout {value}`: `HOME` is not set to expand `~`"));
    };
    let Ok(canonical) = path.canonicalize() else {
        return usage(format!("`--holdout {value}`: `{}` does not exist", path.display()));
    };
    if !canonical.is_dir() {
        return usage(format!(
            "`--holdout {value}`: `{}` is not a directory (give a directory outside the project, or a glob inside it)",
            path.display()
        ));
    }
    let root = project.canonical_root();
    if canonical.starts_with(&root) || root.starts_with(&canonical) {
        return usage(format!(
            "`--holdout {value}`: `{}` is inside the project (or holds it); give a glob relative to the project root instead",
            path.display()
        ));
    }
    Ok(Source::Outside(canonical))
}

/// Takes the held-out tests for a new loop (see the module docs of `holdout`): `values` are the `--holdout`
/// flags. The caller holds the project lock and has put back any earlier loop's files.
pub(crate) fn take(project: &Project, values: &[String], loop_id: &str) -> Result<Holdout, Error> {
    take_into(super::dir_for(project), project, values, loop_id)
}

/// [`take`] into the store `dir`.
pub(crate) fn take_into(dir: PathBuf, project: &Project, values: &[String], loop_id: &str) -> Result<Holdout, Error> {
    if dir.join(MANIFEST).exists() || dir.join(FILES).exists() {
        // Never expected (setup puts an earlier loop's files back first); never overwritten either.
        return Err(Error::Io {
            action: "take held-out tests: an earlier loop's held-out files are still in",
            path: dir.join(FILES),
            source: std::io::Error::other("put them back first (any loopgate command in the project tries)"),
        });
    }
    let mut moved = BTreeMap::new();
    let mut outside = Vec::new();
    for value in values {
        match classify(value, project)? {
            Source::Glob(glob) => {
                let found = matching(project, &glob).map_err(|m| Error::Usage(format!("`--holdout {value}`: {m}")))?;
                moved.extend(found);
            }
            Source::Outside(path) => outside.push((value, path)),
        }
    }
    super::discard_private(&dir);
    let mut copied = BTreeMap::new();
    for (value, path) in &outside {
        let found = copy_outside(path, &dir.join(OUTSIDE))?;
        if found.is_empty() {
            return Err(Error::Usage(format!(
                "`--holdout {value}`: `{}` holds no file",
                path.display()
            )));
        }
        copied.extend(found);
    }
    move_out(project, &dir, loop_id, &moved)?;
    let in_git = super::git::in_history(&project.root, moved.keys());
    Ok(Holdout {
        dir,
        sources: values.to_vec(),
        moved,
        copied,
        outside: outside.into_iter().map(|(_, path)| path).collect(),
        in_git,
    })
}

/// The regular files under the project that `glob` matches, with their SHA-256; loopgate's own files never.
fn matching(project: &Project, glob: &str) -> Result<BTreeMap<String, String>, String> {
    let set = crate::seal::SealedFiles::new(&[glob.to_string()])?;
    let hashes = set
        .hash_all(&project.root)
        .map_err(|e| format!("failed to read the matching files: {e}"))?;
    let mut found = BTreeMap::new();
    for (path, sha) in hashes {
        if path.starts_with(".claude/") {
            continue;
        }
        let meta = std::fs::symlink_metadata(project.root.join(&path)).map_err(|e| format!("`{path}`: {e}"))?;
        if !meta.is_file() {
            return Err(format!(
                "`{path}` is a symbolic link; hold out the file it points to instead"
            ));
        }
        found.insert(path, sha);
    }
    if found.is_empty() {
        return Err(format!(
            "matched no file in `{}` (globs are relative to the project root, e.g. 'tests/acceptance/**')",
            project.root.display()
        ));
    }
    Ok(found)
}

/// Copies every file of the outside directory `from` into `to`; relative path → SHA-256 of the copy.
fn copy_outside(from: &Path, to: &Path) -> Result<BTreeMap<String, String>, Error> {
    let mut copied = BTreeMap::new();
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Io {
            action: "copy the held-out file",
            path,
            source,
        }
    };
    OUTSIDE_WALK
        .walk(from, |entry| {
            if !entry.kind.is_file() {
                return Ok(Flow::Continue(()));
            }
            let target = to.join(entry.relative);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::copy(entry.path, &target)?;
            let (want, got) = (moves::sha256_of(entry.path)?, moves::sha256_of(&target)?);
            if want != got {
                return Err(std::io::Error::other("the copy changed while it was taken"));
            }
            copied.insert(entry.relative.to_string(), got);
            Ok(Flow::Continue(()))
        })
        .map_err(io(from))?;
    Ok(copied)
}

/// Writes the manifest, then moves each file into the store; on an error, puts back what moved.
pub(super) fn move_out(
    project: &Project,
    dir: &Path,
    loop_id: &str,
    moved: &BTreeMap<String, String>,
) -> Result<(), Error> {
    if moved.is_empty() {
        return Ok(());
    }
    let manifest = Manifest {
        project_root: project.canonical_root(),
        loop_id: loop_id.to_string(),
        moved: moved.clone(),
    };
    manifest.save(dir).map_err(|source| Error::Io {
        action: "write the held-out manifest",
        path: dir.join(MANIFEST),
        source,
    })?;
    for (path, sha) in moved {
        let result = moves::move_verified(&project.root.join(path), &dir.join(FILES).join(path), sha);
        if result.is_ok() {
            remove_emptied_parents(&project.root, path);
        }
        if let Err(source) = result {
            // Every file that moved goes back (the manifest lists them all; one not moved yet is skipped).
            let _ = super::restore_in(dir, &project.root);
            return Err(Error::Io {
                action: "move the held-out file out of the project",
                path: project.root.join(path),
                source,
            });
        }
    }
    Ok(())
}

/// Removes the directories of `path` (project-relative) that moving it left empty, up to the project root: an
/// empty `tests/acceptance/` would tell where the held-out tests live. Putting back recreates them.
fn remove_emptied_parents(root: &Path, path: &str) {
    let mut dir = Path::new(path).parent();
    while let Some(relative) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if std::fs::remove_dir(root.join(relative)).is_err() {
            break;
        }
        dir = relative.parent();
    }
}
