//! `tensorchess uci`: the UCI protocol on stdin/stdout.

use super::error::CliError;
use crate::uci::{run_loop, Output};

/// Runs `tensorchess uci`: the UCI loop on standard input and output.
pub fn run() -> Result<(), CliError> {
    let stdin = std::io::stdin();
    run_loop(stdin.lock(), Output::new(std::io::stdout()));
    Ok(())
}
