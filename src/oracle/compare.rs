//! Comparing a run with the baseline, the last stage of the oracle's run (`oracle::judge`): the user's tests by
//! name (every baseline test ran again and passed, `testjudge::baseline`), the counts where no names are read
//! (`testjudge::ratchet`), the room's own records of the run (pytest's report, the start hooks' events: a pass
//! must hold in them too, `room::report`), and where the test side was loaded from (the promise's trace against
//! the baseline's, `closure::resolved`). A run that does not pass then says what the world left out of it.
//!
//! What it guarantees: a pass that survives this stage ran every test the baseline ran, as the baseline loaded
//! it, and each of them passed (principle 1); a pass taken away names exactly what fell short.

use std::collections::HashSet;

use super::run::{Stand, Trace};
use super::verdict::Reading;
use super::world::World;
use crate::closure::observed::Observed;
use crate::error::Error;
use crate::lifecycle::ActiveLoop;
use crate::messages;
use crate::readout::{TestCounts, TestResults};
use crate::schema::Check;
use crate::testjudge::baseline::Judged;
use crate::testjudge::ratchet::MovedCount;

/// What the comparison with the baseline found.
pub(crate) struct Comparison {
    /// The per-test verdict against the baseline (`Held` when the command failed anyway or the check is off).
    pub(crate) by_name: Judged,
    /// What the run's test counts moved the wrong way (the count ratchet).
    pub(crate) ratchet: Vec<MovedCount>,
}

impl Comparison {
    /// Holds `reading` of a run in `world` (at `iteration` of `active`) to the baseline, taking its pass away
    /// where it falls short; `traced`: the baseline's observed closure and this run's trace, where it was traced,
    /// with the processes of the steps set aside in it: what a step loaded is its own (a `python -m venv` runs
    /// pip, which reads its vendored `_json.py`), judged by what it fed the rest (`oracle::steps`).
    pub(crate) fn with_baseline(
        active: &ActiveLoop,
        iteration: u64,
        world: &World,
        traced: Option<(&Observed, &Trace, &HashSet<u32>)>,
        reading: &mut Reading,
    ) -> Result<Comparison, Error> {
        let fields = &active.seal.fields;
        let lang = fields.config.lang;
        let counts = reading.summary.counts;
        // By name first: where both see a pass fall short, the names say exactly what moved; the totals are the
        // fallback for runners that print none.
        let by_name = if fields.checks(Check::ByName) {
            by_name(active, iteration, reading.passed, counts, &reading.results)?
        } else {
            Judged::Held
        };
        let ratchet = if reading.passed && by_name == Judged::Held && fields.checks(Check::Counts) {
            fields.progress.counts.counts_best.check(counts)
        } else {
            Vec::new()
        };
        match &by_name {
            Judged::Held if ratchet.is_empty() => {}
            Judged::Held => reading.fail(messages::counts_regressed(
                lang,
                &messages::counts_moved(lang, &ratchet),
            )),
            Judged::Short(short) => reading.fail(messages::baseline::short(lang, short)),
            Judged::NoResults => reading.fail(messages::baseline::no_results(lang)),
        }
        // Where the baseline showed pytest's report or the start hooks' events can be read, a pass (by exit, names
        // and counts) must hold in them too (see `room::report`); part of the per-test verdict (`--no-test-verdict`
        // turns both off).
        let by_report = world
            .room
            .as_ref()
            .filter(|_| reading.passed && fields.checks(Check::ByName));
        if let Some((problem, who)) = by_report.and_then(|r| r.recorded.report_problem(&r.room, &reading.results)) {
            reading.fail(messages::room::report_problem(lang, &problem, &who));
        }
        if let Some((observed, trace, steps)) = traced.filter(|_| reading.passed) {
            let root = &active.project.root;
            let stand: Stand = world.stand(root);
            let events = stand.events(trace, steps);
            let pycache = crate::closure::resolved::pycache_prefix(stand.env);
            let redirects = crate::closure::resolved::redirects(&observed.loaded, &events, root, pycache.as_deref());
            if !redirects.is_empty() {
                reading.fail(messages::room::redirected(lang, &redirects));
            }
        }
        if !reading.passed {
            let (left_out, unseen) = world.left_out();
            let said = [
                (!left_out.is_empty()).then(|| messages::room::left_out(lang, &left_out)),
                (!unseen.is_empty()).then(|| messages::room::covered_outside(lang, &unseen)),
            ];
            for said in said.into_iter().flatten() {
                reading.note = Some(
                    reading
                        .note
                        .take()
                        .map_or_else(|| said.clone(), |note| format!("{note}\n{said}")),
                );
            }
        }
        Ok(Comparison { by_name, ratchet })
    }
}

/// Holds a run that `passed` so far to the baseline, test by name; a baseline without names (none taken at
/// setup, or its suite reported none) adopts this run's names first (see `crate::testjudge::baseline`).
fn by_name(
    active: &ActiveLoop,
    iteration: u64,
    passed: bool,
    counts: Option<TestCounts>,
    results: &TestResults,
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
