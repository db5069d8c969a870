//! `tensorchess train`: fits an evaluation network to `datagen` files and
//! writes it quantised, in the engine's format (docs/nnue.md).

use super::error::CliError;
use super::game_args::VariantParser;
use crate::nnue::data::read_file;
use crate::nnue::train::samples::{Blend, SampleSet};
use crate::nnue::train::trainer::{train, TrainConfig};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use tensorchess_engine::eval::Evaluate;
use tensorchess_engine::nnue::features::feature_count;
use tensorchess_engine::nnue::MAX_HIDDEN;
use tensorchess_rules::{with_variant, VariantKind};

/// Games whose number is a multiple of this are held out for validation.
const VALIDATION_EVERY: u32 = 20;

/// The options of `tensorchess train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game.
    #[arg(long, default_value = "tensor", value_parser = VariantParser)]
    pub variant: VariantKind,
    /// Data files written by `datagen`.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the training samples.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Neurons of the hidden layer (per perspective).
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Samples per gradient step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub rate: f32,
    /// The step size's factor after each epoch.
    #[arg(long, default_value_t = 0.9)]
    pub rate_decay: f32,
    /// Weight of the search's score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Threads computing each batch's gradient.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The random generator's seed: a run is reproducible.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Centipawns of the data's scores read as one unit of the target's
    /// sigmoid (the engine's scale by default): a smaller one for an
    /// evaluation whose scores win more games than chess's would.
    #[arg(long)]
    pub score_scale: Option<f32>,
    /// Positions taken from one game at most (drawn at random by the seed);
    /// all of them by default.
    #[arg(long)]
    pub max_per_game: Option<usize>,
}

fn go<V: Evaluate>(a: &TrainArgs) -> Result<(), CliError> {
    if a.hidden == 0 || a.hidden > MAX_HIDDEN {
        return Err(CliError(format!(
            "--hidden must be within 1..={MAX_HIDDEN}"
        )));
    }
    if !(0.0..=1.0).contains(&a.lambda) {
        return Err(CliError("--lambda must be within 0..=1".into()));
    }
    let mut blend = Blend::new(a.lambda);
    if let Some(k) = a.score_scale {
        if !(k.is_finite() && k > 0.0) {
            return Err(CliError("--score-scale must be above 0".into()));
        }
        blend.score_scale = k;
    }
    let (mut train_set, mut validation) = (SampleSet::default(), SampleSet::default());
    for path in &a.data {
        let data = read_file::<V>(path).map_err(|e| CliError(e.to_string()))?;
        let mut games = data.games;
        if let Some(most) = a.max_per_game {
            for game in &mut games {
                game.thin(most.max(1), a.seed);
            }
        }
        let (held, kept): (Vec<_>, Vec<_>) = games
            .into_iter()
            .partition(|g| g.index % VALIDATION_EVERY == 0);
        train_set.add_games::<V>(&kept, blend);
        validation.add_games::<V>(&held, blend);
    }
    if train_set.is_empty() {
        return Err(CliError("no training positions in the data files".into()));
    }
    eprintln!(
        "{} training positions, {} for validation; {} features, {} hidden",
        train_set.len(),
        validation.len(),
        feature_count::<V>(),
        a.hidden
    );
    let cfg = TrainConfig {
        hidden: a.hidden,
        epochs: a.epochs,
        batch: a.batch.max(1),
        rate: a.rate,
        rate_decay: a.rate_decay,
        threads: a.threads.max(1),
        seed: a.seed,
    };
    let started = Instant::now();
    let net = train(feature_count::<V>(), &train_set, &validation, &cfg, |r| {
        eprintln!(
            "epoch {}: train loss {:.5}, validation loss {:.5} ({:.0} s)",
            r.epoch,
            r.train_loss,
            r.validation_loss,
            started.elapsed().as_secs_f64()
        );
    });
    let bytes = net.quantise(V::KIND).to_bytes();
    std::fs::write(&a.out, &bytes)
        .map_err(|e| CliError(format!("cannot write {}: {e}", a.out.display())))?;
    eprintln!("wrote {} ({} bytes)", a.out.display(), bytes.len());
    Ok(())
}

/// Runs `tensorchess train`.
pub fn run(args: &TrainArgs) -> Result<(), CliError> {
    with_variant!(args.variant, V => go::<V>(args))
}
