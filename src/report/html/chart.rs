//! The page's charts: one value over the iterations, a line per loop, as inline SVG (no namespace URL: an `<svg>`
//! inside HTML needs none, and the page names no URL at all).
//!
//! Each loop is told apart three ways, so that neither colour alone nor any number of loops confuses them: its
//! colour, its marker's shape ([`Mark`]: 8 colours × 4 shapes, distinct for a tournament's most candidates), and
//! its name printed beside the end of its line (labels that would overlap are moved apart; a single loop's line
//! has none).

use std::fmt::Write as _;

use super::{Point, escape, number};

/// One loop as the charts draw it.
pub(super) struct Series<'a> {
    pub(super) name: &'a str,
    pub(super) mark: Mark,
    pub(super) winner: bool,
    pub(super) points: Vec<Point>,
}

/// Colours, in turn.
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// Marker shapes, one for each round of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
}

const SHAPES: [Shape; 4] = [Shape::Circle, Shape::Square, Shape::Triangle, Shape::Diamond];

/// How one loop is drawn: a colour and a marker shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mark {
    pub(super) color: &'static str,
    pub(super) shape: Shape,
}

impl Mark {
    /// The mark of the `n`th loop: the palette in turn, the next shape after each round of it.
    pub(super) fn of(n: usize) -> Self {
        Self {
            color: PALETTE[n % PALETTE.len()],
            shape: SHAPES[(n / PALETTE.len()) % SHAPES.len()],
        }
    }

    /// The marker at (`x`, `y`), filled or hollow, with `title` as its tooltip.
    fn at(self, x: f64, y: f64, filled: bool, title: &str) -> String {
        let color = self.color;
        let fill = if filled { color } else { "#fff" };
        let paint = format!("fill=\"{fill}\" stroke=\"{color}\" stroke-width=\"2\"");
        let title = format!("<title>{}</title>", escape(title));
        match self.shape {
            Shape::Circle => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" {paint}>{title}</circle>"),
            Shape::Square => format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\" {paint}>{title}</rect>",
                x - 4.0,
                y - 4.0
            ),
            Shape::Triangle => format!(
                "<polygon points=\"{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" {paint}>{title}</polygon>",
                y - 5.0,
                x - 5.0,
                y + 4.0,
                x + 5.0,
                y + 4.0
            ),
            Shape::Diamond => format!(
                "<polygon points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" {paint}>{title}</polygon>",
                y - 5.0,
                x + 5.0,
                y + 5.0,
                x - 5.0
            ),
        }
    }

    /// The marker alone, for the list of loops above the charts.
    pub(super) fn swatch(self) -> String {
        format!(
            "<svg width=\"14\" height=\"14\" viewBox=\"0 0 14 14\" aria-hidden=\"true\">{}</svg>",
            self.at(7.0, 7.0, true, "")
        )
    }
}

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 56.0;
/// Room for the loops' names beside the ends of their lines.
const RIGHT: f64 = 56.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 36.0;
/// About the most markers drawn on one loop's line.
const MARKERS: usize = 25;
/// Most characters of a name printed beside a line (the whole name is in the markers' tooltips).
const LABEL: usize = 8;

/// One chart: a line per loop of `value` over the iterations; `None` values are left out. A chart with no value
/// at all says so instead of drawing empty axes.
pub(super) fn chart(
    title: &str,
    id: &str,
    series: &[Series],
    value: impl Fn(&Point) -> Option<f64>,
    target: Option<f64>,
) -> String {
    let values: Vec<(u64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(|p| value(p).map(|v| (p.iteration, v))))
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
        "<svg viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" overflow=\"visible\" role=\"img\" aria-label=\"{}\">",
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
    let mut labels: Vec<(f64, f64, &Series)> = Vec::new();
    for s in series {
        let drawn: Vec<(u64, f64, bool)> = s
            .points
            .iter()
            .filter_map(|p| value(p).map(|v| (p.iteration, v, p.passed)))
            .collect();
        let Some(&(last_i, last_v, _)) = drawn.last() else {
            continue;
        };
        let line: Vec<String> = drawn
            .iter()
            .map(|(i, v, _)| format!("{:.1},{:.1}", x(*i as f64), y(*v)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline class=\"series\" data-series=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" points=\"{}\"/>",
            escape(s.name),
            s.mark.color,
            if s.winner { 3 } else { 2 },
            line.join(" ")
        );
        // A long loop's line keeps every point; its markers are thinned to about `MARKERS` (passes and the last
        // always drawn), which keeps the page small: it is written at the end of every tournament.
        let stride = drawn.len().div_ceil(MARKERS);
        for (k, (i, v, passed)) in drawn.iter().enumerate() {
            if k % stride != 0 && !*passed && k + 1 != drawn.len() {
                continue;
            }
            let title = format!(
                "{} #{i}: {}{}",
                s.name,
                number(*v),
                if *passed { " (verify passed)" } else { "" }
            );
            out.push_str(&s.mark.at(x(*i as f64), y(*v), *passed, &title));
            out.push('\n');
        }
        // One line needs no name to tell it apart (a loop's page): its name is long, and in the list above.
        if series.len() > 1 {
            labels.push((x(last_i as f64) + 8.0, y(last_v) + 4.0, s));
        }
    }
    for (lx, ly, s) in spread(labels) {
        let short: String = s.name.chars().take(LABEL).collect();
        let _ = writeln!(
            out,
            "<text class=\"label\" x=\"{lx:.1}\" y=\"{ly:.1}\" fill=\"{}\">{}{}</text>",
            s.mark.color,
            escape(&short),
            if s.winner { " ★" } else { "" }
        );
    }
    out.push_str("</svg></figure>\n");
    out
}

/// The labels at their places, moved down where one would overlap the one above it at the same x.
fn spread<'a>(mut labels: Vec<(f64, f64, &'a Series<'a>)>) -> Vec<(f64, f64, &'a Series<'a>)> {
    const GAP: f64 = 11.0;
    labels.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    for k in 1..labels.len() {
        let (above_x, above_y) = (labels[k - 1].0, labels[k - 1].1);
        if (labels[k].0 - above_x).abs() < 40.0 && labels[k].1 - above_y < GAP {
            labels[k].1 = above_y + GAP;
        }
    }
    labels
}
