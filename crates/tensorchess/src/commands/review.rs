//! `tensorchess review`: a game's review as annotated PGN on standard output.

use super::error::CliError;
use super::game_args::VariantParser;
use crate::review::{review_any_game, Budget, ReviewSettings};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::AtomicBool;
use tensorchess_engine::{Engine, Options};
use tensorchess_rules::pgn::{parse_first_pgn, replay_game, PgnError};
use tensorchess_rules::VariantKind;

/// The options of `tensorchess review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// Game of a PGN without a Variant tag: tensor, chess or chessence (default chess).
    #[arg(long, value_parser = VariantParser)]
    pub variant: Option<VariantKind>,
    /// Nodes searched per position (default 200000).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Milliseconds searched per position.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// The game (the first of the file is reviewed).
    pub file: String,
}

/// Runs `tensorchess review`.
pub fn run(args: &ReviewArgs) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError(format!("cannot read {}: {e}", args.file)))?;
    let pgn_error = |e: PgnError| CliError(format!("{}: {e}", args.file));
    let pgn = parse_first_pgn(&text).map_err(pgn_error)?;
    let game = replay_game(&pgn, args.variant).map_err(pgn_error)?;
    let mut settings = ReviewSettings::default();
    if let Some(n) = args.nodes {
        settings.budget = Budget::Nodes(n);
    }
    if let Some(ms) = args.movetime {
        settings.budget = Budget::Movetime(ms);
    }
    let mut engine = Engine::new(Options {
        hash_mb: settings.hash_mb,
        ..Options::default()
    });
    // Drawn only when standard error is a terminal.
    let bar = ProgressBar::new(game.ply() as u64 + 1);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions [{elapsed} < {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stop = AtomicBool::new(false);
    let review = review_any_game(
        &mut engine,
        &game,
        &settings,
        &mut |p| bar.set_position(p.done as u64),
        &stop,
    )
    .map_err(|e| CliError(e.to_string()))?;
    bar.finish_and_clear();
    let result = match pgn.result.as_str() {
        "1-0" | "0-1" | "1/2-1/2" => pgn.result.clone(),
        _ => "*".to_string(),
    };
    print!("{}", review.to_pgn(&pgn.tags, &result));
    Ok(())
}
