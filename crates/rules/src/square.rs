//! Squares, files, ranks and board geometries.
//!
//! A [`Square`] is a bit index into the board's bitboard: `rank * files + file`.
//! Its meaning depends on the board, so naming and parsing go through the
//! [`Geometry`] of the game (10×8, 8×8 or 6×9 with holes).

use std::fmt;

/// A square, as the index of its bit in a bitboard of the game's geometry.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index` (must be below 128).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 128);
        Square(index)
    }

    /// 0..128: an index into per-square arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The bit index as a byte.
    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }
}

/// A file (column), 0 = `a`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(pub u8);

impl File {
    /// The file's letter (`a` for file 0).
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    /// The file a letter names.
    pub fn from_char(c: char) -> Option<File> {
        if c.is_ascii_lowercase() && c <= 'p' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }
}

/// A rank (row), 0 = the first rank, White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(pub u8);

/// The shape of a board: its size and the squares that do not exist.
///
/// ```
/// use tensorchess_rules::Geometry;
/// let g = Geometry::TENSOR;
/// let sq = g.parse_square("j8").unwrap();
/// assert_eq!(sq.index(), 79);
/// assert_eq!(g.square_name(sq).to_string(), "j8");
/// assert!(Geometry::CHESS.parse_square("j8").is_none());
/// assert!(Geometry::CHESSENCE.parse_square("a2").is_none()); // a hole
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Files, at most 16.
    pub files: u8,
    /// Ranks, at most 16.
    pub ranks: u8,
    /// Bit set of squares that do not exist (Chessence).
    pub holes: u128,
}

impl Geometry {
    /// Orthodox chess: 8×8.
    pub const CHESS: Geometry = Geometry {
        files: 8,
        ranks: 8,
        holes: 0,
    };
    /// Tensor Chess: 10×8.
    pub const TENSOR: Geometry = Geometry {
        files: 10,
        ranks: 8,
        holes: 0,
    };
    /// 6×9 without a2, b3, b5, c6, d4, e5, e7, f8.
    pub const CHESSENCE: Geometry = Geometry {
        files: 6,
        ranks: 9,
        holes: (1 << 6)        // a2
            | (1 << (2 * 6 + 1))  // b3
            | (1 << (4 * 6 + 1))  // b5
            | (1 << (5 * 6 + 2))  // c6
            | (1 << (3 * 6 + 3))  // d4
            | (1 << (4 * 6 + 4))  // e5
            | (1 << (6 * 6 + 4))  // e7
            | (1 << (7 * 6 + 5)), // f8
    };

    /// Number of bit positions (files × ranks), holes included.
    #[inline]
    pub const fn size(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The file of a square.
    #[inline]
    pub const fn file_of(&self, sq: Square) -> File {
        File(sq.0 % self.files)
    }

    /// The rank of a square.
    #[inline]
    pub const fn rank_of(&self, sq: Square) -> Rank {
        Rank(sq.0 / self.files)
    }

    /// The square at `file`, `rank`, if it is on the board and exists.
    pub const fn square(&self, file: File, rank: Rank) -> Option<Square> {
        if file.0 >= self.files || rank.0 >= self.ranks {
            return None;
        }
        let idx = rank.0 * self.files + file.0;
        if self.holes >> idx & 1 == 1 {
            return None;
        }
        Some(Square(idx))
    }

    /// Whether the bit index names an existing square.
    pub const fn exists(&self, sq: Square) -> bool {
        (sq.0 as usize) < self.size() && self.holes >> sq.0 & 1 == 0
    }

    /// Parses `a1`…; `None` when off the board or a hole.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if rest.starts_with('0') {
            return None;
        }
        let rank: u8 = rest.parse().ok()?;
        self.square(file, Rank(rank.checked_sub(1)?))
    }

    /// A displayable name such as `e4`.
    pub const fn square_name(&self, sq: Square) -> SquareName {
        SquareName {
            file: self.file_of(sq),
            rank: self.rank_of(sq),
        }
    }

    /// All existing squares, from a1 upward.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.size() as u8)
            .map(Square)
            .filter(move |s| self.exists(*s))
    }
}

/// The printed name of a square (`e4`), made by [`Geometry::square_name`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareName {
    /// The file.
    pub file: File,
    /// The rank.
    pub rank: Rank,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file.char(), self.rank.0 + 1)
    }
}
