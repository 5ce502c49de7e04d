//! Issue 41, item 6, with the real client: `/pua-loop … --max-cost` ends the loop on the usage Claude Code's
//! transcript records, and the receipts loopgate wrote add up to that usage.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::Project;
use crate::mock_api::Reply;
use crate::{assert_contains, assert_ended, timer};

/// The session transcripts Claude Code wrote under the scenario's `HOME`.
fn transcripts(home: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&home.join(".claude/projects"), &mut out);
    out
}

/// Input and output tokens per message id, the most any of its lines reported: the whole file read at once,
/// as a check on loopgate's stop-by-stop reading.
fn usage_by_message(transcript: &Path) -> BTreeMap<String, (u64, u64)> {
    let text = std::fs::read_to_string(transcript).expect("the transcript");
    let mut by_id: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for line in text.lines() {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let message = &value["message"];
        let (Some(id), Some(usage)) = (message["id"].as_str(), message["usage"].as_object()) else {
            continue;
        };
        let n = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
        let entry = by_id.entry(id.to_string()).or_default();
        entry.0 = entry.0.max(n("input_tokens"));
        entry.1 = entry.1.max(n("output_tokens"));
    }
    by_id
}

#[test]
fn a_cost_budget_ends_the_loop_on_the_transcripts_usage_and_the_receipts_add_up() {
    let _t = timer("max-cost from the transcript");
    let project = Project::new();
    // Each turn: a Bash call and a closing message, 10 input and 10 output tokens each (the mock's usage), at the
    // built-in sonnet price: $0.00018 a message, $0.00036 a turn; the third turn crosses $0.001.
    let replies = (1..=8).flat_map(|i| {
        [
            Reply::bash(format!("echo {i} >> notes.txt")),
            Reply::text(format!("Round {i} done.")),
        ]
    });
    let run = project
        .session("/loopgate:pua-loop \"keep improving notes.txt\" --max-cost 0.001 --stall-limit 0")
        .arg("--model")
        .arg("claude-sonnet-4-5")
        .replies(replies)
        .run();
    let statuses = project.statuses();
    assert_eq!(
        statuses.last().map(String::as_str),
        Some("max_cost"),
        "{}",
        run.describe()
    );
    assert!(
        run.api.remaining() > 0,
        "the budget ends the loop before the script\n{}",
        run.describe()
    );
    let shown = run.system_messages().join("\n");
    assert_contains(&shown, "max_cost reached", "what the user saw", &run);
    assert_contains(&shown, "of --max-cost $0.001.", "what the user saw", &run);

    let files = transcripts(&project.home);
    assert_eq!(files.len(), 1, "one session transcript: {files:?}");
    let messages = usage_by_message(&files[0]);
    assert!(!messages.is_empty(), "the transcript records usage\n{}", run.describe());
    let (all_in, all_out) = messages.values().fold((0, 0), |(i, o), (a, b)| (i + a, o + b));
    let history = project.history();
    let turns: Vec<&Value> = history.iter().filter(|r| r["status"] == "usage").collect();
    assert!(turns.len() >= 2, "a receipt per turn: {statuses:?}");
    let sum = |key: &str| {
        turns
            .iter()
            .map(|t| t["receipt"][key].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let (tokens_in, tokens_out) = (sum("tokens_in"), sum("tokens_out"));
    // The receipts add up to the transcript's usage — but for the turn's last message where Claude Code wrote it
    // after the last stop had read the transcript (its file can lag behind the turn; docs/cost.md): a message
    // written after the loop ended is counted by no stop. Nothing else may be missing, and nothing counted twice.
    let missing = (all_in - tokens_in.min(all_in), all_out - tokens_out.min(all_out));
    assert!(
        tokens_in <= all_in
            && tokens_out <= all_out
            && (missing == (0, 0) || messages.values().any(|usage| *usage == missing)),
        "receipts ({tokens_in}, {tokens_out}) against the transcript ({all_in}, {all_out}): {turns:?}"
    );
    let end = history.last().expect("the end");
    assert_eq!(end["spent"]["tokens_in"], tokens_in, "{end}");
    assert_eq!(end["spent"]["tokens_out"], tokens_out, "{end}");
    let dollars = (tokens_in * 3 + tokens_out * 15) as f64 / 1e6;
    let spent = end["spent"]["cost_usd"].as_f64().expect("priced");
    assert!(
        (spent - dollars).abs() < 1e-12 && spent >= 0.001,
        "{spent} vs {dollars}"
    );
    let turn_dollars: f64 = turns
        .iter()
        .map(|t| t["receipt"]["cost_usd"].as_f64().unwrap_or(0.0))
        .sum();
    assert!((turn_dollars - spent).abs() < 1e-9, "{turn_dollars} vs {spent}");
    assert_ended(&project, &run);
}
