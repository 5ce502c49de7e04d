use super::*;

/// The shape of `claude -p --output-format json`'s report (Claude Code 2.1.197).
const REPORT: &str = r#"{"type":"result","subtype":"success","is_error":false,"result":"Fixed.\n\n<promise>LOOP_DONE</promise>","session_id":"s","total_cost_usd":0.5,"usage":{"input_tokens":1000,"cache_creation_input_tokens":2000,"cache_read_input_tokens":4000,"output_tokens":300},"modelUsage":{"claude-sonnet-4-5-20250929":{"inputTokens":1000,"outputTokens":300,"cacheReadInputTokens":4000,"cacheCreationInputTokens":2000,"costUSD":0.5}}}"#;

#[test]
fn a_json_report_gives_tokens_and_the_table_prices_them() {
    let receipt = from_output(&format!("some output\n{REPORT}\n"), &Prices::default()).expect("a receipt");
    assert_eq!(
        (
            receipt.tokens_in,
            receipt.tokens_out,
            receipt.cache_read,
            receipt.cache_write
        ),
        (1000, 300, 4000, 2000)
    );
    // sonnet: 1000 × 3 + 300 × 15 + 2000 × 3.75 + 4000 × 0.3 per million
    let want = (3000.0 + 4500.0 + 7500.0 + 1200.0) / 1_000_000.0;
    assert!((receipt.cost_usd.expect("priced") - want).abs() < 1e-12, "{receipt:?}");
    assert_eq!(
        result_text(REPORT).as_deref(),
        Some("Fixed.\n\n<promise>LOOP_DONE</promise>")
    );
}

#[test]
fn an_unknown_model_takes_the_agents_own_figure_and_plain_text_has_no_receipt() {
    let report = REPORT.replace("claude-sonnet-4-5-20250929", "mystery-1");
    let receipt = from_output(&report, &Prices::default()).expect("a receipt");
    assert_eq!(receipt.cost_usd, Some(0.5));
    assert_eq!(
        from_output("I fixed it.\n<promise>LOOP_DONE</promise>", &Prices::default()),
        None
    );
}

#[test]
fn the_users_file_overrides_the_table_and_bad_input_names_the_file_and_field() {
    let dir = std::env::temp_dir().join(format!("loopgate-prices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("prices.json");
    std::fs::write(
        &file,
        r#"{"models": {"sonnet-4-5": {"input": 1, "output": 1, "cache_write": 0, "cache_read": 0}}}"#,
    )
    .expect("write");
    let prices = Prices::load(Some(&file)).expect("loads");
    let receipt = from_output(REPORT, &prices).expect("a receipt");
    assert!((receipt.cost_usd.expect("priced") - 1300.0 / 1_000_000.0).abs() < 1e-12);
    std::fs::write(
        &file,
        r#"{"models": {"x": {"input": -1, "output": 1, "cache_write": 0, "cache_read": 0}}}"#,
    )
    .expect("write");
    let err = Prices::load(Some(&file)).expect_err("refused");
    assert!(
        err.contains("prices.json") && err.contains("`models.x.input`") && !err.contains('\n'),
        "{err}"
    );
    std::fs::write(&file, r#"{"models": {"x": {"inptu": 1}}}"#).expect("write");
    let err = Prices::load(Some(&file)).expect_err("refused");
    assert!(
        err.contains("prices.json") && err.contains("inptu") && !err.contains('\n'),
        "{err}"
    );
    let missing = Prices::load(Some(&dir.join("none.json"))).expect_err("refused");
    assert!(missing.contains("none.json"), "{missing}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn totals_add_up_and_an_unknown_cost_stays_unknown() {
    let a = Receipt {
        tokens_in: 1,
        tokens_out: 2,
        cost_usd: Some(0.25),
        ..Receipt::default()
    };
    let b = Receipt {
        tokens_in: 10,
        cost_usd: Some(0.5),
        ..Receipt::default()
    };
    let sum = total([&a, &b]);
    assert_eq!((sum.tokens_in, sum.tokens_out, sum.cost_usd), (11, 2, Some(0.75)));
    let unknown = Receipt::default();
    assert_eq!(total([&a, &unknown]).cost_usd, None);
}
