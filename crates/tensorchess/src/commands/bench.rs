//! `tensorchess bench`: fixed positions to a fixed depth; nodes and nodes per second.

use super::error::CliError;
use super::eval_args::EvalArgs;
use super::game_args::VariantParser;
use crate::bench::{default_depth, positions, run_bench_with, BenchTotals};
use clap::Args;
use std::io::Write;
use tensorchess_rules::VariantKind;

/// The options of `tensorchess bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game (default: all three).
    #[arg(long, value_parser = VariantParser)]
    pub variant: Option<VariantKind>,
    /// Search depth (default: each game's own, fixed depth).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Print only the totals.
    #[arg(long)]
    pub quiet: bool,
    /// The evaluation searched with.
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// Runs `tensorchess bench`.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let kinds: Vec<VariantKind> = match args.variant {
        Some(v) => vec![v],
        None => VariantKind::ALL.to_vec(),
    };
    if args.depth == Some(0) {
        return Err(CliError::new("--depth must be at least 1"));
    }
    // Write errors (a closed pipe, say) are ignored: the bench is only output.
    let mut out = std::io::stdout().lock();
    let eval = args.eval.choice()?;
    let mut all = BenchTotals::default();
    for kind in kinds {
        let depth = args.depth.unwrap_or_else(|| default_depth(kind));
        let fens = positions(kind);
        let n = fens.len();
        let quiet = args.quiet;
        let t = run_bench_with(kind, fens, depth, &eval, |row| {
            if !quiet {
                let _ = writeln!(
                    out,
                    "{:<9} {:>2}/{n} depth {:>2} nodes {:>10} time {:>6} ms  {} {:<10} {}",
                    kind.name(),
                    row.index,
                    row.depth,
                    row.nodes,
                    row.time.as_millis(),
                    row.score,
                    row.best,
                    row.fen
                );
            }
        })
        .map_err(CliError)?;
        let _ = writeln!(
            out,
            "{}: {} positions at depth {depth}: {} nodes, {} ms, {} nps",
            kind.name(),
            n,
            t.nodes,
            t.time.as_millis(),
            t.nps()
        );
        let _ = writeln!(out, "{}: evaluation: {}", kind.name(), t.evaluation);
        all.nodes += t.nodes;
        all.time += t.time;
    }
    let _ = writeln!(out, "===========================");
    let _ = writeln!(out, "Total time (ms) : {}", all.time.as_millis());
    let _ = writeln!(out, "Nodes searched  : {}", all.nodes);
    let _ = writeln!(out, "Nodes/second    : {}", all.nps());
    Ok(())
}
