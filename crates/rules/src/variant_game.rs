//! Choosing a game at run time.
//!
//! Code that works for every game is written once, generic over
//! [`Variant`](crate::Variant) (or over any trait all three games implement,
//! such as the engine's `Evaluate`), and run for a [`VariantKind`] chosen at
//! run time with [`with_variant!`](crate::with_variant). A game whose kind is
//! only known at run time is held in a [`VariantGame`], whose methods answer
//! for any of the three, and [`with_game!`](crate::with_game) reaches the
//! concrete [`Game`] inside (after shakmaty's `VariantPosition`).

use crate::pgn::{PgnError, PgnGame, PgnResult, replay, write_pgn, write_pgn_with_result};
use crate::san::{SanError, parse_any};
use crate::{
    Chess, Chessence, Color, Game, Move, MoveList, Outcome, ParseFenError, Position, Tensor,
    VariantKind,
};

/// Runs an expression with a type alias bound to the game a [`VariantKind`]
/// names: `with_variant!(kind, V => expr)` expands to a `match` whose every
/// arm declares `type V = Tensor;` (or `Chess`, `Chessence`) and then
/// evaluates `expr`. Generic code (`foo::<V>()`) therefore runs with any
/// bound the three games meet: [`Variant`](crate::Variant) here, the
/// engine's `Evaluate` there. A trait-based dispatcher could only promise
/// the bounds the rules crate can name.
///
/// ```
/// use tensorchess_rules::{with_variant, Position, Variant, VariantKind};
///
/// fn start_moves<V: Variant>() -> usize {
///     Position::<V>::new().legal_moves().len()
/// }
///
/// let counts: Vec<usize> = VariantKind::ALL
///     .into_iter()
///     .map(|kind| with_variant!(kind, V => start_moves::<V>()))
///     .collect();
/// assert_eq!(counts[..2], [30, 20]); // Tensor Chess, chess
/// assert_eq!(with_variant!(VariantKind::Chessence, V => V::KIND), VariantKind::Chessence);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $V:ident => $body:expr) => {
        match $kind {
            $crate::VariantKind::Tensor => {
                type $V = $crate::Tensor;
                $body
            }
            $crate::VariantKind::Chess => {
                type $V = $crate::Chess;
                $body
            }
            $crate::VariantKind::Chessence => {
                type $V = $crate::Chessence;
                $body
            }
        }
    };
}

/// Runs an expression with a name bound to the concrete [`Game`] inside a
/// [`VariantGame`]: `with_game!(game, g => expr)`. Matching a reference
/// binds a reference (`&Game<V>` or `&mut Game<V>`). The form
/// `with_game!(game, g: V => expr)` also binds the type alias `V` to the
/// game, for code that names it (`V::KIND`, `foo::<V>(g)`).
///
/// ```
/// use tensorchess_rules::{with_game, Position, Variant, VariantGame, VariantKind};
///
/// let mut game = VariantGame::new(VariantKind::Chess);
/// with_game!(&mut game, g => g.push_str("e4").map(|_| ())).unwrap();
/// let moves = with_game!(&game, g => g.position().legal_moves().len());
/// assert_eq!(moves, 20);
/// let start = with_game!(&game, g: V => Position::<V>::new().fen() == g.start().fen());
/// assert!(start);
/// ```
#[macro_export]
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::VariantGame::Tensor($g) => $body,
            $crate::VariantGame::Chess($g) => $body,
            $crate::VariantGame::Chessence($g) => $body,
        }
    };
    ($game:expr, $g:ident : $V:ident => $body:expr) => {
        match $game {
            $crate::VariantGame::Tensor($g) => {
                type $V = $crate::Tensor;
                $body
            }
            $crate::VariantGame::Chess($g) => {
                type $V = $crate::Chess;
                $body
            }
            $crate::VariantGame::Chessence($g) => {
                type $V = $crate::Chessence;
                $body
            }
        }
    };
}

/// A game of Tensor Chess, chess or Chessence, chosen at run time.
///
/// ```
/// use tensorchess_rules::{Color, VariantGame, VariantKind};
/// let mut game = VariantGame::new(VariantKind::Tensor);
/// let m = game.push_str("Nd3").unwrap(); // SAN or move strings
/// assert_eq!(game.move_string(m), "c1d3");
/// assert_eq!((game.ply(), game.turn()), (1, Color::Black));
/// assert_eq!(game.pop(), Some(m));
/// assert_eq!(game.fen(), VariantKind::Tensor.start_fen());
/// ```
#[derive(Clone, Debug)]
pub enum VariantGame {
    /// A game of Tensor Chess.
    Tensor(Game<Tensor>),
    /// A game of orthodox chess.
    Chess(Game<Chess>),
    /// A game of Chessence.
    Chessence(Game<Chessence>),
}

impl From<Game<Tensor>> for VariantGame {
    fn from(g: Game<Tensor>) -> Self {
        VariantGame::Tensor(g)
    }
}

impl From<Game<Chess>> for VariantGame {
    fn from(g: Game<Chess>) -> Self {
        VariantGame::Chess(g)
    }
}

impl From<Game<Chessence>> for VariantGame {
    fn from(g: Game<Chessence>) -> Self {
        VariantGame::Chessence(g)
    }
}

impl VariantGame {
    /// A game of `kind` from its start position.
    pub fn new(kind: VariantKind) -> VariantGame {
        with_variant!(kind, V => Game::<V>::new().into())
    }

    /// A game of `kind` from the position a FEN gives.
    ///
    /// ```
    /// use tensorchess_rules::{VariantGame, VariantKind};
    /// let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    /// assert_eq!(VariantGame::from_fen(VariantKind::Chess, fen).unwrap().fen(), fen);
    /// assert!(VariantGame::from_fen(VariantKind::Tensor, fen).is_err()); // 8 files
    /// ```
    pub fn from_fen(kind: VariantKind, fen: &str) -> Result<VariantGame, ParseFenError> {
        with_variant!(kind, V => Ok(Game::from_position(Position::<V>::from_fen(fen)?).into()))
    }

    /// Replays a PGN game under the rules of `kind` (see [`PgnGame::variant`]
    /// for the game its tags name).
    pub fn from_pgn(kind: VariantKind, pgn: &PgnGame) -> Result<VariantGame, PgnError> {
        with_variant!(kind, V => Ok(replay::<V>(pgn)?.into()))
    }

    /// Which game this is.
    pub fn kind(&self) -> VariantKind {
        match self {
            VariantGame::Tensor(_) => VariantKind::Tensor,
            VariantGame::Chess(_) => VariantKind::Chess,
            VariantGame::Chessence(_) => VariantKind::Chessence,
        }
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        with_game!(self, g => g.position().fen())
    }

    /// The FEN of the start position.
    pub fn start_fen(&self) -> String {
        with_game!(self, g => g.start().fen())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        with_game!(self, g => g.position().turn())
    }

    /// Moves played from the start.
    pub fn ply(&self) -> usize {
        with_game!(self, g => g.moves().len())
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[Move] {
        with_game!(self, g => g.moves())
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> MoveList {
        with_game!(self, g => g.position().legal_moves())
    }

    /// Finds the legal move of the current position that a move string
    /// (`e2e4`, `c1e3>g5`, `M@c2`) or SAN (`Nf3`) names.
    pub fn parse_move(&self, text: &str) -> Result<Move, SanError> {
        with_game!(self, g => parse_any(g.position(), text))
    }

    /// The move string of a move legal in the current position.
    pub fn move_string(&self, m: Move) -> String {
        with_game!(self, g => g.position().move_string(m))
    }

    /// The SAN of a move legal in the current position.
    pub fn san(&self, m: Move) -> String {
        with_game!(self, g => g.position().san(m))
    }

    /// Plays a move that must be legal (from [`VariantGame::parse_move`] or
    /// [`VariantGame::legal_moves`]).
    pub fn push(&mut self, m: Move) {
        with_game!(self, g => g.push(m))
    }

    /// Parses and plays a move string or SAN.
    pub fn push_str(&mut self, text: &str) -> Result<Move, SanError> {
        with_game!(self, g => g.push_str(text))
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        with_game!(self, g => g.pop())
    }

    /// The end of the game by the rules (mate, stalemate, repetition, ...).
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    /// The game as PGN with these tags; `outcome` overrides the rules' result
    /// (a resignation, a loss on time).
    pub fn pgn(&self, tags: &[(String, String)], outcome: Option<Outcome>) -> String {
        with_game!(self, g => write_pgn(g, tags, outcome))
    }

    /// The game as PGN with these tags and `result`, whatever the rules say
    /// (a game imported with its result).
    pub fn pgn_with_result(&self, tags: &[(String, String)], result: PgnResult) -> String {
        with_game!(self, g => write_pgn_with_result(g, tags, result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_pgn;

    #[test]
    fn every_game_plays_parses_and_writes_pgn() {
        for kind in VariantKind::ALL {
            let mut game = VariantGame::new(kind);
            assert_eq!(game.kind(), kind);
            assert_eq!(game.fen(), kind.start_fen());
            let first = game.legal_moves()[0];
            let text = game.move_string(first);
            assert_eq!(game.parse_move(&text), Ok(first));
            game.push(first);
            assert_eq!(game.ply(), 1);
            assert_eq!(game.turn(), Color::Black);
            assert_eq!(game.start_fen(), kind.start_fen());
            let pgn = parse_pgn(&game.pgn(&[], None)).unwrap();
            let back = VariantGame::from_pgn(kind, &pgn[0]).unwrap();
            assert_eq!(back.moves(), game.moves());
            assert_eq!(back.fen(), game.fen());
            assert_eq!(game.pop(), Some(first));
            assert_eq!(game.pop(), None);
            assert!(game.outcome().is_none());
        }
    }

    #[test]
    fn a_bad_move_or_fen_is_an_error() {
        let game = VariantGame::new(VariantKind::Chessence);
        assert!(matches!(game.parse_move("zz9"), Err(SanError::Syntax(_))));
        assert!(matches!(
            game.parse_move("f1f2"),
            Err(SanError::Illegal(..))
        ));
        assert!(VariantGame::from_fen(VariantKind::Chessence, "8/8 w - - 0 1").is_err());
    }
}
