//! `tensorchess fen`: play moves and print the FEN reached.

use super::error::CliError;
use super::game_args::PositionArgs;
use clap::Args;
use tensorchess_rules::{san::parse_any, with_variant, Variant};

/// The options of `tensorchess fen`.
#[derive(Args, Debug)]
pub struct FenArgs {
    /// The game and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves to play, as move strings or SAN.
    #[arg(allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Runs `tensorchess fen`.
pub fn run(args: &FenArgs) -> Result<(), CliError> {
    with_variant!(args.position.variant, V => play::<V>(args))
}

fn play<V: Variant>(args: &FenArgs) -> Result<(), CliError> {
    let mut pos = args.position.start_position::<V>()?;
    for (i, text) in args.moves.iter().enumerate() {
        let m =
            parse_any(&pos, text).map_err(|e| CliError(format!("move {} ({text}): {e}", i + 1)))?;
        pos = pos.play(m);
    }
    println!("{}", pos.fen());
    Ok(())
}
