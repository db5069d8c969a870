//! Round robins by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! Players are numbered 1..=n by the draw. With an even `n`, player `n`
//! stays on the first board and alternates colours; in round `r` the other
//! player there is `a = 1 + (r − 1) × n/2` (counted modulo `n − 1` in
//! `1..n`), White in odd rounds and Black in even ones, and board `k` pairs
//! `a + (k − 1)` (White) with `a − (k − 1)` (both modulo `n − 1`). This
//! reproduces the published tables exactly (the tests check 4 and 6).
//!
//! With an odd `n` the table for `n + 1` is used and whoever meets player
//! `n + 1` has the bye. A double round robin plays the table twice, the
//! second cycle with the colours reversed.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::player::PlayerKey;

/// The fewest players a round robin table is made for.
pub const MIN_PLAYERS: u32 = 3;
/// The most players a round robin table is made for.
pub const MAX_PLAYERS: u32 = 12;

/// One board of a round, players by their draw numbers (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BergerBoard {
    /// A game.
    Game {
        /// The number of the player with White.
        white: u32,
        /// The number of the player with Black.
        black: u32,
    },
    /// The player sits this round out (odd number of players).
    Bye {
        /// The number of the player with the bye.
        player: u32,
    },
}

/// How many times every pair meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cycles {
    /// Once.
    Single,
    /// Twice, the second time with the colours reversed.
    Double,
}

/// Why no table can be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BergerError {
    /// The number of players is outside [`MIN_PLAYERS`]..=[`MAX_PLAYERS`].
    #[error("round robins are made for 3 to 12 players, not {0}")]
    PlayerCount(u32),
}

/// The rounds of a round robin of `players` players: each round's boards,
/// first board first (a bye where the table has it).
pub fn berger_table(players: u32, cycles: Cycles) -> Result<Vec<Vec<BergerBoard>>, BergerError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return Err(BergerError::PlayerCount(players));
    }
    // An odd field plays the next even table; its last number is the bye.
    let n = players + players % 2;
    let rounds_per_cycle = n - 1;
    let wrap = |x: i64| (x - 1).rem_euclid(i64::from(n - 1)) as u32 + 1;
    let board = |white: u32, black: u32| {
        if white > players {
            BergerBoard::Bye { player: black }
        } else if black > players {
            BergerBoard::Bye { player: white }
        } else {
            BergerBoard::Game { white, black }
        }
    };
    let mut first_cycle = Vec::new();
    for r in 1..=rounds_per_cycle {
        let a = wrap(1 + i64::from(r - 1) * i64::from(n / 2));
        let mut boards = Vec::with_capacity(n as usize / 2);
        boards.push(if r % 2 == 1 { board(a, n) } else { board(n, a) });
        for k in 1..i64::from(n / 2) {
            boards.push(board(wrap(i64::from(a) + k), wrap(i64::from(a) - k)));
        }
        first_cycle.push(boards);
    }
    let mut rounds = first_cycle.clone();
    if cycles == Cycles::Double {
        let last = rounds.len() - 1;
        rounds.swap(last - 1, last);
        rounds.extend(first_cycle.into_iter().map(|boards| {
            boards
                .into_iter()
                .map(|b| match b {
                    BergerBoard::Game { white, black } => BergerBoard::Game {
                        white: black,
                        black: white,
                    },
                    bye => bye,
                })
                .collect()
        }));
    }
    Ok(rounds)
}

/// A board of a round robin between named players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoundRobinBoard {
    /// A game.
    Game {
        /// The player with White.
        white: PlayerKey,
        /// The player with Black.
        black: PlayerKey,
    },
    /// The player sits this round out.
    Bye(PlayerKey),
}

/// The rounds of a round robin between `players`, in draw order (the first
/// is number 1).
pub fn round_robin(
    players: &[PlayerKey],
    cycles: Cycles,
) -> Result<Vec<Vec<RoundRobinBoard>>, BergerError> {
    let count = u32::try_from(players.len()).unwrap_or(u32::MAX);
    let key = |number: u32| players[number as usize - 1];
    Ok(berger_table(count, cycles)?
        .into_iter()
        .map(|boards| {
            boards
                .into_iter()
                .map(|b| match b {
                    BergerBoard::Game { white, black } => RoundRobinBoard::Game {
                        white: key(white),
                        black: key(black),
                    },
                    BergerBoard::Bye { player } => RoundRobinBoard::Bye(key(player)),
                })
                .collect()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A table written as the handbook prints it: "1-4 2-3" per round.
    fn parse(rounds: &[&str]) -> Vec<Vec<BergerBoard>> {
        rounds
            .iter()
            .map(|r| {
                r.split_whitespace()
                    .map(|b| {
                        let (w, bl) = b.split_once('-').unwrap();
                        BergerBoard::Game {
                            white: w.parse().unwrap(),
                            black: bl.parse().unwrap(),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    // FIDE Handbook C.05, Annex 1 (Berger tables for round-robin tournaments).
    #[test]
    fn four_players_match_the_handbook() {
        let expected = parse(&["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
        assert_eq!(berger_table(4, Cycles::Single).unwrap(), expected);
    }

    #[test]
    fn six_players_match_the_handbook() {
        let expected = parse(&[
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ]);
        assert_eq!(berger_table(6, Cycles::Single).unwrap(), expected);
    }

    #[test]
    fn five_players_use_the_six_table_with_a_bye() {
        let six = berger_table(6, Cycles::Single).unwrap();
        let five = berger_table(5, Cycles::Single).unwrap();
        for (r6, r5) in six.iter().zip(&five) {
            for (b6, b5) in r6.iter().zip(r5) {
                let expected = match *b6 {
                    BergerBoard::Game { white: 6, black } => BergerBoard::Bye { player: black },
                    BergerBoard::Game { white, black: 6 } => BergerBoard::Bye { player: white },
                    game => game,
                };
                assert_eq!(*b5, expected);
            }
        }
        assert_eq!(five[0][0], BergerBoard::Bye { player: 1 });
    }

    #[test]
    fn the_second_cycle_reverses_colours() {
        let double = berger_table(4, Cycles::Double).unwrap();
        let expected = parse(&[
            "1-4 2-3", "2-4 3-1", // the first cycle's last two rounds swapped
            "4-3 1-2", "4-1 3-2", // the second cycle: the table, colours reversed
            "3-4 2-1", "4-2 1-3",
        ]);
        assert_eq!(double, expected);
    }

    #[test]
    fn no_colour_three_times_in_a_row_in_a_double_round_robin() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            let table = berger_table(n, Cycles::Double).unwrap();
            for player in 1..=n {
                let colours: Vec<bool> = table
                    .iter()
                    .flatten()
                    .filter_map(|board| match *board {
                        BergerBoard::Game { white, .. } if white == player => Some(true),
                        BergerBoard::Game { black, .. } if black == player => Some(false),
                        _ => None,
                    })
                    .collect();
                assert!(
                    colours.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                    "{n} players: player {player} has {colours:?}"
                );
            }
        }
    }

    #[test]
    fn only_three_to_twelve_players() {
        assert_eq!(
            berger_table(2, Cycles::Single),
            Err(BergerError::PlayerCount(2))
        );
        assert_eq!(
            berger_table(13, Cycles::Single),
            Err(BergerError::PlayerCount(13))
        );
    }

    #[test]
    fn every_table_from_three_to_twelve_is_a_fair_round_robin() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            for cycles in [Cycles::Single, Cycles::Double] {
                let table = berger_table(n, cycles).unwrap();
                let times = if cycles == Cycles::Double { 2 } else { 1 };
                let mut met: HashMap<(u32, u32), u32> = HashMap::new();
                let mut whites = vec![0i32; n as usize + 1];
                let mut byes = vec![0u32; n as usize + 1];
                let cycle_len = table.len() / times;
                for (r, round) in table.iter().enumerate() {
                    let mut seen = vec![false; n as usize + 1];
                    for board in round {
                        let players = match *board {
                            BergerBoard::Game { white, black } => {
                                *met.entry((white.min(black), white.max(black))).or_default() += 1;
                                whites[white as usize] += 1;
                                whites[black as usize] -= 1;
                                vec![white, black]
                            }
                            BergerBoard::Bye { player } => {
                                byes[player as usize] += 1;
                                vec![player]
                            }
                        };
                        for p in players {
                            assert!(!seen[p as usize], "{n}: {p} twice in round {r}");
                            seen[p as usize] = true;
                        }
                    }
                    assert!(
                        seen[1..].iter().all(|&s| s),
                        "{n}: round {r} leaves someone out"
                    );
                    if r + 1 == cycle_len {
                        // After each cycle: colours within one of balance.
                        for (p, balance) in whites.iter().enumerate().skip(1) {
                            assert!(balance.abs() <= 1, "{n}: player {p} colours {balance}");
                        }
                    }
                }
                for a in 1..=n {
                    for b in a + 1..=n {
                        assert_eq!(
                            met.get(&(a, b)).copied(),
                            Some(times as u32),
                            "{n}: {a}-{b}"
                        );
                    }
                }
                let expected_byes = (n % 2) * times as u32;
                assert!(byes[1..].iter().all(|&b| b == expected_byes));
            }
        }
    }

    #[test]
    fn named_players_take_their_numbers() {
        let players = [PlayerKey(10), PlayerKey(20), PlayerKey(30)];
        let rounds = round_robin(&players, Cycles::Single).unwrap();
        assert_eq!(rounds[0][0], RoundRobinBoard::Bye(PlayerKey(10)));
        assert_eq!(
            rounds[0][1],
            RoundRobinBoard::Game {
                white: PlayerKey(20),
                black: PlayerKey(30)
            }
        );
    }
}
