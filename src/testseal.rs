//! The test inventory: every test file's signature when the loop started, and what changed in the tests since.
//!
//! The verify command judges the code by its tests, so the tests are part of the oracle: an agent that skips,
//! weakens or deletes them games the verdict without touching the command. Setup ([`Inventory::take_for`])
//! reads every test file of the ecosystems the verify command runs — by the runners' naming conventions, the
//! rules of the runners the command runs and the project's own test patterns (`rules`), plus Rust sources with
//! inline tests and the test helpers the tests import from outside the test directories (`helpers`) — and
//! keeps its signature (`testsig::FileSig`: the tests, the code around them, the skip markers; no source text). At a promise, [`Inventory::check`] compares the files now:
//!
//! - existing tests changed, code they rely on changed, new setup code around them (`Check::Tests`);
//! - skip / ignore / xfail / only markers added, tests deleted or renamed out of collection (`Check::Skips`).
//!
//! New tests, new test files, helpers and imports are not findings: adding tests is the work. In a Rust source
//! file only the tests are sealed — the rest of it is the code under test. New test files are read too, since
//! a new file can still run code around the existing tests (a `TestMain`, a module-level monkeypatch).
//!
//! A file whose size, modification time, change time and inode are as recorded is not read again: the change
//! time cannot be set by a process, so this is safe against `touch -d`. The inventory can be large, so it lives
//! beside the seal in its own file, loaded only at a promise or when the guard inspects an edit.
//!
//! One of the five modules the user's tests pass through, each answering one question (`ARCHITECTURE.md`, "One of
//! each mechanism"): this one keeps every test file's signature (each read by `testsig`); `testswap` stands the
//! test files as sealed in the oracle's run, `testjudge::baseline` and `testjudge::ratchet` judge a run's results.

mod cut;
pub mod env_reads;
mod follow;
mod helpers;
mod likeness;
mod listing;
mod renamed;
pub(crate) mod rules;
mod sigs;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::closure::Closure;
use crate::schema::Check;
use crate::testsig::{self, FileSig, Finding, Lang, Scope, UnitKind};
use rules::Rules;

/// Most test files one inventory holds (a guard against pathological trees; the rest are not sealed).
const MAX_FILES: usize = 20_000;

/// What identifies a file's content without reading it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StatKey {
    pub(crate) len: u64,
    pub(crate) mtime_ns: i128,
    pub(crate) ctime_ns: i128,
    pub(crate) ino: u64,
}

impl StatKey {
    pub(crate) fn of(path: &Path) -> Option<StatKey> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::symlink_metadata(path).ok()?;
        let ns = |secs: i64, nsec: i64| i128::from(secs) * 1_000_000_000 + i128::from(nsec);
        Some(StatKey {
            len: meta.len(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
        })
    }
}

/// One test file as it was at setup (or when the user last accepted it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub(crate) stat: StatKey,
    /// For a source file that holds tests without being a test file (Rust's inline `mod tests`), the signature
    /// covers only its tests (`Scope::Inline`).
    pub(crate) sig: FileSig,
}

/// The test files of a loop, by project-relative path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory {
    /// The languages whose tests are sealed (those the verify command runs; all when it is not recognized).
    pub(crate) langs: Vec<Lang>,
    pub files: BTreeMap<String, Entry>,
    /// The runners' own rules for which files are tests, beyond the conventions (see [`rules`]).
    #[serde(default, skip_serializing_if = "Rules::is_empty")]
    pub(crate) rules: Rules,
}

/// One finding in one test file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestMove {
    pub(crate) path: String,
    pub(crate) finding: Finding,
    /// The file did not exist at setup.
    pub(crate) new_file: bool,
}

/// The check a finding belongs to (so the user's opt-out can drop it): markers and deletions are
/// [`Check::Skips`], everything else [`Check::Tests`].
pub(crate) fn check_of(finding: &Finding) -> Check {
    match finding {
        Finding::MarkerAdded { .. } | Finding::TestDeleted { .. } => Check::Skips,
        _ => Check::Tests,
    }
}

/// The languages whose tests are sealed: the ecosystems a verify command runs; every language when none was
/// recognized.
pub fn langs_of(ecosystems: &[Lang]) -> Vec<Lang> {
    if ecosystems.is_empty() {
        return Lang::ALL.to_vec();
    }
    ecosystems.to_vec()
}

impl Inventory {
    /// Reads every test file of `langs` under `root`, by the naming conventions only.
    pub fn take(root: &Path, langs: Vec<Lang>) -> Inventory {
        Inventory::take_with(root, langs, Rules::default())
    }

    /// Reads every test file the verify command's runners would run (their conventions and the project's
    /// configuration, see [`rules`]) of the languages of `closure`, and the test helpers those tests import
    /// from outside the test directories (see `helpers`).
    pub(crate) fn take_for(root: &Path, closure: &Closure) -> Inventory {
        Inventory::take_with(root, langs_of(&closure.ecosystems), Rules::of(root, &closure.runners))
    }

    fn take_with(root: &Path, langs: Vec<Lang>, rules: Rules) -> Inventory {
        let mut files = BTreeMap::new();
        for candidate in listing::candidates(root, &langs, &rules, true)
            .into_iter()
            .take(MAX_FILES)
        {
            if let Some(entry) = read_entry(root, &candidate.path, candidate.lang, candidate.inline) {
                files.insert(candidate.path, entry);
            }
        }
        let tests = files
            .iter()
            .filter(|(_, e)| e.sig.scope != Scope::Inline)
            .map(|(path, e)| (path, &e.sig));
        let helpers = helpers::imported_helpers(root, tests);
        for (path, lang) in helpers {
            if langs.contains(&lang)
                && !files.contains_key(&path)
                && let Some(entry) = read_entry(root, &path, lang, false)
            {
                files.insert(path, entry);
            }
        }
        Inventory { langs, files, rules }
    }

    /// The test files (by convention, not Rust sources with inline tests) that did not exist at setup and sit out
    /// the oracle's run ([`Lang::new_tests_sit_out`]).
    pub fn new_test_files(&self, root: &Path) -> Vec<String> {
        listing::candidates(root, &self.langs, &self.rules, false)
            .into_iter()
            .filter(|c| !self.files.contains_key(&c.path) && c.lang.new_tests_sit_out())
            .map(|c| c.path)
            .collect()
    }

    /// Whether a project-relative path names a test file of a sealed language that is not sealed: a new test
    /// file, as [`Inventory::new_test_files`] finds them, one path at a time.
    pub(crate) fn new_test_namer(&self) -> impl Fn(&str) -> bool + '_ {
        let names = listing::test_namer(&self.langs, &self.rules);
        move |relative| !self.files.contains_key(relative) && names(relative)
    }

    /// The new test files that take part in the oracle's run (a language whose build names every test source,
    /// [`Lang::new_tests_sit_out`]) and define a test that a sealed test file of their language defines too, each
    /// with its content for the run: those definitions blanked, line breaks kept.
    ///
    /// Why: tests are judged by name, not by file, so a developer who splits a test file moves some of its tests
    /// into a new one; but in the run the sealed file stands as it was, holding them still, and a build that
    /// links both defines each moved test twice. The sealed definition is the one that counts, so the new
    /// file's copy sits out — whatever its body, which makes a weakened copy as harmless as an identical one —
    /// and the rest of the new file (its new tests, its helpers) runs as written.
    pub fn new_test_files_cut(&self, root: &Path) -> Vec<(String, String)> {
        // No second walk of the tree at every promise where no language's new tests take part.
        if self.langs.iter().all(|lang| lang.new_tests_sit_out()) {
            return Vec::new();
        }
        listing::candidates(root, &self.langs, &self.rules, false)
            .into_iter()
            .filter(|c| !self.files.contains_key(&c.path) && !c.lang.new_tests_sit_out())
            .filter_map(|c| {
                let sealed = self.test_names(c.lang);
                let text = String::from_utf8(std::fs::read(root.join(&c.path)).ok()?).ok()?;
                let cut = cut::defined_elsewhere(c.lang, &text, &sealed)?;
                Some((c.path, cut))
            })
            .collect()
    }

    /// The names of every test the sealed test files of `lang` define.
    fn test_names(&self, lang: Lang) -> BTreeSet<&str> {
        fn walk<'u>(units: &'u [crate::testsig::Unit], out: &mut BTreeSet<&'u str>) {
            for unit in units {
                if unit.kind == UnitKind::Test {
                    out.insert(&unit.name);
                }
                walk(&unit.children, out);
            }
        }
        let mut names = BTreeSet::new();
        for entry in self
            .files
            .values()
            .filter(|e| e.sig.lang == lang && e.sig.scope != Scope::Inline)
        {
            walk(&entry.sig.units, &mut names);
        }
        names
    }

    /// The sealed test files that are test files of their own (not Rust sources with inline tests).
    pub fn own_test_files(&self) -> impl Iterator<Item = &String> {
        self.files
            .iter()
            .filter(|(_, entry)| entry.sig.scope != Scope::Inline)
            .map(|(path, _)| path)
    }

    /// The sealed source files that hold tests without being test files (Rust's inline `mod tests`).
    pub fn inline_sources(&self) -> impl Iterator<Item = &String> {
        self.files
            .iter()
            .filter(|(_, entry)| entry.sig.scope == Scope::Inline)
            .map(|(path, _)| path)
    }

    /// How many tests the inventory seals.
    pub(crate) fn test_count(&self) -> usize {
        self.files.values().map(|e| sigs::count_tests(&e.sig.units)).sum()
    }

    /// What changed in the tests since setup, for the checks that are on; in path order.
    pub fn check(&self, root: &Path, checks: impl Fn(Check) -> bool) -> Vec<TestMove> {
        let mut moves = Vec::new();
        for (path, entry) in &self.files {
            let full = root.join(path);
            if StatKey::of(&full) == Some(entry.stat) {
                continue;
            }
            let findings = match std::fs::read(&full) {
                Ok(bytes) => compare_at(root, path, entry, &String::from_utf8_lossy(&bytes)),
                Err(_) => testsig::deleted_file(&entry.sig),
            };
            moves.extend(findings.into_iter().map(|finding| TestMove {
                path: path.clone(),
                finding,
                new_file: false,
            }));
        }
        // New test files are read for code that would run around the existing tests — unless they sit out the
        // oracle's run (`testswap`), where nothing in them can reach those tests.
        let new_files = if checks(Check::NewTestsAside) {
            Vec::new()
        } else {
            listing::candidates(root, &self.langs, &self.rules, false)
        };
        for candidate in new_files {
            if self.files.contains_key(&candidate.path) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(root.join(&candidate.path)) else {
                continue;
            };
            let empty = sigs::empty(candidate.lang);
            moves.extend(
                testsig::compare(&empty, &text, candidate.lang)
                    .into_iter()
                    .map(|finding| TestMove {
                        path: candidate.path.clone(),
                        finding,
                        new_file: true,
                    }),
            );
        }
        self.moved_by_name(root, &mut moves);
        moves.retain(|m| checks(check_of(&m.finding)));
        moves.sort_by(|a, b| (&a.path, a.finding.line()).cmp(&(&b.path, b.finding.line())));
        moves
    }

    /// Drops the deletions of tests that sit, unchanged and under the same name, in another file now: tests are
    /// judged by name, not by the file they sit in (`testsig::by_name`). A test counts as moved only while
    /// every test of its name and hash at setup has one now (a multiset), so one copy cannot stand for two, and
    /// a test weakened on the way is no match and stays deleted. Every file that may hold tests is read, once,
    /// and only when a deletion was found.
    fn moved_by_name(&self, root: &Path, moves: &mut Vec<TestMove>) {
        if !moves
            .iter()
            .any(|m| !m.new_file && matches!(m.finding, Finding::TestDeleted { .. }))
        {
            return;
        }
        let mut then: BTreeMap<testsig::by_name::Named, usize> = BTreeMap::new();
        for (path, entry) in &self.files {
            for named in testsig::by_name::tests(&entry.sig, path) {
                *then.entry(named).or_default() += 1;
            }
        }
        let mut now: BTreeMap<testsig::by_name::Named, usize> = BTreeMap::new();
        for candidate in listing::candidates(root, &self.langs, &self.rules, true) {
            let inline = self
                .files
                .get(&candidate.path)
                .map_or(candidate.inline, |e| e.sig.scope == Scope::Inline);
            if let Some(entry) = read_entry(root, &candidate.path, candidate.lang, inline) {
                for named in testsig::by_name::tests(&entry.sig, &candidate.path) {
                    *now.entry(named).or_default() += 1;
                }
            }
        }
        moves.retain(|m| {
            let Finding::TestDeleted { name } = &m.finding else {
                return true;
            };
            let Some(entry) = self.files.get(&m.path).filter(|_| !m.new_file) else {
                return true;
            };
            let Some(hash) = testsig::by_name::hash_of(&entry.sig, name) else {
                return true;
            };
            let key = (testsig::by_name::qualified(entry.sig.lang, &m.path, name), hash);
            now.get(&key).copied().unwrap_or(0) < then.get(&key).copied().unwrap_or(0)
        });
    }

    /// Accepts the test files `accept` selects as they are now (new ones included, deleted ones dropped);
    /// returns the paths whose baseline changed.
    pub(crate) fn accept(&mut self, root: &Path, accept: impl Fn(&str) -> bool) -> Vec<String> {
        let mut accepted = Vec::new();
        let known: Vec<String> = self.files.keys().cloned().collect();
        for path in known.into_iter().filter(|p| accept(p)) {
            let inline = self.files.get(&path).is_some_and(|e| e.sig.scope == Scope::Inline);
            let lang = Lang::of(Path::new(&path));
            match lang.and_then(|lang| read_entry(root, &path, lang, inline)) {
                Some(entry) if self.files.get(&path) != Some(&entry) => {
                    self.files.insert(path.clone(), entry);
                    accepted.push(path);
                }
                Some(_) => {}
                None => {
                    self.files.remove(&path);
                    accepted.push(path);
                }
            }
        }
        for candidate in listing::candidates(root, &self.langs, &self.rules, true) {
            if !self.files.contains_key(&candidate.path)
                && accept(&candidate.path)
                && let Some(entry) = read_entry(root, &candidate.path, candidate.lang, candidate.inline)
            {
                accepted.push(candidate.path.clone());
                self.files.insert(candidate.path, entry);
            }
        }
        accepted
    }

    /// The sealed text `sealed` of the test file `path` with its imports respelled where the agent's version
    /// only follows a rename of the code they import (`renamed`); `None` where it does not.
    pub(crate) fn respelled(&self, root: &Path, path: &str, sealed: &str) -> Option<String> {
        let entry = self.files.get(path)?;
        let text = std::fs::read_to_string(root.join(path)).ok()?;
        let renames = renamed::reading(root, path, &entry.sig, &text)?;
        renamed::respell_sealed(path, &entry.sig, sealed, &renames)
    }

    /// The signature of a test file, if it is one of the inventory's.
    pub(crate) fn entry(&self, path: &str) -> Option<&Entry> {
        self.files.get(path)
    }

    /// Whether the sealed file at `path` holds a test (not only helpers a test imports).
    pub(crate) fn holds_tests(&self, path: &str) -> bool {
        fn any_test(units: &[crate::testsig::Unit]) -> bool {
            units
                .iter()
                .any(|unit| unit.kind == UnitKind::Test || any_test(&unit.children))
        }
        self.files.get(path).is_some_and(|entry| any_test(&entry.sig.units))
    }
}

/// The findings on `text` against the entry's signature (an inline file's signature covers only its tests).
pub(crate) fn compare(entry: &Entry, text: &str) -> Vec<Finding> {
    testsig::compare(&entry.sig, text, entry.sig.lang)
}

/// The findings on `text`, the test file `path` under `root`, against the entry's signature; none when the file
/// only moved loads into a helper it loads (`follow`).
pub(crate) fn compare_at(root: &Path, path: &str, entry: &Entry, text: &str) -> Vec<Finding> {
    let findings = compare(entry, text);
    if findings.is_empty() || entry.sig.scope == Scope::Inline {
        return findings;
    }
    // Loads alone first; then test-side helpers of free functions too (`follow`'s second reading).
    let readings = [follow::expanded, follow::expanded_with_functions];
    if readings
        .iter()
        .any(|read| read(root, path, entry.sig.lang, text).is_some_and(|loaded| compare(entry, &loaded).is_empty()))
    {
        return Vec::new();
    }
    // Imports respelled after the code they import was renamed: the run stands the sealed file so respelled.
    if renamed::reading(root, path, &entry.sig, text).is_some() {
        return Vec::new();
    }
    findings
}

fn read_entry(root: &Path, path: &str, lang: Lang, inline: bool) -> Option<Entry> {
    let full = root.join(path);
    let stat = StatKey::of(&full)?;
    let text = String::from_utf8_lossy(&std::fs::read(&full).ok()?).into_owned();
    let mut sig = if inline {
        FileSig::inline(lang, &text)
    } else {
        FileSig::of(lang, &text)
    };
    renamed::record_files(root, path, &mut sig);
    Some(Entry { stat, sig })
}

#[cfg(test)]
mod tests;
