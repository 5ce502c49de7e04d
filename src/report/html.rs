//! The picture of a loop, or of a tournament's loops: one self-contained HTML page (no script, no external
//! file, font or URL), drawn by this one renderer for both, so the two look and read the same.
//!
//! Top to bottom: what was run (the task, the verify command, the budget as set), how it ended (a tournament's
//! winner and the rule that ranked it, or why there is none; a loop's ending), one line per loop with its mark,
//! four charts drawn here as inline SVG — tests passing, the score against its target, the cost so far and the
//! time so far, each over the iterations, one line per loop — and a table of every iteration's verdict with what
//! the oracle said: the failing tests by name, the sealed inputs a rejection named, the reviewer's finding.
//!
//! Any number of loops stay told apart without colour: each has a colour *and* a marker shape (`chart::Mark`,
//! distinct for a tournament's most candidates) and its name printed beside its line in every chart and on every
//! table row. Every text that comes from a user or an agent (the task, test names, output, agent commands) goes
//! through [`escape`]; nothing else is interpolated but numbers and the renderer's own constants.
//!
//! Everything comes from the history records (the task and budgets from the loop's `init`), as for the Markdown
//! report, so the page can be drawn again at any time and never disagrees with the history.

mod chart;

use std::fmt::Write as _;

use crate::history::{Event, Record, Status};

/// One loop to draw: its name, what the page says of it, and its records.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lane {
    /// Its short name, printed beside its marks in every chart and on its table rows (`c3`, a loop's id).
    pub(crate) name: String,
    /// One line about it: its agent, how it ended, its diff, iterations, cost and time.
    pub(crate) about: String,
    /// What the oracle or the reviewer said of it as a whole (see `Candidate::notes`).
    pub(crate) notes: Vec<String>,
    pub(crate) loop_id: String,
    pub(crate) records: Vec<Record>,
}

/// What the page is of: its lanes and how the run ended.
pub(crate) struct Page<'a> {
    pub(crate) title: String,
    pub(crate) lanes: &'a [Lane],
    /// The index in `lanes` of a tournament's winner.
    pub(crate) winner: Option<usize>,
    /// How it ended, in a sentence or two: who won and why (the rank rule), or why nobody did; a loop's ending.
    pub(crate) outcome: String,
    /// The score's target (`--target`), drawn on the score chart.
    pub(crate) target: Option<f64>,
}

/// One iteration of one loop, as drawn.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Point {
    pub(crate) iteration: u64,
    /// Tests the iteration's verify run saw pass.
    pub(crate) passing: Option<u64>,
    pub(crate) failing: Option<u64>,
    pub(crate) score: Option<f64>,
    pub(crate) passed: bool,
    /// Dollars spent by the end of this iteration (`None` once a run's cost is unknown).
    pub(crate) cost: Option<f64>,
    /// Seconds from the loop's start to the end of this iteration.
    pub(crate) seconds: f64,
    /// The iteration's last verdict: its status and how the verify ended (`promise_rejected: fail (exit 1,
    /// 0.2s)`).
    pub(crate) verdict: Option<String>,
    /// What the verdict said: the failure summary (failing tests by name, first error lines), the sealed inputs
    /// a rejection named, why the oracle overrode the exit code, the reviewer's finding.
    pub(crate) why: Vec<String>,
}

/// Most table rows per loop (its latest iterations; the charts draw them all).
const MAX_ROWS: usize = 40;

/// The iterations of `lane` with a verify result or an agent run, in order.
pub(crate) fn points(lane: &Lane) -> Vec<Point> {
    let mine: Vec<&Record> = lane.records.iter().filter(|r| r.loop_id == lane.loop_id).collect();
    let Some(start) = mine.first().map(|r| r.timestamp) else {
        return Vec::new();
    };
    let mut points: Vec<Point> = Vec::new();
    let mut cost = Some(0.0);
    for record in &mine {
        let verify = record.event.verify();
        let receipt = match &record.event {
            Event::AgentRun(run) => Some(run.receipt.as_ref().and_then(|r| r.cost_usd)),
            Event::Usage(usage) => Some(usage.receipt.cost_usd),
            _ => None,
        };
        if verify.is_none() && receipt.is_none() {
            continue;
        }
        if let Some(spent) = receipt {
            cost = cost.zip(spent).map(|(a, b)| a + b);
        }
        let seconds = (record.timestamp - start).num_milliseconds().max(0) as f64 / 1000.0;
        let point = match points.last_mut() {
            Some(p) if p.iteration == record.iteration => p,
            _ => {
                points.push(Point {
                    iteration: record.iteration,
                    ..Point::default()
                });
                points.last_mut().expect("just pushed")
            }
        };
        point.seconds = seconds;
        point.cost = cost;
        if let Some(v) = verify {
            point.passing = v.counts.map(|c| c.passed);
            point.failing = v.counts.map(|c| c.failed);
            point.score = v.score.or(point.score);
            point.passed = v.passed;
            point.verdict = Some(format!("{}: {}", record.status().as_str(), v.brief()));
            point.why = why(record);
        }
    }
    points.retain(|p| p.iteration > 0 || p.passing.is_some());
    points
}

/// What a verdict said, line by line (see [`Point::why`]).
fn why(record: &Record) -> Vec<String> {
    let Some(v) = record.event.verify() else {
        return Vec::new();
    };
    let changed = v
        .sealed_changes
        .iter()
        .flatten()
        .map(|c| format!("changed a sealed input: {c}"));
    let summary = v
        .summary
        .iter()
        .flat_map(|s| s.lines())
        .filter(|l| !l.trim().is_empty());
    let review = record.event.review().map(crate::history::event::describe_review);
    changed
        .chain(summary.map(str::to_string))
        .chain(v.note.clone())
        .chain(review)
        .collect()
}

/// The page (see the module docs).
pub(crate) fn render(page: &Page) -> String {
    let series: Vec<chart::Series> = page
        .lanes
        .iter()
        .enumerate()
        .map(|(n, lane)| chart::Series {
            name: &lane.name,
            mark: chart::Mark::of(n),
            winner: page.winner == Some(n),
            points: points(lane),
        })
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n<h1>{}</h1>",
        escape(&page.title),
        escape(&page.title)
    );
    facts(&mut out, page);
    lanes(&mut out, page, &series);
    out.push_str("<div class=\"charts\">\n");
    out.push_str(&chart::chart(
        "Tests passing",
        "tests",
        &series,
        |p| p.passing.map(|n| n as f64),
        None,
    ));
    out.push_str(&chart::chart("Score", "score", &series, |p| p.score, page.target));
    out.push_str(&chart::chart("Cost so far (USD)", "cost", &series, |p| p.cost, None));
    out.push_str(&chart::chart(
        "Time so far (s)",
        "time",
        &series,
        |p| Some(p.seconds),
        None,
    ));
    out.push_str("</div>\n");
    table(&mut out, &series);
    out.push_str("</body></html>\n");
    out
}

/// The task, the verify command, the budget (from the first loop's `init`) and the outcome.
fn facts(out: &mut String, page: &Page) {
    let init = page.lanes.iter().find_map(|lane| {
        lane.records.iter().find_map(|r| match &r.event {
            Event::Init(init) if r.loop_id == lane.loop_id => Some(init),
            _ => None,
        })
    });
    let unknown = "<span class=\"none\">not recorded</span>".to_string();
    let task = init.and_then(|i| i.task.as_deref()).map_or(unknown.clone(), |t| {
        format!("<div class=\"task\">{}</div>", escape(t.trim_end()))
    });
    let verify = match init {
        Some(i) => i
            .verify_command
            .as_deref()
            .map_or("none (the agent's promise alone)".to_string(), |c| {
                format!("<code>{}</code>", escape(c))
            }),
        None => unknown.clone(),
    };
    let budget = init.map_or(unknown, |i| {
        let mut parts = vec![match i.max_iterations {
            0 => "no --max-iterations".to_string(),
            n => format!("--max-iterations {n}"),
        }];
        parts.push(
            i.max_duration
                .map_or("no --max-duration".into(), |s| format!("--max-duration {s}s")),
        );
        parts.extend(i.max_tokens.map(|t| format!("--max-tokens {t}")));
        parts.push(i.max_cost.map_or("no --max-cost".into(), |c| {
            format!("--max-cost {}", crate::cost::dollars(c))
        }));
        escape(&parts.join(" · "))
    });
    let _ = writeln!(
        out,
        "<dl class=\"facts\"><dt>Task</dt><dd>{task}</dd><dt>Verify command</dt><dd>{verify}</dd><dt>Budget</dt><dd>{budget}</dd><dt>Outcome</dt><dd class=\"outcome\">{}</dd></dl>",
        escape(&page.outcome)
    );
}

/// One line per loop: its mark, its name, the winner marked, what it did and what was said of it.
fn lanes(out: &mut String, page: &Page, series: &[chart::Series]) {
    out.push_str("<ul class=\"lanes\">\n");
    for (lane, s) in page.lanes.iter().zip(series) {
        let (class, star) = if s.winner {
            (" class=\"winner\"", " <strong>★ winner</strong>")
        } else {
            ("", "")
        };
        let _ = write!(
            out,
            "<li{class}>{} <b>{}</b>{star} — {} ({} iteration(s) drawn)",
            s.mark.swatch(),
            escape(&lane.name),
            escape(&lane.about),
            s.points.len()
        );
        for note in &lane.notes {
            let _ = write!(out, "<br><span class=\"note\">{}</span>", escape(note));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
}

/// Every iteration of each loop: its verdict and what it said, and the numbers behind the charts.
fn table(out: &mut String, series: &[chart::Series]) {
    out.push_str(
        "<table><thead><tr><th>loop</th><th>iteration</th><th>verdict</th><th>what the oracle said</th><th>tests passing</th><th>failing</th><th>score</th><th>cost so far</th><th>time so far</th></tr></thead><tbody>\n",
    );
    for s in series {
        let name = format!("{}{}", escape(s.name), if s.winner { " ★" } else { "" });
        let skipped = s.points.len().saturating_sub(MAX_ROWS);
        if skipped > 0 {
            let _ = writeln!(
                out,
                "<tr><td>{name}</td><td colspan=\"8\" class=\"none\">{skipped} earlier iteration(s) not listed (the charts draw them)</td></tr>"
            );
        }
        for p in &s.points[skipped..] {
            let opt = |v: Option<u64>| v.map_or("–".to_string(), |n| n.to_string());
            let _ = writeln!(
                out,
                "<tr><td>{name}</td><td>{}</td><td>{}</td><td class=\"why\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}s</td></tr>",
                p.iteration,
                p.verdict.as_deref().map_or("–".to_string(), escape),
                escape(&p.why.join("\n")),
                opt(p.passing),
                opt(p.failing),
                p.score.map_or("–".to_string(), number),
                p.cost.map_or("?".to_string(), |c| format!("${c:.4}")),
                p.seconds
            );
        }
    }
    out.push_str("</tbody></table>\n");
}

/// How a loop ended, from its records: `complete at iteration 3`, `max_iterations at iteration 5: …`, or
/// `running` when nothing ended it yet.
pub(crate) fn ending(records: &[Record], loop_id: &str) -> String {
    let last = records
        .iter()
        .rev()
        .find(|r| r.loop_id == loop_id && r.status().ends_loop());
    match last {
        Some(r) => {
            let reason = r.event.reason().map_or(String::new(), |why| format!(": {why}"));
            format!("{} at iteration {}{reason}", r.status().as_str(), r.iteration)
        }
        None if records
            .iter()
            .any(|r| r.loop_id == loop_id && r.status() == Status::Paused) =>
        {
            "paused".to_string()
        }
        None => "running (or stopped without a final record)".to_string(),
    }
}

/// A number as a label: whole numbers without decimals, others with up to four.
fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let text = format!("{v:.4}");
        text.trim_end_matches('0').to_string()
    }
}

/// Text for HTML and SVG: `&`, `<`, `>`, `"` and `'` escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}\
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px}.facts dt{font-weight:600}.facts dd{margin:0}\
.task,.why{white-space:pre-wrap}.outcome{font-weight:600}.lanes{list-style:none;padding:0}.lanes li{margin:4px 0}\
.lanes svg{vertical-align:middle}.winner{background:#fff6d5}.note{color:#a33;margin-left:22px}\
.charts{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0;border:1px solid #ddd;padding:8px}\
figcaption{font-weight:600;margin-bottom:4px}.axis{stroke:#888;fill:none}.tick{font-size:11px;fill:#555}\
.label{font-size:11px;font-weight:600}.target{stroke:#555;stroke-dasharray:6 4}\
table{border-collapse:collapse;margin-top:16px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}\
td:first-child,td.why,td:nth-child(3),th:nth-child(-n+4){text-align:left}.none{color:#888}";

#[cfg(test)]
mod tests;
