//! Judging a claim: the sealed files first, then the sealed verify command — never what the state file says.

use std::ffi::OsString;
use std::time::Duration;

use crate::closure::observed::Observed;
use crate::error::Error;
use crate::history::VerifyResult;
use crate::inputs::{Inputs, Move};
use crate::lifecycle::ActiveLoop;
use crate::messages;
use crate::readout::{self, FailureSummary};
use crate::room::{Recorded, Room};
use crate::schema::Check;
use crate::seal::FileChange;
use crate::state::StateFields;
use crate::testjudge::baseline::{Baseline, Judged};
use crate::testjudge::ratchet;
use crate::testswap::Copies;
use crate::verify::{self, LiveLine, VerifyOutcome, VerifyRequest};

mod breach;
pub(crate) mod holdout;
pub(crate) mod own_report;
mod watch;
pub(crate) use breach::Breach;

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

/// Checks the sealed files, then runs the sealed verify command for `iteration`.
pub(crate) fn judge(active: &ActiveLoop, iteration: u64, caller: Caller) -> Result<Verdict, Error> {
    let fields = &active.seal.fields;
    let Some(command) = fields.config.verify.verify_command.clone() else {
        return Ok(Verdict::Honor);
    };
    // Loaded once: every check of this promise (before, as the run starts, after a pass) reads the same seal.
    let inputs = Inputs::load(active)?;
    let root = &active.project.root;
    let checks = |check| fields.checks(check);
    let snapshot = store_snapshot(active)?;
    let covered = covered_outside(active, snapshot.as_ref())?;
    let before = Breach::of(not_covered(inputs.check(root, &checks)?, &covered), root);
    if !before.is_empty() {
        return Ok(Verdict::SealBroken(before));
    }
    let mut log_path = active.project.verify_log_path(&fields.config.loop_id, iteration);
    if caller == Caller::SelfCheck {
        log_path.set_extension("self-check.log");
    }
    let mut room = in_room(active)?;
    let mut plane = room.as_ref().map(|r| room_plane(r.room.dir()));
    // Rollback refuses while this marker is held (see `verify_lock`).
    let running = crate::verify_lock::VerifyRunning::mark(&active.project, &command);
    let progress = match caller {
        Caller::SelfCheck => LiveLine::start(&command),
        Caller::StopHook => LiveLine::start_quiet(),
    };
    let (copies, sat_out, unstored) = stand_as_sealed(active, &inputs)?;
    let put_back_tests = || match &unstored {
        Some(journal) => crate::testswap::put_back(root, &journal.moved).map_err(|source| Error::Io {
            action: "put back the test files set aside for the oracle's run under",
            path: crate::testswap::stash_dir(root),
            source,
        }),
        None => active.put_back_tests(),
    };
    // The room's tree is synced once the test side stands as sealed, so it holds the tests as sealed too.
    let tree = match room.as_ref().map(|r| r.tree(active, snapshot.as_ref())).transpose() {
        Ok(tree) => tree.flatten(),
        Err(err) => {
            let _ = put_back_tests();
            return Err(err);
        }
    };
    // What the baseline read outside the project and this run cannot read from the snapshot (no mount
    // namespace here, a file held by stat alone) is compared by content: what differs is named, not run on.
    let presented = |tree: &Option<(crate::room::Placed, crate::room::tree::Done)>| -> Vec<std::path::PathBuf> {
        tree.iter()
            .flat_map(|(placed, _)| placed.presented().to_vec())
            .collect()
    };
    let snapshot_moved = |presented: &[std::path::PathBuf]| -> Vec<Move> {
        let presented = presented.iter().map(std::path::PathBuf::as_path).collect();
        snapshot
            .iter()
            .flat_map(|s| s.changed(&presented))
            .map(|path| Move::File(FileChange::Changed(path)))
            .collect()
    };
    let presented = presented(&tree);
    let unpresented = snapshot_moved(&presented);
    if !unpresented.is_empty() {
        progress.finish();
        put_back_tests()?;
        return Ok(Verdict::SealBroken(Breach::of(unpresented, root)));
    }
    // Where the baseline was traced, the promise run is traced too, so where it loads the test side from can
    // be compared with the baseline's (see `closure::resolved`).
    let resolution = inputs
        .observed
        .as_ref()
        .filter(|o| !o.loaded.is_empty() && fields.checks(Check::Closure))
        .and_then(|o| Some((o, crate::trace::Tracer::find().ok()?)));
    // As at the baseline, in the room's tree the project's `.claude/` is not there: the tracer writes to the room.
    let trace_path = match (&tree, &room) {
        (Some((placed, _)), Some(r)) => placed.in_room(r.room.dir(), "promise.trace"),
        _ => log_path.with_extension("trace"),
    };
    if let (Some((placed, _)), Some(r), Some(plane)) = (&tree, &mut room, &mut plane) {
        placed.confine(root, &mut r.env, plane);
    }
    let prefix = resolution
        .as_ref()
        .map(|(_, tracer)| tracer.prefix(&trace_path))
        .unwrap_or_default();
    let request = VerifyRequest {
        command: &command,
        cwd: tree
            .as_ref()
            .map_or(&active.project.root, |(placed, _)| placed.cwd(&active.project.root)),
        timeout: Duration::from_secs(fields.config.verify.verify_timeout),
        log_path: &log_path,
        prefix: &prefix,
        env: room.as_ref().map(|r| r.env.as_slice()),
        plane: plane.as_ref(),
        mount: tree.as_ref().and_then(|(placed, _)| placed.mount()),
    };
    // The verify command's own report (`--report`): only what this run writes there is read.
    let own_report = fields
        .config
        .verify
        .report
        .as_ref()
        .map(|report| own_report::OwnReport::at(report, root, tree.as_ref().map(|(placed, _)| placed)));
    if let Some(Err(err)) = own_report.as_ref().map(own_report::OwnReport::clear) {
        let _ = put_back_tests();
        return Err(err);
    }
    let watch = watch::Watch::start(root, inputs.watched(root, &checks));
    // A change made after the checks above but before the watch began (by a process waiting for the verify to
    // start) is still there to see now; from here on the watch sees every change.
    let unwatched = unwatched_changes(&inputs, root, &checks, copies);
    let counted = run_counted(&request, &progress);
    let mut moved_during_run = watch.map(watch::Watch::finish).unwrap_or_default();
    let put_back = put_back_tests();
    progress.finish();
    drop(running);
    let counted = counted?;
    put_back?;
    moved_during_run.extend(unwatched?);
    // In the copy at its own path nothing binds the sealed files read-only: one the run wrote counts as moved.
    moved_during_run.extend(tree.iter().flat_map(|(placed, _)| placed.sealed_written()));
    moved_during_run.sort();
    moved_during_run.dedup();
    let Counted {
        outcome,
        counts,
        results,
    } = counted;
    // With `--report`, the names are the report's, not the output's; the room's records of the run (the start
    // hooks' events, PHPUnit's own reports, GoogleTest's) add those of runners whose output names only failures.
    let (results, own_problem) = match &own_report {
        Some(own) => own.read(),
        None => {
            let mut results = results;
            if let Some(r) = &room {
                let runners = active.seal.closure.as_ref().map_or(&[][..], |c| c.runners.as_slice());
                r.room.add_named(runners, &mut results);
            }
            (results, None)
        }
    };
    let text = outcome.output_text();
    let mut summary = readout::summarize(&text);
    summary.counts = counts;
    let fingerprint = readout::fingerprint_of(&summary, &text);
    let score = fields
        .config
        .verify
        .score
        .as_ref()
        .and_then(|gate| gate.extract(text.as_bytes()));
    let (mut passed, mut note) = assess(fields, &outcome, &summary, score);
    if let (Some(problem), Some(own)) = (&own_problem, &own_report)
        && passed
        && fields.checks(Check::ByName)
    {
        passed = false;
        note = Some(messages::room::own_report_problem(
            fields.config.lang,
            problem,
            &own.shown,
        ));
    }
    // By name first: where both see a pass fall short, the names say exactly what moved; the totals are the
    // fallback for runners that print none.
    let by_name = if fields.checks(Check::ByName) {
        by_name(active, iteration, passed, summary.counts, &results)?
    } else {
        Judged::Held
    };
    let ratchet = if passed && by_name == Judged::Held && fields.checks(Check::Counts) {
        fields.progress.counts.counts_best.check(summary.counts)
    } else {
        Vec::new()
    };
    match &by_name {
        Judged::Held if ratchet.is_empty() => {}
        Judged::Held => {
            passed = false;
            note = Some(messages::counts_regressed(
                fields.config.lang,
                &messages::counts_moved(fields.config.lang, &ratchet),
            ));
        }
        Judged::Short(short) => {
            passed = false;
            note = Some(messages::baseline::short(fields.config.lang, short));
        }
        Judged::NoResults => {
            passed = false;
            note = Some(messages::baseline::no_results(fields.config.lang));
        }
    }
    // Where the baseline showed pytest's report or the start hooks' events can be read, a pass (by exit, names
    // and counts) must hold in them too (see `room::report`); part of the per-test verdict (`--no-test-verdict`
    // turns both off).
    let by_report = room.as_ref().filter(|_| passed && fields.checks(Check::ByName));
    if let Some((problem, who)) = by_report.and_then(|r| r.recorded.report_problem(&r.room, &results)) {
        passed = false;
        note = Some(messages::room::report_problem(fields.config.lang, &problem, &who));
    }
    if let Some((observed, _)) = resolution.as_ref().filter(|_| passed) {
        let moved = tree.as_ref().and_then(|(placed, _)| placed.moved());
        let events = crate::trace::read_moved(&trace_path, root, moved);
        let pycache = crate::closure::resolved::pycache_prefix(request.env);
        let redirects = crate::closure::resolved::redirects(&observed.loaded, &events, root, pycache.as_deref());
        if !redirects.is_empty() {
            passed = false;
            note = Some(messages::room::redirected(fields.config.lang, &redirects));
        }
    }
    if resolution.is_some() {
        let _ = std::fs::remove_file(&trace_path);
    }
    let (left_out, unseen) = tree
        .map(|(_, done)| {
            let unseen: Vec<String> = done
                .outside
                .cover
                .iter()
                .map(|(path, _)| path.display().to_string())
                .collect();
            (done.left_out, unseen)
        })
        .unwrap_or_default();
    if !passed {
        let lang = fields.config.lang;
        let said = [
            (!left_out.is_empty()).then(|| messages::room::left_out(lang, &left_out)),
            (!unseen.is_empty()).then(|| messages::room::covered_outside(lang, &unseen)),
        ];
        for said in said.into_iter().flatten() {
            note = Some(note.map_or_else(|| said.clone(), |note| format!("{note}\n{said}")));
        }
    }
    let mut run = Run {
        command,
        outcome,
        summary,
        fingerprint,
        score,
        passed,
        note,
        ratchet,
        by_name,
        held_out_failed: false,
        sat_out,
        results,
    };
    if run.passed {
        // Nothing the oracle read may have moved while it ran: seen by the watch (even if put back before the
        // run ended), or still different afterwards (a build script or a process left running).
        let mut moves = inputs.check(root, &checks)?;
        moves.extend(snapshot_moved(&presented));
        let seen: Vec<Move> = moved_during_run
            .into_iter()
            .filter(|path| !moves.iter().any(|m| m.path() == path))
            .map(|path| Move::File(FileChange::Changed(path)))
            .collect();
        moves.extend(seen);
        let after = Breach::of(not_covered(moves, &covered), root);
        if !after.is_empty() {
            return Ok(Verdict::SealBroken(Breach {
                during_run: true,
                ..after
            }));
        }
    }
    // At a promise only: a self-check (`loopgate verify`) would let the agent probe them without a rejection.
    if run.passed
        && caller == Caller::StopHook
        && let Some(note) = holdout::judge(active, &plan(active, &inputs), &run.command, iteration)?
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

/// Makes the test side stand as sealed for the run (see `testswap`): existing test files and their data as
/// sealed, the agent's new test files and snapshots aside. The caller puts them back with `put_back_tests`,
/// whatever the run did. Returns the copies that stand in the run (none when existing tests run as edited), and
/// the new files set aside, and the journal of the moves where the store could not keep it.
///
/// The store keeps the journal so that a run killed midway is put back at the next stop. Where this process
/// cannot write the store (the agent's own `loopgate verify` in its world, see `confine::world`), the journal
/// stays in this process, which puts the files back itself.
fn stand_as_sealed<'a>(active: &ActiveLoop, inputs: &'a Inputs) -> Result<StoodAsSealed<'a>, Error> {
    active.put_back_tests()?;
    let fields = &active.seal.fields;
    let (store, project) = (&active.store, &active.project);
    let copies = &inputs.data.copies;
    let plan = plan(active, inputs);
    let mut unstored = None;
    if !plan.is_empty() {
        let keeps = store.writable();
        let journal = crate::testswap::swap(&project.root, &plan, |journal| {
            if !keeps {
                return Ok(());
            }
            store
                .save_companion(project, crate::seal::SWAP_JOURNAL, journal)
                .map_err(std::io::Error::other)
        })
        .map_err(|source| Error::Io {
            action: "set the test files aside for the oracle's run under",
            path: crate::testswap::stash_dir(&project.root),
            source,
        })?;
        unstored = (!keeps).then_some(journal);
    }
    Ok((fields.checks(Check::Tests).then_some(copies), plan.aside, unstored))
}

/// What [`stand_as_sealed`] returns: the copies that stand in the run, the new files set aside, and the journal
/// this process keeps where the store could not.
type StoodAsSealed<'a> = (Option<&'a Copies>, Vec<String>, Option<crate::testswap::Journal>);

/// What stands as sealed in the oracle's runs: the existing test files that differ from their seal, and the
/// agent's new test files and snapshots that sit out (see `testswap`), with the new `conftest.py` files beside
/// them that the promise's check lets through ([`Inputs::new_files_aside`]).
fn plan<'a>(active: &ActiveLoop, inputs: &'a Inputs) -> crate::testswap::Plan<'a> {
    let fields = &active.seal.fields;
    let project = &active.project;
    let copies = &inputs.data.copies;
    crate::testswap::Plan {
        restore: if fields.checks(Check::Tests) {
            crate::testswap::changed(&project.root, copies)
        } else {
            Vec::new()
        },
        aside: {
            let mut aside = match &inputs.tests.inventory {
                Some(inventory) if fields.checks(Check::NewTestsAside) => {
                    let mut aside = inventory.new_test_files(&project.root);
                    aside.extend(copies.new_snapshots(&project.root));
                    aside
                }
                _ => Vec::new(),
            };
            aside.extend(inputs.new_files_aside(&project.root, &|check| fields.checks(check)));
            aside
        },
    }
}

/// The sealed inputs that differ, just before the run, from what it must see: the test side as it stands
/// sealed (`copies`), and everything [`Inputs::check`] reports.
fn unwatched_changes(
    inputs: &Inputs,
    root: &std::path::Path,
    checks: crate::inputs::Checks,
    copies: Option<&Copies>,
) -> Result<Vec<String>, Error> {
    let late = inputs.check(root, checks)?;
    let standing = copies
        .map(|copies| crate::testswap::changed(root, copies))
        .unwrap_or_default();
    let mut paths: Vec<String> = late
        .iter()
        .map(|m| m.path().to_string())
        .chain(standing.into_iter().map(|(path, _)| path.to_string()))
        .collect();
    paths.sort();
    paths.dedup();
    Ok(paths)
}

/// An oracle run's room: the run's environment, the room it writes to, what setup recorded; a room made for
/// this run alone is removed when this is dropped.
pub(crate) struct InRoom {
    pub(crate) env: crate::room::Env,
    pub(crate) room: Room,
    recorded: Recorded,
    _throwaway: Option<crate::room::Throwaway>,
}

/// The environment of an oracle run in the loop's room (see `room`): the baseline's variables and the private
/// caches, with the run's own room where the loop's cannot be written (kept until the run ends). `None` for a
/// loop set up before the room existed: it runs as it always did.
pub(crate) fn in_room(active: &ActiveLoop) -> Result<Option<InRoom>, Error> {
    let (store, project) = (&active.store, &active.project);
    let Some(recorded) = store.load_companion::<Recorded>(project, crate::seal::ROOM)? else {
        return Ok(None);
    };
    let dir = store.room_dir(project);
    let (room, throwaway) = Room::at(dir.clone()).ready(&recorded).map_err(|source| Error::Io {
        action: "prepare the oracle's room",
        path: dir,
        source,
    })?;
    Ok(Some(InRoom {
        env: room.env(&recorded, |name| std::env::var_os(name)),
        room,
        recorded,
        _throwaway: throwaway,
    }))
}

impl InRoom {
    /// The room's tree for this run, synced from the project as it stands now, where the loop's runs stand in it
    /// (see `room::tree`, mounted or copied); `None` where they stand in the project's own tree.
    fn tree(
        &self,
        active: &ActiveLoop,
        snapshot: Option<&crate::room::snapshot::Snapshot>,
    ) -> Result<Option<(crate::room::Placed, crate::room::tree::Done)>, Error> {
        // A process that cannot enter a namespace now (`loopgate verify` inside Claude Code's sandbox, which
        // allows none) runs in the project's own tree, as where setup found none; the Stop hook runs outside it.
        let state = self.recorded.tree.as_ref();
        if !crate::room::TreeState::in_tree(state)
            || (state == Some(&crate::room::TreeState::Mounted) && crate::room::mount::probe().is_err())
        {
            return Ok(None);
        }
        let (store, project) = (&active.store, &active.project);
        let Some(mut synced) = store.load_companion::<crate::room::Synced>(project, crate::seal::ROOM_TREE)? else {
            return Ok(None);
        };
        let known = synced.files.len();
        let placed = self
            .room
            .place_tree(
                state,
                &project.root,
                &self.recorded.vars,
                &mut synced,
                snapshot,
                &self.room.fresh_caches(&self.recorded),
            )
            .map_err(|source| Error::Io {
                action: "sync the oracle's tree in",
                path: self.room.dir().to_path_buf(),
                source,
            })?;
        // Written only when the sync changed it (a warm promise writes nothing), and best effort: a manifest not
        // saved (a seal store the process cannot write) only makes the next sync copy more, since a file is
        // skipped only when both it and its copy are as the manifest says.
        if let Some((_, done)) = &placed
            && (done.copied > 0 || done.removed > 0 || synced.files.len() != known)
        {
            let _ = store.save_companion(project, crate::seal::ROOM_TREE, &synced);
        }
        Ok(placed)
    }
}

/// What an oracle run in the room at `dir` may not write: loopgate's control plane, but for the room itself
/// (its private caches and temporary directory live under loopgate's home).
///
/// The room's tree gets a rule of its own: mounted over the project, it is reached through the project's path, and
/// Landlock never looks at the directory a mount hides, so the project's rule no longer covers it.
pub(crate) fn room_plane(dir: &std::path::Path) -> crate::plane::Plane {
    let mut plane = crate::plane::Plane::for_home();
    plane.allow(dir);
    plane.allow(&dir.join(crate::room::tree::PLACE));
    plane
}

/// A verify run with the counts and names its runners reported.
struct Counted {
    outcome: VerifyOutcome,
    counts: Option<crate::readout::TestCounts>,
    results: crate::readout::TestResults,
}

/// Runs the verify command, reading the counts and test names from every line as the command prints it (the
/// kept output is only its head and tail, and a workspace's per-crate summaries can sit in the cut middle).
fn run_counted(request: &VerifyRequest, progress: &LiveLine) -> Result<Counted, Error> {
    let mut counter = readout::CountScanner::new();
    let outcome = verify::run_with_lines(request, &mut |line| {
        counter.feed_line(line);
        progress.line(line);
    })?;
    Ok(Counted {
        outcome,
        counts: counter.finish(),
        results: counter.into_results(),
    })
}

/// The baseline run at setup: the sealed verify command once, before the agent's first turn, kept test by
/// test (iteration 0; its log is the loop's `verify-…-0.log`) and traced where the platform allows, so the
/// oracle's inputs are what the run was seen to use (see `closure::observed`). `budget` (seconds) cuts a run
/// that would outlast the slash command's pre-executed block (see `commands::setup::SLASH_COMMAND_BUDGET`); a
/// cut baseline keeps no results, so the loop's first verify becomes the baseline (what its trace saw up to
/// the cut is still sealed: everything in it was really used). A command that cannot start at all (not found,
/// not executable: `VerifyOutcome::could_not_start`) is refused here, with the shell's own line: such a loop
/// could never pass. Returned beside the run: what its trace read outside the project, for the snapshot
/// (`room::snapshot::candidates`).
pub(crate) fn baseline(
    project: &crate::project::Project,
    fields: &StateFields,
    budget: Option<u64>,
    derived: Option<&crate::closure::Closure>,
    env: Option<&[(OsString, OsString)]>,
    plane: Option<&crate::plane::Plane>,
    placed: Option<(&crate::room::Placed, &std::path::Path)>,
) -> Result<Option<(Baseline, Observed, Vec<std::path::PathBuf>)>, Error> {
    let Some(command) = &fields.config.verify.verify_command else {
        return Ok(None);
    };
    let log_path = project.verify_log_path(&fields.config.loop_id, 0);
    // In the room's tree the project's `.claude/` is not there: the tracer writes to the room instead.
    let trace_path = placed.map_or_else(
        || log_path.with_extension("trace"),
        |(placed, room)| placed.in_room(room, "baseline.trace"),
    );
    let tracer = crate::trace::Tracer::find();
    let prefix = tracer.as_ref().map(|t| t.prefix(&trace_path)).unwrap_or_default();
    let timeout = budget.map_or(fields.config.verify.verify_timeout, |budget| {
        budget.min(fields.config.verify.verify_timeout)
    });
    let request = VerifyRequest {
        command,
        cwd: placed.map_or(&project.root, |(placed, _)| placed.cwd(&project.root)),
        timeout: Duration::from_secs(timeout),
        log_path: &log_path,
        prefix: &prefix,
        env,
        plane,
        mount: placed.and_then(|(placed, _)| placed.mount()),
    };
    let own_report = fields
        .config
        .verify
        .report
        .as_ref()
        .map(|report| own_report::OwnReport::at(report, &project.root, placed.map(|(placed, _)| placed)));
    if let Some(own) = &own_report {
        own.clear()?;
    }
    let progress = LiveLine::start(command);
    let counted = run_counted(&request, &progress);
    progress.finish();
    let mut read_outside = Vec::new();
    let observed = match tracer {
        Ok(_) => {
            let moved = placed.and_then(|(placed, _)| placed.moved());
            let events = crate::trace::read_moved(&trace_path, &project.root, moved);
            let _ = std::fs::remove_file(&trace_path);
            let home = std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(std::path::PathBuf::from);
            let mut observed = Observed::take(&events, &project.root, home.as_deref(), derived);
            let pycache = crate::closure::resolved::pycache_prefix(env);
            observed.loaded = crate::closure::resolved::test_side(&events, &project.root, pycache.as_deref());
            read_outside = crate::room::snapshot::candidates(&events, &project.root, &crate::project::loopgate_home());
            observed
        }
        Err(why) => Observed::unavailable(why),
    };
    let mut counted = counted?;
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
    if cut {
        baseline.cut = Some(timeout);
        baseline.counts = None;
        baseline.results = crate::readout::TestResults::default();
    }
    Ok(Some((baseline, observed, read_outside)))
}

/// Holds a run that `passed` so far to the baseline, test by name; a baseline without names (none taken at
/// setup, or its suite reported none) adopts this run's names first (see `crate::testjudge::baseline`).
fn by_name(
    active: &ActiveLoop,
    iteration: u64,
    passed: bool,
    counts: Option<crate::readout::TestCounts>,
    results: &crate::readout::TestResults,
) -> Result<Judged, Error> {
    let store = &active.store;
    let mut baseline = store.load_baseline(&active.project)?.unwrap_or_default();
    if baseline.adopt(iteration, counts, results) {
        // The agent's own `loopgate verify` cannot write the store: the next stop adopts it for the loop.
        if store.writable() {
            store.save_baseline(&active.project, &baseline)?;
        }
        return Ok(Judged::Held);
    }
    Ok(if passed {
        baseline.judge(counts, results)
    } else {
        Judged::Held
    })
}

/// Applies `--require-tests` and the score gate on top of the exit code.
fn assess(
    fields: &StateFields,
    outcome: &VerifyOutcome,
    summary: &FailureSummary,
    score: Option<f64>,
) -> (bool, Option<String>) {
    let lang = fields.config.lang;
    if !outcome.passed() {
        return (false, None);
    }
    if summary.zero_tests {
        let note = messages::no_tests_ran(lang, fields.config.verify.require_tests);
        if fields.config.verify.require_tests {
            return (false, Some(note));
        }
        return (score_met(fields, score).0, Some(note));
    }
    score_met(fields, score)
}

fn score_met(fields: &StateFields, score: Option<f64>) -> (bool, Option<String>) {
    let Some(gate) = &fields.config.verify.score else {
        return (true, None);
    };
    match score {
        Some(score) if gate.met(score) => (true, Some(messages::score_met(fields.config.lang, score, gate))),
        Some(score) => (false, Some(messages::score_below(fields.config.lang, score, gate))),
        None => (false, Some(messages::score_missing(fields.config.lang, gate))),
    }
}

/// Everything that moved in the oracle's inputs since setup (or since the user last accepted it).
pub(crate) fn breach(active: &ActiveLoop) -> Result<Breach, Error> {
    let fields = &active.seal.fields;
    let root = &active.project.root;
    let moves = Inputs::load(active)?.check(root, &|check| fields.checks(check))?;
    let snapshot = store_snapshot(active)?;
    Ok(Breach::of(
        not_covered(moves, &covered_outside(active, snapshot.as_ref())?),
        root,
    ))
}

/// What of the places outside the project the oracle's run will not see (`room::outside`): what was added there
/// since setup; and the paths it reads from the `snapshot` whatever they hold now (`room::snapshot`). Empty where the loop's runs do not stand in the mounted tree, or this process cannot enter it
/// (`loopgate verify` inside Claude Code's sandbox): there detection is all there is.
fn covered_outside(
    active: &ActiveLoop,
    snapshot: Option<&crate::room::snapshot::Snapshot>,
) -> Result<Vec<std::path::PathBuf>, Error> {
    let (store, project) = (&active.store, &active.project);
    let Some(recorded) = store.load_companion::<Recorded>(project, crate::seal::ROOM)? else {
        return Ok(Vec::new());
    };
    if recorded.tree != Some(crate::room::TreeState::Mounted) || crate::room::mount::probe().is_err() {
        return Ok(Vec::new());
    }
    let Some(synced) = store.load_companion::<crate::room::Synced>(project, crate::seal::ROOM_TREE)? else {
        return Ok(Vec::new());
    };
    let root = project.root.canonicalize().unwrap_or_else(|_| project.root.clone());
    let hidden = synced.outside.hidden(&recorded.vars, &root);
    let mut covered: Vec<std::path::PathBuf> = hidden.cover.into_iter().map(|(path, _)| path).collect();
    // What the snapshot presents, the run reads as the baseline did: a change there is no input of the run (a
    // file the snapshot cannot present after all is compared by content once the run's mounts are known).
    if crate::room::mount::Private::probe().is_ok()
        && let Some(snapshot) = snapshot
    {
        covered.extend(snapshot.files.keys().map(std::path::PathBuf::from));
    }
    Ok(covered)
}

/// The loop's snapshot of what the baseline read outside the project (`room::snapshot`), if setup took one.
fn store_snapshot(active: &ActiveLoop) -> Result<Option<crate::room::snapshot::Snapshot>, Error> {
    Ok(active
        .store
        .load_companion::<crate::room::snapshot::Snapshot>(&active.project, crate::seal::SNAPSHOT)?)
}

/// `moves` without those at or below a `covered` place: a file the run cannot see is no input of the oracle's,
/// and the user's machine changing (a new `~/.npmrc`, a `pip install --user`) must not fail a promise. A file
/// that existed at setup and changed is never covered, so it is still seen here.
fn not_covered(moves: Vec<Move>, covered: &[std::path::PathBuf]) -> Vec<Move> {
    moves
        .into_iter()
        .filter(|m| {
            let path = std::path::Path::new(m.path());
            !(path.is_absolute() && covered.iter().any(|place| path.starts_with(place)))
        })
        .collect()
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
