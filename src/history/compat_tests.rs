//! Old history files stay readable: `tests/fixtures/history-0.1.0.jsonl` holds records exactly as loopgate 0.1.0
//! (before the history was typed) wrote them — taken from its own test runs, one or more of every status and
//! every shape of fields — and every line must read into the typed events and write back with the same keys and
//! values. The only differences allowed: a `null` value is now left out, a verify result always says `passed`
//! and `timed_out` (the sealed-change rejection did not), and a count or flag missing from a hand-written line is
//! written with its default (`0`, `false`).

use serde_json::{Map, Value};

use super::{Status, parse};

const FIXTURE: &[u8] = include_bytes!("../../tests/fixtures/history-0.1.0.jsonl");

/// Keys a new record may have that the old line did not.
const ADDED: [&str; 2] = ["passed", "timed_out"];

fn lines() -> Vec<&'static [u8]> {
    FIXTURE.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect()
}

#[test]
fn every_line_of_the_old_format_reads_into_a_typed_event() {
    let read = parse(FIXTURE);
    assert_eq!(read.bad_lines, Vec::<usize>::new());
    assert_eq!(read.records.len(), lines().len());
    let statuses: std::collections::BTreeSet<&str> = read.records.iter().map(|r| r.status().as_str()).collect();
    for status in ALL {
        assert!(
            statuses.contains(status.as_str()),
            "the fixture has no `{}`",
            status.as_str()
        );
    }
}

#[test]
fn old_lines_write_back_with_the_same_keys_and_values() {
    for line in lines() {
        let old: Map<String, Value> = serde_json::from_slice(line).expect("fixture line");
        let record: super::Record = serde_json::from_slice(line).expect("record");
        let Value::Object(new) = serde_json::to_value(&record).expect("serialize") else {
            panic!("not an object");
        };
        let text = String::from_utf8_lossy(line);
        for (key, value) in &old {
            if value.is_null() {
                assert!(!new.contains_key(key) || new[key].is_null(), "`{key}` in {text}");
            } else {
                assert_eq!(new.get(key), Some(value), "`{key}` in {text}");
            }
        }
        for (key, value) in &new {
            let default =
                matches!(value, Value::Bool(false)) || value == 0 || value == "" || value == &Value::Array(vec![]);
            assert!(
                old.contains_key(key) || ADDED.contains(&key.as_str()) || default,
                "new key `{key}` for {text}"
            );
        }
    }
}

#[test]
fn verify_results_of_the_old_format_keep_their_meaning() {
    let read = parse(FIXTURE);
    let verifies: Vec<_> = read.records.iter().filter_map(|r| r.event.verify()).collect();
    assert!(verifies.iter().any(|v| v.sealed_changes.is_some()));
    assert!(verifies.iter().any(|v| v.timed_out));
    assert!(verifies.iter().any(|v| v.passed && v.exit == Some(0)));
    assert!(
        verifies
            .iter()
            .any(|v| v.ratchet.as_ref().is_some_and(|r| !r.is_empty()))
    );
    let promise_only = read
        .records
        .iter()
        .filter(|r| r.status() == Status::Complete)
        .any(|r| r.event.verify().is_none());
    assert!(
        promise_only,
        "a loop completed by the promise alone has no verify result"
    );
}

const ALL: [Status; 24] = [
    Status::Init,
    Status::Continue,
    Status::PromiseRejected,
    Status::Complete,
    Status::MaxIterations,
    Status::MaxDuration,
    Status::MaxTokens,
    Status::MaxCost,
    Status::Aborted,
    Status::Paused,
    Status::Resumed,
    Status::Cancelled,
    Status::Stalled,
    Status::TamperDetected,
    Status::SelfCheck,
    Status::VerifyFailed,
    Status::Allowed,
    Status::AgentRun,
    Status::GaveUp,
    Status::RolledBack,
    Status::BlockCap,
    Status::TurnEnded,
    Status::StopFailure,
    Status::Usage,
];

mod round_trip {
    use chrono::{DateTime, Utc};
    use proptest::prelude::*;

    use super::super::event::*;
    use super::super::{Event, Record, VerifyResult, parse};

    prop_compose! {
        fn verify_result()(
            passed: bool,
            exit in proptest::option::of(-1i32..256),
            signal in proptest::option::of(1i32..32),
            timed_out: bool,
            duration_ms in proptest::option::of(0u64..u64::MAX),
            texts in proptest::collection::vec(proptest::option::of(".{0,40}"), 4),
            zero_tests in proptest::option::of(any::<bool>()),
            score in proptest::option::of(-1e9f64..1e9),
            counts in proptest::option::of((0u64..1000, 0u64..1000, 0u64..1000, 0u64..1000)),
            sealed in proptest::option::of(proptest::collection::vec(".{0,20}", 0..3)),
        ) -> VerifyResult {
            VerifyResult {
                passed,
                exit,
                signal,
                timed_out,
                duration_ms,
                tail: texts[0].clone(),
                fingerprint: texts[1].clone(),
                summary: texts[2].clone(),
                log: texts[3].clone(),
                zero_tests,
                score,
                note: texts[0].clone(),
                counts: counts.map(|(p, f, s, i)| crate::readout::TestCounts::new(p, f, s, i)),
                ratchet: None,
                sealed_changes: sealed,
            }
        }
    }

    prop_compose! {
        fn tree()(
            changed in proptest::option::of(any::<bool>()),
            texts in proptest::collection::vec(proptest::option::of(".{0,30}"), 3),
        ) -> Tree {
            Tree {
                tree_changed: changed,
                diff_stat: texts[0].clone(),
                checkpoint: texts[1].clone(),
                checkpoint_error: texts[2].clone(),
            }
        }
    }

    prop_compose! {
        fn event()(
            kind in 0usize..24,
            s in proptest::collection::vec(".{0,30}", 4),
            n in proptest::collection::vec(any::<u64>(), 3),
            flag: bool, code in proptest::option::of(any::<i32>()), cap in proptest::option::of(any::<u64>()),
            verify in verify_result(), maybe in proptest::option::of(verify_result()), tree in tree()) -> Event {
            let reason = Reason::new(s[0].clone());
            let receipt = crate::schema::Receipt {
                tokens_in: n[0],
                tokens_out: n[1],
                cache_read: n[2],
                cache_write: n[0] / 3,
                models: vec![s[3].clone()],
                cost_usd: flag.then_some(n[2] as f64 / 1e6),
            };
            let limit = Limit { promise_rejections: n[0], tokens_used: n[1], spent: flag.then(|| receipt.clone()) };
            match kind {
                0 => Event::Init(Init {
                    verify_command: flag.then(|| s[0].clone()),
                    session_id: s[1].clone(),
                    max_iterations: n[0],
                    sealed_files: n[1],
                    closure_files: n[2],
                    test_files: n[0] / 2,
                    tests: n[1] / 3,
                    verify_detected: (!flag).then(|| s[2].clone()),
                    driver: flag.then_some(crate::schema::Driver::Run { pid: 42 }),
                    checkpoint: Some(s[3].clone()),
                    baseline: flag.then(|| BaselineRun {
                        exit: Some(1),
                        timed_out: false,
                        duration_ms: n[2],
                        tests: Some(n[0]),
                        failing: vec![s[1].clone()],
                    }),
                    task: flag.then(|| s[2].clone()),
                    max_duration: flag.then_some(n[1]),
                    max_tokens: (!flag).then_some(n[2]),
                    max_cost: flag.then_some(n[0] as f64 / 1e6),
                }),
                1 => Event::Continue(tree),
                2 => Event::PromiseRejected(Rejected { rejections: n[0], verify, tree, review: None }),
                3 => Event::Complete(Complete { promise_rejections: n[0], verify: maybe, review: None }),
                4 => Event::MaxIterations(limit),
                5 => Event::MaxDuration(limit),
                6 => Event::MaxTokens(limit),
                7 => Event::Aborted(reason),
                8 => Event::Paused(reason),
                9 => Event::Resumed(Resumed {
                    from_session: s[0].clone(),
                    session_id: s[1].clone(),
                    source: s[2].clone(),
                }),
                10 => Event::Cancelled(reason),
                11 => Event::Stalled(reason),
                12 => Event::TamperDetected(Tamper { what: s[0].clone() }),
                13 => Event::SelfCheck(verify),
                14 => Event::VerifyFailed(Rejected { rejections: n[0], verify, tree, review: None }),
                15 => Event::Allowed(Allowed { accepted: s.clone() }),
                16 => Event::AgentRun(AgentRun {
                    agent: s[0].clone(),
                    agent_exit: code,
                    agent_signal: code.map(|c| c / 2),
                    agent_timed_out: flag,
                    agent_ms: n[0],
                    agent_bytes: n[1],
                    agent_tail: s[1].clone(),
                    receipt: None,
                }),
                17 => Event::GaveUp(GaveUp {
                    kind: s[0].clone(),
                    phrase: s[1].clone(),
                    sentence: s[2].clone(),
                    give_up_streak: n[0],
                    tree,
                }),
                18 => Event::RolledBack(RolledBack {
                    to: s[0].clone(),
                    commit: s[1].clone(),
                    saved: s[2].clone(),
                    saved_commit: s[3].clone(),
                }),
                19 => Event::BlockCap(BlockCap { blocks_without_tool: n[0], cap }),
                20 => Event::TurnEnded(TurnEnded { blocks_without_tool: n[0], cap, noticed_at: s[0].clone() }),
                21 => Event::StopFailure(StopFailure { error: s[0].clone(), error_details: flag.then(|| s[1].clone()) }),
                22 => Event::MaxCost(limit),
                _ => Event::Usage(Usage { receipt: receipt.clone(), spent: receipt }),
            }
        }
    }

    proptest! {
        #[test]
        fn every_event_written_reads_back_equal(
            loop_id in ".{0,30}",
            iteration: u64,
            secs in 0i64..8_000_000_000,
            event in event(),
            garbage in "[^\n]{0,40}",
        ) {
            let record = Record {
                loop_id,
                iteration,
                timestamp: DateTime::<Utc>::from_timestamp(secs, 0).expect("in range"),
                event,
            };
            let line = serde_json::to_string(&record).expect("serialize");
            prop_assert!(!line.contains('\n'));
            // A line that is not a record, between two that are: skipped and reported, the others read.
            let bad = if serde_json::from_str::<Record>(&garbage).is_ok() { "{".to_string() } else { garbage };
            let bytes = format!("{line}\n{bad}\n{line}\n");
            let read = parse(bytes.as_bytes());
            prop_assert_eq!(&read.records, &vec![record.clone(), record]);
            let blank = bad.bytes().all(|b| b.is_ascii_whitespace());
            let expected_bad: Vec<usize> = if blank { vec![] } else { vec![2] };
            prop_assert_eq!(read.bad_lines, expected_bad);
        }
    }
}

#[test]
fn the_report_renders_every_old_loop() {
    let read = parse(FIXTURE);
    let ids: std::collections::BTreeSet<&str> = read.records.iter().map(|r| r.loop_id.as_str()).collect();
    for id in ids {
        let mut state = crate::state::tests::sample("t");
        state.fields.config.loop_id = id.to_string();
        let text = crate::report::render(
            &state,
            &read.records,
            Status::MaxIterations,
            "max_iterations reached",
            crate::confine::probe(),
        );
        let rows = super::of_loop(&read.records, id)
            .filter(|r| r.status() != Status::Init)
            .count();
        // The rows of the attempts table (the progress table after it has rows of its own).
        let shown = text
            .lines()
            .skip_while(|l| !l.starts_with("## Attempts"))
            .take_while(|l| !l.starts_with("## Progress"))
            .filter(|l| l.starts_with("| ") && !l.starts_with("| iteration"))
            .count();
        assert_eq!(shown, rows.min(40), "loop `{id}`:\n{text}");
    }
    let mut state = crate::state::tests::sample("t");
    state.fields.config.loop_id = "lg-20261123T161121Z-5a1242".into();
    let text = crate::report::render(
        &state,
        &read.records,
        Status::MaxIterations,
        "x",
        crate::confine::probe(),
    );
    assert!(
        text.contains("| 1 | promise_rejected | exit 1 | error: done.txt is missing |"),
        "{text}"
    );
}
