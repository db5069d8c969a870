//! One module per subcommand.

pub mod bench;
pub mod fen;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod puzzles;
pub mod review;
pub mod selfplay;
pub mod serve;
pub mod tune;
pub mod uci;

use crate::cli::{CliError, PositionArgs};
use tensorchess_rules::{Position, Variant};

/// The position named by `--fen`, or the game's start.
pub fn start_position<V: Variant>(args: &PositionArgs) -> Result<Position<V>, CliError> {
    match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| CliError(e.to_string())),
        None => Ok(Position::new()),
    }
}
