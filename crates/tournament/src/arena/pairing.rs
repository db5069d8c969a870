//! Arena pairing: who of the players waiting now plays whom, and with
//! which colours.
//!
//! * **The first wave** (nobody waiting has played yet: no colours, no
//!   opponents) pairs rating neighbours: first with second, third with
//!   fourth…; the higher-rated player has White on the first, third… pair
//!   and Black on the others.
//! * **Later waves** are a minimum-cost matching (see [`pair_cost`]): the
//!   cost grows with the difference in rank, weighted more among the
//!   leaders, and in rating; an opponent among one's recent ones and two
//!   players who both want the same colour cost extra.
//! * **Never** the opponent one just played (unless the tournament has only
//!   two active players), and never a fourth game in a row with the same
//!   colour: such pairs are not made at all; a player who cannot be paired
//!   waits for the next wave.
//! * With an odd number of waiting players one is left out: in the first
//!   wave the lowest-rated; later, the one who came last in `waiting` (the
//!   order is the caller's: who waited longest first), unless leaving out
//!   someone else gives cheaper pairs.

use super::candidate::ArenaCandidate;
use super::min_cost::{min_cost_matching, Problem};
use crate::pairing::Pairing;
use crate::player::{PlayerKey, Side};

/// The longest run of one colour a player may have: never a fourth.
pub const MAX_SAME_COLOUR_IN_A_ROW: usize = 3;

/// Extra cost for meeting one of one's recent opponents (the more recent,
/// the dearer: this over the opponent's position in the list, plus one).
const RECENT_OPPONENT_COST: i64 = 4000;
/// Extra cost for pairing two players who both want the same colour.
const SAME_COLOUR_WISH_COST: i64 = 500;
/// The cost of leaving a player out: above any pair's cost, so that as
/// many pairs as possible are made.
const LEAVE_OUT_COST: i64 = 1 << 40;

/// Pairs the players waiting now.
///
/// `active_players` counts the tournament's players who are still in it
/// (waiting or playing); with two or fewer, rematches are allowed. A key
/// that appears twice in `waiting` is only considered the first time.
#[must_use]
pub fn pair_arena(waiting: &[ArenaCandidate], active_players: usize) -> Vec<Pairing> {
    let mut seen = std::collections::HashSet::new();
    let players: Vec<&ArenaCandidate> = waiting.iter().filter(|c| seen.insert(c.key)).collect();
    if players.len() < 2 {
        return Vec::new();
    }
    if players
        .iter()
        .all(|c| c.colours.is_empty() && c.recent_opponents.is_empty())
    {
        return pair_first_wave(&players);
    }
    let max_rank = players.iter().map(|c| c.rank).max().unwrap_or(1).max(1);
    // Rank order, so that the windows of large waves hold likely partners.
    let mut order: Vec<&ArenaCandidate> = players.clone();
    order.sort_by_key(|c| (c.rank, std::cmp::Reverse(c.rating), c.key));
    let waited: std::collections::HashMap<PlayerKey, usize> = players
        .iter()
        .enumerate()
        .map(|(i, c)| (c.key, i))
        .collect();
    let rematches_allowed = active_players <= 2;
    let pair = |i: usize, j: usize| {
        let (a, b) = (order[i], order[j]);
        if !may_meet(a, b, rematches_allowed) {
            return None;
        }
        Some(pair_cost(a, b, max_rank))
    };
    // Who waited longest costs most to leave out.
    let leave_out = |i: usize| LEAVE_OUT_COST + (players.len() - waited[&order[i].key]) as i64;
    let problem = Problem {
        len: order.len(),
        pair: &pair,
        leave_out: &leave_out,
    };
    min_cost_matching(&problem)
        .into_iter()
        .map(|(i, j)| assign_colours(order[i], order[j]))
        .collect()
}

/// Rating neighbours, for the first wave.
fn pair_first_wave(players: &[&ArenaCandidate]) -> Vec<Pairing> {
    let mut by_rating = players.to_vec();
    by_rating.sort_by_key(|c| (std::cmp::Reverse(c.rating), c.key));
    by_rating
        .chunks_exact(2)
        .enumerate()
        .map(|(board, two)| {
            let (higher, lower) = (two[0].key, two[1].key);
            if board % 2 == 0 {
                Pairing {
                    white: higher,
                    black: lower,
                }
            } else {
                Pairing {
                    white: lower,
                    black: higher,
                }
            }
        })
        .collect()
}

/// Whether two players may meet at all: not last opponents (unless
/// rematches are allowed), and not both due to have the same colour a
/// fourth time in a row.
fn may_meet(a: &ArenaCandidate, b: &ArenaCandidate, rematches_allowed: bool) -> bool {
    let rematch =
        a.recent_opponents.first() == Some(&b.key) || b.recent_opponents.first() == Some(&a.key);
    if rematch && !rematches_allowed {
        return false;
    }
    match (forced_colour(a), forced_colour(b)) {
        (Some(x), Some(y)) => x != y,
        _ => true,
    }
}

/// The cost of pairing `a` with `b`, the lower the better:
///
/// `|rank a − rank b| × w + |rating a − rating b|`, where the weight
/// `w = 300 + 1700 × (max rank − better rank) / max rank` is 2,000 for the
/// leader and falls to 300 at the bottom, so the leaders' pairings follow
/// the standings most closely; plus 4,000 for the opponent one met last
/// (2,000 for the one before, and so on), counted from each side, and 500
/// when both want the same colour.
#[must_use]
pub fn pair_cost(a: &ArenaCandidate, b: &ArenaCandidate, max_rank: u32) -> i64 {
    let max_rank = i64::from(max_rank.max(1));
    let better = i64::from(a.rank.min(b.rank)).min(max_rank);
    let weight = 300 + 1700 * (max_rank - better) / max_rank;
    let rank_gap = i64::from(a.rank.abs_diff(b.rank));
    let rating_gap = i64::from(a.rating.abs_diff(b.rating));
    let mut cost = rank_gap * weight + rating_gap;
    if let Some(k) = a.recent_opponents.iter().position(|&o| o == b.key) {
        cost += RECENT_OPPONENT_COST / (k as i64 + 1);
    }
    if let Some(k) = b.recent_opponents.iter().position(|&o| o == a.key) {
        cost += RECENT_OPPONENT_COST / (k as i64 + 1);
    }
    let (wa, wb) = (white_wish(a), white_wish(b));
    if (wa > 0 && wb > 0) || (wa < 0 && wb < 0) {
        cost += SAME_COLOUR_WISH_COST;
    }
    cost
}

/// The colour a player must have next: the other one after three games in
/// a row with the same colour.
fn forced_colour(c: &ArenaCandidate) -> Option<Side> {
    let last = *c.colours.last()?;
    let run = c.colours.iter().rev().take_while(|&&s| s == last).count();
    (run >= MAX_SAME_COLOUR_IN_A_ROW).then(|| last.opposite())
}

/// How much a player wants White (negative: Black): a forced colour above
/// all, then the balance of their colours, then alternation.
fn white_wish(c: &ArenaCandidate) -> i64 {
    let forced = match forced_colour(c) {
        Some(Side::White) => 1_000_000,
        Some(Side::Black) => -1_000_000,
        None => 0,
    };
    let whites = c.colours.iter().filter(|&&s| s == Side::White).count() as i64;
    let blacks = c.colours.len() as i64 - whites;
    let alternate = match c.colours.last() {
        Some(Side::White) => -1,
        Some(Side::Black) => 1,
        None => 0,
    };
    forced + (blacks - whites) * 10 + alternate
}

/// White to whoever wants it more; on a tie, to the lower key.
fn assign_colours(a: &ArenaCandidate, b: &ArenaCandidate) -> Pairing {
    let a_white =
        (white_wish(a), std::cmp::Reverse(a.key)) > (white_wish(b), std::cmp::Reverse(b.key));
    if a_white {
        Pairing {
            white: a.key,
            black: b.key,
        }
    } else {
        Pairing {
            white: b.key,
            black: a.key,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn candidate(
        key: u64,
        rating: i32,
        rank: u32,
        colours: &[Side],
        recent: &[u64],
    ) -> ArenaCandidate {
        ArenaCandidate {
            key: PlayerKey(key),
            rating,
            rank,
            recent_opponents: recent.iter().map(|&k| PlayerKey(k)).collect(),
            colours: colours.to_vec(),
        }
    }

    use Side::{Black as B, White as W};

    #[test]
    fn the_first_wave_pairs_rating_neighbours_with_alternating_colours() {
        let waiting: Vec<ArenaCandidate> = [1500, 1900, 1700, 2100, 1600]
            .iter()
            .enumerate()
            .map(|(i, &r)| candidate(i as u64, r, 1, &[], &[]))
            .collect();
        let pairs = pair_arena(&waiting, 5);
        assert_eq!(
            pairs,
            [
                Pairing {
                    white: PlayerKey(3),
                    black: PlayerKey(1)
                },
                Pairing {
                    white: PlayerKey(4),
                    black: PlayerKey(2)
                },
            ]
        );
    }

    #[test]
    fn leaders_meet_leaders() {
        let waiting = vec![
            candidate(1, 1500, 4, &[W], &[9]),
            candidate(2, 1500, 1, &[B], &[8]),
            candidate(3, 1500, 3, &[B], &[7]),
            candidate(4, 1500, 2, &[W], &[6]),
        ];
        let pairs = pair_arena(&waiting, 10);
        let met: HashSet<(u64, u64)> = pairs
            .iter()
            .map(|p| (p.white.0.min(p.black.0), p.white.0.max(p.black.0)))
            .collect();
        assert_eq!(met, HashSet::from([(2, 4), (1, 3)]));
        // Colours alternate: 2 had Black, 4 had White.
        assert!(pairs.contains(&Pairing {
            white: PlayerKey(2),
            black: PlayerKey(4)
        }));
    }

    #[test]
    fn never_the_last_opponent_unless_only_two_are_active() {
        let waiting = vec![
            candidate(1, 1500, 1, &[W], &[2]),
            candidate(2, 1500, 2, &[B], &[1]),
        ];
        assert!(pair_arena(&waiting, 3).is_empty());
        assert_eq!(
            pair_arena(&waiting, 2),
            [Pairing {
                white: PlayerKey(2),
                black: PlayerKey(1)
            }]
        );
    }

    #[test]
    fn never_a_fourth_game_with_the_same_colour() {
        let waiting = vec![
            candidate(1, 1500, 1, &[B, W, W, W], &[5]),
            candidate(2, 1500, 2, &[W, W, W], &[6]),
        ];
        assert!(pair_arena(&waiting, 10).is_empty());
        let waiting = vec![
            candidate(1, 1500, 1, &[B, W, W, W], &[5]),
            candidate(2, 1500, 2, &[B, B, B], &[6]),
        ];
        assert_eq!(
            pair_arena(&waiting, 10),
            [Pairing {
                white: PlayerKey(2),
                black: PlayerKey(1)
            }]
        );
    }

    fn arb_wave(min: usize, max: usize) -> impl Strategy<Value = (Vec<ArenaCandidate>, usize)> {
        (min..max)
            .prop_flat_map(|n| {
                let player = (
                    1000..2500i32,
                    1..(n as u32 + 1),
                    prop::collection::vec(prop::bool::ANY, 0..6),
                    prop::collection::vec(0..n as u64, 0..3),
                );
                (prop::collection::vec(player, n), n..n + 20)
            })
            .prop_map(|(players, active)| {
                let wave = players
                    .into_iter()
                    .enumerate()
                    .map(|(i, (rating, rank, colours, recent))| ArenaCandidate {
                        key: PlayerKey(i as u64),
                        rating,
                        rank,
                        recent_opponents: recent
                            .into_iter()
                            .filter(|&k| k != i as u64)
                            .map(PlayerKey)
                            .collect(),
                        colours: colours.into_iter().map(|w| if w { W } else { B }).collect(),
                    })
                    .collect();
                (wave, active)
            })
    }

    fn check_properties(wave: &[ArenaCandidate], active: usize, pairs: &[Pairing]) {
        let by_key: std::collections::HashMap<PlayerKey, &ArenaCandidate> =
            wave.iter().map(|c| (c.key, c)).collect();
        let mut used = HashSet::new();
        for p in pairs {
            assert_ne!(p.white, p.black);
            assert!(used.insert(p.white), "{:?} paired twice", p.white);
            assert!(used.insert(p.black), "{:?} paired twice", p.black);
            let (w, b) = (by_key[&p.white], by_key[&p.black]);
            if active > 2 {
                assert_ne!(w.recent_opponents.first(), Some(&b.key));
                assert_ne!(b.recent_opponents.first(), Some(&w.key));
            }
            for (c, side) in [(w, W), (b, B)] {
                let mut colours = c.colours.clone();
                colours.push(side);
                let run = colours.iter().rev().take_while(|&&s| s == side).count();
                assert!(run <= MAX_SAME_COLOUR_IN_A_ROW, "{:?}: {colours:?}", c.key);
            }
        }
        if pairs.is_empty() {
            return;
        }
        // Leaving someone out is only done when they could not pair: no two
        // players left out could have met.
        let left: Vec<&ArenaCandidate> = wave.iter().filter(|c| !used.contains(&c.key)).collect();
        if wave.len() <= super::super::min_cost::EXACT_LIMIT {
            for (i, a) in left.iter().enumerate() {
                for b in &left[i + 1..] {
                    assert!(
                        !may_meet(a, b, active <= 2),
                        "{:?} and {:?} could meet",
                        a.key,
                        b.key
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn waves_pair_everyone_once_by_the_rules((wave, active) in arb_wave(2, 24)) {
            let pairs = pair_arena(&wave, active);
            check_properties(&wave, active, &pairs);
        }

        #[test]
        fn exact_and_windowed_waves_pair_by_the_rules((wave, active) in arb_wave(40, 160)) {
            let pairs = pair_arena(&wave, active);
            check_properties(&wave, active, &pairs);
        }

        #[test]
        fn an_odd_wave_of_free_players_leaves_exactly_one_out(n in 1usize..12) {
            let wave: Vec<ArenaCandidate> = (0..2 * n + 1)
                .map(|i| candidate(i as u64, 1500 + i as i32, i as u32 + 1, &[if i % 2 == 0 { W } else { B }], &[]))
                .collect();
            let pairs = pair_arena(&wave, 100);
            prop_assert_eq!(pairs.len(), n);
            check_properties(&wave, 100, &pairs);
        }
    }

    #[test]
    fn a_wave_of_a_thousand_pairs_by_the_rules() {
        let mut seed = 99u64;
        let mut rand = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let wave: Vec<ArenaCandidate> = (0..1000u64)
            .map(|i| {
                let colours: Vec<Side> = (0..rand(6))
                    .map(|_| if rand(2) == 0 { W } else { B })
                    .collect();
                candidate(
                    i,
                    1000 + rand(1500) as i32,
                    1 + rand(400) as u32,
                    &colours,
                    &[rand(1000), rand(1000)],
                )
            })
            .collect();
        let pairs = pair_arena(&wave, 1200);
        check_properties(&wave, 1200, &pairs);
        assert!(
            pairs.len() >= 480,
            "only {} pairs of 1,000 players",
            pairs.len()
        );
    }
}
