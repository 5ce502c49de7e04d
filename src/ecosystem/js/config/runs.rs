//! Which settings each sealed test runs under, as the runner resolves its projects (issue 39): the judgment of a
//! reading taken `as_run` (`Resolved::as_run`), for Jest's `projects`, Vitest's `test.projects` and workspace, and a
//! configuration turned into projects or back.
//!
//! A reading taken so holds one document per project — every setting that applies to the tests it takes (Jest's
//! project keys with the global ones beside them; Vitest's resolved `test` options, what the main process reads
//! from the root, the aliases and user plugins its modules go through) — or one at the top level where there are
//! no projects. Its selection's entries say which files the project takes (`config::selection`), the rest are its
//! settings. So each file of the runner's directory runs under a set of settings: one per project that takes it.
//!
//! At a promise, every file but the agent's new tests (which sit out the oracle's run) must run under the same set
//! of settings as at the baseline. That is the whole rule, and it holds whatever the list looks like:
//!
//! - a new project that takes only new tests changes no file's set: free, whatever its settings; one that takes a
//!   sealed test again under settings no project ran it under adds to that test's set: a move (a setup file that
//!   ends the process, another environment, a mapper to a fixed copy), while under a sealed project's very settings
//!   it adds nothing;
//! - a configuration split into projects, or written as one project, is free exactly where each sealed test ends up
//!   under the settings it ran under, whatever the projects are called and wherever they sit; a split that leaves a
//!   sealed test to no project empties its set, and one that gives its project another `testEnvironment`,
//!   `setupFiles`, `transform` or `moduleNameMapper` changes it;
//! - a file that is no test (a helper, the code) taken by a selection now runs as a test file: its set grows.
//!
//! What runs in the runner's main process whatever tests a project takes ([`MAIN_PROCESS`]: a global setup, a
//! reporter, a sequencer, a test runner or pool, Vite plugins) is held apart: a project, new or old, may hold such a
//! key only with a value some project or the top level held at the baseline.
//!
//! Where a project stands (`rootDir`, [`PLACE`]) is not a setting: what it changes for the tests it takes is in the
//! keys it resolves (absolute paths, as the reading prints them) and in the selection.

use std::cell::Cell;
use std::collections::BTreeSet;
use std::path::Path;

use crate::closure::parts::Parts;
use crate::closure::selection::{self, Members, entry_of};
use crate::runner::Runner;

use super::projects::{of, split};
use super::selection::{Selector, selector, unlisted};

/// Keys that run code in the runner's main process, whatever tests the project holding them takes: Jest's global
/// setup and teardown, reporters, results processor, sequencer and runner; Vitest's global setup, reporters,
/// sequence (its sequencer), pool, and the Vite plugins of a project (their hooks run as its server starts).
const MAIN_PROCESS: &[&str] = &[
    "globalSetup",
    "globalTeardown",
    "reporters",
    "testResultsProcessor",
    "testSequencer",
    "runner",
    "test.globalSetup",
    "test.reporters",
    "test.sequence",
    "test.pool",
    "plugins",
];

/// Keys saying where a project stands rather than how its tests run (see the module doc).
const PLACE: &[&str] = &["rootDir"];

/// The most reasons a rejection lists.
const MAX_REASONS: usize = 6;

/// One project of a reading (or the top level, where there are none): its selection and its settings.
struct Group {
    name: Option<String>,
    selection: Parts,
    settings: Parts,
}

/// A label's key without the ` (global)` Jest's reading gives a global value that differs from the project's.
fn bare(label: &str) -> &str {
    label.strip_suffix(" (global)").unwrap_or(label)
}

/// The groups of a reading's parts: each project, its settings over the top level's, or the top level alone.
fn groups(parts: &Parts) -> Vec<Group> {
    let names: BTreeSet<&str> = parts.keys().filter_map(|l| split(l)).map(|(p, _)| p).collect();
    let top = of(parts, None);
    let cut = |name: Option<&str>, own: Parts| {
        let mut group = Group {
            name: name.map(str::to_string),
            selection: Parts::new(),
            settings: Parts::new(),
        };
        for (label, digest) in top.iter().chain(&own) {
            if entry_of(label).is_some() {
                if name.is_none() || own.contains_key(label) {
                    group.selection.insert(label.clone(), digest.clone());
                }
            } else if !PLACE.contains(&bare(label)) {
                group.settings.insert(label.clone(), digest.clone());
            }
        }
        group
    };
    if names.is_empty() {
        return vec![cut(None, Parts::new())];
    }
    names
        .into_iter()
        .map(|name| cut(Some(name), of(parts, Some(name))))
        .collect()
}

/// Whether a reading taken as run moved only in ways the oracle's run cannot feel (see the module doc): `Ok`, or
/// the reasons it can, each naming a file or a project and the keys. `moved` are the labels that moved (to name
/// the selection's keys where a sealed test lost its project). `dir` is where the runner runs, relative to `root`.
pub(super) fn judge(
    runner: Runner,
    root: &Path,
    dir: &str,
    sealed: &Parts,
    now: &Parts,
    moved: &[String],
    members: &Members<'_>,
) -> Result<(), Vec<String>> {
    let name = runner.row().name;
    let (was, is) = (groups(sealed), groups(now));
    let build = |groups: &[Group]| -> Result<Vec<Selector>, Vec<String>> {
        groups
            .iter()
            .map(|g| {
                selector(runner, root, dir, &g.selection).ok_or_else(|| {
                    vec![format!(
                        "the test selection of {} (one loopgate cannot rebuild exactly)",
                        shown(g.name.as_deref())
                    )]
                })
            })
            .collect()
    };
    let (before, after) = (build(&was)?, build(&is)?);
    let skip = unlisted(before.iter().chain(&after));
    let Some(files) = selection::files(root, Path::new(dir), skip) else {
        return Err(vec![format!(
            "the files {name}'s selection takes (a link on the way, or too many to walk)"
        )]);
    };
    let unsure = Cell::new(false);
    let under = |groups: &'_ [Group], selectors: &[Selector], file: &str| -> BTreeSet<Vec<(String, String)>> {
        groups
            .iter()
            .zip(selectors)
            .filter(|(_, s)| s.selects(file, &unsure))
            .map(|(g, _)| g.settings.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .collect()
    };
    let selection_keys: BTreeSet<&str> = moved
        .iter()
        .filter_map(|label| entry_of(split(label).map_or(label.as_str(), |(_, key)| key)))
        .map(|(key, _)| key)
        .collect();
    let mut reasons = Vec::new();
    let mut files = files;
    files.sort();
    for file in &files {
        let relative = if dir.is_empty() {
            file.clone()
        } else {
            format!("{dir}/{file}")
        };
        if (members.may_leave)(&relative) {
            continue;
        }
        let (then, now) = (under(&was, &before, file), under(&is, &after, file));
        if then == now {
            continue;
        }
        let test = (members.may_join)(&relative);
        reasons.push(if !test && then.is_empty() {
            format!("`{relative}`, which holds no test, taken as a test file by {name}")
        } else if now.is_empty() {
            let keys: Vec<&str> = selection_keys.iter().copied().collect();
            format!(
                "`{relative}`, which no selection of {name} takes now ({})",
                keys.join(", ")
            )
        } else {
            format!(
                "the settings {name} runs `{relative}` under: {}",
                differing(&then, &now).join(", ")
            )
        });
    }
    if unsure.get() {
        reasons.push(format!(
            "a file Vitest 3's default `exclude` leaves out, which {name}'s selection takes now"
        ));
    }
    for group in &is {
        for (label, digest) in &group.settings {
            let main = MAIN_PROCESS.contains(&bare(label));
            if main && !was.iter().any(|home| home.settings.get(label) == Some(digest)) {
                reasons.push(format!(
                    "{} of {}, which runs in {name}'s own process",
                    bare(label),
                    shown(group.name.as_deref())
                ));
            }
        }
    }
    if reasons.is_empty() {
        return Ok(());
    }
    if reasons.len() > MAX_REASONS {
        let more = reasons.len() - MAX_REASONS;
        reasons.truncate(MAX_REASONS);
        reasons.push(format!("and {more} more"));
    }
    Err(reasons)
}

/// A group as the reasons name it.
fn shown(name: Option<&str>) -> String {
    name.map_or_else(|| "the configuration".to_string(), str::to_string)
}

/// The keys in which a set of settings a file runs under now differs from the ones it ran under: for each one new,
/// the keys it holds otherwise than the first it ran under (or every key of one gone, where none is new).
fn differing(then: &BTreeSet<Vec<(String, String)>>, now: &BTreeSet<Vec<(String, String)>>) -> Vec<String> {
    let keys = |a: &[(String, String)], b: &[(String, String)]| -> BTreeSet<String> {
        let (a, b): (Parts, Parts) = (a.iter().cloned().collect(), b.iter().cloned().collect());
        a.keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| bare(k).to_string())
            .collect()
    };
    let empty = Vec::new();
    let first_then = then.iter().next().unwrap_or(&empty);
    let first_now = now.iter().next().unwrap_or(&empty);
    let mut out: BTreeSet<String> = BTreeSet::new();
    for new in now.difference(then) {
        out.extend(keys(first_then, new));
    }
    for gone in then.difference(now) {
        out.extend(keys(gone, first_now));
    }
    if out.is_empty() {
        out.insert("the projects that run it".to_string());
    }
    out.into_iter().collect()
}

#[cfg(test)]
#[path = "runs/tests.rs"]
mod tests;
