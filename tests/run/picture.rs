//! Issue 35 (2, 3) with a scripted agent that reports its usage as `claude -p --output-format json` does: each
//! iteration's receipt in the history and on `loopgate history`, `--max-cost` ending the loop, and the picture
//! (`loopgate report --html`) loaded in a real headless browser.
//!
//! The browser is Debian's `chromium` (`.ci/run` installs it). Without it the browser test fails and says how to
//! install it: like tmux for the interactive scenario, it never skips.

use std::process::Command;

use crate::support::{Project, TASK};

/// Counts its iterations in `n`, fixes the work at iteration 3, and ends with the JSON report of a Claude Code
/// run: 1000 tokens in and 200 out of a Sonnet model ($0.006 at the built-in prices).
const REPORTER: &str = r#"n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n
if [ "$n" -ge 3 ]; then echo fixed > src.txt; fi
echo '{"type":"result","result":"worked on it","total_cost_usd":1,"usage":{"input_tokens":1000,"output_tokens":200},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":1000,"outputTokens":200}}}'"#;

#[test]
fn each_iteration_has_a_receipt_priced_by_the_table_and_history_shows_it() {
    let p = Project::new();
    let agent = p.agent("reporter", REPORTER);
    let out = p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "5",
        TASK,
        "--",
        &agent,
    ]);
    out.code(0).stderr_has("cost: $0.0180, 3000 in / 600 out");
    let receipts: Vec<_> = p
        .history()
        .into_iter()
        .filter(|r| r["status"] == "agent_run")
        .map(|r| r["receipt"].clone())
        .collect();
    assert_eq!(receipts.len(), 3);
    for receipt in &receipts {
        assert_eq!(
            (receipt["tokens_in"].as_u64(), receipt["tokens_out"].as_u64()),
            (Some(1000), Some(200))
        );
        let cost = receipt["cost_usd"].as_f64().expect("priced");
        assert!(
            (cost - 0.006).abs() < 1e-9,
            "the table, not the agent's own figure: {receipt}"
        );
    }
    let history = p.command(&["history"]).output().expect("loopgate history");
    let text = String::from_utf8_lossy(&history.stdout);
    assert!(
        text.contains("agent exit 0") && text.contains("$0.0060, 1000 in / 200 out"),
        "{text}"
    );
}

#[test]
fn max_cost_ends_the_loop_cleanly_between_iterations() {
    let p = Project::new();
    let agent = p.agent("reporter", REPORTER);
    let out = p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "5",
        "--max-cost",
        "0.01",
        TASK,
        "--",
        &agent,
    ]);
    out.code(6);
    assert_eq!(
        p.read("n").trim(),
        "2",
        "the second iteration crossed the budget: {out:#?}"
    );
    let end = p.last("cancelled");
    assert!(
        end["reason"]
            .as_str()
            .is_some_and(|r| r.contains("cost budget") && r.contains("$0.0120")),
        "{end}"
    );
    assert!(p.state().is_none(), "the loop ended");
    // The run's own budget is in the loop's `init`, with the task, for the report's page.
    let init = p.last("init");
    assert_eq!(
        (init["max_cost"].as_f64(), init["task"].as_str()),
        (Some(0.01), Some(TASK)),
        "{init}"
    );
    assert_eq!(init["max_iterations"], 5, "{init}");
}

#[test]
fn a_bad_price_file_is_one_line_naming_the_file_and_field() {
    let p = Project::new();
    p.write(
        "prices.json",
        r#"{"models": {"sonnet": {"input": -3, "output": 15, "cache_write": 0, "cache_read": 0}}}"#,
    );
    let agent = p.agent("reporter", REPORTER);
    let prices = p.path("prices.json");
    let out = p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        "--prices",
        crate::support::s(&prices),
        TASK,
        "--",
        &agent,
    ]);
    out.code(2);
    let line = out.stderr.trim();
    assert!(
        !line.contains('\n') && line.contains("prices.json") && line.contains("`models.sonnet.input`"),
        "{out:#?}"
    );
}

/// The page of a finished loop, loaded by headless Chromium: its DOM (after the browser parsed it) has the four
/// charts, a line with a point per iteration in each that has values, and the table.
#[test]
fn the_picture_of_a_loop_loads_in_a_headless_browser() {
    let p = Project::new();
    let agent = p.agent("reporter", REPORTER);
    p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "5",
        TASK,
        "--",
        &agent,
    ])
    .code(0);
    let report = p
        .command(&["report", "--html"])
        .output()
        .expect("loopgate report --html");
    assert!(report.status.success(), "{report:?}");
    let page = String::from_utf8_lossy(&report.stdout).trim().to_string();
    assert!(
        page.ends_with(".html") && std::path::Path::new(&page).is_file(),
        "prints the path: {page}"
    );

    let browser = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .unwrap_or_else(|| {
            panic!("no headless browser: install Debian's chromium (`apt-get install chromium`), as .ci/run does")
        });
    let dom = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{page}"))
        .env("HOME", p.path("browser-home"))
        .output()
        .expect("run the browser");
    let dom = String::from_utf8_lossy(&dom.stdout);
    for id in ["tests", "score", "cost", "time"] {
        assert!(
            dom.contains(&format!("<figure id=\"{id}\">")),
            "chart {id} in the DOM:\n{dom}"
        );
    }
    // Cost and time have a value at each of the 3 iterations; nothing printed a score or test counts here.
    assert_eq!(dom.matches("<polyline").count(), 2, "{dom}");
    assert_eq!(
        dom.matches("<circle").count(),
        6 + 1,
        "three points in each of two charts, and the loop's mark in the list:\n{dom}"
    );
    assert_eq!(dom.matches("nothing recorded").count(), 2, "{dom}");
    assert_eq!(dom.matches("<tr>").count(), 4, "a header and three iterations:\n{dom}");
    assert!(dom.contains("$0.0180"), "the cost so far at the last iteration:\n{dom}");
    // What was run and how it ended, as on a tournament's page (one renderer draws both).
    assert!(
        dom.contains(&format!("<div class=\"task\">{TASK}</div>")) && dom.contains("<code>sh check.sh</code>"),
        "the task and the verify command:\n{dom}"
    );
    assert!(
        dom.contains("--max-iterations 5 · no --max-duration · no --max-cost"),
        "{dom}"
    );
    assert!(dom.contains("The loop: complete at iteration 3."), "{dom}");
}
