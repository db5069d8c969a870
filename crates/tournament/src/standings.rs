//! Standings for round robins and Swiss tournaments: points, then
//! Sonneborn–Berger, then performance.
//!
//! * **Points**: win 1, draw ½, loss 0, plus points scored without playing
//!   (byes, forfeits, rounds missed), kept in half points so that ties are
//!   exact.
//! * **Sonneborn–Berger**: the sum of the final points of the opponents one
//!   beat plus half those of the opponents one drew, over games actually
//!   played (points without a game add nothing).
//! * **Performance**: the average rating of the opponents one played plus
//!   400 × (wins − losses) / games, rounded toward zero (the linear
//!   "algorithm of 400"); none without a game played.
//! * **Final tie-break**, so the order is total and deterministic: the
//!   higher rating, then the lower key.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::outcome::{Outcome, PlayerResult};
use crate::player::{PlayerKey, Side};

/// A number of half points: `HalfPoints(9)` is 4½ points.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct HalfPoints(pub u32);

impl HalfPoints {
    /// Half a point.
    pub const HALF: HalfPoints = HalfPoints(1);
    /// A whole point.
    pub const ONE: HalfPoints = HalfPoints(2);

    /// The points as a number, e.g. 4.5.
    #[must_use]
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl std::ops::Add for HalfPoints {
    type Output = HalfPoints;
    fn add(self, other: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 + other.0)
    }
}

impl std::ops::AddAssign for HalfPoints {
    fn add_assign(&mut self, other: HalfPoints) {
        self.0 += other.0;
    }
}

impl fmt::Display for HalfPoints {
    /// `4.5`, `3.0`: one decimal, as crosstables and TRF write points.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{}.{}", self.0 / 2, if self.0 % 2 == 1 { 5 } else { 0 });
        f.pad(&text)
    }
}

/// The points a result is worth: 1, ½ or 0.
#[must_use]
pub fn points_for(result: PlayerResult) -> HalfPoints {
    match result {
        PlayerResult::Win => HalfPoints::ONE,
        PlayerResult::Draw => HalfPoints::HALF,
        PlayerResult::Loss => HalfPoints(0),
    }
}

/// A game played over the board, for standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayedGame {
    /// The player with White.
    pub white: PlayerKey,
    /// The player with Black.
    pub black: PlayerKey,
    /// How it ended.
    pub outcome: Outcome,
}

/// A player in the standings, with the rating used for performance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatedPlayer {
    /// The player.
    pub key: PlayerKey,
    /// Their rating.
    pub rating: i32,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The 1-based position (unique: every tie is broken).
    pub position: u32,
    /// The player.
    pub key: PlayerKey,
    /// Their points.
    pub points: HalfPoints,
    /// Sonneborn–Berger, in quarter points (its halves of half points);
    /// see [`Standing::sonneborn_berger`].
    pub sonneborn_berger_quarters: u32,
    /// Their performance rating, if they played.
    pub performance: Option<i32>,
    /// Games won over the board.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost over the board.
    pub losses: u32,
}

impl Standing {
    /// Sonneborn–Berger as a number, e.g. 7.25.
    #[must_use]
    pub fn sonneborn_berger(&self) -> f64 {
        f64::from(self.sonneborn_berger_quarters) / 4.0
    }
}

/// The performance rating: average opponent rating + 400 × (wins −
/// losses) / games; `None` without games.
#[must_use]
pub fn performance_rating(games: &[(i32, PlayerResult)]) -> Option<i32> {
    linear_performance(games, 400)
}

/// Average opponent rating + `spread` × (wins − losses) / games (the
/// linear performance of the Swiss, with 400, and of the arena, with 500);
/// `None` without games.
#[must_use]
pub fn linear_performance(games: &[(i32, PlayerResult)], spread: i64) -> Option<i32> {
    if games.is_empty() {
        return None;
    }
    let n = games.len() as i64;
    let ratings: i64 = games.iter().map(|&(r, _)| i64::from(r)).sum();
    let balance: i64 = games
        .iter()
        .map(|&(_, result)| match result {
            PlayerResult::Win => 1,
            PlayerResult::Draw => 0,
            PlayerResult::Loss => -1,
        })
        .sum();
    Some(((ratings + spread * balance) / n) as i32)
}

/// The standings of `players` after `games`, with `extra` points scored
/// without playing (a player may appear there several times). Games of
/// players not in `players` are ignored.
#[must_use]
pub fn standings(
    players: &[RatedPlayer],
    games: &[PlayedGame],
    extra: &[(PlayerKey, HalfPoints)],
) -> Vec<Standing> {
    let rating: HashMap<PlayerKey, i32> = players.iter().map(|p| (p.key, p.rating)).collect();
    let mut points: HashMap<PlayerKey, HalfPoints> =
        players.iter().map(|p| (p.key, HalfPoints(0))).collect();
    let known = |g: &PlayedGame| rating.contains_key(&g.white) && rating.contains_key(&g.black);
    for &(key, extra_points) in extra {
        if let Some(p) = points.get_mut(&key) {
            *p += extra_points;
        }
    }
    for game in games.iter().filter(|g| known(g)) {
        for side in [Side::White, Side::Black] {
            let key = if side == Side::White {
                game.white
            } else {
                game.black
            };
            *points.get_mut(&key).expect("known") += points_for(game.outcome.for_side(side));
        }
    }
    let mut lines: Vec<(Standing, i32)> = players
        .iter()
        .map(|p| {
            let mut line = Standing {
                position: 0,
                key: p.key,
                points: points[&p.key],
                sonneborn_berger_quarters: 0,
                performance: None,
                wins: 0,
                draws: 0,
                losses: 0,
            };
            let mut faced = Vec::new();
            for game in games.iter().filter(|g| known(g)) {
                let (side, opponent) = if game.white == p.key {
                    (Side::White, game.black)
                } else if game.black == p.key {
                    (Side::Black, game.white)
                } else {
                    continue;
                };
                let result = game.outcome.for_side(side);
                let theirs = points[&opponent].0;
                match result {
                    PlayerResult::Win => {
                        line.wins += 1;
                        line.sonneborn_berger_quarters += 2 * theirs;
                    }
                    PlayerResult::Draw => {
                        line.draws += 1;
                        line.sonneborn_berger_quarters += theirs;
                    }
                    PlayerResult::Loss => line.losses += 1,
                }
                faced.push((rating[&opponent], result));
            }
            line.performance = performance_rating(&faced);
            (line, p.rating)
        })
        .collect();
    lines.sort_by(|(a, ra), (b, rb)| {
        b.points
            .cmp(&a.points)
            .then(
                b.sonneborn_berger_quarters
                    .cmp(&a.sonneborn_berger_quarters),
            )
            .then(b.performance.cmp(&a.performance))
            .then(rb.cmp(ra))
            .then(a.key.cmp(&b.key))
    });
    lines
        .into_iter()
        .enumerate()
        .map(|(i, (mut line, _))| {
            line.position = i as u32 + 1;
            line
        })
        .collect()
}

/// The first three of the standings (fewer if fewer played).
#[must_use]
pub fn podium(standings: &[Standing]) -> Vec<PlayerKey> {
    standings.iter().take(3).map(|s| s.key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: u64, black: u64, outcome: Outcome) -> PlayedGame {
        PlayedGame {
            white: PlayerKey(white),
            black: PlayerKey(black),
            outcome,
        }
    }

    #[test]
    fn half_points_print_with_one_decimal() {
        assert_eq!(HalfPoints(9).to_string(), "4.5");
        assert_eq!(HalfPoints(6).to_string(), "3.0");
        assert_eq!(format!("{:>4}", HalfPoints(1)), " 0.5");
    }

    #[test]
    fn sonneborn_berger_breaks_a_tie_on_points() {
        // A round robin of four: 1 and 2 both score 2; 1 beat 3 (1.5 points)
        // and drew 2 and 4; 2 beat 4 (0.5) and drew 1 and 3.
        use Outcome::*;
        let games = [
            game(1, 4, Draw),
            game(2, 3, Draw),
            game(4, 3, BlackWins),
            game(1, 2, Draw),
            game(2, 4, WhiteWins),
            game(3, 1, BlackWins),
        ];
        let players: Vec<RatedPlayer> = (1..=4)
            .map(|k| RatedPlayer {
                key: PlayerKey(k),
                rating: 2000,
            })
            .collect();
        let table = standings(&players, &games, &[]);
        let order: Vec<u64> = table.iter().map(|s| s.key.0).collect();
        assert_eq!(order, [1, 2, 3, 4]);
        assert_eq!(table[0].points, HalfPoints(4));
        // 1: beat 3 (1.5) + half of 2 (2) and of 4 (0.5) = 1.5 + 1 + 0.25.
        assert_eq!(table[0].sonneborn_berger(), 2.75);
        // 2: beat 4 (0.5) + half of 1 (2) and of 3 (1.5) = 0.5 + 1 + 0.75.
        assert_eq!(table[1].sonneborn_berger(), 2.25);
        assert_eq!(table[0].performance, Some(2000 + 400 / 3));
        assert_eq!(podium(&table), [PlayerKey(1), PlayerKey(2), PlayerKey(3)]);
    }

    #[test]
    fn extra_points_count_and_ties_end_on_rating_then_key() {
        let players = [
            RatedPlayer {
                key: PlayerKey(5),
                rating: 1500,
            },
            RatedPlayer {
                key: PlayerKey(3),
                rating: 1600,
            },
            RatedPlayer {
                key: PlayerKey(1),
                rating: 1500,
            },
        ];
        let extra = [
            (PlayerKey(5), HalfPoints::ONE),
            (PlayerKey(5), HalfPoints::HALF),
        ];
        let table = standings(&players, &[], &extra);
        let order: Vec<u64> = table.iter().map(|s| s.key.0).collect();
        assert_eq!(order, [5, 3, 1]);
        assert_eq!(table[0].points.as_f64(), 1.5);
        assert_eq!(table[0].performance, None);
    }
}
