//! `tensorchess perft`: leaves of the legal move tree, optionally per move.

use crate::cli::{CliError, PerftArgs};
use crate::commands::start_position;
use std::io::Write;
use std::time::Instant;
use tensorchess_rules::any::{dispatch, ForVariant};
use tensorchess_rules::{perft, Variant};

struct Perft<'a>(&'a PerftArgs);

impl ForVariant for Perft<'_> {
    type Output = Result<(), CliError>;
    fn run<V: Variant>(self) -> Self::Output {
        let args = self.0;
        let pos = start_position::<V>(&args.position)?;
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
}

pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    dispatch(args.position.variant()?, Perft(args))
}
