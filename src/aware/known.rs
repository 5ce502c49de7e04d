//! What the code under test already knew at setup, and what it learned since.
//!
//! [`Known::take`] walks the project once at setup (the runners' walk: no `.git`, `node_modules`, build
//! output) and keeps, for every file [`super::judged`] reads, its stat key and the digests of the traces it
//! held then. [`Known::check`] walks again at a promise and reads only the files whose stat key moved (the
//! change time cannot be set by a process, see `testseal`): a trace whose digest is not among its file's is
//! new, and flagged. A trace is identified by its family and its line's text, not its line number, so code
//! added above it does not make it new. Nothing of the source is kept, only digests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Found, judged, scan_file};
use crate::testseal::StatKey;

/// Most source files recorded (a guard against pathological trees; the rest are read at every promise).
const MAX_FILES: usize = 50_000;

/// Every judged source file at setup (or when the user last accepted it), by project-relative path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Known {
    pub(crate) files: BTreeMap<String, Entry>,
    /// Files the verify command's runners collect as tests although no convention says so (the inventory's own
    /// test files): test side, never judged.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) tests: BTreeSet<String>,
}

/// One source file: its stat key and the digests of the traces it held.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Entry {
    stat: StatKey,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    traces: Vec<String>,
}

/// A new trace in a file of code under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Flagged {
    pub(crate) path: String,
    pub(crate) found: Found,
}

/// The digest a trace is known by: its family and its line's text with the white space folded.
fn digest(found: &Found) -> String {
    let folded: Vec<&str> = found.text.split_whitespace().collect();
    let key = format!("{:?}\n{}", found.family, folded.join(" "));
    crate::testsig::norm::digest(key.as_bytes())
}

impl Known {
    /// Reads every judged source file under `root`; `tests` are test files by the runners' configuration.
    pub(crate) fn take(root: &Path, tests: impl IntoIterator<Item = String>) -> Known {
        let tests: BTreeSet<String> = tests.into_iter().collect();
        let mut files = BTreeMap::new();
        each_file(
            root,
            &tests,
            |_, _| true,
            |path, lang, stat| {
                if files.len() < MAX_FILES
                    && let Some(found) = scan_file(&root.join(path), lang)
                {
                    let traces = found.iter().map(digest).collect();
                    files.insert(path.to_string(), Entry { stat, traces });
                }
            },
        );
        Known { files, tests }
    }

    /// The new traces, in path order.
    pub(crate) fn check(&self, root: &Path) -> Vec<Flagged> {
        let mut out = Vec::new();
        let moved = |path: &str, stat| self.files.get(path).is_none_or(|entry| entry.stat != stat);
        each_file(root, &self.tests, moved, |path, lang, _| {
            out.extend(self.new_in(root, path, lang).into_iter().map(|found| Flagged {
                path: path.to_string(),
                found,
            }));
        });
        out.sort_by(|a, b| (&a.path, a.found.line).cmp(&(&b.path, b.found.line)));
        out
    }

    /// Whether `path` holds a trace now or held one at setup: what `loopgate allow PATH` may accept.
    pub(crate) fn holds(&self, root: &Path, path: &str) -> bool {
        let known = self.files.get(path).is_some_and(|entry| !entry.traces.is_empty());
        let now = || judged(path).is_some_and(|lang| !self.new_in(root, path, lang).is_empty());
        known || now()
    }

    /// The traces in `path` (of `lang`) that were not there at setup.
    fn new_in(&self, root: &Path, path: &str, lang: super::Lang) -> Vec<Found> {
        let known = self.files.get(path).map_or(&[][..], |entry| &entry.traces[..]);
        let mut found = scan_file(&root.join(path), lang).unwrap_or_default();
        found.retain(|f| !known.contains(&digest(f)));
        found
    }

    /// Takes again the files `select` picks, as they are now (`loopgate allow`); returns those whose traces
    /// changed.
    pub(crate) fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool) -> Vec<String> {
        let now = Known::take(root, self.tests.clone());
        let mut accepted = Vec::new();
        let paths: BTreeSet<String> = self.files.keys().chain(now.files.keys()).cloned().collect();
        for path in paths.into_iter().filter(|path| select(path)) {
            let traces = |known: &Known| known.files.get(&path).map(|entry| entry.traces.clone());
            if traces(self) != traces(&now) {
                accepted.push(path.clone());
            }
            match now.files.get(&path) {
                Some(entry) => self.files.insert(path, entry.clone()),
                None => self.files.remove(&path),
            };
        }
        accepted
    }
}

/// Calls `visit(path, language, stat key)` for every judged source file under `root` that is not one of
/// `tests`, in no set order. A Rust test module in a file of its own is found only when `visit` reads it
/// (`read` says whether it would), so an unchanged file costs no read of its parent.
fn each_file(
    root: &Path,
    tests: &BTreeSet<String>,
    read: impl Fn(&str, StatKey) -> bool,
    mut visit: impl FnMut(&str, super::Lang, StatKey),
) {
    crate::walk::files(root, |path, _| {
        let Some(lang) = judged(path).filter(|_| !tests.contains(path)) else {
            return;
        };
        let Some(stat) = StatKey::of(&root.join(path)) else {
            return;
        };
        if read(path, stat) && !(lang == super::Lang::Rust && super::modfile::is_test_module(root, path)) {
            visit(path, lang, stat);
        }
    });
}
