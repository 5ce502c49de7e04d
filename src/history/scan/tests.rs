use super::*;
use serde_json::json;

use crate::history::{of_loop, read_last, read_tail, test_record_of};

/// Records of three loops whose ids prefix one another, text mentioning another loop's id, ANSI escapes (JSON
/// `\u001b`), an id spelled with escapes, a torn line, garbage and a blank line.
fn sample() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut add = |line: String| {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    };
    for i in 0..30u64 {
        let id = ["lg-a", "lg-ab", "lg-b"][usize::try_from(i % 3).expect("small")];
        let record = test_record_of(
            id,
            i,
            json!({"status": "continue", "diff_stat": "mentions lg-a \u{1b}[31m"}),
        );
        add(serde_json::to_string(&record).expect("json"));
    }
    add(r#"{"loop_id":"lg-\u0061","iteration":99,"status":"continue","timestamp":"2026-11-21T19:40:00Z"}"#.to_string());
    add(r#"{"loop_id":"lg-a","itera"#.to_string());
    add("garbage that never names a loop".to_string());
    add(String::new());
    add(r#"{"loop_id":"lg-b","iteration":7,"status":"init","timestamp":"2026-11-21T19:40:00Z"}"#.to_string());
    bytes
}

#[test]
fn reading_one_loop_equals_filtering_all_records() {
    let bytes = sample();
    for id in ["lg-a", "lg-ab", "lg-b", "lg-c", "a", "\"", ""] {
        let all = parse(&bytes);
        let want: Vec<&Record> = of_loop(&all.records, id).collect();
        let got = parse_loop(&bytes, id);
        assert_eq!(got.records.iter().collect::<Vec<_>>(), want, "loop `{id}`");
    }
    let a = parse_loop(&bytes, "lg-a");
    assert_eq!(
        a.records.last().map(|r| r.iteration),
        Some(99),
        "an escaped id is still found"
    );
    assert_eq!(a.bad_lines, vec![32], "the torn line that names the loop is reported");

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("h.jsonl");
    assert_eq!(read_last(&path).expect("missing file").map(|r| r.iteration), None);
    std::fs::write(&path, &bytes).expect("write");
    assert_eq!(read_last(&path).expect("read").map(|r| r.iteration), Some(7));
    std::fs::write(&path, b"not json\n").expect("write");
    assert_eq!(read_last(&path).expect("read"), None);
    assert!(read_loop(&path, "lg-a").expect("missing file").records.is_empty());
    // Big enough for several chunks and windows, with a record of another loop at the very end.
    let mut big = Vec::new();
    for _ in 0..60 {
        big.extend_from_slice(&bytes);
    }
    let filler = test_record_of(
        "lg-old",
        0,
        json!({"status": "continue", "diff_stat": "x".repeat(100_000)}),
    );
    for _ in 0..25 {
        big.extend_from_slice(serde_json::to_string(&filler).expect("json").as_bytes());
        big.push(b'\n');
    }
    big.extend_from_slice(&bytes);
    big.extend_from_slice(b"{\"torn");
    std::fs::write(&path, &big).expect("write");
    let whole = parse(&big);
    let from_file = read_loop(&path, "lg-a").expect("read");
    let in_memory = parse_loop(&big, "lg-a");
    assert_eq!(from_file.records, in_memory.records);
    assert_eq!(from_file.bad_lines, in_memory.bad_lines);
    assert_eq!(
        from_file.records.iter().collect::<Vec<_>>(),
        of_loop(&whole.records, "lg-a").collect::<Vec<_>>()
    );
    assert_eq!(read_last(&path).expect("read").as_ref(), whole.records.last());
}

#[test]
fn the_tail_read_backwards_is_the_end_of_the_records_read_forwards() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("h.jsonl");
    let mut bytes = sample();
    let records = [
        test_record_of(
            "lg-a",
            40,
            json!({"status": "promise_rejected", "timed_out": true, "duration_ms": 1200, "score": null,
                "verify_tail": "x".repeat(5000)}),
        ),
        test_record_of("lg-a", 41, json!({"status": "continue", "tree_changed": false})),
        test_record_of(
            "lg-a",
            42,
            json!({"status": "promise_rejected", "sealed_changes": ["tests/a.rs (changed)"]}),
        ),
        test_record_of("lg-a", 43, json!({"status": "complete"})),
    ];
    for record in &records {
        bytes.extend_from_slice(serde_json::to_string(record).expect("json").as_bytes());
        bytes.push(b'\n');
    }
    std::fs::write(&path, &bytes).expect("write");
    let full = read_loop(&path, "lg-a").expect("read");
    let tail = read_tail(&path, "lg-a", 0).expect("tail");
    assert_eq!(tail.records.len(), full.records.len().min(crate::history::TAIL_EVENTS));
    assert_eq!(tail.records, full.records[full.records.len() - tail.records.len()..]);
    assert_eq!(
        tail.last_verify.as_ref(),
        Some(&records[2]),
        "a broken seal is a verify; a complete without one is not"
    );
}

#[test]
fn a_line_is_skipped_by_its_leading_id_only_when_it_cannot_be_the_loops_record() {
    // A second `loop_id` key makes a line no record at all, so the leading id decides.
    let twice = br#"{"loop_id":"lg-x","iteration":1,"status":"init","timestamp":"t","loop_id":"lg-a"}"#;
    assert!(serde_json::from_slice::<Record>(twice).is_err());
    assert_eq!(parse_loop(twice, "lg-a").records, vec![]);
    assert_eq!(
        leading_loop_id(br#"{"loop_id":"lg-a","iteration":1}"#),
        Some(&b"lg-a"[..])
    );
    assert_eq!(
        leading_loop_id(br#"{"loop_id":"lg-\u0061"}"#),
        None,
        "escaped: parsed to compare"
    );
    assert_eq!(
        leading_loop_id(br#"{"iteration":1,"loop_id":"lg-a"}"#),
        None,
        "another key order: parsed"
    );
    assert_eq!(
        leading_loop_id(br#"{ "loop_id": "lg-a"}"#),
        None,
        "other spacing: parsed"
    );
}
