//! Who wins a tournament: among the candidates whose loop completed, the best score (when the loop has a
//! `--score-regex`), then the smaller diff, then fewer iterations, then the earlier candidate.

use std::cmp::Ordering;

use crate::score::Direction;

/// What ranking needs to know of one candidate.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Standing {
    /// Its loop completed: the oracle passed it.
    pub(crate) passed: bool,
    /// The last score its verify runs gave.
    pub(crate) score: Option<f64>,
    /// Lines added and removed against the commit the tournament started from.
    pub(crate) diff_lines: u64,
    pub(crate) iterations: u64,
}

/// The indices of the passing candidates, best first.
pub(crate) fn order(standings: &[Standing], direction: Option<Direction>) -> Vec<usize> {
    let mut passed: Vec<usize> = (0..standings.len()).filter(|&i| standings[i].passed).collect();
    passed.sort_by(|&a, &b| {
        let (x, y) = (&standings[a], &standings[b]);
        by_score(x.score, y.score, direction)
            .then(x.diff_lines.cmp(&y.diff_lines))
            .then(x.iterations.cmp(&y.iterations))
            .then(a.cmp(&b))
    });
    passed
}

/// The better score first; a candidate without one after any with one.
fn by_score(a: Option<f64>, b: Option<f64>, direction: Option<Direction>) -> Ordering {
    let Some(direction) = direction else {
        return Ordering::Equal;
    };
    match (a, b) {
        (Some(a), Some(b)) => match direction {
            Direction::Higher => b.total_cmp(&a),
            Direction::Lower => a.total_cmp(&b),
        },
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(passed: bool, score: Option<f64>, diff_lines: u64, iterations: u64) -> Standing {
        Standing {
            passed,
            score,
            diff_lines,
            iterations,
        }
    }

    #[test]
    fn only_passing_candidates_rank_and_the_smaller_diff_wins_without_a_score() {
        let field = [s(false, None, 1, 1), s(true, None, 40, 1), s(true, None, 3, 2)];
        assert_eq!(order(&field, None), [2, 1]);
    }

    #[test]
    fn the_score_comes_first_in_its_direction_then_the_diff_then_the_iterations() {
        let field = [
            s(true, Some(0.8), 1, 1),
            s(true, Some(0.9), 50, 4),
            s(true, Some(0.9), 50, 2),
        ];
        assert_eq!(order(&field, Some(Direction::Higher)), [2, 1, 0]);
        assert_eq!(order(&field, Some(Direction::Lower)), [0, 2, 1]);
        let unscored = [s(true, None, 1, 1), s(true, Some(0.1), 9, 9)];
        assert_eq!(order(&unscored, Some(Direction::Higher)), [1, 0]);
    }

    #[test]
    fn nobody_passing_means_no_winner() {
        assert!(order(&[s(false, Some(1.0), 0, 0)], Some(Direction::Higher)).is_empty());
    }
}
