//! The oracle's sealed inputs, behind one interface (ARCHITECTURE.md, "The sealed-input interface").
//!
//! Six kinds of input decide what a pass means: the files the user's `--seal` globs match ([`UserGlobs`]), the
//! verify command's derived closure (`closure::Closure::take`, from the command), what the traced baseline run
//! used (the observed closure, `closure::observed::Observed::take`, from the trace), the existing tests, one
//! signature per test (`testseal::Inventory::take_for`), the test data that stands as sealed in the oracle's run
//! (`testswap::Copies::take`), and the traces of the test run the code under test already held
//! (`aware::Known::take`: it seals no file, so new code that knows it is tested is what it checks). They are
//! listed once, in `kinds!` below, and every kind is handled the same way, through [`SealedInput`]:
//!
//! - **take** and **store**: setup takes every kind in the list's order ([`Inputs::take`]; a kind that needs
//!   another's result, as the tests need the closure, gets it through [`Handed`]) and stores each where it is
//!   kept ([`Inputs::store`]). The observed closure alone is taken by the baseline run, which setup makes between
//!   the two;
//! - **check**: what moved since it was taken or last accepted ([`Move`]s); before the verify runs, once more
//!   as the run starts, and again after a pass;
//! - **accept**: take again what the user names (`loopgate allow`), never on the agent's word;
//! - **protect**: the paths watched while the verify runs ([`SealedInput::watched`]) and what the PreToolUse
//!   guard keeps the agent's tools off ([`SealedInput::guard`]);
//! - **describe**: each sealed file, where it comes from ([`Source`]) and why (`loopgate status`).
//!
//! [`Inputs`] holds all six and is loaded once per promise. The seal itself holds the globs' digests, the
//! derived closure and the names of the test files; the observed closure, the test inventory and the test data
//! are companion files beside it, read only here, so the Stop hook's no-promise path and the guard never parse
//! them ([`Inputs::in_seal`] is what the guard sees).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::closure::observed::Shadow;
use crate::closure::{self, Closure, PartChange, Why};
use crate::error::Error;
use crate::lifecycle::ActiveLoop;
use crate::schema::{Check, Source};
use crate::seal::{FileChange, Seal};
use crate::testseal::TestMove;
use crate::testswap::Copies;

mod kinds;
#[cfg(test)]
mod tests;

pub(crate) use kinds::{TestData, Tests, UserGlobs};

/// Which of the loop's opt-out checks are on (`StateFields::checks`).
pub(crate) type Checks<'a> = &'a dyn Fn(Check) -> bool;

/// One thing that moved in a sealed input.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Move {
    /// A file a `--seal` glob matches was added, changed or deleted.
    File(FileChange),
    /// A sealed part of a closure file moved: one the derivation names, or one the traced baseline used.
    Part(Source, closure::MovedPart),
    /// A new file would be found instead of something the baseline run used.
    Shadow(Shadow),
    /// An existing test was changed, skipped or deleted, or setup code was added around the tests.
    Test(TestMove),
    /// New code under test knows it is being tested, or reads the tests (see `aware`).
    Aware(crate::aware::Flagged),
}

impl Move {
    /// The file that moved: relative to the project root, or absolute outside it.
    pub(crate) fn path(&self) -> &str {
        match self {
            Move::File(change) => change.path(),
            Move::Part(_, moved) => &moved.path,
            Move::Shadow(shadow) => &shadow.path,
            Move::Test(test) => &test.path,
            Move::Aware(flagged) => &flagged.path,
        }
    }

    /// The input it moved in.
    #[cfg(test)]
    pub fn source(&self) -> Source {
        match self {
            Move::File(_) => Source::UserGlob,
            Move::Part(source, _) => *source,
            Move::Shadow(_) => Source::Observed,
            Move::Test(_) => Source::Test,
            Move::Aware(_) => Source::Code,
        }
    }
}

/// One sealed file, as `loopgate status` lists it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Described {
    /// Relative to the project root, or absolute outside it.
    pub path: String,
    pub source: Source,
    /// Why a closure file is sealed (derived or observed); `None` for globs, tests and test data, whose
    /// source says it.
    pub why: Option<Why>,
    /// The labels of the sealed parts (`scripts.test`); empty when the whole file is sealed.
    pub parts: Vec<String>,
    /// Whether the file existed when it was sealed (one that did not must stay absent).
    pub exists: bool,
}

/// What the PreToolUse guard keeps the agent's tools off.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Protection {
    /// The `--seal` globs (a new file matching one is sealed too).
    pub patterns: Vec<String>,
    /// Project-relative files no tool may write.
    pub files: Vec<PathBuf>,
    /// Absolute files outside the project.
    pub outside: Vec<PathBuf>,
    /// File names whose creation counts wherever the derivation watches them (`conftest.py`).
    pub names: Vec<String>,
    /// Files only partly sealed: a file tool's edit is judged on the content it would leave.
    pub inspect: Vec<PathBuf>,
    /// Files sealed as absent: deleting one that an agent created puts it back as sealed.
    pub removable: Vec<PathBuf>,
    /// Whether a new file of `names` sits out the oracle's run with the new tests where no file of `files` lies
    /// in its directory or below ([`Inputs::sits_out`]), so the guard lets the agent write it there.
    pub names_sit_out: bool,
}

impl Protection {
    /// Hands what the oracle's sealed inputs protect to the guard's `Protected` (the code the promise's check
    /// shares), so the guard refuses what the promise would reject and no more. Here, not in `guard`: the guard
    /// is a leaf and knows nothing of the sealed inputs or the seal.
    pub(crate) fn seal_into(self, guard: &mut crate::guard::Protected) -> Result<(), String> {
        guard.sealed = if self.patterns.is_empty() {
            None
        } else {
            Some(crate::seal::SealedFiles::new(&self.patterns)?.glob_set().clone())
        };
        guard.sealed_files = self.files;
        guard.sealed_outside = self
            .outside
            .iter()
            .map(|path| path.canonicalize().unwrap_or_else(|_| path.clone()))
            .collect();
        guard.sealed_names = self.names;
        guard.inspect = self.inspect;
        guard.removable = self.removable;
        guard.names_sit_out = self.names_sit_out;
        Ok(())
    }
}

/// What every kind of sealed input does, from setup on (see the module doc). `checks` are the loop's opt-outs:
/// `--no-closure-seal` turns the closure's checks, watch and guard off, `--no-test-seal` the tests'.
pub(crate) trait SealedInput {
    /// Takes the input as the project is at setup; returns whether there was anything of it to seal (an input
    /// that may be missing is absent otherwise). What a later kind needs of it goes into `taking.handed`.
    fn take(&mut self, taking: &mut Taking) -> Result<bool, Error>;
    /// Writes the input where it is kept: into `active.seal` (saved with the loop) or a companion file at once.
    fn store(&self, active: &mut ActiveLoop) -> Result<(), Error>;
    /// What moved since the input was taken or last accepted.
    fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error>;
    /// Takes again the paths `select` picks, as they are now; returns the paths whose seal changed. Like `take`,
    /// it hands later kinds what they need of it.
    fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool, handed: &mut Handed)
    -> Result<Vec<String>, Error>;
    /// Whether `key` names something this input seals, or would flag (so `loopgate allow KEY` is no error).
    fn seals(&self, root: &Path, key: &str) -> bool;
    /// The files to watch while the verify runs (relative to the root, or absolute).
    fn watched(&self, checks: Checks) -> Vec<&str>;
    /// Adds what the PreToolUse guard protects of this input.
    fn guard(&self, checks: Checks, out: &mut Protection);
    /// Every file sealed.
    fn describe(&self, checks: Checks) -> Vec<Described>;
}

/// What setup seals, as the kinds are taken in the list's order.
pub(crate) struct Taking<'a> {
    pub root: &'a Path,
    /// The verify command; without one nothing runs the tests, so nothing of theirs is sealed.
    pub command: Option<&'a str>,
    /// The `--seal` globs.
    pub patterns: &'a [String],
    pub checks: Checks<'a>,
    pub handed: Handed,
}

/// What a kind leaves for the kinds after it in the list, while they are taken or accepted in order: the derived
/// closure says which tests there are, the tests say which files the test data and the traces leave out.
#[derive(Debug, Default)]
pub(crate) struct Handed {
    pub closure: Option<Closure>,
    /// The sealed test files that are test files of their own ([`Tests::own_files`]).
    pub own_tests: Vec<String>,
}

/// The kinds of sealed input, in the order they are taken, checked and described: each line names a field of
/// [`Inputs`] and its type, which implements [`SealedInput`]. A kind is taken after the kinds it needs
/// ([`Handed`]).
macro_rules! kinds {
    ($($(#[$doc:meta])* $name:ident: $kind:ty,)*) => {
        /// Every sealed input of a loop, one field per kind.
        #[derive(Clone, Debug, Default)]
        pub(crate) struct Inputs {
            $($(#[$doc])* pub $name: $kind,)*
            /// The kinds `accept` changed, so `save` writes only those.
            accepted: std::collections::BTreeSet<&'static str>,
        }

        /// The kinds' names (their fields), in the list's order.
        const KIND_NAMES: &[&str] = &[$(stringify!($name)),*];
        const KINDS: usize = KIND_NAMES.len();

        impl Inputs {
            /// Every kind, in the list's order.
            fn kinds(&self) -> [&dyn SealedInput; KINDS] {
                [$(&self.$name),*]
            }

            /// Every kind, to change.
            fn kinds_mut(&mut self) -> [&mut dyn SealedInput; KINDS] {
                [$(&mut self.$name),*]
            }
        }
    };
}

kinds! {
    globs: UserGlobs,
    derived: Option<Closure>,
    observed: Option<closure::observed::Observed>,
    tests: Tests,
    data: TestData,
    /// The traces of the test run the code under test held at setup (see `aware`).
    aware: Option<crate::aware::Known>,
}

impl Inputs {
    /// Everything sealed for `active`'s loop: the seal's own inputs and its companion files.
    pub(crate) fn load(active: &ActiveLoop) -> Result<Inputs, Error> {
        let mut inputs = Inputs::in_seal(&active.seal);
        inputs.tests.inventory = active.store.load_inventory(&active.project)?;
        let own = inputs.tests.own_files();
        inputs.load_companions(active, own)?;
        inputs.aware = active.store.load_companion(&active.project, crate::seal::AWARE)?;
        Ok(inputs)
    }

    /// What [`Inputs::describe`] needs: everything but the test inventory, whose signatures (a megabyte for a
    /// thousand test files) say nothing the test files' names in the seal do not. `loopgate status` reads this.
    pub(crate) fn load_to_describe(active: &ActiveLoop) -> Result<Inputs, Error> {
        let mut inputs = Inputs::in_seal(&active.seal);
        let names = inputs.tests.names.clone();
        inputs.load_companions(active, names)?;
        Ok(inputs)
    }

    /// The observed closure and the test data, whose own test files are `own_tests`.
    fn load_companions(&mut self, active: &ActiveLoop, own_tests: Vec<String>) -> Result<(), Error> {
        let (store, project) = (&active.store, &active.project);
        self.observed = store.load_companion(project, crate::seal::OBSERVED)?;
        let copies: Option<Copies> = store.load_companion(project, crate::seal::TEST_COPIES)?;
        self.data = TestData::new(copies.unwrap_or_default(), own_tests);
        Ok(())
    }

    /// The inputs the seal itself holds (the globs' digests, the derived closure, the test files' names),
    /// without the companion files: what the PreToolUse guard reads at every tool call. The observed closure,
    /// which can name thousands of files, is protected by the promise's check and the run's watch instead.
    pub(crate) fn in_seal(seal: &Seal) -> Inputs {
        Inputs {
            globs: UserGlobs {
                patterns: seal.fields.config.sealed.clone(),
                files: seal.files.clone(),
            },
            derived: seal.closure.clone(),
            tests: Tests {
                names: seal.test_files.clone(),
                inventory: None,
            },
            ..Inputs::default()
        }
    }

    /// Everything that moved, in the kinds' order (globs, derived, observed, tests). A closure file is reported
    /// once, as the first kind that names it: what the derivation names is reported as it names it.
    pub(crate) fn check(&self, root: &Path, checks: Checks) -> Result<Vec<Move>, Error> {
        let mut moves = Vec::new();
        for kind in self.kinds() {
            moves.extend(kind.check(root, checks)?);
        }
        // A changed test is quoted by the line that changed: the test data kind keeps the sealed text.
        for m in &mut moves {
            if let Move::Test(test) = m
                && let Some(old) = self.data.copies.files.get(&test.path)
                && let Ok(new) = std::fs::read_to_string(root.join(&test.path))
            {
                test.finding.point_at_change(old, &new);
            }
        }
        if let Some(sits_out) = self.sits_out(checks) {
            moves.retain(
                |m| !matches!(m, Move::Part(_, moved) if moved.change == PartChange::Added && sits_out(&moved.path)),
            );
        }
        self.retain_inert_widenings(root, checks, &mut moves);
        // A shadow where the derivation names a file is the derivation's to judge, by that file's scope (one left to
        // what its runner resolves from it, `closure::js_config`, has no part of its own); so is a new file of a
        // name the derivation watches (`conftest.py`), judged there by what it holds, not as a new entry of a
        // directory the baseline searched.
        if let Some(closure) = &self.derived {
            let judged_there = |path: &str| {
                closure.file(path).is_some() || (checks(Check::Closure) && closure.watches_name_of(Path::new(path)))
            };
            moves.retain(|m| !matches!(m, Move::Shadow(shadow) if judged_there(&shadow.path)));
        }
        let mut named: HashMap<String, (Source, bool)> = HashMap::new();
        moves.retain(|m| {
            let claim = match m {
                Move::Part(source, _) => (*source, false),
                Move::Shadow(_) => (Source::Observed, true),
                Move::File(_) | Move::Test(_) | Move::Aware(_) => return true,
            };
            *named.entry(m.path().to_string()).or_insert(claim) == claim
        });
        Ok(moves)
    }

    /// Drops the derived closure's moves that only widen a test selection (a new `<testsuite>`, a `spec` entry, a
    /// `testpaths` directory, a `python_files` pattern) by the agent's new test files, which sit out the oracle's
    /// run, or by sealed test files that hold tests, which run as sealed — never by a sealed helper that holds no
    /// test, whose code the baseline may never have run on its own (a shim that patches the code when imported);
    /// or that narrow it by new test files only: the run selects nothing the baseline's did not, and drops nothing
    /// it ran (`closure::selection`). Off where new tests do not sit out, or the closure is not sealed.
    fn retain_inert_widenings(&self, root: &Path, checks: Checks, moves: &mut Vec<Move>) {
        let Some(closure) = &self.derived else {
            return;
        };
        let widened = |m: &Move| matches!(m, Move::Part(Source::Derived, moved) if matches!(moved.change, PartChange::Added | PartChange::Removed) && closure::selection::is_entry(&moved.part));
        if !moves.iter().any(widened) {
            return;
        }
        let Some(inert) = self.with_members(root, checks, |members| {
            members.map(|members| closure.widened_selections(root, members.may_join, members.may_leave))
        }) else {
            return;
        };
        moves.retain(|m| {
            !(widened(m)
                && matches!(m, Move::Part(_, moved) if inert.iter().any(|(path, part)| *path == moved.path && *part == moved.part)))
        });
    }

    /// Calls `f` with the files that may join or leave a test selection without changing the oracle's run
    /// (`closure::selection::Members`): the agent's new test files, which sit out the run, and — joining — the
    /// sealed files that hold tests, where they run as sealed. `None` where new tests do not sit out, the closure
    /// is not sealed, or no test inventory was taken: every moved selection counts then.
    pub(crate) fn with_members<R>(
        &self,
        root: &Path,
        checks: Checks,
        f: impl FnOnce(Option<&closure::selection::Members<'_>>) -> R,
    ) -> R {
        let Some(inventory) = self
            .tests
            .inventory
            .as_ref()
            .filter(|_| checks(Check::NewTestsAside) && checks(Check::Closure))
        else {
            return f(None);
        };
        let new_tests: std::collections::BTreeSet<String> = inventory.new_test_files(root).into_iter().collect();
        let sealed_tests_run_as_sealed = checks(Check::Tests);
        let may_join =
            |path: &str| new_tests.contains(path) || (sealed_tests_run_as_sealed && inventory.holds_tests(path));
        let may_leave = |path: &str| new_tests.contains(path);
        f(Some(&closure::selection::Members {
            may_join: &may_join,
            may_leave: &may_leave,
        }))
    }

    /// Which new files a runner loads from every directory (`conftest.py`, beside the agent's new tests) sit out
    /// the oracle's run with the new tests instead of counting as a change to the oracle: those with no file the
    /// guard protects in their directory or below (`runner::sits_out_with_new_tests`, which the guard asks of the
    /// same files). `None` where new tests do not sit out, or the closure is not sealed: every one counts then.
    fn sits_out(&self, checks: Checks) -> Option<impl Fn(&str) -> bool> {
        if !checks(Check::NewTestsAside) || !checks(Check::Closure) {
            return None;
        }
        let sealed = self.guard(checks).files;
        Some(move |path: &str| crate::runner::sits_out_with_new_tests(Path::new(path), &sealed))
    }

    /// The new files a runner loads from every directory that sit out the oracle's run with the new tests
    /// ([`Inputs::sits_out`]): the run's plan sets them aside, as the check lets them through.
    pub(crate) fn new_files_aside(&self, root: &Path, checks: Checks) -> Vec<String> {
        let (Some(closure), Some(sits_out)) = (&self.derived, self.sits_out(checks)) else {
            return Vec::new();
        };
        closure
            .new_files(root)
            .into_iter()
            .map(|(path, _)| path)
            .filter(|path| sits_out(path))
            .collect()
    }

    /// Every kind taken as setup finds the project, in the list's order.
    pub(crate) fn take(taking: &mut Taking) -> Result<Inputs, Error> {
        let mut inputs = Inputs::default();
        for kind in inputs.kinds_mut() {
            kind.take(taking)?;
        }
        Ok(inputs)
    }

    /// Takes again what `select` picks, in every kind; returns the paths accepted, sorted. Each kind hands the
    /// next what it needs: a test file accepted here has its content kept for the oracle's runs from now on.
    pub(crate) fn accept(&mut self, root: &Path, select: &dyn Fn(&str) -> bool) -> Result<Vec<String>, Error> {
        let mut accepted = Vec::new();
        let mut handed = Handed::default();
        let mut changed = Vec::new();
        for (name, kind) in KIND_NAMES.iter().zip(self.kinds_mut()) {
            let paths = kind.accept(root, select, &mut handed)?;
            if !paths.is_empty() {
                changed.push(*name);
            }
            accepted.extend(paths);
        }
        self.accepted.extend(changed);
        accepted.sort();
        accepted.dedup();
        Ok(accepted)
    }

    /// Whether any kind seals (or would flag) `key`.
    pub(crate) fn seals(&self, root: &Path, key: &str) -> bool {
        self.kinds().iter().any(|kind| kind.seals(root, key))
    }

    /// Every file to watch while the verify runs, as an absolute path.
    pub(crate) fn watched(&self, root: &Path, checks: Checks) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self
            .kinds()
            .iter()
            .flat_map(|kind| kind.watched(checks))
            .map(|path| root.join(path))
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// What the PreToolUse guard protects. A file the user's `--seal` globs match is sealed whole, whatever
    /// else seals a part of it (a test file under `tests/**`): the promise rejects any byte of change to it
    /// ([`UserGlobs`]' check), so the guard refuses every edit of it instead of judging the parts.
    pub(crate) fn guard(&self, checks: Checks) -> Protection {
        let mut out = Protection::default();
        for kind in self.kinds() {
            kind.guard(checks, &mut out);
        }
        let whole = self.globs.matcher();
        out.inspect.retain(|path| !whole(&path.to_string_lossy()));
        out
    }

    /// Every sealed file of every kind, in the kinds' order.
    pub(crate) fn describe(&self, checks: Checks) -> Vec<Described> {
        self.kinds().iter().flat_map(|kind| kind.describe(checks)).collect()
    }

    /// Writes back what `accept` changed: the seal's own inputs into `active.seal` (saved with the loop), the
    /// companion files at once.
    pub(crate) fn save(mut self, active: &mut ActiveLoop) -> Result<(), Error> {
        let accepted = std::mem::take(&mut self.accepted);
        self.store_where(active, |name| accepted.contains(name))
    }

    /// Writes every kind where it is kept (setup, after the baseline run).
    pub(crate) fn store(&self, active: &mut ActiveLoop) -> Result<(), Error> {
        self.store_where(active, |_| true)
    }

    fn store_where(&self, active: &mut ActiveLoop, which: impl Fn(&'static str) -> bool) -> Result<(), Error> {
        for (name, kind) in KIND_NAMES.iter().zip(self.kinds()) {
            if which(name) {
                kind.store(active)?;
            }
        }
        Ok(())
    }
}
