//! The one directory walker. Every walk of a tree in loopgate goes through [`Walker`]; what differs between
//! callers is an option, not another loop over `read_dir`:
//!
//! - **which directories are skipped**: a list of names never entered, and for the runners' walk the rule for
//!   build directories below;
//! - **whether symbolic links to directories are followed**: the runners' walk follows them, as pytest and Go's
//!   `./...` do, each real directory once (so a link to an ancestor ends there), and walks them after every
//!   real directory, so a directory inside the project is always named by its real path;
//! - **order**: unordered, or each directory's entries in name order with subdirectories walked where they
//!   come (a stable order, for a fingerprint of the walk);
//! - **caps**: a budget of directory entries, a depth, and the visitor may stop the walk;
//! - **errors**: ignored (an unreadable directory is skipped), or returned (a seal must not pass over a file it
//!   could not read).
//!
//! The runners' walk ([`Walker::RUNNERS`], used for the closure's watched names such as `conftest.py`, the test
//! inventory and the tests' data) never enters directories no runner collects from (`.git`, `node_modules`,
//! virtual environments, caches), so it stays cheap on large repositories. Build directories are another matter:
//! Go, Jest and node's test runner collect tests from a `build/` or `target/` directory like from any other, so
//! `build`, `dist` and `target` are entered unless they are build *output*: a directory holding a `CACHEDIR.TAG`
//! (what Cargo writes in its `target/`), or one the project's root `.gitignore` lists by name (`build/`, `/dist`).
//! A directory a runner marks as its build directory whatever its name (CMake's `CMakeCache.txt`,
//! `runner::BUILD_DIR_MARKERS`) is output too, for the runners' walk and for the room's tree
//! ([`Walker::skipping_build_dirs`]): what was built there (GoogleTest's own sources under `_deps/`, a test
//! binary) is neither the user's tests nor something a run may inherit.
//!
//! Not a walker, so not here: a single `read_dir` of one directory (a glob in one directory, a Go package's
//! files), and the progress probe's walk for untracked files (`treeprobe::untracked`), which decides every
//! directory by git's own rules — the index and the `.gitignore` files met on the way — as `git status` does.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs::{DirEntry, FileType, Metadata};
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Directory names the runners' walk never enters, besides the ecosystems' caches (`runner::CACHE_DIRS`).
const RUNNER_SKIP: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".claude",
    "node_modules",
    ".venv",
    "venv",
    ".cache",
];
/// Build directories, entered by the runners' walk only when they are not build output (see the module doc).
const BUILD_DIRS: &[&str] = &["target", "build", "dist"];
/// Most directory entries the runners' walk looks at.
const RUNNER_MAX_ENTRIES: usize = 500_000;

/// How to walk a tree: what to skip, whether to follow links, in what order, how far (see the module doc).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walker {
    skip: &'static [&'static str],
    build_output: bool,
    /// Directories holding a runner's build-directory marker are not entered.
    build_dirs: bool,
    /// The ecosystems' cache directories (`runner::CACHE_DIRS`) are not entered.
    caches: bool,
    follow_links: bool,
    sorted: bool,
    strict: bool,
    max_entries: usize,
    max_depth: usize,
}

/// One entry met by a walk (never a directory that is walked into: only what is not a directory, after links
/// are followed when the walk follows them).
pub(crate) struct Entry<'a> {
    /// The path, through the link when the walk followed one to get here.
    pub path: &'a Path,
    /// The path from the walk's root, `/`-separated (lossy for a name that is not UTF-8).
    pub relative: &'a str,
    /// The file name.
    pub name: &'a OsStr,
    /// The type: of the link's target when the walk follows links, else of the entry itself.
    pub kind: FileType,
    entry: &'a DirEntry,
}

impl Entry<'_> {
    /// The entry's own metadata (a symbolic link's, not its target's).
    pub(crate) fn metadata(&self) -> io::Result<Metadata> {
        self.entry.metadata()
    }
}

/// Whether the visitor wants the walk to go on.
pub(crate) type Flow = ControlFlow<()>;

/// The visitor's answer when it is looking for something: stop once `done`.
pub(crate) fn until(done: bool) -> Flow {
    if done { Flow::Break(()) } else { Flow::Continue(()) }
}

impl Walker {
    /// The walk test runners do when they discover files (see the module doc).
    pub(crate) const RUNNERS: Walker = Walker {
        skip: RUNNER_SKIP,
        build_output: true,
        build_dirs: true,
        caches: true,
        follow_links: true,
        sorted: false,
        strict: false,
        max_entries: RUNNER_MAX_ENTRIES,
        max_depth: usize::MAX,
    };

    /// A plain walk: skips directories named in `skip`, does not follow links, in no set order, errors ignored,
    /// no cap.
    pub(crate) const fn skipping(skip: &'static [&'static str]) -> Walker {
        Walker {
            skip,
            build_output: false,
            build_dirs: false,
            caches: false,
            follow_links: false,
            sorted: false,
            strict: false,
            max_entries: usize::MAX,
            max_depth: usize::MAX,
        }
    }

    /// Directories a runner marks as its build directory (`runner::BUILD_DIR_MARKERS`) are not entered.
    pub(crate) const fn skipping_build_dirs(self) -> Walker {
        Walker {
            build_dirs: true,
            ..self
        }
    }

    /// Each directory's entries in name order, subdirectories walked where they come.
    pub(crate) const fn sorted(self) -> Walker {
        Walker { sorted: true, ..self }
    }

    /// Errors reading a directory (other than its being missing) or an entry end the walk and are returned.
    pub(crate) const fn strict(self) -> Walker {
        Walker { strict: true, ..self }
    }

    /// Walks at most `depth` levels: `1` is the root's own entries.
    pub(crate) const fn max_depth(self, depth: usize) -> Walker {
        Walker {
            max_depth: depth,
            ..self
        }
    }

    /// Calls `visit` for every file (everything but a directory) under `root`, until it breaks; returns the
    /// first error of a strict walk or of `visit`.
    pub(crate) fn walk(&self, root: &Path, visit: impl FnMut(&Entry) -> io::Result<Flow>) -> io::Result<()> {
        self.walk_from(root, root, visit)
    }

    /// [`Walker::walk`] of `start`, a directory under `root`, naming entries from `root`.
    pub(crate) fn walk_from(
        &self,
        root: &Path,
        start: &Path,
        mut visit: impl FnMut(&Entry) -> io::Result<Flow>,
    ) -> io::Result<()> {
        self.walk_with(root, start, &mut |_| false, &mut visit)
    }

    /// [`Walker::walk`] that does not enter a directory for which `prune(relative path)` says so: the caller
    /// knows what lies below it without looking (the room's sync of a layered tree, `room::layered`).
    pub(crate) fn walk_pruned(
        &self,
        root: &Path,
        mut prune: impl FnMut(&str) -> bool,
        mut visit: impl FnMut(&Entry) -> io::Result<Flow>,
    ) -> io::Result<()> {
        self.walk_with(root, root, &mut prune, &mut visit)
    }

    fn walk_with(
        &self,
        root: &Path,
        start: &Path,
        prune: &mut dyn FnMut(&str) -> bool,
        visit: &mut dyn FnMut(&Entry) -> io::Result<Flow>,
    ) -> io::Result<()> {
        let mut walk = Walk {
            options: *self,
            prune,
            visit,
            budget: self.max_entries,
            seen: HashSet::new(),
            links: Vec::new(),
            ignored: if self.build_output {
                ignored_build_dirs(root)
            } else {
                Vec::new()
            },
        };
        if self.follow_links
            && let Some(id) = dir_id(start)
        {
            walk.seen.insert(id);
        }
        let prefix = start.strip_prefix(root).unwrap_or(Path::new("")).to_string_lossy();
        if walk.dir(start, &prefix, 1)?.is_break() {
            return Ok(());
        }
        // Linked directories after every real one, in name order, so a directory inside the project is always
        // named by its real path and the names do not depend on the order the file system lists entries in.
        let mut control = None;
        while !walk.links.is_empty() {
            let mut links = std::mem::take(&mut walk.links);
            links.sort();
            for (path, relative, depth) in links {
                let control = control.get_or_insert_with(|| crate::project::loopgate_home().canonicalize().ok());
                if into_control_plane(&path, control.as_deref()) {
                    continue;
                }
                if dir_id(&path).is_some_and(|id| walk.seen.insert(id)) && walk.dir(&path, &relative, depth)?.is_break()
                {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// Project-relative paths (with `/`) of the files whose name is one of `names`, sorted, by the runners' walk.
pub(crate) fn find_named(root: &Path, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    if names.is_empty() {
        return out;
    }
    files(root, |relative, name| {
        if names.contains(&name) {
            out.push(relative.to_string());
        }
    });
    out.sort();
    out
}

/// Calls `visit(relative path, file name)` for every file (not directory) under `root` by the runners' walk, in
/// no particular order; files reached through a linked directory are named by the path through the link.
pub(crate) fn files(root: &Path, mut visit: impl FnMut(&str, &str)) {
    let _ = Walker::RUNNERS.walk(root, |entry| {
        visit(entry.relative, &entry.name.to_string_lossy());
        Ok(Flow::Continue(()))
    });
}

/// Whether the linked directory `path` leads into loopgate's home (`control`, canonical): a link the agent made
/// to the seal store or the rooms is never walked. The oracle's world has no loopgate home (the room hides it), so
/// no runner there reaches what is behind such a link, and loopgate's own files there (the room's start hooks)
/// are no code under test, no test and no input of the run.
fn into_control_plane(path: &Path, control: Option<&Path>) -> bool {
    control.is_some_and(|home| path.canonicalize().is_ok_and(|target| target.starts_with(home)))
}

/// A directory's identity (device, inode), following links.
fn dir_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino()))
}

struct Walk<'v> {
    options: Walker,
    /// Directories not to enter (see [`Walker::walk_pruned`]).
    prune: &'v mut dyn FnMut(&str) -> bool,
    visit: &'v mut dyn FnMut(&Entry) -> io::Result<Flow>,
    budget: usize,
    /// Directories entered, by identity, so a linked directory is walked once (when links are followed).
    seen: HashSet<(u64, u64)>,
    /// Linked directories met, walked after the real ones: path, relative path, depth.
    links: Vec<(PathBuf, String, usize)>,
    /// Build directories the root `.gitignore` lists.
    ignored: Vec<String>,
}

impl Walk<'_> {
    /// Walks `dir` (at `depth`, the root's entries being at 1).
    fn dir(&mut self, dir: &Path, prefix: &str, depth: usize) -> io::Result<Flow> {
        let strict = self.options.strict;
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) if strict && err.kind() != io::ErrorKind::NotFound => return Err(err),
            Err(_) => return Ok(Flow::Continue(())),
        };
        let mut listed = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) => listed.push(entry),
                Err(err) if strict => return Err(err),
                Err(_) => {}
            }
        }
        if self.options.sorted {
            listed.sort_by_key(DirEntry::file_name);
        }
        for entry in &listed {
            if self.budget == 0 {
                return Ok(Flow::Break(()));
            }
            self.budget -= 1;
            let mut kind = match entry.file_type() {
                Ok(kind) => kind,
                Err(err) if strict => return Err(err),
                Err(_) => continue,
            };
            let path = entry.path();
            let link = self.options.follow_links && kind.is_symlink();
            if link {
                let Ok(meta) = std::fs::metadata(&path) else { continue };
                kind = meta.file_type();
            }
            let name = entry.file_name();
            let text = name.to_string_lossy();
            let relative = if prefix.is_empty() {
                text.to_string()
            } else {
                format!("{prefix}/{text}")
            };
            if !kind.is_dir() {
                let found = Entry {
                    path: &path,
                    relative: &relative,
                    name: &name,
                    kind,
                    entry,
                };
                if (self.visit)(&found)?.is_break() {
                    return Ok(Flow::Break(()));
                }
                continue;
            }
            if depth >= self.options.max_depth
                || self.options.skip.contains(&text.as_ref())
                || (self.options.caches && crate::runner::is_cache_dir(&text))
                || self.is_build_output(&path, &text, prefix)
                || (self.prune)(&relative)
            {
                continue;
            }
            if link {
                self.links.push((path, relative, depth + 1));
                continue;
            }
            let first = !self.options.follow_links || dir_id(&path).is_some_and(|id| self.seen.insert(id));
            if first && self.dir(&path, &relative, depth + 1)?.is_break() {
                return Ok(Flow::Break(()));
            }
        }
        Ok(Flow::Continue(()))
    }

    fn is_build_output(&self, path: &Path, name: &str, prefix: &str) -> bool {
        self.options.build_output
            && BUILD_DIRS.contains(&name)
            && (path.join("CACHEDIR.TAG").is_file() || (prefix.is_empty() && self.ignored.iter().any(|d| d == name)))
            || self.options.build_dirs
                && crate::runner::BUILD_DIR_MARKERS
                    .iter()
                    .any(|marker| path.join(marker).is_file())
    }
}

/// The build directories the root `.gitignore` lists by name (`build`, `build/`, `/build/`).
fn ignored_build_dirs(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(".gitignore")).unwrap_or_default();
    text.lines()
        .map(|l| l.trim().trim_matches('/'))
        .filter(|l| BUILD_DIRS.contains(l))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_names_at_any_depth_but_not_in_skipped_directories() {
        let dir = tempfile::tempdir().expect("tempdir");
        for path in [
            "conftest.py",
            "tests/conftest.py",
            "tests/unit/conftest.py",
            "node_modules/x/conftest.py",
            ".venv/conftest.py",
            "tests/test_a.py",
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "").expect("write");
        }
        assert_eq!(
            find_named(dir.path(), &["conftest.py"]),
            vec!["conftest.py", "tests/conftest.py", "tests/unit/conftest.py"]
        );
        assert!(find_named(dir.path(), &[]).is_empty());
    }

    /// Every ecosystem's cache directory (`runner::CACHE_DIRS`), at the root or below, is left out of the runners'
    /// walk and of no other: a plain walk asked to skip nothing enters them.
    #[test]
    fn the_runners_walk_skips_every_ecosystems_cache_directories() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let caches: Vec<&str> = crate::runner::CACHE_DIRS
            .iter()
            .flat_map(|d| d.iter().copied())
            .collect();
        assert!(caches.len() > 5, "{caches:?}");
        for cache in &caches {
            touch(root, &format!("{cache}/conftest.py"));
            touch(root, &format!("pkg/{cache}/conftest.py"));
        }
        touch(root, "pkg/conftest.py");
        assert_eq!(find_named(root, &["conftest.py"]), vec!["pkg/conftest.py"]);
        let mut plain = 0;
        Walker::skipping(&[])
            .walk(root, |entry| {
                plain += usize::from(entry.name == "conftest.py");
                Ok(Flow::Continue(()))
            })
            .expect("walk");
        assert_eq!(plain, 2 * caches.len() + 1);
    }

    fn touch(root: &Path, path: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }

    #[test]
    fn build_directories_are_walked_unless_they_are_build_output() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in [
            "build/pkg/conftest.py",
            "target/it/conftest.py",
            "dist/conftest.py",
            "crates/a/target/debug/conftest.py",
            "crates/a/target/CACHEDIR.TAG",
        ] {
            touch(root, path);
        }
        std::fs::write(
            root.join(".gitignore"),
            "/dist/
*.log
",
        )
        .expect("write");
        assert_eq!(
            find_named(root, &["conftest.py"]),
            vec!["build/pkg/conftest.py", "target/it/conftest.py"]
        );
    }

    /// A CMake build directory, whatever its name, holds what a build wrote (GoogleTest's own tests under
    /// `_deps/`, a test binary): neither walk reads it, and nothing else is left out.
    #[test]
    fn a_cmake_build_directory_is_not_walked_by_any_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in [
            "out/CMakeCache.txt",
            "out/_deps/googletest-src/googletest/test/gtest_unittest.cc",
            "cmake-build-debug/CMakeCache.txt",
            "cmake-build-debug/calc_test",
            "tests/calc_test.cc",
            "CMakeCache.txt",
        ] {
            touch(root, path);
        }
        let mut tree = Vec::new();
        Walker::skipping(&[])
            .skipping_build_dirs()
            .sorted()
            .walk(root, |entry| {
                tree.push(entry.relative.to_string());
                Ok(Flow::Continue(()))
            })
            .expect("walks");
        assert_eq!(
            tree,
            vec!["CMakeCache.txt", "tests/calc_test.cc"],
            "an in-source build's root is still walked"
        );
        assert_eq!(
            find_named(root, &["gtest_unittest.cc", "calc_test", "calc_test.cc"]),
            vec!["tests/calc_test.cc"]
        );
    }

    #[test]
    fn linked_directories_are_followed_once_and_cycles_end() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        touch(root, "real/tests/conftest.py");
        let outside = tempfile::tempdir().expect("tempdir");
        touch(outside.path(), "conftest.py");
        std::os::unix::fs::symlink(root.join("real"), root.join("linked")).expect("symlink");
        std::os::unix::fs::symlink(root, root.join("real/tests/up")).expect("symlink");
        std::os::unix::fs::symlink(outside.path(), root.join("shared")).expect("symlink");
        let found = find_named(root, &["conftest.py"]);
        assert!(found.contains(&"shared/conftest.py".to_string()), "{found:?}");
        let real = found.iter().filter(|p| p.ends_with("tests/conftest.py")).count();
        assert_eq!(
            real, 1,
            "the linked twin of a walked directory is walked once: {found:?}"
        );
    }

    /// Everything a plain walk visits: relative paths, in the order met.
    fn visited(walker: Walker, root: &Path) -> Vec<String> {
        let mut out = Vec::new();
        walker
            .walk(root, |entry| {
                out.push(entry.relative.to_string());
                Ok(Flow::Continue(()))
            })
            .expect("walk");
        out
    }

    #[test]
    fn a_sorted_walk_goes_depth_first_in_name_order_and_does_not_follow_links() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in ["b/z", "b/a", "a", "c", "skipped/x", "d/skipped/y"] {
            touch(root, path);
        }
        std::os::unix::fs::symlink(root.join("b"), root.join("link")).expect("symlink");
        let walker = Walker::skipping(&["skipped"]).sorted();
        assert_eq!(visited(walker, root), ["a", "b/a", "b/z", "c", "link"]);
        assert_eq!(visited(walker.max_depth(1), root), ["a", "c", "link"]);
    }

    #[test]
    fn the_visitor_stops_the_walk_and_a_strict_walk_returns_errors() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in ["a/1", "a/2", "b/3"] {
            touch(root, path);
        }
        let mut seen = 0;
        let walked = Walker::skipping(&[]).walk(root, |_| {
            seen += 1;
            Ok(until(seen == 2))
        });
        assert!(walked.is_ok());
        assert_eq!(seen, 2, "nothing visited after a break");
        let failed = Walker::skipping(&[])
            .strict()
            .walk(root, |_| Err(std::io::Error::other("visit")));
        assert_eq!(failed.expect_err("the visitor's error").to_string(), "visit");
        let missing = Walker::skipping(&[])
            .strict()
            .walk_from(root, &root.join("none"), |_| Ok(Flow::Continue(())));
        assert!(missing.is_ok(), "a missing directory has no files");
    }

    /// A link the agent made into loopgate's home, to the home itself or to a directory in it, leads into the
    /// control plane; a link to a directory beside it (a shared install) does not.
    #[test]
    fn a_link_into_loopgates_home_leads_into_the_control_plane() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        touch(root, "home/rooms/r1/hook/python/sitecustomize.py");
        touch(root, "shared/lib/x.py");
        touch(root, "project/a.py");
        let home = root.join("home").canonicalize().expect("home");
        for (name, target) in [("store", "home"), ("rooms", "home/rooms/r1"), ("lib", "shared/lib")] {
            std::os::unix::fs::symlink(root.join(target), root.join("project").join(name)).expect("link");
        }
        let control = |name: &str| into_control_plane(&root.join("project").join(name), Some(&home));
        assert!(control("store") && control("rooms"));
        assert!(!control("lib") && !control("a.py"));
        assert!(
            !into_control_plane(&root.join("project/store"), None),
            "no home known: nothing is left out"
        );
    }
}
