//! The principal variation search of one node, in named steps: entering it
//! (draws, mate distance, the quiescence search at the horizon), probing
//! the transposition table, judging the position statically, pruning before
//! any move, the singular extension, the move loop, and storing the result.

use super::history::Tried;
use super::ordering::{Scores, pick_next};
use super::pruning::IIR_DEPTH;
use super::{INF, MATE_BOUND, MAX_PLY, Searcher};
use crate::eval::Evaluate;
use crate::tt::{Bound, TtEntry};
use crate::{Eval, Feature, SearchHandler};
use std::ops::ControlFlow;
use tensorchess_rules::{GenType, Move, MoveKind, MoveList, Position};

/// Runs one step of a node: its value, or returns from `negamax` with the
/// score that settles the node.
macro_rules! step {
    ($e:expr) => {
        match $e {
            ControlFlow::Continue(value) => value,
            ControlFlow::Break(score) => return score,
        }
    };
}

/// What a node knows once entered, handed from one step to the next.
#[derive(Copy, Clone)]
pub(super) struct Node {
    /// Plies left (after the check extension and internal iterative reduction).
    pub depth: i32,
    /// The window, narrowed by mate distance; `alpha` rises as moves beat it.
    pub alpha: i32,
    pub beta: i32,
    pub ply: usize,
    pub in_check: bool,
    /// A node of the principal variation (an open window).
    pub pv_node: bool,
    pub root: bool,
    /// The hash move a singular-extension search leaves out, or none.
    pub skip: Move,
    pub key: u64,
    pub tt: Option<TtEntry>,
    pub tt_move: Move,
    /// The static eval, or the hash score where its bound puts it nearer
    /// the truth: what pruning judges by.
    pub eval: i32,
    /// The static eval is better than two plies before.
    pub improving: bool,
}

/// What the move loop found.
struct Searched {
    best: i32,
    best_move: Move,
    /// Moves searched (not pruned).
    count: i32,
}

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// The score of `pos` searched to `depth` in the window (`alpha`,
    /// `beta`), from the side to move's view; `null_ok` allows a null move.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        handler: &mut dyn SearchHandler,
        pos: &Position<V>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        null_ok: bool,
    ) -> i32 {
        let mut node = step!(self.enter(handler, pos, depth, alpha, beta, ply, in_check));
        step!(self.probe_table(&mut node));
        // Internal iterative reduction: without a hash move, search shallower first.
        if node.tt_move.is_null()
            && node.skip.is_null()
            && node.depth >= IIR_DEPTH
            && self.shared.features.is_on(Feature::Iir)
        {
            node.depth -= 1;
        }
        self.judge_statically(pos, &mut node);
        step!(self.prune_before_moves(handler, pos, &node, null_ok));
        let moves = step!(self.node_moves(pos, &node));
        // Ordered before the singular search, which changes the killers
        // and histories of this ply.
        let scores = self.order(pos, &moves, node.tt_move, ply);
        let extension = step!(self.singular_extension(handler, pos, &node));
        let searched = step!(self.search_moves(handler, pos, &mut node, moves, scores, extension));
        if searched.count == 0 {
            // Everything was pruned: fall back to the static view.
            return if node.in_check {
                node.alpha
            } else {
                node.eval.min(node.beta).max(node.alpha)
            };
        }
        self.store(&node, &searched);
        searched.best
    }

    /// Enters a node: a draw by the rules, mate-distance pruning, the ply
    /// limit and the quiescence search at the horizon settle it at once.
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        handler: &mut dyn SearchHandler,
        pos: &Position<V>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        in_check: bool,
    ) -> ControlFlow<i32, Node> {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply].clear();
        if !root {
            if self.check_stop(handler) {
                return ControlFlow::Break(0);
            }
            if pos.halfmove_clock() >= 100 || self.is_repetition(pos) {
                return ControlFlow::Break(self.draw_score(ply));
            }
            // Mate distance pruning.
            alpha = alpha.max(Eval::mated_in(ply as i32).0);
            beta = beta.min(Eval::mate_in(ply as i32 + 1).0);
            if alpha >= beta {
                return ControlFlow::Break(alpha);
            }
        }
        if ply >= MAX_PLY {
            return ControlFlow::Break(self.evaluate(pos, ply));
        }
        if in_check && self.shared.features.is_on(Feature::CheckExtension) {
            depth += 1;
        }
        if depth <= 0 {
            return ControlFlow::Break(self.qsearch(handler, pos, alpha, beta, ply, in_check));
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        ControlFlow::Continue(Node {
            depth,
            alpha,
            beta,
            ply,
            in_check,
            pv_node,
            root,
            skip: self.skip_move[ply],
            key: pos.hash(),
            tt: None,
            tt_move: Move::NULL,
            eval: -INF,
            improving: false,
        })
    }

    /// Reads the node's hash entry: its move for ordering, and a cut-off
    /// outside the principal variation when it is deep enough.
    fn probe_table(&self, node: &mut Node) -> ControlFlow<i32> {
        // A search without the hash move must not use or fill the table.
        node.tt = if node.skip.is_null() {
            self.shared.tt.probe(node.key)
        } else {
            None
        };
        if let Some(e) = node.tt {
            node.tt_move = e.mv;
            if !node.pv_node && e.depth >= node.depth {
                let s = Eval::from_tt(e.score, node.ply as i32).0;
                if e.bound.cuts(s, node.alpha, node.beta) {
                    return ControlFlow::Break(s);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The static eval, whether it is improving, and the eval pruning
    /// judges by.
    fn judge_statically(&mut self, pos: &Position<V>, node: &mut Node) {
        let ply = node.ply;
        let static_eval = if node.in_check {
            -INF
        } else {
            self.evaluate(pos, ply)
        };
        self.eval_stack[ply] = static_eval;
        node.improving = !node.in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        // The hash score, where its bound says it is nearer the truth than the
        // static eval, guides pruning (Stockfish's adjusted eval).
        node.eval = static_eval;
        let tt_eval = self.shared.features.is_on(Feature::TtEval);
        if let Some(e) = node.tt.filter(|_| tt_eval && !node.in_check) {
            let s = Eval::from_tt(e.score, ply as i32).0;
            // The bound settles a null window at the eval: s is on its far side.
            if e.bound.cuts(s, node.eval, node.eval) && s.abs() < MATE_BOUND {
                node.eval = s;
            }
        }
    }

    /// The moves to search; a node without any is settled (mate, stalemate,
    /// Chessence's loss with no move, or a singular hash move).
    fn node_moves(&self, pos: &Position<V>, node: &Node) -> ControlFlow<i32, MoveList> {
        let mut moves = MoveList::new();
        pos.generate_into(GenType::All, &mut moves);
        if node.root && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
        if node.root && !self.root_only.is_empty() {
            moves.retain(|m| self.root_only.contains(m));
        }
        if !node.skip.is_null() {
            moves.retain(|m| *m != node.skip);
            if moves.is_empty() {
                // Only the hash move: it is singular.
                return ControlFlow::Break(node.alpha);
            }
        }
        if moves.is_empty() {
            if node.root {
                return ControlFlow::Break(-INF);
            }
            return ControlFlow::Break(if node.in_check || V::NO_MOVE_LOSES {
                Eval::mated_in(node.ply as i32).0
            } else {
                self.draw_score(node.ply)
            });
        }
        ControlFlow::Continue(moves)
    }

    /// Searches the moves best first, skipping hopeless quiet ones, until
    /// one reaches beta; breaks with 0 when the search is stopped.
    fn search_moves(
        &mut self,
        handler: &mut dyn SearchHandler,
        pos: &Position<V>,
        node: &mut Node,
        mut moves: MoveList,
        mut scores: Scores,
        tt_move_extension: i32,
    ) -> ControlFlow<i32, Searched> {
        let ply = node.ply;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0;
        let mut tried = Tried {
            quiets: smallvec::SmallVec::new(),
            captures: smallvec::SmallVec::new(),
        };
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            let capture = Self::is_capture(pos, m);
            let quiet = !capture && m.kind() != MoveKind::Promotion;
            if !node.root
                && !node.in_check
                && quiet
                && best > -MATE_BOUND
                && self.skip_quiet(node, searched, scores[i])
            {
                continue;
            }
            self.cont_keys[ply] = Self::cont_key(pos, m);
            let child = self.play(pos, m, ply);
            self.shared.tt.prefetch(child.hash());
            let gives_check = child.is_check();
            self.hashes.push(child.hash());
            let score = if searched == 0 {
                let extension = if m == node.tt_move {
                    tt_move_extension
                } else {
                    0
                };
                let depth = node.depth - 1 + extension;
                -self.negamax(
                    handler,
                    &child,
                    depth,
                    -node.beta,
                    -node.alpha,
                    ply + 1,
                    gives_check,
                    true,
                )
            } else {
                let r = self.reduction(node, pos, m, searched, scores[i], quiet, gives_check);
                self.search_late_move(handler, node, &child, r, gives_check)
            };
            self.hashes.pop();
            if self.stopped {
                return ControlFlow::Break(0);
            }
            searched += 1;
            if score > best {
                best = score;
                if score > node.alpha {
                    best_move = m;
                    node.alpha = score;
                    self.update_pv(ply, m);
                    if node.root {
                        self.root_best = Some((self.pv[0].clone(), score));
                    }
                    if score >= node.beta {
                        self.reward_cutoff(pos, m, node.depth, ply, &tried);
                        break;
                    }
                }
            }
            if quiet {
                tried.quiets.push(m);
            } else if capture {
                tried.captures.push(m);
            }
        }
        ControlFlow::Continue(Searched {
            best,
            best_move,
            count: searched,
        })
    }

    /// A move after the first: a null window, `r` plies shallower; again at
    /// full depth if it beat alpha; with the whole window if it may be a new
    /// best move of a principal variation.
    fn search_late_move(
        &mut self,
        handler: &mut dyn SearchHandler,
        node: &Node,
        child: &Position<V>,
        r: i32,
        gives_check: bool,
    ) -> i32 {
        let Node {
            depth,
            alpha,
            beta,
            ply,
            ..
        } = *node;
        let mut score = -self.negamax(
            handler,
            child,
            depth - 1 - r,
            -alpha - 1,
            -alpha,
            ply + 1,
            gives_check,
            true,
        );
        if r > 0 && score > alpha {
            score = -self.negamax(
                handler,
                child,
                depth - 1,
                -alpha - 1,
                -alpha,
                ply + 1,
                gives_check,
                true,
            );
        }
        if node.pv_node && score > alpha && score < beta {
            score = -self.negamax(
                handler,
                child,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                gives_check,
                true,
            );
        }
        score
    }

    /// Stores the node's result, unless it searched without some moves
    /// (MultiPV lines at the root, the hash move in a singular search).
    fn store(&self, node: &Node, searched: &Searched) {
        let bound = if searched.best >= node.beta {
            Bound::Lower
        } else if !searched.best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if (self.excluded.is_empty() || !node.root) && node.skip.is_null() {
            self.shared.tt.store(
                node.key,
                searched.best_move,
                Eval(searched.best).to_tt(node.ply as i32),
                node.depth,
                bound,
            );
        }
    }
}
