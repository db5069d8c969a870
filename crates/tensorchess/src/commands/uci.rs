//! `tensorchess uci`: the UCI protocol on stdin/stdout.

use crate::cli::CliError;

pub fn run() -> Result<(), CliError> {
    Err(CliError::new("uci: not built yet"))
}
