//! Can these players all be paired? A maximum matching of the graph of
//! allowed pairs (Edmonds' blossom algorithm), the Dutch system's
//! "completion" test: a choice in one score bracket is only made if the
//! players left, down to the last bracket, can still all be paired.

/// No vertex.
const NONE: usize = usize::MAX;

/// Whether the `n` vertices, with `allowed(i, j)` saying which pairs may
/// meet, have a perfect matching.
pub(crate) fn has_perfect_matching(n: usize, allowed: &dyn Fn(usize, usize) -> bool) -> bool {
    if n % 2 == 1 {
        return false;
    }
    let adjacent: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| i != j && allowed(i, j)).collect())
        .collect();
    Blossom::new(adjacent).maximum_matching() * 2 == n
}

/// The state of Edmonds' algorithm on a dense graph.
struct Blossom {
    adjacent: Vec<Vec<bool>>,
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    in_tree: Vec<bool>,
    in_blossom: Vec<bool>,
}

impl Blossom {
    fn new(adjacent: Vec<Vec<bool>>) -> Blossom {
        let n = adjacent.len();
        Blossom {
            adjacent,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            in_tree: vec![false; n],
            in_blossom: vec![false; n],
        }
    }

    /// The size of a maximum matching: a greedy start, then augmenting
    /// paths from every vertex left free.
    fn maximum_matching(&mut self) -> usize {
        let n = self.adjacent.len();
        for i in 0..n {
            if self.mate[i] == NONE {
                if let Some(j) = (0..n).find(|&j| self.mate[j] == NONE && self.adjacent[i][j]) {
                    self.mate[i] = j;
                    self.mate[j] = i;
                }
            }
        }
        for root in 0..n {
            if self.mate[root] == NONE {
                let mut end = self.augmenting_path(root);
                while end != NONE {
                    let previous = self.parent[end];
                    let next = self.mate[previous];
                    self.mate[end] = previous;
                    self.mate[previous] = end;
                    end = next;
                }
            }
        }
        self.mate.iter().filter(|&&m| m != NONE).count() / 2
    }

    /// The lowest common ancestor of two tree vertices' bases.
    fn common_base(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.adjacent.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the blossom's vertices from `v` up to `base`, pointing the
    /// parents the other way round the cycle.
    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// The free vertex an augmenting path from `root` ends at, if any
    /// (the path is left in `parent`).
    fn augmenting_path(&mut self, root: usize) -> usize {
        let n = self.adjacent.len();
        self.in_tree.fill(false);
        self.parent.fill(NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.in_tree[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if !self.adjacent[v][to] || self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let base = self.common_base(v, to);
                    self.in_blossom.fill(false);
                    self.mark_path(v, base, to);
                    self.mark_path(to, base, v);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = base;
                            if !self.in_tree[i] {
                                self.in_tree[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return to;
                    }
                    let next = self.mate[to];
                    self.in_tree[next] = true;
                    queue.push_back(next);
                }
            }
        }
        NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Perfect matchability by brute force.
    fn brute(n: usize, allowed: &dyn Fn(usize, usize) -> bool) -> bool {
        fn go(left: u32, n: usize, allowed: &dyn Fn(usize, usize) -> bool) -> bool {
            if left == 0 {
                return true;
            }
            let i = left.trailing_zeros() as usize;
            (i + 1..n).any(|j| {
                left & 1 << j != 0 && allowed(i, j) && go(left & !(1 << i | 1 << j), n, allowed)
            })
        }
        n.is_multiple_of(2) && go((1u32 << n) - 1, n, allowed)
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut seed = 4242u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 0..=12 {
            for density in [2, 3, 5] {
                for _ in 0..30 {
                    let edges: Vec<bool> = (0..n * n).map(|_| rand() % density == 0).collect();
                    let allowed = |a: usize, b: usize| edges[a.min(b) * n + a.max(b)];
                    assert_eq!(
                        has_perfect_matching(n, &allowed),
                        brute(n, &allowed),
                        "n {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn finds_matchings_through_odd_cycles() {
        // Two triangles joined by an edge: 0-1-2 and 3-4-5, 2-3.
        let edges = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)];
        let allowed = |a: usize, b: usize| edges.contains(&(a.min(b), a.max(b)));
        assert!(has_perfect_matching(6, &allowed));
        let no_bridge = |a: usize, b: usize| allowed(a, b) && (a.min(b), a.max(b)) != (2, 3);
        assert!(!has_perfect_matching(6, &no_bridge));
    }
}
