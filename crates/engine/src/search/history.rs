//! What a search thread learns about moves: the history of quiet moves, their
//! continuation history, the capture history and the killers, all updated
//! when a move causes a cut-off.

use super::Searcher;
use crate::Feature;
use crate::eval::Evaluate;
use tensorchess_rules::{Move, MoveKind, Position, Role};

/// Keys of continuation history: 16 pieces × 128 squares.
const CONT_KEYS: usize = 16 * 128;
/// The continuation key of no move (a null move, or before the root).
pub(super) const NO_CONT: u16 = u16::MAX;
/// History scores are kept within ±`HISTORY_MAX` by the gravity update.
pub(super) const HISTORY_MAX: i32 = 16_384;
/// A cut-off's bonus grows with the square of the depth up to this...
const BONUS_DEPTH_SQUARED_MAX: i32 = 400;
/// ... times this.
const BONUS_SCALE: i32 = 4;

/// A history value moved by `bonus`, kept within ±`HISTORY_MAX` (Stockfish's
/// gravity formula: the nearer the bound, the less a bonus moves it).
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// What a search thread learns about quiet moves. An engine keeps it from
/// one search of a game to the next (as Stockfish does) and clears it for a
/// new game.
pub(crate) struct MoveStats {
    /// History by piece (colour*8+role) and destination.
    quiet: Vec<[i32; 128]>,
    /// Continuation history: how a quiet move (piece, destination) fared
    /// after the move one and two plies before it, flat over
    /// `CONT_KEYS × CONT_KEYS` (counter-move and follow-up history, from
    /// Stockfish).
    cont: Vec<i16>,
    /// Capture history by piece, destination and captured role (from
    /// Stockfish's `CapturePieceToHistory`).
    capture: Vec<[[i16; 8]; 128]>,
}

impl MoveStats {
    /// Statistics of a thread that has learnt nothing yet.
    pub fn new() -> Self {
        MoveStats {
            quiet: vec![[0; 128]; 16],
            cont: vec![0; CONT_KEYS * CONT_KEYS],
            capture: vec![[[0; 8]; 128]; 16],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|row| row.fill(0));
        self.cont.fill(0);
        self.capture.iter_mut().for_each(|t| *t = [[0; 8]; 128]);
    }
}

/// The moves of a node searched before the one that cut off, which did
/// not: they lose what it gains.
pub(super) struct Tried {
    pub quiets: smallvec::SmallVec<[Move; 64]>,
    pub captures: smallvec::SmallVec<[Move; 32]>,
}

impl<V: Evaluate> Searcher<'_, '_, V> {
    /// The role a capture takes (for capture history).
    fn captured_role(pos: &Position<V>, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::BeastCapture => Some(Role::Beast),
            MoveKind::Normal | MoveKind::Promotion => pos.piece_at(m.to()).map(|p| p.role()),
            _ => None,
        }
    }

    /// The capture-history slot of a capture, if it is one.
    fn capture_slot(pos: &Position<V>, m: Move) -> Option<(usize, usize, usize)> {
        let piece = pos.piece_at(m.from())?;
        let victim = Self::captured_role(pos, m)?;
        Some((piece.index(), m.to().index(), victim.index()))
    }

    /// How well a capture has done (0 without capture history).
    pub(super) fn capture_stat(&self, pos: &Position<V>, m: Move) -> i32 {
        if !self.shared.features.is_on(Feature::CaptureHistory) {
            return 0;
        }
        Self::capture_slot(pos, m).map_or(0, |(p, t, v)| self.stats.capture[p][t][v] as i32)
    }

    fn update_capture_history(&mut self, pos: &Position<V>, m: Move, bonus: i32) {
        if let Some((p, t, v)) = Self::capture_slot(pos, m) {
            let h = &mut self.stats.capture[p][t][v];
            *h = gravity(*h as i32, bonus) as i16;
        }
    }

    /// The (piece, destination) key of a move for continuation history.
    pub(super) fn cont_key(pos: &Position<V>, m: Move) -> u16 {
        match pos.piece_at(m.from()) {
            Some(p) => (p.index() * 128 + m.to().index()) as u16,
            None => NO_CONT,
        }
    }

    /// The moves one and two plies before `ply` with a continuation key.
    fn cont_parents(&self, ply: usize) -> impl Iterator<Item = usize> + '_ {
        [1, 2]
            .into_iter()
            .filter(move |&back| {
                ply >= back && self.shared.features.is_on(Feature::ContinuationHistory)
            })
            .map(move |back| self.cont_keys[ply - back])
            .filter(|&k| k != NO_CONT)
            .map(|k| k as usize * CONT_KEYS)
    }

    /// How well a quiet move has done: its history plus its continuation
    /// histories (each within ±`HISTORY_MAX`).
    pub(super) fn quiet_stat(&self, pos: &Position<V>, m: Move, ply: usize) -> i32 {
        let key = Self::cont_key(pos, m);
        if key == NO_CONT {
            return 0;
        }
        let own = self.stats.quiet[key as usize / 128][key as usize % 128];
        own + self
            .cont_parents(ply)
            .map(|row| self.stats.cont[row + key as usize] as i32)
            .sum::<i32>()
    }

    fn update_history(&mut self, pos: &Position<V>, m: Move, bonus: i32, ply: usize) {
        let key = Self::cont_key(pos, m);
        if key == NO_CONT {
            return;
        }
        let h = &mut self.stats.quiet[key as usize / 128][key as usize % 128];
        *h = gravity(*h, bonus);
        let rows: smallvec::SmallVec<[usize; 2]> = self.cont_parents(ply).collect();
        for row in rows {
            let c = &mut self.stats.cont[row + key as usize];
            *c = gravity(*c as i32, bonus) as i16;
        }
    }

    /// Move `m` cut off at `depth`: it gains history (a quiet move becomes
    /// a killer too), the moves tried before it lose as much.
    pub(super) fn reward_cutoff(
        &mut self,
        pos: &Position<V>,
        m: Move,
        depth: i32,
        ply: usize,
        tried: &Tried,
    ) {
        let f = self.shared.features;
        let bonus = (depth * depth).min(BONUS_DEPTH_SQUARED_MAX) * BONUS_SCALE;
        let capture = Self::is_capture(pos, m);
        let quiet = !capture && m.kind() != MoveKind::Promotion;
        if f.is_on(Feature::CaptureHistory) {
            if capture {
                self.update_capture_history(pos, m, bonus);
            }
            for &c in &tried.captures {
                self.update_capture_history(pos, c, -bonus);
            }
        }
        if quiet {
            if f.is_on(Feature::Killers) && self.killers[ply][0] != m {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = m;
            }
            if f.is_on(Feature::History) {
                self.update_history(pos, m, bonus, ply);
                for &q in &tried.quiets {
                    self.update_history(pos, q, -bonus, ply);
                }
            }
        }
    }
}
