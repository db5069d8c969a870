//! `tensorchess moves`: the legal moves of a position, sorted.

use super::error::CliError;
use super::game_args::PositionArgs;
use clap::Args;
use tensorchess_rules::{san::san_with, with_variant, Variant};

/// The options of `tensorchess moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The game and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print SAN instead of move strings.
    #[arg(long)]
    pub san: bool,
}

/// Runs `tensorchess moves`.
pub fn run(args: &MovesArgs) -> Result<(), CliError> {
    with_variant!(args.position.variant, V => list::<V>(args))
}

fn list<V: Variant>(args: &MovesArgs) -> Result<(), CliError> {
    let pos = args.position.start_position::<V>()?;
    let legal = pos.legal_moves();
    let mut lines: Vec<String> = legal
        .iter()
        .map(|&m| {
            if args.san {
                san_with(&pos, m, &legal)
            } else {
                pos.move_string(m)
            }
        })
        .collect();
    lines.sort();
    for l in lines {
        println!("{l}");
    }
    Ok(())
}
