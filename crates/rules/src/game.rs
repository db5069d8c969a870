//! A game: a start position and the moves played, with repetition.

use crate::{EndReason, Move, Outcome, Position, Variant};

/// A game in progress or finished by the rules.
///
/// ```
/// use tensorchess_rules::{EndReason, Game, Chess};
/// let mut game = Game::<Chess>::new();
/// for _ in 0..2 {
///     for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
///         game.push_str(m).unwrap();
///     }
/// }
/// assert_eq!(game.outcome().map(|o| o.reason()), Some(EndReason::Repetition));
/// ```
#[derive(Clone, Debug)]
pub struct Game<V: Variant> {
    start: Position<V>,
    moves: Vec<Move>,
    /// Positions after each move, the start first.
    positions: Vec<Position<V>>,
}

impl<V: Variant> Default for Game<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> Game<V> {
    /// A game from the start position.
    pub fn new() -> Self {
        Self::from_position(Position::new())
    }

    /// A game from `start`.
    pub fn from_position(start: Position<V>) -> Self {
        Game {
            start,
            moves: Vec::new(),
            positions: vec![start],
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position<V> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position<V> {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Positions from the start to now.
    pub fn positions(&self) -> &[Position<V>] {
        &self.positions
    }

    /// Plays a move that must be legal.
    pub fn push(&mut self, m: Move) {
        let next = self.position().play(m);
        self.moves.push(m);
        self.positions.push(next);
    }

    /// Parses and plays a move string or SAN.
    pub fn push_str(&mut self, text: &str) -> Result<Move, crate::san::SanError> {
        let m = crate::san::parse_any(self.position(), text)?;
        self.push(m);
        Ok(m)
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has occurred (same placement, side,
    /// rights, legal en-passant square and hands).
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        let window = now.halfmove_clock() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .step_by(2)
            .filter(|p| p.hash() == now.hash() && p.epd() == now.epd())
            .count()
    }

    /// The end of the game by the rules: mate, stalemate, no moves, dead
    /// material, 100 plies or threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        match pos.outcome() {
            Some(o @ Outcome::Decisive { .. }) => Some(o),
            Some(o) if o.reason() != EndReason::HundredPlies => Some(o),
            other => {
                if self.repetitions() >= 3 {
                    Some(Outcome::Draw {
                        reason: EndReason::Repetition,
                    })
                } else {
                    other
                }
            }
        }
    }
}
