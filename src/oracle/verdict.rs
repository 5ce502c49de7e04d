//! Reading the verdict of a run, the third stage of the oracle's run (`oracle::judge`): which tests it ran and
//! how each ended (the verify command's own report with `--report`, else its output's names with the room's
//! records of the run added), the failure summary and fingerprint, the score, and whether the run passed on
//! its own terms — exit 0, tests ran where `--require-tests` asks, the score gate met, its own report holding no
//! failure.
//!
//! What it guarantees: everything after it (`compare`) reads the run through a [`Reading`], never the raw
//! output, and a run this stage did not pass is never passed later — the stages after it only take a pass away.

use super::own_report::OwnReport;
use super::world::World;
use crate::lifecycle::ActiveLoop;
use crate::messages;
use crate::readout::{self, FailureSummary, TestCounts, TestResults};
use crate::schema::Check;
use crate::state::StateFields;
use crate::verify::VerifyOutcome;

/// What was read from one run.
pub(crate) struct Reading {
    pub(crate) summary: FailureSummary,
    pub(crate) fingerprint: String,
    /// The score read with `--score-regex`, if any.
    pub(crate) score: Option<f64>,
    /// Whether the run passed on its own terms (see the module docs).
    pub(crate) passed: bool,
    /// Why an exit-0 run did not pass, or why a pass is suspicious; for the model and the user.
    pub(crate) note: Option<String>,
    /// Every test the run reported by name, with how it ended.
    pub(crate) results: TestResults,
}

impl Reading {
    /// Reads a run in `world` of `active` that ended as `outcome`, its runners reporting `counts` and `results`,
    /// and that wrote `own_report` if it has one.
    pub(crate) fn of(
        active: &ActiveLoop,
        world: &World,
        outcome: &VerifyOutcome,
        counts: Option<TestCounts>,
        results: TestResults,
        own_report: Option<&OwnReport>,
    ) -> Reading {
        let fields = &active.seal.fields;
        // With `--report`, the names are the report's, not the output's; the room's records of the run (the start
        // hooks' events, PHPUnit's own reports, GoogleTest's) add those of runners whose output names only failures.
        let (results, own_problem) = match own_report {
            Some(own) => own.read(),
            None => {
                let mut results = results;
                if let Some(r) = &world.room {
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
        let (mut passed, mut note) = assess(fields, outcome, &summary, score);
        if let (Some(problem), Some(own)) = (&own_problem, own_report)
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
        Reading {
            summary,
            fingerprint,
            score,
            passed,
            note,
            results,
        }
    }

    /// Takes the pass away, with `note` saying why.
    pub(crate) fn fail(&mut self, note: String) {
        self.passed = false;
        self.note = Some(note);
    }
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
