//! Watching the oracle's inputs while the verify command runs (issue 20, "nothing changes while the oracle
//! runs"): a build script, a test's own code or a process the agent left running could rewrite a sealed file
//! for the length of the run and put it back afterwards, which no check before or after the run can see.
//!
//! The directories holding the sealed inputs — the test files, the closure's files (also those sealed as
//! absent), the `--seal` files — are watched, each without recursion, through the platform's notification
//! API (`notify`: inotify on Linux, kqueue on macOS —
//! FSEvents would need a framework the release builds cannot link). Any write, creation, removal or rename of a sealed path
//! during the run, and any new test file appearing, voids a pass and is named. Reads and metadata changes
//! (`touch`, the runner's access times) are not changes. Files the runner writes for itself (`__pycache__`,
//! `target/`) are not sealed and pass unnoticed.
//!
//! Where the platform refuses a watch (inotify's limit reached, an unsupported file system), the run goes on
//! with the checks before and after it only; [`Watch::start`] says so by returning `None`.

#[cfg(target_os = "linux")]
mod linked;
#[cfg(target_os = "linux")]
pub(super) use linked::Linked;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// A watch over the sealed inputs for one run.
pub(super) struct Watch {
    _watcher: RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
    root: PathBuf,
    sealed: BTreeSet<PathBuf>,
}

impl Watch {
    /// Starts watching `sealed` (absolute paths); `None` when the platform cannot watch them.
    pub(super) fn start(root: &Path, sealed: impl IntoIterator<Item = PathBuf>) -> Option<Watch> {
        let sealed: BTreeSet<PathBuf> = sealed.into_iter().collect();
        let dirs: BTreeSet<&Path> = sealed
            .iter()
            .filter_map(|path| path.parent())
            .filter(|dir| dir.is_dir())
            .collect();
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx).ok()?;
        for dir in dirs {
            watcher.watch(dir, RecursiveMode::NonRecursive).ok()?;
        }
        Some(Watch {
            _watcher: watcher,
            events,
            root: root.to_path_buf(),
            sealed,
        })
    }

    /// Stops watching; the sealed paths written, created, removed or renamed during the run, and the new test
    /// files that appeared, relative to the project root where they are under it, in order.
    pub(super) fn finish(self) -> Vec<String> {
        let Watch {
            _watcher: watcher,
            events,
            root,
            sealed,
        } = self;
        drop(watcher);
        let mut moved = BTreeSet::new();
        for event in events.try_iter().flatten() {
            if matches!(
                event.kind,
                EventKind::Access(_) | EventKind::Modify(notify::event::ModifyKind::Metadata(_))
            ) {
                continue;
            }
            for path in event.paths {
                let relative = path.strip_prefix(&root).unwrap_or(&path);
                let new_test = path.starts_with(&root)
                    && matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_))
                    && crate::testsig::is_test_file(relative);
                if sealed.contains(&path) || new_test {
                    moved.insert(relative.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        moved.into_iter().collect()
    }
}
