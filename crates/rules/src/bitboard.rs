//! Bitboards: sets of squares, one bit per square.
//!
//! Orthodox chess and Chessence (54 squares) fit in a `u64`; Tensor Chess
//! (80 squares) needs a `u128`. [`Bitboard`] is generic over the [`Word`]
//! so that the 8×8 game pays nothing for the bigger board.

use crate::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// An unsigned machine word used as a bit set (`u64` or `u128`).
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit set.
    const ONE: Self;
    /// Width in bits.
    const BITS: u32;
    /// Bits set.
    fn count_ones(self) -> u32;
    /// Zero bits below the lowest set bit.
    fn trailing_zeros(self) -> u32;
    /// Zero bits above the highest set bit.
    fn leading_zeros(self) -> u32;
    /// Subtraction modulo 2^BITS.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// Addition modulo 2^BITS.
    fn wrapping_add(self, rhs: Self) -> Self;
    /// Negation modulo 2^BITS.
    fn wrapping_neg(self) -> Self;
    /// Truncating conversion from the widest word, for tables built as `u128`.
    fn from_u128(x: u128) -> Self;
    /// Widening conversion to `u128`.
    fn to_u128(self) -> u128;
}

macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn wrapping_sub(self, rhs: Self) -> Self {
                <$t>::wrapping_sub(self, rhs)
            }
            #[inline(always)]
            fn wrapping_add(self, rhs: Self) -> Self {
                <$t>::wrapping_add(self, rhs)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}
impl_word!(u64);
impl_word!(u128);

/// A set of squares.
///
/// ```
/// use tensorchess_rules::{Bitboard, Square};
/// let a = Square::new(3);
/// let b = Square::new(70);
/// let set = Bitboard::<u128>::from_square(a) | Bitboard::from_square(b);
/// assert!(set.contains(b));
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![a, b]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: Word>(pub W);

impl<W: Word> Bitboard<W> {
    /// No square.
    pub const EMPTY: Bitboard<W> = Bitboard(W::ZERO);

    /// The set of one square.
    #[inline(always)]
    pub fn from_square(sq: Square) -> Self {
        Bitboard(W::ONE << sq.index() as u32)
    }

    /// The squares of a `u128` bit set (truncated to the word).
    #[inline(always)]
    pub fn from_u128(x: u128) -> Self {
        Bitboard(W::from_u128(x))
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index() as u32) & W::ONE != W::ZERO
    }

    /// Whether the set has no square.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// Whether the set has a square.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }

    /// How many squares the set has.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        (self.0 & self.0.wrapping_sub(W::ONE)) != W::ZERO
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub fn with(self, sq: Square) -> Self {
        Bitboard(self.0 | W::ONE << sq.index() as u32)
    }

    /// The set without `sq`.
    #[inline(always)]
    pub fn without(self, sq: Square) -> Self {
        Bitboard(self.0 & !(W::ONE << sq.index() as u32))
    }

    /// Adds `sq` if it is missing, removes it if present.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 = self.0 ^ (W::ONE << sq.index() as u32);
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn add(&mut self, sq: Square) {
        self.0 = self.0 | (W::ONE << sq.index() as u32);
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn discard(&mut self, sq: Square) {
        self.0 = self.0 & !(W::ONE << sq.index() as u32);
    }

    /// The lowest square.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square.
    #[inline(always)]
    pub fn last(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square::new((W::BITS - 1 - self.0.leading_zeros()) as u8))
        }
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            let sq = Square::new(self.0.trailing_zeros() as u8);
            self.0 = self.0 & self.0.wrapping_sub(W::ONE);
            Some(sq)
        }
    }

    /// The only square, when there is exactly one.
    #[inline]
    pub fn single_square(self) -> Option<Square> {
        if self.any() && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// Whether every square of the set is in `other`.
    #[inline(always)]
    pub fn is_subset(self, other: Self) -> bool {
        self.0 & !other.0 == W::ZERO
    }

    /// Whether the two sets share a square.
    #[inline(always)]
    pub fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != W::ZERO
    }
}

impl<W: Word> std::fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard({:#x})", self.0.to_u128())
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<W: Word> $tr for Bitboard<W> {
            type Output = Bitboard<W>;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: Word> $atr for Bitboard<W> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: Word> Not for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}

/// Set difference.
impl<W: Word> Sub for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Bitboard(self.0 & !rhs.0)
    }
}

impl<W: Word> BitAnd<Square> for Bitboard<W> {
    type Output = bool;
    #[inline(always)]
    fn bitand(self, sq: Square) -> bool {
        self.contains(sq)
    }
}

/// Iterates the squares of a bitboard from the lowest.
pub struct IntoIter<W: Word>(Bitboard<W>);

impl<W: Word> Iterator for IntoIter<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_first()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<W: Word> ExactSizeIterator for IntoIter<W> {}

impl<W: Word> IntoIterator for Bitboard<W> {
    type Item = Square;
    type IntoIter = IntoIter<W>;
    #[inline(always)]
    fn into_iter(self) -> IntoIter<W> {
        IntoIter(self)
    }
}

impl<W: Word> FromIterator<Square> for Bitboard<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.add(sq);
        }
        bb
    }
}
