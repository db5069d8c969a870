//! How games end (RULES 1.11, 2, 3).

use crate::{Color, Position, Role, Variant};
use std::fmt;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// Chessence: the side to move has no legal move and is not in check; it loses.
    NoLegalMoves,
    /// The side to move has no legal move and is not in check; a draw.
    Stalemate,
    /// The same position for the third time.
    Repetition,
    /// 100 plies without capture or pawn move (or, in Chessence, capture or drop).
    HundredPlies,
    /// Neither side can ever give mate.
    DeadMaterial,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// The players agreed to a draw.
    Agreement,
    /// A player left the game.
    Abandoned,
}

impl EndReason {
    /// The reason in English, lower case (`threefold repetition`).
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMoves => "no legal moves",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "threefold repetition",
            EndReason::HundredPlies => "100 plies without capture or pawn move",
            EndReason::DeadMaterial => "insufficient material",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "time",
            EndReason::Agreement => "agreement",
            EndReason::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The result of a finished game.
///
/// With the `serde` feature it reads and writes as
/// `{"winner": "white", "reason": "checkmate"}`, `winner` being `null` for
/// a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "OutcomeFields", from = "OutcomeFields")
)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The side that won.
        winner: Color,
        /// How the game ended.
        reason: EndReason,
    },
    /// Nobody won.
    Draw {
        /// How the game ended.
        reason: EndReason,
    },
}

impl Outcome {
    /// The side that won, if one did.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// How the game ended.
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

/// How an [`Outcome`] is serialized: the winner, if any, and the reason.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct OutcomeFields {
    winner: Option<Color>,
    reason: EndReason,
}

#[cfg(feature = "serde")]
impl From<Outcome> for OutcomeFields {
    fn from(o: Outcome) -> Self {
        OutcomeFields {
            winner: o.winner(),
            reason: o.reason(),
        }
    }
}

#[cfg(feature = "serde")]
impl From<OutcomeFields> for Outcome {
    fn from(f: OutcomeFields) -> Self {
        match f.winner {
            Some(winner) => Outcome::Decisive {
                winner,
                reason: f.reason,
            },
            None => Outcome::Draw { reason: f.reason },
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { winner, reason } => {
                let w = match winner {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                write!(f, "{w} wins by {reason}")
            }
            Outcome::Draw { reason } => write!(f, "Draw by {reason}"),
        }
    }
}

impl<V: Variant> Position<V> {
    /// The end of the game, judged from this position alone (no repetition).
    ///
    /// ```
    /// use tensorchess_rules::{Chess, Color, EndReason, Outcome, Position};
    /// let mated = Position::<Chess>::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(mated.outcome(), Some(Outcome::Decisive { winner: Color::White, reason: EndReason::Checkmate }));
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            let check = self.is_check();
            return Some(if check {
                Outcome::Decisive {
                    winner: !self.turn,
                    reason: EndReason::Checkmate,
                }
            } else if V::NO_MOVE_LOSES {
                Outcome::Decisive {
                    winner: !self.turn,
                    reason: EndReason::NoLegalMoves,
                }
            } else {
                Outcome::Draw {
                    reason: EndReason::Stalemate,
                }
            });
        }
        if V::DEAD_MATERIAL_DRAW && self.is_dead_material() {
            return Some(Outcome::Draw {
                reason: EndReason::DeadMaterial,
            });
        }
        if self.halfmoves >= 100 {
            return Some(Outcome::Draw {
                reason: EndReason::HundredPlies,
            });
        }
        None
    }

    /// Whether `color` has anything but its king and beasts, on the board or
    /// in hand. A side without it can never mate, so a flag against it is
    /// a draw rather than a loss.
    ///
    /// ```
    /// use tensorchess_rules::{Chessence, Color, Position, Tensor};
    /// let pos = Position::<Tensor>::from_fen("k9/10/10/10/10/10/10/TK6Tq w - - 0 1").unwrap();
    /// assert!(!pos.has_mating_material(Color::White)); // a king and beasts
    /// assert!(pos.has_mating_material(Color::Black)); // a queen
    /// let fen = "k5/5*/4*1/2*3/1*2*1/3*2/1*4/*5/5K[M] w - - 0 1";
    /// let reserve = Position::<Chessence>::from_fen(fen).unwrap();
    /// assert!(reserve.has_mating_material(Color::White)); // a man in hand
    /// ```
    pub fn has_mating_material(&self, color: Color) -> bool {
        let helpers = self.by_color(color) - self.by_role(Role::King) - self.by_role(Role::Beast);
        helpers.any() || self.hand(color) > 0
    }

    /// Neither side can ever give mate: in Tensor Chess, no pawn, knight, bishop,
    /// rook or queen remains (beasts never check); in chess, the FIDE minimal cases.
    pub fn is_dead_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() || self.by_role(Role::Man).any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = (knights | bishops).count();
        if V::BEASTS {
            return minors == 0;
        }
        if minors <= 1 {
            return true;
        }
        if knights.any() {
            return false;
        }
        // Only bishops: dead when all stand on squares of one colour.
        let g = V::GEOMETRY;
        let colors = bishops
            .into_iter()
            .map(|s| (g.file_of(s).0 + g.rank_of(s).0) % 2)
            .collect::<Vec<_>>();
        colors.iter().all(|&c| c == colors[0])
    }
}
