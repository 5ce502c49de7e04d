//! `loopgate status`'s room: where the oracle runs, the disk its caches take, what is private, what stays the
//! user's (see `crate::room`).

use serde_json::{Value, json};

use crate::lifecycle::ActiveLoop;
use crate::room::{Recorded, Room};

/// The room of a loop with a verify command, for `--json`; `None` without one.
pub(super) fn report(active: &ActiveLoop) -> Option<Value> {
    active.seal.fields.verify_command.as_ref()?;
    let recorded = active
        .store
        .load_companion::<Recorded>(&active.project, crate::seal::ROOM)
        .ok()
        .flatten();
    let runners = active
        .seal
        .closure
        .as_ref()
        .map(|c| c.runners.as_slice())
        .unwrap_or_default();
    let output_only = crate::messages::runner::output_only(active.seal.fields.lang, runners);
    let Some(recorded) = recorded else {
        return Some(json!({
            "state": "none",
            "why": "set up without a room (`LOOPGATE_ROOM=0`, or by a loopgate before it): the oracle runs in the environment of the process that runs it, with the shared caches",
            "output_only": output_only,
        }));
    };
    let room = Room::at(active.store.room_dir(&active.project));
    let described = recorded.describe(&room);
    Some(json!({
        "state": "private",
        "dir": described.dir,
        "bytes": room.disk_used(),
        "private": described.private,
        "shared": described.shared.iter().map(|s| json!({"var": s.var, "why": crate::messages::room::why(&s.why)})).collect::<Vec<_>>(),
        "environment": {"recorded": described.recorded, "secrets": described.secrets},
        "tree": match &described.tree {
            Some(crate::room::TreeState::Mounted) => json!({"state": "mounted", "dir": room.dir().join(crate::room::tree::PLACE)}),
            Some(crate::room::TreeState::Fallback { why }) => json!({"state": "fallback", "why": why}),
            None => json!({"state": "fallback", "why": "set up before the room had a tree"}),
        },
        "verdict_reads": if described.pytest_report {
            "pytest's own JUnit report, written to a private path, beside the runner's output"
        } else {
            "the runner's output (no structured report: pytest's was not usable at the baseline, or no pytest ran)"
        },
        "output_only": output_only,
    }))
}

/// The text lines of [`report`].
pub(super) fn render(room: &Value) -> String {
    let s = |key: &str| room.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let output_only = room
        .get("output_only")
        .and_then(Value::as_str)
        .map(|line| format!("\n    reports:   {line}"))
        .unwrap_or_default();
    if s("state") != "private" {
        return format!("\n  room:        none — {}{output_only}", s("why"));
    }
    let list = |key: &str| {
        room.get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    let bytes = room.get("bytes").and_then(Value::as_u64).unwrap_or(0);
    let recorded = room["environment"]["recorded"].as_u64().unwrap_or(0);
    let mut out = format!(
        "\n  room:        {} ({:.1} MB)\n    private:   {}\n    env:       as recorded at setup ({recorded} variables)",
        s("dir"),
        bytes as f64 / 1e6,
        list("private"),
    );
    for shared in room.get("shared").and_then(Value::as_array).into_iter().flatten() {
        let field = |key: &str| shared.get(key).and_then(Value::as_str).unwrap_or("");
        out.push_str(&format!("\n    shared:    {} ({})", field("var"), field("why")));
    }
    let tree = |key: &str| room["tree"].get(key).and_then(Value::as_str).unwrap_or("").to_string();
    out.push_str(&if tree("state") == "mounted" {
        "\n    tree:      a private copy in the room, mounted at the project's path".to_string()
    } else {
        format!(
            "\n    tree:      falls back to the project's own tree — {}",
            tree("why")
        )
    });
    out.push_str(&format!("\n    verdict:   reads {}", s("verdict_reads")));
    out.push_str(&output_only);
    out
}
