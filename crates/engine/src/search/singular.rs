//! Singular extension: when the hash move is better by a margin than every
//! other move, it is searched a ply deeper; when even the others beat beta,
//! the node is cut at once (multi-cut). From Stockfish.

use super::negamax::Node;
use super::{MATE_BOUND, Searcher};
use crate::eval::Evaluate;
use crate::tt::Bound;
use crate::{Eval, Feature, SearchHandler};
use std::ops::ControlFlow;
use tensorchess_rules::{Move, Position};

/// Singular extensions from this depth on...
const SINGULAR_DEPTH: i32 = 8;
/// ... for a hash entry at most this many plies shallower than the node...
const SINGULAR_ENTRY_DEPTH_MARGIN: i32 = 3;
/// ... when every other move stays this many centipawns per ply below the
/// hash score.
const SINGULAR_MARGIN: i32 = 2;

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// Searches the node without its hash move, to half the depth, in a
    /// null window below the hash score: how many plies to extend the hash
    /// move by (0 or 1), or a break with the score that settles the node
    /// (multi-cut, or stopped).
    pub(super) fn singular_extension(
        &mut self,
        handler: &mut dyn SearchHandler,
        pos: &Position<V>,
        node: &Node,
    ) -> ControlFlow<i32, i32> {
        let Node {
            depth, beta, ply, ..
        } = *node;
        let Some(e) = node.tt.filter(|e| {
            self.shared.features.is_on(Feature::SingularExtension)
                && !node.root
                && depth >= SINGULAR_DEPTH
                && !e.mv.is_null()
                && e.bound != Bound::Upper
                && e.depth >= depth - SINGULAR_ENTRY_DEPTH_MARGIN
                && ply < 2 * self.root_depth as usize
        }) else {
            return ControlFlow::Continue(0);
        };
        let tt_score = Eval::from_tt(e.score, ply as i32).0;
        if tt_score.abs() >= MATE_BOUND {
            return ControlFlow::Continue(0);
        }
        let singular_beta = tt_score - SINGULAR_MARGIN * depth;
        self.skip_move[ply] = e.mv;
        let score = self.negamax(
            handler,
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            node.in_check,
            false,
        );
        self.skip_move[ply] = Move::NULL;
        if self.stopped {
            ControlFlow::Break(0)
        } else if score < singular_beta {
            ControlFlow::Continue(1)
        } else if singular_beta >= beta {
            ControlFlow::Break(singular_beta)
        } else {
            ControlFlow::Continue(0)
        }
    }
}
