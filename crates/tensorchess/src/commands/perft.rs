//! `tensorchess perft`: leaves of the legal move tree, optionally per move.

use super::error::CliError;
use super::game_args::PositionArgs;
use clap::Args;
use std::io::Write;
use std::time::Instant;
use tensorchess_rules::{perft, with_variant, Variant};

/// The options of `tensorchess perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print the node count below each legal move.
    #[arg(long)]
    pub divide: bool,
    /// Plies to count to.
    pub depth: u32,
}

/// Runs `tensorchess perft`.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    with_variant!(args.position.variant, V => count::<V>(args))
}

fn count<V: Variant>(args: &PerftArgs) -> Result<(), CliError> {
    let pos = args.position.start_position::<V>()?;
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let total = if args.divide && args.depth > 0 {
        let mut rows: Vec<(String, u64)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| (pos.move_string(m), perft(&pos.play(m), args.depth - 1)))
            .collect();
        rows.sort();
        for (m, n) in &rows {
            let _ = writeln!(out, "{m}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, args.depth)
    };
    let _ = writeln!(out, "Nodes searched: {total}");
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes per second",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
