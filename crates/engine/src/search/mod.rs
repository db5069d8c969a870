//! Alpha-beta search: iterative deepening with aspiration windows
//! (`iterate`), principal variation search (`negamax`) with the
//! transposition table, pruning and reductions (`pruning`, `singular`),
//! quiescence (`quiescence`), move ordering (`ordering`) and what the
//! search learns about moves (`history`). One `Searcher` per thread (Lazy
//! SMP); `time_scale` says how long to think.

mod history;
mod iterate;
mod negamax;
mod ordering;
mod pruning;
mod quiescence;
mod singular;
mod time_scale;

pub(crate) use history::MoveStats;

use crate::eval::{Evaluate, Weights, evaluate};
use crate::limits::Deadline;
use crate::nnue::{AccumulatorStack, Network};
use crate::tt::TranspositionTable;
use crate::{Eval, Feature, Features, SearchHandler};
use history::NO_CONT;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tensorchess_rules::{Move, Position};

/// The deepest ply a search path reaches.
pub(crate) const MAX_PLY: usize = 120;
/// A bound beyond every score.
const INF: i32 = Eval::INFINITE.0;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = Eval::MATE_BOUND;
/// Entries of each thread's static-evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;
/// Nodes between two looks at the clock, the node limit and the handler
/// (a power of two).
const STOP_POLL_NODES: u64 = 1024;

/// Shared among the threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
    pub deadline: Deadline,
    pub node_limit: Option<u64>,
    pub weights: &'a Weights,
    /// The network that evaluates instead of the weights, if any.
    pub net: Option<&'a Network>,
    pub features: Features,
    /// Half-width of the evaluation noise of weak levels (0 = none) and its seed.
    pub noise: i32,
    pub noise_seed: u64,
    /// What a draw costs the side that searches (`Options::contempt`).
    pub contempt: i32,
}

/// One thread's search: its path, statistics and counters.
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
    /// By ply: two quiet moves that caused a cut-off there lately.
    killers: Vec<[Move; 2]>,
    /// Quiet-move statistics (history and continuation history).
    stats: MoveStats,
    /// The (piece, destination) key of the move played at each ply of the
    /// path; `NO_CONT` after a null move and before the root.
    cont_keys: Vec<u16>,
    /// By ply: the static evaluation (to see whether it is improving).
    eval_stack: Vec<i32>,
    /// By ply: the principal variation from there.
    pv: Vec<Vec<Move>>,
    /// Root moves not to search (MultiPV lines already found).
    excluded: Vec<Move>,
    /// By ply: the hash move left out by a singular-extension search.
    skip_move: Vec<Move>,
    /// Root moves to search only (UCI `searchmoves`); empty means all.
    pub(crate) root_only: Vec<Move>,
    /// Late-move reductions by depth and move number.
    lmr: Vec<[i32; 64]>,
    /// The best root line of the iteration in progress, with its score.
    root_best: Option<(Vec<Move>, i32)>,
    /// Static evaluations by position hash (direct-mapped).
    eval_cache: Vec<(u64, i32)>,
    /// The network's accumulators along the path, when a network evaluates.
    accumulators: Option<AccumulatorStack>,
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
            lmr: pruning::reduction_table(),
            root_best: None,
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            accumulators: shared
                .net
                .map(|net| AccumulatorStack::new(net, MAX_PLY + 2)),
            _v: std::marker::PhantomData,
        }
    }

    /// The child of `pos` (at `ply`) after `m`; the network's accumulators
    /// learn what the move changed.
    #[inline]
    fn play(&mut self, pos: &Position<V>, m: Move, ply: usize) -> Position<V> {
        match &mut self.accumulators {
            Some(stack) => stack.play(pos, m, ply),
            None => pos.play(m),
        }
    }

    /// The child of `pos` (at `ply`) after a null move.
    #[inline]
    fn play_null(&mut self, pos: &Position<V>, ply: usize) -> Position<V> {
        if let Some(stack) = &mut self.accumulators {
            stack.play_null(ply);
        }
        pos.play_null()
    }

    /// The static evaluation of `pos`, the position at `ply` (cached, with
    /// a weak level's noise), kept off mate scores.
    fn evaluate(&mut self, pos: &Position<V>, ply: usize) -> i32 {
        let key = pos.hash();
        let slot = (key as usize) & (EVAL_CACHE_SIZE - 1);
        let mut e = if self.eval_cache[slot].0 == key {
            self.eval_cache[slot].1
        } else {
            let e = match (self.shared.net, &mut self.accumulators) {
                (Some(net), Some(stack)) => stack.evaluate(net, pos, ply),
                _ => evaluate(pos, self.shared.weights),
            };
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

    /// A draw's score for the side to move at `ply`: less than even for the
    /// side that searches (even plies) by the contempt, more for its opponent.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// Polls limits and the handler every `STOP_POLL_NODES` nodes.
    fn check_stop(&mut self, handler: &mut dyn SearchHandler) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & (STOP_POLL_NODES - 1) != 0 {
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

    /// Adds the nodes not yet counted to the shared count.
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

    /// The line from `ply`: `m` followed by the child's line.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The statistics learnt, for the next search.
    pub fn into_stats(self) -> MoveStats {
        self.stats
    }
}
