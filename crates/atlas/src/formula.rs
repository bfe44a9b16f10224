//! Closed forms written once, read two ways: computed, or printed as a formula
//! for an SMT solver.
//!
//! A closed form such as [`crate::five::closed_form`] is a Boolean combination of
//! comparisons of linear forms in the counts of a pair of sides (`a + b − p ≥
//! 3`, `r − c` odd, …). It is written generically over a [`Count`] type, with
//! `&`, `|`, `!` for the connectives and [`Truth::select`] for a case split,
//! never with Rust's `if` on a count. Two types implement it:
//!
//! * `i64`, whose truth is `bool`: the closed form computes the answer for given
//!   counts (what `loses_moving_first` and `chopsticks verify` call);
//! * [`Term`], whose truth is [`Formula`]: the same source, run once on
//!   variables, prints itself as an SMT-LIB term over the integers (linear
//!   integer arithmetic with `mod 2`), which [`crate::smt`] turns into a proof
//!   obligation a solver decides for **all** counts at once.
//!
//! So the function that is proved is the function that is computed: there is no
//! second transcription of the rules to keep in step.
//!
//! Terms are interned in a per-thread table and are `Copy`, so formulas read as
//! arithmetic (`a + b - p`). The table only grows; a proof obligation needs a
//! few thousand entries.

use std::cell::RefCell;
use std::ops::{Add, BitAnd, BitOr, Not, Sub};

/// A truth value: `bool`, or a [`Formula`].
pub trait Truth: Copy + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self> {
    /// A constant.
    fn constant(value: bool) -> Self;

    /// `then()` where `self` holds, `otherwise()` where it does not: a case
    /// split. Computed, only the branch taken is evaluated; printed, both are.
    fn select(self, then: impl FnOnce() -> Self, otherwise: impl FnOnce() -> Self) -> Self;

    /// `self & rest()`; computed, `rest` is evaluated only when `self` holds
    /// (printed, the same `and` as `&`).
    fn and_then(self, rest: impl FnOnce() -> Self) -> Self {
        self & rest()
    }

    /// `self | rest()`; computed, `rest` is evaluated only when `self` fails
    /// (printed, the same `or` as `|`).
    fn or_else(self, rest: impl FnOnce() -> Self) -> Self {
        self | rest()
    }
}

/// An integer count or a linear form in the counts: `i64`, or a [`Term`].
pub trait Count: Copy + Add<Output = Self> + Sub<Output = Self> + From<i32> {
    /// What a comparison of counts gives.
    type Truth: Truth;

    /// `self = other`.
    fn is(self, other: impl Into<Self>) -> Self::Truth;
    /// `self ≥ other`.
    fn at_least(self, other: impl Into<Self>) -> Self::Truth;
    /// `self ≤ other`.
    fn at_most(self, other: impl Into<Self>) -> Self::Truth;
    /// Whether `self` is odd (negative numbers too: `−1` is odd).
    fn odd(self) -> Self::Truth;
    /// 1 where `truth` holds, else 0.
    fn indicator(truth: Self::Truth) -> Self;

    /// A case split on which values a side holds: `rule(values)`, where `values`
    /// has bit `i` set when `side[i]` is positive (counts are never negative).
    /// Computed, it reads the counts once and calls `rule` once; printed, it is a
    /// tree of `ite`s on each count being 0, with `rule` at each of the `2^N`
    /// leaves.
    fn by_values_held<const N: usize>(
        side: [Self; N],
        rule: impl Fn(u8) -> Self::Truth,
    ) -> Self::Truth {
        fn split<C: Count>(
            side: &[C],
            i: usize,
            values: u8,
            rule: &impl Fn(u8) -> C::Truth,
        ) -> C::Truth {
            match side.get(i) {
                None => rule(values),
                Some(count) => count.is(0).select(
                    || split(side, i + 1, values, rule),
                    || split(side, i + 1, values | 1 << i, rule),
                ),
            }
        }
        split(&side, 0, 0, &rule)
    }

    /// `self > other`.
    fn above(self, other: impl Into<Self>) -> Self::Truth {
        !self.at_most(other)
    }
    /// `self < other`.
    fn below(self, other: impl Into<Self>) -> Self::Truth {
        !self.at_least(other)
    }
    /// Whether `self` is even.
    fn even(self) -> Self::Truth {
        !self.odd()
    }
}

impl Truth for bool {
    fn constant(value: bool) -> bool {
        value
    }

    fn select(self, then: impl FnOnce() -> bool, otherwise: impl FnOnce() -> bool) -> bool {
        if self {
            then()
        } else {
            otherwise()
        }
    }

    fn and_then(self, rest: impl FnOnce() -> bool) -> bool {
        self && rest()
    }

    fn or_else(self, rest: impl FnOnce() -> bool) -> bool {
        self || rest()
    }
}

impl Count for i64 {
    type Truth = bool;

    fn is(self, other: impl Into<i64>) -> bool {
        self == other.into()
    }
    fn at_least(self, other: impl Into<i64>) -> bool {
        self >= other.into()
    }
    fn at_most(self, other: impl Into<i64>) -> bool {
        self <= other.into()
    }
    fn odd(self) -> bool {
        self.rem_euclid(2) == 1
    }
    fn indicator(truth: bool) -> i64 {
        truth as i64
    }
    fn by_values_held<const N: usize>(side: [i64; N], rule: impl Fn(u8) -> bool) -> bool {
        rule(values_held(side))
    }
}

/// The values a side holds, as a bit set: bit `i` when `side[i]` is positive
/// (what [`Count::by_values_held`] passes its rule, computed).
pub fn values_held<const N: usize>(side: [i64; N]) -> u8 {
    (0..N)
        .filter(|&i| side[i] > 0)
        .fold(0, |values, i| values | 1 << i)
}

thread_local! {
    /// The text of every term and formula built on this thread, by index.
    static TEXTS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn intern(text: String) -> usize {
    TEXTS.with(|t| {
        let mut t = t.borrow_mut();
        t.push(text);
        t.len() - 1
    })
}

fn text_of(index: usize) -> String {
    TEXTS.with(|t| t.borrow()[index].clone())
}

/// An integer term of SMT-LIB (a variable, a constant, a sum, an `ite`).
#[derive(Clone, Copy, Debug)]
pub struct Term(usize);

/// A Boolean term of SMT-LIB.
#[derive(Clone, Copy, Debug)]
pub struct Formula(usize);

impl Term {
    /// The integer variable (or constant, or defined function's parameter)
    /// `name`.
    pub fn var(name: &str) -> Term {
        Term(intern(name.to_string()))
    }

    /// The SMT-LIB text.
    pub fn text(self) -> String {
        text_of(self.0)
    }
}

impl Formula {
    /// The application `(predicate arguments…)` of a Boolean function, such as
    /// one made by `define-fun`.
    pub fn apply(predicate: &str, arguments: &[Term]) -> Formula {
        Formula(intern(application(predicate, arguments)))
    }

    /// `self ⇔ other`.
    pub fn iff(self, other: Formula) -> Formula {
        binary_formula("=", self, other)
    }

    /// The SMT-LIB text.
    pub fn text(self) -> String {
        text_of(self.0)
    }
}

fn application(function: &str, arguments: &[Term]) -> String {
    let mut s = format!("({function}");
    for a in arguments {
        s.push(' ');
        s.push_str(&a.text());
    }
    s.push(')');
    s
}

fn binary_formula(op: &str, x: Formula, y: Formula) -> Formula {
    Formula(intern(format!("({op} {} {})", x.text(), y.text())))
}

fn comparison(op: &str, x: Term, y: Term) -> Formula {
    Formula(intern(format!("({op} {} {})", x.text(), y.text())))
}

impl From<i32> for Term {
    /// A constant; SMT-LIB writes a negative one as `(- k)`.
    fn from(value: i32) -> Term {
        let text = if value < 0 {
            format!("(- {})", value.unsigned_abs())
        } else {
            value.to_string()
        };
        Term(intern(text))
    }
}

impl Add for Term {
    type Output = Term;
    fn add(self, other: Term) -> Term {
        Term(intern(format!("(+ {} {})", self.text(), other.text())))
    }
}

impl Sub for Term {
    type Output = Term;
    fn sub(self, other: Term) -> Term {
        Term(intern(format!("(- {} {})", self.text(), other.text())))
    }
}

impl BitAnd for Formula {
    type Output = Formula;
    fn bitand(self, other: Formula) -> Formula {
        binary_formula("and", self, other)
    }
}

impl BitOr for Formula {
    type Output = Formula;
    fn bitor(self, other: Formula) -> Formula {
        binary_formula("or", self, other)
    }
}

impl Not for Formula {
    type Output = Formula;
    fn not(self) -> Formula {
        Formula(intern(format!("(not {})", self.text())))
    }
}

impl Truth for Formula {
    fn constant(value: bool) -> Formula {
        Formula(intern(value.to_string()))
    }

    fn select(
        self,
        then: impl FnOnce() -> Formula,
        otherwise: impl FnOnce() -> Formula,
    ) -> Formula {
        let (t, o) = (then(), otherwise());
        Formula(intern(format!(
            "(ite {} {} {})",
            self.text(),
            t.text(),
            o.text()
        )))
    }
}

impl Count for Term {
    type Truth = Formula;

    fn is(self, other: impl Into<Term>) -> Formula {
        comparison("=", self, other.into())
    }
    fn at_least(self, other: impl Into<Term>) -> Formula {
        comparison(">=", self, other.into())
    }
    fn at_most(self, other: impl Into<Term>) -> Formula {
        comparison("<=", self, other.into())
    }
    fn odd(self) -> Formula {
        Formula(intern(format!("(= (mod {} 2) 1)", self.text())))
    }
    fn indicator(truth: Formula) -> Term {
        Term(intern(format!("(ite {} 1 0)", truth.text())))
    }
}
