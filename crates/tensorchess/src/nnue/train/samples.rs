//! Training samples: each position's active features from the side to
//! move's perspective and the other side's, and its target, from the side
//! to move's view: `λ × sigmoid(score / SCALE) + (1 − λ) × result`.

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

    /// Adds the positions of games of `V`, blending score and result with `lambda`.
    pub fn add_games<V: Variant>(&mut self, games: &[GameRecord], lambda: f32) {
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
                let target = lambda * sigmoid(score / SCALE as f32) + (1.0 - lambda) * result;
                self.push(&us, &them, target);
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
