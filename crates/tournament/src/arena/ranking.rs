//! The arena's standings: points first, then performance.
//!
//! Performance, as lichess computes it for arenas: the average rating of
//! one's opponents plus 500 × (wins − losses) / games, rounded toward zero;
//! a player without games has none and ranks after those with one. Players
//! equal on both are ordered by key, so the ranking is deterministic.

use serde::{Deserialize, Serialize};

use super::scoring::score_player;
use crate::outcome::{games_by_player, FinishedGame, PlayerResult};
use crate::player::PlayerKey;

/// One line of the arena's standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaStanding {
    /// The 1-based position in the standings (unique: ties are broken).
    pub rank: u32,
    /// The player.
    pub key: PlayerKey,
    /// Their arena points.
    pub points: u32,
    /// Their performance rating, if they have played.
    pub performance: Option<i32>,
    /// Games played.
    pub games: u32,
    /// Whether they are on fire for their next game.
    pub on_fire: bool,
}

/// The performance rating of a player with these opponents' ratings and
/// results: average opponent rating + 500 × (wins − losses) / games.
#[must_use]
pub fn arena_performance(games: &[(i32, PlayerResult)]) -> Option<i32> {
    crate::standings::linear_performance(games, 500)
}

/// Ranks the players of an arena: `players` with their ratings, `games` in
/// the order they finished.
#[must_use]
pub fn rank_arena(players: &[(PlayerKey, i32)], games: &[FinishedGame]) -> Vec<ArenaStanding> {
    let rating: std::collections::HashMap<PlayerKey, i32> = players.iter().copied().collect();
    let by_player = games_by_player(games);
    let mut lines: Vec<ArenaStanding> = players
        .iter()
        .map(|&(key, _)| {
            let own = by_player.get(&key).map_or(&[][..], Vec::as_slice);
            let sheet = score_player(own, key);
            let faced: Vec<(i32, PlayerResult)> = own
                .iter()
                .filter_map(|g| {
                    let side = g.side_of(key)?;
                    let opponent = g.player(side.opposite());
                    Some((
                        rating.get(&opponent).copied().unwrap_or(0),
                        g.outcome.for_side(side),
                    ))
                })
                .collect();
            ArenaStanding {
                rank: 0,
                key,
                points: sheet.total,
                performance: arena_performance(&faced),
                games: faced.len() as u32,
                on_fire: sheet.on_fire,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.performance.cmp(&a.performance))
            .then(a.key.cmp(&b.key))
    });
    for (i, line) in lines.iter_mut().enumerate() {
        line.rank = i as u32 + 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;

    #[test]
    fn performance_follows_the_lichess_formula() {
        use PlayerResult::*;
        assert_eq!(arena_performance(&[]), None);
        assert_eq!(arena_performance(&[(1500, Win), (1700, Draw)]), Some(1850));
        assert_eq!(arena_performance(&[(1500, Loss)]), Some(1000));
    }

    #[test]
    fn points_first_then_performance_then_key() {
        let (a, b, c, d) = (PlayerKey(1), PlayerKey(2), PlayerKey(3), PlayerKey(4));
        let game = |white, black, outcome| FinishedGame {
            white,
            black,
            outcome,
            plies: 40,
            white_berserked: false,
            black_berserked: false,
        };
        // a and c both win once (2 points); c beat the higher-rated player.
        let games = [
            game(a, b, Outcome::WhiteWins),
            game(c, d, Outcome::WhiteWins),
        ];
        let players = [(a, 1500), (b, 1400), (c, 1500), (d, 1800)];
        let table = rank_arena(&players, &games);
        let order: Vec<PlayerKey> = table.iter().map(|l| l.key).collect();
        // b and d both lost to a 1500 player: equal performance, so by key.
        assert_eq!(order, [c, a, b, d]);
        assert_eq!(table[0].performance, Some(2300));
        assert_eq!(table[0].rank, 1);
        assert_eq!(table[3].rank, 4);
    }
}
