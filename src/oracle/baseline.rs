//! The baseline run at setup: the sealed verify command once, before the agent's first turn, run as a promise's
//! run is (`run`: the same stand, request, own report and trace) so that what they saw can be compared, and kept
//! test by test (`testjudge::baseline`) with what its trace saw it use (`closure::observed`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::run::{Stand, Trace, run_counted};
use crate::closure::observed::Observed;
use crate::error::Error;
use crate::state::StateFields;
use crate::testjudge::baseline::Baseline;
use crate::verify::LiveLine;

/// The baseline run at setup: iteration 0 (its log is the loop's `verify-…-0.log`), traced where the platform
/// allows, so the oracle's inputs are what the run was seen to use (see `closure::observed`). `budget` (seconds)
/// cuts a run that would outlast the slash command's pre-executed block (see
/// `commands::setup::SLASH_COMMAND_BUDGET`); a cut baseline keeps no results, so the loop's first verify becomes
/// the baseline (what its trace saw up to the cut is still sealed: everything in it was really used). A command
/// that cannot start at all (not found, not executable: `VerifyOutcome::could_not_start`) is refused here, with
/// the shell's own line: such a loop could never pass. Returned beside the run: what its trace read outside the
/// project and looked for there in vain, for the snapshot (`room::snapshot::Saw`).
pub(crate) fn baseline(
    project: &crate::project::Project,
    fields: &StateFields,
    budget: Option<u64>,
    derived: Option<&crate::closure::Closure>,
    env: Option<&[(OsString, OsString)]>,
    plane: Option<&crate::plane::Plane>,
    placed: Option<(&crate::room::Placed, &Path)>,
) -> Result<Option<(Baseline, Observed, crate::room::snapshot::Saw)>, Error> {
    let Some(command) = &fields.config.verify.verify_command else {
        return Ok(None);
    };
    let log_path = project.verify_log_path(&fields.config.loop_id, 0);
    let stand = Stand {
        root: &project.root,
        placed,
        env,
        plane,
    };
    let tracer = crate::trace::Tracer::find();
    let trace = Trace::new(&stand, &log_path, "baseline.trace", tracer.as_ref().ok());
    let timeout = budget.map_or(fields.config.verify.verify_timeout, |budget| {
        budget.min(fields.config.verify.verify_timeout)
    });
    let request = stand.request(command, Duration::from_secs(timeout), &log_path, &trace);
    let own_report = stand.own_report(fields);
    if let Some(own) = &own_report {
        own.clear()?;
    }
    // What make will run for the verify's goals, asked where the run stands (see `closure::make_plan`).
    // The names the tests read steer there too (`runner::steers_in`).
    let reads = derived.map(|closure| closure.reads.clone()).unwrap_or_default();
    let make = crate::closure::make_plan::record(&request, &reads);
    // What the runners resolve from their configuration files of code, asked the same way (see `closure::js_config`).
    let js_configs = derived.map_or_else(Vec::new, |closure| crate::closure::js_config::record(closure, &request));
    let progress = LiveLine::start(command);
    let counted = run_counted(&request, &progress);
    progress.finish();
    let mut saw_outside = crate::room::snapshot::Saw::default();
    let mut runner_version = None;
    let observed = match tracer {
        Ok(_) => {
            let mut events = stand.events(&trace, &Default::default());
            drop(trace);
            let pycache = crate::closure::resolved::pycache_prefix(env);
            // The room's own bytecode cache (never a prefix of the user's, a loop without a room, which is theirs).
            let room_pycache = pycache
                .as_deref()
                .filter(|p| p.starts_with(crate::project::loopgate_home()));
            if let Some(prefix) = room_pycache {
                events = crate::room::pycache::with_sources_read(prefix, events);
            }
            let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
            let mut observed = Observed::take(&events, &project.root, home.as_deref(), derived);
            observed.loaded = crate::closure::resolved::test_side(&events, &project.root, pycache.as_deref());
            // It starts with what this run loaded compiled afresh (see `room::pycache`).
            if let Some(prefix) = room_pycache {
                crate::room::pycache::seed(prefix, &events, &project.root, &crate::room::caches::seeds_dir());
            }
            // Which version of the runner ran: the snapshot holds it, so its resolution alone judges its configuration.
            let read = events.iter().filter(|e| e.access == crate::trace::Access::Read);
            runner_version = crate::closure::rootdir::ran(read.map(|e| e.path.as_path()));
            saw_outside = crate::room::snapshot::Saw::of(&events, &project.root, &crate::project::loopgate_home());
            observed
        }
        Err(why) => Observed::unavailable(why),
    };
    let mut counted = counted?;
    // The features and what the build scripts told rustc for the tests, asked the same way (see
    // `closure::built_features`), after the run: its build scripts' output is then the run's own, and the run's
    // trace saw them run and read what they read (asked before, the reading's untraced `cargo check` would have
    // run them and compiled the proc macros for it, out of the trace's sight). Where the build tool cannot answer,
    // setup says so in one line and the manifests' text alone judges the features, as before.
    let untraced = Trace::new(&stand, &log_path, "features.trace", None);
    let reading = stand.request(command, Duration::from_secs(timeout), &log_path, &untraced);
    let built_features = derived.and_then(|closure| {
        crate::closure::built_features::record(closure, &project.root, &reading).unwrap_or_else(|why| {
            eprintln!("loopgate: {why}");
            None
        })
    });
    if let Some(own) = &own_report {
        counted.results = own.read().0;
    }
    let o = &counted.outcome;
    if let Some(line) = o.could_not_start(command) {
        return Err(Error::Usage(format!(
            "verify command `{command}` cannot start: the shell said `{line}`; pass one that exists and is executable with `--verify` (a command that starts and fails is fine)"
        )));
    }
    let cut = o.timed_out && timeout < fields.config.verify.verify_timeout;
    let mut baseline = Baseline::of_run(
        0,
        o.exit_code,
        o.timed_out,
        u64::try_from(o.duration.as_millis()).unwrap_or(u64::MAX),
        counted.counts,
        counted.results,
    );
    baseline.make = make;
    baseline.js_configs = js_configs;
    baseline.built_features = built_features;
    baseline.runner_version = runner_version;
    if cut {
        baseline.cut = Some(timeout);
        baseline.counts = None;
        baseline.results = crate::readout::TestResults::default();
    }
    Ok(Some((baseline, observed, saw_outside)))
}
