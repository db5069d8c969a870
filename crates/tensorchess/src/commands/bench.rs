//! `tensorchess bench`: fixed positions to a fixed depth; nodes and nodes per second.

use crate::cli::CliError;
use clap::Args;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Game: tensor, chess or chessence.
    #[arg(long, default_value = "tensor")]
    pub variant: String,
}

pub fn run(_args: &BenchArgs) -> Result<(), CliError> {
    Err(CliError::new("bench: not built yet"))
}
