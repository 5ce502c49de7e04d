//! Presenting a snapshot in the run's namespace (see the parent module): the places to overlay, the layer laid
//! over each (a tree of hard links to the store's objects, built once per place and kept for the loop), and the
//! held files no place can present, bound one by one from their objects.

use std::collections::HashSet;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{Entry, Snapshot, objects};

/// A snapshot with its store, as the run's mounts ask for it (`confine::Presenter`).
pub(crate) struct Presenting<'a> {
    pub snapshot: &'a Snapshot,
    pub store: PathBuf,
}

impl crate::confine::Presenter for Presenting<'_> {
    fn store(&self) -> &Path {
        &self.store
    }

    fn places(&self, root: &Path, avoid: &[PathBuf]) -> Vec<PathBuf> {
        self.snapshot.places(root, avoid)
    }

    fn layer(&self, place: &Path, deeper: &[PathBuf]) -> Option<(PathBuf, Vec<PathBuf>)> {
        let layer = self.snapshot.layer(&self.store, place, deeper).ok()??;
        let paths = self
            .snapshot
            .under(place, deeper)
            .map(|(path, _)| path.to_path_buf())
            .collect();
        Some((layer, paths))
    }

    fn file_binds(&self, presented: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
        self.snapshot.file_binds(&self.store, presented)
    }
}

impl Snapshot {
    /// The places to overlay so the held paths can be presented, for a project at `root`: for each held path,
    /// its outermost directory that is not `/` and holds neither the project nor any of `avoid` (loopgate's home,
    /// the snapshot's store: overlayfs refuses a layer inside another of the same mount, and the project is the
    /// room's tree). A held path with no such directory (a dotfile in a home that holds the project) is bound
    /// file by file instead ([`Snapshot::file_binds`]).
    pub(crate) fn places(&self, root: &Path, avoid: &[PathBuf]) -> Vec<PathBuf> {
        let mut places: Vec<PathBuf> = self
            .files
            .keys()
            .filter_map(|path| place_of(Path::new(path), root, avoid))
            .collect();
        places.sort();
        places.dedup();
        places
    }

    /// The held files no overlay presents (`presented`) that can be bound over their path, each `(object, path)`:
    /// those that are a regular file now, reached through no link (a bind follows one). The rest are compared.
    pub(crate) fn file_binds(&self, store: &Path, presented: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
        let Ok(objects) = objects::Objects::open(store) else {
            return Vec::new();
        };
        let presented: HashSet<&Path> = presented.iter().map(PathBuf::as_path).collect();
        self.files
            .iter()
            .filter_map(|(path, entry)| {
                let path = Path::new(path.as_str());
                // A linked object is the user's file: bound, the run's writes would land in it. It is compared.
                let key = entry.key().filter(|key| key.linked.is_none())?;
                if presented.contains(path) {
                    return None;
                }
                let parent = path.parent()?;
                let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
                let direct = parent.canonicalize().is_ok_and(|real| real == parent);
                let object = objects.object(key).ok().filter(|o| o.is_file())?;
                (regular && direct).then(|| (object, path.to_path_buf()))
            })
            .collect()
    }

    /// The held entries that `place` presents when `deeper` (places or mounts below it, overlaid or bound on
    /// their own) are left out: its files and links, not those held by stat alone.
    pub(crate) fn under<'a>(
        &'a self,
        place: &'a Path,
        deeper: &'a [PathBuf],
    ) -> impl Iterator<Item = (&'a Path, &'a Entry)> + 'a {
        self.files
            .iter()
            .map(|(path, entry)| (Path::new(path.as_str()), entry))
            .filter(move |(path, entry)| {
                path.starts_with(place)
                    && *path != place
                    && !deeper.iter().any(|d| path.starts_with(d))
                    && !matches!(entry, Entry::Large { .. })
            })
    }

    /// The layer that presents `place` (see the module doc), built under `store` once per place and kept for the
    /// loop; `None` where nothing held lies there. An error leaves the place unpresented (the promise compares).
    pub(crate) fn layer(&self, store: &Path, place: &Path, deeper: &[PathBuf]) -> io::Result<Option<PathBuf>> {
        if self.under(place, deeper).next().is_none() {
            return Ok(None);
        }
        let objects = objects::Objects::open(store)?;
        let layer = objects.layer_dir(place);
        let done = layer.with_extension("done");
        if done.exists() {
            return Ok(Some(layer));
        }
        crate::fsutil::remove_any(&layer)?;
        let mut dirs = Vec::new();
        let built = (|| -> io::Result<()> {
            objects::private_dir(&layer)?;
            for (path, entry) in self.under(place, deeper) {
                let relative = path.strip_prefix(place).map_err(io::Error::other)?;
                let at = layer.join(relative);
                let mut made = PathBuf::new();
                for part in relative.parent().into_iter().flat_map(Path::components) {
                    made.push(part);
                    let dir = layer.join(&made);
                    if std::fs::symlink_metadata(&dir).is_err() {
                        objects::private_dir(&dir)?;
                        let mode = std::fs::metadata(place.join(&made)).map_or(0o755, |m| m.mode() & 0o7777);
                        dirs.push((dir, mode));
                    }
                }
                match (entry.key(), entry) {
                    (Some(key), _) => objects.link(key, &at)?,
                    (None, Entry::Link { target }) => std::os::unix::fs::symlink(target, &at)?,
                    (None, _) => {}
                }
            }
            // Deepest first: a directory made read-only (Go's module cache) after what lies in it.
            for (dir, mode) in dirs.iter().rev() {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(*mode))?;
            }
            std::fs::write(&done, b"")
        })();
        match built {
            Ok(()) => Ok(Some(layer)),
            Err(err) => {
                let _ = make_removable(&layer);
                let _ = crate::fsutil::remove_any(&layer);
                Err(err)
            }
        }
    }
}

/// The outermost directory above `path` that is not `/` and holds neither `root` nor any of `avoid`.
fn place_of(path: &Path, root: &Path, avoid: &[PathBuf]) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .take_while(|a| a.parent().is_some() && !root.starts_with(a) && !avoid.iter().any(|v| v.starts_with(a)))
        .last()
        .map(Path::to_path_buf)
}

/// Gives the owner write access to every directory under `dir` (a layer made read-only), so it can be removed.
pub(crate) fn make_removable(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Ok(());
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    for entry in std::fs::read_dir(dir)?.flatten() {
        make_removable(&entry.path())?;
    }
    Ok(())
}
