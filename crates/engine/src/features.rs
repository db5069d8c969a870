//! Search features that can be switched off, to measure what each is worth.

use crate::eval::Evaluate;
use std::fmt;
use std::str::FromStr;

/// One pruning, ordering or time-management feature of the search. Its
/// [name](Feature::name) is the UCI option `Feature NAME` and the match
/// spec's `no=NAME` / `feature.NAME=on`.
///
/// ```
/// use tensorchess_engine::Feature;
/// assert_eq!(Feature::NullMove.name(), "null_move");
/// assert_eq!("tt_eval".parse::<Feature>(), Ok(Feature::TtEval));
/// assert!("warp_drive".parse::<Feature>().is_err());
/// assert_eq!(Feature::ALL.len(), 21);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Null-move pruning.
    NullMove,
    /// Late-move reductions.
    LateMoveReductions,
    /// Late-move pruning of quiet moves near the leaves.
    LateMovePruning,
    /// Futility pruning of quiet moves near the leaves.
    Futility,
    /// Reverse futility pruning (static null move).
    ReverseFutility,
    /// Aspiration windows around the previous iteration's score.
    Aspiration,
    /// A ply more for moves that give check.
    CheckExtension,
    /// Killer moves in move ordering.
    Killers,
    /// Quiet moves ordered by their history.
    History,
    /// Delta pruning in the quiescence search.
    DeltaPruning,
    /// Internal iterative reduction without a hash move.
    Iir,
    /// The quiescence search skips captures that lose material.
    BadCapturePruning,
    /// Time on a clock planned for 20 moves and scaled by how settled the
    /// best move is; off: planned for 30 moves, not scaled.
    AdaptiveTime,
    /// Quiet moves ordered by how they fared after the previous two moves.
    ContinuationHistory,
    /// Late-move reductions lessened or deepened by a quiet move's history.
    HistoryReductions,
    /// Quiescence search probes and stores the transposition table.
    QsearchTt,
    /// A hash move much better than every other move is searched deeper.
    SingularExtension,
    /// Move-ordering history is kept from one move of a game to the next.
    HistoryBetweenMoves,
    /// Captures of equal victims ordered by how they fared before.
    CaptureHistory,
    /// Pruning decisions use the hash score where it bounds the static eval.
    TtEval,
    /// Quiet moves with a very bad history are skipped near the leaves.
    HistoryPruning,
}

impl Feature {
    /// Every feature, in the order of the UCI options.
    pub const ALL: [Feature; 21] = [
        Feature::NullMove,
        Feature::LateMoveReductions,
        Feature::LateMovePruning,
        Feature::Futility,
        Feature::ReverseFutility,
        Feature::Aspiration,
        Feature::CheckExtension,
        Feature::Killers,
        Feature::History,
        Feature::DeltaPruning,
        Feature::Iir,
        Feature::BadCapturePruning,
        Feature::AdaptiveTime,
        Feature::ContinuationHistory,
        Feature::HistoryReductions,
        Feature::QsearchTt,
        Feature::SingularExtension,
        Feature::HistoryBetweenMoves,
        Feature::CaptureHistory,
        Feature::TtEval,
        Feature::HistoryPruning,
    ];

    /// The name of the UCI option `Feature NAME` and of match specs.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::NullMove => "null_move",
            Feature::LateMoveReductions => "late_move_reductions",
            Feature::LateMovePruning => "late_move_pruning",
            Feature::Futility => "futility",
            Feature::ReverseFutility => "reverse_futility",
            Feature::Aspiration => "aspiration",
            Feature::CheckExtension => "check_extension",
            Feature::Killers => "killers",
            Feature::History => "history",
            Feature::DeltaPruning => "delta_pruning",
            Feature::Iir => "iir",
            Feature::BadCapturePruning => "bad_capture_pruning",
            Feature::AdaptiveTime => "adaptive_time",
            Feature::ContinuationHistory => "continuation_history",
            Feature::HistoryReductions => "history_reductions",
            Feature::QsearchTt => "qsearch_tt",
            Feature::SingularExtension => "singular_extension",
            Feature::HistoryBetweenMoves => "history_between_moves",
            Feature::CaptureHistory => "capture_history",
            Feature::TtEval => "tt_eval",
            Feature::HistoryPruning => "history_pruning",
        }
    }

    /// The feature's bit in a [`Features`] set.
    #[inline(always)]
    const fn bit(self) -> u32 {
        1 << self as u32
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Feature`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFeature(pub String);

impl fmt::Display for UnknownFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no such feature '{}'", self.0)
    }
}

impl std::error::Error for UnknownFeature {}

impl FromStr for Feature {
    type Err = UnknownFeature;
    fn from_str(s: &str) -> Result<Feature, UnknownFeature> {
        Feature::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFeature(s.to_string()))
    }
}

/// The features switched on, as a bit set, and those forced on even where
/// the game switches them off (`Evaluate::FEATURES_OFF`).
///
/// ```
/// use tensorchess_engine::{Feature, Features};
/// let mut f = Features::default();
/// assert!(f.is_on(Feature::Iir));
/// f.set(Feature::Iir, false);
/// assert!(!f.is_on(Feature::Iir));
/// f.force(Feature::TtEval);
/// assert!(f.is_forced(Feature::TtEval) && !f.is_forced(Feature::Iir));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    on: u32,
    forced: u32,
}

impl Default for Features {
    /// Every feature on, none forced.
    fn default() -> Self {
        Features::ALL_ON
    }
}

impl Features {
    /// Every feature on, none forced.
    pub const ALL_ON: Features = Features {
        on: (1 << Feature::ALL.len()) - 1,
        forced: 0,
    };

    /// Whether `feature` is on.
    #[inline(always)]
    pub const fn is_on(self, feature: Feature) -> bool {
        self.on & feature.bit() != 0
    }

    /// Switches `feature` on or off (switching it off also ends a
    /// [`Features::force`]).
    pub fn set(&mut self, feature: Feature, on: bool) {
        if on {
            self.on |= feature.bit();
        } else {
            self.on &= !feature.bit();
            self.forced &= !feature.bit();
        }
    }

    /// These features with `feature` switched on or off.
    pub fn with(mut self, feature: Feature, on: bool) -> Features {
        self.set(feature, on);
        self
    }

    /// Switches `feature` on even in a game whose defaults switch it off,
    /// to measure it there.
    pub fn force(&mut self, feature: Feature) {
        self.on |= feature.bit();
        self.forced |= feature.bit();
    }

    /// Whether [`Features::force`] switched this feature on.
    pub const fn is_forced(self, feature: Feature) -> bool {
        self.forced & feature.bit() != 0
    }

    /// These features with the game's defaults applied: what `V` switches
    /// off is off unless forced on.
    pub fn for_game<V: Evaluate>(mut self) -> Features {
        for &feature in V::FEATURES_OFF {
            if !self.is_forced(feature) {
                self.on &= !feature.bit();
            }
        }
        self
    }
}
