//! One verify result, as the history stores it, and the one way it is described.
//!
//! Every place that shows what the oracle said — `loopgate history`, `loopgate status`, the `loopgate run` table,
//! the trajectory strip and the end-of-loop report — goes through [`VerifyResult::outcome`],
//! [`VerifyResult::describe`] and [`VerifyResult::glyph`], so a verify reads the same wherever it appears.
//!
//! The keys are the ones the history always used (`verify_exit`, `verify_signal`, `duration_ms`, `verify_tail`,
//! …). A value that is not known is left out rather than written as `null`; readers accept both.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::readout::TestCounts;
use crate::schema::MovedCount;

/// What one run of the sealed verify command said (or that the run was refused because sealed inputs changed).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VerifyResult {
    /// Whether the oracle judged the run a pass (exit 0 and every sealed gate met).
    #[serde(default)]
    pub passed: bool,
    /// The exit code; absent when the command was killed or never ran.
    #[serde(rename = "verify_exit", default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    /// The signal that killed the command.
    #[serde(rename = "verify_signal", default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Whether the command ran out of its `--verify-timeout`.
    #[serde(default)]
    pub timed_out: bool,
    /// Wall time of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The end of the command's output.
    #[serde(rename = "verify_tail", default, skip_serializing_if = "Option::is_none")]
    pub tail: Option<String>,
    /// A fingerprint of the failure, equal for the same failure (see `readout::fingerprint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// The failure summary (first line: the headline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Path of the full log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// The run passed while running no tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zero_tests: Option<bool>,
    /// The score the sealed `--score` pattern extracted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Why the oracle overrode the exit code (a score gate, zero tests, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The test counts the runners printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<TestCounts>,
    /// Counts that moved the wrong way against the loop's best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratchet: Option<Vec<MovedCount>>,
    /// The run was refused: these sealed inputs changed (one line each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed_changes: Option<Vec<String>>,
}

/// Keys whose presence means a record carries a verify result.
const MARKERS: [&str; 5] = [
    "verify_exit",
    "verify_signal",
    "duration_ms",
    "sealed_changes",
    "passed",
];

impl VerifyResult {
    /// The refusal recorded when sealed inputs changed: no run (`duration_ms` 0, an empty `verify_tail`, as the
    /// history always wrote it), the changed inputs, and their fingerprint.
    pub fn sealed(changes: Vec<String>) -> Self {
        Self {
            duration_ms: Some(0),
            tail: Some(String::new()),
            fingerprint: Some(crate::readout::fingerprint(&changes.join("\n"))),
            sealed_changes: Some(changes),
            ..Self::default()
        }
    }

    /// How the run ended, in a few words: `pass`, `exit 101`, `timed out`, `signal 9`, `2 sealed file(s) changed`.
    pub fn outcome(&self) -> String {
        if let Some(changes) = &self.sealed_changes {
            return format!("{} sealed file(s) changed", changes.len());
        }
        if self.passed {
            return "pass".into();
        }
        self.how()
    }

    /// How the command ended, whatever the verdict: `exit 0`, `timed out`, `signal 9`, `killed`.
    fn how(&self) -> String {
        match (self.timed_out, self.exit, self.signal) {
            (true, _, _) => "timed out".into(),
            (false, Some(code), _) => format!("exit {code}"),
            (false, None, Some(signal)) => format!("signal {signal}"),
            (false, None, None) => "killed".into(),
        }
    }

    /// The run's wall time, `3.2s`; empty when it did not run.
    pub fn duration(&self) -> String {
        self.duration_ms
            .filter(|_| self.sealed_changes.is_none())
            .map_or(String::new(), |ms| format!("{:.1}s", ms as f64 / 1000.0))
    }

    /// The summary's headline, if it has one.
    pub fn headline(&self) -> Option<&str> {
        self.summary
            .as_deref()
            .and_then(|s| s.lines().next())
            .filter(|s| !s.is_empty())
    }

    /// The whole description, the one used everywhere: [`VerifyResult::brief`], then the summary's headline:
    /// `fail (exit 101, 3.2s) — 2 failed: a, b`.
    pub fn describe(&self) -> String {
        let mut text = self.brief();
        if let Some(headline) = self.headline() {
            text.push_str(" — ");
            text.push_str(headline);
        }
        text
    }

    /// The verdict and how the command ended, for narrow columns: `fail (exit 101, 3.2s)`, `pass (exit 0, 0.4s,
    /// score 0.93)`, `rejected: 1 sealed file(s) changed`, `pass (no verify command)`.
    pub fn brief(&self) -> String {
        if self.sealed_changes.is_some() {
            return format!("rejected: {}", self.outcome());
        }
        let verdict = if self.passed { "pass" } else { "fail" };
        if self.duration_ms.is_none() && self.exit.is_none() && self.signal.is_none() && !self.timed_out {
            format!("{verdict} (no verify command)")
        } else {
            let mut how = self.how();
            for extra in [
                self.duration(),
                self.score.map_or(String::new(), |s| format!("score {s}")),
            ] {
                if !extra.is_empty() {
                    how.push_str(", ");
                    how.push_str(&extra);
                }
            }
            format!("{verdict} ({how})")
        }
    }

    /// The trajectory glyph: `✓` passed, `⊘` sealed files changed, `⏱` timed out, `✗` failed; then the score.
    pub fn glyph(&self) -> String {
        let base = if self.sealed_changes.is_some() {
            "⊘"
        } else if self.passed {
            "✓"
        } else if self.timed_out {
            "⏱"
        } else {
            "✗"
        };
        match self.score {
            Some(score) => format!("{base}({score})"),
            None => base.to_string(),
        }
    }
}

/// Reads a flattened verify result only when the record has one (see [`MARKERS`]); used by events whose verify
/// is optional (a promise completes a loop without a verify command).
pub fn optional<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<VerifyResult>, D::Error> {
    let map = Map::<String, Value>::deserialize(deserializer)?;
    if !MARKERS.iter().any(|key| map.contains_key(*key)) {
        return Ok(None);
    }
    serde_json::from_value(Value::Object(map))
        .map(Some)
        .map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(passed: bool, exit: Option<i32>) -> VerifyResult {
        VerifyResult {
            passed,
            exit,
            duration_ms: Some(3100),
            summary: Some("2 failed: a, b\nmore".into()),
            ..VerifyResult::default()
        }
    }

    #[test]
    fn describe_names_the_outcome_time_and_headline() {
        assert_eq!(
            run(false, Some(101)).describe(),
            "fail (exit 101, 3.1s) — 2 failed: a, b"
        );
        assert_eq!(run(false, Some(101)).outcome(), "exit 101");
        assert_eq!(run(true, Some(0)).outcome(), "pass");
        let timed_out = VerifyResult {
            timed_out: true,
            ..run(false, None)
        };
        assert_eq!(timed_out.outcome(), "timed out");
        let signal = VerifyResult {
            signal: Some(9),
            ..run(false, None)
        };
        assert_eq!(signal.outcome(), "signal 9");
        let sealed = VerifyResult::sealed(vec!["tests/a.rs (changed)".into()]);
        assert_eq!(sealed.describe(), "rejected: 1 sealed file(s) changed");
        let honor = VerifyResult {
            passed: true,
            ..VerifyResult::default()
        };
        assert_eq!(honor.describe(), "pass (no verify command)");
    }

    #[test]
    fn glyph_follows_the_outcome_and_carries_the_score() {
        assert_eq!(run(true, Some(0)).glyph(), "✓");
        let scored = VerifyResult {
            score: Some(0.81),
            ..run(false, Some(1))
        };
        assert_eq!(scored.glyph(), "✗(0.81)");
        assert_eq!(VerifyResult::sealed(vec!["x".into()]).glyph(), "⊘");
        assert_eq!(
            VerifyResult {
                timed_out: true,
                ..run(false, None)
            }
            .glyph(),
            "⏱"
        );
    }
}
