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

/// [`perft`] that gives up, returning `None`, soon after `stop` is set
/// (it is looked at in every node above the leaves), so that a deep count
/// can be interrupted.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tensorchess_rules::{perft_stoppable, Chess, Position};
/// let pos = Position::<Chess>::new();
/// assert_eq!(perft_stoppable(&pos, 3, &AtomicBool::new(false)), Some(8902));
/// assert_eq!(perft_stoppable(&pos, 3, &AtomicBool::new(true)), None);
/// ```
pub fn perft_stoppable<V: Variant>(
    pos: &Position<V>,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    if depth >= 2 && stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    match depth {
        0 => Some(1),
        1 => Some(pos.count_legal()),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| perft_stoppable(&pos.play(m), depth - 1, stop))
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
