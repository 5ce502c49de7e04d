use super::*;
use crate::history::event::{AgentRun, Complete, Rejected};
use crate::history::{Event, Record, VerifyResult};
use crate::readout::TestCounts;
use crate::schema::Receipt;

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
        counts: Some(TestCounts {
            passed,
            failed,
            skipped: 0,
            ignored: 0,
        }),
        score: Some(score),
        ..VerifyResult::default()
    }
}

fn lane(name: &str, loop_id: &str) -> Lane {
    Lane {
        name: name.into(),
        loop_id: loop_id.into(),
        records: vec![
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

#[test]
fn each_iteration_has_its_tests_score_cost_so_far_and_only_its_own_loops_records_count() {
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
}

#[test]
fn the_page_draws_a_line_per_loop_in_each_chart_with_the_target_and_escapes_names() {
    let page = render(
        "tournament <t>",
        &[lane("c1 <gamer>", "lg-1"), lane("c2", "lg-2")],
        Some(0.8),
    );
    for id in ["tests", "score", "cost", "time"] {
        assert!(page.contains(&format!("<figure id=\"{id}\">")), "{id}");
    }
    assert_eq!(page.matches("<polyline").count(), 8, "two loops in four charts");
    assert_eq!(
        page.matches("class=\"target\"").count(),
        1,
        "the target on the score chart only"
    );
    assert!(
        page.contains("tournament &lt;t&gt;") && !page.contains("<gamer>"),
        "names are escaped"
    );
    assert!(
        !page.contains("<script") && !page.contains(" src=") && !page.contains(" href="),
        "self-contained: no script, nothing loaded"
    );
    assert!(page.contains("$0.7500"), "the cost so far in the table");
}

#[test]
fn a_chart_with_nothing_recorded_says_so() {
    let empty = Lane {
        name: "c1".into(),
        loop_id: "lg-1".into(),
        records: vec![run("lg-1", 1, None)],
    };
    let page = render("t", &[empty], None);
    assert!(page.contains("nothing recorded"));
    assert!(
        page.contains("<figure id=\"time\">") && page.matches("<polyline").count() == 1,
        "only time is known"
    );
}
