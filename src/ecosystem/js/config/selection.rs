//! Jest's and Vitest's test selections, read as the runners resolve them, fed to `closure::selection` (issue 39):
//! a widening that adds only the agent's new tests is free, as it is for pytest's `testpaths`, PHPUnit's
//! `<testsuite>` and mocha's `spec`.
//!
//! The keys that say which files are tests are cut into one part per entry, each labelled by
//! `selection::label` with its value (`testMatch selects **/?(*.)+(spec|test).[jt]s?(x)`), and one `(set)` entry
//! per key present (an empty `include` selects nothing, an absent one the default). When only such parts moved,
//! both selections are rebuilt from their labels and the project is walked: each file they disagree on must be
//! one the oracle's run cannot feel (`selection::inert_by`). The runners' own rules, as their code reads them:
//!
//! - **Jest** (`@jest/core`'s `SearchSource`, over the haste map's files, which never hold `node_modules` or a
//!   VCS directory): a file is a test where its absolute path holds one of `roots` followed by `/`, matches a
//!   `testMatch` glob (picomatch, `dot: true`) when there are any, matches no `testPathIgnorePatterns` regular
//!   expression, and matches a `testRegex` one when there are any. `<rootDir>` is the directory Jest runs in.
//! - **Vitest** (`globFiles`: tinyglobby with `dot: true`, `ignore: exclude`, from `dir`): a file below `dir`
//!   (`test.dir`, else `test.root` or Vite's `root`, else where it runs) whose path from there matches an
//!   `include` glob and no `exclude` glob. An unset key is Vitest's default: `include` is the same in Vitest 3 and
//!   4; `exclude` was wider in 3 (`**/dist/**`, `**/cypress/**`, …), so a file only that wider default would
//!   take makes the selection count where one side leaves `exclude` unset — which version ran is not asked.
//!
//! Anything the rebuilt selection cannot say exactly counts whole: a glob the matcher refuses (`glob.rs`), a
//! regular expression the `regex` crate cannot compile (a look-around), a path outside the runner's directory or
//! through `..`, a link in the walk, a value that is no string.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::closure::parts::Parts;
use crate::closure::selection::{self, Members, glob::Glob};
use crate::runner::Runner;

/// The keys of a resolved configuration read as the test selection, per runner.
const KEYS: &[(Runner, &[&str])] = &[
    (
        Runner::Jest,
        &["roots", "testMatch", "testRegex", "testPathIgnorePatterns"],
    ),
    (
        Runner::Vitest,
        &["test.include", "test.exclude", "test.dir", "test.root", "root"],
    ),
];

/// The selection keys of `runner`'s resolved configuration (none for a runner not read here).
pub(super) fn keys(runner: Runner) -> &'static [&'static str] {
    KEYS.iter().find(|(r, _)| *r == runner).map_or(&[], |(_, keys)| keys)
}

/// The entry of a key that is set, whatever it lists.
pub(super) const SET: &str = "(set)";
/// The digest every entry carries: the label is the entry.
const ENTRY: &str = "(entry)";

/// Vitest's default `include` (3 and 4).
const VITEST_INCLUDE: &[&str] = &["**/*.{test,spec}.?(c|m)[jt]s?(x)"];
/// Vitest 4's default `exclude`.
const VITEST_EXCLUDE: &[&str] = &["**/node_modules/**", "**/.git/**"];
/// What Vitest 3's default `exclude` adds to 4's.
const VITEST_3_EXCLUDE: &[&str] = &[
    "**/dist/**",
    "**/cypress/**",
    "**/.{idea,git,cache,output,temp}/**",
    "**/{karma,rollup,webpack,vite,vitest,jest,ava,babel,nyc,cypress,tsup,build,eslint,prettier}.config.*",
];
/// The directories Jest's haste map never lists.
const JEST_UNLISTED: &[&str] = &["node_modules", ".git", ".hg", ".sl"];

/// The parts of a selection key's value, one per entry and a [`SET`] one; `None` where `key` is no selection key
/// or its value is not a string or a list of strings (then it is an ordinary part, and counts whole).
pub(super) fn entries(key: &str, value: &Value) -> Option<Parts> {
    if !KEYS.iter().any(|(_, keys)| keys.contains(&key)) {
        return None;
    }
    let strings: Vec<&str> = match value {
        Value::String(one) => vec![one.as_str()],
        Value::Array(list) => list.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    let mut parts: Parts = strings
        .into_iter()
        .map(|entry| (selection::label(key, entry), ENTRY.to_string()))
        .collect();
    parts.insert(selection::label(key, SET), ENTRY.to_string());
    Some(parts)
}

/// Whether the selections `sealed` and `now` stand for (their entries' labels) take the same files in the
/// project under `root`, but for files `members` lets join or leave. `dir` is where the runner runs, relative to
/// `root`.
pub(super) fn inert(
    runner: Runner,
    root: &Path,
    dir: &str,
    sealed: &Parts,
    now: &Parts,
    members: &Members<'_>,
) -> bool {
    let (before, after) = (by_key(sealed), by_key(now));
    if runner == Runner::Jest {
        jest_inert(root, dir, &before, &after, members)
    } else if runner == Runner::Vitest {
        vitest_inert(root, dir, &before, &after, members)
    } else {
        false
    }
}

/// [`inert`] for Jest, whose selection is read over absolute paths.
fn jest_inert(root: &Path, dir: &str, before: &Keys<'_>, after: &Keys<'_>, members: &Members<'_>) -> bool {
    let base = root.join(dir);
    let Some(base) = base.to_str() else { return false };
    let (Some(was), Some(is)) = (Jest::new(before, base), Jest::new(after, base)) else {
        return false;
    };
    let at = |file: &str| format!("{base}/{file}");
    selection::inert_by(
        root,
        Path::new(dir),
        JEST_UNLISTED,
        &|file| was.selects(&at(file)),
        &|file| is.selects(&at(file)),
        members,
    )
}

/// [`inert`] for Vitest, whose selection is read over paths from its `dir`.
fn vitest_inert(root: &Path, dir: &str, before: &Keys<'_>, after: &Keys<'_>, members: &Members<'_>) -> bool {
    let (Some(was), Some(is)) = (Vitest::new(before), Vitest::new(after)) else {
        return false;
    };
    // `node_modules` is walked unless both exclude it, as Vitest's defaults do.
    let skip: &[&str] = if ["node_modules/a.js", "a/node_modules/b.js", ".git/a.js"]
        .iter()
        .all(|path| was.excludes(path) && is.excludes(path))
    {
        &["node_modules", ".git"]
    } else {
        &[]
    };
    let unsure = Cell::new(false);
    let free = selection::inert_by(
        root,
        Path::new(dir),
        skip,
        &|file| was.selects(file, &unsure),
        &|file| is.selects(file, &unsure),
        members,
    );
    free && !unsure.get()
}

/// One selection rebuilt from its entries' labels (a project's, or the top level's): whether the runner takes a
/// file, for `config::runs`, which asks it of every file of the walk.
pub(super) enum Selector {
    /// Jest's, over absolute paths from `base`, where the runner runs.
    Jest {
        selection: Jest,
        base: String,
    },
    Vitest(Vitest),
}

/// The selection `parts` stand for (their entries' labels), as `runner` reads it in `dir` (relative to `root`);
/// `None` where it cannot be rebuilt exactly (see the module doc).
pub(super) fn selector(runner: Runner, root: &Path, dir: &str, parts: &Parts) -> Option<Selector> {
    let keys = by_key(parts);
    if runner == Runner::Jest {
        let base = root.join(dir).to_str()?.to_string();
        Some(Selector::Jest {
            selection: Jest::new(&keys, &base)?,
            base,
        })
    } else if runner == Runner::Vitest {
        Vitest::new(&keys).map(Selector::Vitest)
    } else {
        None
    }
}

impl Selector {
    /// Whether the runner takes `file` (relative to where it runs); `unsure` is set where Vitest 3's default
    /// `exclude` would answer otherwise.
    pub(super) fn selects(&self, file: &str, unsure: &Cell<bool>) -> bool {
        match self {
            Selector::Jest { selection, base } => selection.selects(&format!("{base}/{file}")),
            Selector::Vitest(selection) => selection.selects(file, unsure),
        }
    }

    /// Whether the runner never takes a file below `node_modules` or `.git` with this selection.
    fn skips_unlisted(&self) -> bool {
        match self {
            Selector::Jest { .. } => true,
            Selector::Vitest(selection) => ["node_modules/a.js", "a/node_modules/b.js", ".git/a.js"]
                .iter()
                .all(|path| selection.excludes(path)),
        }
    }
}

/// The directories a walk for `selectors` may skip: those none of them takes a file from.
pub(super) fn unlisted<'a>(selectors: impl IntoIterator<Item = &'a Selector>) -> &'static [&'static str] {
    if selectors.into_iter().all(Selector::skips_unlisted) {
        JEST_UNLISTED
    } else {
        &[]
    }
}

/// A selection's entries by key.
type Keys<'a> = BTreeMap<&'a str, Vec<&'a str>>;

/// The entries of a selection's parts, by key (a key present holds [`SET`] among them).
fn by_key(parts: &Parts) -> Keys<'_> {
    let mut out: Keys<'_> = BTreeMap::new();
    for label in parts.keys() {
        if let Some((key, entry)) = selection::entry_of(label)
            && KEYS.iter().any(|(_, keys)| keys.contains(&key))
        {
            out.entry(key).or_default().push(entry);
        }
    }
    out
}

/// The entries of `key` but [`SET`]; `None` where the key is unset.
fn values<'a>(keys: &Keys<'a>, key: &str) -> Option<Vec<&'a str>> {
    keys.get(key)
        .map(|entries| entries.iter().copied().filter(|e| *e != SET).collect())
}

/// Jest's selection over absolute paths.
pub(super) struct Jest {
    roots: Vec<String>,
    test_match: Vec<Glob>,
    test_regex: Option<regex::Regex>,
    ignore: Option<regex::Regex>,
}

impl Jest {
    fn new(keys: &Keys<'_>, base: &str) -> Option<Jest> {
        let list = |key| values(keys, key).unwrap_or_default();
        // Jest lists files below its roots only: a root outside the directory it runs in (`<rootDir>/../shared`,
        // another absolute path) reaches files this walk does not see.
        let roots = list("roots")
            .into_iter()
            .map(|root| inside(root).filter(|_| root.starts_with("<rootDir>")))
            .map(|root| {
                root.map(|r| {
                    if r.is_empty() {
                        base.to_string()
                    } else {
                        format!("{base}/{r}")
                    }
                })
            })
            .collect::<Option<_>>()?;
        let glob_base: String = base
            .chars()
            .flat_map(|c| {
                (!c.is_ascii_alphanumeric() && c != '/')
                    .then_some('\\')
                    .into_iter()
                    .chain([c])
            })
            .collect();
        let test_match = list("testMatch")
            .into_iter()
            .map(|glob| Glob::new(&glob.replace("<rootDir>", &glob_base)))
            .collect::<Option<_>>()?;
        let regex = |key| -> Option<Option<regex::Regex>> {
            let patterns = list(key);
            if patterns.is_empty() {
                return Some(None);
            }
            let joined = patterns.join("|").replace("<rootDir>", &regex::escape(base));
            regex::Regex::new(&joined).ok().map(Some)
        };
        Some(Jest {
            roots,
            test_match,
            test_regex: regex("testRegex")?,
            ignore: regex("testPathIgnorePatterns")?,
        })
    }

    /// `SearchSource`'s test: every case it has must match.
    fn selects(&self, path: &str) -> bool {
        self.roots.iter().any(|root| path.contains(&format!("{root}/")))
            && (self.test_match.is_empty() || self.test_match.iter().any(|g| g.is_match(path)))
            && !self.ignore.as_ref().is_some_and(|re| re.is_match(path))
            && self.test_regex.as_ref().is_none_or(|re| re.is_match(path))
    }
}

/// Vitest's selection over paths relative to the directory it runs in.
pub(super) struct Vitest {
    /// Its `dir`, relative to where it runs (empty: there).
    dir: String,
    include: Vec<Glob>,
    exclude: Vec<Glob>,
    /// Vitest 3's wider default `exclude`, where `exclude` is unset.
    older_exclude: Vec<Glob>,
}

impl Vitest {
    fn new(keys: &Keys<'_>) -> Option<Vitest> {
        let one = |key| -> Option<Option<String>> {
            match values(keys, key).as_deref() {
                None => Some(None),
                Some([one]) => inside(one).map(Some),
                Some(_) => None,
            }
        };
        let root = match one("test.root")? {
            Some(root) => Some(root),
            None => one("root")?,
        }
        .unwrap_or_default();
        // `test.dir` is resolved from the root, unless it names its place itself.
        let dir = match values(keys, "test.dir").as_deref() {
            None => root,
            Some([dir]) if dir.starts_with("<rootDir>") || root.is_empty() => inside(dir)?,
            Some([dir]) => inside(&format!("{root}/{dir}"))?,
            Some(_) => return None,
        };
        // tinyglobby follows a pattern out of `dir` (`../shared/**`, an absolute one): files this walk does not see.
        let globs = |list: &[&str]| {
            list.iter()
                .map(|g| {
                    let outside = g.starts_with('/') || g.split('/').any(|part| part == "..");
                    if outside { None } else { Glob::new(g) }
                })
                .collect::<Option<Vec<_>>>()
        };
        let include = globs(&values(keys, "test.include").unwrap_or_else(|| VITEST_INCLUDE.to_vec()))?;
        let (exclude, older_exclude) = match values(keys, "test.exclude") {
            Some(set) => (globs(&set)?, Vec::new()),
            None => (globs(VITEST_EXCLUDE)?, globs(VITEST_3_EXCLUDE)?),
        };
        Some(Vitest {
            dir,
            include,
            exclude,
            older_exclude,
        })
    }

    fn excludes(&self, path: &str) -> bool {
        self.exclude.iter().any(|g| g.is_match(path))
    }

    /// Whether Vitest takes `file` (relative to where it runs); `unsure` is set where the answer would differ
    /// under Vitest 3's default `exclude`.
    fn selects(&self, file: &str, unsure: &Cell<bool>) -> bool {
        let relative = if self.dir.is_empty() {
            file
        } else {
            match file.strip_prefix(&self.dir).and_then(|rest| rest.strip_prefix('/')) {
                Some(rest) => rest,
                None => return false,
            }
        };
        let taken = self.include.iter().any(|g| g.is_match(relative)) && !self.excludes(relative);
        if taken && self.older_exclude.iter().any(|g| g.is_match(relative)) {
            unsure.set(true);
        }
        taken
    }
}

/// A directory option as a path relative to where the runner runs (`<rootDir>/test`, `./test`, `test` →
/// `test`); `None` outside it (absolute elsewhere, `..`).
fn inside(path: &str) -> Option<String> {
    let path = path
        .strip_prefix("<rootDir>")
        .map_or(path, |rest| rest.trim_start_matches('/'));
    if path.starts_with('/') || path.contains('\\') {
        return None;
    }
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            other => out.push(other),
        }
    }
    Some(out.join("/"))
}

#[cfg(test)]
#[path = "selection/tests.rs"]
mod tests;
