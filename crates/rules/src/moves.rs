//! Moves, packed in 32 bits, and move lists.

use crate::{Role, Square};
use smallvec::SmallVec;

/// What a move does, beyond taking a piece from one square to another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MoveKind {
    /// Any move of one piece (slides, ricochets, leaps, steps, beast hop
    /// chains without capture, double steps, pawn pass-through), with or
    /// without capturing what stands on the destination.
    Normal,
    /// A pawn reaching the last rank and turning into [`Move::promotion`].
    Promotion,
    /// A pawn taking a pawn that just made a double step, by passing it.
    EnPassant,
    /// The king's move of a castling; the rook follows from the game's rules.
    Castle,
    /// The piece moves onto its own beast's square; the beast goes to [`Move::aux`].
    Propel,
    /// A beast's hop chain whose last hop removes the enemy beast on [`Move::aux`].
    BeastCapture,
    /// A piece from the reserve is placed on [`Move::to`] (Chessence).
    Drop,
}

/// A move, identified by its effect (RULES preface): the piece's square, its
/// destination, and for propels and beast captures a second square.
///
/// Packed: bits 0–6 from, 7–13 to, 14–20 aux square, 21–23 kind, 24–26 role.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u32);

const KIND_SHIFT: u32 = 21;
const ROLE_SHIFT: u32 = 24;

impl Move {
    /// The null move: not a legal move in any position.
    pub const NULL: Move = Move(0);

    #[inline(always)]
    const fn pack(from: Square, to: Square, aux: Square, kind: u32, role: u32) -> Move {
        Move(
            from.raw() as u32
                | (to.raw() as u32) << 7
                | (aux.raw() as u32) << 14
                | kind << KIND_SHIFT
                | role << ROLE_SHIFT,
        )
    }

    /// A move of one piece from `from` to `to`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, Square::new(0), 0, 0)
    }

    /// A pawn's move to the last rank, becoming `role`.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, Square::new(0), 1, role as u32)
    }

    /// An en-passant capture by the pawn on `from`, landing on `to`.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, Square::new(0), 2, 0)
    }

    /// Castling, written as the king's move.
    #[inline(always)]
    pub const fn castle(king: Square, king_to: Square) -> Move {
        Move::pack(king, king_to, Square::new(0), 3, 0)
    }

    /// The piece on `from` moves to its beast on `beast`, which goes to `beast_to`.
    #[inline(always)]
    pub const fn propel(from: Square, beast: Square, beast_to: Square) -> Move {
        Move::pack(from, beast, beast_to, 4, 0)
    }

    /// A beast on `from` hopping to `to`, its last hop over the enemy beast on `captured`.
    #[inline(always)]
    pub const fn beast_capture(from: Square, to: Square, captured: Square) -> Move {
        Move::pack(from, to, captured, 5, 0)
    }

    /// A piece of `role` from the hand dropped on `to`.
    #[inline(always)]
    pub const fn drop(role: Role, to: Square) -> Move {
        Move::pack(to, to, Square::new(0), 6, role as u32)
    }

    /// The square the move starts from (the destination, for a drop).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 127) as u8)
    }

    /// The square the moving piece ends on.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 7 & 127) as u8)
    }

    /// The second square: the propelled beast's destination, or the captured beast.
    #[inline(always)]
    pub const fn aux(self) -> Square {
        Square::new((self.0 >> 14 & 127) as u8)
    }

    /// What kind of move this is.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Propel,
            5 => MoveKind::BeastCapture,
            _ => MoveKind::Drop,
        }
    }

    /// The role a promotion makes.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion => Some(Role::from_index((self.0 >> ROLE_SHIFT & 7) as u8)),
            _ => None,
        }
    }

    /// The role a drop puts down.
    #[inline(always)]
    pub const fn drop_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Drop => Some(Role::from_index((self.0 >> ROLE_SHIFT & 7) as u8)),
            _ => None,
        }
    }

    /// The beast's destination of a propel.
    #[inline(always)]
    pub const fn propel_target(self) -> Option<Square> {
        match self.kind() {
            MoveKind::Propel => Some(self.aux()),
            _ => None,
        }
    }

    /// The square of the enemy beast a beast capture removes.
    #[inline(always)]
    pub const fn captured_beast(self) -> Option<Square> {
        match self.kind() {
            MoveKind::BeastCapture => Some(self.aux()),
            _ => None,
        }
    }

    /// Whether this is [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The packed form (for transposition tables).
    #[inline(always)]
    pub const fn to_u32(self) -> u32 {
        self.0
    }

    /// The move of a packed form from [`Move::to_u32`].
    #[inline(always)]
    pub const fn from_u32(x: u32) -> Move {
        Move(x)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({:?} {}->{} aux {})",
            self.kind(),
            self.from().raw(),
            self.to().raw(),
            self.aux().raw()
        )
    }
}

/// A list of moves, kept on the stack for the usual sizes.
pub type MoveList = SmallVec<[Move; 256]>;
