//! Training samples: each position's active features from the side to
//! move's perspective and the other side's, and its target, from the side
//! to move's view: `λ × sigmoid(score / K) + (1 − λ) × result` ([`Blend`];
//! `K` is the engine's `SCALE` unless the data's scores are on another
//! scale than their results).

use crate::nnue::data::{GameRecord, Sample};
use tensorchess_engine::nnue::features::{board_feature, hand_feature, MAX_HAND};
use tensorchess_engine::nnue::SCALE;
use tensorchess_rules::{Color, Variant};

/// Samples in flat arrays (one allocation for all the feature lists).
#[derive(Clone, Debug, Default)]
pub struct SampleSet {
    /// Features of all samples: the side to move's, then the other's.
    features: Vec<u16>,
    /// Per sample: where its features start, how many per perspective.
    spans: Vec<(u32, u16)>,
    /// Per sample: the target, from the side to move's view.
    pub targets: Vec<f32>,
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// How a position's target is made from its score and its game's result.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Blend {
    /// Weight of the score (the rest is the result's), 0 to 1.
    pub lambda: f32,
    /// Centipawns of the data's scores that the sigmoid reads as one unit
    /// (`K`). The engine's [`SCALE`] fits an evaluation whose centipawns
    /// win games as chess's do; an evaluation whose +150 already wins nine
    /// games in ten (Chessence's hand-made one, docs/nnue.md) is read with
    /// a smaller `K`, so that its scores and its results agree.
    pub score_scale: f32,
}

impl Blend {
    /// The engine's scale, with `lambda`.
    pub fn new(lambda: f32) -> Blend {
        Blend {
            lambda,
            score_scale: SCALE as f32,
        }
    }

    /// The target of a position scored `score` (centipawns) whose game the
    /// side to move scored `result` (0, ½ or 1), both from its view.
    pub fn target(&self, score: f32, result: f32) -> f32 {
        self.lambda * sigmoid(score / self.score_scale) + (1.0 - self.lambda) * result
    }
}

impl SampleSet {
    /// Adds a sample given its two feature lists (of equal length) and target.
    pub fn push(&mut self, us: &[u16], them: &[u16], target: f32) {
        debug_assert_eq!(us.len(), them.len());
        self.spans
            .push((self.features.len() as u32, us.len() as u16));
        self.features.extend_from_slice(us);
        self.features.extend_from_slice(them);
        self.targets.push(target);
    }

    /// Adds the positions of games of `V`, blending score and result by `blend`.
    pub fn add_games<V: Variant>(&mut self, games: &[GameRecord], blend: Blend) {
        let (mut us, mut them) = (Vec::new(), Vec::new());
        for game in games {
            let white_result = game.result.white_score();
            for s in &game.samples {
                features_of::<V>(s, s.turn, &mut us);
                features_of::<V>(s, !s.turn, &mut them);
                let (score, result) = match s.turn {
                    Color::White => (s.score as f32, white_result),
                    Color::Black => (-(s.score as f32), 1.0 - white_result),
                };
                self.push(&us, &them, blend.target(score, result));
            }
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Sample `i`: the side to move's features and the other side's.
    #[inline]
    pub fn features(&self, i: usize) -> (&[u16], &[u16]) {
        let (at, n) = self.spans[i];
        let (at, n) = (at as usize, n as usize);
        (
            &self.features[at..at + n],
            &self.features[at + n..at + 2 * n],
        )
    }

    /// Splits off the samples at `indices` (sorted) into a new set.
    pub fn take(&self, indices: &[usize]) -> SampleSet {
        let mut out = SampleSet::default();
        for &i in indices {
            let (us, them) = self.features(i);
            out.push(us, them, self.targets[i]);
        }
        out
    }
}

/// The active features of a sample from `perspective` (as the engine's `active_features`).
fn features_of<V: Variant>(s: &Sample, perspective: Color, out: &mut Vec<u16>) {
    out.clear();
    for &(sq, piece) in &s.pieces {
        out.push(board_feature::<V>(perspective, sq, piece) as u16);
    }
    if V::DROPS {
        for color in Color::ALL {
            for k in 0..(s.hands[color.index()] as usize).min(MAX_HAND) {
                out.push(hand_feature::<V>(perspective, color, k) as u16);
            }
        }
    }
}
