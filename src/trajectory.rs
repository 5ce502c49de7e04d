//! The trajectory of a loop at a glance, for `loopgate status`: one glyph per event of the history, and the
//! escalation level the agent is at.
//!
//! `·` continued, changing the tree · `∅` continued with nothing changed · `✗` verify failed · `⏱` verify timed
//! out · `⊘` sealed files changed · `✓` complete · `⏸` paused or stalled · `!` tampering detected · `?` the
//! agent gave up or asked without pausing · `↶` rolled back. A score follows its verify in parentheses: `✗(0.81)`.

use serde_json::Value;

use crate::history::{Record, Status};

/// One glyph (with its score, if any) per event of the loop, oldest first.
pub fn strip<'a>(records: impl Iterator<Item = &'a Record>) -> String {
    records.filter_map(glyph).collect::<Vec<_>>().join("")
}

fn glyph(r: &Record) -> Option<String> {
    let timed_out = r.get("timed_out").and_then(Value::as_bool) == Some(true);
    let base = match r.status {
        Status::Continue if r.get("tree_changed").and_then(Value::as_bool) == Some(false) => "∅",
        Status::Continue => "·",
        Status::PromiseRejected | Status::VerifyFailed if r.get("sealed_changes").is_some() => "⊘",
        Status::PromiseRejected | Status::VerifyFailed if timed_out => "⏱",
        Status::PromiseRejected | Status::VerifyFailed => "✗",
        Status::Complete => "✓",
        Status::Paused | Status::Stalled => "⏸",
        Status::TamperDetected => "!",
        Status::GaveUp => "?",
        Status::RolledBack => "↶",
        _ => return None,
    };
    Some(match r.get("score").and_then(Value::as_f64) {
        Some(score) => format!("{base}({score})"),
        None => base.to_string(),
    })
}

/// The escalation the agent is under: by promise rejections, then by iteration pressure.
pub fn escalation(rejections: u64, iteration: u64) -> String {
    let by_rejections = match rejections {
        0 => "none",
        1..=2 => "reminder",
        3..=4 => "reassess",
        _ => "forced pivot",
    };
    let by_iteration = match iteration {
        0..=3 => "steady",
        4..=7 => "change approach",
        8..=15 => "read git log and history",
        16..=30 => "check for repetition",
        31..=50 => "rethink the root cause",
        51..=100 => "question the requirement",
        _ => "honest assessment",
    };
    format!("{by_rejections} (rejections), {by_iteration} (iterations)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_shows_each_event_with_scores() {
        let mk = |status| Record::new("l", 1, status);
        let records = [
            mk(Status::Init),
            mk(Status::Continue).with("tree_changed", true),
            mk(Status::Continue).with("tree_changed", false),
            mk(Status::PromiseRejected).with("timed_out", false).with("score", 0.81),
            mk(Status::PromiseRejected).with("timed_out", true),
            mk(Status::PromiseRejected).with("sealed_changes", vec!["tests/a.rs (changed)"]),
            mk(Status::SelfCheck),
            mk(Status::TamperDetected),
            mk(Status::Stalled),
            mk(Status::GaveUp),
            mk(Status::RolledBack),
            mk(Status::Complete),
        ];
        assert_eq!(strip(records.iter()), "·∅✗(0.81)⏱⊘!⏸?↶✓");
    }

    #[test]
    fn escalation_names_both_levels() {
        assert_eq!(escalation(0, 1), "none (rejections), steady (iterations)");
        assert_eq!(
            escalation(3, 9),
            "reassess (rejections), read git log and history (iterations)"
        );
        assert_eq!(
            escalation(7, 120),
            "forced pivot (rejections), honest assessment (iterations)"
        );
    }
}
