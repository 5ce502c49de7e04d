//! The six kinds of sealed input, each behind [`SealedInput`]: the user's globs, the derived and the observed
//! closure, the existing tests and their data. Each delegates to the module that knows its kind (`seal::files`,
//! `closure`, `closure::observed`, `testseal`, `testswap`); what is here is only how each answers the
//! interface's questions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Checks, Described, Handed, Move, Protection, SealedInput, Taking};
use crate::aware::Known;
use crate::closure::observed::Observed;
use crate::closure::{Closure, Scope};
use crate::error::Error;
use crate::lifecycle::ActiveLoop;
use crate::schema::{Check, Source};
use crate::seal::SealedFiles;
use crate::testseal::Inventory;
use crate::testswap::Copies;

/// An input that may be missing (no verify command: no closure; no traced baseline: no observed closure)
/// seals nothing then.
impl<T: SealedInput + Default> SealedInput for Option<T> {
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error> {
        let mut input = T::default();
        let taken = input.take(taking)?;
        *self = taken.then_some(input);
        Ok(taken)
    }

    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        self.as_ref().map_or(Ok(()), |input| input.store(active))
    }

    fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error> {
        self.as_ref().map_or(Ok(Vec::new()), |input| input.check(root, checks))
    }

    fn accept(
        &mut self,
        root: &Path,
        select: &dyn Fn(&str) -> bool,
        handed: &mut Handed,
    ) -> Result<Vec<String>, Error> {
        self.as_mut()
            .map_or(Ok(Vec::new()), |input| input.accept(root, select, handed))
    }

    fn seals(&self, root: &Path, key: &str) -> bool {
        self.as_ref().is_some_and(|input| input.seals(root, key))
    }

    fn watched(&self, checks: Checks) -> Vec<&str> {
        self.as_ref().map(|input| input.watched(checks)).unwrap_or_default()
    }

    fn guard(&self, checks: Checks, out: &mut Protection) {
        if let Some(input) = self {
            input.guard(checks, out);
        }
    }

    fn describe(&self, checks: Checks) -> Vec<Described> {
        self.as_ref().map(|input| input.describe(checks)).unwrap_or_default()
    }
}

/// Takes from `now` into `held` the paths `select` picks (a path gone from `now` is dropped); returns those whose
/// value changed, sorted. Both the globs' digests and the test data's copies are kept this way.
fn accept_from(
    held: &mut BTreeMap<String, String>,
    now: &BTreeMap<String, String>,
    select: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let paths: std::collections::BTreeSet<String> = held.keys().chain(now.keys()).cloned().collect();
    let mut accepted = Vec::new();
    for path in paths.into_iter().filter(|p| select(p)) {
        let after = now.get(&path);
        if held.get(&path) == after {
            continue;
        }
        match after {
            Some(value) => held.insert(path.clone(), value.clone()),
            None => held.remove(&path),
        };
        accepted.push(path);
    }
    accepted
}

/// The files the user's `--seal GLOB`s match, by SHA-256; always checked (no opt-out: the user asked).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct UserGlobs {
    pub patterns: Vec<String>,
    /// Relative path → SHA-256 hex, as setup (or the last `allow`) took them.
    pub files: BTreeMap<String, String>,
}

impl UserGlobs {
    /// Hashes every file `patterns` match under `root` (setup; a pattern that does not parse is named).
    pub(crate) fn take(patterns: &[String], root: &Path) -> Result<UserGlobs, Error> {
        let mut globs = UserGlobs {
            patterns: patterns.to_vec(),
            files: BTreeMap::new(),
        };
        globs.files = globs.now(root)?;
        Ok(globs)
    }

    /// Whether the project-relative `key` is sealed whole: it was sealed at setup, or a glob matches it now
    /// (a new file there is a breach too).
    pub(crate) fn covers(&self, key: &str) -> bool {
        self.matcher()(key)
    }

    /// [`UserGlobs::covers`] with the globs compiled once, for many keys.
    pub(crate) fn matcher(&self) -> impl Fn(&str) -> bool + '_ {
        let set = (!self.patterns.is_empty())
            .then(|| SealedFiles::new(&self.patterns).ok())
            .flatten();
        move |key| self.files.contains_key(key) || set.as_ref().is_some_and(|s| s.matches(Path::new(key)))
    }

    /// The digests of every file the globs match now.
    fn now(&self, root: &Path) -> Result<BTreeMap<String, String>, Error> {
        SealedFiles::new(&self.patterns)
            .map_err(Error::Usage)?
            .hash_all(root)
            .map_err(|source| Error::Io {
                action: "hash sealed files under",
                path: root.to_path_buf(),
                source,
            })
    }
}

impl SealedInput for UserGlobs {
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error> {
        *self = UserGlobs::take(taking.patterns, taking.root)?;
        Ok(true)
    }

    /// The digests go into the seal; the globs themselves are the loop's configuration (`sealed`).
    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        active.seal.files = self.files.clone();
        Ok(())
    }

    fn check(&self, root: &Path, _: Checks) -> Result<Vec<Move>, Error> {
        if self.patterns.is_empty() {
            return Ok(Vec::new());
        }
        let now = self.now(root)?;
        Ok(crate::seal::files::changes(&self.files, &now)
            .into_iter()
            .map(Move::File)
            .collect())
    }

    fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool, _: &mut Handed) -> Result<Vec<String>, Error> {
        if self.patterns.is_empty() {
            return Ok(Vec::new());
        }
        let now = self.now(root)?;
        Ok(accept_from(&mut self.files, &now, select))
    }

    fn seals(&self, _: &Path, key: &str) -> bool {
        self.covers(key)
    }

    fn watched(&self, _: Checks) -> Vec<&str> {
        self.files.keys().map(String::as_str).collect()
    }

    fn guard(&self, _: Checks, out: &mut Protection) {
        out.patterns.extend(self.patterns.iter().cloned());
        out.files.extend(self.files.keys().map(PathBuf::from));
    }

    fn describe(&self, _: Checks) -> Vec<Described> {
        self.files
            .keys()
            .map(|path| Described {
                path: path.clone(),
                source: Source::UserGlob,
                why: None,
                parts: Vec::new(),
                exists: true,
            })
            .collect()
    }
}

/// A closure's files as `source` seals them: the derived closure, or the observed one's files.
fn closure_moves(closure: &Closure, root: &Path, source: Source) -> Vec<Move> {
    closure
        .check(root)
        .into_iter()
        .map(|moved| Move::Part(source, moved))
        .collect()
}

fn closure_files(closure: &Closure, source: Source) -> Vec<Described> {
    closure
        .files
        .iter()
        .map(|file| Described {
            path: file.path.clone(),
            source,
            why: Some(file.why.clone()),
            parts: file.scope.labels(),
            exists: !file.parts.is_empty(),
        })
        .collect()
}

/// The derived closure: the files the derivation names for the verify command (`--no-closure-seal` off).
impl SealedInput for Closure {
    /// From the verify command (none without one); the tests are found through it.
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error> {
        let Some(command) = taking.command else {
            return Ok(false);
        };
        *self = Closure::take(command, taking.root);
        // What the tests read of the environment steers the run wherever the tree sets it (`runner::steers_in`).
        let reads = crate::testseal::env_reads::read(taking.root, self);
        self.steer_by(taking.root, reads);
        taking.handed.closure = Some(self.clone());
        Ok(true)
    }

    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        active.seal.closure = Some(self.clone());
        Ok(())
    }

    fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error> {
        Ok(if checks(Check::Closure) {
            closure_moves(self, root, Source::Derived)
        } else {
            Vec::new()
        })
    }

    fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool, _: &mut Handed) -> Result<Vec<String>, Error> {
        Ok(Closure::accept(self, root, select))
    }

    fn seals(&self, _: &Path, key: &str) -> bool {
        self.file(key).is_some() || self.watches_name_of(Path::new(key))
    }

    fn watched(&self, checks: Checks) -> Vec<&str> {
        if !checks(Check::Closure) {
            return Vec::new();
        }
        self.files.iter().map(|f| f.path.as_str()).collect()
    }

    fn guard(&self, checks: Checks, out: &mut Protection) {
        if !checks(Check::Closure) {
            return;
        }
        for file in &self.files {
            let path = PathBuf::from(&file.path);
            if path.is_absolute() {
                out.outside.push(path);
                continue;
            }
            if file.scope != Scope::Whole {
                out.inspect.push(path.clone());
            }
            if file.parts.is_empty() {
                out.removable.push(path.clone());
            }
            out.files.push(path);
        }
        let names = self
            .watches
            .iter()
            .filter(|w| w.new_file_counts)
            .map(|w| w.name.clone());
        out.names.extend(names);
        out.names_sit_out = checks(Check::NewTestsAside);
    }

    fn describe(&self, checks: Checks) -> Vec<Described> {
        if !checks(Check::Closure) {
            return Vec::new();
        }
        closure_files(self, Source::Derived)
    }
}

/// The observed closure: what the traced baseline run read, ran and looked for, and the directories it
/// searched (a new entry there that would be found instead of what it used is a shadow). Off with the derived
/// closure (`--no-closure-seal`).
impl SealedInput for Observed {
    /// Nothing before the run: the traced baseline run takes it (`oracle::baseline`), and setup puts it in
    /// [`super::Inputs`] before storing them.
    fn take(&mut self, _: &mut Taking) -> Result<bool, Error> {
        Ok(false)
    }

    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        Ok(active
            .store
            .save_companion(&active.project, crate::seal::OBSERVED, self)?)
    }

    fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error> {
        if !checks(Check::Closure) {
            return Ok(Vec::new());
        }
        let mut moves = closure_moves(&self.closure, root, Source::Observed);
        moves.extend(self.shadows(root).into_iter().map(Move::Shadow));
        Ok(moves)
    }

    fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool, _: &mut Handed) -> Result<Vec<String>, Error> {
        let mut accepted = self.closure.accept(root, select);
        accepted.extend(self.accept_entries(root, select));
        Ok(accepted)
    }

    fn seals(&self, root: &Path, key: &str) -> bool {
        self.closure.file(key).is_some() || self.shadows(root).iter().any(|s| s.path == key)
    }

    fn watched(&self, checks: Checks) -> Vec<&str> {
        if !checks(Check::Closure) {
            return Vec::new();
        }
        self.watched_paths().collect()
    }

    /// Nothing: the guard reads the seal alone (see [`super::Inputs::in_seal`]).
    fn guard(&self, _: Checks, _: &mut Protection) {}

    fn describe(&self, checks: Checks) -> Vec<Described> {
        if !checks(Check::Closure) {
            return Vec::new();
        }
        closure_files(&self.closure, Source::Observed)
    }
}

/// The existing tests: their files' names (kept in the seal, for the guard) and, once loaded, the inventory
/// of one signature per test.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tests {
    pub names: Vec<String>,
    pub inventory: Option<Inventory>,
}

impl Tests {
    /// The sealed test files that are test files of their own (not sources with inline tests): the ones whose
    /// content the oracle's run restores.
    pub(crate) fn own_files(&self) -> Vec<String> {
        self.inventory
            .iter()
            .flat_map(Inventory::own_test_files)
            .cloned()
            .collect()
    }
}

impl SealedInput for Tests {
    /// The tests the verify command's runners would run, when the test checks are on (none without a command).
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error> {
        let on = taking.checks;
        let inventory = taking
            .handed
            .closure
            .as_ref()
            .filter(|_| on(Check::Tests) || on(Check::Skips))
            .map(|closure| Inventory::take_for(taking.root, closure))
            .filter(|inventory| !inventory.files.is_empty());
        *self = Tests {
            names: inventory.iter().flat_map(|i| i.files.keys().cloned()).collect(),
            inventory,
        };
        taking.handed.own_tests = self.own_files();
        Ok(true)
    }

    /// The inventory into its companion file, the test files' names into the seal.
    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        if let Some(inventory) = &self.inventory {
            active.store.save_inventory(&active.project, inventory)?;
            active.seal.test_files = inventory.files.keys().cloned().collect();
        }
        Ok(())
    }

    /// Edits to existing tests, for the checks that are on (`--no-test-seal` leaves the skip check).
    fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error> {
        let moves = match &self.inventory {
            Some(inventory) => inventory.check(root, checks),
            None => Vec::new(),
        };
        Ok(moves.into_iter().map(Move::Test).collect())
    }

    fn accept(
        &mut self,
        root: &Path,
        select: &dyn Fn(&str) -> bool,
        handed: &mut Handed,
    ) -> Result<Vec<String>, Error> {
        let accepted = match self.inventory.as_mut() {
            Some(inventory) => {
                let accepted = inventory.accept(root, select);
                self.names = inventory.files.keys().cloned().collect();
                accepted
            }
            None => Vec::new(),
        };
        handed.own_tests = self.own_files();
        Ok(accepted)
    }

    /// A sealed test file, or any file the conventions make a test (a new one can be accepted).
    fn seals(&self, _: &Path, key: &str) -> bool {
        self.names.iter().any(|t| t == key) || crate::testsig::is_test_file(Path::new(key))
    }

    fn watched(&self, checks: Checks) -> Vec<&str> {
        if !checks(Check::Tests) {
            return Vec::new();
        }
        self.names.iter().map(String::as_str).collect()
    }

    /// Bash may not write an existing test file; a file tool may, judged on what its edit would leave.
    fn guard(&self, checks: Checks, out: &mut Protection) {
        if checks(Check::Tests) || checks(Check::Skips) {
            out.inspect.extend(self.names.iter().map(PathBuf::from));
            out.files.extend(self.names.iter().map(PathBuf::from));
        }
    }

    fn describe(&self, checks: Checks) -> Vec<Described> {
        if !checks(Check::Tests) && !checks(Check::Skips) {
            return Vec::new();
        }
        self.names
            .iter()
            .map(|path| Described {
                path: path.clone(),
                source: Source::Test,
                why: None,
                parts: Vec::new(),
                exists: true,
            })
            .collect()
    }
}

/// The content of the existing test files and of the test data beside them, as sealed: it stands in the
/// oracle's run in place of the agent's version (see `testswap`), so a change to it cannot move the verdict
/// and is never a rejection; it is watched during the run and accepted like the rest.
#[derive(Clone, Debug, Default)]
pub(crate) struct TestData {
    pub copies: Copies,
    /// The test files whose content is kept (the inventory's own test files, after any `accept`).
    pub(super) own_tests: Vec<String>,
}

impl TestData {
    pub(crate) fn new(copies: Copies, own_tests: Vec<String>) -> TestData {
        TestData { copies, own_tests }
    }
}

impl SealedInput for TestData {
    /// The own test files the tests hand on, and the test data the walk finds (with or without a verify command).
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error> {
        let own_tests = taking.handed.own_tests.clone();
        *self = TestData::new(Copies::take(taking.root, &own_tests), own_tests);
        Ok(true)
    }

    /// A companion file, none when nothing is kept.
    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        let (store, project) = (&active.store, &active.project);
        if self.copies.files.is_empty() && self.copies.uncopied.is_empty() {
            store.remove_companion(project, crate::seal::TEST_COPIES);
        } else {
            store.save_companion(project, crate::seal::TEST_COPIES, &self.copies)?;
        }
        Ok(())
    }

    fn check(&self, _: &Path, _: Checks) -> Result<Vec<Move>, Error> {
        Ok(Vec::new())
    }

    /// The own test files are the ones the tests hand on after their own accept.
    fn accept(
        &mut self,
        root: &Path,
        select: &dyn Fn(&str) -> bool,
        handed: &mut Handed,
    ) -> Result<Vec<String>, Error> {
        self.own_tests = handed.own_tests.clone();
        let now = Copies::take(root, &self.own_tests);
        Ok(accept_from(&mut self.copies.files, &now.files, select))
    }

    fn seals(&self, _: &Path, key: &str) -> bool {
        self.copies.files.contains_key(key)
    }

    fn watched(&self, checks: Checks) -> Vec<&str> {
        if !checks(Check::Tests) {
            return Vec::new();
        }
        self.copies.files.keys().map(String::as_str).collect()
    }

    /// Nothing beyond the tests: the agent may change test data; the oracle's run uses the sealed copy.
    fn guard(&self, _: Checks, _: &mut Protection) {}

    fn describe(&self, checks: Checks) -> Vec<Described> {
        if !checks(Check::Tests) {
            return Vec::new();
        }
        let own: std::collections::BTreeSet<&String> = self.own_tests.iter().collect();
        self.copies
            .files
            .keys()
            .filter(|path| !own.contains(path))
            .map(|path| Described {
                path: path.clone(),
                source: Source::TestData,
                why: None,
                parts: Vec::new(),
                exists: true,
            })
            .collect()
    }
}

/// The traces known at setup, as one of the oracle's inputs: checked at a promise, accepted by the user. It
/// protects nothing (the code under test is the agent's to change) and lists no file in `status`.
impl SealedInput for Option<Known> {
    /// With a verify command and the check on, from the code outside the own test files.
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error> {
        *self = (taking.command.is_some() && (taking.checks)(Check::TestAwareness))
            .then(|| Known::take(taking.root, taking.handed.own_tests.iter().cloned()));
        Ok(self.is_some())
    }

    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        match self {
            Some(known) => Ok(active
                .store
                .save_companion(&active.project, crate::seal::AWARE, known)?),
            None => Ok(()),
        }
    }

    fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error> {
        Ok(match self {
            Some(known) if checks(Check::TestAwareness) => known.check(root).into_iter().map(Move::Aware).collect(),
            _ => Vec::new(),
        })
    }

    fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool, _: &mut Handed) -> Result<Vec<String>, Error> {
        Ok(self
            .as_mut()
            .map(|known| known.accept(root, select))
            .unwrap_or_default())
    }

    /// A file of code under test that holds a trace of the test run (new, or known at setup).
    fn seals(&self, root: &Path, key: &str) -> bool {
        self.as_ref().is_some_and(|known| known.holds(root, key))
    }

    fn watched(&self, _: Checks) -> Vec<&str> {
        Vec::new()
    }

    fn guard(&self, _: Checks, _: &mut Protection) {}

    fn describe(&self, _: Checks) -> Vec<Described> {
        Vec::new()
    }
}
