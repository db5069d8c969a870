//! A player waiting in an arena, with what the pairing needs to know.

use serde::{Deserialize, Serialize};

use crate::outcome::FinishedGame;
use crate::player::{PlayerKey, Side};

/// How many recent opponents [`ArenaCandidate::from_games`] keeps.
pub const RECENT_OPPONENTS_KEPT: usize = 3;

/// A player waiting to be paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaCandidate {
    /// The player.
    pub key: PlayerKey,
    /// Their rating.
    pub rating: i32,
    /// Their rank in the tournament by current points (1 = leader; players
    /// on equal points may share a rank).
    pub rank: u32,
    /// Their recent opponents, the most recent first.
    pub recent_opponents: Vec<PlayerKey>,
    /// The colours of their games so far, the oldest first.
    pub colours: Vec<Side>,
}

impl ArenaCandidate {
    /// The candidate from the tournament's finished games, in the order they
    /// finished: their colours, and their last [`RECENT_OPPONENTS_KEPT`]
    /// opponents.
    #[must_use]
    pub fn from_games(key: PlayerKey, rating: i32, rank: u32, games: &[FinishedGame]) -> Self {
        let mut colours = Vec::new();
        let mut opponents = Vec::new();
        for game in games {
            if let Some(side) = game.side_of(key) {
                colours.push(side);
                opponents.push(game.player(side.opposite()));
            }
        }
        let recent_opponents = opponents
            .into_iter()
            .rev()
            .take(RECENT_OPPONENTS_KEPT)
            .collect();
        ArenaCandidate {
            key,
            rating,
            rank,
            recent_opponents,
            colours,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;

    #[test]
    fn colours_oldest_first_opponents_latest_first() {
        let game = |white: u64, black: u64| FinishedGame {
            white: PlayerKey(white),
            black: PlayerKey(black),
            outcome: Outcome::Draw,
            plies: 40,
            white_berserked: false,
            black_berserked: false,
        };
        let games = [game(1, 2), game(3, 4), game(5, 1), game(1, 6), game(7, 1)];
        let c = ArenaCandidate::from_games(PlayerKey(1), 1500, 2, &games);
        assert_eq!(
            c.colours,
            [Side::White, Side::Black, Side::White, Side::Black]
        );
        assert_eq!(
            c.recent_opponents,
            [PlayerKey(7), PlayerKey(6), PlayerKey(5)]
        );
        assert_eq!((c.rating, c.rank), (1500, 2));
    }
}
