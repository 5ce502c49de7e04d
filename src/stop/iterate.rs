//! Moving a loop to its next iteration: record what happened, end it at a limit, pause it when it stalls, or
//! block the stop with the feedback the model reads.

use std::time::Duration;

use crate::block_reason::{Failure, Reason};
use crate::error::Error;
use crate::giveup;
use crate::history::event::{GaveUp, Limit, Tree};
use crate::history::{Event as HistoryEvent, Record};
use crate::lifecycle::ActiveLoop;
use crate::messages::{self, Event, Stall, user};
use crate::state::{StateError, StateFields};

use super::block_cap::{self, Decision};
use super::{Outcome, Step, Survey, ending};

/// A stop without a claim (and without a verify): record `continue` (or `gave_up`) and go on.
pub(crate) fn without_claim(mut active: Box<ActiveLoop>, survey: &Survey) -> Result<Option<Outcome>, Error> {
    active.seal.fields.progress.rejections.rejections_in_a_row = 0;
    let event = match &survey.give_up {
        Some(g) => HistoryEvent::GaveUp(GaveUp {
            kind: g.kind.as_str().to_string(),
            phrase: g.phrase.clone(),
            sentence: g.sentence.clone(),
            ..GaveUp::default()
        }),
        None => HistoryEvent::Continue(Tree::default()),
    };
    let record = Record::new(active.loop_id(), active.seal.fields.progress.iteration, event);
    let step = Step {
        event: Event::Continue,
        failure: Failure::None,
        result: None,
    };
    next(active, &step, record, survey)
}

/// Records the iteration, then ends the loop at a limit, pauses it if stalled, or blocks with the feedback.
/// The loop's fields are changed in place, in the seal, which is written once (by `write`, or by ending or
/// pausing the loop).
pub(crate) fn next(
    mut active: Box<ActiveLoop>,
    step: &Step,
    record: Record,
    survey: &Survey,
) -> Result<Option<Outcome>, Error> {
    let f = &mut active.seal.fields;
    f.progress.stall.give_up_streak = if survey.give_up.is_some() {
        f.progress.stall.give_up_streak + 1
    } else {
        0
    };
    let mut record = record;
    if let HistoryEvent::GaveUp(g) = &mut record.event {
        g.give_up_streak = f.progress.stall.give_up_streak;
    }
    // The seal is written once, below: by `write`, or by ending or pausing the loop.
    active.record_unsaved(&survey.annotate(record))?;
    let f = &active.seal.fields;
    let lang = f.config.lang;
    let iteration = f.progress.iteration;
    let limit = limit_reached(f).map_err(|problem| StateError::Corrupt {
        path: active.project.state_path(),
        problem,
    })?;
    if let Some((event, what)) = limit {
        let budget = Limit {
            promise_rejections: f.progress.rejections.promise_rejections,
            tokens_used: f.progress.tokens.tokens_used,
            spent: f.progress.tokens.spent.clone(),
        };
        let end = Record::new(active.loop_id(), iteration, event(budget));
        return ending::unsuccessful(active, end, user::limit(lang, what, iteration));
    }
    if let Some(why) = stalled(f, survey) {
        return ending::stall(active, &why);
    }
    let cap = survey.tally.as_ref().map(|tally| (tally, block_cap::decide(tally)));
    if let Some((tally, Decision::Yield)) = cap {
        return ending::at_block_cap(active, tally);
    }
    active.seal.fields.progress.iteration += 1;
    if let Some((tally, _)) = cap {
        block_cap::remember(&mut active.seal.fields.progress, tally);
    }
    active.write()?;
    let state = active.state(); // what the reason shows, as just written
    let unchanged = (survey.tree_changed == Some(false)).then_some(state.fields.progress.stall.unchanged_streak);
    let reason = Reason {
        project: &active.project,
        state: &state,
        event: step.event,
        failure: step.failure,
        tamper: &active.tamper,
        unchanged_streak: unchanged,
        give_up: survey.give_up.as_ref(),
    }
    .render();
    let reason = match cap {
        Some((tally, Decision::Block { last_warning: true })) => {
            format!(
                "{reason}\n\n{}",
                messages::cap::last_warning(lang, tally.cap.unwrap_or_default(), tally.own_cap)
            )
        }
        _ => reason,
    };
    let notice = match &step.result {
        Some(result) if step.event != Event::Continue => user::rejected(lang, iteration, result),
        _ => user::iteration(
            lang,
            state.fields.progress.iteration,
            state.fields.config.limits.max_iterations,
        ),
    };
    let notice = notice + &super::budgets::said(lang, &state.fields, false).unwrap_or_default();
    Ok(Some(Outcome::Block {
        reason,
        notice: ending::with_tamper(notice, &active),
    }))
}

/// The event ending the loop at a limit.
type Ending = fn(Limit) -> HistoryEvent;

/// `max_iterations`, `max_tokens`, `max_cost` or `max_duration`, when reached; an error when `started_at` cannot be read
/// and `--max-duration` is set.
fn limit_reached(f: &StateFields) -> Result<Option<(Ending, &'static str)>, String> {
    if f.config.limits.max_iterations > 0 && f.progress.iteration >= f.config.limits.max_iterations {
        return Ok(Some((HistoryEvent::MaxIterations, "max_iterations")));
    }
    if f.config
        .limits
        .max_tokens
        .is_some_and(|max| f.progress.tokens.tokens_used >= max)
    {
        return Ok(Some((HistoryEvent::MaxTokens, "max_tokens")));
    }
    if super::budgets::cost_spent(f) {
        return Ok(Some((HistoryEvent::MaxCost, "max_cost")));
    }
    let Some(max) = f.config.limits.max_duration else {
        return Ok(None);
    };
    let limit = Duration::from_secs(max);
    let started = f.started()?;
    let elapsed = chrono::Utc::now()
        .signed_duration_since(started)
        .to_std()
        .unwrap_or_default();
    Ok((elapsed >= limit).then_some((HistoryEvent::MaxDuration as Ending, "max_duration")))
}

/// The circuit breaker. Trips on N stops in a row without a working-tree change, on N identical failures in a
/// row when nothing changed since the last one, on a score plateau, or on [`giveup::STALL_AFTER`] give-ups in a
/// row (at most N) — never on a stop that changed the tree, so a loop that is making changes is never paused.
fn stalled(f: &StateFields, survey: &Survey) -> Option<String> {
    let lang = f.config.lang;
    if let Some(gate) = &f.config.verify.score
        && gate.plateau > 0
        && f.progress.score.plateau_streak >= gate.plateau
    {
        return Some(messages::stall_reason(
            lang,
            Stall::Plateau,
            f.progress.score.plateau_streak,
        ));
    }
    let limit = f.config.limits.stall_limit;
    if limit == 0 || survey.tree_changed != Some(false) {
        return None;
    }
    if f.progress.stall.give_up_streak >= giveup::STALL_AFTER.min(limit) {
        return Some(messages::stall_reason(
            lang,
            Stall::GaveUp,
            f.progress.stall.give_up_streak,
        ));
    }
    if f.progress.stall.unchanged_streak >= limit {
        return Some(messages::stall_reason(
            lang,
            Stall::NoChange,
            f.progress.stall.unchanged_streak,
        ));
    }
    (f.progress.rejections.same_failure_streak >= limit)
        .then(|| messages::stall_reason(lang, Stall::SameFailure, f.progress.rejections.same_failure_streak))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_duration(started_at: &str) -> StateFields {
        let mut state = crate::state::tests::sample("t");
        state.fields.config.limits.max_iterations = 0;
        state.fields.config.limits.max_duration = Some(60);
        state.fields.config.started_at = started_at.to_string();
        state.fields
    }

    #[test]
    fn an_unreadable_started_at_is_an_error_not_an_unlimited_loop() {
        for bad in ["yesterday", "", "2026-13-40T00:00:00Z"] {
            let problem = limit_reached(&with_duration(bad)).expect_err("an error");
            assert!(
                problem.contains("`started_at`") && problem.contains("--max-duration"),
                "{problem}"
            );
        }
        let hour_ago = crate::history::timestamp::format(&(chrono::Utc::now() - chrono::Duration::hours(1)));
        let reached = limit_reached(&with_duration(&hour_ago)).expect("readable");
        assert_eq!(reached.map(|(_, what)| what), Some("max_duration"));
        let mut unlimited = with_duration("yesterday");
        unlimited.config.limits.max_duration = None;
        assert!(limit_reached(&unlimited).expect("no limit to measure").is_none());
    }
}
