//! `tensorchess moves`: the legal moves of a position, sorted.

use crate::cli::{CliError, MovesArgs};
use crate::commands::start_position;
use tensorchess_rules::any::{dispatch, ForVariant};
use tensorchess_rules::{san::san_with, Variant};

struct Moves<'a>(&'a MovesArgs);

impl ForVariant for Moves<'_> {
    type Output = Result<(), CliError>;
    fn run<V: Variant>(self) -> Self::Output {
        let pos = start_position::<V>(&self.0.position)?;
        let legal = pos.legal_moves();
        let mut lines: Vec<String> = legal
            .iter()
            .map(|&m| {
                if self.0.san {
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
}

pub fn run(args: &MovesArgs) -> Result<(), CliError> {
    dispatch(args.position.variant()?, Moves(args))
}
