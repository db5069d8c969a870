//! Alpha-beta search: iterative deepening, aspiration windows, principal
//! variation search, transposition table, quiescence, null move, late move
//! reductions and pruning. One `Searcher` per thread (Lazy SMP).

use crate::eval::{evaluate, Evaluate, Weights};
use crate::limits::Deadline;
use crate::tt::{Bound, TranspositionTable};
use crate::{Eval, Feature, Features, SearchHandler, SearchInfo};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tensorchess_rules::{GenType, Move, MoveKind, MoveList, Position, Role};

pub(crate) const MAX_PLY: usize = 120;
const INF: i32 = Eval::INFINITE.0;
const MATE_BOUND: i32 = Eval::MATE_BOUND;
const EVAL_CACHE_SIZE: usize = 1 << 16;
/// Keys of continuation history: 16 pieces × 128 squares.
const CONT_KEYS: usize = 16 * 128;
const NO_CONT: u16 = u16::MAX;
/// History scores are kept within ±`HISTORY_MAX` by the gravity update.
const HISTORY_MAX: i32 = 16_384;

/// Move-ordering scores, parallel to a move list (on the stack).
type Scores = smallvec::SmallVec<[i32; 256]>;

/// Values for move ordering and delta pruning (ordering only needs ranks).
const ORDER_VALUE: [i32; 8] = [100, 320, 330, 500, 900, 20_000, 330, 300];

/// Moves picked one at a time (selection sort) before the rest is sorted
/// at once: most cut-offs come from the first few moves, and sorting a long
/// list once is cheaper than scanning it for every move.
const LAZY_PICKS: usize = 3;

/// Brings the `i`-th best move to `i` and returns it.
/// A history value moved by `bonus`, kept within ±`HISTORY_MAX` (Stockfish's
/// gravity formula: the nearer the bound, the less a bonus moves it).
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

fn pick_next(moves: &mut MoveList, scores: &mut Scores, i: usize) -> Move {
    if i < LAZY_PICKS {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
    } else if i == LAZY_PICKS && moves.len() > i + 1 {
        let mut rest: smallvec::SmallVec<[(i32, Move); 256]> =
            (i..moves.len()).map(|j| (scores[j], moves[j])).collect();
        rest.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (k, (sc, m)) in rest.into_iter().enumerate() {
            scores[i + k] = sc;
            moves[i + k] = m;
        }
    }
    moves[i]
}

/// Shared among the threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
    pub deadline: Deadline,
    pub node_limit: Option<u64>,
    pub weights: &'a Weights,
    pub features: Features,
    /// Half-width of the evaluation noise of weak levels (0 = none) and its seed.
    pub noise: i32,
    pub noise_seed: u64,
}

/// What a search thread learns about quiet moves. An engine keeps it from
/// one search of a game to the next (as Stockfish does) and clears it for a
/// new game.
pub(crate) struct MoveStats {
    /// History by piece (colour*8+role) and destination.
    quiet: Vec<[i32; 128]>,
    /// Continuation history: how a quiet move (piece, destination) fared
    /// after the move one and two plies before it, flat over
    /// `CONT_KEYS × CONT_KEYS` (counter-move and follow-up history, from
    /// Stockfish).
    cont: Vec<i16>,
    /// Capture history by piece, destination and captured role (from
    /// Stockfish's `CapturePieceToHistory`).
    capture: Vec<[[i16; 8]; 128]>,
}

impl MoveStats {
    pub fn new() -> Self {
        MoveStats {
            quiet: vec![[0; 128]; 16],
            cont: vec![0; CONT_KEYS * CONT_KEYS],
            capture: vec![[[0; 8]; 128]; 16],
        }
    }

    pub fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|row| row.fill(0));
        self.cont.fill(0);
        self.capture.iter_mut().for_each(|t| *t = [[0; 8]; 128]);
    }
}

pub(crate) struct Searcher<'a, 'b, V: Evaluate> {
    shared: &'b Shared<'a>,
    main: bool,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    /// Hashes of the game's positions, then of the search path.
    hashes: Vec<u64>,
    /// Index in `hashes` of the position after the latest null move on the
    /// path: a repetition across a null move is no repetition of the game
    /// (Stockfish's `pliesFromNull`).
    null_floor: usize,
    killers: Vec<[Move; 2]>,
    /// Quiet-move statistics (history and continuation history).
    stats: MoveStats,
    /// The (piece, destination) key of the move played at each ply of the
    /// path; `NO_CONT` after a null move and before the root.
    cont_keys: Vec<u16>,
    eval_stack: Vec<i32>,
    pv: Vec<Vec<Move>>,
    /// Root moves not to search (MultiPV lines already found).
    excluded: Vec<Move>,
    /// By ply: the hash move left out by a singular-extension search.
    skip_move: Vec<Move>,
    /// Root moves to search only (UCI `searchmoves`); empty means all.
    pub(crate) root_only: Vec<Move>,
    lmr: Vec<[i32; 64]>,
    /// The best root line of the iteration in progress, with its score.
    root_best: Option<(Vec<Move>, i32)>,
    /// Static evaluations by position hash (direct-mapped).
    eval_cache: Vec<(u64, i32)>,
    _v: std::marker::PhantomData<V>,
}

impl<'a, 'b, V: Evaluate> Searcher<'a, 'b, V> {
    pub fn new(
        shared: &'b Shared<'a>,
        history: &[Position<V>],
        main: bool,
        mut stats: MoveStats,
    ) -> Self {
        if !shared.features.is_on(Feature::HistoryBetweenMoves) {
            stats.clear();
        }
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                // Logarithmic reductions, as in Stockfish and most engines since.
                *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as i32;
            }
        }
        Searcher {
            shared,
            main,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            hashes: history.iter().map(|p| p.hash()).collect(),
            null_floor: 0,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 2],
            stats,
            cont_keys: vec![NO_CONT; MAX_PLY + 2],
            eval_stack: vec![0; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            excluded: Vec::new(),
            skip_move: vec![Move::NULL; MAX_PLY + 2],
            root_only: Vec::new(),
            lmr,
            root_best: None,
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            _v: std::marker::PhantomData,
        }
    }

    fn evaluate(&mut self, pos: &Position<V>) -> i32 {
        let key = pos.hash();
        let slot = (key as usize) & (EVAL_CACHE_SIZE - 1);
        let mut e = if self.eval_cache[slot].0 == key {
            self.eval_cache[slot].1
        } else {
            let e = evaluate(pos, self.shared.weights);
            self.eval_cache[slot] = (key, e);
            e
        };
        if self.shared.noise > 0 {
            // Deterministic per position: a weak level misjudges consistently.
            let mut x = pos.hash() ^ self.shared.noise_seed;
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            let span = 2 * self.shared.noise as u64 + 1;
            e += (x % span) as i32 - self.shared.noise;
        }
        e.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Polls limits and the handler every 1024 nodes.
    fn check_stop<H: SearchHandler>(&mut self, handler: &mut H) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 != 0 {
            return false;
        }
        let sh = self.shared;
        sh.nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        if self.root_depth <= 1 {
            return false;
        }
        if sh.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.main {
            let total = sh.nodes.load(Ordering::Relaxed);
            if sh.deadline.hard_passed()
                || sh.node_limit.is_some_and(|n| total >= n)
                || handler.should_stop()
            {
                self.stopped = true;
                sh.stop.store(true, Ordering::Relaxed);
            }
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Repetition of a position since the last irreversible move (a repeat
    /// inside the search counts as a draw already).
    fn is_repetition(&self, pos: &Position<V>) -> bool {
        let n = self.hashes.len();
        let window = (pos.halfmove_clock() as usize).min(n.saturating_sub(1 + self.null_floor));
        let key = pos.hash();
        let mut i = 2;
        while i <= window {
            if self.hashes[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn is_capture(pos: &Position<V>, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant | MoveKind::BeastCapture => true,
            MoveKind::Normal | MoveKind::Promotion => pos.piece_at(m.to()).is_some(),
            _ => false,
        }
    }

    fn captured_value(pos: &Position<V>, m: Move) -> i32 {
        match m.kind() {
            MoveKind::EnPassant => ORDER_VALUE[0],
            MoveKind::BeastCapture => ORDER_VALUE[Role::Beast.index()],
            _ => pos
                .piece_at(m.to())
                .map_or(0, |p| ORDER_VALUE[p.role().index()]),
        }
    }

    /// The role a capture takes (for capture history).
    fn captured_role(pos: &Position<V>, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::BeastCapture => Some(Role::Beast),
            MoveKind::Normal | MoveKind::Promotion => pos.piece_at(m.to()).map(|p| p.role()),
            _ => None,
        }
    }

    /// The capture-history slot of a capture, if it is one.
    fn capture_slot(pos: &Position<V>, m: Move) -> Option<(usize, usize, usize)> {
        let piece = pos.piece_at(m.from())?;
        let victim = Self::captured_role(pos, m)?;
        Some((piece.index(), m.to().index(), victim.index()))
    }

    fn capture_stat(&self, pos: &Position<V>, m: Move) -> i32 {
        if !self.shared.features.is_on(Feature::CaptureHistory) {
            return 0;
        }
        Self::capture_slot(pos, m).map_or(0, |(p, t, v)| self.stats.capture[p][t][v] as i32)
    }

    fn update_capture_history(&mut self, pos: &Position<V>, m: Move, bonus: i32) {
        if let Some((p, t, v)) = Self::capture_slot(pos, m) {
            let h = &mut self.stats.capture[p][t][v];
            *h = gravity(*h as i32, bonus) as i16;
        }
    }

    /// A capture that does not lose material at once: the victim is worth at
    /// least the capturer, or the square is not defended (a cheap stand-in for
    /// static exchange evaluation that works in all three games).
    fn safe_capture(pos: &Position<V>, m: Move) -> bool {
        let attacker = pos
            .piece_at(m.from())
            .map_or(0, |p| ORDER_VALUE[p.role().index()]);
        if Self::captured_value(pos, m) >= attacker || m.kind() == MoveKind::BeastCapture {
            return true;
        }
        let occ = pos.occupied().without(m.from());
        !pos.is_attacked_by(m.to(), !pos.turn(), occ)
    }

    fn order(&self, pos: &Position<V>, moves: &MoveList, tt_move: Move, ply: usize) -> Scores {
        let killers = self.killers[ply];
        moves
            .iter()
            .map(|&m| {
                if m == tt_move {
                    return 10_000_000;
                }
                let mover = pos.piece_at(m.from());
                let promo = m.promotion_role().map_or(0, |r| ORDER_VALUE[r.index()]);
                if Self::is_capture(pos, m) || promo > 0 {
                    let attacker = mover.map_or(0, |p| ORDER_VALUE[p.role().index()]);
                    // MVV-LVA: most valuable victim, least valuable attacker;
                    // captures that lose material go after the quiet moves.
                    let mvv_lva = Self::captured_value(pos, m) * 16 + promo * 8 - attacker / 16
                        + self.capture_stat(pos, m) / 16;
                    let base = if promo > 0 || Self::safe_capture(pos, m) {
                        1_000_000
                    } else {
                        -100_000
                    };
                    return base + mvv_lva;
                }
                if m == killers[0] {
                    return 900_000;
                }
                if m == killers[1] {
                    return 899_000;
                }
                self.quiet_stat(pos, m, ply)
            })
            .collect()
    }

    /// The (piece, destination) key of a move for continuation history.
    fn cont_key(pos: &Position<V>, m: Move) -> u16 {
        match pos.piece_at(m.from()) {
            Some(p) => (p.index() * 128 + m.to().index()) as u16,
            None => NO_CONT,
        }
    }

    /// The moves one and two plies before `ply` with a continuation key.
    fn cont_parents(&self, ply: usize) -> impl Iterator<Item = usize> + '_ {
        [1, 2]
            .into_iter()
            .filter(move |&back| {
                ply >= back && self.shared.features.is_on(Feature::ContinuationHistory)
            })
            .map(move |back| self.cont_keys[ply - back])
            .filter(|&k| k != NO_CONT)
            .map(|k| k as usize * CONT_KEYS)
    }

    /// How well a quiet move has done: its history plus its continuation
    /// histories (each within ±`HISTORY_MAX`).
    fn quiet_stat(&self, pos: &Position<V>, m: Move, ply: usize) -> i32 {
        let key = Self::cont_key(pos, m);
        if key == NO_CONT {
            return 0;
        }
        let own = self.stats.quiet[key as usize / 128][key as usize % 128];
        own + self
            .cont_parents(ply)
            .map(|row| self.stats.cont[row + key as usize] as i32)
            .sum::<i32>()
    }

    fn has_non_pawn_material(pos: &Position<V>) -> bool {
        let us = pos.by_color(pos.turn());
        (us - pos.by_role(Role::Pawn) - pos.by_role(Role::King) - pos.by_role(Role::Beast)).any()
    }

    /// The line from `ply`: `m` followed by the child's line.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn update_history(&mut self, pos: &Position<V>, m: Move, bonus: i32, ply: usize) {
        let key = Self::cont_key(pos, m);
        if key == NO_CONT {
            return;
        }
        let h = &mut self.stats.quiet[key as usize / 128][key as usize % 128];
        *h = gravity(*h, bonus);
        let rows: smallvec::SmallVec<[usize; 2]> = self.cont_parents(ply).collect();
        for row in rows {
            let c = &mut self.stats.cont[row + key as usize];
            *c = gravity(*c as i32, bonus) as i16;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax<H: SearchHandler>(
        &mut self,
        handler: &mut H,
        pos: &Position<V>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        in_check: bool,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply].clear();
        if !root {
            if self.check_stop(handler) {
                return 0;
            }
            if pos.halfmove_clock() >= 100 || self.is_repetition(pos) {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(Eval::mated_in(ply as i32).0);
            beta = beta.min(Eval::mate_in(ply as i32 + 1).0);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let f = self.shared.features;
        if in_check && f.is_on(Feature::CheckExtension) {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(handler, pos, alpha, beta, ply, in_check);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = pos.hash();
        // A search without the hash move must not use or fill the table.
        let skip = self.skip_move[ply];
        let tt = if skip.is_null() {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let mut tt_move = Move::NULL;
        if let Some(e) = tt {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth {
                let s = Eval::from_tt(e.score, ply as i32).0;
                if e.bound.cuts(s, alpha, beta) {
                    return s;
                }
            }
        }

        // Internal iterative reduction: without a hash move, search shallower first.
        if tt_move.is_null() && skip.is_null() && depth >= 4 && f.is_on(Feature::Iir) {
            depth -= 1;
        }

        let static_eval = if in_check { -INF } else { self.evaluate(pos) };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        // The hash score, where its bound says it is nearer the truth than the
        // static eval, guides pruning (Stockfish's adjusted eval).
        let mut eval = static_eval;
        if let Some(e) = tt.filter(|_| f.is_on(Feature::TtEval) && !in_check) {
            let s = Eval::from_tt(e.score, ply as i32).0;
            // The bound settles a null window at the eval: s is on its far side.
            if e.bound.cuts(s, eval, eval) && s.abs() < MATE_BOUND {
                eval = s;
            }
        }

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility pruning (static null move).
            if f.is_on(Feature::ReverseFutility) && depth <= 7 {
                let margin = 90 * depth - if improving { 60 } else { 0 };
                if eval - margin >= beta {
                    return eval;
                }
            }
            // Null-move pruning (Donninger); not where zugzwang is common.
            if f.is_on(Feature::NullMove)
                && V::NULL_MOVE
                && null_ok
                && skip.is_null()
                && depth >= 3
                && eval >= beta
                && Self::has_non_pawn_material(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let child = pos.play_null();
                let outer_floor = std::mem::replace(&mut self.null_floor, self.hashes.len());
                self.hashes.push(child.hash());
                self.cont_keys[ply] = NO_CONT;
                let score = -self.negamax(
                    handler,
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                );
                self.hashes.pop();
                self.null_floor = outer_floor;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = MoveList::new();
        pos.generate_into(GenType::All, &mut moves);
        if root && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
        if root && !self.root_only.is_empty() {
            moves.retain(|m| self.root_only.contains(m));
        }
        if !skip.is_null() {
            moves.retain(|m| *m != skip);
            if moves.is_empty() {
                // Only the hash move: it is singular.
                return alpha;
            }
        }
        if moves.is_empty() {
            if root {
                return -INF;
            }
            return if in_check || V::NO_MOVE_LOSES {
                Eval::mated_in(ply as i32).0
            } else {
                0
            };
        }
        let mut scores = self.order(pos, &moves, tt_move, ply);

        // Singular extension: when the hash move is better by a margin than
        // every other move, search it one ply deeper; when even the others
        // beat beta, cut at once (multi-cut). From Stockfish.
        let mut tt_move_extension = 0;
        if let Some(e) = tt.filter(|e| {
            f.is_on(Feature::SingularExtension)
                && !root
                && depth >= 8
                && !e.mv.is_null()
                && e.bound != Bound::Upper
                && e.depth >= depth - 3
                && ply < 2 * self.root_depth as usize
        }) {
            let tt_score = Eval::from_tt(e.score, ply as i32).0;
            if tt_score.abs() < MATE_BOUND {
                let singular_beta = tt_score - 2 * depth;
                self.skip_move[ply] = e.mv;
                let score = self.negamax(
                    handler,
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    in_check,
                    false,
                );
                self.skip_move[ply] = Move::NULL;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    tt_move_extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }

        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0;
        let mut quiets: smallvec::SmallVec<[Move; 64]> = smallvec::SmallVec::new();
        let mut captures: smallvec::SmallVec<[Move; 32]> = smallvec::SmallVec::new();
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            let capture = Self::is_capture(pos, m);
            let quiet = !capture && m.kind() != MoveKind::Promotion;

            if !root && !in_check && quiet && best > -MATE_BOUND {
                // Late move pruning: skip late quiet moves near the leaves.
                if f.is_on(Feature::LateMovePruning) && V::LATE_MOVE_PRUNING_SCALE > 0 && depth <= 4
                {
                    let limit = (3 + depth * depth * if improving { 2 } else { 1 })
                        * V::LATE_MOVE_PRUNING_SCALE;
                    if searched >= limit {
                        continue;
                    }
                }
                // Futility pruning: a quiet move cannot lift a hopeless eval.
                if f.is_on(Feature::Futility) && depth <= 5 && eval + 100 + 90 * depth <= alpha {
                    continue;
                }
                // History pruning: a quiet move that keeps failing is not
                // worth a look near the leaves (Stockfish's history threshold).
                if f.is_on(Feature::HistoryPruning)
                    && depth <= 3
                    && searched > 0
                    && scores[i] < -4096 * depth
                {
                    continue;
                }
            }

            self.cont_keys[ply] = Self::cont_key(pos, m);
            let child = pos.play(m);
            self.shared.tt.prefetch(child.hash());
            let gives_check = child.is_check();
            self.hashes.push(child.hash());
            let mut score;
            if searched == 0 {
                let extension = if m == tt_move { tt_move_extension } else { 0 };
                score = -self.negamax(
                    handler,
                    &child,
                    depth - 1 + extension,
                    -beta,
                    -alpha,
                    ply + 1,
                    gives_check,
                    true,
                );
            } else {
                let mut r = 0;
                if f.is_on(Feature::LateMoveReductions)
                    && depth >= 3
                    && searched >= 2
                    && quiet
                    && !gives_check
                {
                    r = self.lmr[(depth as usize).min(63)][(searched as usize).min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if in_check || scores[i] >= 899_000 {
                        r -= 1;
                    }
                    // Moves with a good history are reduced less, bad ones
                    // more (Stockfish's statScore).
                    if f.is_on(Feature::HistoryReductions) {
                        r -= self.quiet_stat(pos, m, ply) / HISTORY_MAX;
                    }
                    r = r.clamp(0, depth - 2);
                }
                score = -self.negamax(
                    handler,
                    &child,
                    depth - 1 - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    gives_check,
                    true,
                );
                if r > 0 && score > alpha {
                    score = -self.negamax(
                        handler,
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        gives_check,
                        true,
                    );
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(
                        handler,
                        &child,
                        depth - 1,
                        -beta,
                        -alpha,
                        ply + 1,
                        gives_check,
                        true,
                    );
                }
            }
            self.hashes.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if root {
                        self.root_best = Some((self.pv[0].clone(), score));
                    }
                    if score >= beta {
                        let bonus = (depth * depth).min(400) * 4;
                        if f.is_on(Feature::CaptureHistory) {
                            if capture {
                                self.update_capture_history(pos, m, bonus);
                            }
                            for &c in &captures {
                                self.update_capture_history(pos, c, -bonus);
                            }
                        }
                        if quiet {
                            if f.is_on(Feature::Killers) && self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            if f.is_on(Feature::History) {
                                self.update_history(pos, m, bonus, ply);
                                for &q in &quiets {
                                    self.update_history(pos, q, -bonus, ply);
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(m);
            } else if capture {
                captures.push(m);
            }
        }
        if searched == 0 {
            // Everything was pruned: fall back to the static view.
            return if in_check {
                alpha
            } else {
                eval.min(beta).max(alpha)
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if !best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if (self.excluded.is_empty() || !root) && skip.is_null() {
            self.shared
                .tt
                .store(key, best_move, Eval(best).to_tt(ply as i32), depth, bound);
        }
        best
    }

    fn qsearch<H: SearchHandler>(
        &mut self,
        handler: &mut H,
        pos: &Position<V>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.check_stop(handler) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos) };
        }
        let use_tt = self.shared.features.is_on(Feature::QsearchTt);
        let key = pos.hash();
        let mut tt_move = Move::NULL;
        let mut tt_deeper = false;
        if let Some(e) = use_tt.then(|| self.shared.tt.probe(key)).flatten() {
            let s = Eval::from_tt(e.score, ply as i32).0;
            // Any entry is at least as deep as quiescence; only null-window
            // nodes cut, so that principal variations stay whole.
            if e.bound.cuts(s, alpha, beta) && beta - alpha == 1 {
                return s;
            }
            tt_move = e.mv;
            tt_deeper = e.depth > 0;
        }
        let alpha_in = alpha;
        let stand = if in_check { -INF } else { self.evaluate(pos) };
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = MoveList::new();
        pos.generate_into(
            if in_check {
                GenType::All
            } else {
                GenType::Tactical
            },
            &mut moves,
        );
        if moves.is_empty() {
            return if in_check {
                Eval::mated_in(ply as i32).0
            } else {
                stand
            };
        }
        let mut scores = self.order(pos, &moves, tt_move, ply);
        let mut best = stand;
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            if !in_check && m.kind() != MoveKind::Promotion {
                if self.shared.features.is_on(Feature::DeltaPruning)
                    && stand + Self::captured_value(pos, m) + 200 < alpha
                {
                    continue;
                }
                // Captures that lose material are not worth resolving here.
                if self.shared.features.is_on(Feature::BadCapturePruning) && scores[i] < 0 {
                    continue;
                }
            }
            self.cont_keys[ply] = Self::cont_key(pos, m);
            let child = pos.play(m);
            if self.shared.features.is_on(Feature::QsearchTt) {
                self.shared.tt.prefetch(child.hash());
            }
            let score = -self.qsearch(handler, &child, -beta, -alpha, ply + 1, child.is_check());
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // A deeper entry of the main search is worth more than this one.
        if use_tt && !tt_deeper {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared
                .tt
                .store(key, best_move, Eval(best).to_tt(ply as i32), 0, bound);
        }
        best
    }

    /// The statistics learnt, for the next search.
    pub fn into_stats(self) -> MoveStats {
        self.stats
    }

    /// Iterative deepening over the root; reports through `handler` (main thread only).
    pub fn iterate<H: SearchHandler>(
        &mut self,
        handler: &mut H,
        root: &Position<V>,
        max_depth: u32,
        multipv: usize,
        depth_offset: u32,
    ) -> Vec<(Vec<Move>, i32, u32)> {
        let root_check = root.is_check();
        let mut time_scale = TimeScale::default();
        let mut lines: Vec<(Vec<Move>, i32, u32)> = Vec::new();
        let mut legal = root.legal_moves();
        if !self.root_only.is_empty() {
            legal.retain(|m| self.root_only.contains(m));
        }
        if legal.is_empty() {
            return lines;
        }
        let multipv = multipv.clamp(1, legal.len());
        let mut prev_score = 0;
        for d in 1..=max_depth {
            let depth = (d + depth_offset).min(MAX_PLY as u32 - 1);
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let mut iteration: Vec<(Vec<Move>, i32, u32)> = Vec::new();
            self.excluded.clear();
            for pv_index in 0..multipv {
                let mut window = 30;
                let (mut alpha, mut beta) = if depth >= 5
                    && self.shared.features.is_on(Feature::Aspiration)
                    && pv_index == 0
                {
                    (
                        (prev_score - window).max(-INF),
                        (prev_score + window).min(INF),
                    )
                } else {
                    (-INF, INF)
                };
                self.root_best = None;
                let score = loop {
                    let s = self.negamax(
                        handler,
                        root,
                        depth as i32,
                        alpha,
                        beta,
                        0,
                        root_check,
                        false,
                    );
                    if self.stopped {
                        break s;
                    }
                    if s <= alpha && alpha > -INF {
                        beta = (alpha + beta) / 2;
                        alpha = (s - window).max(-INF);
                        window *= 2;
                    } else if s >= beta && beta < INF {
                        beta = (s + window).min(INF);
                        window *= 2;
                    } else {
                        break s;
                    }
                };
                if self.stopped && d > 1 {
                    // A move that beat the previous best in the unfinished
                    // iteration is kept: it was searched to the new depth.
                    if pv_index == 0 {
                        if let (Some((pv, s)), Some(first)) =
                            (self.root_best.take(), lines.first_mut())
                        {
                            if first.0.first() != pv.first() {
                                *first = (pv, s, depth);
                            }
                        }
                    }
                    break;
                }
                if self.pv[0].is_empty() {
                    break;
                }
                let pv = self.pv[0].clone();
                self.excluded.push(pv[0]);
                iteration.push((pv, score, depth));
                if pv_index == 0 {
                    prev_score = score;
                }
            }
            if self.stopped && d > 1 {
                break;
            }
            iteration.sort_by_key(|l| std::cmp::Reverse(l.1));
            lines = iteration;
            self.excluded.clear();
            if self.main {
                self.flush_nodes();
                let nodes = self.shared.nodes.load(Ordering::Relaxed);
                let time = self.shared.deadline.elapsed();
                for (i, (pv, score, _)) in lines.iter().enumerate() {
                    handler.on_info(&SearchInfo {
                        depth,
                        seldepth: self.seldepth as u32,
                        multipv: i as u32 + 1,
                        score: Eval(*score),
                        nodes,
                        time,
                        pv: pv.clone(),
                        hashfull: self.shared.tt.hashfull(),
                    });
                }
                // One legal move: no need to think.
                if legal.len() == 1 && self.shared.deadline.soft.is_some() {
                    break;
                }
                // A mate found well within the depth searched will not change.
                if let Some((_, s, _)) = lines.first() {
                    let mate_plies = Eval::MATE.0 - s.abs();
                    if Eval(*s).is_mate()
                        && self.shared.deadline.soft.is_some()
                        && depth as i32 > 2 * mate_plies + 4
                    {
                        break;
                    }
                }
                if self
                    .shared
                    .deadline
                    .soft_passed(time_scale.next(&lines, &self.shared.features))
                {
                    break;
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        self.flush_nodes();
        lines
    }
}

/// How much of the soft time limit to use, from one iteration to the next:
/// a best move that keeps changing earns more time, a settled one less, and
/// a falling score more (the scheme of Stockfish; factors after Weiss).
#[derive(Default)]
struct TimeScale {
    best: Option<Move>,
    /// Iterations in a row that kept the best move.
    stable: usize,
    score: Option<i32>,
}

impl TimeScale {
    const BY_STABILITY: [f64; 5] = [2.0, 1.3, 1.0, 0.85, 0.75];
    /// Score falls of more than this (centipawns) from one iteration to the next...
    const FALL: i32 = 25;
    /// ... stretch the time by this.
    const FALL_SCALE: f64 = 1.25;

    fn next(&mut self, lines: &[(Vec<Move>, i32, u32)], features: &Features) -> f64 {
        let Some((pv, score, _)) = lines.first() else {
            return 1.0;
        };
        let best = pv.first().copied();
        self.stable = if best == self.best {
            self.stable + 1
        } else {
            0
        };
        self.best = best;
        let fell = self.score.is_some_and(|s| *score < s - Self::FALL);
        self.score = Some(*score);
        if !features.is_on(Feature::AdaptiveTime) {
            return 1.0;
        }
        let scale = Self::BY_STABILITY[self.stable.min(Self::BY_STABILITY.len() - 1)];
        if fell {
            scale * Self::FALL_SCALE
        } else {
            scale
        }
    }
}

#[cfg(test)]
mod time_scale_tests {
    use super::*;
    use tensorchess_rules::{Chess, Position};

    #[test]
    fn an_unsettled_best_move_earns_time_and_a_settled_one_less() {
        let moves = Position::<Chess>::new().legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let line = |m: Move, score: i32| vec![(vec![m], score, 1)];
        let on = Features::default();
        let mut t = TimeScale::default();
        assert_eq!(t.next(&line(a, 10), &on), 2.0, "a new best move");
        assert_eq!(t.next(&line(a, 12), &on), 1.3);
        assert_eq!(t.next(&line(a, 12), &on), 1.0);
        assert_eq!(t.next(&line(a, 12), &on), 0.85);
        assert_eq!(t.next(&line(a, 12), &on), 0.75);
        assert_eq!(t.next(&line(a, 12), &on), 0.75);
        assert_eq!(t.next(&line(b, 12), &on), 2.0, "the best move changed");
        assert_eq!(
            t.next(&line(b, -20), &on),
            1.3 * 1.25,
            "the score fell 32 cp"
        );
        assert_eq!(t.next(&[], &on), 1.0);
        let off = Features::default().with(Feature::AdaptiveTime, false);
        let mut t = TimeScale::default();
        assert_eq!(t.next(&line(a, 10), &off), 1.0);
        assert_eq!(t.next(&line(b, -90), &off), 1.0);
    }
}
