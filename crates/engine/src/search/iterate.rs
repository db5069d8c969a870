//! Iterative deepening at the root: one search per depth, each line of a
//! MultiPV search in turn, the first in an aspiration window around the
//! previous score; progress reported after each depth.

use super::time_scale::TimeScale;
use super::{INF, MAX_PLY, Searcher};
use crate::eval::Evaluate;
use crate::{Eval, Feature, SearchHandler, SearchInfo};
use std::sync::atomic::Ordering;
use tensorchess_rules::{Move, Position};

/// A line of the root: its moves, its score and the depth it was searched to.
pub(crate) type Line = (Vec<Move>, i32, u32);

/// Aspiration windows: from this depth on, the first line is searched in a
/// window around the previous iteration's score...
const ASPIRATION_DEPTH: u32 = 5;
/// ... this many centipawns on each side, doubled after each fail.
const ASPIRATION_WINDOW: i32 = 30;
/// A mate is settled once the depth searched passes twice its distance in
/// plies plus this.
const MATE_SETTLED_MARGIN: i32 = 4;

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// Iterative deepening over the root; reports through `handler` (main
    /// thread only). Helpers start `depth_offset` plies deeper.
    pub fn iterate(
        &mut self,
        handler: &mut dyn SearchHandler,
        root: &Position<V>,
        max_depth: u32,
        multipv: usize,
        depth_offset: u32,
    ) -> Vec<Line> {
        let mut time_scale = TimeScale::default();
        let mut lines: Vec<Line> = Vec::new();
        let mut legal = root.legal_moves();
        if !self.root_only.is_empty() {
            legal.retain(|m| self.root_only.contains(m));
        }
        if legal.is_empty() {
            return lines;
        }
        let multipv = multipv.clamp(1, legal.len());
        let mut prev_score = 0;
        for d in 1..=max_depth {
            let depth = (d + depth_offset).min(MAX_PLY as u32 - 1);
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let Some(iteration) = self.iteration(
                handler,
                root,
                depth,
                multipv,
                d > 1,
                &mut prev_score,
                &mut lines,
            ) else {
                break;
            };
            lines = iteration;
            if self.main {
                self.report(handler, &lines, depth);
                if self.enough(&lines, depth, legal.len(), &mut time_scale) {
                    break;
                }
            }
            if self.stopped || self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        self.flush_nodes();
        lines
    }

    /// Every line at `depth`, best first, or `None` when the search stopped
    /// during it (unless it is the first iteration, which is kept however
    /// far it got). A first line that beat the previous best in the
    /// unfinished iteration replaces it in `lines`: it was searched to the
    /// new depth.
    #[allow(clippy::too_many_arguments)]
    fn iteration(
        &mut self,
        handler: &mut dyn SearchHandler,
        root: &Position<V>,
        depth: u32,
        multipv: usize,
        after_first: bool,
        prev_score: &mut i32,
        lines: &mut [Line],
    ) -> Option<Vec<Line>> {
        let root_check = root.is_check();
        let mut iteration: Vec<Line> = Vec::new();
        self.excluded.clear();
        for pv_index in 0..multipv {
            let around = (pv_index == 0).then_some(*prev_score);
            let score = self.aspiration_search(handler, root, depth, root_check, around);
            if self.stopped && after_first {
                if pv_index == 0
                    && let (Some((pv, s)), Some(first)) = (self.root_best.take(), lines.first_mut())
                    && first.0.first() != pv.first()
                {
                    *first = (pv, s, depth);
                }
                return None;
            }
            if self.pv[0].is_empty() {
                break;
            }
            let pv = self.pv[0].clone();
            self.excluded.push(pv[0]);
            iteration.push((pv, score, depth));
            if pv_index == 0 {
                *prev_score = score;
            }
        }
        if self.stopped && after_first {
            return None;
        }
        iteration.sort_by_key(|l| std::cmp::Reverse(l.1));
        self.excluded.clear();
        Some(iteration)
    }

    /// Searches the root (without the lines already found) to `depth`, in a
    /// window `around` the previous score when given and deep enough,
    /// widened until the score falls inside it.
    fn aspiration_search(
        &mut self,
        handler: &mut dyn SearchHandler,
        root: &Position<V>,
        depth: u32,
        root_check: bool,
        around: Option<i32>,
    ) -> i32 {
        let mut window = ASPIRATION_WINDOW;
        let aspiration =
            depth >= ASPIRATION_DEPTH && self.shared.features.is_on(Feature::Aspiration);
        let (mut alpha, mut beta) = match around {
            Some(prev) if aspiration => ((prev - window).max(-INF), (prev + window).min(INF)),
            _ => (-INF, INF),
        };
        self.root_best = None;
        loop {
            let s = self.negamax(
                handler,
                root,
                depth as i32,
                alpha,
                beta,
                0,
                root_check,
                false,
            );
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (s - window).max(-INF);
                window *= 2;
            } else if s >= beta && beta < INF {
                beta = (s + window).min(INF);
                window *= 2;
            } else {
                return s;
            }
        }
    }

    /// Sends one `SearchInfo` per line of a finished iteration.
    fn report(&mut self, handler: &mut dyn SearchHandler, lines: &[Line], depth: u32) {
        self.flush_nodes();
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        let time = self.shared.deadline.elapsed();
        for (i, (pv, score, _)) in lines.iter().enumerate() {
            handler.on_info(&SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                multipv: i as u32 + 1,
                score: Eval(*score),
                nodes,
                time,
                pv: pv.clone(),
                hashfull: self.shared.tt.hashfull(),
            });
        }
    }

    /// Whether the main thread should start no new iteration: a single
    /// legal move or a settled mate on a clock, or the time planned is used.
    fn enough(
        &self,
        lines: &[Line],
        depth: u32,
        legal_moves: usize,
        time_scale: &mut TimeScale,
    ) -> bool {
        let deadline = &self.shared.deadline;
        // One legal move: no need to think.
        if legal_moves == 1 && deadline.soft.is_some() {
            return true;
        }
        // A mate found well within the depth searched will not change.
        if let Some((_, s, _)) = lines.first() {
            let mate_plies = Eval::MATE.0 - s.abs();
            if Eval(*s).is_mate()
                && deadline.soft.is_some()
                && depth as i32 > 2 * mate_plies + MATE_SETTLED_MARGIN
            {
                return true;
            }
        }
        deadline.soft_passed(time_scale.next(lines, &self.shared.features)) || self.stopped
    }
}
