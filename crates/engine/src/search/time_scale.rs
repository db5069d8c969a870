//! How long to think: the soft time limit scaled, iteration by iteration,
//! by how settled the best move is.

use super::iterate::Line;
use crate::{Feature, Features};
use tensorchess_rules::Move;

/// How much of the soft time limit to use, from one iteration to the next:
/// a best move that keeps changing earns more time, a settled one less, and
/// a falling score more (the scheme of Stockfish; factors after Weiss).
#[derive(Default)]
pub(super) struct TimeScale {
    best: Option<Move>,
    /// Iterations in a row that kept the best move.
    stable: usize,
    score: Option<i32>,
}

impl TimeScale {
    const BY_STABILITY: [f64; 5] = [2.0, 1.3, 1.0, 0.85, 0.75];
    /// Score falls of more than this (centipawns) from one iteration to the next...
    const FALL: i32 = 25;
    /// ... stretch the time by this.
    const FALL_SCALE: f64 = 1.25;

    /// The scale of the soft limit after an iteration that found `lines`.
    pub fn next(&mut self, lines: &[Line], features: &Features) -> f64 {
        let Some((pv, score, _)) = lines.first() else {
            return 1.0;
        };
        let best = pv.first().copied();
        self.stable = if best == self.best {
            self.stable + 1
        } else {
            0
        };
        self.best = best;
        let fell = self.score.is_some_and(|s| *score < s - Self::FALL);
        self.score = Some(*score);
        if !features.is_on(Feature::AdaptiveTime) {
            return 1.0;
        }
        let scale = Self::BY_STABILITY[self.stable.min(Self::BY_STABILITY.len() - 1)];
        if fell {
            scale * Self::FALL_SCALE
        } else {
            scale
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::{Chess, Position};

    #[test]
    fn an_unsettled_best_move_earns_time_and_a_settled_one_less() {
        let moves = Position::<Chess>::new().legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let line = |m: Move, score: i32| vec![(vec![m], score, 1)];
        let on = Features::default();
        let mut t = TimeScale::default();
        assert_eq!(t.next(&line(a, 10), &on), 2.0, "a new best move");
        assert_eq!(t.next(&line(a, 12), &on), 1.3);
        assert_eq!(t.next(&line(a, 12), &on), 1.0);
        assert_eq!(t.next(&line(a, 12), &on), 0.85);
        assert_eq!(t.next(&line(a, 12), &on), 0.75);
        assert_eq!(t.next(&line(a, 12), &on), 0.75);
        assert_eq!(t.next(&line(b, 12), &on), 2.0, "the best move changed");
        assert_eq!(
            t.next(&line(b, -20), &on),
            1.3 * 1.25,
            "the score fell 32 cp"
        );
        assert_eq!(t.next(&[], &on), 1.0);
        let off = Features::default().with(Feature::AdaptiveTime, false);
        let mut t = TimeScale::default();
        assert_eq!(t.next(&line(a, 10), &off), 1.0);
        assert_eq!(t.next(&line(b, -90), &off), 1.0);
    }
}
