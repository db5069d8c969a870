//! The three games, as data.
//!
//! Each game is a type implementing [`Variant`]: its board, pieces and rules
//! are associated constants with defaults (those of orthodox chess), so move
//! generation and search ask the game (`V::BEASTS`, `V::NO_MOVE_LOSES`)
//! rather than matching on its name. Real code differs only where behaviour
//! does: beasts (Tensor Chess) and men and drops (Chessence).

use crate::attacks::{CHESS_TABLES, CHESSENCE_TABLES, TENSOR_TABLES, Tables};
use crate::perft::perft_entries;
use crate::{Color, Geometry, Piece, Position, Role, Word};
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// The side of the board a castling goes to.
///
/// ```
/// use tensorchess_rules::CastlingSide;
/// assert_eq!(CastlingSide::KingSide.index(), 0);
/// assert_eq!(CastlingSide::from_char('q'), Some(CastlingSide::QueenSide));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingSide {
    /// Toward the last file (`K`/`k` in a FEN, `O-O` in SAN).
    KingSide = 0,
    /// Toward the a-file (`Q`/`q` in a FEN, `O-O-O` in SAN).
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first (the order of a FEN's `KQkq`).
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// 0 for the king side, 1 for the queen side: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of this side for White (upper case) or Black.
    pub const fn char(self, color: Color) -> char {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => 'K',
            (CastlingSide::QueenSide, Color::White) => 'Q',
            (CastlingSide::KingSide, Color::Black) => 'k',
            (CastlingSide::QueenSide, Color::Black) => 'q',
        }
    }

    /// The side a FEN castling letter names, of either case.
    pub fn from_char(c: char) -> Option<CastlingSide> {
        match c.to_ascii_lowercase() {
            'k' => Some(CastlingSide::KingSide),
            'q' => Some(CastlingSide::QueenSide),
            _ => None,
        }
    }
}

/// One castling of a side: the files the king and rook end on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CastlingOption {
    /// Which rook castles (and so which right it needs).
    pub side: CastlingSide,
    /// The file the king ends on.
    pub king_to: u8,
    /// The file the rook ends on.
    pub rook_to: u8,
}

/// Where kings and rooks start, and the castlings they may make.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// The king's starting file.
    pub king_file: u8,
    /// Rook files by side (index [`CastlingSide::index`]): `[last file, a-file]`.
    pub rook_files: [u8; 2],
    /// Every castling the game allows, each side's in order.
    pub options: &'static [CastlingOption],
}

impl CastlingRule {
    /// The starting file of the rook that castles to `side`.
    #[inline]
    pub const fn rook_file(&self, side: CastlingSide) -> u8 {
        self.rook_files[side.index()]
    }
}

/// A game's rules and board.
pub trait Variant: Copy + Clone + fmt::Debug + Default + Send + Sync + 'static {
    /// Bit-set word big enough for the board.
    type Word: Word;
    /// One slot per bit index.
    type Mailbox: Copy
        + AsRef<[Option<Piece>]>
        + AsMut<[Option<Piece>]>
        + fmt::Debug
        + PartialEq
        + Eq
        + Hash
        + Send
        + Sync;

    /// The game, as a value.
    const KIND: VariantKind;
    /// The board's size and holes.
    const GEOMETRY: Geometry;
    /// A mailbox with no piece.
    const EMPTY_MAILBOX: Self::Mailbox;
    /// The start position's FEN.
    const START_FEN: &'static str;

    /// Piece letters allowed on the board.
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// What a pawn may promote to.
    const PROMOTIONS: &'static [Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    /// Where kings and rooks start and how they castle (`None`: no castling).
    const CASTLING: Option<CastlingRule> = Some(CastlingRule {
        king_file: 4,
        rook_files: [7, 0],
        options: &[
            CastlingOption {
                side: CastlingSide::KingSide,
                king_to: 6,
                rook_to: 5,
            },
            CastlingOption {
                side: CastlingSide::QueenSide,
                king_to: 2,
                rook_to: 3,
            },
        ],
    });
    /// SAN writes castling as `O-O`/`O-O-O` (else as the king's move).
    const SAN_CASTLING_OO: bool = true;
    /// Tensor beasts: pass-through, ricochet, propel, hop chains.
    const BEASTS: bool = false;
    /// Chessence men, whose powers come from their neighbours.
    const MEN: bool = false;
    /// Pieces in hand may be dropped.
    const DROPS: bool = false;
    /// Where each side may drop (bit sets by colour).
    const DROP_SQUARES: [u128; 2] = [0, 0];
    /// The role that can be held in hand.
    const DROP_ROLE: Role = Role::Man;
    /// Kings move (in Chessence they never do).
    const KING_MOVES: bool = true;
    /// A side with no legal move loses (else: checkmate wins, stalemate draws).
    const NO_MOVE_LOSES: bool = false;
    /// Draw when neither side can ever mate (orthodox and Tensor rules).
    const DEAD_MATERIAL_DRAW: bool = true;

    /// The game's attack tables.
    fn tables() -> &'static Tables<Self::Word>;

    /// [`crate::perft()`] in this game. Each game's is compiled in this
    /// crate, optimised as the rules are, whichever crate counts: a generic
    /// count would be compiled again in each crate that names it.
    fn perft(pos: &Position<Self>, depth: u32) -> u64;

    /// [`crate::perft_stoppable()`] in this game, compiled here likewise.
    fn perft_stoppable(pos: &Position<Self>, depth: u32, stop: &AtomicBool) -> Option<u64>;
}

/// Orthodox chess.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chess;

/// Tensor Chess: 10×8, with Tensor Beasts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tensor;

/// Chessence: 6×9 with holes, fixed kings, men and drops.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chessence;

impl Variant for Chess {
    type Word = u64;
    type Mailbox = [Option<Piece>; 64];
    const KIND: VariantKind = VariantKind::Chess;
    const GEOMETRY: Geometry = Geometry::CHESS;
    const EMPTY_MAILBOX: Self::Mailbox = [None; 64];
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    #[inline(always)]
    fn tables() -> &'static Tables<u64> {
        &CHESS_TABLES
    }
    perft_entries!();
}

impl Variant for Tensor {
    type Word = u128;
    type Mailbox = [Option<Piece>; 80];
    const KIND: VariantKind = VariantKind::Tensor;
    const GEOMETRY: Geometry = Geometry::TENSOR;
    const EMPTY_MAILBOX: Self::Mailbox = [None; 80];
    const START_FEN: &'static str =
        "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1";
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Beast,
    ];
    const PROMOTIONS: &'static [Role] = &[
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Beast,
    ];
    const CASTLING: Option<CastlingRule> = Some(CastlingRule {
        king_file: 5,
        rook_files: [9, 0],
        options: &[
            CastlingOption {
                side: CastlingSide::KingSide,
                king_to: 7,
                rook_to: 6,
            },
            CastlingOption {
                side: CastlingSide::KingSide,
                king_to: 8,
                rook_to: 7,
            },
            CastlingOption {
                side: CastlingSide::QueenSide,
                king_to: 2,
                rook_to: 3,
            },
            CastlingOption {
                side: CastlingSide::QueenSide,
                king_to: 1,
                rook_to: 2,
            },
        ],
    });
    const SAN_CASTLING_OO: bool = false;
    const BEASTS: bool = true;
    #[inline(always)]
    fn tables() -> &'static Tables<u128> {
        &TENSOR_TABLES
    }
    perft_entries!();
}

/// White's drop squares d2 d3 e1 e2 e3 f2; Black's a8 b7 b8 b9 c7 c8.
const fn chessence_squares(list: &[(u8, u8)]) -> u128 {
    let mut bits = 0u128;
    let mut i = 0;
    while i < list.len() {
        bits |= 1u128 << (list[i].1 * 6 + list[i].0);
        i += 1;
    }
    bits
}

impl Variant for Chessence {
    type Word = u64;
    type Mailbox = [Option<Piece>; 54];
    const KIND: VariantKind = VariantKind::Chessence;
    const GEOMETRY: Geometry = Geometry::CHESSENCE;
    const EMPTY_MAILBOX: Self::Mailbox = [None; 54];
    const START_FEN: &'static str =
        "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1";
    const ROLES: &'static [Role] = &[Role::King, Role::Man];
    const PROMOTIONS: &'static [Role] = &[];
    const CASTLING: Option<CastlingRule> = None;
    const MEN: bool = true;
    const DROPS: bool = true;
    const DROP_SQUARES: [u128; 2] = [
        chessence_squares(&[(3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (5, 1)]),
        chessence_squares(&[(0, 7), (1, 6), (1, 7), (1, 8), (2, 6), (2, 7)]),
    ];
    const KING_MOVES: bool = false;
    const NO_MOVE_LOSES: bool = true;
    const DEAD_MATERIAL_DRAW: bool = false;
    #[inline(always)]
    fn tables() -> &'static Tables<u64> {
        &CHESSENCE_TABLES
    }
    perft_entries!();
}

/// The game, as a value: for command lines, protocols and storage.
///
/// ```
/// use tensorchess_rules::VariantKind;
/// let v: VariantKind = "tensor".parse().unwrap();
/// assert_eq!(v, VariantKind::Tensor);
/// assert_eq!(VariantKind::Chessence.to_string(), "chessence");
/// assert!("xiangqi".parse::<VariantKind>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum VariantKind {
    /// Tensor Chess: 10×8, with Tensor Beasts.
    #[default]
    Tensor,
    /// Orthodox chess.
    Chess,
    /// Chessence: 6×9 with holes, fixed kings, men and drops.
    Chessence,
}

impl VariantKind {
    /// The three games, in menu order.
    pub const ALL: [VariantKind; 3] = [
        VariantKind::Tensor,
        VariantKind::Chess,
        VariantKind::Chessence,
    ];

    /// Command-line and UCI name.
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::Tensor => "tensor",
            VariantKind::Chess => "chess",
            VariantKind::Chessence => "chessence",
        }
    }

    /// The PGN `Variant` tag value (`None` for orthodox chess).
    pub const fn pgn_name(self) -> Option<&'static str> {
        match self {
            VariantKind::Tensor => Some("Tensor"),
            VariantKind::Chess => None,
            VariantKind::Chessence => Some("Chessence"),
        }
    }

    /// A name for people.
    pub const fn title(self) -> &'static str {
        match self {
            VariantKind::Tensor => "Tensor Chess",
            VariantKind::Chess => "Chess",
            VariantKind::Chessence => "Chessence",
        }
    }

    /// The start position's FEN.
    pub const fn start_fen(self) -> &'static str {
        match self {
            VariantKind::Tensor => Tensor::START_FEN,
            VariantKind::Chess => Chess::START_FEN,
            VariantKind::Chessence => Chessence::START_FEN,
        }
    }

    /// The board's size and holes.
    pub const fn geometry(self) -> Geometry {
        match self {
            VariantKind::Tensor => Geometry::TENSOR,
            VariantKind::Chess => Geometry::CHESS,
            VariantKind::Chessence => Geometry::CHESSENCE,
        }
    }

    /// Parses a PGN `Variant` tag value (case-insensitive; "Standard" and the like mean chess).
    pub fn from_pgn_name(s: &str) -> Option<VariantKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tensor" | "tensor chess" | "tensorchess" => Some(VariantKind::Tensor),
            "chessence" => Some(VariantKind::Chessence),
            "" | "standard" | "chess" | "normal" | "orthodox" | "from position" => {
                Some(VariantKind::Chess)
            }
            _ => None,
        }
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown game name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (expected tensor, chess or chessence)")]
pub struct ParseVariantError(pub String);

impl FromStr for VariantKind {
    type Err = ParseVariantError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "tensor" => Ok(VariantKind::Tensor),
            "chess" | "standard" => Ok(VariantKind::Chess),
            "chessence" => Ok(VariantKind::Chessence),
            _ => Err(ParseVariantError(s.to_string())),
        }
    }
}
