//! Perft: the number of leaves of the legal move tree (RULES 4.5).

use crate::{Move, Position, Variant};

/// Counts the leaves at `depth`, counting the last ply without making its moves.
///
/// ```
/// use tensorchess_rules::{perft, Chess, Position};
/// assert_eq!(perft(&Position::<Chess>::new(), 3), 8902);
/// ```
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    V::perft(pos, depth)
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
    V::perft_stoppable(pos, depth, stop)
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

// The counts themselves, generic, named only by each game's entries below:
// [`perft`] and [`perft_stoppable`] call the game's, so the counting is
// compiled here, with the rules' optimisation, and not again (and perhaps
// unoptimised) in every crate that counts.

pub(crate) fn count<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| count(&pos.play(m), depth - 1))
            .sum(),
    }
}

pub(crate) fn count_stoppable<V: Variant>(
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
            .map(|m| count_stoppable(&pos.play(m), depth - 1, stop))
            .sum(),
    }
}

/// A game's perft entries ([`Variant::perft`], [`Variant::perft_stoppable`]),
/// written in each `impl Variant`.
macro_rules! perft_entries {
    () => {
        fn perft(pos: &$crate::Position<Self>, depth: u32) -> u64 {
            $crate::perft::count(pos, depth)
        }
        fn perft_stoppable(
            pos: &$crate::Position<Self>,
            depth: u32,
            stop: &::std::sync::atomic::AtomicBool,
        ) -> Option<u64> {
            $crate::perft::count_stoppable(pos, depth, stop)
        }
    };
}
pub(crate) use perft_entries;
