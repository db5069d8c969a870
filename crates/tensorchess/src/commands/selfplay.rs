//! `tensorchess selfplay`: engine games that produce tuning data.

use super::error::CliError;
use super::game_args::VariantParser;
use crate::tune::selfplay::{self, SelfplayConfig};
use crate::uci::settings::parse_weights;
use clap::Args;
use std::sync::Arc;
use tensorchess_engine::eval::Evaluate;
use tensorchess_rules::{with_variant, VariantKind};

/// The options of `tensorchess selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The game.
    #[arg(long, default_value = "tensor", value_parser = VariantParser)]
    pub variant: VariantKind,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 6000)]
    pub nodes: u64,
    /// Random moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Nodes per move of a weaker side (White in odd-numbered games, Black
    /// in even ones): games with blunders the other side sees, for puzzles.
    #[arg(long)]
    pub weak_nodes: Option<u64>,
    /// The share of the weaker side's moves played at `--weak-nodes` (drawn
    /// move by move; the others at `--nodes`): below 1, occasional blunders.
    #[arg(long, default_value_t = 1.0, requires = "weak_nodes")]
    pub weak_rate: f64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The random generator's seed: a run is reproducible.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Evaluation weights file for the engine (as written by `tune`).
    #[arg(long)]
    pub weights: Option<String>,
    /// Output file of `FEN;result` lines (appended).
    #[arg(long, required_unless_present = "pgn")]
    pub out: Option<String>,
    /// Also append each game to this PGN file (with its Variant tag).
    #[arg(long)]
    pub pgn: Option<String>,
}

/// Weights from a weights file (the format of `docs/uci.md`), if one is given.
pub fn load_weights<V: Evaluate>(
    path: Option<&str>,
) -> Result<Option<Arc<Vec<[i32; 2]>>>, CliError> {
    let Some(p) = path else { return Ok(None) };
    let text = std::fs::read_to_string(p)
        .map_err(|e| CliError(format!("cannot read weights file {p}: {e}")))?;
    parse_weights::<V>(&text)
        .map(|w| Some(Arc::new(w)))
        .map_err(|e| CliError(format!("weights file {p}: {e}")))
}

fn go<V: Evaluate>(a: &SelfplayArgs) -> Result<(), CliError> {
    let weights = load_weights::<V>(a.weights.as_deref())?;
    let cfg = SelfplayConfig {
        games: a.games,
        nodes: a.nodes,
        random_plies: a.random_plies,
        threads: a.threads,
        seed: a.seed,
        max_plies: 400,
        weak_nodes: a.weak_nodes,
        weak_rate: a.weak_rate,
        weights,
    };
    let append = |path: &str| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(std::io::BufWriter::new)
            .map_err(|e| CliError(format!("cannot open {path}: {e}")))
    };
    let mut out: Box<dyn std::io::Write> = match &a.out {
        Some(path) => Box::new(append(path)?),
        None => Box::new(std::io::sink()),
    };
    let mut pgn = a.pgn.as_deref().map(append).transpose()?;
    let n = selfplay::run_with_pgn::<V>(
        &cfg,
        &mut out,
        pgn.as_mut().map(|w| w as &mut dyn std::io::Write),
    )
    .map_err(|e| CliError(e.to_string()))?;
    if let Some(path) = &a.out {
        eprintln!("wrote {n} positions to {path}");
    }
    if let Some(path) = &a.pgn {
        eprintln!("wrote {} games to {path}", a.games);
    }
    Ok(())
}

/// Runs `tensorchess selfplay`.
pub fn run(args: &SelfplayArgs) -> Result<(), CliError> {
    with_variant!(args.variant, V => go::<V>(args))
}
