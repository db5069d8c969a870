//! Piece kinds and pieces.

use crate::Color;
use std::fmt;
use std::num::NonZeroU8;

/// A kind of piece. `Beast` is the Tensor Beast (`T`), `Man` the Chessence man (`M`).
///
/// ```
/// use tensorchess_rules::Role;
/// assert_eq!(Role::from_char('t'), Some(Role::Beast));
/// assert_eq!(Role::Beast.upper_char(), 'T');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
#[repr(u8)]
pub enum Role {
    /// A pawn (`P`).
    Pawn = 0,
    /// A knight (`N`).
    Knight = 1,
    /// A bishop (`B`).
    Bishop = 2,
    /// A rook (`R`).
    Rook = 3,
    /// A queen (`Q`).
    Queen = 4,
    /// A king (`K`).
    King = 5,
    /// The Tensor Beast (`T`).
    Beast = 6,
    /// The Chessence man (`M`).
    Man = 7,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 8] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Beast,
        Role::Man,
    ];

    /// 0..8: an index into per-role arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter (`p n b r q k t m`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Beast => 't',
            Role::Man => 'm',
        }
    }

    /// Upper-case letter, as in SAN.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a letter of either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            't' => Role::Beast,
            'm' => Role::Man,
            _ => return None,
        })
    }

    #[inline]
    pub(crate) const fn from_index(i: u8) -> Role {
        match i & 7 {
            0 => Role::Pawn,
            1 => Role::Knight,
            2 => Role::Bishop,
            3 => Role::Rook,
            4 => Role::Queen,
            5 => Role::King,
            6 => Role::Beast,
            _ => Role::Man,
        }
    }

    /// The name in lower case (`pawn`, `beast`, `man`).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Beast => "beast",
            Role::Man => "man",
        }
    }
}

/// A piece: a role of a colour, packed in one byte so `Option<Piece>` is one byte too.
///
/// ```
/// use tensorchess_rules::{Color, Piece, Role};
/// let p = Piece::new(Color::Black, Role::Beast);
/// assert_eq!(p.char(), 't');
/// assert_eq!(Piece::from_char('T'), Some(Piece::new(Color::White, Role::Beast)));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// The piece of `role` and `color`.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        // 1 + color * 8 + role is never zero.
        match NonZeroU8::new(1 + (color as u8) * 8 + role as u8) {
            Some(n) => Piece(n),
            None => unreachable!(),
        }
    }

    /// The side the piece belongs to.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0.get() > 8 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// What kind of piece it is.
    #[inline]
    pub const fn role(self) -> Role {
        Role::from_index((self.0.get() - 1) & 7)
    }

    /// Index 0..16 (colour * 8 + role), for tables keyed by piece.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }

    /// FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color() {
            Color::White => self.role().upper_char(),
            Color::Black => self.role().char(),
        }
    }

    /// The piece a FEN letter names (upper case for White).
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
