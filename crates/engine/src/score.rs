//! Scores: centipawns from the side to move's view, or mate distances.

use std::fmt;

/// A search score in centipawns, with mate scores near [`Eval::MATE`].
///
/// ```
/// use tensorchess_engine::Eval;
/// let m = Eval::mate_in(3);
/// assert!(m.is_mate());
/// assert_eq!(m.mate_moves(), Some(2));
/// assert_eq!(Eval(35).to_string(), "cp 35");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Eval(pub i32);

impl Eval {
    /// A draw, or an even position.
    pub const DRAW: Eval = Eval(0);
    /// Mate on the board (mate scores count down from it by the plies to mate).
    pub const MATE: Eval = Eval(32_000);
    /// A bound beyond every score.
    pub const INFINITE: Eval = Eval(32_001);
    /// Scores beyond this are mates.
    pub const MATE_BOUND: i32 = 32_000 - 1_000;

    /// Giving mate `ply` plies from the root.
    pub const fn mate_in(ply: i32) -> Eval {
        Eval(Self::MATE.0 - ply)
    }

    /// Being mated `ply` plies from the root.
    pub const fn mated_in(ply: i32) -> Eval {
        Eval(-Self::MATE.0 + ply)
    }

    /// Whether the score is a mate, for either side.
    pub const fn is_mate(self) -> bool {
        self.0.abs() > Self::MATE_BOUND
    }

    /// Moves (not plies) to mate, negative when being mated.
    pub fn mate_moves(self) -> Option<i32> {
        if !self.is_mate() {
            return None;
        }
        let plies = Self::MATE.0 - self.0.abs();
        let moves = (plies + 1) / 2;
        Some(if self.0 > 0 { moves } else { -moves })
    }

    /// Stores a score in the transposition table relative to the node, not the root.
    pub(crate) fn to_tt(self, ply: i32) -> i16 {
        let v = if self.0 > Self::MATE_BOUND {
            self.0 + ply
        } else if self.0 < -Self::MATE_BOUND {
            self.0 - ply
        } else {
            self.0
        };
        v.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
    }

    pub(crate) fn from_tt(v: i16, ply: i32) -> Eval {
        let v = v as i32;
        Eval(if v > Self::MATE_BOUND {
            v - ply
        } else if v < -Self::MATE_BOUND {
            v + ply
        } else {
            v
        })
    }
}

/// UCI form: `cp 35` or `mate -2`.
impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(m) => write!(f, "mate {m}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

impl std::ops::Neg for Eval {
    type Output = Eval;
    fn neg(self) -> Eval {
        Eval(-self.0)
    }
}
