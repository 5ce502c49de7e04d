//! The trajectory of a loop at a glance, for `loopgate status`: one glyph per event of the history, and the
//! escalation level the agent is at.
//!
//! `·` continued, changing the tree · `∅` continued with nothing changed · `✗` verify failed · `⏱` verify timed
//! out · `⊘` sealed files changed · `✓` complete · `⏸` paused or stalled · `!` tampering detected · `?` the
//! agent gave up or asked without pausing · `↶` rolled back. A score follows its verify in parentheses: `✗(0.81)`.

use crate::history::{Event, Record, VerifyResult};

/// One glyph (with its score, if any) per event of the loop, oldest first.
pub(crate) fn strip<'a>(records: impl Iterator<Item = &'a Record>) -> String {
    records.filter_map(glyph).collect::<Vec<_>>().join("")
}

fn glyph(r: &Record) -> Option<String> {
    let base = match &r.event {
        Event::Continue(tree) if tree.tree_changed == Some(false) => "∅",
        Event::Continue(_) => "·",
        Event::PromiseRejected(rejected) | Event::VerifyFailed(rejected) => return Some(rejected.verify.glyph()),
        Event::Complete(complete) => {
            return Some(complete.verify.as_ref().map_or("✓".into(), VerifyResult::glyph));
        }
        Event::Paused(_) | Event::Stalled(_) => "⏸",
        Event::TamperDetected(_) => "!",
        Event::GaveUp(_) => "?",
        Event::RolledBack(_) => "↶",
        _ => return None,
    };
    Some(base.to_string())
}

/// What each glyph means, in the order [`legend`] lists them.
const MEANINGS: [(&str, &str); 10] = [
    ("·", "changed"),
    ("∅", "unchanged"),
    ("✗", "verify failed"),
    ("⏱", "timed out"),
    ("⊘", "sealed files changed"),
    ("✓", "complete"),
    ("⏸", "paused"),
    ("!", "tampering"),
    ("?", "gave up"),
    ("↶", "rolled back"),
];

/// A one-line legend of the glyphs `strip` holds (only those): `· changed  ✗ verify failed`.
pub(crate) fn legend(strip: &str) -> String {
    MEANINGS
        .iter()
        .filter(|(glyph, _)| strip.contains(glyph))
        .map(|(glyph, meaning)| format!("{glyph} {meaning}"))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The escalation the agent is under: by promise rejections, then by iteration pressure.
pub(crate) fn escalation(rejections: u64, iteration: u64) -> String {
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
    use serde_json::json;

    use super::*;

    #[test]
    fn strip_shows_each_event_with_scores() {
        let mk = |status: &str| json!({"status": status});
        let records = [
            mk("init"),
            json!({"status": "continue", "tree_changed": true}),
            json!({"status": "continue", "tree_changed": false}),
            json!({"status": "promise_rejected", "timed_out": false, "score": 0.81}),
            json!({"status": "promise_rejected", "timed_out": true}),
            json!({"status": "promise_rejected", "sealed_changes": ["tests/a.rs (changed)"]}),
            mk("self_check"),
            mk("tamper_detected"),
            mk("stalled"),
            mk("gave_up"),
            mk("rolled_back"),
            mk("complete"),
        ]
        .map(crate::history::test_record);
        assert_eq!(strip(records.iter()), "·∅✗(0.81)⏱⊘!⏸?↶✓");
    }

    #[test]
    fn legend_names_only_the_glyphs_shown() {
        assert_eq!(legend("·✗(0.81)·"), "· changed  ✗ verify failed");
        assert_eq!(legend(""), "");
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
