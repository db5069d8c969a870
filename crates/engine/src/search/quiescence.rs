//! The quiescence search: captures and queen promotions (every move when in
//! check) until the position is quiet, so that no leaf is judged in the
//! middle of an exchange.

use super::ordering::{losing_capture, pick_next};
use super::{INF, MAX_PLY, Searcher};
use crate::eval::Evaluate;
use crate::tt::Bound;
use crate::{Eval, Feature, SearchHandler};
use tensorchess_rules::{GenType, Move, MoveKind, MoveList, Position};

/// Delta pruning: a capture is skipped when even winning its victim plus
/// this much leaves the score below alpha.
const DELTA_MARGIN: i32 = 200;

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// The quiescence search of `pos` in the window (`alpha`, `beta`).
    pub(super) fn qsearch(
        &mut self,
        handler: &mut dyn SearchHandler,
        pos: &Position<V>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.check_stop(handler) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let f = self.shared.features;
        let use_tt = f.is_on(Feature::QsearchTt);
        let key = pos.hash();
        let mut tt_move = Move::NULL;
        let mut tt_deeper = false;
        if let Some(e) = use_tt.then(|| self.shared.tt.probe(key)).flatten() {
            let s = Eval::from_tt(e.score, ply as i32).0;
            // Any entry is at least as deep as quiescence; only null-window
            // nodes cut, so that principal variations stay whole.
            if e.bound.cuts(s, alpha, beta) && beta - alpha == 1 {
                return s;
            }
            tt_move = e.mv;
            tt_deeper = e.depth > 0;
        }
        let alpha_in = alpha;
        // Standing pat: the side to move need not capture (unless in check).
        let stand = if in_check {
            -INF
        } else {
            self.evaluate(pos, ply)
        };
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = MoveList::new();
        let kind = if in_check {
            GenType::All
        } else {
            GenType::Tactical
        };
        pos.generate_into(kind, &mut moves);
        if moves.is_empty() {
            return if in_check {
                Eval::mated_in(ply as i32).0
            } else {
                stand
            };
        }
        let mut scores = self.order(pos, &moves, tt_move, ply);
        let mut best = stand;
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            if !in_check && m.kind() != MoveKind::Promotion {
                if f.is_on(Feature::DeltaPruning)
                    && stand + Self::captured_value(pos, m) + DELTA_MARGIN < alpha
                {
                    continue;
                }
                // Captures that lose material are not worth resolving here.
                if f.is_on(Feature::BadCapturePruning) && losing_capture(scores[i]) {
                    continue;
                }
            }
            self.cont_keys[ply] = Self::cont_key(pos, m);
            let child = self.play(pos, m, ply);
            if use_tt {
                self.shared.tt.prefetch(child.hash());
            }
            let score = -self.qsearch(handler, &child, -beta, -alpha, ply + 1, child.is_check());
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // A deeper entry of the main search is worth more than this one.
        if use_tt && !tt_deeper {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared
                .tt
                .store(key, best_move, Eval(best).to_tt(ply as i32), 0, bound);
        }
        best
    }
}
