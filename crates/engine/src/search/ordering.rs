//! Move ordering: every move gets a score in a band (the hash move, safe
//! captures and promotions, killers, other quiet moves by their history,
//! captures that lose material), and moves are searched best score first.

use super::Searcher;
use crate::eval::Evaluate;
use tensorchess_rules::{Move, MoveKind, MoveList, Position, Role};

/// Move-ordering scores, parallel to a move list (on the stack).
pub(super) type Scores = smallvec::SmallVec<[i32; 256]>;

/// The hash move's score: first of all.
const HASH_MOVE: i32 = 10_000_000;
/// Base of captures that do not lose material, and of promotions.
const GOOD_CAPTURE: i32 = 1_000_000;
/// The first killer's score: after the good captures.
const FIRST_KILLER: i32 = 900_000;
/// The second killer's score. A quiet move scoring at least this is a
/// killer: other quiet moves score their history, at most 3 ×
/// `HISTORY_MAX`.
pub(super) const SECOND_KILLER: i32 = 899_000;
/// Base of captures that lose material: after the quiet moves, and below
/// zero whatever their MVV-LVA term adds (see [`losing_capture`]).
const BAD_CAPTURE: i32 = -100_000;

/// MVV-LVA weights: the victim's value counts this many times...
const VICTIM_WEIGHT: i32 = 16;
/// ... a promotion's new piece this many times...
const PROMOTION_WEIGHT: i32 = 8;
/// ... less the attacker's value divided by this, plus the capture history
/// divided by this.
const ATTACKER_DIVISOR: i32 = 16;
const CAPTURE_HISTORY_DIVISOR: i32 = 16;

/// Values for move ordering and delta pruning (ordering only needs ranks).
pub(super) const ORDER_VALUE: [i32; 8] = [100, 320, 330, 500, 900, 20_000, 330, 300];

/// Moves picked one at a time (selection sort) before the rest is sorted
/// at once: most cut-offs come from the first few moves, and sorting a long
/// list once is cheaper than scanning it for every move.
const LAZY_PICKS: usize = 3;

/// Whether an ordering score lies in the band of captures that lose
/// material: below zero. (Quiet moves with a bad history score below zero
/// too, so this says something only of captures and promotions, the moves
/// of a quiescence search outside check.)
pub(super) fn losing_capture(score: i32) -> bool {
    score < 0
}

/// Brings the `i`-th best move to `i` and returns it.
pub(super) fn pick_next(moves: &mut MoveList, scores: &mut Scores, i: usize) -> Move {
    if i < LAZY_PICKS {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
    } else if i == LAZY_PICKS && moves.len() > i + 1 {
        let mut rest: smallvec::SmallVec<[(i32, Move); 256]> =
            (i..moves.len()).map(|j| (scores[j], moves[j])).collect();
        rest.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (k, (sc, m)) in rest.into_iter().enumerate() {
            scores[i + k] = sc;
            moves[i + k] = m;
        }
    }
    moves[i]
}

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// Whether `m` takes a piece (beast captures and en passant included).
    pub(super) fn is_capture(pos: &Position<V>, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant | MoveKind::BeastCapture => true,
            MoveKind::Normal | MoveKind::Promotion => pos.piece_at(m.to()).is_some(),
            _ => false,
        }
    }

    /// The ordering value of what `m` takes (0 for no capture).
    pub(super) fn captured_value(pos: &Position<V>, m: Move) -> i32 {
        match m.kind() {
            MoveKind::EnPassant => ORDER_VALUE[Role::Pawn.index()],
            MoveKind::BeastCapture => ORDER_VALUE[Role::Beast.index()],
            _ => pos
                .piece_at(m.to())
                .map_or(0, |p| ORDER_VALUE[p.role().index()]),
        }
    }

    /// A capture that does not lose material at once: the victim is worth at
    /// least the capturer, or the square is not defended (a cheap stand-in for
    /// static exchange evaluation that works in all three games).
    fn safe_capture(pos: &Position<V>, m: Move) -> bool {
        let attacker = pos
            .piece_at(m.from())
            .map_or(0, |p| ORDER_VALUE[p.role().index()]);
        if Self::captured_value(pos, m) >= attacker || m.kind() == MoveKind::BeastCapture {
            return true;
        }
        let occ = pos.occupied().without(m.from());
        !pos.is_attacked_by(m.to(), !pos.turn(), occ)
    }

    /// The ordering score of each move of `moves` at `ply`.
    pub(super) fn order(
        &self,
        pos: &Position<V>,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
    ) -> Scores {
        let killers = self.killers[ply];
        moves
            .iter()
            .map(|&m| {
                if m == tt_move {
                    return HASH_MOVE;
                }
                let mover = pos.piece_at(m.from());
                let promo = m.promotion_role().map_or(0, |r| ORDER_VALUE[r.index()]);
                if Self::is_capture(pos, m) || promo > 0 {
                    let attacker = mover.map_or(0, |p| ORDER_VALUE[p.role().index()]);
                    // MVV-LVA: most valuable victim, least valuable attacker;
                    // captures that lose material go after the quiet moves.
                    let mvv_lva = Self::captured_value(pos, m) * VICTIM_WEIGHT
                        + promo * PROMOTION_WEIGHT
                        - attacker / ATTACKER_DIVISOR
                        + self.capture_stat(pos, m) / CAPTURE_HISTORY_DIVISOR;
                    let base = if promo > 0 || Self::safe_capture(pos, m) {
                        GOOD_CAPTURE
                    } else {
                        BAD_CAPTURE
                    };
                    return base + mvv_lva;
                }
                if m == killers[0] {
                    return FIRST_KILLER;
                }
                if m == killers[1] {
                    return SECOND_KILLER;
                }
                self.quiet_stat(pos, m, ply)
            })
            .collect()
    }
}
