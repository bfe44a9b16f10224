//! Exact rational numbers, for the arithmetic of numbers written in an
//! expression (`5 - 3 / 4 * 6 - 2`, `1/3`).
//!
//! CGSuite divides and multiplies numbers with the usual precedence, and keeps a
//! quotient whose denominator is not a power of 2 (`1/3`) as a rational number,
//! which is not a short game. Here the numbers of an expression made only of
//! numbers, `+`, `-`, `*` and `/` are computed exactly as rationals; a dyadic
//! result is a game (a number) like any other, a result that is not dyadic is
//! the answer itself ([`crate::Answer::Rational`]), and in a game's context an
//! error that says why.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use crate::big::BigDyadic;

/// `numerator / denominator` in lowest terms, the denominator positive.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    numerator: BigInt,
    denominator: BigInt,
}

impl Rational {
    /// `numerator / denominator` in lowest terms; `None` when the denominator is 0.
    pub fn new(numerator: BigInt, denominator: BigInt) -> Option<Rational> {
        if denominator.is_zero() {
            return None;
        }
        let g = numerator.gcd(&denominator);
        let (mut n, mut d) = (numerator / &g, denominator / &g);
        if d.is_negative() {
            n = -n;
            d = -d;
        }
        Some(Rational {
            numerator: n,
            denominator: d,
        })
    }

    /// The dyadic number `x`.
    pub fn from_dyadic(x: &BigDyadic) -> Rational {
        Rational::new(x.numerator().clone(), BigInt::one() << x.exponent())
            .expect("a power of two is not zero")
    }

    pub fn numerator(&self) -> &BigInt {
        &self.numerator
    }

    pub fn denominator(&self) -> &BigInt {
        &self.denominator
    }

    /// The bits of the numerator and denominator together (to bound the work).
    pub fn bits(&self) -> u64 {
        self.numerator.bits() + self.denominator.bits()
    }

    /// The number as a dyadic, when its denominator is a power of 2.
    pub fn to_dyadic(&self) -> Option<BigDyadic> {
        let d = self.denominator.magnitude();
        if (d & (d - 1u32)).is_zero() {
            Some(BigDyadic::new(self.numerator.clone(), d.bits() - 1))
        } else {
            None
        }
    }

    pub fn neg(&self) -> Rational {
        Rational {
            numerator: -self.numerator.clone(),
            denominator: self.denominator.clone(),
        }
    }

    pub fn add(&self, other: &Rational) -> Rational {
        Rational::new(
            &self.numerator * &other.denominator + &other.numerator * &self.denominator,
            &self.denominator * &other.denominator,
        )
        .expect("denominators are positive")
    }

    pub fn mul(&self, other: &Rational) -> Rational {
        Rational::new(
            &self.numerator * &other.numerator,
            &self.denominator * &other.denominator,
        )
        .expect("denominators are positive")
    }

    /// `self / other`; `None` when `other` is 0.
    pub fn div(&self, other: &Rational) -> Option<Rational> {
        Rational::new(
            &self.numerator * &other.denominator,
            &self.denominator * &other.numerator,
        )
    }

    pub fn is_zero(&self) -> bool {
        self.numerator.sign() == Sign::NoSign
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Rational) -> Ordering {
        (&self.numerator * &other.denominator).cmp(&(&other.numerator * &self.denominator))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Rational) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// As CGSuite prints it: `-3/2`, `1/3`, `5`.
impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator.is_one() {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n.into(), d.into()).unwrap()
    }

    #[test]
    fn arithmetic_in_lowest_terms() {
        assert_eq!(r(2, -4), r(-1, 2));
        assert_eq!(r(1, 3).add(&r(1, 6)).to_string(), "1/2");
        assert_eq!(r(3, 4).mul(&r(6, 1)).to_string(), "9/2");
        assert_eq!(r(1, 3).div(&r(2, 3)).unwrap().to_string(), "1/2");
        assert!(r(1, 3).div(&r(0, 5)).is_none());
        assert_eq!(r(-3, 2).to_dyadic().unwrap().to_string(), "-3/2");
        assert!(r(1, 3).to_dyadic().is_none());
        assert_eq!(r(4, 2).to_string(), "2");
        assert!(r(1, 3) < r(1, 2) && r(-1, 2) < r(1, 3));
    }
}
