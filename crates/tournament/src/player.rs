//! Who plays: an opaque player key and the two sides of a board.

use serde::{Deserialize, Serialize};

/// A player, as the server knows them; opaque to this crate.
///
/// The crate never looks inside: it only compares keys, so that every
/// ordering that would otherwise tie ends on the key and stays
/// deterministic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PlayerKey(pub u64);

/// A side of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Side {
    /// The side that moves first.
    White,
    /// The side that moves second.
    Black,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}
