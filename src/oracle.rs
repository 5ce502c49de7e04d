//! Judging a claim: the sealed files first, then the sealed verify command — never what the state file says.
//!
//! The oracle's run is its stages, each a type in a file named after it, each handing the next what it built;
//! [`judge`] is their sequence and nothing else:
//!
//! 1. **The world** (`world.rs`, [`World`]): the places outside the project and what of them the run will not see
//!    (`world/outside.rs`), the room, its environment and plane (`world/room.rs`), the test side stood as sealed
//!    (`world/sealed.rs`), and the room's tree synced from the agent's tree. The sealed inputs are checked before
//!    it is built, so nothing is built for a claim whose oracle moved.
//! 2. **The run** (`run.rs`, [`Ran`]): where it stands, its trace, the verify command watched for the length of
//!    the run, and the test side put back after it. The baseline at setup (`baseline.rs`) runs through the same
//!    [`run::Stand`], [`run::Trace`] and [`run::run_counted`], so the two runs are comparable.
//! 3. **The verdict** (`verdict.rs`, [`Reading`]): the tests by name (the own report's, or the output's with the
//!    room's records), the summary, the score, and whether the run passed on its own terms.
//! 4. **The comparison** (`compare.rs`, [`Comparison`]): by name and by count against the baseline, the room's
//!    report, and where the test side was loaded from against the baseline's trace.
//!
//! Then, for a pass, the world is checked again ([`World::breach_after`]: nothing it held moved while the run
//! went on) and, at a promise, the held-out tests run (`holdout.rs`). A new check of a run's result belongs in
//! the stage whose value it reads: one that reads the run's output or report in `verdict`, one that holds the run
//! to something recorded at setup (the baseline, a recipe) in `compare`, one that reads what the world held in
//! `world`; each takes a pass away through [`Reading::fail`] and never gives one.

use crate::error::Error;
use crate::history::VerifyResult;
use crate::inputs::Inputs;
use crate::lifecycle::ActiveLoop;
use crate::messages;
use crate::readout::FailureSummary;
use crate::testjudge::baseline::Judged;
use crate::testjudge::ratchet;
use crate::verify::{LiveLine, VerifyOutcome};

mod baseline;
mod breach;
mod compare;
pub(crate) mod holdout;
pub(crate) mod own_report;
mod run;
mod steps;
mod verdict;
mod watch;
mod world;
pub(crate) use baseline::baseline;
pub(crate) use breach::Breach;
use compare::Comparison;
use run::Ran;
use verdict::Reading;
pub(crate) use world::room_plane;
use world::{Built, Outside, World};

/// How much of the output tail goes into a history record.
const HISTORY_TAIL_BYTES: usize = 2048;

/// One run of the verify command, with what was made of its output.
pub(crate) struct Run {
    pub command: String,
    pub outcome: VerifyOutcome,
    pub summary: FailureSummary,
    pub fingerprint: String,
    /// The score read with `--score-regex`, if any.
    pub score: Option<f64>,
    /// Whether the oracle passed: exit 0, and tests ran if required, and the score met if gated.
    pub passed: bool,
    /// Why an exit-0 run did not pass, or why a pass is suspicious; for the model and the user.
    pub note: Option<String>,
    /// What the run's test counts moved the wrong way (the count ratchet); a pass with any is not one.
    pub ratchet: Vec<ratchet::MovedCount>,
    /// The per-test verdict against the baseline (`Held` when the command failed anyway or the check is off).
    pub by_name: Judged,
    /// The held-out tests failed after this run passed (`note` counts them; see `oracle::holdout`).
    pub held_out_failed: bool,
    /// The agent's new test files (and new snapshots) that sat out this run in the stash (see `testswap`).
    pub sat_out: Vec<String>,
    /// Every test the run reported by name, with how it ended (`loopgate check` lists them against the base).
    pub results: crate::readout::TestResults,
}

/// The oracle's answer.
pub(crate) enum Verdict {
    /// No verify command is sealed: the loop runs on the honor system.
    Honor,
    /// The oracle's inputs moved (sealed files, the verify command's closure); the verify command did not run.
    SealBroken(Breach),
    Pass(Run),
    Fail(Run),
}

/// Who asked for the verdict; a self-check logs to its own file so it never overwrites the oracle's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Caller {
    StopHook,
    SelfCheck,
}

/// Checks the sealed files, then runs the sealed verify command for `iteration`: the stages in order (see the
/// module docs), each handing the next what it built.
pub(crate) fn judge(active: &ActiveLoop, iteration: u64, caller: Caller) -> Result<Verdict, Error> {
    let fields = &active.seal.fields;
    let Some(command) = fields.config.verify.verify_command.clone() else {
        return Ok(Verdict::Honor);
    };
    let root = &active.project.root;
    let checks = |check| fields.checks(check);
    // Loaded once: every check of this promise (before, as the run starts, after a pass) reads the same seal.
    let inputs = Inputs::load(active)?;
    let outside = Outside::load(active)?;
    // A changed step of the run (a `pretest`, a script's line running a program) is set aside, to be judged by
    // what its processes did in the run (`oracle::steps`), where the run can be traced.
    let traced = || crate::trace::Tracer::find().is_ok();
    let (moves, mut steps) = steps::Steps::set_aside(inputs.check(root, &checks)?, &inputs, root, traced);
    let before = outside.breach(moves, root);
    if !before.is_empty() {
        return Ok(Verdict::SealBroken(before));
    }
    let mut log_path = active.project.verify_log_path(&fields.config.loop_id, iteration);
    if caller == Caller::SelfCheck {
        log_path.set_extension("self-check.log");
    }
    // Rollback refuses while this marker is held (see `verify_lock`).
    let running = crate::verify_lock::VerifyRunning::mark(&active.project, &command);
    let progress = match caller {
        Caller::SelfCheck => LiveLine::start(&command),
        Caller::StopHook => LiveLine::start_quiet(),
    };
    // 1. Build the world.
    let world = match World::build(active, &inputs, &outside)? {
        Built::Ready(world) => world,
        Built::Moved(breach) => return Ok(Verdict::SealBroken(breach)),
    };
    // Make is judged by what it will run, a runner's configuration file of code by what it resolves to: asked
    // where the run will stand.
    let resolved = world.resolved_moved(active, &inputs, &command, &log_path)?;
    let mut resolved_moved = resolved.moved;
    // A step new in make's run (`test: vet`) is set aside as a changed `pretest` is, where the run can be traced.
    resolved_moved.extend(steps.add(resolved.steps, traced));
    if !resolved_moved.is_empty() {
        progress.finish();
        world.put_back(active)?;
        return Ok(Verdict::SealBroken(Breach::of(resolved_moved, root)));
    }
    // 2. Run in it (the test side is put back when this returns, whatever the run did).
    let ran = Ran::in_world(active, &inputs, &steps, &world, &command, &log_path, &progress);
    progress.finish();
    drop(running);
    let Ran {
        counted,
        moved,
        own_report,
        observed,
        trace,
        kept,
    } = ran?;
    // Where make remade a makefile, the run's make read what its dry run did.
    if let Some(remade) = &resolved.remade {
        let moved = world.remade_moved(active, &command, &log_path, remade);
        if !moved.is_empty() {
            return Ok(Verdict::SealBroken(Breach {
                during_run: true,
                ..Breach::of(moved, root)
            }));
        }
    }
    // A step set aside is free only when its processes fed the rest of the run nothing.
    let mut stepped = steps::Stepped::default();
    if !steps.is_empty() {
        let binaries = outside.snapshot().map(|s| s.binaries.as_slice()).unwrap_or_default();
        let program = |ran: &std::path::Path| world.program(ran, binaries);
        let as_the_agents = |path: &std::path::Path| world.as_the_agents(root, path);
        let existence_free = |path: &std::path::Path| world.existence_free(&inputs, root, path);
        let compiled =
            |files: &[steps::ReadBytecode]| world.compiled(active, &command, &log_path, kept.as_ref(), files);
        let beside = steps::Beside {
            filled: steps::Filled {
                caches: world.filled(),
                program: &program,
            },
            as_the_agents: &as_the_agents,
            existence_free: &existence_free,
            compiled: &compiled,
        };
        let procs = world.stand(root).processes(&trace);
        let fed = steps.judge(&procs, trace.path(), root, &beside);
        if !fed.is_empty() {
            return Ok(Verdict::SealBroken(outside.breach(fed, root)));
        }
        stepped = steps.stepped(&procs, root);
    }
    // 3. Read the verdict.
    let mut reading = Reading::of(
        active,
        &world,
        &counted.outcome,
        counted.counts,
        counted.results,
        own_report.as_ref(),
    );
    // 4. Compare with the baseline.
    let traced = observed.map(|observed| (observed, &trace, &stepped.pids));
    let compared = Comparison::with_baseline(active, iteration, &world, traced, &mut reading)?;
    if reading.passed {
        let after = world.breach_after(&inputs, &outside, (&steps, &stepped.wrote), root, &checks, moved)?;
        if !after.is_empty() {
            return Ok(Verdict::SealBroken(after));
        }
    }
    let mut run = Run {
        command,
        outcome: counted.outcome,
        summary: reading.summary,
        fingerprint: reading.fingerprint,
        score: reading.score,
        passed: reading.passed,
        note: reading.note,
        ratchet: compared.ratchet,
        by_name: compared.by_name,
        held_out_failed: false,
        sat_out: world.sealed.sat_out.clone(),
        results: reading.results,
    };
    // At a promise only: a self-check (`loopgate verify`) would let the agent probe them without a rejection.
    if run.passed
        && caller == Caller::StopHook
        && let Some(note) = holdout::judge(active, &world::plan(active, &inputs), &run.command, iteration)?
    {
        // A count only: the note is all the model learns of the held-out run (its output stays in a private log).
        run.passed = false;
        run.held_out_failed = true;
        run.fingerprint = crate::readout::fingerprint_of(&FailureSummary::default(), &note);
        run.note = Some(note);
    }
    Ok(if run.passed {
        Verdict::Pass(run)
    } else {
        Verdict::Fail(run)
    })
}

/// Everything that moved in the oracle's inputs since setup (or since the user last accepted it).
pub(crate) fn breach(active: &ActiveLoop) -> Result<Breach, Error> {
    let fields = &active.seal.fields;
    let root = &active.project.root;
    let moves = Inputs::load(active)?.check(root, &|check| fields.checks(check))?;
    Ok(Outside::load(active)?.breach(moves, root))
}

impl Run {
    /// `exit 101 after 3.2s`, `timed out after 600s`, `killed by signal 9 after 1.0s`, plus the score if any.
    pub(crate) fn result_text(&self, lang: crate::schema::Speech) -> String {
        let o = &self.outcome;
        let how = if o.timed_out {
            messages::Ended::TimedOut
        } else if let Some(signal) = o.signal {
            messages::Ended::Signal(signal)
        } else {
            messages::Ended::Exit(o.exit_code.unwrap_or(-1))
        };
        messages::verify_result(lang, how, o.duration.as_secs_f64(), self.score)
    }

    /// Records this run's test counts in the loop's ratchet (every verify counts, a failing one too) and as the
    /// last counts seen (what `loopgate allow --counts` accepts).
    pub(crate) fn record_counts(&self, progress: &mut crate::state::LoopProgress) {
        let counts = self.summary.counts;
        let outcome = if self.outcome.passed() {
            ratchet::RunVerdict::Passed
        } else {
            ratchet::RunVerdict::Failed
        };
        progress.counts.counts_best.record(counts, outcome);
        progress.counts.last_counts = counts.or(progress.counts.last_counts);
    }

    /// The verify facts as the history records them.
    pub(crate) fn result(&self) -> VerifyResult {
        let o = &self.outcome;
        let tail = String::from_utf8_lossy(&o.tail);
        let cut = tail.len().saturating_sub(HISTORY_TAIL_BYTES);
        let cut = (cut..tail.len())
            .find(|&i| tail.is_char_boundary(i))
            .unwrap_or(tail.len());
        VerifyResult {
            passed: self.passed,
            exit: o.exit_code,
            signal: o.signal,
            timed_out: o.timed_out,
            duration_ms: Some(u64::try_from(o.duration.as_millis()).unwrap_or(u64::MAX)),
            tail: Some(tail[cut..].to_string()),
            fingerprint: Some(self.fingerprint.clone()),
            summary: Some(self.summary.text.clone()),
            log: Some(o.log_path.to_string_lossy().into_owned()),
            zero_tests: Some(self.summary.zero_tests),
            score: self.score,
            note: self.note.clone(),
            counts: self.summary.counts,
            ratchet: Some(self.ratchet.clone()),
            sealed_changes: None,
        }
    }
}
