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
        assert!(statuses.contains(status.as_str()), "the fixture has no `{}`", status.as_str());
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
            let default = matches!(value, Value::Bool(false)) || value == 0 || value == "" || value == &Value::Array(vec![]);
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
    assert!(verifies.iter().any(|v| v.ratchet.as_ref().is_some_and(|r| !r.is_empty())));
    let promise_only = read
        .records
        .iter()
        .filter(|r| r.status() == Status::Complete)
        .any(|r| r.event.verify().is_none());
    assert!(promise_only, "a loop completed by the promise alone has no verify result");
}

const ALL: [Status; 21] = [
    Status::Init,
    Status::Continue,
    Status::PromiseRejected,
    Status::Complete,
    Status::MaxIterations,
    Status::MaxDuration,
    Status::MaxTokens,
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
];
