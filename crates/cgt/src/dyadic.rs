//! Dyadic rationals `m / 2^k`, the values of short numbers.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// A dyadic rational `numerator / 2^exponent`, always kept normalised:
/// either `exponent == 0` or the numerator is odd.
///
/// Arithmetic panics on `i64` overflow (games met in practice stay far away
/// from that bound).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Dyadic {
    numerator: i64,
    exponent: u32,
}

impl Dyadic {
    /// The number 0.
    pub const ZERO: Dyadic = Dyadic {
        numerator: 0,
        exponent: 0,
    };
    /// The number 1.
    pub const ONE: Dyadic = Dyadic {
        numerator: 1,
        exponent: 0,
    };

    /// `numerator / 2^exponent`, normalised.
    pub fn new(numerator: i64, exponent: u32) -> Dyadic {
        let mut d = Dyadic {
            numerator,
            exponent,
        };
        d.normalise();
        d
    }

    /// The integer `n`.
    pub const fn integer(n: i64) -> Dyadic {
        Dyadic {
            numerator: n,
            exponent: 0,
        }
    }

    fn normalise(&mut self) {
        if self.numerator == 0 {
            self.exponent = 0;
            return;
        }
        let shift = self.numerator.trailing_zeros().min(self.exponent);
        self.numerator >>= shift;
        self.exponent -= shift;
    }

    /// Numerator of the normalised fraction.
    pub fn numerator(self) -> i64 {
        self.numerator
    }

    /// `k` such that the normalised denominator is `2^k`.
    pub fn exponent(self) -> u32 {
        self.exponent
    }

    /// Denominator `2^k` of the normalised fraction.
    pub fn denominator(self) -> i64 {
        1i64.checked_shl(self.exponent)
            .filter(|d| *d > 0)
            .expect("dyadic denominator overflow")
    }

    /// Whether the value is an integer.
    pub fn is_integer(self) -> bool {
        self.exponent == 0
    }

    /// Largest integer `<= self`.
    pub fn floor(self) -> i64 {
        self.numerator >> self.exponent
    }

    /// Smallest integer `>= self`.
    pub fn ceil(self) -> i64 {
        -((-self.numerator) >> self.exponent)
    }

    /// `self / 2^k`.
    pub fn div_pow2(self, k: u32) -> Dyadic {
        Dyadic::new(self.numerator, self.exponent + k)
    }

    /// `self * n`.
    pub fn mul_int(self, n: i64) -> Dyadic {
        Dyadic::new(
            self.numerator.checked_mul(n).expect("dyadic overflow"),
            self.exponent,
        )
    }

    fn scaled_numerator(self, exponent: u32) -> i128 {
        (self.numerator as i128) << (exponent - self.exponent)
    }

    /// The simplest number strictly between `lo` and `hi` (`None` means
    /// unbounded on that side), in the sense of Conway's simplicity theorem:
    /// an integer of least absolute value if one fits, otherwise the fraction
    /// with the smallest denominator. Returns `None` when the interval is empty.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Option<Dyadic> {
        if let (Some(l), Some(h)) = (lo, hi) {
            if l >= h {
                return None;
            }
        }
        let lo_neg = lo.is_none_or(|l| l < Dyadic::ZERO);
        let hi_pos = hi.is_none_or(|h| h > Dyadic::ZERO);
        if lo_neg && hi_pos {
            return Some(Dyadic::ZERO);
        }
        if !lo_neg {
            // 0 <= lo < result.
            let l = lo.expect("bounded below");
            let candidate = Dyadic::integer(l.floor() + 1);
            if hi.is_none_or(|h| candidate < h) {
                return Some(candidate);
            }
            let h = hi.expect("bounded above");
            let mut k = 1;
            loop {
                // smallest multiple of 2^-k strictly above l
                let scaled = l.scaled_numerator(l.exponent.max(k));
                let shift = l.exponent.max(k) - k;
                let n = (scaled >> shift) + 1;
                let c = Dyadic::new(i64::try_from(n).expect("dyadic overflow"), k);
                if c < h {
                    return Some(c);
                }
                k += 1;
            }
        }
        // hi <= 0: mirror.
        Dyadic::simplest_between(hi.map(|h| -h), lo.map(|l| -l)).map(|d| -d)
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let e = self.exponent.max(other.exponent);
        self.scaled_numerator(e).cmp(&other.scaled_numerator(e))
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, rhs: Dyadic) -> Dyadic {
        let e = self.exponent.max(rhs.exponent);
        let n = self.scaled_numerator(e) + rhs.scaled_numerator(e);
        Dyadic::new(i64::try_from(n).expect("dyadic overflow"), e)
    }
}

impl Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, rhs: Dyadic) -> Dyadic {
        self + (-rhs)
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            numerator: -self.numerator,
            exponent: self.exponent,
        }
    }
}

impl From<i64> for Dyadic {
    fn from(n: i64) -> Dyadic {
        Dyadic::integer(n)
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-2`, `1/2`, `-3/8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponent == 0 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, e: u32) -> Dyadic {
        Dyadic::new(n, e)
    }

    #[test]
    fn normalisation_and_order() {
        assert_eq!(d(2, 1), Dyadic::ONE);
        assert_eq!(d(6, 2), d(3, 1));
        assert!(d(1, 1) < d(3, 2));
        assert!(d(-1, 1) < Dyadic::ZERO);
        assert_eq!(d(-3, 1).floor(), -2);
        assert_eq!(d(-3, 1).ceil(), -1);
        assert_eq!(d(3, 1).floor(), 1);
        assert_eq!(d(3, 1).ceil(), 2);
        assert_eq!(d(1, 1) + d(1, 2), d(3, 2));
        assert_eq!(format!("{}", d(-3, 3)), "-3/8");
    }

    #[test]
    fn simplest() {
        let s = Dyadic::simplest_between;
        assert_eq!(s(None, None), Some(Dyadic::ZERO));
        assert_eq!(s(Some(Dyadic::ZERO), None), Some(Dyadic::ONE));
        assert_eq!(s(Some(d(3, 1)), None), Some(d(2, 0)));
        assert_eq!(s(Some(Dyadic::ZERO), Some(Dyadic::ONE)), Some(d(1, 1)));
        assert_eq!(s(Some(d(1, 1)), Some(Dyadic::ONE)), Some(d(3, 2)));
        assert_eq!(s(Some(d(1, 2)), Some(d(7, 3))), Some(d(1, 1)));
        assert_eq!(s(None, Some(d(-1, 1))), Some(d(-1, 0)));
        assert_eq!(s(Some(d(-1, 0)), Some(d(-1, 1))), Some(d(-3, 2)));
        assert_eq!(s(Some(d(1, 0)), Some(d(1, 0))), None);
    }
}
