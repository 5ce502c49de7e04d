//! The room's own tree (issue 29, item 1): the verify command runs in a copy of the project that loopgate builds
//! itself, under the room (`<room>/tree`), mounted at the project's own path where the platform allows it (see
//! `confine::mount`). The copy is kept between promises and synced, not rebuilt.
//!
//! What it holds:
//! - **the code under test as it stands at this stop**, and the test side as the oracle's run must see it (the
//!   run's test files stand as sealed in the project while it is synced, see `oracle::world`, its `sealed` stage);
//! - **not** the tree's build outputs and caches ([`SKIPPED`]: `target/`, `__pycache__/`, `.pytest_cache/`…, and
//!   a CMake build directory by its `CMakeCache.txt`, whatever its name): the run computes its own, in the room's
//!   private caches or in the copy, where they stay between promises — so a test binary the agent built (or
//!   planted, with a modification time that makes `cmake --build` keep it) is never what the oracle runs;
//! - **not** a file the runners load on their own that was absent at the baseline ([`left_out`]): a new
//!   `conftest.py`, `__init__.py`, runner or toolchain configuration above a baseline test (a bats
//!   `setup_suite.bash`, a rake task file in `rakelib/`), a new
//!   `sitecustomize.py`, `.pth` or jest `__mocks__/` file anywhere. These reach tests that were the user's; new
//!   code and new tests reach nothing of the user's and are always copied (a module turned into a package, a
//!   new crate of the workspace, a new configuration below no baseline test);
//! - the dependency and version-control directories ([`BOUND`]: `node_modules`, `.venv`, `venv`, `.git`…) are
//!   not copied: the user's own are mounted at their place. Installed dependencies are the user's side, and a
//!   dependency the agent installs is honest work; a redirected or edited test dependency is the resolution
//!   check's to see (issue 29, item 3), not the tree's.
//!
//! Sync by stat: a file is copied again when its size, modification time, inode or change time differs from
//! what was copied last (`ctime` catches a file put back with an old modification time), or when the copy's own
//! stat is not what the last sync left (a run wrote into its tree). Copies are reflinks (`FICLONE`) where the
//! filesystem has them, else plain copies; never hard links (a write through one would change the user's
//! file). The stat manifest and the baseline's list of files live in the seal store (a companion), which the
//! run cannot write. A directory left empty is not carried (as git carries none). A tournament candidate's
//! trees, overlays whose lower layers the manifest describes, are walked only where their upper layers hold
//! something (`room::layered`).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::ops::Bound;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::walk::{Flow, Walker};

include!(concat!(env!("OUT_DIR"), "/ecosystem/room/tree.rs"));

/// The copy's place in the room.
pub(crate) const PLACE: &str = "tree";

/// Directories the user's own are mounted over, at their place (where the project has one as a directory).
pub(crate) const BOUND: &[&str] = &["node_modules", ".venv", "venv", ".git", ".hg", ".svn", ".jj"];

/// What the room's tree knows of one ecosystem's files, in its folder (`src/ecosystem/<name>/tree.rs`).
struct TreeFiles {
    /// Files its runners load from every directory above the tests on its own: new ones are left out where a
    /// baseline test lies at or below them.
    above_tests: &'static [&'static str],
    /// Name prefixes of its runners' configuration (`jest.config.ts`, `.mocharc.yml`…), treated as
    /// `above_tests`.
    config_prefixes: &'static [&'static str],
    /// Directories whose files a tool reads as its own configuration, by name (`(dir, prefix, suffix)`), treated
    /// as `above_tests` from the directory that holds them.
    config_dirs: &'static [(&'static str, &'static str, &'static str)],
    /// What a run loads whatever directory it is in: new ones are left out anywhere.
    anywhere: &'static [&'static str],
    /// Its caches and build outputs in the project, which the walk does not copy (the run's own stay in the
    /// copy).
    skipped: &'static [&'static str],
}

impl TreeFiles {
    const NONE: TreeFiles = TreeFiles {
        above_tests: &[],
        config_prefixes: &[],
        config_dirs: &[],
        anywhere: &[],
        skipped: &[],
    };
}

/// What no one ecosystem owns: version managers' and build-wide files, and the directories of version control
/// and of tools.
const SHARED: TreeFiles = TreeFiles {
    above_tests: &[".tool-versions", "Directory.Build.props"],
    skipped: &[".claude", ".cache", ".git", ".hg", ".svn", ".jj"],
    ..TreeFiles::NONE
};

/// The files every ecosystem shares, then each registered folder's (its `tree.rs`).
const TREES: &[&TreeFiles] = &each_tree!(&SHARED; &TREE);

/// The baseline's files and the stat of every file copied: a companion of the seal (`seal::ROOM_TREE`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Synced {
    /// Every file of the tree at the baseline.
    pub baseline: BTreeSet<String>,
    /// The directories that held a test file (or its data) at the baseline.
    pub test_dirs: BTreeSet<String>,
    /// What each file was when it was last copied, and what its copy was then.
    pub files: BTreeMap<String, Stamp>,
    /// The sealed test files and data: read-only in the run's namespace (`confine::mount`).
    #[serde(default)]
    pub sealed: BTreeSet<String>,
    /// The places outside the project the runners read on their own, as the baseline found them.
    #[serde(default)]
    pub outside: super::outside::Outside,
    /// The lower layers these entries describe, where the tree and its copy are a tournament candidate's
    /// overlays: the sync then skips what neither upper layer holds (`room::layered`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<super::layered::Layers>,
    /// Configuration files judged at each promise by what their runner resolves from them (`closure::js_config`):
    /// carried when new like any file of the agent's, for that reading and the run to see them.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub judged: BTreeSet<String>,
    /// What the baseline's own run made in the copy that a sync would not have carried ([`Synced::made_by_run`]):
    /// the user's run makes it again at every promise (a test generated from a template, a `conftest.py` a
    /// setup step writes), so it is the run's output, not a move.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub made_by_baseline: BTreeSet<String>,
}

/// The stat of a file and of its copy, as the last sync left them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    pub source: Stat,
    pub copy: Stat,
}

/// Size, modification and change times (nanoseconds), inode. The copy's is taken after the sync set its
/// modification time, so any later write to it moves its change time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stat {
    pub len: u64,
    pub mtime: i128,
    pub ctime: i128,
    pub ino: u64,
}

impl Stat {
    pub(crate) fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            len: meta.len(),
            mtime: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
            ino: meta.ino(),
        }
    }
}

/// What one sync did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Done {
    /// Files copied (new or changed since the last sync).
    pub copied: usize,
    /// Files removed from the copy.
    pub removed: usize,
    /// New files the runners would load on their own, left out (see [`left_out`]).
    pub left_out: Vec<String>,
    /// Directories of the project's own to mount over the copy at the same relative path ([`BOUND`]).
    pub bound: Vec<String>,
    /// What of the places outside the project is covered for the run, and what changed in place
    /// (`room::outside`; filled by `Room::mount_tree`).
    pub outside: super::outside::Hidden,
}

impl Synced {
    /// The baseline of the project at `root`: its files now, `test_files` (the sealed test files and their data,
    /// project-relative) and their directories, with test-named files found in the walk.
    pub(crate) fn baseline<'a>(root: &Path, test_files: impl IntoIterator<Item = &'a String>) -> io::Result<Synced> {
        let mut synced = Synced::default();
        WALK.walk(root, |entry| {
            synced.baseline.insert(entry.relative.to_string());
            Ok(Flow::Continue(()))
        })?;
        let named = synced
            .baseline
            .iter()
            .filter(|path| test_named(path))
            .map(|path| parent_of(path));
        synced.sealed = test_files.into_iter().cloned().collect();
        let mut dirs: BTreeSet<String> = synced.sealed.iter().map(|path| parent_of(path)).collect();
        dirs.extend(named);
        synced.test_dirs = dirs;
        Ok(synced)
    }

    /// Takes the sealed files a run wrote in the copy at `tree` (its stat is not what the last sync left) off the
    /// read-only list, but for `is_test` files: the baseline's own run writing a report or a log beside the tests
    /// makes that file output, which the oracle's runs must be able to write again.
    pub(crate) fn release_run_outputs(&mut self, tree: &Path, is_test: impl Fn(&str) -> bool) -> Vec<String> {
        let written: Vec<String> = self
            .sealed
            .iter()
            .filter(|path| !is_test(path))
            .filter(|path| written_since(tree, path, self.files.get(*path).map(|stamp| stamp.copy)))
            .cloned()
            .collect();
        for path in &written {
            self.sealed.remove(path);
        }
        written
    }

    /// The files the last run made in the copy at `tree` that a sync would not have carried from the project: one
    /// the runners load on their own that the sync leaves out when new ([`Synced::left_out`]), or a new test
    /// file (`is_new_test`, which sits out the oracle's run when the agent writes it) beside a baseline test (a
    /// test's own output elsewhere — a scaffold it writes under `tests/output/` — is no test of the run's). Where a step of the run
    /// itself makes one — a make prerequisite, a build script — before the runner starts, the runner loads it
    /// as it would the agent's, past every check made before the run; so such a file voids the run as a sealed
    /// file written does. Those the baseline's own run made ([`Synced::made_by_baseline`]) are its output.
    pub(crate) fn made_by_run(&self, tree: &Path, is_new_test: impl Fn(&str) -> bool) -> io::Result<Vec<String>> {
        let mut made = Vec::new();
        WALK.walk(tree, |entry| {
            let relative = entry.relative;
            if !self.files.contains_key(relative)
                && !self.made_by_baseline.contains(relative)
                && ((!self.baseline.contains(relative) && self.left_out(relative))
                    || (is_new_test(relative) && self.test_dirs.contains(&parent_of(relative))))
                && !entry.metadata()?.is_dir()
            {
                made.push(relative.to_string());
            }
            Ok(Flow::Continue(()))
        })?;
        Ok(made)
    }

    /// Brings the copy at `tree` up to date with `root`; returns what it did.
    pub(crate) fn sync(&mut self, root: &Path, tree: &Path) -> io::Result<Done> {
        super::private_dir(tree)?;
        let mut done = Done::default();
        let mut present = BTreeSet::new();
        // Each directory holding a file is looked in for a bound directory: the root always.
        let mut dirs = BTreeSet::from([String::new()]);
        // Layered trees: the directories neither upper layer holds are as the manifest says, file for file.
        let uppers = self.layers.as_ref().and_then(|layers| layers.uppers(root, tree));
        let untouched = |relative: &str| uppers.as_ref().is_some_and(|u| u.untouched(relative));
        let mut skipped = Vec::new();
        let prune = |relative: &str| {
            let skip = untouched(relative);
            if skip {
                skipped.push(format!("{relative}/"));
            }
            skip
        };
        WALK.walk_pruned(root, prune, |entry| {
            let relative = entry.relative;
            if !self.baseline.contains(relative) && self.left_out(relative) {
                done.left_out.push(relative.to_string());
                return Ok(Flow::Continue(()));
            }
            let to = tree.join(relative);
            let meta = carried(entry.path, entry.metadata()?, self.sealed.contains(relative));
            if !(meta.is_file() || meta.file_type().is_symlink()) {
                return Ok(Flow::Continue(()));
            }
            present.insert(relative.to_string());
            dirs.insert(parent_of(relative));
            let source = Stat::of(&meta);
            let copy = std::fs::symlink_metadata(&to).ok().map(|m| Stat::of(&m));
            let last = self.files.get(relative);
            if last.is_some_and(|s| s.source == source && Some(s.copy) == copy) {
                return Ok(Flow::Continue(()));
            }
            copy_one(entry.path, &to, &meta)?;
            let copy = Stat::of(&std::fs::symlink_metadata(&to)?);
            self.files.insert(relative.to_string(), Stamp { source, copy });
            done.copied += 1;
            Ok(Flow::Continue(()))
        })?;
        for below in &skipped {
            for relative in self
                .files
                .range::<str, _>((Bound::Included(below.as_str()), Bound::Unbounded))
                .map(|(path, _)| path)
            {
                if !relative.starts_with(below.as_str()) {
                    break;
                }
                present.insert(relative.clone());
                dirs.insert(parent_of(relative));
            }
        }
        for dir in &dirs {
            for name in BOUND {
                let relative = if dir.is_empty() {
                    (*name).to_string()
                } else {
                    format!("{dir}/{name}")
                };
                if std::fs::symlink_metadata(root.join(&relative)).is_ok_and(|m| m.is_dir()) {
                    done.bound.push(relative);
                }
            }
        }
        self.files.retain(|path, _| present.contains(path));
        let mut stale = Vec::new();
        // Below an untouched directory the copy holds the manifest's files, all present: none is stale.
        WALK.walk_pruned(tree, untouched, |entry| {
            if !present.contains(entry.relative) {
                stale.push(entry.path.to_path_buf());
            }
            Ok(Flow::Continue(()))
        })?;
        done.removed = stale.len();
        for path in stale {
            crate::fsutil::remove_any(&path)?;
        }
        for relative in &done.bound {
            let at = tree.join(relative);
            if !std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir()) {
                crate::fsutil::remove_any(&at)?;
                std::fs::create_dir_all(&at)?;
            }
        }
        done.bound.sort();
        Ok(done)
    }

    /// Whether a file absent at the baseline is one the runners load on their own where it would reach a
    /// baseline test (see the module doc).
    pub(crate) fn left_out(&self, relative: &str) -> bool {
        if self.judged.contains(relative) {
            return false;
        }
        let name = relative.rsplit('/').next().unwrap_or(relative);
        let dir = parent_of(relative);
        let anywhere = TREES.iter().any(|tree| tree.anywhere.contains(&name));
        if anywhere || name.ends_with(".pth") || dir.split('/').any(|part| part == "__mocks__") {
            return true;
        }
        // The directory the configuration applies from: the one holding a configuration directory, else its own.
        let config_dirs = TREES.iter().flat_map(|tree| tree.config_dirs);
        let in_config_dir = config_dirs.clone().find_map(|(place, prefix, suffix)| {
            let holder = if dir == *place {
                Some("")
            } else {
                dir.strip_suffix(place).and_then(|d| d.strip_suffix('/'))
            };
            holder.filter(|_| name.starts_with(prefix) && name.ends_with(suffix))
        });
        let config = in_config_dir.is_some()
            || TREES.iter().any(|tree| {
                tree.above_tests.contains(&name) || tree.config_prefixes.iter().any(|prefix| name.starts_with(prefix))
            });
        let above = in_config_dir.unwrap_or(dir.as_str());
        config && self.test_dirs.iter().any(|tests| at_or_below(tests, above))
    }
}

/// The walk of the project and of the copy: everything but the build outputs and caches (the run's own stay in
/// the copy), loopgate's and Claude Code's in-project files, and the [`BOUND`] directories.
const WALK: Walker = Walker::skipping(SKIPPED).skipping_build_dirs().strict();
/// The names the walk of the project skips: every ecosystem's [`TreeFiles::skipped`] and [`SHARED`]'s (the
/// held-out tests' private copy leaves out the same, `holdout::copy`).
pub(crate) const SKIPPED: &[&str] = &skipped::<{ skipped_len() }>();

/// How many names the ecosystems' walks skip ([`TreeFiles::skipped`], all of [`TREES`]).
const fn skipped_len() -> usize {
    let (mut i, mut n) = (0, 0);
    while i < TREES.len() {
        n += TREES[i].skipped.len();
        i += 1;
    }
    n
}

/// The names the ecosystems' walks skip, end to end, at compile time (the walk is a constant).
const fn skipped<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut at) = (0, 0);
    while i < TREES.len() {
        let mut j = 0;
        while j < TREES[i].skipped.len() {
            out[at] = TREES[i].skipped[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// Whether the directory `dir` is `top` or lies below it (`""` is the root).
/// Whether the copy of `relative` in `tree` is not what the last sync left (`synced`: its stat then; none, absent):
/// a write puts the change time forward, whatever was put back.
pub(crate) fn written_since(tree: &Path, relative: &str, synced: Option<Stat>) -> bool {
    let now = std::fs::symlink_metadata(tree.join(relative))
        .ok()
        .map(|meta| Stat::of(&meta));
    now != synced
}

fn at_or_below(dir: &str, top: &str) -> bool {
    top.is_empty() || dir == top || dir.strip_prefix(top).is_some_and(|rest| rest.starts_with('/'))
}

/// The directory part of a relative path (`""` at the root).
fn parent_of(relative: &str) -> String {
    relative
        .rsplit_once('/')
        .map_or(String::new(), |(dir, _)| dir.to_string())
}

/// A file named as a test by the common runners' conventions (for a baseline without an inventory).
fn test_named(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    let in_test_dir = relative
        .split('/')
        .any(|part| matches!(part, "tests" | "test" | "__tests__" | "spec"));
    in_test_dir
        || name.starts_with("test_") && name.ends_with(".py")
        || name.ends_with("_test.py")
        || name.ends_with("_test.go")
        || name.contains(".test.")
        || name.contains(".spec.")
}

/// What the copy of a file whose own stat is `meta` is: the file itself, but that a sealed test file or datum
/// (`sealed`) the agent made a link to a file is carried as the regular file the link resolves to now (its
/// content is the test seal's to judge). So the run's tests read it read-only in the tree (`confine::mount`
/// binds regular files alone), and a run that writes where the link pointed — outside the project, where no
/// tree or seal looks — changes nothing the tests read. A link that resolves to no file is carried as a link.
fn carried(path: &Path, meta: std::fs::Metadata, sealed: bool) -> std::fs::Metadata {
    if !(sealed && meta.file_type().is_symlink()) {
        return meta;
    }
    std::fs::metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .unwrap_or(meta)
}

/// Makes the directories of the files set aside for a run (`sat_out`, the agent's new tests) stand in the copy at
/// `tree` as they stand in the project at `root`, empty where nothing else is in them: the copy holds files only,
/// so a directory of new tests alone would be missing, and a runner configured to read it (a PHPUnit
/// `<testsuite>` of the agent's new tests, `closure::selection`) would fail where the run in the project's own
/// tree finds it empty. Best effort: a directory not made is a run that says so.
pub(crate) fn keep_dirs_of(root: &Path, tree: &Path, sat_out: &[String]) {
    for relative in sat_out {
        let Some(dir) = Path::new(relative).parent().filter(|d| !d.as_os_str().is_empty()) else {
            continue;
        };
        // Only a real directory of the project's own, never through a link.
        let plain = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .all(|a| std::fs::symlink_metadata(root.join(a)).is_ok_and(|m| m.is_dir()));
        if plain && dir.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
            let _ = std::fs::create_dir_all(tree.join(dir));
        }
    }
}

/// Copies one file (or symbolic link) of the project to `to`: a new file, never written through what was there.
fn copy_one(from: &Path, to: &Path, meta: &std::fs::Metadata) -> io::Result<()> {
    crate::fsutil::remove_any(to)?;
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if meta.file_type().is_symlink() {
        return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
    }
    let mut source = std::fs::File::open(from)?;
    let mut copy = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::File::options()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(to)?
    };
    if !reflink(&source, &copy) {
        io::copy(&mut source, &mut copy)?;
    }
    copy.set_permissions(meta.permissions())?;
    copy.set_modified(meta.modified()?)?;
    Ok(())
}

/// Makes `copy` share `source`'s blocks (`FICLONE`) where the filesystem can; `false` where it cannot.
#[cfg(target_os = "linux")]
pub(crate) fn reflink(source: &std::fs::File, copy: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: an ioctl on two open descriptors this function borrows; no memory is passed.
    unsafe { libc::ioctl(copy.as_raw_fd(), libc::FICLONE, source.as_raw_fd()) == 0 }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn reflink(_source: &std::fs::File, _copy: &std::fs::File) -> bool {
    false
}

/// In a copy at its own path (`TreeState::Copied`), the project's own directory `from` at the bound place `at`
/// (the empty mount point [`Synced::sync`] leaves): a symbolic link, so the run resolves the user's installed
/// dependencies as the mounted tree would.
pub(crate) fn link_bound(from: &Path, at: &Path) -> io::Result<()> {
    if std::fs::read_link(at).is_ok_and(|target| target == from) {
        return Ok(());
    }
    crate::fsutil::remove_any(at)?;
    std::os::unix::fs::symlink(from, at)
}

#[cfg(test)]
mod tests;
