//! `loopgate allow`: the user accepts a change to the oracle's inputs as the new baseline.
//!
//! A promise is rejected when a sealed file, a file of the verify command's closure or an existing test moved
//! since setup. Sometimes the user wants exactly that change (the task is to rewrite the test script). Only
//! the user can say so, from a terminal: the PreToolUse guard refuses `loopgate allow` typed by the agent, and
//! `allow` itself refuses to accept anything when run from inside Claude Code (`control`: the agent's script,
//! interpreter, background job or double fork all carry Claude Code's variables; under Claude Code's sandbox the
//! seal store is read-only to them besides). Accepting takes the chosen files again, in every kind of sealed
//! input at once (`inputs::Inputs::accept`); everything else stays sealed, and later changes to an accepted
//! file are caught again. Without arguments it lists what moved, changing nothing.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::exit_codes;
use crate::history::{Event, Record, event::Allowed};
use crate::inputs::Inputs;
use crate::lifecycle::{ActiveLoop, Lookup, lookup};
use crate::project::Project;

/// Runs `loopgate allow [PATH…] [--counts] [--all] [--tests NAME…]`.
pub(crate) fn run(paths: &[PathBuf], counts: bool, all: bool, tests: &[String]) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let _lock = super::lock_existing(&project)?;
    let Lookup::Loop(mut active) = lookup(&project)? else {
        return Err(Error::NoLoop { root: project.root });
    };
    let lang = active.seal.fields.config.lang;
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
    let mut inputs = Inputs::load(&active)?;
    let root = active.project.root.clone();
    let mut accepted = inputs.accept(&root, &select)?;
    // Checked before anything is written: a typo keeps every seal as it was.
    let plan = active.store.load_baseline(&active.project)?.and_then(|b| b.make);
    let planned = |path: &str| plan.as_ref().is_some_and(|plan| plan.comes_from(path));
    if let Some(unknown) = wanted
        .iter()
        .find(|w| !accepted.contains(w) && !inputs.seals(&root, w) && !planned(w))
    {
        return Err(Error::Usage(format!(
            "`{unknown}` is not sealed for this loop, so there is nothing to allow (run `loopgate allow` to list what changed)"
        )));
    }
    inputs.save(&mut active)?;
    let planned_accepted: Vec<String> = wanted.iter().filter(|w| planned(w)).cloned().collect();
    retake_make_plan(&active, all, &accepted, &planned_accepted)?;
    accepted.extend(retake_js_configs(&active, all, &wanted)?);
    retake_built_features(&active, all, &wanted)?;
    accepted.extend(planned_accepted);
    accepted.extend(allow_tests(&active, tests)?);
    accepted.sort();
    accepted.dedup();
    if counts || all {
        let fields = &mut active.seal.fields;
        match fields.progress.counts.last_counts {
            Some(last) => {
                fields.progress.counts.counts_best.rebase(last);
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
        active.seal.fields.progress.iteration,
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

/// Where the user accepted a makefile that make's plan for the verify's goals comes from (or everything), the
/// next promise takes that plan afresh (`closure::make_plan`): the makefile's text is accepted here, and the plan
/// it makes can only be asked where the oracle's run stands, never here (its dry run expands the makefile's own
/// commands, which must not run outside the oracle's world).
fn retake_make_plan(active: &ActiveLoop, all: bool, accepted: &[String], planned: &[String]) -> Result<(), Error> {
    let Some(mut baseline) = active.store.load_baseline(&active.project)? else {
        return Ok(());
    };
    let Some(plan) = baseline.make.as_mut() else {
        return Ok(());
    };
    if all || !planned.is_empty() || accepted.iter().any(|path| plan.comes_from(path)) {
        // The makefiles' texts as accepted here: the retake holds to them (`closure::make_plan`'s `accept`).
        plan.accept(&active.project.root, planned);
        active.store.save_baseline(&active.project, &baseline)?;
    }
    Ok(())
}

/// Where the user accepted a configuration file left to what its runner resolves (or everything), the next
/// promise takes that reading afresh, if the files are still as accepted here (`closure::js_config`): the reading
/// runs the configuration's code, so it is only ever taken where the oracle's run stands, never here. Returns the
/// files accepted.
fn retake_js_configs(active: &ActiveLoop, all: bool, wanted: &[String]) -> Result<Vec<String>, Error> {
    let Some(mut baseline) = active.store.load_baseline(&active.project)? else {
        return Ok(Vec::new());
    };
    let mut accepted = Vec::new();
    for resolved in &mut baseline.js_configs {
        let named: Vec<String> = resolved
            .files
            .iter()
            .filter(|f| all || wanted.contains(f))
            .cloned()
            .collect();
        if !named.is_empty() {
            resolved.accept(&active.project.root);
            accepted.extend(named.into_iter().filter(|f| active.project.root.join(f).exists()));
        }
    }
    if !accepted.is_empty() {
        active.store.save_baseline(&active.project, &baseline)?;
    }
    Ok(accepted)
}

/// Where the user accepted a manifest or a build script (or everything), the next promise takes the features the
/// tests are built with afresh (`closure::built_features`): the reading runs build scripts, so it is only ever
/// taken where the oracle's run stands, never here.
fn retake_built_features(active: &ActiveLoop, all: bool, wanted: &[String]) -> Result<(), Error> {
    let Some(mut baseline) = active.store.load_baseline(&active.project)? else {
        return Ok(());
    };
    let Some(features) = baseline.built_features.as_mut() else {
        return Ok(());
    };
    if all
        || wanted
            .iter()
            .any(|path| crate::closure::built_features::Features::retaken_by(path))
    {
        features.retake = true;
        active.store.save_baseline(&active.project, &baseline)?;
    }
    Ok(())
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

/// A path as the seal names it: relative to the project root with `/`, or absolute outside the project.
fn key(root: &Path, cwd: &Path, path: &Path) -> String {
    let absolute = crate::guard::lexical_path(&cwd.join(path));
    let root = crate::guard::lexical_path(root);
    let key = absolute.strip_prefix(&root).map_or(absolute.as_path(), |rel| rel);
    key.to_string_lossy().replace('\\', "/")
}
