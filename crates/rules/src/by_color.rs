//! One value for each side: `ByColor<T>` holds White's and Black's, read
//! and written by [`Color`] (`clocks[Color::Black]`), so that code written
//! once serves both sides instead of a `white_*`/`black_*` pair.

use crate::Color;
use std::ops::{Index, IndexMut};

/// A value for each side, White's first.
///
/// ```
/// use tensorchess_rules::{ByColor, Color};
/// let mut left = ByColor::new(60_000, 60_000);
/// left[Color::Black] -= 1_500;
/// assert_eq!(left.black, 58_500);
/// assert_eq!(left.map(|ms| ms / 1000).into_array(), [60, 58]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// White's value and Black's.
    pub const fn new(white: T, black: T) -> ByColor<T> {
        ByColor { white, black }
    }

    /// Each side's value, made by `f`.
    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }

    /// Each value turned by `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }

    /// References to both values.
    pub fn as_ref(&self) -> ByColor<&T> {
        ByColor {
            white: &self.white,
            black: &self.black,
        }
    }

    /// White's and Black's, as an array.
    pub fn into_array(self) -> [T; 2] {
        [self.white, self.black]
    }

    /// From an array, White's first.
    pub fn from_array([white, black]: [T; 2]) -> ByColor<T> {
        ByColor { white, black }
    }

    /// The sides and their values, White's first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        [(Color::White, &self.white), (Color::Black, &self.black)].into_iter()
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_has_its_own_value() {
        let mut b = ByColor::from_fn(|c| if c == Color::White { 1 } else { 2 });
        assert_eq!((b[Color::White], b[Color::Black]), (1, 2));
        b[Color::White] += 10;
        assert_eq!(b.into_array(), [11, 2]);
        assert_eq!(ByColor::from_array([3, 4]), ByColor::new(3, 4));
        let sides: Vec<_> = b.iter().map(|(c, v)| (c, *v)).collect();
        assert_eq!(sides, [(Color::White, 11), (Color::Black, 2)]);
        assert_eq!(b.as_ref().map(|v| v * 2), ByColor::new(22, 4));
    }
}
