//! A move's board changes, recorded through the rules' [`MoveObserver`].

use tensorchess_rules::{Color, MoveObserver, Piece, Role, Square};

/// Most pieces a move takes off squares, and most it puts on them
/// (castling and propels move two pieces; a capture removes a third).
const MAX_CHANGES: usize = 4;

/// Fills the unused slots.
const PLACEHOLDER: (Square, Piece) = (Square::new(0), Piece::new(Color::White, Role::Pawn));

/// The pieces a move took off and put on squares, and a hand's change.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Delta {
    removed: [(Square, Piece); MAX_CHANGES],
    added: [(Square, Piece); MAX_CHANGES],
    n_removed: u8,
    n_added: u8,
    hand: Option<(Color, u8, u8)>,
}

impl Default for Delta {
    fn default() -> Self {
        Delta::NONE
    }
}

impl Delta {
    /// No change (a null move).
    pub const NONE: Delta = Delta {
        removed: [PLACEHOLDER; MAX_CHANGES],
        added: [PLACEHOLDER; MAX_CHANGES],
        n_removed: 0,
        n_added: 0,
        hand: None,
    };

    /// Pieces taken off squares, in order.
    #[inline(always)]
    pub fn removed(&self) -> &[(Square, Piece)] {
        &self.removed[..self.n_removed as usize]
    }

    /// Pieces put on squares, in order.
    #[inline(always)]
    pub fn added(&self) -> &[(Square, Piece)] {
        &self.added[..self.n_added as usize]
    }

    /// A hand's change: (side, pieces before, pieces after).
    #[inline(always)]
    pub fn hand(&self) -> Option<(Color, u8, u8)> {
        self.hand
    }
}

impl MoveObserver for Delta {
    #[inline(always)]
    fn removed(&mut self, sq: Square, piece: Piece) {
        // No move of the three games removes more (the rules' tests check it).
        if let Some(slot) = self.removed.get_mut(self.n_removed as usize) {
            *slot = (sq, piece);
            self.n_removed += 1;
        }
    }

    #[inline(always)]
    fn added(&mut self, sq: Square, piece: Piece) {
        if let Some(slot) = self.added.get_mut(self.n_added as usize) {
            *slot = (sq, piece);
            self.n_added += 1;
        }
    }

    #[inline(always)]
    fn hand_changed(&mut self, color: Color, before: u8, after: u8) {
        self.hand = Some((color, before, after));
    }
}
