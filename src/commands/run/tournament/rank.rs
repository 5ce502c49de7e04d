//! Who wins a tournament. Passing comes first: only candidates whose loop completed rank at all. Among them,
//! the better score (when the loop has a `--score-regex`), then the user's choice (`--rank`): the smaller diff
//! then the lower cost (the default), the lower cost then the smaller diff, or the shorter time then the
//! smaller diff; then fewer iterations, then the earlier candidate. A candidate whose agent reported no cost
//! ranks after any that did on cost: a price nobody knows is not a price of zero.

use std::cmp::Ordering;

use crate::cli::Rank;
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
    /// What its agent's runs cost in US dollars, when the agent reported its usage.
    pub(crate) cost: Option<f64>,
    /// Its time, in seconds.
    pub(crate) seconds: f64,
    pub(crate) iterations: u64,
}

/// The indices of the passing candidates, best first.
pub(crate) fn order(standings: &[Standing], direction: Option<Direction>, rank: Rank) -> Vec<usize> {
    let mut passed: Vec<usize> = (0..standings.len()).filter(|&i| standings[i].passed).collect();
    passed.sort_by(|&a, &b| {
        let (x, y) = (&standings[a], &standings[b]);
        let diff = x.diff_lines.cmp(&y.diff_lines);
        let cost = by_cost(x.cost, y.cost);
        let chosen = match rank {
            Rank::Diff => diff.then(cost),
            Rank::Cost => cost.then(diff),
            Rank::Time => x.seconds.total_cmp(&y.seconds).then(diff),
        };
        by_score(x.score, y.score, direction)
            .then(chosen)
            .then(x.iterations.cmp(&y.iterations))
            .then(a.cmp(&b))
    });
    passed
}

/// The order [`order`] applies, in words, for the report's "why it won": `scored` when the loop has a score.
pub(crate) fn rule(rank: Rank, scored: bool) -> String {
    let chosen = match rank {
        Rank::Diff => "the smaller diff (lines added and removed), then the lower cost",
        Rank::Cost => "the lower cost, then the smaller diff",
        Rank::Time => "the shorter time, then the smaller diff",
    };
    let score = if scored { "the better score, then " } else { "" };
    let flag =
        clap::ValueEnum::to_possible_value(&rank).map_or(String::new(), |v| format!(" (`--rank {}`)", v.get_name()));
    format!("passing first; then {score}{chosen}{flag}; then fewer iterations, then the earlier candidate")
}

/// The lower cost first; an unknown cost after any known one.
fn by_cost(a: Option<f64>, b: Option<f64>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.total_cmp(&b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
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
            cost: None,
            seconds: 0.0,
            iterations,
        }
    }

    fn priced(diff_lines: u64, cost: Option<f64>, seconds: f64) -> Standing {
        Standing {
            cost,
            seconds,
            ..s(true, None, diff_lines, 1)
        }
    }

    #[test]
    fn only_passing_candidates_rank_and_the_smaller_diff_wins_without_a_score() {
        let field = [s(false, None, 1, 1), s(true, None, 40, 1), s(true, None, 3, 2)];
        assert_eq!(order(&field, None, Rank::Diff), [2, 1]);
        // Passing first whatever the rank: a failing candidate with the smallest diff, cost and time never ranks.
        let failing = Standing {
            passed: false,
            ..priced(0, Some(0.0), 0.0)
        };
        for rank in [Rank::Diff, Rank::Cost, Rank::Time] {
            assert_eq!(order(&[failing.clone(), priced(9, Some(9.0), 9.0)], None, rank), [1]);
        }
    }

    #[test]
    fn the_score_comes_first_in_its_direction_then_the_diff_then_the_iterations() {
        let field = [
            s(true, Some(0.8), 1, 1),
            s(true, Some(0.9), 50, 4),
            s(true, Some(0.9), 50, 2),
        ];
        assert_eq!(order(&field, Some(Direction::Higher), Rank::Diff), [2, 1, 0]);
        assert_eq!(order(&field, Some(Direction::Lower), Rank::Diff), [0, 2, 1]);
        let unscored = [s(true, None, 1, 1), s(true, Some(0.1), 9, 9)];
        assert_eq!(order(&unscored, Some(Direction::Higher), Rank::Diff), [1, 0]);
    }

    #[test]
    fn by_default_the_smaller_diff_wins_and_cost_breaks_a_tie() {
        // The case: a $4.50 candidate against a $0.0002 one with the same diff.
        let field = [
            priced(6, Some(4.5), 10.0),
            priced(6, Some(0.0002), 50.0),
            priced(7, Some(0.0), 1.0),
        ];
        assert_eq!(order(&field, None, Rank::Diff), [1, 0, 2]);
    }

    #[test]
    fn rank_cost_puts_the_cheapest_first_and_an_unknown_cost_last() {
        let field = [
            priced(1, Some(4.5), 1.0),
            priced(60, Some(0.0002), 9.0),
            priced(0, None, 0.0),
        ];
        assert_eq!(order(&field, None, Rank::Cost), [1, 0, 2]);
        // Equal costs fall back to the diff.
        let tie = [priced(5, Some(1.0), 1.0), priced(2, Some(1.0), 9.0)];
        assert_eq!(order(&tie, None, Rank::Cost), [1, 0]);
    }

    #[test]
    fn rank_time_puts_the_fastest_first_then_the_smaller_diff() {
        let field = [
            priced(1, Some(0.1), 30.0),
            priced(80, Some(9.0), 3.5),
            priced(2, None, 3.5),
        ];
        assert_eq!(order(&field, None, Rank::Time), [2, 1, 0]);
    }

    #[test]
    fn nobody_passing_means_no_winner() {
        assert!(order(&[s(false, Some(1.0), 0, 0)], Some(Direction::Higher), Rank::Diff).is_empty());
    }
}
