//! The oracle's closure: the files that decide what the sealed verify command actually runs, sealed at setup
//! and checked before every verify.
//!
//! `derive` reads the command and names the files (with why, and which part of each matters); this module
//! takes their digests at setup ([`Closure::take`]) and compares them at a promise ([`Closure::check`]). Files
//! that did not exist are sealed as absent, so creating `pytest.ini` or a new `conftest.py` counts — but for a new
//! `conftest.py` with no sealed file in its directory or below, which sits out the oracle's run with the agent's
//! new tests instead (`runner::sits_out_with_new_tests`, applied by `inputs::Inputs::check` and the run's plan,
//! as this module knows nothing of the tests). Outside the closure the agent may change anything — a new
//! dependency in `package.json`, the code under test.
//!
//! Nothing is ever reverted: a change is reported with what moved and how to undo it, and the user may accept
//! it from a terminal (`loopgate allow`), which re-takes the digests ([`Closure::accept`]).

include!(concat!(env!("OUT_DIR"), "/ecosystem/closure.rs"));
pub mod derive;
pub mod observed;
mod options;
pub mod parts;
pub(crate) mod recipe_line;
pub mod resolved;
pub(crate) mod selection;
pub mod steps;
mod units;
mod xml_root;
pub(crate) mod xml_tree;

use std::io;
use std::path::{Path, PathBuf};

/// The ecosystems' readers of a kind of file that cut it into parts (`parts::Scope::Read`), one line each; a
/// reader's kind is its persisted name.
pub(crate) const READERS: &[&parts::Reading] = &[
    &makefile::READING,
    &cmake::READING,
    &rakefile::READING,
    &cargo_manifest::READING,
    &rootdir::READING,
    &phpunit_config::READING,
    &dotenv::READING,
];

use serde::{Deserialize, Serialize};

pub use derive::{Runner, Watch, Why};
pub use parts::{PartChange, Parts, Scope};

/// A file of the closure and the digests of its sealed parts at setup (none: it did not exist).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedFile {
    /// Relative to the project root, or absolute outside it.
    pub path: String,
    pub scope: Scope,
    pub why: Why,
    pub parts: Parts,
}

impl SealedFile {
    /// The path a change to `part` is named by: for a resolved configuration (`Scope::FirstOf`), the file that
    /// part's search order reads now, where there is one; else the sealed path.
    fn shown(&self, root: &Path, part: &str) -> String {
        if let Some(search) = self.scope.resolved() {
            let Scope::Read(read) = &self.scope else {
                return self.path.clone();
            };
            return (search.file)(root, &read.parts).unwrap_or_else(|| self.path.clone());
        }
        let Scope::FirstOf { orders, .. } = &self.scope else {
            return self.path.clone();
        };
        let dir = Path::new(&self.path).parent().unwrap_or(Path::new(""));
        let order_label = parts::first_of_split(part).0;
        orders
            .iter()
            .find(|order| parts::first_of_label(order) == order_label)
            .and_then(|order| parts::first_of_now(&root.join(dir), order))
            .map_or_else(
                || self.path.clone(),
                |name| dir.join(name).to_string_lossy().into_owned(),
            )
    }
}

/// The sealed closure of a loop's verify command; lives in the seal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Closure {
    pub files: Vec<SealedFile>,
    pub watches: Vec<Watch>,
    /// The ecosystems (languages) whose tests the command runs; empty when none was recognized.
    pub ecosystems: Vec<crate::schema::Lang>,
    /// The test runners the command runs, whose rules decide which files are tests (seals taken before these
    /// were recorded have none: the naming conventions alone apply).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runners: Vec<Runner>,
    /// The environment variables the baseline's test code reads (`testseal::env_reads`): for this project they
    /// steer the run wherever the tree sets them (`runner::steers_in`). Empty in a seal taken before they were
    /// recorded, which judges by the classifier alone.
    #[serde(default, skip_serializing_if = "crate::schema::EnvReads::is_empty")]
    pub reads: crate::schema::EnvReads,
}

/// One sealed part that moved since setup (or since the user last accepted it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovedPart {
    pub path: String,
    /// The part's label: [`parts::WHOLE`] for the whole file, `scripts.test`, `[tool:pytest]`, …
    pub part: String,
    pub change: PartChange,
    pub why: Why,
}

/// Label of a file that exists but cannot be read (e.g. `chmod 000 pytest.ini`): it counts as a change.
const UNREADABLE: &str = "(the file cannot be read)";

impl Closure {
    /// Derives the closure of `command` in `root` and takes the digests of every file in it.
    pub fn take(command: &str, root: &Path) -> Closure {
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
        let plan = derive::derive(command, root, home.as_deref(), &|name| std::env::var_os(name));
        let mut files: Vec<SealedFile> = plan
            .targets
            .into_iter()
            .map(|t| SealedFile {
                parts: read_parts(root, &t.path, &t.scope),
                path: t.path,
                scope: t.scope,
                why: t.why,
            })
            .collect();
        for (path, watch) in watched(root, &plan.watches) {
            if !files.iter().any(|f| f.path == path) {
                files.push(SealedFile {
                    parts: read_parts(root, &path, &watch.scope),
                    path,
                    scope: watch.scope.clone(),
                    why: watch.why.clone(),
                });
            }
        }
        Closure {
            files,
            watches: plan.watches,
            ecosystems: plan.ecosystems.into_iter().collect(),
            runners: plan.runners.into_iter().collect(),
            reads: crate::schema::EnvReads::default(),
        }
    }

    /// Records what the tests read of the environment (`reads`, from `testseal::env_reads`) and seals, in every
    /// file that frees the variables no runner reads (cargo's `[env]`, `parts::DATA_VARIABLES`), those the tests
    /// read too; every variable there when a test reads the environment whole. The files so scoped are read again.
    pub fn steer_by(&mut self, root: &Path, reads: crate::schema::EnvReads) {
        for file in &mut self.files {
            if file.scope.seal_read_variables(&reads) {
                file.parts = read_parts(root, &file.path, &file.scope);
            }
        }
        for watch in &mut self.watches {
            watch.scope.seal_read_variables(&reads);
        }
        self.reads = reads;
    }

    /// Every sealed part that differs from its digest, and every new file a watch counts; sorted by path.
    pub fn check(&self, root: &Path) -> Vec<MovedPart> {
        let mut moved: Vec<MovedPart> = Vec::new();
        // A resolved configuration is one search, whichever of its files holds it: read and named once.
        let mut searched: Vec<&Scope> = Vec::new();
        for file in &self.files {
            if file.scope.resolved().is_some() {
                if searched.contains(&&file.scope) {
                    continue;
                }
                searched.push(&file.scope);
            }
            let now = read_parts(root, &file.path, &file.scope);
            let mut named: Vec<(String, String, PartChange)> = Vec::new();
            // A second resolution's part (another version's search) is named where the first's did not move alike.
            let also = file.scope.resolved().map_or("", |search| search.also);
            let changes = parts::compare_also(&file.parts, &now, also);
            // A resolution read now from a file that did not exist at setup: the file was created, too.
            if let (Some(search), Scope::Read(read)) = (file.scope.resolved(), &file.scope)
                && !changes.is_empty()
                && let Some(now_read) = (search.file)(root, &read.parts)
                && !(search.existed)(&read.parts, &now_read)
            {
                moved.push(MovedPart {
                    path: now_read,
                    part: parts::WHOLE.to_string(),
                    change: PartChange::Added,
                    why: file.why.clone(),
                });
            }
            moved.extend(
                changes
                    .into_iter()
                    .filter(|(part, change)| {
                        // Search orders that read the same file now name it once; another scope's parts are
                        // each their own (a resolved search's parts are each a key of it).
                        if !matches!(file.scope, Scope::FirstOf { .. }) {
                            return true;
                        }
                        let key = (
                            file.shown(root, part),
                            parts::first_of_split(part).1.to_string(),
                            change.clone(),
                        );
                        let again = named.contains(&key);
                        named.push(key);
                        !again
                    })
                    .map(|(part, change)| MovedPart {
                        path: file.shown(root, &part),
                        part,
                        change,
                        why: file.why.clone(),
                    }),
            );
        }
        // A new file is judged in its watch's scope, as if it had been sealed absent (a new `conftest.py` of
        // fixtures a test asks for by name moves nothing, `Scope::Units`); one that moves anything was created.
        for (path, watch) in self.new_files(root) {
            if parts::compare(&Parts::new(), &read_parts(root, &path, &watch.scope)).is_empty() {
                continue;
            }
            moved.push(MovedPart {
                path,
                part: parts::WHOLE.to_string(),
                change: PartChange::Added,
                why: watch.why.clone(),
            });
        }
        moved.sort_by(|a, b| (&a.path, &a.part).cmp(&(&b.path, &b.part)));
        moved
    }

    /// The parts of [`Closure::check`]'s moves (path as shown, label) that only move a test selection by files
    /// `may_join` accepts joining it (new test files that sit out the oracle's run, sealed test files) and
    /// `may_leave` accepts leaving it (new test files): inert in the run, so free (see `selection`). A file whose
    /// selection moved otherwise keeps all its moves.
    pub fn widened_selections(
        &self,
        root: &Path,
        may_join: &dyn Fn(&str) -> bool,
        may_leave: &dyn Fn(&str) -> bool,
    ) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for file in &self.files {
            let path = Path::new(&file.path);
            if path.is_absolute() {
                continue;
            }
            let now = read_parts(root, &file.path, &file.scope);
            if now == file.parts {
                continue;
            }
            // A resolution's entries are relative to the project's root, whichever file of its search holds them.
            let dir = if file.scope.resolved().is_some() {
                Path::new("")
            } else {
                path.parent().unwrap_or(Path::new(""))
            };
            if let Some(added) = selection::inert(root, dir, &file.parts, &now, may_join, may_leave) {
                out.extend(added.into_iter().map(|label| (file.shown(root, &label), label)));
            }
        }
        out
    }

    /// The files a watch counts that were not there at setup (a new `conftest.py`), with the watch.
    pub fn new_files(&self, root: &Path) -> Vec<(String, &Watch)> {
        watched(root, &self.watches)
            .into_iter()
            .filter(|(path, watch)| watch.new_file_counts && !self.files.iter().any(|f| &f.path == path))
            .collect()
    }

    /// Accepts the current content of the closure files `accept` selects (new watched files included) as
    /// the new baseline; returns the paths whose digests changed.
    pub fn accept(&mut self, root: &Path, accept: impl Fn(&str) -> bool) -> Vec<String> {
        let mut accepted = Vec::new();
        for (path, watch) in watched(root, &self.watches) {
            if accept(&path) && !self.files.iter().any(|f| f.path == path) {
                self.files.push(SealedFile {
                    parts: Parts::new(),
                    path,
                    scope: watch.scope.clone(),
                    why: watch.why.clone(),
                });
            }
        }
        // Accepting one file of a resolved search accepts the resolution, which every file of it reads.
        let searches: Vec<Scope> = self
            .files
            .iter()
            .filter(|f| accept(&f.path) && f.scope.resolved().is_some())
            .map(|f| f.scope.clone())
            .collect();
        for file in self
            .files
            .iter_mut()
            .filter(|f| accept(&f.path) || searches.contains(&f.scope))
        {
            let now = read_parts(root, &file.path, &file.scope);
            if now != file.parts {
                file.parts = now;
                if accept(&file.path) {
                    accepted.push(file.path.clone());
                }
            }
        }
        accepted
    }

    /// How many files of the closure exist (the rest are sealed as absent).
    pub fn existing_files(&self) -> usize {
        self.files.iter().filter(|f| !f.parts.is_empty()).count()
    }

    /// The closure file at `path` (relative to the root, or absolute), if it is one.
    pub fn file(&self, path: &str) -> Option<&SealedFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Whether a new file at `relative` would be a change to the oracle (a watched name such as `conftest.py`).
    pub fn watches_name_of(&self, relative: &Path) -> bool {
        self.watch_of(relative).is_some()
    }

    /// The watch a new file at `relative` falls under, if one counts it.
    fn watch_of(&self, relative: &Path) -> Option<&Watch> {
        let name = relative.file_name().map(|n| n.to_string_lossy());
        let dir = relative.parent().map(|d| d.to_string_lossy().replace('\\', "/"));
        self.watches.iter().find(|w| {
            w.new_file_counts
                && match &w.dir {
                    None => name.as_deref() == Some(w.name.as_str()),
                    Some(watched) => {
                        dir.as_deref() == Some(watched) && name.as_deref().is_some_and(|n| name_matches(&w.name, n))
                    }
                }
        })
    }

    /// How the sealed parts of the file at `path` (relative to the root) would move if it held `bytes` (a file
    /// tool's edit, before it runs): a closure file against its seal, a new file of a watched name against its
    /// absence, each read in its place as a promise reads it; `None` for a file the closure does not judge.
    pub fn moved_if(&self, root: &Path, path: &str, bytes: &[u8]) -> Option<(Vec<(String, PartChange)>, &Why)> {
        let (sealed, scope, why) = match self.file(path) {
            Some(file) => (file.parts.clone(), &file.scope, &file.why),
            None => {
                let watch = self.watch_of(Path::new(path))?;
                (Parts::new(), &watch.scope, &watch.why)
            }
        };
        let now = match scope {
            Scope::Read(read) if let Some(search) = read.kind.resolves() => {
                parts::marked((search.parts)(root, &read.parts, Some((path, bytes))))
            }
            _ => parts::file_digests(path, &in_place(root, path, scope), Some(bytes)),
        };
        Some((parts::compare(&sealed, &now), why))
    }
}

/// `scope` as the file at `path` is read in its place: code judged by what it defines (`Scope::Units`) also
/// counts a definition of a name the same-named files above it define, which it would replace.
fn in_place<'s>(root: &Path, path: &str, scope: &'s Scope) -> std::borrow::Cow<'s, Scope> {
    match scope {
        Scope::Units { lang, reserved } => {
            let mut reserved = reserved.clone();
            reserved.extend(units::defined_above(root, path, *lang));
            std::borrow::Cow::Owned(Scope::Units { lang: *lang, reserved })
        }
        _ => std::borrow::Cow::Borrowed(scope),
    }
}

/// The digests of a file's sealed parts now.
pub fn read_parts(root: &Path, path: &str, scope: &Scope) -> Parts {
    if let Scope::Toolchain { of } = scope {
        let file = root.join(path);
        let identity = match of.as_str() {
            "rustup" => rust_toolchain::identity(&file),
            "pyenv" => python_toolchain::identity(&file),
            _ => return parts::digests(&Scope::Whole, std::fs::read(&file).ok().as_deref()),
        };
        use sha2::Digest;
        return identity
            .map(|id| {
                (
                    parts::WHOLE.to_string(),
                    crate::fsutil::hex(&sha2::Sha256::digest(id.as_bytes())),
                )
            })
            .into_iter()
            .collect();
    }
    if let Scope::FirstOf { orders, each } = scope {
        let file = root.join(path);
        return parts::first_of(file.parent().unwrap_or(root), orders, each);
    }
    if let Scope::Read(read) = scope
        && let Some(search) = read.kind.resolves()
    {
        return parts::marked((search.parts)(root, &read.parts, None));
    }
    let scope = &*in_place(root, path, scope);
    if *scope == Scope::Stat {
        return match std::fs::metadata(root.join(path)) {
            Ok(meta) => Parts::from([(parts::WHOLE.to_string(), observed::size_and_time(&meta))]),
            Err(_) => Parts::new(),
        };
    }
    match std::fs::read(root.join(path)) {
        Ok(bytes) => parts::file_digests(path, scope, Some(&bytes)),
        Err(err) if err.kind() == io::ErrorKind::NotFound || err.kind() == io::ErrorKind::NotADirectory => Parts::new(),
        Err(_) => Parts::from([(UNREADABLE.to_string(), String::new())]),
    }
}

/// Files the watches match now, with the watch that matched.
fn watched<'w>(root: &Path, watches: &'w [Watch]) -> Vec<(String, &'w Watch)> {
    let names: Vec<&str> = watches
        .iter()
        .filter(|w| w.dir.is_none())
        .map(|w| w.name.as_str())
        .collect();
    let mut out: Vec<(String, &Watch)> = crate::walk::find_named(root, &names)
        .into_iter()
        .filter_map(|path| {
            let name = path.rsplit('/').next().unwrap_or(&path).to_string();
            watches
                .iter()
                .find(|w| w.dir.is_none() && w.name == name)
                .map(|w| (path, w))
        })
        .collect();
    for watch in watches {
        let Some(dir) = &watch.dir else { continue };
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut found: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name_matches(&watch.name, name))
            .map(|name| if dir.is_empty() { name } else { format!("{dir}/{name}") })
            .collect();
        found.sort();
        out.extend(found.into_iter().map(|path| (path, watch)));
    }
    out
}

/// Whether a file name matches a watch's name pattern (`*.mk`; a plain name matches itself).
fn name_matches(pattern: &str, name: &str) -> bool {
    globset::Glob::new(pattern).map_or(pattern == name, |g| g.compile_matcher().is_match(name))
}

/// Whether a project-relative path is a test file by the usual conventions (tests are sealed test by test,
/// not as whole files, so new tests can be added).
pub fn is_test_path(relative: &Path) -> bool {
    let text = relative.to_string_lossy().replace('\\', "/");
    let name = text.rsplit('/').next().unwrap_or(&text);
    let in_test_dir = text
        .split('/')
        .rev()
        .skip(1)
        .any(|d| matches!(d, "tests" | "test" | "__tests__" | "spec"));
    in_test_dir
        || (name.starts_with("test_") && name.ends_with(".py"))
        || name.ends_with("_test.py")
        || name.ends_with("_test.go")
        || [".test.", ".spec."].iter().any(|m| name.contains(m))
}

#[cfg(test)]
mod tests;
