//! The end-of-loop report: when a loop ends without success (a limit, the budget, a stall, an abort), a short
//! Markdown file for the human who has to decide what happens next — what was attempted, which failures kept
//! coming back, what changed, what the agent said it was blocked on, and the one question loopgate cannot
//! answer for them.
//!
//! Written to `.claude/loopgate/report-<loop_id>.md`; everything in it comes from the history, so it can be
//! regenerated and never disagrees with it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::history::{Event, Record, Status, VerifyResult};
use crate::project::{Project, safe_name};
use crate::state::State;

/// Most rows of the attempts table (the latest ones are kept).
const MAX_ROWS: usize = 40;
/// Most give-ups quoted (the latest ones).
const MAX_GIVE_UPS: usize = 10;

/// Writes the report and returns its path (relative to the project root when possible).
pub(crate) fn write(
    project: &Project,
    state: &State,
    records: &[Record],
    end: Status,
    detail: &str,
) -> std::io::Result<PathBuf> {
    let path = project
        .work_dir()
        .join(format!("report-{}.md", safe_name(&state.fields.config.loop_id)));
    let plane = crate::seal::Store::open().control_plane(project, &state.fields.config.loop_id);
    crate::fsutil::write_atomic(&path, render(state, records, end, detail, &plane).as_bytes(), 0o644)?;
    Ok(path.strip_prefix(&project.root).map(PathBuf::from).unwrap_or(path))
}

/// The report's text; `plane` is how the loop's control plane was protected (`seal::Store::control_plane`).
pub(crate) fn render(
    state: &State,
    records: &[Record],
    end: Status,
    detail: &str,
    plane: &crate::confine::Protection,
) -> String {
    let f = &state.fields;
    let mine: Vec<&Record> = records.iter().filter(|r| r.loop_id == f.config.loop_id).collect();
    let mut out = String::new();
    let _ = writeln!(out, "# loopgate: loop `{}` stopped without success\n", f.config.loop_id);
    let _ = writeln!(
        out,
        "- **Outcome:** `{}` at iteration {} — {detail}",
        end.as_str(),
        f.progress.iteration
    );
    let _ = writeln!(out, "- **Started:** {}", f.config.started_at);
    let verify = f
        .config
        .verify
        .verify_command
        .as_deref()
        .map_or("none (honor system)".to_string(), |c| format!("`{c}`"));
    let _ = writeln!(out, "- **Verify command:** {verify}");
    let _ = writeln!(out, "- **Control plane:** {plane}");
    let _ = writeln!(
        out,
        "- **Promise rejections:** {} ({} in a row)\n",
        f.progress.rejections.promise_rejections, f.progress.rejections.rejections_in_a_row
    );
    let _ = writeln!(out, "## Task\n\n{}\n", state.task.trim_end());
    attempts(&mut out, &mine);
    progress(&mut out, &f.config.loop_id, records);
    recurring(&mut out, &mine);
    give_ups(&mut out, &mine);
    let _ = writeln!(out, "## The question for you\n\n{}", question(end, detail, &mine));
    out
}

fn attempts(out: &mut String, records: &[&Record]) {
    let rows: Vec<&&Record> = records.iter().filter(|r| r.status() != Status::Init).collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Attempts\n\n| iteration | event | verify | summary | working tree |\n|---:|---|---|---|---|"
    );
    if rows.len() > MAX_ROWS {
        let _ = writeln!(out, "| … | {} earlier events omitted | | | |", rows.len() - MAX_ROWS);
    }
    for r in rows.iter().skip(rows.len().saturating_sub(MAX_ROWS)) {
        let verify = r.event.verify();
        // A promise the reviewer judged says what it decided (a rejection's quote, or why it was not reviewed).
        let reviewed = r.event.review().map(crate::history::event::describe_review);
        let said = match &r.event {
            Event::GaveUp(g) => g.sentence.as_str(),
            event => event.reason().unwrap_or(""),
        };
        let summary = reviewed
            .as_deref()
            .or_else(|| verify.and_then(VerifyResult::headline))
            .unwrap_or(said)
            .chars()
            .take(120)
            .collect::<String>()
            .replace('|', "\\|");
        let tree = r.event.tree().map_or(String::new(), |t| match t.tree_changed {
            Some(true) => t.diff_stat.clone().unwrap_or_default(),
            Some(false) => "unchanged".to_string(),
            None => String::new(),
        });
        let verify = verify.map_or(String::new(), VerifyResult::outcome);
        let _ = writeln!(
            out,
            "| {} | {} | {verify} | {summary} | {tree} |",
            r.iteration,
            r.status().as_str()
        );
    }
    out.push('\n');
}

/// Tests passing, score, cost so far and time so far per iteration (the numbers `loopgate report --html` draws),
/// when any was recorded.
fn progress(out: &mut String, loop_id: &str, records: &[Record]) {
    let lane = html::Lane {
        name: loop_id.to_string(),
        loop_id: loop_id.to_string(),
        records: records.to_vec(),
        ..html::Lane::default()
    };
    let points = html::points(&lane);
    let recorded = |p: &html::Point| p.passing.is_some() || p.score.is_some() || p.cost.is_some_and(|c| c > 0.0);
    if !points.iter().any(recorded) {
        return;
    }
    let _ = writeln!(
        out,
        "## Progress\n\n| iteration | tests passing | score | cost so far | time so far |\n|---:|---:|---:|---:|---:|"
    );
    for p in points.iter().skip(points.len().saturating_sub(MAX_ROWS)) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.0}s |",
            p.iteration,
            p.passing.map_or("–".to_string(), |n| n.to_string()),
            p.score.map_or("–".to_string(), |s| s.to_string()),
            p.cost.map_or("?".to_string(), |c| format!("${c:.4}")),
            p.seconds
        );
    }
    let _ = writeln!(out, "\nThe picture: `loopgate report --html --loop {loop_id}`.\n");
}

fn recurring(out: &mut String, records: &[&Record]) {
    let mut by_print: BTreeMap<&str, (Vec<u64>, &str)> = BTreeMap::new();
    for r in records {
        let Some(verify) = r.event.verify() else {
            continue;
        };
        if let Some(print) = verify.fingerprint.as_deref() {
            let summary = verify.headline().unwrap_or("");
            by_print
                .entry(print)
                .or_insert_with(|| (Vec::new(), summary))
                .0
                .push(r.iteration);
        }
    }
    let mut repeated: Vec<_> = by_print.into_iter().filter(|(_, (its, _))| its.len() > 1).collect();
    if repeated.is_empty() {
        return;
    }
    repeated.sort_by_key(|(_, (its, _))| std::cmp::Reverse(its.len()));
    let _ = writeln!(out, "## Recurring failures\n");
    for (print, (iterations, summary)) in repeated {
        let list: Vec<String> = iterations.iter().map(u64::to_string).collect();
        let what = if summary.is_empty() {
            format!("failure `{print}`")
        } else {
            format!("`{summary}`")
        };
        let _ = writeln!(out, "- {}× {what} (iterations {})", iterations.len(), list.join(", "));
    }
    out.push('\n');
}

/// The stops at which the agent gave up, asked or named a blocker without pausing, quoted.
fn give_ups(out: &mut String, records: &[&Record]) {
    let found: Vec<&&Record> = records.iter().filter(|r| r.status() == Status::GaveUp).collect();
    if found.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## What the agent said it was blocked on\n\n{} stop(s) gave up, asked you something or named a blocker without pausing the loop:\n",
        found.len()
    );
    for r in found.iter().skip(found.len().saturating_sub(MAX_GIVE_UPS)) {
        let Event::GaveUp(g) = &r.event else { continue };
        let _ = writeln!(
            out,
            "- iteration {} ({}): \"{}\"",
            r.iteration,
            g.kind.replace('_', " "),
            g.sentence
        );
    }
    out.push('\n');
}

fn question(end: Status, detail: &str, records: &[&Record]) -> String {
    let worst = records
        .iter()
        .rev()
        .find_map(|r| r.event.verify().and_then(VerifyResult::headline));
    let failing = worst.map_or(String::new(), |s| format!(" The last failure was: `{s}`."));
    let blocked = records
        .iter()
        .rev()
        .find_map(|r| match &r.event {
            Event::GaveUp(g) => Some(g.sentence.as_str()),
            _ => None,
        })
        .map_or(String::new(), |s| format!(" The agent last said: \"{s}\"."));
    let failing = failing + &blocked;
    match end {
        Status::Aborted => format!(
            "The agent judged the task impossible: \"{detail}\". Do you agree? If not, what should it know or do differently? Start a new loop with that in the task."
        ),
        Status::Stalled => format!(
            "The agent stopped making progress ({detail}).{failing} What information, decision or access is it missing? Answer it in the session and type /resume-loop there (or /loopgate:resume-loop, the plugin's spelling), or start a new /pua-loop."
        ),
        _ => format!(
            "The agent used its whole budget without passing the verify command.{failing} Is the task feasible as stated? Raise the limit, split the task, or fix the blocker yourself, then start a new loop."
        ),
    }
}

pub(crate) mod html;
#[cfg(test)]
mod tests;
