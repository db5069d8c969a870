//! The best pairing of a bracket that can be paired whole.
//!
//! Among all pairings of every player of the bracket, the Dutch system
//! wants first the fewest players without their colour preference (C.04.3
//! C.12), then the fewest without a strong one (C.13), and among those the
//! first in its order of generation: S1\[i\] against S2\[i\], then
//! transpositions of S2 (disturbing the lower boards first), then exchanges
//! between S1 and S2. This module finds the first two exactly, as a
//! maximum-weight perfect matching, and approximates the order of
//! generation by a cost: pairing S1\[i\] with S2\[j\] costs
//! `|i − j| × (n − i)` (a transposition on a higher board costs more), and
//! pairing two players of the same half costs more than any transposition.

use crate::matching::weighted::max_weight_matching;

/// The pairs of the best pairing of `players` (in ranking order; S1 is the
/// first half), who can all be paired: `allowed(a, b)` says who may meet,
/// `unmet(a, b)` how many players (and how many strong preferences) a pair
/// leaves without their colour. Each pair is `(higher, lower)` by position.
pub(crate) fn best_whole_pairing(
    players: &[usize],
    allowed: &dyn Fn(usize, usize) -> bool,
    unmet: &dyn Fn(usize, usize) -> (u32, u32),
) -> Vec<(usize, usize)> {
    let n = players.len() as i64;
    let half = players.len() / 2;
    // Lexicographic weights: a pair more (so the matching is perfect), then
    // colours, then the order of generation.
    let exchange = 2 * n * n;
    let order_weight = n * n * n + 1;
    let colour_weight = 10 * order_weight;
    let pair_weight = n * (10 * colour_weight + exchange) + 1;
    let mut edges = Vec::new();
    for a in 0..players.len() {
        for b in a + 1..players.len() {
            if !allowed(players[a], players[b]) {
                continue;
            }
            let order = if a < half && b >= half {
                let (i, j) = (a as i64, (b - half) as i64);
                (i - j).abs() * (n - i)
            } else {
                exchange
            };
            let (players_unmet, strong_unmet) = unmet(players[a], players[b]);
            let colours = i64::from(4 * players_unmet + strong_unmet);
            edges.push((a, b, pair_weight - colours * colour_weight - order));
        }
    }
    let mates = max_weight_matching(players.len(), &edges);
    let mut pairs: Vec<(usize, usize)> = mates
        .iter()
        .enumerate()
        .filter_map(|(a, mate)| match *mate {
            Some(b) if a < b => Some((players[a], players[b])),
            _ => None,
        })
        .collect();
    debug_assert_eq!(pairs.len(), half, "the bracket could be paired whole");
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s1_meets_s2_in_order_when_nothing_stands_in_the_way() {
        let players = [0, 1, 2, 3, 4, 5];
        let pairs = best_whole_pairing(&players, &|_, _| true, &|_, _| (0, 0));
        assert_eq!(pairs, [(0, 3), (1, 4), (2, 5)]);
    }

    #[test]
    fn colours_come_before_the_order_of_generation() {
        // 0-3 and 1-4 would each leave a player without his colour; 0-4
        // and 1-3 leave none.
        let players = [0, 1, 2, 3, 4, 5];
        let unmet = |a: usize, b: usize| match (a.min(b), a.max(b)) {
            (0, 3) | (1, 4) => (1, 0),
            _ => (0, 0),
        };
        let pairs = best_whole_pairing(&players, &|_, _| true, &unmet);
        assert_eq!(pairs, [(0, 4), (1, 3), (2, 5)]);
    }

    #[test]
    fn a_transposition_disturbs_the_lower_boards() {
        // 0 may not meet 3: 0 takes 4 and 1 takes 3, not 1-5 and 2-3.
        let players = [0, 1, 2, 3, 4, 5];
        let allowed = |a: usize, b: usize| (a.min(b), a.max(b)) != (0, 3);
        let pairs = best_whole_pairing(&players, &allowed, &|_, _| (0, 0));
        assert_eq!(pairs, [(0, 4), (1, 3), (2, 5)]);
    }

    #[test]
    fn exchanges_only_when_no_transposition_works() {
        // Nobody of S2 may meet 0: 0 meets 1 (an exchange) and 2 meets 3… .
        let players = [0, 1, 2, 3];
        let allowed = |a: usize, b: usize| !(a.min(b) == 0 && a.max(b) >= 2);
        let pairs = best_whole_pairing(&players, &allowed, &|_, _| (0, 0));
        assert_eq!(pairs, [(0, 1), (2, 3)]);
    }
}
