//! A game to start: who has White and who Black.

use serde::{Deserialize, Serialize};

use crate::player::PlayerKey;

/// A game to start, as every pairing in this crate returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The player with the white pieces.
    pub white: PlayerKey,
    /// The player with the black pieces.
    pub black: PlayerKey,
}
