//! Snapshots of the texts people and the model read: the briefing, block reasons, the session-start handover,
//! `status` and `history`. Temp paths, loop ids, timestamps and durations are redacted.

use serde_json::Value;

use crate::project::{Project, STATE};
use crate::snapshot::assert_snapshot;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
const FAILING: &str = r#"test -f done.txt || { echo "error: done.txt is missing"; exit 1; }"#;

/// A loop with a failing oracle, sealed tests and a limit; one rejected promise.
fn rejected_once() -> (Project, String) {
    let p = Project::new().file("tests/a.txt", "assert a\n");
    p.setup(
        "S",
        &format!("\"make the parser total\" --verify '{FAILING}' --max-iterations 10 --seal 'tests/**'"),
    );
    p.write("src/parser.rs", "fn parse() {}\n");
    let reason = p.stop("S", PROMISE).blocked().reason;
    (p, reason)
}

#[test]
fn briefing() {
    let p = Project::new().file("tests/a.txt", "assert a\n");
    let out = p.setup(
        "S",
        &format!(
            "\"make the parser total\" --verify '{FAILING}' --max-iterations 10 --seal 'tests/**' --max-duration 2h"
        ),
    );
    assert_snapshot("briefing", &p.redact(&out.stdout));
}

#[test]
fn reason_not_done_yet() {
    let p = Project::new();
    p.setup("S", "\"make the parser total\" --max-iterations 10");
    p.write("src/parser.rs", "fn parse() {}\n");
    let reason = p.stop("S", "working").blocked().reason;
    assert_snapshot("reason_not_done_yet", &p.redact(&reason));
}

/// A stop after an iteration that changed nothing in the working tree says so.
#[test]
fn reason_nothing_changed() {
    let p = Project::new();
    p.setup("S", "\"make the parser total\" --max-iterations 10");
    let reason = p.stop("S", "thinking").blocked().reason;
    assert_snapshot("reason_nothing_changed", &p.redact(&reason));
}

#[test]
fn reason_promise_rejected() {
    let (p, reason) = rejected_once();
    assert_snapshot("reason_promise_rejected", &p.redact(&reason));
}

#[test]
fn reason_promise_rejected_zh() {
    let p = Project::new();
    p.setup("S", &format!("\"修复解析器\" --verify '{FAILING}' --lang zh"));
    p.write("src/parser.rs", "fn parse() {}\n");
    let reason = p.stop("S", PROMISE).blocked().reason;
    assert_snapshot("reason_promise_rejected_zh", &p.redact(&reason));
}

#[test]
fn reason_sealed_files_changed() {
    let p = Project::new()
        .file("tests/a.txt", "assert a\n")
        .file("tests/b.txt", "assert b\n");
    p.setup("S", "\"make the parser total\" --verify 'true' --seal 'tests/**'");
    p.write("tests/a.txt", "assert true\n");
    std::fs::remove_file(p.path("tests/b.txt")).expect("delete");
    p.write("tests/c.txt", "new\n");
    let reason = p.stop("S", PROMISE).blocked().reason;
    assert_snapshot("reason_sealed_files_changed", &p.redact(&reason));
}

/// Every kind of breach of the oracle's inputs in one reason: a `--seal` file, a closure part, a config file
/// created, a test weakened and a skip marker — in both languages.
#[test]
fn reason_oracle_inputs_changed() {
    for (lang, name) in [
        ("en", "reason_oracle_inputs_changed"),
        ("zh", "reason_oracle_inputs_changed_zh"),
    ] {
        let p = Project::new()
            .file("package.json", r#"{"scripts": {"test": "node --test"}}"#)
            .file("fixtures/golden.txt", "42\n")
            .file(
                "test/calc.test.js",
                "const test = require('node:test');\n\ntest('adds', () => {\n  if (1 + 2 !== 3) throw new Error('no');\n});\n",
            );
        p.setup(
            "S",
            &format!("\"make it pass\" --verify 'npm test' --seal 'fixtures/**' --lang {lang}"),
        );
        p.write("fixtures/golden.txt", "0\n");
        p.write("package.json", r#"{"scripts": {"test": "node --test || true"}}"#);
        p.write(".npmrc", "script-shell=/bin/true\n");
        p.write(
            "test/calc.test.js",
            "const test = require('node:test');\n\ntest.skip('adds', () => {\n  if (1 + 2 !== 4) throw new Error('no');\n});\n",
        );
        let reason = p.stop("S", PROMISE).blocked().reason;
        assert_snapshot(name, &p.redact(&reason));
    }
}

#[test]
fn reason_tampering() {
    let p = Project::new();
    p.setup("S", &format!("\"make the parser total\" --verify '{FAILING}'"));
    let sealed_line = format!("verify_command: '{FAILING}'");
    p.edit_state(|text| {
        assert!(text.contains(&sealed_line), "{text}");
        text.replace(&sealed_line, "verify_command: \"true\"")
    });
    p.write("src/parser.rs", "fn parse() {}\n");
    let block = p.stop("S", PROMISE).blocked();
    assert!(p.exists(STATE));
    assert_snapshot(
        "reason_tampering",
        &p.redact(&format!("{}\n\n[systemMessage] {}", block.reason, block.system_message)),
    );
}

#[test]
fn session_start_handover() {
    let (p, _) = rejected_once();
    p.stop("S", "<loop-pause>the production DB URL</loop-pause>").allowed();
    let context = p.session_start("NEW", "startup").additional_context();
    assert_snapshot("session_start_handover", &p.redact(&context));
}

#[test]
fn status_running() {
    let (p, _) = rejected_once();
    let out = p.loopgate(["status"]).run();
    out.success();
    let text: Vec<String> = p
        .redact(&out.stdout)
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("elapsed:") {
                "  elapsed:     [ELAPSED]".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    assert_snapshot("status_running", &text.join("\n"));
}

/// `status --json` is a public interface: its keys, their order and their values' shapes are pinned here
/// (values that change from run to run — times, durations, disk use — are redacted).
#[test]
fn status_running_json() {
    let (p, _) = rejected_once();
    let out = p.loopgate(["status", "--json"]).run();
    out.success();
    let mut json = out.stdout_json();
    redact_volatile(&mut json);
    let text = serde_json::to_string_pretty(&json).expect("json");
    assert_snapshot("status_running_json", &p.redact(&text));
}

/// `status --json` with no loop running: the last loop's outcome.
#[test]
fn status_ended_json() {
    let (p, _) = rejected_once();
    p.loopgate(["cancel"]).run().success();
    let out = p.loopgate(["status", "--json"]).run();
    out.success();
    assert_snapshot("status_ended_json", &p.redact(&out.stdout));
}

/// Replaces the values of `status --json` that differ from run to run by their kind.
fn redact_volatile(value: &mut Value) {
    const VOLATILE: [&str; 5] = ["elapsed_secs", "duration_ms", "bytes", "timestamp", "pid"];
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if VOLATILE.contains(&key.as_str()) && !v.is_null() {
                    *v = Value::String(format!("[{}]", key.to_uppercase()));
                } else {
                    redact_volatile(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_volatile),
        _ => {}
    }
}

#[test]
fn history_lines() {
    let (p, _) = rejected_once();
    p.stop("S", "no signal").blocked();
    p.stop("S", "Should I keep the old parser?").blocked();
    p.loopgate(["cancel"]).run().success();
    let out = p.loopgate(["history"]).run();
    out.success();
    assert_snapshot("history_lines", &p.redact(&out.stdout));
}

/// A history written by loopgate 0.1.0 (every status, every shape of fields; see `src/history/compat_tests.rs`) is
/// read whole by `loopgate history` and `loopgate status`, in both forms.
#[test]
fn a_history_written_by_the_previous_release_is_shown() {
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/history-0.1.0.jsonl"
    ))
    .expect("fixture");
    let p = Project::new().file(".claude/pua-loop-history.jsonl", &fixture);
    let lines = fixture.lines().count();

    let out = p.loopgate(["history"]).run();
    out.success().stderr_empty();
    assert_eq!(out.stdout.lines().count(), lines);
    for shown in [
        "promise_rejected  fail (exit 1, ",
        "rejected: 1 sealed file(s) changed",
        "fail (timed out, ",
        "self_check        pass (no verify command)",
        "agent exit 0, ",
        "asking user: \"",
        "to checkpoint ",
        "block(s) without a tool call",
    ] {
        out.stdout_contains(shown);
    }

    let json = p.loopgate(["history", "--json"]).run();
    json.success().stderr_empty();
    assert_eq!(json.stdout.lines().count(), lines);
    for (old, new) in fixture.lines().zip(json.stdout.lines()) {
        let old: Value = serde_json::from_str(old).expect("fixture line");
        let new: Value = serde_json::from_str(new).expect("json line");
        for key in [
            "loop_id",
            "iteration",
            "status",
            "timestamp",
            "verify_exit",
            "summary",
            "reason",
        ] {
            if !old[key].is_null() {
                assert_eq!(old[key], new[key], "`{key}`");
            }
        }
    }

    let status = p.loopgate(["status", "--json"]).run();
    status.success();
    let report: Value = serde_json::from_str(&status.stdout).expect("status json");
    let last = fixture
        .lines()
        .last()
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .expect("last");
    assert_eq!(report["last_loop"]["loop_id"], last["loop_id"]);
    p.loopgate(["status"]).run().success();
}
