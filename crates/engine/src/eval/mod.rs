//! Evaluation: a linear sum of terms, tapered between middlegame and endgame.
//!
//! Every term is a White-minus-Black count (pieces, piece-square occupancy,
//! mobility, pawn structure, king safety, beast and men features) times a
//! pair of weights (middlegame, endgame). Search uses the sum; the tuner
//! (`tensorchess tune`) reads the same terms to fit the weights to game
//! results (Texel's method), so the two can never disagree.

mod terms;
mod tuned;
pub mod weights;

pub use terms::{Layout, Misc, term_name};

use crate::{Engine, Feature, Limits, SearchHandler, SearchResult};
use tensorchess_rules::{Chess, Chessence, Color, Position, Role, Tensor, Variant};

/// Receives the terms of a position.
pub trait Accumulator {
    /// Adds `value` (White minus Black) of term `term`.
    fn add(&mut self, term: usize, value: i32);
}

/// Weights (middlegame, endgame) per term.
pub type Weights = [[i32; 2]];

/// Evaluation of one game.
pub trait Evaluate: Variant {
    /// Where each kind of term lives in the weight table.
    const LAYOUT: Layout;
    /// Material of each role counted for the game phase, and the start total.
    const PHASE_WEIGHTS: [i32; 8];
    /// The phase count of the start position (the middlegame's full weight).
    const PHASE_TOTAL: i32;
    /// Null-move pruning is sound enough here (zugzwang is rare).
    const NULL_MOVE: bool = true;
    /// How many quiet moves late-move pruning keeps near the leaves, as a
    /// multiple of the usual count (0: no late-move pruning).
    const LATE_MOVE_PRUNING_SCALE: i32 = 1;
    /// Search features switched off in this game because matches did not
    /// show them gaining here (docs/strength.md).
    const FEATURES_OFF: &'static [Feature] = &[];

    /// The default (tuned) weights.
    fn default_weights() -> &'static Weights;

    /// Writes the position's terms.
    fn terms<A: Accumulator>(pos: &Position<Self>, acc: &mut A) {
        terms::write_terms(pos, acc);
    }

    /// The engine's search of this game ([`Engine::search`]). Each game's
    /// impl writes it out (`search_entry!`), so that it is compiled once,
    /// here, rather than in every crate and for every handler that searches.
    fn search_game(
        engine: &mut Engine,
        history: &[Position<Self>],
        limits: &Limits,
        handler: &mut dyn SearchHandler,
    ) -> SearchResult;
}

/// The body of a game's [`Evaluate::search_game`]: a method of a concrete
/// impl (not a default method, which each caller's crate would compile).
macro_rules! search_entry {
    () => {
        fn search_game(
            engine: &mut Engine,
            history: &[Position<Self>],
            limits: &Limits,
            handler: &mut dyn SearchHandler,
        ) -> SearchResult {
            engine.search_of(history, limits, handler)
        }
    };
}

impl Evaluate for Chess {
    const LAYOUT: Layout = Layout::new(8, 8);
    const PHASE_WEIGHTS: [i32; 8] = [0, 1, 1, 2, 4, 0, 0, 0];
    const PHASE_TOTAL: i32 = 24;
    fn default_weights() -> &'static Weights {
        &weights::CHESS
    }
    search_entry!();
}

/// Search features (rounds 2 and 3 of docs/strength.md) that matches showed
/// gaining in orthodox chess only; the other games switch them off.
const CHESS_ONLY_FEATURES: [Feature; 8] = [
    Feature::ContinuationHistory,
    Feature::HistoryReductions,
    Feature::QsearchTt,
    Feature::SingularExtension,
    Feature::HistoryBetweenMoves,
    Feature::CaptureHistory,
    Feature::TtEval,
    Feature::HistoryPruning,
];

impl Evaluate for Tensor {
    const LAYOUT: Layout = Layout::new(10, 8);
    const PHASE_WEIGHTS: [i32; 8] = [0, 1, 1, 2, 4, 0, 1, 0];
    const PHASE_TOTAL: i32 = 28;
    // Quiet moves here include propels and beast steps that set up ricochets:
    // the usual counts lost 61 Elo, three times them gained (docs/strength.md).
    const LATE_MOVE_PRUNING_SCALE: i32 = 3;
    // Round 2 together scored -17 +/- 44 Elo here (200 games); round 3 is
    // not measured here yet.
    const FEATURES_OFF: &'static [Feature] = &CHESS_ONLY_FEATURES;
    fn default_weights() -> &'static Weights {
        &weights::TENSOR
    }
    search_entry!();
}

impl Evaluate for Chessence {
    const LAYOUT: Layout = Layout::new(6, 9);
    const PHASE_WEIGHTS: [i32; 8] = [0, 0, 0, 0, 0, 0, 0, 1];
    const PHASE_TOTAL: i32 = 18;
    // Having no move loses and men lose powers when moved: zugzwang is common.
    const NULL_MOVE: bool = false;
    // Self-play here ends in repetition draws (98-99% at 2 s + 0.02 s), so
    // matches could not show these gaining: +2 -2 =196 for round 2 on,
    // +1 -1 =198 for round 3 on (docs/strength.md).
    const FEATURES_OFF: &'static [Feature] = &CHESS_ONLY_FEATURES;
    fn default_weights() -> &'static Weights {
        &weights::CHESSENCE
    }
    search_entry!();
}

/// Game phase, 256 = all pieces on (middlegame) … 0 = bare (endgame).
pub fn phase<V: Evaluate>(pos: &Position<V>) -> i32 {
    let mut p = 0;
    for r in Role::ALL {
        p += V::PHASE_WEIGHTS[r.index()] * pos.by_role(r).count() as i32;
    }
    if V::DROPS {
        p += V::PHASE_WEIGHTS[V::DROP_ROLE.index()]
            * (pos.hand(Color::White) + pos.hand(Color::Black)) as i32;
    }
    (p.min(V::PHASE_TOTAL) * 256 + V::PHASE_TOTAL / 2) / V::PHASE_TOTAL
}

struct Sum<'a> {
    w: &'a Weights,
    mg: i32,
    eg: i32,
}

impl Accumulator for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, value: i32) {
        if let Some(w) = self.w.get(term) {
            self.mg += w[0] * value;
            self.eg += w[1] * value;
        }
    }
}

/// The static evaluation in centipawns from the side to move's view.
///
/// ```
/// use tensorchess_engine::eval::evaluate;
/// use tensorchess_rules::{Position, Tensor};
/// let pos = Position::<Tensor>::new();
/// let w = <Tensor as tensorchess_engine::eval::Evaluate>::default_weights();
/// assert!(evaluate(&pos, w).abs() < 50);
/// ```
pub fn evaluate<V: Evaluate>(pos: &Position<V>, weights: &Weights) -> i32 {
    let mut s = Sum {
        w: weights,
        mg: 0,
        eg: 0,
    };
    V::terms(pos, &mut s);
    let ph = phase(pos);
    let white = (s.mg * ph + s.eg * (256 - ph)) / 256;
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}
