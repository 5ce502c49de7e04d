//! The held-out run (see `crate::holdout`): after the sealed verify passes at a promise, the same command runs
//! once more in the private copy with the held-out tests present. A pass of both completes the loop.
//!
//! Its output never reaches the model: the verdict is read from the runners' per-test results (the same
//! `readout` readers as the oracle's run), and a failure becomes a note that counts the failing held-out tests
//! and says nothing else — no name, no assertion text, no output tail. The full log is private (`loopgate
//! status` names the failing tests and the log), and so is the run's temporary directory: a scratch of its own
//! under the held-out store, removed after it. The agent's world hides that store whole (`plane::HOLDOUT_DIR`).
//!
//! Which tests are held-out is learned at setup, as the baseline is (`ARCHITECTURE.md`, "Oracle integrity",
//! principle 1): the held-out set runs once in the private copy, and the tests it reports that the visible
//! baseline did not are the held-out tests. At a promise each of them must run again and pass: one that did
//! not run is a failure, not a pass.

use std::ffi::OsString;
use std::time::Duration;

use super::run::{Counted, run_counted};
use crate::error::Error;
use crate::fsutil::scratch::Scratch;
use crate::holdout::{self, LastRun, copy};
use crate::lifecycle::ActiveLoop;
use crate::readout::{TestOutcome, TestResults};
use crate::schema::Holdout;
use crate::testjudge::baseline::Baseline;
use crate::verify::{LiveLine, VerifyRequest};

/// Runs the verify command in the private copy with the held-out tests; the names-only note when they fail.
pub(super) fn judge(
    active: &ActiveLoop,
    plan: &crate::testswap::Plan,
    command: &str,
    iteration: u64,
) -> Result<Option<String>, Error> {
    let Some(holdout) = &active.seal.holdout else {
        return Ok(None);
    };
    let fields = &active.seal.fields;
    let overlay = copy::Overlay {
        sealed: (plan.restore.iter().copied())
            .chain(plan.cut.iter().map(|(path, content)| (path.as_str(), content.as_str())))
            .collect(),
        left_out: plan.aside.clone(),
        held_out: holdout::sources(holdout).to_vec(),
    };
    let log = holdout::log_path(holdout, &fields.config.loop_id, iteration);
    // The room's environment and private caches, as for the visible run (a cache of the tree's builds stays the
    // copy's own: `room::caches::PER_TREE`).
    let room = super::world::in_room(active)?;
    let counted = run_in(
        &active.project.root,
        holdout,
        &overlay,
        command,
        &log,
        fields.config.verify.verify_timeout,
        room.as_ref().map(|r| (r.env.as_slice(), r.room.dir())),
    )?;
    let baseline = holdout::load_baseline(holdout).unwrap_or_default();
    let mut failing = failing(&baseline, &counted.results);
    if failing.is_empty() && !counted.outcome.passed() {
        failing = named_in_output(&counted.outcome.output_text());
    }
    let passed = counted.outcome.passed() && failing.is_empty();
    let last = LastRun {
        iteration,
        passed,
        failing: failing.clone(),
        duration_ms: u64::try_from(counted.outcome.duration.as_millis()).unwrap_or(u64::MAX),
        log,
    };
    holdout::save_last(holdout, &last)?;
    if passed {
        return Ok(None);
    }
    let exit = match counted.outcome.exit_code {
        _ if counted.outcome.timed_out => "timed out".to_string(),
        Some(code) => format!("exit {code}"),
        None => "killed".to_string(),
    };
    Ok(Some(crate::messages::holdout::failed(
        fields.config.lang,
        &failing,
        &exit,
    )))
}

/// The held-out run at setup, in the private copy: records which held-out tests exist and how they ended
/// (those the visible `visible` baseline did not report). `budget` as for the visible baseline.
pub(crate) fn baseline(
    project: &crate::project::Project,
    holdout: &Holdout,
    command: &str,
    loop_id: &str,
    timeout: u64,
    visible: Option<&Baseline>,
    room: Option<(&[(OsString, OsString)], std::path::PathBuf)>,
) -> Result<Baseline, Error> {
    let overlay = copy::Overlay {
        sealed: Vec::new(),
        left_out: Vec::new(),
        held_out: holdout::sources(holdout).to_vec(),
    };
    let log = holdout::log_path(holdout, loop_id, 0);
    let room = room.as_ref().map(|(env, dir)| (*env, dir.as_path()));
    let counted = run_in(&project.root, holdout, &overlay, command, &log, timeout, room)?;
    let mut results = TestResults::default();
    for (name, &outcome) in &counted.results.tests {
        if visible.is_none_or(|v| !v.results.tests.contains_key(name)) {
            results.record(name, outcome);
        }
    }
    let o = &counted.outcome;
    let baseline = Baseline::of_run(
        0,
        o.exit_code,
        o.timed_out,
        u64::try_from(o.duration.as_millis()).unwrap_or(u64::MAX),
        None,
        results,
    );
    holdout::save_baseline(holdout, &baseline)?;
    Ok(baseline)
}

/// The held-out tests that did not pass now: every one the setup run reported (a test that failed there
/// must pass now; one that did not run is a failure), and every test of this run that failed.
fn failing(baseline: &Baseline, now: &TestResults) -> Vec<String> {
    let mut out: Vec<String> = baseline
        .results
        .tests
        .keys()
        .filter(|name| now.get(name) != Some(TestOutcome::Passed))
        .cloned()
        .collect();
    out.extend(now.failing().map(str::to_string));
    out.sort();
    out.dedup();
    out
}

/// The failing tests a run that reported none by line still names in its output — `cargo test -q` prints no
/// `test NAME ... ok` lines but closes with its list of failures — when a known runner printed them: names only,
/// never the messages or error lines, and nothing from the generic reader, whose lines can be assertion text.
fn named_in_output(output: &str) -> Vec<String> {
    let summary = crate::readout::summarize(output);
    if summary.runner.is_none() {
        return Vec::new();
    }
    summary.failing_tests
}

/// The held-out run's scratch directory, under its store.
const SCRATCH: &str = "scratch";

/// Brings the private copy up to date and runs `command` in it, each cache of one tree's builds
/// (`room::caches::PER_TREE`) at a place of its own under [`copy::TARGET`].
fn run_in(
    root: &std::path::Path,
    holdout: &Holdout,
    overlay: &copy::Overlay,
    command: &str,
    log: &std::path::Path,
    timeout: u64,
    room: Option<(&[(OsString, OsString)], &std::path::Path)>,
) -> Result<Counted, Error> {
    let (env, room) = room.map_or((None, None), |(env, dir)| (Some(env), Some(dir)));
    let tree = copy::build(root, &holdout.dir, overlay).map_err(|source| Error::Io {
        action: "build the private copy for the held-out tests in",
        path: holdout.dir.join(copy::TREE),
        source,
    })?;
    let target_dir = holdout.dir.join(copy::TARGET);
    // The run's own scratch for temporary files, under the held-out store (which the agent's world hides) and
    // destroyed after it: never the shared temporary directory, where a test's source or output copied by the
    // code under test would wait for the agent.
    let scratch_dir = holdout.dir.join(SCRATCH);
    let scratch = Scratch::fresh(&scratch_dir).map_err(|source| Error::Io {
        action: "create the held-out run's scratch directory",
        path: scratch_dir,
        source,
    })?;
    let prefix = prefix(&target_dir, scratch.path());
    // The run may write its copy, its target, its scratch and the room whose caches the environment names —
    // nothing else: the code under test sits beside tests the agent must never read, and may not copy them where
    // the agent looks (the project, the shared temporary directory).
    std::fs::create_dir_all(&target_dir).map_err(|source| Error::Io {
        action: "create the held-out run's build places in",
        path: target_dir.clone(),
        source,
    })?;
    let mut writable = vec![tree.clone(), target_dir, scratch.path().to_path_buf()];
    writable.extend(room.map(std::path::Path::to_path_buf));
    let plane = crate::plane::Plane::only(&writable);
    let request = VerifyRequest {
        command,
        cwd: &tree,
        timeout: Duration::from_secs(timeout),
        log_path: log,
        prefix: &prefix,
        env,
        plane: Some(&plane),
        mount: None,
    };
    run_counted(&request, &LiveLine::start_quiet())
}

/// The `env` prefix of the held-out run: each cache of one tree's builds (`room::caches::PER_TREE`) at a place
/// of its own under `target_dir`, and the temporary directory at `scratch`.
fn prefix(target_dir: &std::path::Path, scratch: &std::path::Path) -> Vec<OsString> {
    let mut vars = std::collections::BTreeMap::new();
    for cache in crate::room::caches::PER_TREE {
        crate::room::caches::set(cache, &target_dir.join(cache.place), &mut vars);
    }
    for var in crate::room::caches::TEMPORARY {
        vars.insert(var.to_string(), scratch.as_os_str().to_owned());
    }
    let mut prefix = vec![OsString::from("env")];
    for (var, value) in vars {
        let mut assignment = OsString::from(format!("{var}="));
        assignment.push(value);
        prefix.push(assignment);
    }
    prefix
}

#[cfg(test)]
mod tests {
    use super::{named_in_output, prefix};

    /// Every cache of one tree's builds gets a place of its own under the held-out store, each a different one,
    /// and the temporary directory is the run's scratch.
    #[test]
    fn the_held_out_run_builds_in_places_of_its_own() {
        let caches = crate::room::caches::PER_TREE;
        assert!(!caches.is_empty());
        let words: Vec<String> = prefix("/store/target".as_ref(), "/store/scratch".as_ref())
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        assert_eq!(words[0], "env");
        assert!(
            words.contains(&"CARGO_TARGET_DIR=/store/target/cargo-target".to_string()),
            "{words:?}"
        );
        let mut places = std::collections::BTreeSet::new();
        for cache in caches {
            let place = format!("/store/target/{}", cache.place);
            assert!(places.insert(place.clone()), "two caches at {place}");
            for var in cache.vars {
                assert!(words.contains(&format!("{var}={place}")), "{var}: {words:?}");
            }
        }
        for var in ["TMPDIR", "TMP", "TEMP"] {
            assert!(words.contains(&format!("{var}=/store/scratch")), "{words:?}");
        }
    }

    #[test]
    fn a_quiet_cargo_run_names_its_failing_held_out_test_and_nothing_it_asserted() {
        let out = "\nrunning 1 test\n.\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n\
                   running 1 test\nadds_big --- FAILED\n\nfailures:\n\n---- adds_big stdout ----\n\n\
                   thread 'adds_big' (1) panicked at tests/acceptance_add.rs:3:5:\nassertion `left == right` failed\n  left: 7\n right: 8\n\n\
                   failures:\n    adds_big\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.15s\n\n\
                   error: test failed, to rerun pass `--test acceptance_add`\n";
        let names = named_in_output(out);
        assert_eq!(names, ["adds_big"]);
        // An output no runner is recognized in names nothing: its error lines may be the assertions.
        assert!(named_in_output("FAILED: expected 8 for (3, 5)\n").is_empty());
    }
}
