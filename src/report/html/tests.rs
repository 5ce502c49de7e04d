use super::*;
use crate::history::event::{AgentRun, Complete, Init, Rejected};
use crate::history::{Event, Record, VerifyResult};
use crate::readout::TestCounts;
use crate::schema::{Receipt, ReviewNote, ReviewVerdict};

fn run(loop_id: &str, iteration: u64, cost: Option<f64>) -> Record {
    Record::new(
        loop_id,
        iteration,
        Event::AgentRun(AgentRun {
            receipt: cost.map(|c| Receipt {
                tokens_in: 10,
                cost_usd: Some(c),
                ..Receipt::default()
            }),
            ..AgentRun::default()
        }),
    )
}

fn verify(passed: u64, failed: u64, score: f64) -> VerifyResult {
    VerifyResult {
        passed: failed == 0,
        exit: Some(i32::from(failed > 0)),
        counts: Some(TestCounts {
            passed,
            failed,
            skipped: 0,
            ignored: 0,
        }),
        score: Some(score),
        summary: (failed > 0).then(|| "2 failed: parser::unicode, parser::emoji\nleft: 1 right: 2".to_string()),
        ..VerifyResult::default()
    }
}

fn init(loop_id: &str, task: &str, verify: &str) -> Record {
    Record::new(
        loop_id,
        1,
        Event::Init(Init {
            verify_command: Some(verify.into()),
            max_iterations: 5,
            task: Some(task.into()),
            max_duration: Some(600),
            max_cost: Some(2.5),
            ..Init::default()
        }),
    )
}

fn lane(name: &str, loop_id: &str) -> Lane {
    Lane {
        name: name.into(),
        about: format!("{name} did things"),
        notes: Vec::new(),
        loop_id: loop_id.into(),
        records: vec![
            init(loop_id, "fix the parser", "cargo test"),
            run(loop_id, 1, Some(0.25)),
            Record::new(
                loop_id,
                1,
                Event::VerifyFailed(Rejected {
                    verify: verify(3, 2, 0.5),
                    ..Rejected::default()
                }),
            ),
            run("another-loop", 1, Some(9.0)),
            run(loop_id, 2, Some(0.5)),
            Record::new(
                loop_id,
                2,
                Event::Complete(Complete {
                    promise_rejections: 0,
                    verify: Some(verify(5, 0, 0.9)),
                    review: None,
                }),
            ),
        ],
    }
}

fn page(lanes: &[Lane], winner: Option<usize>, target: Option<f64>) -> String {
    render(&Page {
        title: "tournament <t>".into(),
        lanes,
        winner,
        outcome: "the outcome".into(),
        target,
    })
}

#[test]
fn each_iteration_has_its_tests_score_cost_so_far_verdict_and_only_its_own_loops_records_count() {
    let points = points(&lane("c1", "lg-1"));
    assert_eq!(points.len(), 2, "{points:?}");
    assert_eq!(
        (points[0].passing, points[0].failing, points[0].passed),
        (Some(3), Some(2), false)
    );
    assert_eq!(
        (points[1].passing, points[1].score, points[1].passed),
        (Some(5), Some(0.9), true)
    );
    assert_eq!((points[0].cost, points[1].cost), (Some(0.25), Some(0.75)));
    assert_eq!(
        points[0].verdict.as_deref(),
        Some("verify_failed: fail (exit 1, score 0.5)")
    );
    assert_eq!(
        points[0].why,
        ["2 failed: parser::unicode, parser::emoji", "left: 1 right: 2"]
    );
    assert!(points[1].why.is_empty(), "a pass says nothing more");
}

#[test]
fn the_page_draws_a_line_per_loop_in_each_chart_with_the_target_and_says_what_was_run() {
    let lanes = [lane("c1", "lg-1"), lane("c2", "lg-2")];
    let page = page(&lanes, None, Some(0.8));
    for id in ["tests", "score", "cost", "time"] {
        assert!(page.contains(&format!("<figure id=\"{id}\">")), "{id}");
    }
    assert_eq!(page.matches("<polyline").count(), 8, "two loops in four charts");
    assert_eq!(
        page.matches("class=\"target\"").count(),
        1,
        "the target on the score chart only"
    );
    assert!(page.contains("$0.7500"), "the cost so far in the table");
    assert!(
        page.contains("<dd><div class=\"task\">fix the parser</div></dd>"),
        "the task"
    );
    assert!(page.contains("<code>cargo test</code>"), "the verify command");
    assert!(
        page.contains("--max-iterations 5 · --max-duration 600s · --max-cost $2.50"),
        "the budget as set:\n{page}"
    );
    assert!(page.contains("the outcome"));
}

#[test]
fn the_winner_is_marked_in_the_list_on_its_lines_and_on_its_rows_and_no_one_else_is() {
    let lanes = [lane("c1", "lg-1"), lane("c2", "lg-2"), lane("c3", "lg-3")];
    let page = page(&lanes, Some(1), None);
    assert_eq!(page.matches("★ winner").count(), 1, "{page}");
    let winner = page
        .lines()
        .find(|l| l.starts_with("<li class=\"winner\">"))
        .expect("the winner's line");
    assert!(winner.contains("<b>c2</b>"), "{winner}");
    // Beside its line in each of the four charts, and on each of its two rows.
    assert_eq!(page.matches(">c2 ★</text>").count(), 4, "{page}");
    assert_eq!(page.matches("<td>c2 ★</td>").count(), 2, "{page}");
    assert!(!page.contains("c1 ★") && !page.contains("c3 ★"));
    let none = self::page(&lanes, None, None);
    assert!(!none.contains('★') && !none.contains("class=\"winner\""));
}

#[test]
fn rejection_reasons_and_failing_tests_are_on_the_iterations_row() {
    let mut gamer = lane("c1", "lg-1");
    gamer.notes = vec!["rejected for changing the oracle's inputs: check.sh".into()];
    gamer.records.push(Record::new(
        "lg-1",
        3,
        Event::PromiseRejected(Rejected {
            verify: VerifyResult::sealed(vec!["check.sh (modified)".into()]),
            ..Rejected::default()
        }),
    ));
    let mut reviewed = verify(5, 0, 1.0);
    reviewed.note = Some("the score gate was not met".into());
    gamer.records.push(Record::new(
        "lg-1",
        4,
        Event::PromiseRejected(Rejected {
            verify: reviewed,
            review: Some(ReviewNote {
                verdict: ReviewVerdict::Gaming,
                findings: vec!["the test was special-cased".into()],
                ..ReviewNote::default()
            }),
            ..Rejected::default()
        }),
    ));
    let page = page(&[gamer], None, None);
    let row = |iteration: u64| {
        let start = page
            .find(&format!("<tr><td>c1</td><td>{iteration}</td>"))
            .unwrap_or_else(|| panic!("row {iteration}:\n{page}"));
        let row = &page[start..];
        row[..row.find("</tr>").expect("the row's end")].to_string()
    };
    let failing = row(1);
    assert!(
        failing.contains("verify_failed: fail (exit 1")
            && failing.contains("2 failed: parser::unicode, parser::emoji\nleft: 1 right: 2"),
        "{failing}"
    );
    let sealed = row(3);
    assert!(
        sealed.contains("promise_rejected: rejected: 1 sealed file(s) changed")
            && sealed.contains("changed a sealed input: check.sh (modified)"),
        "{sealed}"
    );
    let review = row(4);
    assert!(
        review.contains("the score gate was not met") && review.contains("review: gaming (the test was special-cased)"),
        "{review}"
    );
    assert!(page.contains("<span class=\"note\">rejected for changing the oracle&#39;s inputs: check.sh</span>"));
}

#[test]
fn twelve_candidates_each_have_a_mark_of_their_own_and_their_name_beside_their_line() {
    let lanes: Vec<Lane> = (1..=12).map(|k| lane(&format!("c{k}"), &format!("lg-{k}"))).collect();
    let page = page(&lanes, None, None);
    for k in 1..=12 {
        let label = format!(">c{k}</text>");
        assert_eq!(page.matches(&label).count(), 4, "c{k} beside its line in every chart");
    }
    // Past the palette's 8 colours the shape differs: the 9th to 12th have squares.
    assert_eq!(
        page.matches("<rect ").count(),
        4 * 2 * 4 + 4,
        "4 lanes × 2 points × 4 charts, 4 swatches"
    );
    // Every candidate a tournament can have has a mark no other has.
    let max = crate::commands::run::tournament::MAX_CANDIDATES as usize;
    let marks: Vec<chart::Mark> = (0..max).map(chart::Mark::of).collect();
    for (i, a) in marks.iter().enumerate() {
        assert!(!marks[i + 1..].contains(a), "mark {i} ({a:?}) is reused");
    }
}

/// The page with `text` in every place a user's or an agent's words go: the title, a loop's name, what is said
/// of it and under it, the task, the verify command, a failure's summary and the outcome.
fn everywhere(text: &str) -> String {
    let mut lane = lane(text, "lg-1");
    lane.about = text.into();
    lane.notes = vec![text.into()];
    lane.records[0] = init("lg-1", text, text);
    if let Event::VerifyFailed(rejected) = &mut lane.records[2].event {
        rejected.verify.summary = Some(text.into());
    }
    render(&Page {
        title: text.into(),
        lanes: &[lane],
        winner: Some(0),
        outcome: text.into(),
        target: None,
    })
}

/// Every tag of `page` is one of the renderer's, with only the renderer's attributes.
#[track_caller]
fn only_the_renderers_tags(page: &str) {
    const TAGS: [&str; 34] = [
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "dl",
        "dt",
        "dd",
        "div",
        "code",
        "span",
        "ul",
        "li",
        "b",
        "strong",
        "br",
        "svg",
        "figure",
        "figcaption",
        "p",
        "path",
        "text",
        "line",
        "polyline",
        "circle",
        "rect",
        "polygon",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
    ];
    const ATTRIBUTES: [&str; 27] = [
        "lang",
        "charset",
        "class",
        "id",
        "width",
        "height",
        "viewbox",
        "aria-hidden",
        "aria-label",
        "role",
        "d",
        "x",
        "y",
        "x1",
        "x2",
        "y1",
        "y2",
        "cx",
        "cy",
        "r",
        "fill",
        "stroke",
        "stroke-width",
        "points",
        "text-anchor",
        "data-series",
        "overflow",
    ];
    for tag in tags(page).into_iter().filter(|t| *t != "!doctype html") {
        let (name, attributes) = parse_tag(tag);
        assert!(TAGS.contains(&name.as_str()) || name == "td", "tag `{name}` in <{tag}>");
        for attribute in attributes {
            assert!(
                ATTRIBUTES.contains(&attribute.as_str()) || (name == "td" && attribute == "colspan"),
                "attribute `{attribute}` in <{tag}>"
            );
        }
    }
}

#[test]
fn hostile_text_everywhere_round_trips_as_text_and_adds_no_tag_or_attribute() {
    let hostile = "</title><script>alert(\"x & y\")</script>'\n<img src=x onerror=alert(1)> &amp; \"q\"";
    let page = everywhere(hostile);
    only_the_renderers_tags(&page);
    // And the text reads back as it was written, wherever it was put.
    let text = decode(&strip_tags(&page));
    assert!(
        text.matches(hostile).count() >= 10,
        "title ×2, task, verify, outcome, list name, about, note, table name, summary:\n{text}"
    );
    assert!(
        !page.contains("http://") && !page.contains("https://") && !page.contains("url("),
        "offline: the page names no URL"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any text, markup-heavy or not, in every place: no tag or attribute of its own, and it reads back whole.
    #[test]
    fn any_text_round_trips_as_text(text in "[<>&\"'/=a-z \n]{0,40}|\\PC{0,30}") {
        let page = everywhere(&text);
        only_the_renderers_tags(&page);
        let read = decode(&strip_tags(&page));
        let whole = text.trim_end();
        proptest::prop_assert!(read.matches(whole).count() >= 9 || whole.is_empty(), "{text:?}");
    }
}

/// The raw tags of `page`: every `<…>` (text never holds a raw `<`: [`escape`]).
fn tags(page: &str) -> Vec<&str> {
    page.split('<')
        .skip(1)
        .map(|rest| &rest[..rest.find('>').expect("a closed tag")])
        .collect()
}

/// A tag's name and its attributes' names; panics on anything but `name="value"` attributes (a quote that
/// escaped its value would show here).
fn parse_tag(tag: &str) -> (String, Vec<String>) {
    let tag = tag.trim_start_matches('/').trim_end_matches('/');
    let (name, mut rest) = tag.split_once(' ').unwrap_or((tag, ""));
    let mut attributes = Vec::new();
    while !rest.trim().is_empty() {
        let (attribute, after) = rest
            .trim_start()
            .split_once("=\"")
            .unwrap_or_else(|| panic!("an attribute without a quoted value in <{tag}>"));
        assert!(
            attribute.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "`{attribute}` in <{tag}>"
        );
        attributes.push(attribute.to_ascii_lowercase());
        rest = &after[after.find('"').expect("a closing quote") + 1..];
    }
    (name.to_ascii_lowercase(), attributes)
}

fn strip_tags(page: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in page.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

fn decode(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn a_chart_with_nothing_recorded_says_so() {
    let empty = Lane {
        name: "c1".into(),
        loop_id: "lg-1".into(),
        records: vec![run("lg-1", 1, None)],
        ..Lane::default()
    };
    let page = page(&[empty], None, None);
    assert!(page.contains("nothing recorded"));
    assert!(
        page.contains("<figure id=\"time\">") && page.matches("<polyline").count() == 1,
        "only time is known"
    );
    assert!(
        page.contains("<span class=\"none\">not recorded</span>"),
        "no init: the task is not known"
    );
}

#[test]
fn the_ending_is_read_from_the_loops_records() {
    let lane = lane("c1", "lg-1");
    assert_eq!(ending(&lane.records, "lg-1"), "complete at iteration 2");
    assert_eq!(
        ending(&lane.records[..3], "lg-1"),
        "running (or stopped without a final record)"
    );
    let cancelled = [Record::new(
        "lg-1",
        4,
        Event::Cancelled(crate::history::event::Reason::new("cancelled by the user")),
    )];
    assert_eq!(
        ending(&cancelled, "lg-1"),
        "cancelled at iteration 4: cancelled by the user"
    );
}

/// The page is written at the end of every tournament: for the most candidates a tournament can have, each 100
/// iterations long, the charts keep every point of each line but thin its markers, and the table lists each
/// candidate's latest iterations, so the page stays under a megabyte.
#[test]
fn a_long_tournaments_page_stays_small() {
    let max = crate::commands::run::tournament::MAX_CANDIDATES as usize;
    let lanes: Vec<Lane> = (1..=max)
        .map(|k| {
            let id = format!("lg-{k}");
            let mut records = vec![init(&id, "fix the parser", "cargo test")];
            for i in 1..=100 {
                records.push(run(&id, i, Some(0.01)));
                let verify = verify(3, 2, 0.5);
                records.push(Record::new(
                    &id,
                    i,
                    Event::VerifyFailed(Rejected {
                        verify,
                        ..Rejected::default()
                    }),
                ));
            }
            Lane {
                name: format!("c{k}"),
                loop_id: id,
                records,
                ..Lane::default()
            }
        })
        .collect();
    let page = page(&lanes, Some(3), None);
    assert!(page.len() < 1_000_000, "{} bytes", page.len());
    let markers = page.matches("<title>c7 #").count();
    assert!(
        (4 * 20..=4 * 26).contains(&markers),
        "c7's markers in 4 charts: {markers}"
    );
    assert_eq!(
        page.matches("<tr><td>c7</td>").count(),
        1 + 40,
        "a line for what is not listed, and 40 rows"
    );
    assert!(page.contains("<tr><td>c7</td><td colspan=\"8\" class=\"none\">60 earlier iteration(s) not listed"));
    assert_eq!(
        page.matches("data-series=\"c7\"").count(),
        4,
        "every chart has c7's line"
    );
    let line = page
        .lines()
        .find(|l| l.contains("data-series=\"c7\""))
        .expect("c7's line");
    let points = &line[line.find(" points=\"").expect("points") + 9..];
    assert_eq!(points.split(' ').count(), 100, "every point of it: {line}");
}

#[test]
fn a_single_loops_line_carries_no_label_and_several_do() {
    let one = page(&[lane("lg-20261129T102943Z-73552b", "lg-1")], None, None);
    assert!(!one.contains("class=\"label\""), "{one}");
    let two = page(&[lane("c1", "lg-1"), lane("c2", "lg-2")], None, None);
    assert_eq!(two.matches("class=\"label\"").count(), 2 * 4);
}
