//! The room's sync of a tournament candidate's layered trees (issue 41: at most 0.5 s CPU per extra candidate):
//! a walk that does not enter the directories neither candidate nor run touched.
//!
//! A candidate's tree is an overlay of the tournament's shared checkout, and its room's tree an overlay of the
//! room tree built from that checkout once (`commands::run::tournament::layer`). The tournament syncs that room
//! tree against the checkout itself before sharing it, so the room's stat manifest then describes both lower
//! layers exactly, and records which they are ([`Layers`], in the manifest).
//!
//! **Why a directory found in neither upper layer can be skipped.** Overlayfs shows a directory the upper layer
//! does not hold as the lower layer's, with everything below it: any write, `chmod`, `touch`, deletion or
//! rename below it creates the directory in the upper layer first (copy-up; a deletion leaves a whiteout there,
//! a replaced directory an opaque one). The lower layers are never written: they lie in loopgate's store, which
//! every agent's world keeps read-only, and loopgate writes neither after sharing them. So below such a
//! directory, the candidate's files are the checkout's and the room's copies are the room tree's, as the
//! manifest says — and the manifest's entries there are still those the tournament wrote, since a sync changes
//! an entry only for a file it walked, in a directory then already in an upper layer, which stays there for
//! good. Redirected directories and metadata-only copy-ups, which would break this, are never on: the overlays
//! are mounted with `userxattr`, where the kernel turns both off. Everything else — the root, directories
//! either layer holds — is walked and compared file by file as for any tree.
//!
//! **Where it applies.** Only where this process sees both trees as the overlays the manifest names: each
//! mount is looked up in `/proc/self/mountinfo` (a lower layer other than the recorded one, no overlay, or no
//! record, and the sync walks everything, as before). The check costs a read of the mount table per sync.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The lower layers the room's manifest describes: of the project's tree, and of the room's copy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Layers {
    pub source: PathBuf,
    pub copy: PathBuf,
}

/// The upper layers of the project's tree and of the room's copy, where everything that differs from the
/// lower layers lies.
#[derive(Debug)]
pub(crate) struct Uppers {
    source: PathBuf,
    copy: PathBuf,
}

impl Layers {
    /// The upper layers of `root` and `tree`, when this process sees them mounted as overlays of exactly these
    /// lower layers.
    pub(crate) fn uppers(&self, root: &Path, tree: &Path) -> Option<Uppers> {
        let table = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let source = upper_of(&table, &root.canonicalize().ok()?, &self.source)?;
        let copy = upper_of(&table, &tree.canonicalize().ok()?, &self.copy)?;
        Some(Uppers { source, copy })
    }
}

/// The upper layer of the overlay this process sees mounted at `at`, when it is mounted over exactly `lower`
/// (the same proof as [`Layers::uppers`], for one tree: a candidate's work committed from its upper layer,
/// `commands::run::tournament::layer::changed`).
pub(crate) fn upper(at: &Path, lower: &Path) -> Option<PathBuf> {
    let table = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    upper_of(&table, &at.canonicalize().ok()?, lower)
}

impl Uppers {
    /// Whether the directory `relative` is in neither upper layer: below it, both trees are their lower layers'
    /// (see the module docs).
    pub(crate) fn untouched(&self, relative: &str) -> bool {
        std::fs::symlink_metadata(self.source.join(relative)).is_err()
            && std::fs::symlink_metadata(self.copy.join(relative)).is_err()
    }
}

/// The upper layer of the overlay mounted at `at` (the last mount there, which hides the others), if it is
/// mounted over `lower` alone.
fn upper_of(table: &str, at: &Path, lower: &Path) -> Option<PathBuf> {
    let options = table.lines().rev().find_map(|line| {
        let fields: Vec<&str> = line.split(' ').collect();
        let point = unescape(fields.get(4)?);
        let dash = fields.iter().position(|f| *f == "-")?;
        (Path::new(&point) == at).then(|| (fields.get(dash + 1).copied(), fields.get(dash + 3).copied()))
    })?;
    let (Some("overlay"), Some(options)) = options else {
        return None;
    };
    let mut upper = None;
    let mut lowers = None;
    for option in options.split(',') {
        if let Some(value) = option.strip_prefix("lowerdir=") {
            lowers = Some(unescape(value));
        } else if let Some(value) = option.strip_prefix("upperdir=") {
            upper = Some(PathBuf::from(unescape(value)));
        }
    }
    (lowers.as_deref().map(Path::new) == Some(lower))
        .then_some(upper)
        .flatten()
}

/// A path as the mount table writes it: space, tab, newline and backslash as `\` and three octal digits.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|b| (b'0'..=b'7').contains(b)));
        match octal {
            Some(digits) => {
                out.push(digits.iter().fold(0u8, |n, d| n.wrapping_mul(8).wrapping_add(d - b'0')));
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "\
22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
801 22 0:77 / /h/wt/c2 rw,nosuid,nodev,relatime - overlay overlay rw,lowerdir=/h/wt/base,upperdir=/h/wt/c2.layer/upper,workdir=/h/wt/c2.layer/work,userxattr
802 22 0:78 / /h/rooms/r\\0401/tree rw,relatime - overlay overlay rw,lowerdir=/h/wt/room-base,upperdir=/h/wt/c2.room/upper,workdir=/h/wt/c2.room/work,userxattr
803 22 0:79 / /h/wt/c3 rw,relatime - overlay overlay rw,lowerdir=/h/other:/h/wt/base,upperdir=/h/wt/c3.layer/upper,workdir=/h/wt/c3.layer/work,userxattr
";

    #[test]
    fn the_upper_layer_is_found_only_over_the_recorded_lower_layer() {
        let at = Path::new("/h/wt/c2");
        assert_eq!(
            upper_of(TABLE, at, Path::new("/h/wt/base")),
            Some(PathBuf::from("/h/wt/c2.layer/upper"))
        );
        // Another lower layer, several, no overlay, nothing mounted there: no upper layer, a whole walk.
        assert_eq!(upper_of(TABLE, at, Path::new("/h/wt/room-base")), None);
        assert_eq!(upper_of(TABLE, Path::new("/h/wt/c3"), Path::new("/h/wt/base")), None);
        assert_eq!(upper_of(TABLE, Path::new("/"), Path::new("/h/wt/base")), None);
        assert_eq!(upper_of(TABLE, Path::new("/h/wt/c9"), Path::new("/h/wt/base")), None);
        // The mount point as the table escapes it (a space).
        assert_eq!(
            upper_of(TABLE, Path::new("/h/rooms/r 1/tree"), Path::new("/h/wt/room-base")),
            Some(PathBuf::from("/h/wt/c2.room/upper"))
        );
    }

    #[test]
    fn a_directory_in_either_upper_layer_is_touched() {
        let dir = tempfile::tempdir().expect("tempdir");
        let uppers = Uppers {
            source: dir.path().join("source"),
            copy: dir.path().join("copy"),
        };
        std::fs::create_dir_all(uppers.source.join("src/a")).expect("mkdir");
        std::fs::create_dir_all(uppers.copy.join("lib")).expect("mkdir");
        std::fs::write(uppers.source.join("gone"), "").expect("whiteout's stand-in");
        assert!(!uppers.untouched("src"));
        assert!(!uppers.untouched("src/a"));
        assert!(!uppers.untouched("lib"));
        assert!(!uppers.untouched("gone"));
        assert!(uppers.untouched("src/b"));
        assert!(uppers.untouched("docs"));
    }
}
