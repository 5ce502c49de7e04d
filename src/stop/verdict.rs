//! What the oracle's verdict means for the loop: a pass completes it; a failure (or broken seal) counts a
//! rejection when the agent had promised, updates the same-failure and score-plateau streaks, and sends the
//! agent back with the evidence.

use crate::block_reason::Failure;
use crate::error::Error;
use crate::history::event::{Rejected, Tree};
use crate::history::{self, Record, VerifyResult};
use crate::lifecycle::ActiveLoop;
use crate::messages::Event;
use crate::oracle::Verdict;
use crate::review::Review;
use crate::state::LoopProgress;
use crate::testjudge::baseline::Judged;

use super::{Outcome, Step, Survey, ending, iterate};

/// Applies `verdict` to the loop. `promised`: the agent claimed completion (else a `verify_on: always` stop).
pub(crate) fn apply(
    mut active: Box<ActiveLoop>,
    verdict: Verdict,
    promised: bool,
    survey: &Survey,
    review: Option<Review>,
) -> Result<Option<Outcome>, Error> {
    match verdict {
        Verdict::Honor => ending::complete(active, None, None),
        Verdict::Pass(run) => match review {
            Some(Review::Gaming {
                findings,
                by_rule,
                cut,
                receipt,
            }) => {
                let note = Review::Gaming {
                    findings: findings.clone(),
                    by_rule,
                    cut,
                    receipt,
                }
                .note();
                reviewed_gaming(active, &run, &findings, by_rule, note, survey)
            }
            other => ending::complete(active, Some(&run), other.as_ref().map(Review::note)),
        },
        Verdict::SealBroken(breach) => {
            let f = &mut active.seal.fields;
            count_rejection(&mut f.progress);
            let paths = breach.lines(crate::schema::Speech::En);
            let rejected = Rejected {
                rejections: f.progress.rejections.promise_rejections,
                verify: VerifyResult::sealed(paths),
                tree: Tree::default(),
                review: None,
            };
            let (lang, iteration) = (f.config.lang, f.progress.iteration);
            let record = Record::new(active.loop_id(), iteration, history::Event::PromiseRejected(rejected));
            let step = Step {
                event: Event::SealBroken,
                failure: Failure::Sealed(&breach),
                result: Some(crate::messages::breach::result(lang, breach.len())),
            };
            iterate::next(active, &step, record, survey)
        }
        Verdict::Fail(run) => {
            let timed_out = run.outcome.timed_out;
            let regressed = !run.ratchet.is_empty();
            let short = run.by_name != Judged::Held;
            let status = if promised {
                count_rejection(&mut active.seal.fields.progress);
                history::Event::PromiseRejected as fn(Rejected) -> history::Event
            } else {
                history::Event::VerifyFailed as fn(Rejected) -> history::Event
            };
            let event = match (short, regressed, timed_out, promised) {
                _ if run.held_out_failed => Event::HeldOutFailed,
                (true, ..) => Event::TestsShort,
                (_, true, ..) => Event::CountsRegressed,
                (_, _, true, true) => Event::PromiseTimedOut,
                (_, _, true, false) => Event::VerifyTimedOut,
                (.., true) => Event::PromiseRejected,
                _ => Event::VerifyFailed,
            };
            run.record_counts(&mut active.seal.fields.progress);
            let f = &mut active.seal.fields;
            let same = f.progress.rejections.last_fingerprint.as_deref() == Some(run.fingerprint.as_str());
            f.progress.rejections.same_failure_streak = if same {
                f.progress.rejections.same_failure_streak + 1
            } else {
                1
            };
            f.progress.rejections.last_fingerprint = Some(run.fingerprint.clone());
            if let Some(gate) = f.config.verify.score.clone() {
                match run.score {
                    Some(score) if gate.improves(score, f.progress.score.best_score) => {
                        f.progress.score.best_score = Some(score);
                        f.progress.score.plateau_streak = 0;
                    }
                    _ => f.progress.score.plateau_streak += 1,
                }
            }
            let rejected = Rejected {
                rejections: f.progress.rejections.promise_rejections,
                verify: run.result(),
                tree: Tree::default(),
                review: None,
            };
            let f = &active.seal.fields;
            let record = Record::new(active.loop_id(), f.progress.iteration, status(rejected));
            let streak = f.progress.rejections.same_failure_streak;
            let step = Step {
                event,
                failure: Failure::Verify {
                    run: &run,
                    same_failure_streak: streak,
                },
                result: Some(match &run.by_name {
                    Judged::Short(short) => crate::messages::baseline::short_result(f.config.lang, short.len()),
                    Judged::NoResults => crate::messages::baseline::no_results_result(f.config.lang).to_string(),
                    Judged::Held if run.held_out_failed => crate::messages::holdout::result(f.config.lang).to_string(),
                    Judged::Held if regressed => crate::messages::counts_result(
                        f.config.lang,
                        &crate::messages::counts_moved(f.config.lang, &run.ratchet),
                    ),
                    Judged::Held => run.result_text(f.config.lang),
                }),
            };
            iterate::next(active, &step, record, survey)
        }
    }
}

/// The oracle passed, but the reviewer quoted lines that game the tests: the promise is rejected and the quotes
/// reach the agent.
fn reviewed_gaming(
    mut active: Box<ActiveLoop>,
    run: &crate::oracle::Run,
    findings: &[crate::review::Finding],
    by_rule: bool,
    note: crate::schema::ReviewNote,
    survey: &Survey,
) -> Result<Option<Outcome>, Error> {
    let f = &mut active.seal.fields;
    count_rejection(&mut f.progress);
    let rejected = Rejected {
        rejections: f.progress.rejections.promise_rejections,
        verify: run.result(),
        tree: Tree::default(),
        review: Some(note),
    };
    let (lang, iteration) = (f.config.lang, f.progress.iteration);
    let record = Record::new(active.loop_id(), iteration, history::Event::PromiseRejected(rejected));
    let quoted: Vec<(String, String)> = findings.iter().map(|f| (f.question.clone(), f.quote.clone())).collect();
    let evidence = crate::messages::review::findings(lang, &quoted, by_rule);
    let step = Step {
        event: Event::ReviewRejected,
        failure: Failure::Review(&evidence),
        result: Some(crate::messages::review::result(lang, findings.len())),
    };
    iterate::next(active, &step, record, survey)
}

fn count_rejection(progress: &mut LoopProgress) {
    progress.rejections.promise_rejections += 1;
    progress.rejections.rejections_in_a_row += 1;
}
