//! Running engine code, generic over the game, for a game chosen at run time.
//!
//! `tensorchess_rules::any::dispatch` only promises [`tensorchess_rules::Variant`];
//! the engine needs [`Evaluate`], which all three games implement.

use tensorchess_engine::eval::Evaluate;
use tensorchess_rules::{Chess, Chessence, Position, Tensor, VariantKind};

/// A computation generic over a game the engine can play.
pub trait ForEngine {
    type Output;
    fn run<V: Evaluate>(self) -> Self::Output;
}

/// Runs `f` for the game `kind`.
pub fn dispatch_engine<F: ForEngine>(kind: VariantKind, f: F) -> F::Output {
    match kind {
        VariantKind::Tensor => f.run::<Tensor>(),
        VariantKind::Chess => f.run::<Chess>(),
        VariantKind::Chessence => f.run::<Chessence>(),
    }
}

/// Parses a FEN, also accepting an EPD (four fields, no move counters).
pub fn parse_fen<V: Evaluate>(text: &str) -> Result<Position<V>, String> {
    let text = text.trim();
    match Position::<V>::from_fen(text) {
        Ok(p) => Ok(p),
        Err(e) => {
            // An EPD line: board, side, castling, en passant, then operations.
            let fields: Vec<&str> = text.split_whitespace().collect();
            if fields.len() >= 4 {
                let fen = format!("{} 0 1", fields[..4].join(" "));
                if let Ok(p) = Position::<V>::from_fen(&fen) {
                    return Ok(p);
                }
            }
            Err(e.to_string())
        }
    }
}
