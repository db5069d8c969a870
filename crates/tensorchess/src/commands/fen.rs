//! `tensorchess fen`: play moves and print the FEN reached.

use crate::cli::{CliError, FenArgs};
use crate::commands::start_position;
use tensorchess_rules::any::{dispatch, ForVariant};
use tensorchess_rules::{san::parse_any, Variant};

struct Fen<'a>(&'a FenArgs);

impl ForVariant for Fen<'_> {
    type Output = Result<(), CliError>;
    fn run<V: Variant>(self) -> Self::Output {
        let mut pos = start_position::<V>(&self.0.position)?;
        for (i, text) in self.0.moves.iter().enumerate() {
            let m = parse_any(&pos, text)
                .map_err(|e| CliError(format!("move {} ({text}): {e}", i + 1)))?;
            pos = pos.play(m);
        }
        println!("{}", pos.fen());
        Ok(())
    }
}

pub fn run(args: &FenArgs) -> Result<(), CliError> {
    dispatch(args.position.variant()?, Fen(args))
}
