//! Minimum-cost matching of a wave of players, each of whom may also be
//! left out at a price.
//!
//! Up to [`EXACT_LIMIT`] players the matching is exact: leaving player `i`
//! out costs `L(i)`, so a matching's cost is `Σ L(unpaired) + Σ cost(pair)`
//! `= Σ L(all) − Σ (L(i) + L(j) − cost(i, j))` over its pairs, and the
//! cheapest matching is the one of maximum weight with
//! `weight(i, j) = L(i) + L(j) − cost(i, j)`: Edmonds' weighted blossom
//! algorithm ([`crate::matching::weighted`]), O(n³).
//!
//! Larger waves are matched by windows: the players come in the caller's
//! order (rank order, so neighbours are the likely partners), the first
//! [`WINDOW`] are matched exactly, those left out move on to the next
//! window, and so on; then a local improvement pass re-pairs the four
//! players of every two neighbouring pairs whenever one of the other two
//! ways is cheaper, until no swap helps. This is not guaranteed optimal, but
//! the cost model makes good partners close in rank, which is exactly what
//! the windows keep together.

use crate::matching::weighted::max_weight_matching;

/// The largest wave matched exactly.
pub const EXACT_LIMIT: usize = 64;
/// The size of a window for larger waves (even, so a window can pair all).
pub const WINDOW: usize = 48;
/// At most this many improvement passes over the windowed matching.
const IMPROVEMENT_PASSES: usize = 8;

/// A matching problem: `pair(i, j)` is the cost of pairing `i` with `j`
/// (`None`: forbidden), `leave_out(i)` the cost of leaving `i` unpaired.
pub(crate) struct Problem<'a> {
    /// The number of players, indexed `0..len`.
    pub len: usize,
    /// The cost of pairing two players, `None` when they may not meet.
    pub pair: &'a dyn Fn(usize, usize) -> Option<i64>,
    /// The cost of leaving a player unpaired.
    pub leave_out: &'a dyn Fn(usize) -> i64,
}

/// The pairs of a minimum-cost matching (exact up to [`EXACT_LIMIT`]).
pub(crate) fn min_cost_matching(problem: &Problem<'_>) -> Vec<(usize, usize)> {
    let all: Vec<usize> = (0..problem.len).collect();
    if problem.len <= EXACT_LIMIT {
        exact(problem, &all).0
    } else {
        windowed(problem)
    }
}

/// The exact optimum over the players `ids`, with the players it leaves
/// out.
fn exact(problem: &Problem<'_>, ids: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
    let mut edges = Vec::new();
    for (a, &i) in ids.iter().enumerate() {
        for (b, &j) in ids.iter().enumerate().skip(a + 1) {
            if let Some(cost) = (problem.pair)(i, j) {
                let weight = (problem.leave_out)(i) + (problem.leave_out)(j) - cost;
                edges.push((a, b, weight));
            }
        }
    }
    let mates = max_weight_matching(ids.len(), &edges);
    let mut pairs = Vec::new();
    let mut left_out = Vec::new();
    for (a, mate) in mates.iter().enumerate() {
        match *mate {
            Some(b) if a < b => pairs.push((ids[a], ids[b])),
            Some(_) => {}
            None => left_out.push(ids[a]),
        }
    }
    (pairs, left_out)
}

/// The exact optimum by another road, for the tests: a dynamic programme
/// over the subsets of players decided, always deciding the lowest
/// undecided player next (pair them, or leave them out): O(2ⁿ·n).
#[cfg(test)]
fn exact_by_subsets(problem: &Problem<'_>, ids: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
    let n = ids.len();
    assert!(n <= 20, "exact matching of {n} players by subsets");
    let full = (1usize << n) - 1;
    let mut best = vec![i64::MAX; 1 << n];
    // For each reached subset: the partner of its lowest undecided player
    // in the step that led here (itself when left out).
    let mut step: Vec<(u8, u8)> = vec![(0, 0); 1 << n];
    best[0] = 0;
    for mask in 0..full {
        let here = best[mask];
        if here == i64::MAX {
            continue;
        }
        let i = (!mask).trailing_zeros() as usize;
        let mut relax = |to: usize, cost: i64, j: usize| {
            let total = here.saturating_add(cost);
            if total < best[to] {
                best[to] = total;
                step[to] = (i as u8, j as u8);
            }
        };
        relax(mask | 1 << i, (problem.leave_out)(ids[i]), i);
        for j in i + 1..n {
            if mask & 1 << j == 0 {
                if let Some(cost) = (problem.pair)(ids[i], ids[j]) {
                    relax(mask | 1 << i | 1 << j, cost, j);
                }
            }
        }
    }
    let mut pairs = Vec::new();
    let mut left_out = Vec::new();
    let mut mask = full;
    while mask != 0 {
        let (i, j) = (step[mask].0 as usize, step[mask].1 as usize);
        if i == j {
            left_out.push(ids[i]);
            mask &= !(1 << i);
        } else {
            pairs.push((ids[i], ids[j]));
            mask &= !(1 << i | 1 << j);
        }
    }
    pairs.reverse();
    left_out.reverse();
    (pairs, left_out)
}

/// Windows of [`WINDOW`] players matched exactly, then local improvement.
fn windowed(problem: &Problem<'_>) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut carried: Vec<usize> = Vec::new();
    let mut next = 0;
    while next < problem.len {
        // Carried players come first; never let them fill a whole window, so
        // the wave always moves on (the oldest extra ones stay out).
        carried.truncate(WINDOW / 2);
        let mut window = std::mem::take(&mut carried);
        while window.len() < WINDOW && next < problem.len {
            window.push(next);
            next += 1;
        }
        let (found, left_out) = exact(problem, &window);
        pairs.extend(found);
        carried = left_out;
    }
    // The last window's leftovers may still pair among themselves.
    if carried.len() >= 2 {
        pairs.extend(exact(problem, &carried).0);
    }
    improve(problem, &mut pairs);
    pairs
}

/// Re-pairs two neighbouring pairs whenever another way is cheaper.
fn improve(problem: &Problem<'_>, pairs: &mut [(usize, usize)]) {
    let cost = |a: usize, b: usize| (problem.pair)(a, b);
    for _ in 0..IMPROVEMENT_PASSES {
        let mut changed = false;
        for k in 1..pairs.len() {
            let ((a, b), (c, d)) = (pairs[k - 1], pairs[k]);
            let (Some(ab), Some(cd)) = (cost(a, b), cost(c, d)) else {
                continue;
            };
            let now = ab + cd;
            let options = [((a, c), (b, d)), ((a, d), (b, c))];
            for (p, q) in options {
                if let (Some(x), Some(y)) = (cost(p.0, p.1), cost(q.0, q.1)) {
                    if x + y < now {
                        pairs[k - 1] = p;
                        pairs[k] = q;
                        changed = true;
                        break;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(
        n: usize,
        pair: &dyn Fn(usize, usize) -> Option<i64>,
        out: &dyn Fn(usize) -> i64,
    ) -> i64 {
        fn go(
            left: &[usize],
            pair: &dyn Fn(usize, usize) -> Option<i64>,
            out: &dyn Fn(usize) -> i64,
        ) -> i64 {
            let Some(&i) = left.first() else { return 0 };
            let rest: Vec<usize> = left[1..].to_vec();
            let mut best = out(i).saturating_add(go(&rest, pair, out));
            for (k, &j) in rest.iter().enumerate() {
                if let Some(c) = pair(i, j) {
                    let mut others = rest.clone();
                    others.remove(k);
                    best = best.min(c.saturating_add(go(&others, pair, out)));
                }
            }
            best
        }
        go(&(0..n).collect::<Vec<_>>(), pair, out)
    }

    fn total(
        pairs: &[(usize, usize)],
        n: usize,
        pair: &dyn Fn(usize, usize) -> Option<i64>,
        out: &dyn Fn(usize) -> i64,
    ) -> i64 {
        let mut used = vec![false; n];
        let mut sum = 0;
        for &(a, b) in pairs {
            assert!(!used[a] && !used[b]);
            used[a] = true;
            used[b] = true;
            sum += pair(a, b).expect("a forbidden pair was chosen");
        }
        sum + (0..n).filter(|&i| !used[i]).map(out).sum::<i64>()
    }

    #[test]
    fn the_exact_matching_is_optimal_on_small_random_problems() {
        let mut seed = 12345u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 1..=9 {
            for _ in 0..20 {
                let costs: Vec<Option<i64>> = (0..n * n)
                    .map(|_| {
                        if rand() % 5 == 0 {
                            None
                        } else {
                            Some((rand() % 100) as i64)
                        }
                    })
                    .collect();
                let pair = |a: usize, b: usize| costs[a.min(b) * n + a.max(b)];
                let out = |i: usize| 150 + i as i64;
                let problem = Problem {
                    len: n,
                    pair: &pair,
                    leave_out: &out,
                };
                let found = min_cost_matching(&problem);
                assert_eq!(total(&found, n, &pair, &out), brute_force(n, &pair, &out));
            }
        }
    }

    #[test]
    fn the_blossom_and_the_subsets_agree_up_to_sixteen_players() {
        let mut seed = 777u64;
        let mut rand = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for n in 2..=16 {
            for _ in 0..10 {
                let costs: Vec<Option<i64>> = (0..n * n)
                    .map(|_| {
                        if rand(4) == 0 {
                            None
                        } else {
                            Some(rand(5000) as i64)
                        }
                    })
                    .collect();
                let pair = |a: usize, b: usize| costs[a.min(b) * n + a.max(b)];
                let out = |i: usize| (1 << 40) + i as i64;
                let problem = Problem {
                    len: n,
                    pair: &pair,
                    leave_out: &out,
                };
                let ids: Vec<usize> = (0..n).collect();
                let by_blossom = exact(&problem, &ids).0;
                let by_subsets = exact_by_subsets(&problem, &ids).0;
                assert_eq!(
                    total(&by_blossom, n, &pair, &out),
                    total(&by_subsets, n, &pair, &out),
                    "n {n}"
                );
            }
        }
    }

    #[test]
    fn large_waves_pair_neighbours() {
        let n = 1000;
        let pair = |a: usize, b: usize| Some((a as i64 - b as i64).abs());
        let out = |_| 1_000_000;
        let problem = Problem {
            len: n,
            pair: &pair,
            leave_out: &out,
        };
        let found = min_cost_matching(&problem);
        assert_eq!(found.len(), 500);
        assert_eq!(total(&found, n, &pair, &out), 500);
    }
}
