//! The picture of a loop, or of a tournament's loops: a self-contained HTML page (no script, no external file)
//! with four charts drawn here as inline SVG — tests passing, the score against its target, the cost so far and
//! the time so far, each over the iterations, one line per loop — and a table of the same numbers.
//!
//! Everything comes from the history records, as for the Markdown report, so the page can be drawn again at any
//! time and never disagrees with the history.

use std::fmt::Write as _;

use crate::history::{Event, Record};

/// One loop to draw: its name in the legend and its records.
pub(crate) struct Lane {
    pub(crate) name: String,
    pub(crate) loop_id: String,
    pub(crate) records: Vec<Record>,
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
}

/// Colors of the lines, in turn.
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];
const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 36.0;

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
        }
    }
    points.retain(|p| p.iteration > 0 || p.passing.is_some());
    points
}

/// The page: `title`, the charts over every lane, the target (`--target`) on the score chart, and a table.
pub(crate) fn render(title: &str, lanes: &[Lane], target: Option<f64>) -> String {
    let series: Vec<(String, Vec<Point>)> = lanes.iter().map(|l| (l.name.clone(), points(l))).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n<h1>{}</h1>",
        escape(title),
        escape(title)
    );
    out.push_str("<p class=\"legend\">");
    for (i, (name, points)) in series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let _ = write!(
            out,
            "<span><i style=\"background:{color}\"></i>{} ({} iteration(s))</span> ",
            escape(name),
            points.len()
        );
    }
    out.push_str("</p>\n<div class=\"charts\">\n");
    out.push_str(&chart(
        "Tests passing",
        "tests",
        &series,
        |p| p.passing.map(|n| n as f64),
        None,
    ));
    out.push_str(&chart("Score", "score", &series, |p| p.score, target));
    out.push_str(&chart("Cost so far (USD)", "cost", &series, |p| p.cost, None));
    out.push_str(&chart("Time so far (s)", "time", &series, |p| Some(p.seconds), None));
    out.push_str("</div>\n");
    out.push_str(&table(&series));
    out.push_str("</body></html>\n");
    out
}

/// One chart: a line per lane of `value` over the iterations; `None` values are left out. A chart with no value
/// at all says so instead of drawing empty axes.
fn chart(
    title: &str,
    id: &str,
    series: &[(String, Vec<Point>)],
    value: impl Fn(&Point) -> Option<f64>,
    target: Option<f64>,
) -> String {
    let values: Vec<(u64, f64)> = series
        .iter()
        .flat_map(|(_, points)| points.iter().filter_map(|p| value(p).map(|v| (p.iteration, v))))
        .collect();
    let mut out = format!("<figure id=\"{id}\"><figcaption>{}</figcaption>\n", escape(title));
    if values.is_empty() {
        out.push_str("<p class=\"none\">nothing recorded</p></figure>\n");
        return out;
    }
    let max_x = values.iter().map(|v| v.0).max().unwrap_or(1).max(1) as f64;
    let min_x = values.iter().map(|v| v.0).min().unwrap_or(0).min(1) as f64;
    let mut lo = values.iter().map(|v| v.1).fold(f64::INFINITY, f64::min).min(0.0);
    let mut hi = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
    if let Some(t) = target {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    if (hi - lo).abs() < f64::EPSILON {
        hi = lo + 1.0;
    }
    let x = |i: f64| LEFT + (i - min_x) / (max_x - min_x).max(1.0) * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| TOP + (hi - v) / (hi - lo) * (HEIGHT - TOP - BOTTOM);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    // Axes, the extreme values on the y axis, the iterations on the x axis.
    let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM);
    let _ = writeln!(
        out,
        "<path class=\"axis\" d=\"M{x0} {y0} V{y1} H{x1}\"/>\n<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>",
        x0 - 4.0,
        y(hi) + 4.0,
        number(hi),
        x0 - 4.0,
        y(lo) + 4.0,
        number(lo)
    );
    let step = ((max_x - min_x) / 10.0).ceil().max(1.0) as u64;
    let mut i = min_x as u64;
    while i as f64 <= max_x {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{i}</text>",
            x(i as f64),
            y1 + 14.0
        );
        i += step;
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">iteration</text>",
        (x0 + x1) / 2.0,
        HEIGHT - 4.0
    );
    if let Some(t) = target {
        let _ = writeln!(
            out,
            "<line class=\"target\" x1=\"{x0}\" x2=\"{x1}\" y1=\"{:.1}\" y2=\"{:.1}\"><title>target {}</title></line>",
            y(t),
            y(t),
            number(t)
        );
    }
    for (n, (name, points)) in series.iter().enumerate() {
        let color = PALETTE[n % PALETTE.len()];
        let drawn: Vec<(u64, f64, bool)> = points
            .iter()
            .filter_map(|p| value(p).map(|v| (p.iteration, v, p.passed)))
            .collect();
        if drawn.is_empty() {
            continue;
        }
        let line: Vec<String> = drawn
            .iter()
            .map(|(i, v, _)| format!("{:.1},{:.1}", x(*i as f64), y(*v)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"series\" data-series=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>",
            escape(name),
            line.join(" ")
        );
        for (i, v, passed) in &drawn {
            let fill = if *passed { color } else { "#fff" };
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{fill}\" stroke=\"{color}\" stroke-width=\"2\"><title>{} #{i}: {}{}</title></circle>",
                x(*i as f64),
                y(*v),
                escape(name),
                number(*v),
                if *passed { " (verify passed)" } else { "" }
            );
        }
    }
    out.push_str("</svg></figure>\n");
    out
}

/// The numbers behind the charts, one row per iteration of each loop.
fn table(series: &[(String, Vec<Point>)]) -> String {
    let mut out = String::from(
        "<table><thead><tr><th>loop</th><th>iteration</th><th>tests passing</th><th>failing</th><th>score</th><th>verify</th><th>cost so far</th><th>time so far</th></tr></thead><tbody>\n",
    );
    for (name, points) in series {
        for p in points {
            let opt = |v: Option<u64>| v.map_or("–".to_string(), |n| n.to_string());
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}s</td></tr>",
                escape(name),
                p.iteration,
                opt(p.passing),
                opt(p.failing),
                p.score.map_or("–".to_string(), number),
                if p.passed { "pass" } else { "–" },
                p.cost.map_or("?".to_string(), |c| format!("${c:.4}")),
                p.seconds
            );
        }
    }
    out.push_str("</tbody></table>\n");
    out
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
.legend span{margin-right:16px}.legend i{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:middle}\
.charts{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0;border:1px solid #ddd;padding:8px}\
figcaption{font-weight:600;margin-bottom:4px}.axis{stroke:#888;fill:none}.tick{font-size:11px;fill:#555}\
.target{stroke:#555;stroke-dasharray:6 4}table{border-collapse:collapse;margin-top:16px}\
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}td:first-child{text-align:left}.none{color:#888}";

#[cfg(test)]
mod tests;
