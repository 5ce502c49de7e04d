//! `loopgate allow`: the user accepts a change to the oracle's inputs as the new baseline.
//!
//! A promise is rejected when a sealed file, a file of the verify command's closure or an existing test moved
//! since setup. Sometimes the user wants exactly that change (the task is to rewrite the test script). Only
//! the user can say so, from a terminal: the PreToolUse guard refuses `loopgate allow` typed by the agent, and
//! `allow` itself refuses to accept anything when run from inside Claude Code (`control`: the agent's script,
//! interpreter, background job or double fork all carry Claude Code's variables; under Claude Code's sandbox the
//! seal store is read-only to them besides). Accepting re-takes the digests of the chosen files; everything else stays sealed, and later
//! changes to an accepted file are caught again. Without arguments it lists what moved, changing nothing.

use crate::closure::observed::Observed;
use crate::history::{Event, event::Allowed};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::exit_codes;
use crate::history::Record;
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::project::Project;
use crate::seal::SealedFiles;

/// Runs `loopgate allow [PATH…] [--counts] [--all] [--tests NAME…]`.
pub fn run(paths: &[PathBuf], counts: bool, all: bool, tests: &[String]) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let _lock = super::lock(&project)?;
    let Lookup::Loop(mut active) = lookup(&project)? else {
        return Err(Error::NoLoop { root: project.root });
    };
    let lang = active.seal.fields.lang;
    if paths.is_empty() && !all && !counts && tests.is_empty() {
        let breach = crate::oracle::breach(&active)?;
        if breach.is_empty() {
            crate::say("loopgate allow: nothing sealed has changed since the loop started.");
        } else {
            let lines: Vec<String> = breach.lines(lang).into_iter().map(|l| format!("  {l}")).collect();
            crate::say(format!(
                "loopgate allow: changed since the loop started:\n{}\naccept with `loopgate allow PATH…` (or `--all`); the next promise is judged against what you accept.",
                lines.join("\n")
            ));
        }
        return Ok(exit_codes::OK);
    }
    crate::control::refuse_inside_claude_code(
        &crate::control::Caller::from_env(),
        "accept changes to the oracle's inputs",
    )?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| project.root.clone());
    let wanted: Vec<String> = paths.iter().map(|p| key(&project.root, &cwd, p)).collect();
    let select = |path: &str| all || wanted.iter().any(|w| w == path);
    let mut accepted = accept_sealed(&mut active, &select)?;
    let root = active.project.root.clone();
    if let Some(closure) = active.seal.closure.as_mut() {
        accepted.extend(closure.accept(&root, select));
    }
    let observed_keys = accept_observed(&active, &select, &mut accepted)?;
    let mut inventory_files: Vec<String> = Vec::new();
    if let Some(mut inventory) = active.store.load_inventory(&active.project)? {
        let changed = inventory.accept(&root, select);
        if !changed.is_empty() {
            active.store.save_inventory(&active.project, &inventory)?;
            active.seal.test_files = inventory.files.keys().cloned().collect();
            accepted.extend(changed);
        }
        inventory_files = inventory.own_test_files().cloned().collect();
    }
    // The oracle's run uses the accepted versions of the test files and their data from now on.
    let copied = accept_copies(&active, &inventory_files, &select, &mut accepted)?;
    if let Some(unknown) = wanted
        .iter()
        .find(|w| !is_sealed(&active, w) && !copied.contains(w) && !observed_keys.contains(w))
    {
        return Err(Error::Usage(format!(
            "`{unknown}` is not sealed for this loop, so there is nothing to allow (run `loopgate allow` to list what changed)"
        )));
    }
    accepted.extend(allow_tests(&active, tests)?);
    accepted.sort();
    accepted.dedup();
    if counts || all {
        let fields = &mut active.seal.fields;
        match fields.last_counts {
            Some(last) => {
                fields.counts_best.rebase(last);
                accepted.push(format!("test counts (ran {}, skipped {})", last.ran(), last.not_run()));
            }
            None if counts => {
                return Err(Error::Usage(
                    "no verify of this loop has printed test counts yet, so there are none to accept".into(),
                ));
            }
            None => {}
        }
    }
    let record = Record::new(
        active.loop_id(),
        active.seal.fields.iteration,
        Event::Allowed(Allowed {
            accepted: accepted.clone(),
        }),
    );
    let state = active.state();
    active.save(&state)?;
    active.record(&record)?;
    if accepted.is_empty() {
        crate::say("loopgate allow: nothing to accept: the files named are as they were sealed.");
    } else {
        crate::say(format!(
            "loopgate allow: accepted as the new baseline: {}. Everything else stays sealed.",
            accepted.join(", ")
        ));
    }
    Ok(exit_codes::OK)
}

/// Accepts that the named baseline tests no longer run (`--tests`); refuses a name the baseline does not have.
fn allow_tests(active: &ActiveLoop, names: &[String]) -> Result<Vec<String>, Error> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let Some(mut baseline) = active.store.load_baseline(&active.project)? else {
        return Err(Error::Usage(
            "this loop has no baseline run yet, so no test can be allowed to go (`--tests` names tests of the baseline)"
                .into(),
        ));
    };
    if let Some(unknown) = baseline.allow(names).first() {
        return Err(Error::Usage(format!(
            "`{unknown}` is not a test of this loop's baseline (the rejection lists the exact names)"
        )));
    }
    active.store.save_baseline(&active.project, &baseline)?;
    Ok(names
        .iter()
        .map(|name| format!("test `{name}` no longer required"))
        .collect())
}

/// Re-takes the sealed copies of the test files and their data that `select` picks (see `testside`), adding
/// what changed to `accepted`; returns every path the copies hold.
fn accept_copies(
    active: &ActiveLoop,
    test_files: &[String],
    select: &dyn Fn(&str) -> bool,
    accepted: &mut Vec<String>,
) -> Result<Vec<String>, Error> {
    let (store, project) = (&active.store, &active.project);
    let old: crate::testside::Copies = store
        .load_companion(project, crate::seal::TEST_COPIES)?
        .unwrap_or_default();
    let now = crate::testside::Copies::take(&project.root, test_files);
    let mut kept = old.clone();
    let paths: Vec<String> = old.files.keys().chain(now.files.keys()).cloned().collect();
    for path in paths.into_iter().filter(|p| select(p)) {
        match now.files.get(&path) {
            Some(text) => kept.files.insert(path.clone(), text.clone()),
            None => kept.files.remove(&path),
        };
        if kept.files.get(&path) != old.files.get(&path) {
            accepted.push(path);
        }
    }
    if kept != old {
        store.save_companion(project, crate::seal::TEST_COPIES, &kept)?;
    }
    Ok(old.files.into_keys().chain(now.files.into_keys()).collect())
}

/// Re-hashes the `--seal` files `select` picks (new files matching the globs included).
fn accept_sealed(active: &mut ActiveLoop, select: &dyn Fn(&str) -> bool) -> Result<Vec<String>, Error> {
    if active.seal.fields.sealed.is_empty() {
        return Ok(Vec::new());
    }
    let root = &active.project.root;
    let now = SealedFiles::new(&active.seal.fields.sealed)
        .map_err(Error::Usage)?
        .hash_all(root)
        .map_err(|source| Error::Io {
            action: "hash sealed files under",
            path: root.clone(),
            source,
        })?;
    let files = &mut active.seal.files;
    let mut accepted = Vec::new();
    let paths: Vec<String> = files.keys().chain(now.keys()).cloned().collect();
    for path in paths.into_iter().filter(|p| select(p)) {
        let (before, after) = (files.get(&path).cloned(), now.get(&path).cloned());
        if before == after {
            continue;
        }
        match after {
            Some(hash) => files.insert(path.clone(), hash),
            None => files.remove(&path),
        };
        accepted.push(path);
    }
    Ok(accepted)
}

/// Accepts the selected files of the observed closure and new entries that shadowed something the baseline
/// used; returns every path the observed closure seals or would flag (so naming one is not an error).
fn accept_observed(
    active: &ActiveLoop,
    select: &impl Fn(&str) -> bool,
    accepted: &mut Vec<String>,
) -> Result<Vec<String>, Error> {
    let (store, project) = (&active.store, &active.project);
    let Some(mut observed) = store.load_companion::<Observed>(project, crate::seal::OBSERVED)? else {
        return Ok(Vec::new());
    };
    let root = &project.root;
    let mut known: Vec<String> = observed.closure.files.iter().map(|f| f.path.clone()).collect();
    known.extend(observed.shadows(root).into_iter().map(|s| s.path));
    let mut changed = observed.closure.accept(root, select);
    changed.extend(observed.accept_entries(root, select));
    if !changed.is_empty() {
        store.save_companion(project, crate::seal::OBSERVED, &observed)?;
        accepted.extend(changed);
    }
    Ok(known)
}

/// Whether `key` names something sealed for this loop (a `--seal` file, or a closure file).
fn is_sealed(active: &ActiveLoop, key: &str) -> bool {
    let globbed = SealedFiles::new(&active.seal.fields.sealed).is_ok_and(|s| s.matches(Path::new(key)));
    let closure = active
        .seal
        .closure
        .as_ref()
        .is_some_and(|c| c.file(key).is_some() || c.watches_name_of(Path::new(key)));
    let test = active.seal.test_files.iter().any(|t| t == key) || crate::testscan::is_test_file(Path::new(key));
    globbed || active.seal.files.contains_key(key) || closure || test
}

/// A path as the seal names it: relative to the project root with `/`, or absolute outside the project.
fn key(root: &Path, cwd: &Path, path: &Path) -> String {
    let absolute = crate::guard::lexical_path(&cwd.join(path));
    let root = crate::guard::lexical_path(root);
    let key = absolute.strip_prefix(&root).map_or(absolute.as_path(), |rel| rel);
    key.to_string_lossy().replace('\\', "/")
}
