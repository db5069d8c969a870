//! `tensorchess datagen`: self-play that records positions for training
//! the evaluation network (docs/nnue.md).

use super::error::CliError;
use super::eval_args::EvalArgs;
use super::game_args::VariantParser;
use crate::nnue::datagen::{self, DatagenConfig};
use clap::Args;
use std::path::PathBuf;
use tensorchess_engine::eval::Evaluate;
use tensorchess_rules::{with_variant, VariantKind};

/// The options of `tensorchess datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The game.
    #[arg(long, default_value = "tensor", value_parser = VariantParser)]
    pub variant: VariantKind,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games to have in the file (those already there are not played again).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Random plies after the opening.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// The data file (created, or resumed).
    #[arg(long)]
    pub out: PathBuf,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The random generator's seed: a run is reproducible.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine's evaluation (the newest network, for the next round).
    #[command(flatten)]
    pub eval: EvalArgs,
}

fn go<V: Evaluate>(a: &DatagenArgs) -> Result<(), CliError> {
    let (use_nnue, network) = a.eval.choice()?.for_game::<V>().map_err(CliError)?;
    let cfg = DatagenConfig {
        games: a.games,
        nodes: a.nodes.max(1),
        random_plies: a.random_plies,
        threads: a.threads.max(1),
        seed: a.seed,
        use_nnue,
        network,
    };
    let r = datagen::run::<V>(&cfg, &a.out, true).map_err(|e| CliError(e.to_string()))?;
    eprintln!(
        "{} games played ({} already in the file), {} positions written to {}",
        r.games,
        r.resumed,
        r.positions,
        a.out.display()
    );
    Ok(())
}

/// Runs `tensorchess datagen`.
pub fn run(args: &DatagenArgs) -> Result<(), CliError> {
    with_variant!(args.variant, V => go::<V>(args))
}
