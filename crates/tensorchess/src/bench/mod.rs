//! `tensorchess bench`: fixed positions per game searched single-threaded to
//! a fixed depth with a fresh hash table. The total node count is a
//! signature of the search (it changes exactly when the search does), and
//! nodes per second measure speed.

mod positions;

pub use positions::{CHESS, CHESSENCE, TENSOR};

use crate::nnue::EvalChoice;
use std::time::{Duration, Instant};
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::{Engine, Limits, NoHandler, Options};
use tensorchess_rules::uci::move_string;
use tensorchess_rules::{with_variant, Position, VariantKind};

/// The shipped bench positions of a game.
pub fn positions(kind: VariantKind) -> &'static [&'static str] {
    match kind {
        VariantKind::Tensor => TENSOR,
        VariantKind::Chess => CHESS,
        VariantKind::Chessence => CHESSENCE,
    }
}

/// The default search depth of a game's bench (a few seconds in all).
pub fn default_depth(kind: VariantKind) -> u32 {
    match kind {
        VariantKind::Tensor => 11,
        VariantKind::Chess => 13,
        VariantKind::Chessence => 13,
    }
}

/// Hash size of every bench search.
pub const BENCH_HASH_MB: usize = 16;

/// One searched position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchRow {
    /// The game.
    pub variant: VariantKind,
    /// 1-based.
    pub index: usize,
    /// The position.
    pub fen: String,
    /// The depth searched to.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
    /// The best move found, as a move string.
    pub best: String,
    /// Its score, as UCI says it (`cp 31`, `mate 3`).
    pub score: String,
}

/// The totals of a bench run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    /// The evaluation that ran, in words.
    pub evaluation: String,
    /// Nodes of every search: the signature.
    pub nodes: u64,
    /// Time of every search.
    pub time: Duration,
    /// Each position's search.
    pub rows: Vec<BenchRow>,
}

impl BenchTotals {
    /// Nodes per second over the run.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Which evaluation the engine's options select for game `V`, in words.
pub fn describe_eval<V: Evaluate>(options: &Options) -> String {
    match options.network_for::<V>() {
        Some(net) => {
            let from = if options.network.as_ref().is_some_and(|n| n.game == V::KIND) {
                "from the file"
            } else {
                "built in"
            };
            format!("network ({from}, {} hidden)", net.hidden)
        }
        None if options.use_nnue => format!("hand-made (no network for {})", V::KIND),
        None => "hand-made".to_string(),
    }
}

fn bench<V: Evaluate>(
    fens: &[&str],
    depth: u32,
    eval: &EvalChoice,
    mut on_row: impl FnMut(&BenchRow),
) -> Result<BenchTotals, String> {
    let (use_nnue, network) = eval.for_game::<V>()?;
    let mut engine = Engine::new(Options {
        hash_mb: BENCH_HASH_MB,
        threads: 1,
        use_nnue,
        network,
        ..Options::default()
    });
    let mut totals = BenchTotals {
        evaluation: describe_eval::<V>(&engine.options),
        ..BenchTotals::default()
    };
    for (i, fen) in fens.iter().enumerate() {
        let pos = Position::<V>::from_fen_or_epd(fen)
            .map_err(|e| format!("bench position {} of {}: {e}", i + 1, V::KIND))?;
        // A fresh table for each position keeps every count independent.
        engine.new_game();
        let started = Instant::now();
        let r = engine.search(&[pos], &Limits::depth(depth), &mut NoHandler);
        let time = started.elapsed();
        let row = BenchRow {
            variant: V::KIND,
            index: i + 1,
            fen: fen.to_string(),
            depth: r.depth,
            nodes: r.nodes,
            time,
            best: if r.best.is_null() {
                "(none)".into()
            } else {
                move_string::<V>(r.best)
            },
            score: r.score.to_string(),
        };
        on_row(&row);
        totals.nodes += r.nodes;
        totals.time += time;
        totals.rows.push(row);
    }
    Ok(totals)
}

/// Searches `fens` (positions of game `kind`) to `depth` with the
/// hand-made evaluation, calling `on_row` after each.
pub fn run_bench(
    kind: VariantKind,
    fens: &[&str],
    depth: u32,
    on_row: impl FnMut(&BenchRow),
) -> Result<BenchTotals, String> {
    run_bench_with(kind, fens, depth, &EvalChoice::default(), on_row)
}

/// [`run_bench`] with the evaluation `eval`.
pub fn run_bench_with(
    kind: VariantKind,
    fens: &[&str],
    depth: u32,
    eval: &EvalChoice,
    on_row: impl FnMut(&BenchRow),
) -> Result<BenchTotals, String> {
    with_variant!(kind, V => bench::<V>(fens, depth, eval, on_row))
}
