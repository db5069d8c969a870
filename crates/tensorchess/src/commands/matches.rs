//! `tensorchess match`: engine matches in any of the three games.

use crate::cli::CliError;
use clap::Args;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Game: tensor, chess or chessence.
    #[arg(long, default_value = "tensor")]
    pub variant: String,
}

pub fn run(_args: &MatchArgs) -> Result<(), CliError> {
    Err(CliError::new("match: not built yet"))
}
