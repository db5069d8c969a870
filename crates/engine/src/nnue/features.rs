//! The network's inputs: one feature per (piece, square) of the game's
//! board, and in games with drops one per piece in hand, each seen from one
//! side's perspective.
//!
//! From a side's perspective its own pieces come first, the opponent's
//! second, and the board is turned for Black, so that both sides see their
//! pieces start at the bottom: mirrored top to bottom in Tensor Chess and
//! chess (whose starts are mirror images), turned half a circle in
//! Chessence (whose start is symmetric about the centre). Index of a piece on a board
//! square: `(relative colour × roles + role slot) × squares + square`, where
//! the role slot is the role's place in the game's `ROLES` list (Tensor
//! Chess: seven roles with the beast, 10×8 = 80 squares; chess: six roles,
//! 64 squares; Chessence: king and man, 6×9 = 54 squares). Then the hands:
//! `board features + relative colour × MAX_HAND + k` is on while that side
//! holds more than `k` pieces.

use tensorchess_rules::{Color, Piece, Position, Role, Square, Variant, VariantKind};

/// Hand sizes the features tell apart; larger hands count as this many.
pub const MAX_HAND: usize = 16;

/// Squares of the game's board (holes included: Chessence's 6×9 = 54).
pub const fn squares<V: Variant>() -> usize {
    V::GEOMETRY.files as usize * V::GEOMETRY.ranks as usize
}

/// The number of features of the game.
pub const fn feature_count<V: Variant>() -> usize {
    let board = 2 * V::ROLES.len() * squares::<V>();
    if V::DROPS {
        board + 2 * MAX_HAND
    } else {
        board
    }
}

/// The place of `role` in the game's `ROLES` (0 for a role the game lacks,
/// which its positions never hold).
#[inline(always)]
fn role_slot<V: Variant>(role: Role) -> usize {
    let mut i = 0;
    while i < V::ROLES.len() {
        if V::ROLES[i] as u8 == role as u8 {
            return i;
        }
        i += 1;
    }
    0
}

/// `sq` as `perspective` sees it: for Black mirrored top to bottom, or
/// turned half a circle in Chessence.
#[inline(always)]
fn oriented<V: Variant>(perspective: Color, sq: Square) -> usize {
    let g = V::GEOMETRY;
    match perspective {
        Color::White => sq.index(),
        Color::Black if matches!(V::KIND, VariantKind::Chessence) => {
            squares::<V>() - 1 - sq.index()
        }
        Color::Black => {
            let files = g.files as usize;
            let rank = sq.index() / files;
            let file = sq.index() % files;
            (g.ranks as usize - 1 - rank) * files + file
        }
    }
}

/// The feature of `piece` on `sq`, seen from `perspective`.
#[inline(always)]
pub fn board_feature<V: Variant>(perspective: Color, sq: Square, piece: Piece) -> usize {
    let relative = (piece.color() != perspective) as usize;
    (relative * V::ROLES.len() + role_slot::<V>(piece.role())) * squares::<V>()
        + oriented::<V>(perspective, sq)
}

/// The feature "`color` holds more than `k` pieces in hand", seen from
/// `perspective` (`k` below [`MAX_HAND`]).
#[inline(always)]
pub fn hand_feature<V: Variant>(perspective: Color, color: Color, k: usize) -> usize {
    let relative = (color != perspective) as usize;
    2 * V::ROLES.len() * squares::<V>() + relative * MAX_HAND + k
}

/// Calls `each` with every feature active in `pos` from `perspective`.
pub fn active_features<V: Variant>(
    pos: &Position<V>,
    perspective: Color,
    mut each: impl FnMut(usize),
) {
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            each(board_feature::<V>(perspective, sq, p));
        }
    }
    if V::DROPS {
        for color in Color::ALL {
            for k in 0..(pos.hand(color) as usize).min(MAX_HAND) {
                each(hand_feature::<V>(perspective, color, k));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::{Chess, Chessence, Tensor};

    fn all<V: Variant>(pos: &Position<V>, perspective: Color) -> Vec<usize> {
        let mut v = Vec::new();
        active_features(pos, perspective, |f| v.push(f));
        v.sort_unstable();
        v
    }

    #[test]
    fn the_start_looks_the_same_from_both_sides() {
        fn check<V: Variant>(pieces: usize) {
            let pos = Position::<V>::new();
            let white = all(&pos, Color::White);
            assert_eq!(white.len(), pieces);
            assert_eq!(white, all(&pos, Color::Black));
            assert!(white.iter().all(|&f| f < feature_count::<V>()));
            let mut dedup = white.clone();
            dedup.dedup();
            assert_eq!(dedup.len(), white.len());
        }
        check::<Tensor>(40);
        check::<Chess>(32);
        // Chessence: 2 kings, 12 men on the board, 3 + 3 in hand.
        check::<Chessence>(2 + 12 + 6);
    }

    #[test]
    fn counts_per_game() {
        assert_eq!(feature_count::<Tensor>(), 2 * 7 * 80);
        assert_eq!(feature_count::<Chess>(), 2 * 6 * 64);
        assert_eq!(feature_count::<Chessence>(), 2 * 2 * 54 + 2 * MAX_HAND);
    }
}
