//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm
//! with dual variables, in the O(n³) form Galil describes ("Efficient
//! algorithms for finding maximum matching in graphs", 1986), structured
//! as Joris van Rantwijk's well-known implementation is: stages of
//! labelling from every free vertex, blossoms shrunk when two S-vertices
//! meet and expanded when their dual reaches zero, dual adjustments of the
//! four kinds when no tight edge is left to explore.
//!
//! With integer weights every number stays an integer (the slack of an
//! edge between two S-blossoms is always even), so there is no rounding.
//!
//! Weights are `i64` or [`Wide`](super::wide::Wide) (anything [`Weight`]).
//!
//! Names: an edge `k` has two endpoints `2k` (its first vertex) and
//! `2k + 1` (its second); `endpoint ^ 1` is the other end. Vertices are
//! `0..n`, blossoms `n..2n`.

use super::wide::Weight;

/// None (no vertex, edge, endpoint or blossom).
const NONE: usize = usize::MAX;

/// Labels of vertices and top-level blossoms in a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    /// Not reached in this stage.
    Free,
    /// An outer vertex: at even distance from a free root.
    S,
    /// An inner vertex: at odd distance.
    T,
    /// Temporarily marked while looking for a new blossom's base.
    Breadcrumb,
}

/// The partner of each vertex (or `None`) in a matching of maximum total
/// weight. `edges` are `(i, j, weight)` over vertices `0..n`; edges of
/// weight ≤ 0 are never worth taking.
pub(crate) fn max_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges);
    m.solve();
    (0..n)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]]))
        .collect()
}

struct Matcher<'a, W: Weight> {
    n: usize,
    edges: &'a [(usize, usize, W)],
    /// The vertex at each endpoint.
    endpoint: Vec<usize>,
    /// The remote endpoints of each vertex's edges.
    neighbours: Vec<Vec<usize>>,
    /// The remote endpoint of a vertex's matched edge, or `NONE`.
    mate: Vec<usize>,
    label: Vec<Label>,
    /// The endpoint through which a vertex or blossom got its label.
    label_end: Vec<usize>,
    /// The top-level blossom each vertex belongs to.
    in_blossom: Vec<usize>,
    blossom_parent: Vec<usize>,
    /// A blossom's sub-blossoms, in cycle order from its base.
    blossom_children: Vec<Vec<usize>>,
    blossom_base: Vec<usize>,
    /// The endpoints linking consecutive sub-blossoms of a blossom.
    blossom_endpoints: Vec<Vec<usize>>,
    /// The least-slack edge to a different S-blossom (or, for a free
    /// vertex, to any S-vertex).
    best_edge: Vec<usize>,
    /// For a non-trivial S-blossom, its least-slack edges to each other
    /// S-blossom.
    blossom_best_edges: Vec<Option<Vec<usize>>>,
    unused_blossoms: Vec<usize>,
    dual: Vec<W>,
    /// Whether an edge is known to have zero slack.
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl<'a, W: Weight> Matcher<'a, W> {
    fn new(n: usize, edges: &'a [(usize, usize, W)]) -> Matcher<'a, W> {
        let max_weight = edges
            .iter()
            .map(|e| e.2)
            .max()
            .unwrap_or(W::ZERO)
            .max(W::ZERO);
        let endpoint: Vec<usize> = (0..2 * edges.len())
            .map(|p| {
                if p % 2 == 0 {
                    edges[p / 2].0
                } else {
                    edges[p / 2].1
                }
            })
            .collect();
        let mut neighbours = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            neighbours[i].push(2 * k + 1);
            neighbours[j].push(2 * k);
        }
        let mut dual = vec![max_weight; n];
        dual.extend(std::iter::repeat_n(W::ZERO, n));
        Matcher {
            n,
            edges,
            endpoint,
            neighbours,
            mate: vec![NONE; n],
            label: vec![Label::Free; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            blossom_parent: vec![NONE; 2 * n],
            blossom_children: vec![Vec::new(); 2 * n],
            blossom_base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossom_endpoints: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            blossom_best_edges: vec![None; 2 * n],
            unused_blossoms: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dual[i] + self.dual[j] - w - w
    }

    /// The vertices inside blossom (or vertex) `b`.
    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                stack.extend(self.blossom_children[x].iter().rev());
            }
        }
        out
    }

    /// Labels the top blossom of `w` with `t`, reached through endpoint
    /// `p`; a T-blossom's mate is labelled S in turn.
    fn assign_label(&mut self, w: usize, t: Label, p: usize) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = NONE;
        self.best_edge[b] = NONE;
        if t == Label::S {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossom_base[b];
            let mate = self.mate[base];
            self.assign_label(self.endpoint[mate], Label::S, mate ^ 1);
        }
    }

    /// Traces back from `v` and `w` (both S) to find a new blossom's base,
    /// or `NONE` when their roots differ (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.in_blossom[v];
            if self.label[b] == Label::Breadcrumb {
                base = self.blossom_base[b];
                break;
            }
            path.push(b);
            self.label[b] = Label::Breadcrumb;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.label_end[b]];
                b = self.in_blossom[v];
                v = self.endpoint[self.label_end[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = Label::S;
        }
        base
    }

    /// Shrinks the cycle through edge `k` and the common ancestor `base`
    /// into a new S-blossom.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused_blossoms.pop().expect("at most n blossoms");
        self.blossom_base[b] = base;
        self.blossom_parent[b] = NONE;
        self.blossom_parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.blossom_parent[bv] = b;
            path.push(bv);
            ends.push(self.label_end[bv]);
            v = self.endpoint[self.label_end[bv]];
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(2 * k);
        while bw != bb {
            self.blossom_parent[bw] = b;
            path.push(bw);
            ends.push(self.label_end[bw] ^ 1);
            w = self.endpoint[self.label_end[bw]];
            bw = self.in_blossom[w];
        }
        self.blossom_children[b] = path.clone();
        self.blossom_endpoints[b] = ends;
        self.label[b] = Label::S;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::ZERO;
        for leaf in self.leaves(b) {
            if self.label[self.in_blossom[leaf]] == Label::T {
                // A T-vertex becomes an S-vertex inside the new blossom.
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        // The new blossom's least-slack edges to every other S-blossom.
        let mut best_to = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.blossom_best_edges[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(sub)
                    .into_iter()
                    .map(|leaf| self.neighbours[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    // The end outside the new blossom.
                    let (i, j, _) = self.edges[k];
                    let j = if self.in_blossom[j] == b { i } else { j };
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == Label::S
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[sub] = NONE;
        }
        let best: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &k in &best {
            if self.best_edge[b] == NONE || self.slack(k) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = k;
            }
        }
        self.blossom_best_edges[b] = Some(best);
    }

    /// Undoes blossom `b`: during a stage (relabelling its sub-blossoms
    /// along the path through it) or, at its end, recursively for the
    /// sub-blossoms whose dual is zero too.
    fn expand_blossom(&mut self, b: usize, end_of_stage: bool) {
        let children = self.blossom_children[b].clone();
        for &s in &children {
            self.blossom_parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_of_stage && self.dual[s] == W::ZERO {
                self.expand_blossom(s, end_of_stage);
            } else {
                for leaf in self.leaves(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_of_stage && self.label[b] == Label::T {
            // Relabel the even-length path from the entry child to the base.
            let entry = self.in_blossom[self.endpoint[self.label_end[b] ^ 1]];
            let len = children.len() as isize;
            let mut j = children
                .iter()
                .position(|&c| c == entry)
                .expect("entry child") as isize;
            let (step, trick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |j: isize| j.rem_euclid(len) as usize;
            let ends = self.blossom_endpoints[b].clone();
            let end_at = |j: isize| ends[at(j - trick as isize)];
            let mut p = self.label_end[b];
            while j != 0 {
                let q = self.endpoint[p ^ 1];
                self.label[q] = Label::Free;
                let r = self.endpoint[end_at(j) ^ trick ^ 1];
                self.label[r] = Label::Free;
                self.assign_label(q, Label::T, p);
                self.allowed[end_at(j) / 2] = true;
                j += step;
                p = end_at(j) ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = children[at(j)];
            let q = self.endpoint[p ^ 1];
            self.label[q] = Label::T;
            self.label[bv] = Label::T;
            self.label_end[q] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while children[at(j)] != entry {
                let bv = children[at(j)];
                if self.label[bv] == Label::S {
                    j += step;
                    continue;
                }
                if let Some(v) = self
                    .leaves(bv)
                    .into_iter()
                    .find(|&v| self.label[v] != Label::Free)
                {
                    self.label[v] = Label::Free;
                    let mate_end = self.mate[self.blossom_base[bv]];
                    self.label[self.endpoint[mate_end]] = Label::Free;
                    let end = self.label_end[v];
                    self.assign_label(v, Label::T, end);
                }
                j += step;
            }
        }
        self.label[b] = Label::Free;
        self.label_end[b] = NONE;
        self.blossom_children[b] = Vec::new();
        self.blossom_endpoints[b] = Vec::new();
        self.blossom_base[b] = NONE;
        self.blossom_best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused_blossoms.push(b);
    }

    /// Flips the matched edges along the path from vertex `v` to the base
    /// of blossom `b`, making `v` the new base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossom_parent[t] != b {
            t = self.blossom_parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossom_children[b].len() as isize;
        let i = self.blossom_children[b]
            .iter()
            .position(|&c| c == t)
            .expect("child");
        let mut j = i as isize;
        let (step, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let at = |j: isize| j.rem_euclid(len) as usize;
        while j != 0 {
            j += step;
            let t = self.blossom_children[b][at(j)];
            let p = self.blossom_endpoints[b][at(j - trick as isize)] ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += step;
            let t = self.blossom_children[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossom_children[b].rotate_left(i);
        self.blossom_endpoints[b].rotate_left(i);
        self.blossom_base[b] = self.blossom_base[self.blossom_children[b][0]];
        debug_assert_eq!(self.blossom_base[b], v);
    }

    /// Augments the matching along the path through edge `k` between two
    /// S-vertices of different trees.
    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.label_end[bs]];
                let bt = self.in_blossom[t];
                s = self.endpoint[self.label_end[bt]];
                let j = self.endpoint[self.label_end[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _stage in 0..n {
            self.label.fill(Label::Free);
            self.best_edge.fill(NONE);
            for b in n..2 * n {
                self.blossom_best_edges[b] = None;
            }
            self.allowed.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.in_blossom[v]] == Label::Free {
                    self.assign_label(v, Label::S, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbours[v].len() {
                        let p = self.neighbours[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut k_slack = W::ZERO;
                        if !self.allowed[k] {
                            k_slack = self.slack(k);
                            if k_slack <= W::ZERO {
                                self.allowed[k] = true;
                            }
                        }
                        let bw = self.in_blossom[w];
                        if self.allowed[k] {
                            if self.label[bw] == Label::Free {
                                self.assign_label(w, Label::T, p ^ 1);
                            } else if self.label[bw] == Label::S {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == Label::Free {
                                self.label[w] = Label::T;
                                self.label_end[w] = p ^ 1;
                            }
                        } else if self.label[bw] == Label::S {
                            let b = self.in_blossom[v];
                            if self.best_edge[b] == NONE || k_slack < self.slack(self.best_edge[b])
                            {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == Label::Free
                            && (self.best_edge[w] == NONE
                                || k_slack < self.slack(self.best_edge[w]))
                        {
                            self.best_edge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No tight edge left: adjust the duals by the least delta.
                let mut delta_kind = 1;
                let mut delta = self.dual[..n].iter().copied().min().expect("n > 0");
                let mut delta_edge = NONE;
                let mut delta_blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == Label::Free && self.best_edge[v] != NONE {
                        let d = self.slack(self.best_edge[v]);
                        if d < delta {
                            delta = d;
                            delta_kind = 2;
                            delta_edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossom_parent[b] == NONE
                        && self.label[b] == Label::S
                        && self.best_edge[b] != NONE
                    {
                        let d = self.slack(self.best_edge[b]).halve();
                        if d < delta {
                            delta = d;
                            delta_kind = 3;
                            delta_edge = self.best_edge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossom_base[b] != NONE
                        && self.blossom_parent[b] == NONE
                        && self.label[b] == Label::T
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        delta_kind = 4;
                        delta_blossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        Label::S => self.dual[v] -= delta,
                        Label::T => self.dual[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossom_base[b] != NONE && self.blossom_parent[b] == NONE {
                        match self.label[b] {
                            Label::S => self.dual[b] += delta,
                            Label::T => self.dual[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match delta_kind {
                    // Some vertex dual reached zero: the matching is optimal.
                    1 => break,
                    2 | 3 => {
                        self.allowed[delta_edge] = true;
                        let (mut i, j, _) = self.edges[delta_edge];
                        if self.label[self.in_blossom[i]] == Label::Free {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossom_parent[b] == NONE
                    && self.blossom_base[b] != NONE
                    && self.label[b] == Label::S
                    && self.dual[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best total weight of any matching, by brute force.
    fn brute(n: usize, edges: &[(usize, usize, i64)]) -> i64 {
        fn go(used: u32, from: usize, edges: &[(usize, usize, i64)]) -> i64 {
            let mut best = 0;
            for (k, &(i, j, w)) in edges.iter().enumerate().skip(from) {
                if used & (1 << i | 1 << j) == 0 {
                    best = best.max(w + go(used | 1 << i | 1 << j, k + 1, edges));
                }
            }
            best
        }
        let _ = n;
        go(0, 0, edges)
    }

    fn total(mates: &[Option<usize>], edges: &[(usize, usize, i64)]) -> i64 {
        let mut sum = 0;
        for (v, m) in mates.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mates[u], Some(v), "mates agree");
                if v < u {
                    sum += edges
                        .iter()
                        .filter(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v))
                        .map(|e| e.2)
                        .max()
                        .expect("a matched pair is an edge");
                }
            }
        }
        sum
    }

    #[test]
    fn small_known_graphs() {
        assert_eq!(max_weight_matching(2, &[(0, 1, 1)]), [Some(1), Some(0)]);
        // A path 0-1-2-3 whose middle is heaviest, but both ends win.
        let edges = [(0, 1, 5), (1, 2, 11), (2, 3, 5)];
        assert_eq!(total(&max_weight_matching(4, &edges), &edges), 11);
        let edges = [(0, 1, 6), (1, 2, 11), (2, 3, 6)];
        assert_eq!(total(&max_weight_matching(4, &edges), &edges), 12);
        // A triangle with a tail: needs a blossom.
        let edges = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)];
        assert_eq!(total(&max_weight_matching(4, &edges), &edges), 15);
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut rand = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for n in 1..=10usize {
            for _ in 0..300 {
                let density = 1 + rand(4);
                let mut edges = Vec::new();
                for i in 0..n {
                    for j in i + 1..n {
                        if rand(4) < density {
                            edges.push((i, j, 1 + rand(20) as i64));
                        }
                    }
                }
                let mates = max_weight_matching(n, &edges);
                assert_eq!(total(&mates, &edges), brute(n, &edges), "n {n}: {edges:?}");
            }
        }
    }
}
