//! Edge weights for the blossom algorithm: plain `i64` (the arena), or
//! [`Wide`], a 512-bit signed integer for the Dutch system, whose weights
//! pack a dozen criteria side by side, each in bits of its own.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// What the blossom algorithm needs of a weight: integers that add,
/// subtract, compare and halve exactly (it halves only even numbers).
pub(crate) trait Weight:
    Copy + Ord + Add<Output = Self> + Sub<Output = Self> + AddAssign + SubAssign
{
    /// Zero.
    const ZERO: Self;
    /// Half of an even number.
    fn halve(self) -> Self;
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    fn halve(self) -> i64 {
        self / 2
    }
}

/// Limbs of a [`Wide`].
const LIMBS: usize = 8;

/// A signed 512-bit integer in two's complement, least significant limb
/// first. Weights use at most [`Wide::BITS`] bits, so that sums of a few
/// of them never overflow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Wide([u64; LIMBS]);

impl Wide {
    /// The most bits a weight may use.
    pub(crate) const BITS: u32 = 500;

    /// `value` as a wide integer.
    pub(crate) fn from_i64(value: i64) -> Wide {
        let fill = if value < 0 { u64::MAX } else { 0 };
        let mut limbs = [fill; LIMBS];
        limbs[0] = value as u64;
        Wide(limbs)
    }

    /// `2^bits` (`bits` < 511).
    pub(crate) fn power_of_two(bits: u32) -> Wide {
        let mut limbs = [0; LIMBS];
        limbs[(bits / 64) as usize] = 1 << (bits % 64);
        Wide(limbs)
    }

    /// The value shifted left by `bits` (< 64 × 8); bits shifted out are lost.
    pub(crate) fn shl(self, bits: u32) -> Wide {
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        let mut out = [0u64; LIMBS];
        for i in (words..LIMBS).rev() {
            let from = i - words;
            out[i] = self.0[from] << rest;
            if rest > 0 && from > 0 {
                out[i] |= self.0[from - 1] >> (64 - rest);
            }
        }
        Wide(out)
    }

    fn negative(&self) -> bool {
        self.0[LIMBS - 1] >> 63 == 1
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Wide) -> Ordering {
        match (self.negative(), other.negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Same sign: two's complement orders as unsigned.
            _ => self.0.iter().rev().cmp(other.0.iter().rev()),
        }
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Wide) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Wide {
    type Output = Wide;
    fn add(self, other: Wide) -> Wide {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl Sub for Wide {
    type Output = Wide;
    fn sub(self, other: Wide) -> Wide {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl AddAssign for Wide {
    fn add_assign(&mut self, other: Wide) {
        *self = *self + other;
    }
}

impl SubAssign for Wide {
    fn sub_assign(&mut self, other: Wide) {
        *self = *self - other;
    }
}

impl Weight for Wide {
    const ZERO: Wide = Wide([0; LIMBS]);
    /// An arithmetic shift right by one.
    fn halve(self) -> Wide {
        let mut out = [0u64; LIMBS];
        for (i, limb) in out.iter_mut().enumerate() {
            let high = if i + 1 < LIMBS {
                self.0[i + 1] << 63
            } else if self.negative() {
                1 << 63
            } else {
                0
            };
            *limb = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_arithmetic_agrees_with_i128_where_both_reach() {
        let values: [i128; 9] = [
            0,
            1,
            -1,
            7,
            -8,
            1 << 62,
            -(1 << 63),
            (1 << 64) + 5,
            -(1 << 100),
        ];
        // The high half sign-extended and moved up, the low half put in.
        let wide = |v: i128| {
            let mut w = Wide::from_i64((v >> 64) as i64).shl(64);
            w.0[0] = v as u64;
            w
        };
        for &a in &values {
            for &b in &values {
                assert_eq!(wide(a) + wide(b), wide(a + b), "{a} + {b}");
                assert_eq!(wide(a) - wide(b), wide(a - b), "{a} - {b}");
                assert_eq!(wide(a).cmp(&wide(b)), a.cmp(&b), "{a} vs {b}");
            }
            if a % 2 == 0 {
                assert_eq!(wide(a).halve(), wide(a / 2), "{a} / 2");
            }
        }
        assert_eq!(
            Wide::from_i64(3).shl(200),
            Wide::power_of_two(200) + Wide::power_of_two(201)
        );
        assert!(Wide::power_of_two(499) > Wide::power_of_two(498) + Wide::power_of_two(497));
    }
}
