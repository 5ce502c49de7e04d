//! Judging a claim: the sealed files first, then the sealed verify command — never what the state file says.

use std::time::Duration;

use crate::error::Error;
use crate::history::VerifyResult;
use crate::lifecycle::ActiveLoop;
use crate::messages;
use crate::ratchet;
use crate::seal::{FileChange, SealedFiles};
use crate::state::{Check, StateFields};
use crate::summary::{self, FailureSummary};
use crate::verify::{self, VerifyOutcome, VerifyRequest};

mod breach;
pub use breach::Breach;

/// How much of the output tail goes into a history record.
const HISTORY_TAIL_BYTES: usize = 2048;

/// One run of the verify command, with what was made of its output.
pub struct Run {
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
    pub ratchet: Vec<ratchet::Moved>,
}

/// The oracle's answer.
pub enum Verdict {
    /// No verify command is sealed: the loop runs on the honor system.
    Honor,
    /// The oracle's inputs moved (sealed files, the verify command's closure); the verify command did not run.
    SealBroken(Breach),
    Pass(Run),
    Fail(Run),
}

/// Who asked for the verdict; a self-check logs to its own file so it never overwrites the oracle's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    StopHook,
    SelfCheck,
}

/// Checks the sealed files, then runs the sealed verify command for `iteration`.
pub fn judge(active: &ActiveLoop, iteration: u64, caller: Caller) -> Result<Verdict, Error> {
    let fields = &active.seal.fields;
    let Some(command) = fields.verify_command.clone() else {
        return Ok(Verdict::Honor);
    };
    let breach = breach(active)?;
    if !breach.is_empty() {
        return Ok(Verdict::SealBroken(breach));
    }
    let mut log_path = active.project.verify_log_path(&fields.loop_id, iteration);
    if caller == Caller::SelfCheck {
        log_path.set_extension("self-check.log");
    }
    let request = VerifyRequest {
        command: &command,
        cwd: &active.project.root,
        timeout: Duration::from_secs(fields.verify_timeout),
        log_path: &log_path,
    };
    // Rollback refuses while this marker is held (see `running`).
    let running = crate::running::VerifyRunning::mark(&active.project, &command);
    // The counts are read from every line as the command prints it: the kept output is only its head and tail,
    // and a workspace's per-crate summaries can sit in the cut middle.
    let mut counter = summary::CountScanner::new();
    let outcome = verify::run_observed(&request, &mut |line| counter.feed_line(line))?;
    drop(running);
    let text = outcome.output_text();
    let mut summary = summary::summarize(&text);
    summary.counts = counter.finish();
    let fingerprint = summary::fingerprint_of(&summary, &text);
    let score = fields.score.as_ref().and_then(|gate| gate.extract(text.as_bytes()));
    let (mut passed, mut note) = assess(fields, &outcome, &summary, score);
    let ratchet = if passed && fields.checks(Check::Counts) {
        fields.counts_best.check(summary.counts)
    } else {
        Vec::new()
    };
    if !ratchet.is_empty() {
        passed = false;
        note = Some(messages::counts_regressed(
            fields.lang,
            &ratchet::describe(fields.lang, &ratchet),
        ));
    }
    let run = Run {
        command,
        outcome,
        summary,
        fingerprint,
        score,
        passed,
        note,
        ratchet,
    };
    Ok(if run.passed {
        Verdict::Pass(run)
    } else {
        Verdict::Fail(run)
    })
}

/// Applies `--require-tests` and the score gate on top of the exit code.
fn assess(
    fields: &StateFields,
    outcome: &VerifyOutcome,
    summary: &FailureSummary,
    score: Option<f64>,
) -> (bool, Option<String>) {
    let lang = fields.lang;
    if !outcome.passed() {
        return (false, None);
    }
    if summary.zero_tests {
        let note = messages::no_tests_ran(lang, fields.require_tests);
        if fields.require_tests {
            return (false, Some(note));
        }
        return (score_met(fields, score).0, Some(note));
    }
    score_met(fields, score)
}

fn score_met(fields: &StateFields, score: Option<f64>) -> (bool, Option<String>) {
    let Some(gate) = &fields.score else { return (true, None) };
    match score {
        Some(score) if gate.met(score) => (true, Some(messages::score_met(fields.lang, score, gate))),
        Some(score) => (false, Some(messages::score_below(fields.lang, score, gate))),
        None => (false, Some(messages::score_missing(fields.lang, gate))),
    }
}

/// Everything that moved in the oracle's inputs since setup (or since the user last accepted it).
pub fn breach(active: &ActiveLoop) -> Result<Breach, Error> {
    let root = &active.project.root;
    let fields = &active.seal.fields;
    let closure = match &active.seal.closure {
        Some(closure) if fields.checks(Check::Closure) => closure.check(root),
        _ => Vec::new(),
    };
    let tests = match active.store.load_inventory(&active.project)? {
        Some(inventory) => inventory.check(root, |check| fields.checks(check)),
        None => Vec::new(),
    };
    Ok(Breach {
        sealed: sealed_changes(active)?,
        closure,
        tests,
    })
}

/// Sealed files that differ from setup, sorted by path.
pub fn sealed_changes(active: &ActiveLoop) -> Result<Vec<FileChange>, Error> {
    let patterns = &active.seal.fields.sealed;
    if patterns.is_empty() {
        return Ok(Vec::new());
    }
    let sealed = SealedFiles::new(patterns).map_err(Error::Usage)?;
    let root = &active.project.root;
    let now = sealed.hash_all(root).map_err(|source| Error::Io {
        action: "hash sealed files under",
        path: root.clone(),
        source,
    })?;
    Ok(crate::seal::files::changes(&active.seal.files, &now))
}

impl Run {
    /// `exit 101 after 3.2s`, `timed out after 600s`, `killed by signal 9 after 1.0s`, plus the score if any.
    pub fn result_text(&self, lang: crate::state::Lang) -> String {
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
    pub fn observe(&self, fields: &mut StateFields) {
        let counts = self.summary.counts;
        let outcome = if self.outcome.passed() {
            ratchet::Outcome::Passed
        } else {
            ratchet::Outcome::Failed
        };
        fields.counts_best.observe(counts, outcome);
        fields.last_counts = counts.or(fields.last_counts);
    }

    /// The verify facts as the history records them.
    pub fn result(&self) -> VerifyResult {
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
