//! The loop as `loopgate run` owns it: found by this process's session id, changed only under the project lock
//! and through `lifecycle` (so the seal's history mark stays right), and read back to learn how it ended.

use crate::history::{
    Event,
    event::{AgentRun, Reason, Resumed},
};

use crate::error::Error;
use crate::history::{self, Record, Status};
use crate::lifecycle::{self, ActiveLoop, Lookup, lookup};
use crate::project::Project;
use crate::schema::Driver;
use crate::state::{LoopStatus, State, StateFields};
use crate::stop::LetGo;

use super::agent::AgentExit;

/// Bytes of the agent's output tail put in its history record.
const HISTORY_TAIL_BYTES: usize = 2048;

/// This process's loop in `project`.
pub(crate) struct Owner {
    pub(crate) project: Project,
    pub(crate) session: String,
}

/// How a loop ended, as far as `loopgate run` is concerned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ending {
    Complete,
    /// `max_iterations`, `max_duration` or another budget.
    Limit(Status),
    Aborted(String),
    /// Paused by the agent or by the stall breaker; the loop waits with its state kept.
    Paused {
        reason: String,
    },
    /// Ended from outside (`loopgate cancel`, replaced, taken over), or by this run on an error.
    Cancelled(String),
}

impl Ending {
    /// How a stop that let the agent go ended the loop; `None` when the loop goes on (which a run, having no
    /// block cap and no API-error hook, does not see).
    pub(crate) fn of(how: LetGo) -> Option<Self> {
        Some(match how {
            LetGo::Complete => Self::Complete,
            LetGo::Limit(status) => Self::Limit(status),
            LetGo::Aborted(reason) => Self::Aborted(reason),
            LetGo::Paused(reason) => Self::Paused { reason },
            // The loop's `pause_reason`, as the stall breaker writes it.
            LetGo::Stalled(why) => Self::Paused {
                reason: format!("stalled: {why}"),
            },
            LetGo::GoesOn => return None,
        })
    }

    pub(crate) fn exit_code(&self) -> u8 {
        use crate::exit_codes;
        match self {
            Self::Complete => exit_codes::OK,
            Self::Limit(_) => exit_codes::LIMIT_REACHED,
            Self::Aborted(_) => exit_codes::ABORTED,
            Self::Paused { .. } => exit_codes::PAUSED,
            Self::Cancelled(_) => exit_codes::CANCELLED,
        }
    }
}

impl Owner {
    /// The loop, if it is still this process's (running or paused).
    fn ours(&self) -> Result<Option<Box<ActiveLoop>>, Error> {
        Ok(match lookup(&self.project)? {
            Lookup::Loop(active) if active.seal.fields.progress.session_id == self.session => Some(active),
            _ => None,
        })
    }

    /// The sealed fields of our loop, if it is still ours.
    pub(crate) fn fields(&self) -> Option<StateFields> {
        self.ours().ok().flatten().map(|active| active.seal.fields.clone())
    }

    /// The loop's sealed files outside the project, which the agent's confinement keeps off too (`Plane`).
    pub(crate) fn sealed_outside(&self) -> Vec<std::path::PathBuf> {
        let Ok(Some(active)) = self.ours() else {
            return Vec::new();
        };
        let fields = &active.seal.fields;
        crate::inputs::Inputs::in_seal(&active.seal)
            .guard(&|check| fields.checks(check))
            .outside
    }

    /// Whether our loop still runs (asked while the agent works; a read error counts as yes, so a passing
    /// problem never kills the agent — the next stop reports it).
    pub(crate) fn still_running(&self) -> bool {
        match self.ours() {
            Ok(Some(active)) => active.seal.fields.progress.status == LoopStatus::Running,
            Ok(None) => false,
            Err(_) => true,
        }
    }

    /// Records one run of the agent for `iteration`; `false` when the loop is no longer ours.
    pub(crate) fn record_agent(
        &self,
        iteration: u64,
        command: &str,
        outcome: &AgentExit,
        receipt: Option<crate::cost::Receipt>,
    ) -> Result<bool, Error> {
        let _lock = lifecycle::lock(&self.project)?;
        let Some(mut active) = self.ours()? else {
            return Ok(false);
        };
        let tail = outcome.tail_text();
        let cut = tail.len().saturating_sub(HISTORY_TAIL_BYTES);
        let cut = (cut..tail.len())
            .find(|&i| tail.is_char_boundary(i))
            .unwrap_or(tail.len());
        let run = AgentRun {
            agent: command.to_string(),
            agent_exit: outcome.exit_code,
            agent_signal: outcome.signal,
            agent_timed_out: outcome.timed_out,
            agent_ms: u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX),
            agent_bytes: outcome.total_bytes,
            agent_tail: tail[cut..].to_string(),
            receipt,
        };
        let record = Record::new(active.loop_id(), iteration, Event::AgentRun(run));
        active.record(&record)?;
        Ok(true)
    }

    /// Ends our loop as `cancelled` with `reason`; `false` when there was none to end.
    pub(crate) fn cancel(&self, reason: &str) -> Result<bool, Error> {
        let _lock = lifecycle::lock(&self.project)?;
        let Some(active) = self.ours()? else {
            return Ok(false);
        };
        let iteration = active.seal.fields.progress.iteration;
        let record = Record::new(active.loop_id(), iteration, Event::Cancelled(Reason::new(reason)));
        eprint!("{}", active.end(&record)?);
        Ok(true)
    }

    /// After a pause: the loop waits for anyone now, so it no longer names this (soon gone) process.
    pub(crate) fn release(&self) -> Result<(), Error> {
        let _lock = lifecycle::lock(&self.project)?;
        if let Some(mut active) = self.ours()? {
            let mut state = active.state();
            state.fields.progress.driver = None;
            active.save(&state)?;
        }
        Ok(())
    }

    /// Adopts this project's paused loop, one a killed `loopgate run` left behind, or one no session owns
    /// (any loop with `force`). Returns its state and why it was paused.
    pub(crate) fn adopt(&self, force: bool) -> Result<(State, Option<String>), Error> {
        let _lock = lifecycle::lock(&self.project)?;
        let mut active = match lookup(&self.project)? {
            Lookup::Loop(active) => active,
            Lookup::None | Lookup::Unsealed(_) => {
                return Err(Error::NoLoop {
                    root: self.project.root.clone(),
                });
            }
        };
        let f = &active.seal.fields;
        let run_pid = f.progress.driver.map(|Driver::Run { pid }| pid);
        let run_alive = run_pid.is_some_and(crate::process::alive);
        let waiting = f.progress.status == LoopStatus::Paused
            || f.progress.session_id.is_empty()
            || (run_pid.is_some() && !run_alive);
        if !waiting && !force {
            return Err(Error::Conflict {
                session: f.progress.session_id.clone(),
                loop_id: f.config.loop_id.clone(),
                run_pid,
                run_alive,
            });
        }
        active.reconcile()?;
        let mut state = active.state();
        let from = std::mem::replace(&mut state.fields.progress.session_id, self.session.clone());
        state.fields.progress.status = LoopStatus::Running;
        state.fields.progress.driver = Some(Driver::Run {
            pid: std::process::id(),
        });
        let pause_reason = state.fields.progress.pause_reason.take();
        let record = Record::new(
            active.loop_id(),
            state.fields.progress.iteration,
            Event::Resumed(Resumed {
                from_session: from.to_string(),
                session_id: self.session.clone(),
                source: "loopgate run --resume".into(),
            }),
        );
        active.record(&record)?;
        active.save(&state)?;
        Ok((state, pause_reason))
    }

    /// What the agent's runs of loop `loop_id` cost so far: the sum of their receipts, and how many runs had one.
    pub(crate) fn spent(&self, loop_id: &str) -> (crate::cost::Receipt, usize) {
        spent_in(&self.project, loop_id)
    }

    /// The size of the history now, to read what a stop appends.
    pub(crate) fn history_len(&self) -> u64 {
        std::fs::metadata(self.project.history_path()).map_or(0, |m| m.len())
    }

    /// The records of `loop_id` appended since `offset`.
    pub(crate) fn records_since(&self, loop_id: &str, offset: u64) -> Vec<Record> {
        let bytes = crate::fsutil::read_optional(&self.project.history_path())
            .ok()
            .flatten()
            .unwrap_or_default();
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(bytes.len());
        history::parse(&bytes[start..])
            .records
            .into_iter()
            .filter(|r| r.loop_id == loop_id)
            .collect()
    }

    /// How the loop `loop_id` ended (or why it waits), read back from the seal and the history.
    pub(crate) fn ending(&self, loop_id: &str) -> Ending {
        if let Ok(Some(active)) = self.ours()
            && active.seal.fields.progress.status == LoopStatus::Paused
        {
            let reason = active.seal.fields.progress.pause_reason.clone().unwrap_or_default();
            return Ending::Paused { reason };
        }
        let records = history::read(&self.project.history_path())
            .map(|read| read.records)
            .unwrap_or_default();
        let last = history::of_loop(&records, loop_id)
            .filter(|r| r.status().ends_loop())
            .last();
        let reason = |r: &Record| r.event.reason().unwrap_or_default().to_string();
        match last {
            Some(r) if r.status() == Status::Complete => Ending::Complete,
            Some(r) if r.status() == Status::Aborted => Ending::Aborted(reason(r)),
            Some(r) if r.status() == Status::Cancelled => Ending::Cancelled(reason(r)),
            Some(r) => Ending::Limit(r.status()),
            None => Ending::Cancelled(match self.ours() {
                Ok(None) => "the loop was taken over by another session".to_string(),
                _ => "the loop ended without a final record".to_string(),
            }),
        }
    }
}

/// What the agent's runs of loop `loop_id` in `project` cost so far, and how many runs reported a receipt.
pub(crate) fn spent_in(project: &Project, loop_id: &str) -> (crate::cost::Receipt, usize) {
    let records = history::read_loop(&project.history_path(), loop_id)
        .map(|read| read.records)
        .unwrap_or_default();
    spent_of(&records)
}

/// What the agent's runs among `records` cost, and how many runs reported a receipt.
pub(crate) fn spent_of(records: &[Record]) -> (crate::cost::Receipt, usize) {
    let receipts: Vec<&crate::cost::Receipt> = records
        .iter()
        .filter_map(|r| match &r.event {
            Event::AgentRun(run) => run.receipt.as_ref(),
            // A Claude Code turn's, read from its transcript (`--max-cost`).
            Event::Usage(usage) => Some(&usage.receipt),
            _ => None,
        })
        .collect();
    (crate::cost::total(receipts.iter().copied()), receipts.len())
}
