//! What a move changes on the board, told to an observer as it happens.
//!
//! [`Position::play_observed`](crate::Position::play_observed) reports each
//! piece a move takes off a square and puts on one, and each change of a
//! hand, so that an incrementally updated evaluation (the engine's network
//! accumulator) follows the board without comparing whole positions. A
//! move changes only a few squares: a plain move or capture two or three,
//! castling and a propel four (two pieces move), a beast capture three, a
//! drop one square and one hand. The unit observer `()` ignores everything:
//! [`Position::play`](crate::Position::play) makes moves through it, and the
//! calls compile to nothing, so perft and the search pay nothing for the
//! hook.

use crate::{Color, Piece, Square};

/// Receives the board changes of a move, in the order they are made.
///
/// Replaying them on the position before the move gives the position after
/// it (as far as placement and hands go):
///
/// ```
/// use tensorchess_rules::{Color, MoveObserver, Piece, Position, Square, Tensor};
/// #[derive(Default)]
/// struct Log(Vec<String>);
/// impl MoveObserver for Log {
///     fn removed(&mut self, sq: Square, p: Piece) {
///         self.0.push(format!("-{}{}", p.char(), sq.index()));
///     }
///     fn added(&mut self, sq: Square, p: Piece) {
///         self.0.push(format!("+{}{}", p.char(), sq.index()));
///     }
/// }
/// let pos = Position::<Tensor>::new();
/// let m = pos.parse_move("e2e4").unwrap();
/// let mut log = Log::default();
/// let after = pos.play_observed(m, &mut log);
/// assert_eq!(log.0, ["-P14", "+P34"]);
/// assert_eq!(after, pos.play(m));
/// ```
pub trait MoveObserver {
    /// Piece `piece` was taken off `sq` (moved away or captured).
    #[inline(always)]
    fn removed(&mut self, _sq: Square, _piece: Piece) {}
    /// Piece `piece` was put on `sq`.
    #[inline(always)]
    fn added(&mut self, _sq: Square, _piece: Piece) {}
    /// `color`'s hand went from `before` to `after` pieces (a drop).
    #[inline(always)]
    fn hand_changed(&mut self, _color: Color, _before: u8, _after: u8) {}
}

/// Observes nothing: moves made through it cost what they did without the hook.
impl MoveObserver for () {}
