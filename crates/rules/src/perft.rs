//! Perft: the number of leaves of the legal move tree (RULES 4.5).

use crate::{Move, Position, Variant};

/// Counts the leaves at `depth`, counting the last ply without making its moves.
///
/// ```
/// use tensorchess_rules::{perft, Chess, Position};
/// assert_eq!(perft(&Position::<Chess>::new(), 3), 8902);
/// ```
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| perft(&pos.play(m), depth - 1))
            .sum(),
    }
}

/// Perft split by the first move.
pub fn perft_divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}
