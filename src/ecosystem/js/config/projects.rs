//! Jest's `projects`, entry by entry (issue 39): each entry is a project configuration of its own — its test
//! selection, transforms, setup files, environment, module mapper — so a new entry is judged like a new project,
//! not as one change to the list.
//!
//! The reading (`resolve_config.cjs`, told `LOOPGATE_CONFIG_PROJECTS=1`) prints the global configuration and each
//! project as Jest resolves it (an entry that is a path, `"<rootDir>/packages/x"`, resolved from that directory's
//! configuration, a glob expanded), under `project NAME` — its display name, else its directory — so a project
//! keeps its name wherever a new one lands in the list. `keys::parts_of` cuts each into its keys, labelled
//! `project NAME › KEY` ([`label`]), its selection into entries as the top level's is. Then, at a promise:
//!
//! - a project that was there is judged setting by setting, as the top level is: its selection's entries by the
//!   files they take (`config::selection`, free where only new tests join or leave), every other key by its value;
//! - a **new** project is free where every file its selection takes is a new test, which sits out the oracle's
//!   run: nothing of the baseline runs under its settings, whatever they are (`setupFiles`, `testEnvironment`,
//!   `transform` apply to its own files only; Jest reads its global options from the top level alone). Where it
//!   also takes a sealed test, that test runs a second time under the new project's settings, so it is free only
//!   where each of its keys that counts is one a sealed project holds with the same value — a lenient setup file,
//!   environment, mapper or transform for the sealed tests is a move. One taking any other file (a helper, the
//!   code) counts;
//! - a project gone counts (its sealed tests no longer run as they did).
//!
//! This is the judgment of a seal taken with `by_project` but before `as_run`; a seal taken since is judged by the
//! settings each sealed test runs under (`config::runs`), which also frees a configuration turned from one document
//! into `projects` and Vitest's projects. A seal taken before either (no `by_project`) holds `projects` as one
//! part. The names and cuts here (`project NAME › KEY`, [`split`], [`of`], [`same_projects`]) serve both.

use std::collections::BTreeSet;
use std::path::Path;

use crate::closure::PartChange;
use crate::closure::parts::Parts;
use crate::closure::selection::{Members, entry_of};
use crate::runner::Runner;

/// What starts a project's key in the reading: `project "unit"`.
pub(super) const PROJECT: &str = "project ";
/// What separates a project's name from its key in a part's label.
const WITHIN: &str = " › ";

/// Keys of a project free within it, beside the top level's: its display name only labels its output.
pub(super) const PROJECT_FREE: &[&str] = &["displayName"];

/// The label of `key` (a part's label of the project's own configuration) in project `project` (`project "unit"`).
pub(super) fn label(project: &str, key: &str) -> String {
    format!("{project}{WITHIN}{key}")
}

/// The project a label belongs to and its label within it; `None` for the top level's.
pub(super) fn split(label: &str) -> Option<(&str, &str)> {
    label.strip_prefix(PROJECT)?;
    label.split_once(WITHIN)
}

/// The parts of `project` (or of the top level, `None`), labelled as within it.
pub(super) fn of(parts: &Parts, project: Option<&str>) -> Parts {
    parts
        .iter()
        .filter_map(|(label, digest)| match (split(label), project) {
            (Some((p, key)), Some(want)) if p == want => Some((key.to_string(), digest.clone())),
            (None, None) => Some((label.clone(), digest.clone())),
            _ => None,
        })
        .collect()
}

/// Which of `changes` (between `sealed` and `now`, the reading's parts) are free: the top level's and an old
/// project's selection entries where the selection moved only by files `members` lets join or leave, and every
/// part of a new project that the module doc frees. `dir` is where the runner runs, relative to `root`.
pub(super) fn free(
    runner: Runner,
    root: &Path,
    dir: &str,
    sealed: &Parts,
    now: &Parts,
    changes: &[(String, PartChange)],
    members: &Members<'_>,
) -> BTreeSet<String> {
    let entry = |label: &str| entry_of(label).is_some();
    let mut groups: BTreeSet<Option<&str>> = BTreeSet::new();
    for (label, _) in changes {
        groups.insert(split(label).map(|(project, _)| project));
    }
    let sealed_projects: BTreeSet<&str> = sealed.keys().filter_map(|l| split(l)).map(|(p, _)| p).collect();
    let mut out = BTreeSet::new();
    for group in groups {
        let (was, is) = (of(sealed, group), of(now, group));
        let in_group = |label: &str| split(label).map(|(p, _)| p) == group;
        let free_all = match group {
            Some(project) if !sealed_projects.contains(project) => new_project(runner, root, dir, sealed, &is, members),
            _ => false,
        };
        if free_all {
            out.extend(changes.iter().filter(|(l, _)| in_group(l)).map(|(l, _)| l.clone()));
            continue;
        }
        // A project that was there, or the top level: its selection's entries by the files they take.
        let moved_entries = changes.iter().any(|(l, _)| in_group(l) && entry(strip(l)));
        if moved_entries
            && (group.is_none() || sealed_projects.contains(group.unwrap_or_default()))
            && super::selection::inert(runner, root, dir, &was, &is, members)
        {
            out.extend(
                changes
                    .iter()
                    .filter(|(l, _)| in_group(l) && entry(strip(l)))
                    .map(|(l, _)| l.clone()),
            );
        }
    }
    out
}

/// `changes` with each project that came or went whole told as one change: `project "ready"`, added, with the keys
/// that count in which it differs from every sealed project (`setupFiles`, `testMatch`), or gone — not its fifty
/// resolved keys one by one.
pub(super) fn told(sealed: &Parts, now: &Parts, changes: Vec<(String, PartChange)>) -> Vec<(String, PartChange)> {
    let (was, is) = (project_names(sealed), project_names(now));
    let mut out: Vec<(String, PartChange)> = Vec::new();
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (label, change) in changes {
        let Some((project, _)) = split(&label) else {
            out.push((label, change));
            continue;
        };
        let (old, new) = (was.contains(project), is.contains(project));
        if old && new {
            out.push((label, change));
            continue;
        }
        if !told.insert(project.to_string()) {
            continue;
        }
        if old {
            out.push((project.to_string(), PartChange::Removed));
            continue;
        }
        let mine = of(now, Some(project));
        let homes: Vec<Parts> = was
            .iter()
            .map(|p| of(sealed, Some(p)))
            .chain([of(sealed, None)])
            .collect();
        let own: BTreeSet<&str> = mine
            .iter()
            .filter(|(key, digest)| homes.iter().all(|home| home.get(*key) != Some(*digest)))
            .map(|(key, _)| entry_of(key).map_or(key.as_str(), |(k, _)| k))
            .collect();
        let own: Vec<&str> = own.into_iter().collect();
        out.push((format!("{project} (its own: {})", own.join(", ")), PartChange::Added));
    }
    out
}

/// The names of the projects a reading holds (none without `projects`).
fn project_names(parts: &Parts) -> BTreeSet<String> {
    parts
        .keys()
        .filter_map(|l| split(l))
        .map(|(p, _)| p.to_string())
        .collect()
}

/// Whether two readings hold the same projects (or none), by name.
pub(super) fn same_projects(sealed: &Parts, now: &Parts) -> bool {
    project_names(sealed) == project_names(now)
}

/// A label within its project.
fn strip(label: &str) -> &str {
    split(label).map_or(label, |(_, key)| key)
}

/// Whether a new project (its parts `is`, labelled within it) is free: its selection takes only new tests, or new
/// tests and sealed tests while each of its keys that counts holds a value some sealed project's (or the top
/// level's) same key holds.
fn new_project(runner: Runner, root: &Path, dir: &str, sealed: &Parts, is: &Parts, members: &Members<'_>) -> bool {
    let none = Parts::new();
    let only_new = Members {
        may_join: members.may_leave,
        may_leave: members.may_leave,
    };
    if super::selection::inert(runner, root, dir, &none, is, &only_new) {
        return true;
    }
    if !super::selection::inert(runner, root, dir, &none, is, members) {
        return false;
    }
    let settings = |parts: &Parts| -> Parts {
        parts
            .iter()
            .filter(|(label, _)| entry_of(label).is_none())
            .map(|(l, d)| (l.clone(), d.clone()))
            .collect()
    };
    let mine = settings(is);
    let mut homes: Vec<Parts> = sealed
        .keys()
        .filter_map(|l| split(l))
        .map(|(p, _)| p)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|p| settings(&of(sealed, Some(p))))
        .collect();
    homes.push(settings(&of(sealed, None)));
    homes
        .iter()
        .any(|home| mine.iter().all(|(key, digest)| home.get(key) == Some(digest)))
}

#[cfg(test)]
#[path = "projects/tests.rs"]
mod tests;
