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

/// Each player's games, in the order of `games` (a game is in both its
/// players' lists): standings and pairings look at each player's own
/// games, not at every game of the tournament for each player.
#[must_use]
pub fn games_by_player(
    games: &[FinishedGame],
) -> std::collections::HashMap<PlayerKey, Vec<FinishedGame>> {
    let mut by: std::collections::HashMap<PlayerKey, Vec<FinishedGame>> =
        std::collections::HashMap::new();
    for g in games {
        by.entry(g.white).or_default().push(*g);
        if g.black != g.white {
            by.entry(g.black).or_default().push(*g);
        }
    }
    by
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: u64, black: u64, plies: u32) -> FinishedGame {
        FinishedGame {
            white: PlayerKey(white),
            black: PlayerKey(black),
            outcome: Outcome::Draw,
            plies,
            white_berserked: false,
            black_berserked: false,
        }
    }

    #[test]
    fn each_players_games_in_their_order() {
        let games = [
            game(0, 1, 10),
            game(2, 0, 11),
            game(1, 2, 12),
            game(0, 2, 13),
        ];
        let by = games_by_player(&games);
        let plies = |k: u64| {
            by[&PlayerKey(k)]
                .iter()
                .map(|g| g.plies)
                .collect::<Vec<_>>()
        };
        assert_eq!(plies(0), [10, 11, 13]);
        assert_eq!(plies(1), [10, 12]);
        assert_eq!(plies(2), [11, 12, 13]);
        assert!(!by.contains_key(&PlayerKey(3)));
        assert!(games_by_player(&[]).is_empty());
    }
}
