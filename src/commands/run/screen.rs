//! What `loopgate run` prints — the header, the iteration banners, the status line's facts, the summary table
//! and the final line. `display` is how it reaches the terminal; this module is what it says.

use std::time::Instant;

use crate::state::{State, StateFields, VerifyOn};

use super::display::{self, Display, Phase, Style};
use super::options::{Options, Verbosity};
use super::owner::Ending;
use super::prompt::Via;
use super::row::{self, Row};

/// The loop, the oracle, the limits and the agent, before the first iteration.
pub(crate) fn header(d: &Display, state: &State, options: &Options) {
    let f = &state.fields;
    let task = state.task.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
    d.line(&format!(
        "{} {} · {}",
        d.paint("loopgate run", Style::Bold),
        f.config.loop_id,
        display::truncate(task.trim(), 80)
    ));
    let verify = match (&f.config.verify.verify_command, f.config.verify.verify_on) {
        (Some(cmd), VerifyOn::Always) => format!(
            "`{cmd}` after every iteration (timeout {}s)",
            f.config.verify.verify_timeout
        ),
        (Some(cmd), VerifyOn::Promise) => format!(
            "`{cmd}` when the agent replies <promise>{}</promise> (timeout {}s)",
            f.config.completion_promise, f.config.verify.verify_timeout
        ),
        (None, _) => format!(
            "none: the agent's <promise>{}</promise> completes the loop (honor system)",
            f.config.completion_promise
        ),
    };
    d.line(&format!("  verify: {verify}"));
    if let super::options::Start::New(config) = &options.start
        && let Some(found) = &config.verify_detected
    {
        d.line(&format!(
            "          (--verify auto: {})",
            crate::messages::detect_reason(crate::schema::Speech::En, &found.why)
        ));
    }
    let mut limits = Vec::new();
    if f.config.limits.max_iterations > 0 {
        limits.push(format!("{} iterations", f.config.limits.max_iterations));
    }
    if let Some(secs) = f.config.limits.max_duration {
        limits.push(crate::duration::format_secs(secs));
    }
    if let Some(t) = options.agent_timeout {
        limits.push(format!("{} per agent run", crate::duration::format_secs(t.as_secs())));
    }
    if !limits.is_empty() {
        d.line(&format!("  limits: {}", limits.join(", ")));
    }
    let via = match options.via {
        Via::LastArg => "prompt as the last argument",
        Via::Placeholder => "prompt in place of {prompt}",
        Via::Stdin => "prompt on stdin",
    };
    d.line(&format!("  agent:  {} ({via})", options.agent.join(" ")));
    let protection = crate::confine::probe();
    let confined = if protection.is_protected() {
        format!("confined, control plane: {protection}")
    } else {
        format!("not confined, control plane: {protection}")
    };
    d.line(&format!("          {confined}"));
}

/// The banner above the agent's output (not with `--quiet`) and, with `--verbose`, the prompt.
pub(crate) fn iteration(d: &Display, fields: &StateFields, prompt: &str) {
    if d.verbosity() != Verbosity::Quiet {
        d.line(&d.paint(
            &format!(
                "── iteration {}{} ──",
                fields.progress.iteration,
                of(fields.config.limits.max_iterations)
            ),
            Style::Dim,
        ));
    }
    if d.verbosity() == Verbosity::Verbose {
        d.line(&d.paint(&format!("prompt:\n{}", prompt.trim_end()), Style::Dim));
    }
}

/// The status line for the iteration `fields` are at, with the last verify seen.
pub(crate) fn status(d: &Display, fields: &StateFields, last: Option<&Row>) {
    let last_verify = last.and_then(|row| {
        let text = row.verify.trim_start_matches(['✓', '✗', ' ']).to_string();
        row.verify_passed.map(|passed| (passed, text))
    });
    // Stops without progress against the stall limit, once two in a row make it worth showing.
    let level = fields
        .progress
        .stall
        .unchanged_streak
        .max(fields.progress.rejections.same_failure_streak);
    let stall =
        (fields.config.limits.stall_limit > 0 && level >= 2).then_some((level, fields.config.limits.stall_limit));
    d.set_status(display::Status {
        iteration: fields.progress.iteration,
        max_iterations: fields.config.limits.max_iterations,
        phase: Phase::Starting,
        phase_since: Instant::now(),
        last_verify,
        stall,
    });
}

/// The summary table and the run's duration.
pub(crate) fn summary(d: &Display, rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    let cells: Vec<_> = rows.iter().map(Row::cells).collect();
    d.line("");
    d.table(&row::HEADER, &cells);
    d.line(&format!(
        "{} iteration(s) in {}",
        rows.len(),
        display::clock(d.elapsed())
    ));
}

/// The last line: what the stop logic told the user (its `systemMessage`), or how the loop ended; for a paused
/// loop, how to go on.
pub(crate) fn final_line(d: &Display, ending: &Ending, system_message: Option<String>, loop_id: &str, agent: &str) {
    let line = system_message.unwrap_or_else(|| {
        let how = match ending {
            Ending::Complete => "complete".to_string(),
            Ending::Limit(status) => format!("{} reached", status.as_str()),
            Ending::Aborted(reason) => format!("aborted by the agent: {reason}"),
            Ending::Paused { reason, .. } => format!("paused: {reason}"),
            Ending::Cancelled(reason) => format!("cancelled: {reason}"),
        };
        format!("loopgate: loop `{loop_id}` {how}")
    });
    let style = match ending {
        Ending::Complete => Style::Green,
        Ending::Paused { .. } => Style::Yellow,
        _ => Style::Red,
    };
    d.line(&d.paint(&line, style));
    if let Ending::Paused { .. } = ending {
        d.line(&format!(
            "loopgate: continue it with `loopgate run --resume -- {agent}`, in Claude Code (the next session adopts it), or end it with `loopgate cancel`"
        ));
    }
}

/// `/N` after an iteration number, or nothing without a limit.
pub(crate) fn of(max_iterations: u64) -> String {
    if max_iterations > 0 {
        format!("/{max_iterations}")
    } else {
        String::new()
    }
}
