//! How a game ended, seen from the board and from one player.

use serde::{Deserialize, Serialize};

use crate::player::{PlayerKey, Side};

/// The result of a finished game, from the board's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Neither won.
    Draw,
}

impl Outcome {
    /// The result for the player on `side`.
    #[must_use]
    pub fn for_side(self, side: Side) -> PlayerResult {
        match (self, side) {
            (Outcome::Draw, _) => PlayerResult::Draw,
            (Outcome::WhiteWins, Side::White) | (Outcome::BlackWins, Side::Black) => {
                PlayerResult::Win
            }
            _ => PlayerResult::Loss,
        }
    }
}

/// The result of a game for one of its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayerResult {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

/// A finished game as a tournament sees it: who played which side, how it
/// ended, how long it lasted and who berserked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FinishedGame {
    /// The player with the white pieces.
    pub white: PlayerKey,
    /// The player with the black pieces.
    pub black: PlayerKey,
    /// How the game ended.
    pub outcome: Outcome,
    /// The game's length in plies (half-moves).
    pub plies: u32,
    /// Whether White berserked (arena only; false elsewhere).
    pub white_berserked: bool,
    /// Whether Black berserked (arena only; false elsewhere).
    pub black_berserked: bool,
}

impl FinishedGame {
    /// The side `player` played, or `None` when they did not play this game.
    #[must_use]
    pub fn side_of(&self, player: PlayerKey) -> Option<Side> {
        if self.white == player {
            Some(Side::White)
        } else if self.black == player {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The opponent of the player on `side`.
    #[must_use]
    pub fn player(&self, side: Side) -> PlayerKey {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// Whether the player on `side` berserked.
    #[must_use]
    pub fn berserked(&self, side: Side) -> bool {
        match side {
            Side::White => self.white_berserked,
            Side::Black => self.black_berserked,
        }
    }
}
