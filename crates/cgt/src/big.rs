//! Dyadic rationals of any size, `m / 2^k` with `m` a big integer.
//!
//! The arena of canonical games keeps its numbers small ([`crate::Dyadic`]):
//! the canonical form of the integer `n` is a chain of `n` games. Numbers of
//! any size are kept apart, as a [`BigDyadic`] added to a game of the arena
//! (see [`crate::Value`]); this type is their arithmetic.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::dyadic::Dyadic;

/// A dyadic rational `numerator / 2^exponent`, kept normalised (the exponent is
/// 0 or the numerator is odd), of any size.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BigDyadic {
    numerator: BigInt,
    exponent: u64,
}

impl BigDyadic {
    /// `numerator / 2^exponent`, normalised.
    pub fn new(numerator: BigInt, exponent: u64) -> BigDyadic {
        let mut d = BigDyadic {
            numerator,
            exponent,
        };
        if d.numerator.is_zero() {
            d.exponent = 0;
        } else {
            let shift = d.numerator.trailing_zeros().unwrap_or(0).min(d.exponent);
            d.numerator >>= shift;
            d.exponent -= shift;
        }
        d
    }

    /// The number 0.
    pub fn zero() -> BigDyadic {
        BigDyadic::default()
    }

    /// The integer `n`.
    pub fn integer(n: impl Into<BigInt>) -> BigDyadic {
        BigDyadic::new(n.into(), 0)
    }

    /// The numerator of the normalised fraction.
    pub fn numerator(&self) -> &BigInt {
        &self.numerator
    }

    /// `k` such that the normalised denominator is `2^k`.
    pub fn exponent(&self) -> u64 {
        self.exponent
    }

    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        self.numerator.is_zero()
    }

    /// Whether it is an integer.
    pub fn is_integer(&self) -> bool {
        self.exponent == 0
    }

    /// `-1`, `0` or `1`.
    pub fn signum(&self) -> i32 {
        if self.numerator.is_positive() {
            1
        } else if self.numerator.is_negative() {
            -1
        } else {
            0
        }
    }

    /// The same number as a small [`Dyadic`], when it fits (`|numerator| < 2^62`
    /// and exponent at most 62).
    pub fn to_dyadic(&self) -> Option<Dyadic> {
        let n = self.numerator.to_i64()?;
        (n.unsigned_abs() < 1 << 62 && self.exponent <= 62)
            .then(|| Dyadic::new(n, self.exponent as u32))
    }

    /// Largest integer `<= self`.
    pub fn floor(&self) -> BigInt {
        // `>>` on a negative BigInt rounds towards minus infinity.
        &self.numerator >> self.exponent
    }

    /// Smallest integer `>= self`.
    pub fn ceil(&self) -> BigInt {
        -((-&self.numerator) >> self.exponent)
    }

    /// `self · n`.
    pub fn mul_int(&self, n: &BigInt) -> BigDyadic {
        BigDyadic::new(&self.numerator * n, self.exponent)
    }

    /// `self / 2^k`.
    pub fn div_pow2(&self, k: u64) -> BigDyadic {
        BigDyadic::new(self.numerator.clone(), self.exponent + k)
    }

    /// The absolute value.
    pub fn abs(&self) -> BigDyadic {
        BigDyadic {
            numerator: self.numerator.abs(),
            exponent: self.exponent,
        }
    }

    /// Bits of the integer part of `|self|`, plus one (0 for 0).
    pub fn magnitude_bits(&self) -> u64 {
        (self.numerator.abs() >> self.exponent).bits() + 1
    }

    fn scaled(&self, exponent: u64) -> BigInt {
        &self.numerator << (exponent - self.exponent)
    }

    /// The simplest number strictly between `lo` and `hi` (`None`: unbounded on
    /// that side): the integer of least absolute value if one fits, otherwise
    /// the fraction with the smallest denominator. `None` when the interval is
    /// empty.
    pub fn simplest_between(lo: Option<&BigDyadic>, hi: Option<&BigDyadic>) -> Option<BigDyadic> {
        if let (Some(l), Some(h)) = (lo, hi) {
            if l >= h {
                return None;
            }
        }
        let lo_neg = lo.is_none_or(|l| l.signum() < 0);
        let hi_pos = hi.is_none_or(|h| h.signum() > 0);
        if lo_neg && hi_pos {
            return Some(BigDyadic::zero());
        }
        if !lo_neg {
            let l = lo.expect("bounded below");
            let candidate = BigDyadic::integer(l.floor() + 1);
            if hi.is_none_or(|h| &candidate < h) {
                return Some(candidate);
            }
            let h = hi.expect("bounded above");
            // The interval is shorter than 1: the smallest k with a multiple of
            // 2^-k strictly inside; at most the finer of the two exponents.
            for k in 1..=l.exponent.max(h.exponent) + 1 {
                let e = l.exponent.max(k);
                let n = (l.scaled(e) >> (e - k)) + 1;
                let c = BigDyadic::new(n, k);
                if &c < h {
                    return Some(c);
                }
            }
            unreachable!("an open interval of dyadics holds a dyadic of the finer exponent");
        }
        BigDyadic::simplest_between(hi.map(|h| -h).as_ref(), lo.map(|l| -l).as_ref()).map(|d| -d)
    }
}

impl From<Dyadic> for BigDyadic {
    fn from(d: Dyadic) -> BigDyadic {
        BigDyadic::new(BigInt::from(d.numerator()), u64::from(d.exponent()))
    }
}

impl From<i64> for BigDyadic {
    fn from(n: i64) -> BigDyadic {
        BigDyadic::integer(n)
    }
}

impl Ord for BigDyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let e = self.exponent.max(other.exponent);
        self.scaled(e).cmp(&other.scaled(e))
    }
}

impl PartialOrd for BigDyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for &BigDyadic {
    type Output = BigDyadic;
    fn add(self, rhs: &BigDyadic) -> BigDyadic {
        let e = self.exponent.max(rhs.exponent);
        BigDyadic::new(self.scaled(e) + rhs.scaled(e), e)
    }
}

impl Add for BigDyadic {
    type Output = BigDyadic;
    fn add(self, rhs: BigDyadic) -> BigDyadic {
        &self + &rhs
    }
}

impl Sub for &BigDyadic {
    type Output = BigDyadic;
    fn sub(self, rhs: &BigDyadic) -> BigDyadic {
        self + &(-rhs)
    }
}

impl Sub for BigDyadic {
    type Output = BigDyadic;
    fn sub(self, rhs: BigDyadic) -> BigDyadic {
        &self - &rhs
    }
}

impl Neg for &BigDyadic {
    type Output = BigDyadic;
    fn neg(self) -> BigDyadic {
        BigDyadic {
            numerator: -&self.numerator,
            exponent: self.exponent,
        }
    }
}

impl Neg for BigDyadic {
    type Output = BigDyadic;
    fn neg(self) -> BigDyadic {
        -&self
    }
}

impl fmt::Display for BigDyadic {
    /// `3`, `-2147483649`, `1/2`, `-3/8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponent == 0 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, BigInt::one() << self.exponent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(n: i64, e: u64) -> BigDyadic {
        BigDyadic::new(BigInt::from(n), e)
    }

    #[test]
    fn arithmetic_and_text() {
        assert_eq!(b(6, 2), b(3, 1));
        assert_eq!((b(1, 1) + b(1, 2)).to_string(), "3/4");
        assert_eq!(b(-3, 1).floor(), BigInt::from(-2));
        assert_eq!(b(-3, 1).ceil(), BigInt::from(-1));
        let big: BigInt = "-1823437481924".parse().unwrap();
        assert_eq!(BigDyadic::integer(big).to_string(), "-1823437481924");
        assert_eq!(b(5, 3).to_dyadic(), Some(Dyadic::new(5, 3)));
        assert_eq!(b(1, 100).to_dyadic(), None);
    }

    #[test]
    fn simplest_agrees_with_the_small_numbers() {
        let values: Vec<Dyadic> = (-12..=12).map(|n| Dyadic::new(n, 2)).collect();
        for &lo in &values {
            for &hi in &values {
                for (l, h) in [(Some(lo), Some(hi)), (Some(lo), None), (None, Some(hi))] {
                    let small = Dyadic::simplest_between(l, h);
                    let big = BigDyadic::simplest_between(
                        l.map(BigDyadic::from).as_ref(),
                        h.map(BigDyadic::from).as_ref(),
                    );
                    assert_eq!(big, small.map(BigDyadic::from), "{l:?} {h:?}");
                }
            }
        }
        let huge = BigDyadic::integer(BigInt::from(1u64 << 62) * BigInt::from(1u64 << 62));
        let next = &huge + &BigDyadic::integer(1);
        assert_eq!(
            BigDyadic::simplest_between(Some(&huge), Some(&next)),
            Some(&huge + &b(1, 1))
        );
    }
}
