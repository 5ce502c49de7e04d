//! The configuration pytest *resolves*, key by key, whatever file holds it (issue 39: "which side a file is on is
//! decided by what it does to the test side, key by key").
//!
//! pytest reads one configuration file: from the directory its search starts in (the common ancestor of the paths
//! on its command line, else where it runs) upward, the first of `pytest.toml`, `.pytest.toml` (pytest 9),
//! `pytest.ini`, `.pytest.ini` (each its configuration as soon as it exists), a `pyproject.toml` with
//! `[tool.pytest]` (pytest 9) or `[tool.pytest.ini_options]`, a `tox.ini` with `[pytest]`, a `setup.cfg` with
//! `[tool:pytest]`; failing that, the first `pyproject.toml` met, or a `setup.py`'s directory, names the rootdir
//! (`_pytest/config/findpaths.py`, `locate_config` and `determine_setup`). Sealing each of those files by its own
//! section refused the same configuration moved to the file pytest prefers. So every file the search may read is
//! sealed with one scope, [`READING`], whose parts are the *resolution's*: the rootdir (which names every test) and
//! each key, its value read as pytest types it (`testpaths` as words whether written as a string or a TOML list,
//! `xfail_strict` as a boolean), so the configuration moved between files or formats moves nothing, while a key
//! that differs does, in whichever file pytest now reads.
//!
//! Keys that only make the run stricter are free **in that direction only** ([`STRICT`]): set, each is a part that
//! may appear (`closure::units::ADDABLE`), so adding `xfail_strict = true` or `--strict-markers` moves nothing,
//! while deleting one the baseline had is a part removed. `-W error` is not among them: a warning raised as an
//! exception satisfies `pytest.raises(Exception)`, so it can pass a test that failed. A key beside a strict one is
//! its own part, so a strict key cannot carry a weakening one.
//!
//! **What it collects** is a test selection (`closure::selection`), not a key: `testpaths` and `python_files` are
//! read together as one entry per directory pytest collects from and pattern it collects by (`testpaths: tests
//! selects {tests,tests/**/test_*.py}`; a file named in `testpaths` stands for itself, collected whatever its
//! name), with the doctest glob (`test*.txt`, or `--doctest-glob`'s) and, where doctests are collected from every
//! module, `*.py` among the patterns. So an entry or a pattern added is free where every file it newly collects is
//! a new test (which sits out the oracle's run) or a sealed file holding tests, and one removed where it drops only
//! new tests; a doctest text file, a plain module, a sealed helper holding no test, a link on the way all count.
//! The directories are `testpaths`'s where pytest collects them (its command names no path and it runs in the
//! rootdir: [`NAMED_PATHS`]); else the directory the search starts in, which holds whatever the command names. An
//! entry or pattern no walk can list exactly (a glob in `testpaths`, a path that leaves the project, a pattern with
//! a directory in it) leaves both keys parts as any other. `testpaths` set is a part of its own (adding it narrows
//! what runs from everything). A `conftest.py` in a new directory is the `conftest.py` watch's to judge, like any
//! new one. `python_classes` and `python_functions` stay parts as any other: they widen which names count in files
//! already collected, and the only such files that run are sealed test files, whose helpers (a function no test
//! calls, named like nothing pytest collected) would then run as tests — code the baseline never ran.
//!
//! pytest 8 and earlier search without `pytest.toml` and ignore a `pyproject.toml`'s native `[tool.pytest]`: their
//! resolution is a second set of parts (`… as pytest 8 resolves it`), compared with the baseline's the same way and
//! named only where pytest 9's did not move alike, so a configuration only one version reads cannot hide a weaker
//! one from the other, whichever version runs — unless setup recorded which pytest ran the baseline ([`VERSION`],
//! read by [`ran`] from the `_pytest` its trace imported): the snapshot holds that pytest, so the oracle's run is
//! pytest of that major version and only its resolution is compared. A configuration only pytest 9 reads
//! (`pytest.toml`, the native `[tool.pytest]`) then moves nothing under pytest 9, and still counts under pytest 8,
//! which would not read it. A seal without the name (older, or untraced) keeps both.
//!
//! `pythonpath` puts its entries first on `sys.path`, so an entry can hold a twin of what the tests import (a
//! correct copy of the module under test beside the buggy one, a weaker copy of a test helper). Its part is the
//! list of the entries that may ([`pythonpath_free`]); an entry is left out of it where every module it holds is
//! named like none the baseline imported ([`IMPORTED`], recorded at setup from its trace) from a place that still
//! holds it, so a `src` layout (the module moved there, the old file gone) moves nothing, while a copy beside the
//! original, or a module named like a library the tests imported, counts. Untraced, every entry counts.
//! [`FREE_KEYS`] change neither which tests run nor how they count, and are left out.

use std::path::{Component, Path, PathBuf};

use super::derive::python::options::ADDOPTS;
use super::parts::{Edited, Reading, Resolving, Texts, WHOLE};
use super::selection;
use super::units::ADDABLE;

/// The reading of pytest's resolved configuration (`parts::Scope::Read`): its names are the directory the search
/// starts in (relative to the project, or absolute), when the verify's command collects doctests from every
/// module [`DOCTEST_MODULES`], and the files of the search that existed at setup ([`EXISTED`]), so that a change
/// read from a file created since names its creation (undone by removing it).
pub(crate) const READING: Reading = Reading {
    kind: "pytest-resolved",
    parts: |text, _| vec![(WHOLE.to_string(), text.to_string())],
    labels: |_| vec![LABEL.to_string()],
    resolves: Some(Resolving {
        parts: |root, names, edited| parts(root, names, edited),
        file: |root, names| {
            let (starts, _) = searches_of(root, names);
            let version = pinned(names).unwrap_or(Version::Nine);
            let found = resolve(starts.first()?, None, version).file?;
            Some(shown(root, &found))
        },
        existed: |names, file| names.iter().any(|n| n.strip_prefix(EXISTED) == Some(file)),
        also: PYTEST_8,
    }),
};

/// The suffix of the labels of pytest 8's resolution, beside pytest 9's (named only where pytest 9's part did not
/// move the same way: `parts::Resolving::also`).
const PYTEST_8: &str = " as pytest 8 resolves it";

/// The prefix of a name recording the major version of the pytest that ran the baseline (see [`ran`]).
pub(crate) const VERSION: &str = "pytest major version: ";

/// The prefix of the name recording the top-level modules the traced baseline imported and where it found each (a
/// JSON object, name → path relative to the project or absolute; see [`pythonpath_free`]).
pub(crate) const IMPORTED: &str = "imported: ";

/// The prefix of a name recording a file of the search that existed when the scope was derived (at setup).
pub(crate) const EXISTED: &str = "existed: ";

/// The name that says the verify's command collects doctests from every module (`--doctest-modules`).
pub(crate) const DOCTEST_MODULES: &str = "--doctest-modules";

/// The name that says the verify's command names what pytest collects (a path, a module with `--pyargs`), so
/// `testpaths` is not what it collects.
pub(crate) const NAMED_PATHS: &str = "(paths named)";

/// The label of pytest 8's selection where it differs from pytest 9's.
const SELECTION: &str = "the test selection";

/// The patterns of `python_files` when the configuration sets none.
const PYTHON_FILES: &[&str] = &["test_*.py", "*_test.py"];

/// The pattern of `--doctest-glob` when the run sets none: text files collected as doctests.
const DOCTEST_GLOB: &str = "test*.txt";

/// How the resolution is named for people when it has no part of its own to name.
const LABEL: &str = "the configuration pytest resolves";

/// Every file pytest's search may read, in its order (pytest 9).
pub(crate) const SEARCHED: &[&str] = &[
    "pytest.toml",
    ".pytest.toml",
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
];

/// Keys of pytest's configuration that change neither which tests run nor how their outcomes count: the markers
/// it knows (registering one lets a new test use it under `--strict-markers`), the version it asks for, and how
/// it prints. Every other key, and a key this list does not know, is a part.
pub(crate) const FREE_KEYS: &[&str] = &[
    "markers",
    "minversion",
    "console_output_style",
    "log_cli",
    "log_cli_level",
    "log_cli_format",
    "log_cli_date_format",
];

/// Settings that only make the run stricter, by what they mean: (the part's label, its key in the configuration,
/// its option in `addopts`). Each makes a run fail that would have passed (an unexpected pass of an `xfail` test,
/// an unregistered marker, an unknown key), never the reverse. pytest 9's `strict` turns all of them on.
const STRICT: &[(&str, &str, &str)] = &[
    ("strict xfail", "xfail_strict", ""),
    ("strict xfail", "strict_xfail", ""),
    ("strict markers", "strict_markers", "--strict-markers"),
    ("strict config", "strict_config", "--strict-config"),
    ("strict parametrization ids", "strict_parametrization_ids", ""),
];

/// The option and key that turn every [`STRICT`] setting on.
const STRICT_ALL: (&str, &str) = ("strict", "--strict");

/// Keys pytest reads as a list of words (`type="args"` and `"paths"`): a string is split as a shell would.
const ARGS: &[&str] = &[
    "addopts",
    "testpaths",
    "python_files",
    "python_classes",
    "python_functions",
    "norecursedirs",
    "usefixtures",
    "doctest_optionflags",
    "required_plugins",
    "pythonpath",
];

/// Keys pytest reads as a list of lines (`type="linelist"`).
const LINES: &[&str] = &["filterwarnings", "markers"];

/// Keys pytest reads as booleans.
const BOOLS: &[&str] = &[
    "xfail_strict",
    "strict_xfail",
    "strict_markers",
    "strict_config",
    "strict_parametrization_ids",
    "strict",
    "log_cli",
    "consider_namespace_packages",
    "junit_log_passing_tests",
    "enable_assertion_pass_hook",
];

/// The versions whose searches differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    /// pytest 9: `pytest.toml`, and `[tool.pytest]` read natively.
    Nine,
    /// pytest 8 and earlier.
    Eight,
}

/// A value as the file wrote it.
#[derive(Clone, Debug, PartialEq)]
enum Raw {
    /// An INI value (its lines joined by `\n`), or a TOML scalar pytest reads as one.
    Text(String),
    /// A TOML list.
    List(Vec<String>),
    /// Another TOML value (a table, a number in a native table).
    Other(String),
}

/// What the search found.
struct Resolved {
    rootdir: PathBuf,
    file: Option<PathBuf>,
    keys: Vec<(String, Raw)>,
}

/// The starts of the searches (one per run of pytest whose search reads these files; the project's root where
/// none is named) and whether doctests are collected from every module, from the scope's names.
fn searches_of(root: &Path, names: &[String]) -> (Vec<PathBuf>, bool) {
    let mut starts: Vec<PathBuf> = names
        .iter()
        .filter(|n| {
            *n != DOCTEST_MODULES && *n != NAMED_PATHS && ![EXISTED, VERSION, IMPORTED].iter().any(|p| n.starts_with(p))
        })
        .map(|s| root.join(s))
        .collect();
    if starts.is_empty() {
        starts.push(root.to_path_buf());
    }
    (starts, names.iter().any(|n| n == DOCTEST_MODULES))
}

/// A path as the seal names it: relative to the root, or absolute outside it.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).map_or_else(
        |_| path.to_string_lossy().into_owned(),
        |p| {
            let text = p.to_string_lossy().into_owned();
            if text.is_empty() { ".".to_string() } else { text }
        },
    )
}

/// The resolution's parts (see the module docs), `edited` standing in for that file's content on disk; each
/// labelled by its search's start where these files are read by more than one.
fn parts(root: &Path, names: &[String], edited: Option<Edited>) -> Texts {
    let (starts, doctest_modules) = searches_of(root, names);
    let named_paths = names.iter().any(|n| n == NAMED_PATHS);
    let imported = imported_of(names);
    let edited = edited.map(|(path, bytes)| (root.join(path), bytes));
    let edited = edited.as_ref().map(|(path, bytes)| (path.as_path(), *bytes));
    let mut out = Texts::new();
    for start in &starts {
        let from = if starts.len() > 1 {
            format!("from {}: ", shown(root, start))
        } else {
            String::new()
        };
        let search = Search {
            start,
            doctest_modules,
            named_paths,
            imported: imported.as_ref(),
        };
        if let Some(version) = pinned(names) {
            let resolved = resolve(start, edited, version);
            out.extend(
                texts(root, &resolved, &search)
                    .into_iter()
                    .map(|(label, text)| (format!("{from}{label}"), text)),
            );
            continue;
        }
        let nine = texts(root, &resolve(start, edited, Version::Nine), &search);
        let eight = texts(root, &resolve(start, edited, Version::Eight), &search);
        // The test selection is judged by the files it adds (`closure::selection`), pytest 9's entries standing
        // for both versions where pytest 8 selects the same; where it does not, pytest 8's selection is one part
        // of its own, so a selection only one version reads counts as it appears.
        let selection = |texts: &Texts| -> Vec<String> {
            texts
                .iter()
                .filter(|(label, _)| selection::is_entry(label))
                .map(|(label, _)| label.clone())
                .collect()
        };
        let (nine_selects, eight_selects) = (selection(&nine), selection(&eight));
        out.extend(nine.into_iter().map(|(label, text)| (format!("{from}{label}"), text)));
        for (label, text) in eight {
            if !selection::is_entry(&label) {
                out.push((format!("{from}{label}{PYTEST_8}"), text));
            }
        }
        if nine_selects != eight_selects {
            out.push((
                format!("{from}{SELECTION}{PYTEST_8}"),
                serde_json::Value::from(eight_selects).to_string(),
            ));
        }
    }
    out
}

/// How one search's run of pytest was started: where, whether it collects doctests from every module, whether its
/// command names what it collects, and what the baseline imported.
struct Search<'a> {
    start: &'a Path,
    doctest_modules: bool,
    named_paths: bool,
    /// The top-level modules the traced baseline imported, where setup recorded them (what a `pythonpath`
    /// entry could twin).
    imported: Option<&'a Imported>,
}

/// The version whose resolution alone is compared: the recorded one ([`VERSION`], the pytest that ran the
/// baseline, which the snapshot holds); `None` where it is not known, and pytest 9's and pytest 8's resolutions
/// are then compared side by side.
fn pinned(names: &[String]) -> Option<Version> {
    let major = names
        .iter()
        .find_map(|n| n.strip_prefix(VERSION))
        .and_then(|n| n.parse::<u32>().ok())?;
    Some(if major >= 9 { Version::Nine } else { Version::Eight })
}

/// The major version of the pytest a traced run imported, from the `_pytest` package its trace read
/// (`paths`): its `_version.py` (`__version__ = version = '9.2.0'`) as it is on disk at setup, which the
/// snapshot holds. `None` where no `_pytest` was read, where two were (which ran is not known), or where the file
/// does not say.
pub(crate) fn ran<'a>(paths: impl Iterator<Item = &'a Path>) -> Option<u32> {
    let mut packages: Vec<PathBuf> = paths
        .filter_map(|path| {
            let at = path
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "_pytest"))?;
            Some(at.to_path_buf())
        })
        .collect();
    packages.sort();
    packages.dedup();
    let [package] = packages.as_slice() else { return None };
    let text = std::fs::read_to_string(package.join("_version.py")).ok()?;
    text.lines().find_map(|line| {
        let value = line.strip_prefix("__version__")?.rsplit('=').next()?.trim();
        let value = value.trim_matches(|c| c == '\'' || c == '"');
        value.split('.').next()?.parse().ok()
    })
}

impl super::Closure {
    /// Names what the traced baseline told of pytest in every file of its search, and reads their parts again:
    /// the major version of the pytest that ran (`major`: only its resolution is then compared) and the top-level
    /// modules it imported (`used`: what a `pythonpath` entry could twin). See the module docs.
    pub(crate) fn pin_resolution(&mut self, major: Option<u32>, used: &[super::observed::Used], root: &Path) {
        let imported: Imported = used.iter().map(|u| (u.name.clone(), u.path.clone())).collect();
        let imported = serde_json::to_string(&imported).unwrap_or_default();
        for file in &mut self.files {
            if let super::Scope::Read(read) = &mut file.scope
                && read.kind.is(&READING)
            {
                read.parts
                    .retain(|n| !n.starts_with(VERSION) && !n.starts_with(IMPORTED));
                read.parts.extend(major.map(|major| format!("{VERSION}{major}")));
                read.parts.push(format!("{IMPORTED}{imported}"));
                file.parts = super::read_parts(root, &file.path, &file.scope);
            }
        }
    }
}

/// The labelled texts of one resolution.
fn texts(root: &Path, resolved: &Resolved, search: &Search) -> Texts {
    let mut out: Texts = vec![("rootdir".into(), shown(root, &resolved.rootdir))];
    let addable = |text: &str| format!("{ADDABLE}{text}");
    let words_of = |key: &str| {
        resolved
            .keys
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, raw)| words(raw))
            .unwrap_or_default()
    };
    let addopts = words_of(ADDOPTS);
    let selects = selects(root, resolved, search, &addopts);
    if let Some(selects) = &selects {
        out.extend(selects.iter().cloned());
    }
    let mut strict: Vec<&str> = Vec::new();
    for (key, raw) in &resolved.keys {
        let key = key.as_str();
        if FREE_KEYS.contains(&key) || (selects.is_some() && SELECTED_BY.contains(&key)) {
            continue;
        }
        if key == STRICT_ALL.0 || STRICT.iter().any(|(_, k, _)| *k == key) {
            if boolean(raw) == Some(true) {
                let meaning = STRICT.iter().filter(|(_, k, _)| key == STRICT_ALL.0 || *k == key);
                strict.extend(meaning.map(|(label, _, _)| *label));
            } else if boolean(raw) != Some(false) {
                out.push((key.to_string(), json(raw)));
            }
            continue;
        }
        match key {
            ADDOPTS => {
                let free = super::derive::python::options::free();
                let mut sealed = Vec::new();
                for word in super::options::sealed(&addopts, &free, true) {
                    match STRICT
                        .iter()
                        .find(|(_, _, option)| !option.is_empty() && *option == word)
                    {
                        Some((label, _, _)) => strict.push(label),
                        None if word == STRICT_ALL.1 => strict.extend(STRICT.iter().map(|(label, _, _)| *label)),
                        None => sealed.push(word),
                    }
                }
                if !sealed.is_empty() {
                    out.push((ADDOPTS.into(), serde_json::Value::from(sealed).to_string()));
                }
            }
            "testpaths" => {
                out.push(("testpaths".into(), "(set)".into()));
                for entry in words(raw) {
                    out.push((format!("testpaths: {entry}"), "(an entry)".into()));
                }
            }
            "pythonpath" => {
                let counted: Vec<String> = words(raw)
                    .into_iter()
                    .filter(|entry| {
                        !search
                            .imported
                            .is_some_and(|i| pythonpath_free(&resolved.rootdir, root, entry, i))
                    })
                    .collect();
                if !counted.is_empty() {
                    out.push(("pythonpath".into(), serde_json::Value::from(counted).to_string()));
                }
            }
            _ => out.push((key.to_string(), normalized(key, raw))),
        }
    }
    strict.sort_unstable();
    strict.dedup();
    out.extend(strict.into_iter().map(|label| (label.to_string(), addable("on"))));
    out
}

/// The keys whose values [`selects`] spells as the test selection's entries, when it can.
const SELECTED_BY: &[&str] = &["testpaths", "python_files"];

/// What the run collects, as test selection entries (`closure::selection`, labels relative to the project's root):
/// one per directory the run collects from and pattern it collects by. The directories are `testpaths`'s entries
/// where pytest collects them (its command names no path and it runs in the rootdir), each labelled `testpaths:
/// ENTRY` and standing for itself too (a file named there is collected whatever its name); else the directory the
/// search starts in, which holds whatever the command names, labelled `python_files`. The patterns are
/// `python_files`'s, `*.py` where doctests are collected from every module, and the doctest glob (`test*.txt`
/// unless `--doctest-glob` names others). `None` where an entry or a pattern cannot be spelled as a glob that a
/// walk lists exactly (a glob in `testpaths`, a path leaving the project, a pattern with a directory in it): the
/// keys are then parts as any other, and every change to them counts.
fn selects(root: &Path, resolved: &Resolved, search: &Search, addopts: &[String]) -> Option<Texts> {
    let raw_of = |key: &str| resolved.keys.iter().find(|(k, _)| k == key).map(|(_, raw)| raw);
    let mut patterns: Vec<String> =
        raw_of("python_files").map_or_else(|| PYTHON_FILES.iter().map(ToString::to_string).collect(), words);
    if search.doctest_modules || addopts.iter().any(|w| w == DOCTEST_MODULES) {
        patterns.push("*.py".into());
    }
    let mut globs: Vec<String> = addopts
        .iter()
        .enumerate()
        .filter_map(|(i, w)| match w.strip_prefix("--doctest-glob") {
            Some("") => addopts.get(i + 1).cloned(),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => None,
        })
        .collect();
    if globs.is_empty() {
        globs.push(DOCTEST_GLOB.into());
    }
    patterns.extend(globs);
    let spelled = |p: &String| !p.is_empty() && !p.contains(['/', '\\', '{', '}', ',']);
    if !patterns.iter().all(spelled) {
        return None;
    }
    patterns.sort();
    patterns.dedup();
    // Inside the project, relative to its root, with no pattern character in it.
    let inside = |at: &Path| -> Option<String> {
        let relative = at.strip_prefix(root).ok()?;
        let text = relative.to_string_lossy().replace('\\', "/");
        let plain = !text.contains(['*', '?', '[', ']', '{', '}', ',', ':'])
            && relative.components().all(|c| matches!(c, Component::Normal(_)));
        plain.then_some(text)
    };
    let testpaths = raw_of("testpaths").map(words).filter(|entries| !entries.is_empty());
    // pytest collects `testpaths` only run bare from its rootdir, and an `addopts` word that is no option may
    // name a path: the start's directory is then what it collects from (a superset of what the command names).
    // A word after a long option written without `=` is taken for its value (`--cov calc`, `--junitxml out.xml`):
    // plugins' options are many, and a path in `addopts` is rare where `testpaths` says where the tests are.
    let names_a_path = {
        let mut words = addopts.iter().peekable();
        let mut named = false;
        while let Some(word) = words.next() {
            let long = word.starts_with("--") && !word.contains('=');
            if super::derive::python::VALUE_OPTIONS.contains(&word.as_str()) {
                words.next();
            } else if long {
                words.next_if(|next| !next.starts_with('-'));
            } else if !word.starts_with('-') {
                named = true;
            }
        }
        named
    };
    let bare = !search.named_paths && search.start == resolved.rootdir && !names_a_path;
    let mut out = Texts::new();
    match testpaths {
        Some(entries) if bare => {
            for entry in entries {
                let path = Path::new(&entry);
                if path.is_absolute() || path.components().any(|c| matches!(c, Component::ParentDir)) {
                    return None;
                }
                let at = inside(&normalize(&resolved.rootdir.join(path)))?;
                for pattern in &patterns {
                    let glob = if at.is_empty() {
                        format!("**/{pattern}")
                    } else {
                        format!("{{{at},{at}/**/{pattern}}}")
                    };
                    out.push((
                        selection::label(&format!("testpaths: {entry}"), &glob),
                        "(an entry)".into(),
                    ));
                }
            }
            out.push(("testpaths".into(), "(set)".into()));
        }
        Some(_) => return None,
        None => {
            let at = inside(search.start)?;
            for pattern in &patterns {
                let glob = if at.is_empty() {
                    format!("**/{pattern}")
                } else {
                    format!("{at}/**/{pattern}")
                };
                out.push((selection::label("python_files", &glob), "(a pattern)".into()));
            }
        }
    }
    Some(out)
}

/// The top-level modules the baseline imported, by name, and where it found each.
type Imported = std::collections::BTreeMap<String, String>;

/// The [`IMPORTED`] name's modules, `None` where setup recorded none (untraced, or an older seal).
fn imported_of(names: &[String]) -> Option<Imported> {
    let json = names.iter().find_map(|n| n.strip_prefix(IMPORTED))?;
    serde_json::from_str(json).ok()
}

/// Whether a `pythonpath` entry can only add modules, never a twin of one the tests import: a plain directory
/// inside the project each of whose modules is named like none the baseline imported from a place that still
/// holds it (outside the entry). A module moved into it (its old file gone) is the code under test moved; a copy
/// beside the original would be found first instead of it.
fn pythonpath_free(rootdir: &Path, root: &Path, entry: &str, imported: &Imported) -> bool {
    let path = Path::new(entry);
    let plain = !entry.contains(['*', '?', '[']) && !path.is_absolute();
    let at = normalize(&rootdir.join(path));
    if !plain || !at.starts_with(root) || at.is_file() {
        return false;
    }
    let Ok(read) = std::fs::read_dir(&at) else {
        return true;
    };
    read.flatten().all(|item| {
        let name = item.file_name();
        let Some(module) = name.to_str().and_then(super::observed::module_name) else {
            return true;
        };
        // Found in the entry itself (not in a directory under it, which is another place on the path: `.` holds
        // `tests/`), or no longer anywhere.
        imported.get(module).is_none_or(|found| {
            let found = normalize(&root.join(found));
            found.parent() == Some(at.as_path()) || std::fs::symlink_metadata(&found).is_err()
        })
    })
}

/// `path` with its `.` and `..` components resolved by name.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A key's value as pytest types it, as text.
fn normalized(key: &str, raw: &Raw) -> String {
    if ARGS.contains(&key) {
        serde_json::Value::from(words(raw)).to_string()
    } else if LINES.contains(&key) {
        serde_json::Value::from(lines(raw)).to_string()
    } else if BOOLS.contains(&key)
        && let Some(b) = boolean(raw)
    {
        b.to_string()
    } else {
        json(raw)
    }
}

fn json(raw: &Raw) -> String {
    match raw {
        Raw::Text(text) => serde_json::Value::from(text.trim()).to_string(),
        Raw::List(items) => serde_json::Value::from(items.clone()).to_string(),
        Raw::Other(text) => text.clone(),
    }
}

/// An `args` value: a string split as a shell splits it (kept whole where it does not split), a list as it is.
fn words(raw: &Raw) -> Vec<String> {
    match raw {
        Raw::Text(text) => super::options::shell_words(text).unwrap_or_else(|| vec![text.clone()]),
        Raw::List(items) => items.clone(),
        Raw::Other(text) => vec![text.clone()],
    }
}

/// A `linelist` value: its lines trimmed, blank ones left out.
fn lines(raw: &Raw) -> Vec<String> {
    match raw {
        Raw::Text(text) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        Raw::List(items) => items.iter().map(|l| l.trim().to_string()).collect(),
        Raw::Other(text) => vec![text.clone()],
    }
}

/// A boolean as pytest reads one (`_strtobool`), `None` for text it refuses.
fn boolean(raw: &Raw) -> Option<bool> {
    match raw {
        Raw::Text(text) => match text.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" | "t" | "true" | "on" | "1" => Some(true),
            "n" | "no" | "f" | "false" | "off" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// pytest's search from `start` (see the module docs), `edited` standing in for one file's content.
fn resolve(start: &Path, edited: Option<(&Path, &[u8])>, version: Version) -> Resolved {
    let read = |path: &Path| -> Option<String> {
        match edited {
            Some((at, bytes)) if at == path => Some(String::from_utf8_lossy(bytes).into_owned()),
            _ => path
                .is_file()
                .then(|| std::fs::read(path).ok())
                .flatten()
                .map(|b| String::from_utf8_lossy(&b).into_owned()),
        }
    };
    let mut first_pyproject = None;
    for dir in start.ancestors() {
        for name in SEARCHED {
            if version == Version::Eight && name.ends_with("pytest.toml") {
                continue;
            }
            let path = dir.join(name);
            let Some(text) = read(&path) else { continue };
            if *name == "pyproject.toml" && first_pyproject.is_none() {
                first_pyproject = Some(path.clone());
            }
            if let Some(keys) = load(name, &text, version) {
                return Resolved {
                    rootdir: dir.to_path_buf(),
                    file: Some(path),
                    keys,
                };
            }
        }
    }
    if let Some(path) = first_pyproject {
        return Resolved {
            rootdir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            file: Some(path),
            keys: Vec::new(),
        };
    }
    let rootdir = start
        .ancestors()
        .find(|dir| read(&dir.join("setup.py")).is_some())
        .unwrap_or(start)
        .to_path_buf();
    Resolved {
        rootdir,
        file: None,
        keys: Vec::new(),
    }
}

/// The key that stands for a file pytest refuses to read: its text, so any change to it counts.
const UNPARSABLE: &str = "(the file does not parse)";

/// The configuration one file gives pytest, `None` where it gives none (pytest reads on).
fn load(name: &str, text: &str, version: Version) -> Option<Vec<(String, Raw)>> {
    let unparsable = || Some(vec![(UNPARSABLE.to_string(), Raw::Text(text.to_string()))]);
    match name {
        "pytest.toml" | ".pytest.toml" => {
            let Ok(doc) = text.parse::<toml::Table>() else {
                return unparsable();
            };
            Some(doc.get("pytest").map_or_else(Vec::new, |table| native(table, version)))
        }
        "pyproject.toml" => {
            let Ok(doc) = text.parse::<toml::Table>() else {
                return unparsable();
            };
            let table = doc.get("tool")?.get("pytest")?.as_table()?;
            let ini = table.get("ini_options");
            let rest: toml::Table = table
                .iter()
                .filter(|(k, _)| *k != "ini_options")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if version == Version::Nine && !rest.is_empty() {
                return Some(native(&toml::Value::Table(rest), version));
            }
            let ini = ini?.as_table()?;
            Some(
                ini.iter()
                    .map(|(k, v)| {
                        let raw = match v {
                            toml::Value::Array(items) => Raw::List(items.iter().map(scalar).collect()),
                            other => Raw::Text(scalar(other)),
                        };
                        (k.clone(), raw)
                    })
                    .collect(),
            )
        }
        _ => {
            let Some(sections) = ini(text) else { return unparsable() };
            let dedicated = name.ends_with("pytest.ini");
            let wanted = if name == "setup.cfg" { "tool:pytest" } else { "pytest" };
            match sections.into_iter().find(|(section, _)| section == wanted) {
                Some((_, keys)) => Some(keys.into_iter().map(|(k, v)| (k, Raw::Text(v))).collect()),
                None if dedicated => Some(Vec::new()),
                None => None,
            }
        }
    }
}

/// A native TOML table's keys (pytest 9 keeps their types; a string of an `args` key is still split).
fn native(table: &toml::Value, _version: Version) -> Vec<(String, Raw)> {
    let Some(table) = table.as_table() else {
        return vec![(UNPARSABLE.to_string(), Raw::Other(toml_text(table)))];
    };
    table
        .iter()
        .map(|(k, v)| {
            let raw = match v {
                toml::Value::String(s) => Raw::Text(s.clone()),
                toml::Value::Boolean(b) => Raw::Text(b.to_string()),
                toml::Value::Array(items) => Raw::List(items.iter().map(scalar).collect()),
                other => Raw::Other(toml_text(other)),
            };
            (k.clone(), raw)
        })
        .collect()
}

/// A TOML scalar as the string pytest's INI mode makes of it.
fn scalar(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => toml_text(other),
    }
}

/// A TOML value as JSON text (keys sorted).
fn toml_text(value: &toml::Value) -> String {
    serde_json::to_value(value).map_or_else(|_| String::new(), |v| v.to_string())
}

/// An INI section: its name and its keys with their values.
type Section = (String, Vec<(String, String)>);

/// An INI file as pytest's `iniconfig` reads it: sections of `name = value` (or `name: value`) keys, a value's
/// indented lines after it joined to it by `\n`, comment lines left out; `None` where it refuses the file.
fn ini(text: &str) -> Option<Vec<Section>> {
    let mut sections: Vec<Section> = Vec::new();
    for line in text.trim_start_matches('\u{feff}').lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        let line = line.trim_end();
        if line.starts_with([' ', '\t']) {
            let (_, keys) = sections.last_mut()?;
            let (_, value) = keys.last_mut()?;
            if !value.is_empty() {
                value.push('\n');
            }
            value.push_str(trimmed);
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let name = rest.split(['#', ';']).next().unwrap_or(rest).trim_end();
            sections.push((name.strip_suffix(']')?.to_string(), Vec::new()));
            continue;
        }
        let (name, value) = match line.split_once('=') {
            Some((name, value)) if !name.contains(':') => (name, value),
            _ => line.split_once(':')?,
        };
        let (_, keys) = sections.last_mut()?;
        keys.push((name.trim().to_string(), value.trim().to_string()));
    }
    Some(sections)
}

#[cfg(test)]
#[path = "rootdir/tests.rs"]
mod tests;
