//! Pruning and reductions: nodes cut before their moves (reverse futility,
//! null move), quiet moves skipped near the leaves (late-move, futility and
//! history pruning), and late moves searched shallower (late-move
//! reductions). All are off when in check.

use super::history::{HISTORY_MAX, NO_CONT};
use super::negamax::Node;
use super::ordering::SECOND_KILLER;
use super::{MATE_BOUND, Searcher};
use crate::eval::Evaluate;
use crate::{Feature, SearchHandler};
use std::ops::ControlFlow;
use tensorchess_rules::{Move, Position, Role};

/// Reverse futility pruning up to this depth...
const REVERSE_FUTILITY_DEPTH: i32 = 7;
/// ... cuts a node whose eval beats beta by this much per ply...
const REVERSE_FUTILITY_MARGIN: i32 = 90;
/// ... less this when the eval is improving.
const REVERSE_FUTILITY_IMPROVING: i32 = 60;

/// Null-move pruning from this depth on...
const NULL_MOVE_DEPTH: i32 = 3;
/// ... searches the null move this many plies shallower...
const NULL_MOVE_REDUCTION: i32 = 3;
/// ... and a ply more per this many plies of depth...
const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// ... and per this many centipawns the eval beats beta by, up to
/// `NULL_MOVE_EVAL_PLIES` plies.
const NULL_MOVE_EVAL_DIVISOR: i32 = 200;
const NULL_MOVE_EVAL_PLIES: i32 = 3;

/// Late-move pruning up to this depth keeps `LATE_MOVE_BASE + depth²`
/// quiet moves (twice the square when improving), times the game's
/// `Evaluate::LATE_MOVE_PRUNING_SCALE`.
const LATE_MOVE_DEPTH: i32 = 4;
const LATE_MOVE_BASE: i32 = 3;

/// Futility pruning up to this depth skips quiet moves when the eval plus
/// `FUTILITY_BASE` and `FUTILITY_MARGIN` per ply does not reach alpha.
const FUTILITY_DEPTH: i32 = 5;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_MARGIN: i32 = 90;

/// History pruning up to this depth skips quiet moves whose history is
/// below this per ply (Stockfish's history threshold).
const HISTORY_PRUNING_DEPTH: i32 = 3;
const HISTORY_PRUNING_THRESHOLD: i32 = -4096;

/// Late-move reductions from this depth on, from this move on (the first
/// moves are searched at full depth).
const REDUCTION_DEPTH: i32 = 3;
const REDUCTION_FIRST_MOVE: i32 = 2;

/// Internal iterative reduction: a node without a hash move from this depth
/// on is searched a ply shallower.
pub(super) const IIR_DEPTH: i32 = 4;

/// Late-move reductions by depth and move number, logarithmic in both (as
/// in Stockfish and most engines since).
pub(super) fn reduction_table() -> Vec<[i32; 64]> {
    let mut lmr = vec![[0i32; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as i32;
        }
    }
    lmr
}

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// Whether the side to move has a piece other than pawns, kings and
    /// beasts (without one, zugzwang is likely and a null move unsound).
    fn has_non_pawn_material(pos: &Position<V>) -> bool {
        let us = pos.by_color(pos.turn());
        (us - pos.by_role(Role::Pawn) - pos.by_role(Role::King) - pos.by_role(Role::Beast)).any()
    }

    /// Reverse futility and null-move pruning: breaks with the score that
    /// settles the node before any move is searched, if there is one.
    pub(super) fn prune_before_moves(
        &mut self,
        handler: &mut dyn SearchHandler,
        pos: &Position<V>,
        node: &Node,
        null_ok: bool,
    ) -> ControlFlow<i32> {
        let f = self.shared.features;
        let Node {
            depth,
            beta,
            ply,
            eval,
            ..
        } = *node;
        if node.pv_node || node.in_check || beta.abs() >= MATE_BOUND {
            return ControlFlow::Continue(());
        }
        // Reverse futility pruning (static null move).
        if f.is_on(Feature::ReverseFutility) && depth <= REVERSE_FUTILITY_DEPTH {
            let margin = REVERSE_FUTILITY_MARGIN * depth
                - if node.improving {
                    REVERSE_FUTILITY_IMPROVING
                } else {
                    0
                };
            if eval - margin >= beta {
                return ControlFlow::Break(eval);
            }
        }
        // Null-move pruning (Donninger); not where zugzwang is common.
        if f.is_on(Feature::NullMove)
            && V::NULL_MOVE
            && null_ok
            && node.skip.is_null()
            && depth >= NULL_MOVE_DEPTH
            && eval >= beta
            && Self::has_non_pawn_material(pos)
        {
            let r = NULL_MOVE_REDUCTION
                + depth / NULL_MOVE_DEPTH_DIVISOR
                + ((eval - beta) / NULL_MOVE_EVAL_DIVISOR).min(NULL_MOVE_EVAL_PLIES);
            let child = self.play_null(pos, ply);
            let outer_floor = std::mem::replace(&mut self.null_floor, self.hashes.len());
            self.hashes.push(child.hash());
            self.cont_keys[ply] = NO_CONT;
            let score = -self.negamax(
                handler,
                &child,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                false,
            );
            self.hashes.pop();
            self.null_floor = outer_floor;
            if self.stopped {
                return ControlFlow::Break(0);
            }
            if score >= beta {
                return ControlFlow::Break(if score >= MATE_BOUND { beta } else { score });
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether a quiet move, `searched` moves into the node and ordered
    /// with `score`, is skipped: late-move, futility or history pruning.
    pub(super) fn skip_quiet(&self, node: &Node, searched: i32, score: i32) -> bool {
        let f = self.shared.features;
        let depth = node.depth;
        // Late move pruning: skip late quiet moves near the leaves.
        if f.is_on(Feature::LateMovePruning)
            && V::LATE_MOVE_PRUNING_SCALE > 0
            && depth <= LATE_MOVE_DEPTH
        {
            let limit = (LATE_MOVE_BASE + depth * depth * if node.improving { 2 } else { 1 })
                * V::LATE_MOVE_PRUNING_SCALE;
            if searched >= limit {
                return true;
            }
        }
        // Futility pruning: a quiet move cannot lift a hopeless eval.
        if f.is_on(Feature::Futility)
            && depth <= FUTILITY_DEPTH
            && node.eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= node.alpha
        {
            return true;
        }
        // History pruning: a quiet move that keeps failing is not worth a
        // look near the leaves.
        f.is_on(Feature::HistoryPruning)
            && depth <= HISTORY_PRUNING_DEPTH
            && searched > 0
            && score < HISTORY_PRUNING_THRESHOLD * depth
    }

    /// How many plies shallower than the others a move is searched first:
    /// late quiet moves that give no check, less for killers, moves of a
    /// principal variation or with a good history, more when the eval is
    /// not improving.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduction(
        &self,
        node: &Node,
        pos: &Position<V>,
        m: Move,
        searched: i32,
        score: i32,
        quiet: bool,
        gives_check: bool,
    ) -> i32 {
        let f = self.shared.features;
        let depth = node.depth;
        if !(f.is_on(Feature::LateMoveReductions)
            && depth >= REDUCTION_DEPTH
            && searched >= REDUCTION_FIRST_MOVE
            && quiet
            && !gives_check)
        {
            return 0;
        }
        let mut r = self.lmr[(depth as usize).min(63)][(searched as usize).min(63)];
        if node.pv_node {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        // A killer (no other quiet move scores as high).
        if node.in_check || score >= SECOND_KILLER {
            r -= 1;
        }
        // Moves with a good history are reduced less, bad ones more
        // (Stockfish's statScore).
        if f.is_on(Feature::HistoryReductions) {
            r -= self.quiet_stat(pos, m, node.ply) / HISTORY_MAX;
        }
        r.clamp(0, depth - 2)
    }
}
