//! The score gate (`--score-regex RE --target X [--direction higher|lower] [--plateau N]`): a number read from
//! the verify output decides completion, for loops that optimize a metric rather than fix a failure.
//!
//! The last match of the pattern in the output counts (runners print the final figure last); the first capture
//! group is the number when the pattern has one, else the whole match. A loop completes when the verify command
//! exits 0 *and* the score meets the target; no improvement on the best score for `plateau` verifies in a row is
//! a stall.

use regex::bytes::Regex;
use serde::{Deserialize, Serialize};

/// Which way is better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Direction {
    #[default]
    Higher,
    Lower,
}

/// The sealed score gate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreGate {
    pub(crate) regex: String,
    pub(crate) target: f64,
    #[serde(default)]
    pub(crate) direction: Direction,
    /// Verifies without improvement that count as a stall; 0 disables.
    #[serde(default)]
    pub(crate) plateau: u64,
}

impl ScoreGate {
    /// Checks the pattern compiles; the error names the flag.
    pub(crate) fn validate(&self) -> Result<(), String> {
        Regex::new(&self.regex)
            .map(|_| ())
            .map_err(|e| format!("`--score-regex` is not a valid regex: {e}"))
    }

    /// The score in `output`, if the pattern matches and the match parses as a number.
    pub(crate) fn extract(&self, output: &[u8]) -> Option<f64> {
        let re = Regex::new(&self.regex).ok()?;
        let caps = re.captures_iter(output).last()?;
        let found = caps.get(1).or_else(|| caps.get(0))?;
        let text = String::from_utf8_lossy(found.as_bytes());
        text.trim().trim_end_matches('%').replace(',', "").parse().ok()
    }

    /// Whether `score` meets the target.
    pub(crate) fn met(&self, score: f64) -> bool {
        match self.direction {
            Direction::Higher => score >= self.target,
            Direction::Lower => score <= self.target,
        }
    }

    /// Whether `score` beats `best` (any score beats none).
    pub(crate) fn improves(&self, score: f64, best: Option<f64>) -> bool {
        best.is_none_or(|best| match self.direction {
            Direction::Higher => score > best,
            Direction::Lower => score < best,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(regex: &str, target: f64, direction: Direction) -> ScoreGate {
        ScoreGate {
            regex: regex.into(),
            target,
            direction,
            plateau: 3,
        }
    }

    #[test]
    fn last_match_and_first_group_count() {
        let g = gate(r"accuracy: ([0-9.]+)", 0.9, Direction::Higher);
        assert_eq!(g.extract(b"accuracy: 0.5\n...\naccuracy: 0.93\n"), Some(0.93));
        assert_eq!(
            gate(r"[0-9]+%", 90.0, Direction::Higher).extract(b"coverage 87%"),
            Some(87.0)
        );
        assert_eq!(g.extract(b"no score here"), None);
        assert_eq!(
            gate(r"t=(\S+)", 1.0, Direction::Lower).extract(b"t=1,204.5"),
            Some(1204.5)
        );
    }

    #[test]
    fn direction_decides_target_and_improvement() {
        let higher = gate("x", 0.9, Direction::Higher);
        assert!(higher.met(0.9) && !higher.met(0.89));
        assert!(higher.improves(0.5, None) && higher.improves(0.6, Some(0.5)) && !higher.improves(0.5, Some(0.5)));
        let lower = gate("x", 100.0, Direction::Lower);
        assert!(lower.met(99.0) && !lower.met(101.0));
        assert!(lower.improves(90.0, Some(95.0)) && !lower.improves(96.0, Some(95.0)));
    }

    #[test]
    fn bad_pattern_names_the_flag() {
        assert!(
            gate("(", 1.0, Direction::Higher)
                .validate()
                .expect_err("bad")
                .contains("--score-regex")
        );
    }
}
