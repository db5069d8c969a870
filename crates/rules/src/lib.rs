//! The rules of Tensor Chess, orthodox chess and Chessence.
//!
//! Pure rules, no I/O: boards and bitboards, legal move generation (exact,
//! checked by perft), FEN, move strings, SAN, PGN and game outcomes. The
//! binding rules are in the repository's `docs/rules.md`.
//!
//! ```
//! use tensorchess_rules::{Position, Tensor};
//! let pos = Position::<Tensor>::new();
//! let m = pos.parse_move("c1e3").unwrap_err(); // the bishop is blocked
//! # let _ = m;
//! let after = pos.play(pos.parse_move("e2e4").unwrap());
//! assert_eq!(after.fen(), "rtnbqkbntr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RTNBQKBNTR b KQkq - 0 1");
//! ```

pub mod attacks;
mod bitboard;
mod by_color;
mod color;
mod fen;
mod game;
mod illegal;
mod movegen;
mod moves;
mod observer;
mod outcome;
mod path;
pub mod perft;
pub mod pgn;
mod position;
mod role;
pub mod san;
mod square;
pub mod uci;
mod variant;
mod variant_game;
mod zobrist;

pub use bitboard::{Bitboard, Word};
pub use by_color::ByColor;
pub use color::Color;
pub use fen::{FenField, ParseFenError};
pub use game::Game;
pub use illegal::IllegalReason;
pub use movegen::GenType;
pub use moves::{Move, MoveKind, MoveList};
pub use observer::MoveObserver;
pub use outcome::{EndReason, Outcome};
pub use path::{MovePath, Route};
pub use perft::{perft, perft_divide, perft_stoppable};
pub use position::{CastlingRights, MenPowers, Position};
pub use role::{Piece, Role};
pub use square::{File, Geometry, Rank, Square, SquareName};
pub use variant::{
    CastlingOption, CastlingRule, CastlingSide, Chess, Chessence, ParseVariantError, Tensor,
    Variant, VariantKind,
};
pub use variant_game::VariantGame;
