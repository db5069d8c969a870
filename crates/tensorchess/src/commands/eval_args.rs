//! `--nnue` and `--eval-file`: the evaluation of a command's engines
//! (`bench`, `datagen`).

use super::error::CliError;
use crate::nnue::EvalChoice;
use crate::uci::settings::read_eval_file;
use clap::Args;
use tensorchess_engine::nnue::MAX_FILE_BYTES;

/// Which evaluation a command's engines use: the hand-made one, the
/// built-in network, or a network file.
#[derive(Args, Debug, Clone, Default)]
pub struct EvalArgs {
    /// Evaluate with the game's built-in network (games without one keep
    /// the hand-made evaluation).
    #[arg(long)]
    pub nnue: bool,
    /// Evaluate with this network file (implies --nnue).
    #[arg(long)]
    pub eval_file: Option<String>,
}

impl EvalArgs {
    /// The choice, with the file read (a regular file, size-capped, as UCI's
    /// `EvalFile`).
    pub fn choice(&self) -> Result<EvalChoice, CliError> {
        Ok(EvalChoice {
            use_nnue: self.nnue || self.eval_file.is_some(),
            network: match &self.eval_file {
                Some(path) => Some(read_eval_file(path, MAX_FILE_BYTES).map_err(CliError)?),
                None => None,
            },
        })
    }
}
