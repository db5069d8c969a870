//! The tensorchess engine: search and evaluation for Tensor Chess, orthodox
//! chess and Chessence.
//!
//! No protocol code lives here. UCI, the web server, `bench`, `match` and
//! the tests drive the same [`Engine`] through a [`SearchHandler`], which
//! receives progress and may ask the search to stop.
//!
//! ```
//! use tensorchess_engine::{Engine, Limits, NoHandler};
//! use tensorchess_rules::{Game, Chess};
//! let mut engine = Engine::default();
//! // Scholar's mate in one: Qxf7#.
//! let mut game = Game::<Chess>::new();
//! for m in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"] {
//!     game.push_str(m).unwrap();
//! }
//! let result = engine.search(game.positions(), &Limits::depth(3), &mut NoHandler);
//! assert_eq!(game.position().move_string(result.best), "h5f7");
//! assert!(result.score.is_mate());
//! ```

pub mod eval;
mod features;
pub mod level;
mod limits;
pub mod nnue;
mod score;
mod search;
mod tt;

pub use features::{Feature, Features, UnknownFeature};
pub use level::{Level, LevelSettings};
pub use limits::Limits;
pub use score::Eval;
pub use tt::TranspositionTable;

use eval::Evaluate;
use search::{MoveStats, Searcher, Shared};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tensorchess_rules::{Move, Position};

/// The largest contempt, in centipawns, either way.
pub const CONTEMPT_MAX: i32 = 200;

/// Progress of a search, after each completed iteration (one per MultiPV line).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The depth of the iteration.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// 1-based line number with MultiPV.
    pub multipv: u32,
    /// The line's score, from the side to move's view.
    pub score: Eval,
    /// Nodes searched so far, by all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The line.
    pub pv: Vec<Move>,
    /// Permille of the hash table in use.
    pub hashfull: u32,
}

impl SearchInfo {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Connects a search to the outside world.
pub trait SearchHandler {
    /// Polled often during the search; `true` stops it as soon as possible.
    fn should_stop(&mut self) -> bool {
        false
    }
    /// Called after each completed iteration.
    fn on_info(&mut self, _info: &SearchInfo) {}
}

/// A handler that only lets limits stop the search.
pub struct NoHandler;
impl SearchHandler for NoHandler {}

/// A handler that stops when a shared flag is set, and forwards progress to a closure.
pub struct FlagHandler<F: FnMut(&SearchInfo)> {
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
    /// Called after each iteration.
    pub on_info: F,
}

impl<F: FnMut(&SearchInfo)> SearchHandler for FlagHandler<F> {
    fn should_stop(&mut self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    fn on_info(&mut self, info: &SearchInfo) {
        (self.on_info)(info)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Always a legal move when the position has one; [`Move::NULL`] otherwise.
    pub best: Move,
    /// The move expected in reply, if the line has one.
    pub ponder: Option<Move>,
    /// The score of the best move, from the side to move's view.
    pub score: Eval,
    /// The depth of the last iteration that counted.
    pub depth: u32,
    /// Nodes searched, by all threads.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
    /// All lines with MultiPV, best first.
    pub lines: Vec<(Vec<Move>, Eval)>,
}

/// Engine settings (the UCI options).
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Lines searched and reported (MultiPV).
    pub multipv: usize,
    /// A playing level for people; `None` is full strength.
    pub level: Option<Level>,
    /// Search features switched on (before the game's own defaults).
    pub features: Features,
    /// Seed of a weak level's noise (varies games).
    pub seed: u64,
    /// Evaluation weights replacing the defaults (for tuning experiments).
    pub weights: Option<Arc<Vec<[i32; 2]>>>,
    /// Evaluate with a network (UCI `UseNNUE`) rather than the weights:
    /// [`Options::network`] when it is for the game, else the game's
    /// built-in one; games without either keep the weights. On by default
    /// (each game's built-in network measures stronger than its weights,
    /// docs/nnue.md). Levels for people always use the weights, so that they keep
    /// their strengths; tools whose results must not move with the network
    /// (tuning the weights, mining puzzles, datagen's recipes) switch it off.
    pub use_nnue: bool,
    /// A network read from a file (UCI `EvalFile`).
    pub network: Option<Arc<nnue::Network>>,
    /// Centipawns a draw is worth less than an even position to the side
    /// that searches (UCI `Contempt`): positive avoids draws, negative seeks
    /// them, 0 (the default) scores a draw as even.
    pub contempt: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            level: None,
            features: Features::default(),
            seed: 0x5eed,
            weights: None,
            use_nnue: true,
            network: None,
            contempt: 0,
        }
    }
}

impl Options {
    /// The network that evaluates game `V` under these options, if any.
    pub fn network_for<V: Evaluate>(&self) -> Option<&nnue::Network> {
        if !self.use_nnue || self.level.is_some() {
            return None;
        }
        match &self.network {
            Some(net) if net.game == V::KIND => Some(net),
            _ => nnue::embedded::<V>(),
        }
    }
}

/// A chess engine for the three games. One engine plays one game at a time.
pub struct Engine {
    tt: TranspositionTable,
    /// Move statistics of each search thread, kept between searches.
    stats: Vec<MoveStats>,
    /// The settings of the next searches.
    pub options: Options,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Options::default())
    }
}

impl Engine {
    /// An engine with these settings and an empty table.
    pub fn new(options: Options) -> Engine {
        Engine {
            tt: TranspositionTable::new(options.hash_mb),
            stats: Vec::new(),
            options,
        }
    }

    /// Resizes the hash table (clears it).
    pub fn set_hash(&mut self, mb: usize) {
        self.options.hash_mb = mb.clamp(1, 65_536);
        self.tt = TranspositionTable::new(self.options.hash_mb);
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.stats.iter_mut().for_each(MoveStats::clear);
    }

    /// Searches the last position of `history` (the game's positions from its
    /// start or its last irreversible move, so repetitions are seen).
    pub fn search<V: Evaluate, H: SearchHandler>(
        &mut self,
        history: &[Position<V>],
        limits: &Limits,
        handler: &mut H,
    ) -> SearchResult {
        // Through the game's own entry point (`Evaluate::search_game`), which
        // this crate compiles: a crate that searches names it, and does not
        // compile the whole search again for itself and for each handler.
        V::search_game(self, history, limits, handler)
    }

    /// The search of game `V`; named only by the games' `search_game`.
    pub(crate) fn search_of<V: Evaluate>(
        &mut self,
        history: &[Position<V>],
        limits: &Limits,
        handler: &mut dyn SearchHandler,
    ) -> SearchResult {
        let start = Instant::now();
        let Some(root) = history.last() else {
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score: Eval::DRAW,
                depth: 0,
                nodes: 0,
                time: Duration::ZERO,
                pv: Vec::new(),
                lines: Vec::new(),
            };
        };
        let mut limits = limits.clone();
        let mut noise = 0;
        if let Some(level) = self.options.level {
            let s = level.settings();
            limits.depth = match (limits.depth, s.max_depth) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            limits.nodes = match (limits.nodes, s.max_nodes) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            noise = s.noise;
        }
        let mut max_depth = limits.depth.unwrap_or(search::MAX_PLY as u32 - 1);
        if let Some(m) = limits.mate {
            max_depth = max_depth.min(2 * m);
        }
        self.tt.new_search();
        let weights: &[[i32; 2]] = match &self.options.weights {
            Some(w) if w.len() == V::LAYOUT.len() => w,
            _ => V::default_weights(),
        };
        let features = self.options.features.for_game::<V>();
        let shared = Shared {
            tt: &self.tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deadline: limits::Deadline::new(
                &limits,
                root.turn(),
                start,
                features.is_on(Feature::AdaptiveTime),
            ),
            node_limit: limits.nodes,
            weights,
            net: self.options.network_for::<V>(),
            features,
            noise,
            noise_seed: self.options.seed,
            contempt: self.options.contempt.clamp(-CONTEMPT_MAX, CONTEMPT_MAX),
        };
        let threads = self.options.threads.max(1);
        let multipv = self.options.multipv.max(1);
        self.stats.truncate(threads);
        let mut stats = std::mem::take(&mut self.stats);
        stats.resize_with(threads, MoveStats::new);
        let mut stats = stats.into_iter();
        let main_stats = stats.next().unwrap_or_else(MoveStats::new);
        let (lines, stats) = std::thread::scope(|scope| {
            let helpers: Vec<_> = stats
                .enumerate()
                .map(|(i, helper_stats)| {
                    let shared = &shared;
                    let searchmoves = limits.searchmoves.clone();
                    scope.spawn(move || {
                        let mut helper = Searcher::new(shared, history, false, helper_stats);
                        helper.root_only = searchmoves;
                        // Lazy SMP: helpers search at staggered depths to diversify the table.
                        helper.iterate(&mut NoHandler, root, max_depth, 1, ((i + 1) % 2) as u32);
                        helper.into_stats()
                    })
                })
                .collect();
            let mut main = Searcher::new(&shared, history, true, main_stats);
            main.root_only = limits.searchmoves.clone();
            let lines = main.iterate(handler, root, max_depth, multipv, 0);
            shared.stop.store(true, Ordering::Relaxed);
            let mut stats = vec![main.into_stats()];
            // A helper that panicked takes its statistics with it: start afresh.
            stats.extend(
                helpers
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|_| MoveStats::new())),
            );
            (lines, stats)
        });
        self.stats = stats;
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let mut result = SearchResult {
            best: Move::NULL,
            ponder: None,
            score: Eval::DRAW,
            depth: 0,
            nodes,
            time: start.elapsed(),
            pv: Vec::new(),
            lines: lines
                .iter()
                .map(|(pv, s, _)| (pv.clone(), Eval(*s)))
                .collect(),
        };
        if let Some((pv, score, depth)) = lines.into_iter().next() {
            result.best = pv[0];
            result.ponder = pv.get(1).copied();
            result.score = Eval(score);
            result.depth = depth;
            result.pv = pv;
        }
        if result.best.is_null() || !root.is_legal(result.best) {
            // Stopped before anything finished: any legal move (of those asked for).
            let legal = root.legal_moves();
            result.best = legal
                .iter()
                .copied()
                .find(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
                .or_else(|| legal.first().copied())
                .unwrap_or(Move::NULL);
            result.pv = vec![result.best];
            result.ponder = None;
        }
        result
    }

    /// The static evaluation of a position, from White's view, in centipawns.
    pub fn static_eval<V: Evaluate>(&self, pos: &Position<V>) -> i32 {
        let w: &[[i32; 2]] = match &self.options.weights {
            Some(w) if w.len() == V::LAYOUT.len() => w,
            _ => V::default_weights(),
        };
        let e = match self.options.network_for::<V>() {
            Some(net) => nnue::evaluate(net, pos),
            None => eval::evaluate(pos, w),
        };
        match pos.turn() {
            tensorchess_rules::Color::White => e,
            tensorchess_rules::Color::Black => -e,
        }
    }
}
