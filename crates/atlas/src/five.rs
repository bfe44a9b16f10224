//! Simple Chopsticks with five-fingered hands (`n = 5`): which side with as many
//! hands as its opponent loses moving first, a closed form in the counts, proved
//! (docs/FIVE-FINGERS.md).
//!
//! By Theorem 4 and Lemma 1 (see [`crate::levels`]) every outcome follows from the
//! pairs of equal-sized sides where the mover loses. Write the mover's side as
//! `1^a 2^b 3^c 4^d 5^e` and the opponent's as `1^p 2^q 3^r 4^s 5^t`, both with
//! `h ≥ 1` hands. The mover **loses moving first** exactly when:
//!
//! * the opponent holds a 5 (`t ≥ 1`): never (proved for every `n`,
//!   docs/EVERY-N.md);
//! * the opponent is `4^h`: `a` is odd (proved for every `n`, docs/EVERY-N.md);
//! * the opponent is `3^h`: `b ≥ 1` and `a + b` is odd (proved for every `n ≥ 4`:
//!   the `(n − 2)^h` row, docs/EVERY-N.md, Theorem C);
//! * the opponent is `2^h`: `b + c` is odd;
//! * the opponent is `1^h`: unless `c = 0` and `a` is even and (`d = 0`, or
//!   `a = b = 0` and `d` is even), or `a = 1` and `c = 1` and `d = 0`, or `a = 1`,
//!   `b = c = 0` and `d = 1`;
//! * the opponent holds 2s and 3s, both: `b` is odd, and `a = 0` and `c < r`, or
//!   `c = r − 1`, or `b = 1`, `d = e = 0` and `r − c` is odd and at least 3;
//! * the opponent holds 1s and 4s, both: `a = 1`, `e ≥ 1`, and `b + e ≥ p` or
//!   (`b ≥ 1` and `d ≥ 1`);
//! * the opponent holds 1s and 3s, both: [`ones_and_threes_lost`], five cases by
//!   `a` in `x = a + b − p` and `k = r − c − d`;
//! * the opponent holds 1s and 2s, both: [`ones_and_twos_lost`], a case split by
//!   her 1s and 3s;
//! * the opponent holds 1s, 2s and 3s (all present):
//!   [`ones_twos_and_threes_lost`], a case split by her 1s and his 1s against her
//!   1s and 5s, in `r − c` and its differences;
//! * any other opponent (4s beside 2s or 3s, …): never.
//!
//! The proof: [`closed_form`] is written once over a [`Count`], so the same code
//! computes the answer (on `i64`) and prints itself as a formula of linear
//! integer arithmetic (on [`crate::formula::Term`]); [`crate::smt`] writes the
//! statement "it satisfies the game's level recursion at every pair", and the SMT
//! solvers z3 and cvc5 each prove it for all counts
//! (`crates/atlas/tests/five_fingers_proof.rs`; the query is
//! docs/proofs/five-fingers.smt2). The rows against a 5, against `4^h` and
//! against `3^h` were proved first, by hand, for every `n` (docs/EVERY-N.md). The
//! closed form is also checked against the level atlas on every pair with at
//! most 35 hands a side (`chopsticks verify --only five-fingers --hands-n5 35`).

use crate::equal_hands;
use crate::formula::{self, Count, Truth};
use chopsticks_cgt::Outcome;

/// Counts of the values 1, 2, 3, 4 and 5 on one side.
pub type Counts5 = [u64; 5];

/// The values an opponent holds, as a bit set (`1 << (v − 1)` for each value `v`).
pub fn family(other: Counts5) -> u8 {
    formula::values_held(other.map(|v| v as i64))
}

/// The nine families of opponents that a mover with as many hands can lose to:
/// every single value below 5, and 1s with 2s, 1s with 3s, 1s with 4s, 2s with
/// 3s, 1s with 2s and 3s (each value present).
pub const LOSABLE_FAMILIES: [u8; 9] = [
    0b00001, 0b00010, 0b00100, 0b01000, 0b00011, 0b00101, 0b01001, 0b00110, 0b00111,
];

/// Whether the side `mover` loses moving first against `other`, which has as
/// many hands (at least one), by the closed form ([`closed_form`] computed).
pub fn loses_moving_first(mover: Counts5, other: Counts5) -> bool {
    closed_form(mover.map(|v| v as i64), other.map(|v| v as i64))
}

/// The closed form, written once over any [`Count`]: on `i64` it computes
/// whether `mover` loses moving first against `other` (as many hands, at least
/// one); on [`crate::formula::Term`] it prints itself for the proof
/// ([`crate::smt`], docs/FIVE-FINGERS.md, "Proof").
pub fn closed_form<C: Count>(mover: [C; 5], other: [C; 5]) -> C::Truth {
    C::by_values_held(other, |values| against(values, mover, other))
}

/// The closed form against an opponent who holds exactly the values of the bit
/// set `values` (`1 << (v − 1)` for each value `v` he holds; see [`family`]).
fn against<C: Count>(values: u8, mover: [C; 5], other: [C; 5]) -> C::Truth {
    let [a, b, c, d, e] = mover;
    let [p, _, r, _, _] = other;
    match values {
        0b01000 => a.odd(),
        0b00100 => b.at_least(1) & (a + b).odd(),
        0b00010 => (b + c).odd(),
        0b00001 => against_ones(mover),
        0b00110 => {
            b.odd()
                & ((a.is(0) & c.below(r))
                    | (c + 1.into()).is(r)
                    | (b.is(1) & d.is(0) & e.is(0) & r.at_least(c + 3.into()) & (r - c).odd()))
        }
        0b01001 => {
            a.is(1) & e.at_least(1) & ((b + e).at_least(p) | (b.at_least(1) & d.at_least(1)))
        }
        0b00101 => ones_and_threes_lost(mover, other),
        0b00011 => ones_and_twos_lost(mover, other),
        0b00111 => ones_twos_and_threes_lost(mover, other),
        // A 5 (Theorem A), 4s beside other values, 3s beside 4s, …: never.
        _ => C::Truth::constant(false),
    }
}

/// Against `1^h`: lost unless `c = 0`, `a` even and (`d = 0`, or `a = b = 0`
/// and `d` even); or `a = 1`, `c = 1`, `d = 0`; or `a = 1`, `b = c = 0`, `d = 1`.
fn against_ones<C: Count>(mover: [C; 5]) -> C::Truth {
    let [a, b, c, d, _] = mover;
    let wins = (c.is(0) & a.even() & (d.is(0) | (a.is(0) & b.is(0) & d.even())))
        | (a.is(1) & c.is(1) & d.is(0))
        | (a.is(1) & b.is(0) & c.is(0) & d.is(1));
    !wins
}

/// Whether the mover loses moving first against 1s and 3s (both present), with
/// `x = a + b − p` (her 1s and 2s against his 1s) and `k = r − c − d` (his 3s
/// against her 3s and 4s; with equal hand counts `k = x + e`):
///
/// * `a = 0`: when `e = 0`, `k ≥ 1` and `k` is odd;
/// * `a` even (at least 2): when `p ≥ a + e` and `x ≥ 3`, or `e = 0`, `x = 1`
///   and `b ≥ 2`;
/// * `a = b = 1`: when `k = 1`, or `d ≥ 1`, `e ≥ 1` and `k ≤ 0`;
/// * `a = 1`, `b ≠ 1`: when `p ≥ 1 + e`, `x ≥ 2`, and `p > 1 + e` or `k` odd;
/// * `a` odd (at least 3): when `p ≥ a + e` and `x ≥ 2`, but not when `e = 0`,
///   `p = a` and `b = 2`.
///
/// Proved with the rest of the closed form (docs/FIVE-FINGERS.md, "Proof").
pub fn ones_and_threes_lost<C: Count>(mover: [C; 5], other: [C; 5]) -> C::Truth {
    let [a, b, c, d, e] = mover;
    let [p, _, r, _, _] = other;
    let x = a + b - p;
    let k = r - c - d;
    a.is(0).select(
        || e.is(0) & k.at_least(1) & k.odd(),
        || {
            a.even().select(
                || (p.at_least(a + e) & x.at_least(3)) | (e.is(0) & x.is(1) & b.at_least(2)),
                || {
                    (a.is(1) & b.is(1)).select(
                        || k.is(1) | (d.at_least(1) & e.at_least(1) & k.at_most(0)),
                        || {
                            a.is(1).select(
                                || p.above(e) & x.at_least(2) & (p.above(e + 1.into()) | k.odd()),
                                || {
                                    p.at_least(a + e)
                                        & x.at_least(2)
                                        & !(e.is(0) & p.is(a) & b.is(2))
                                },
                            )
                        },
                    )
                },
            )
        },
    )
}

/// Whether the mover loses moving first against 1s and 2s (both present). With
/// `Q` = "she holds a 5, or his 2s outnumber her 4s" (`e ≥ 1` or `q > d`) and
/// `E` = "`a + b` is even":
///
/// * no 1 (`a = 0`), by her 3s: `c = 0`: `e = 0`, `p < b` and `b − p` odd;
///   `c = 1`: `b = 0` and `Q`; `c = 2`: `p ≤ b`, `b − p` even, and `e = 0` or
///   `p = 1`; `c` odd, at least 3: `Q`, and `b` even or `p ≥ 2 + e`; `c` even, at
///   least 4: `b ≥ 1`, `p ≤ b + c − 2`, and `b` odd or `p ≥ 2 + e`;
/// * a 1 (`a ≥ 1`), by her 3s: `c ≥ 3`: `p ≥ a + 2 + e` and `Q`; `c = 2`:
///   `p ≥ a + 1 + e`, one more when `E` and `b ≥ a`, and `p ≤ b` (`a = 1`) or `Q`
///   (`a ≥ 2`); `c = 1`: `p ≥ a + 1 + e`, one fewer when `E` and `b < a`, not
///   `b = 0` with `a` odd, and `p ≤ b + 1` (`a = 1`) or `Q` (`a ≥ 2`); or
///   `e = 0`, `b + 2 ≤ p ≤ a` and `p − b` even; `c = 0`: for `a = 1`, `p ≤ b − 1`
///   and (`p ≥ 2 + e`, one more when `b` is even, or `e = 0` and `b − p` odd);
///   for `a ≥ 2`, `a + 1 + e ≤ p ≤ b`, or `b = e = 0` and `p = 1`.
///
/// Proved with the rest of the closed form (docs/FIVE-FINGERS.md, "Proof").
pub fn ones_and_twos_lost<C: Count>(mover: [C; 5], other: [C; 5]) -> C::Truth {
    let [a, b, c, d, e] = mover;
    let [p, q, _, _, _] = other;
    let n = |v: i32| C::from(v);
    let big_q = e.at_least(1) | q.above(d);
    a.is(0).select(
        || {
            if_zero_one_two(
                c,
                || e.is(0) & p.below(b) & (b - p).odd(),
                || b.is(0) & big_q,
                || p.at_most(b) & (b - p).even() & (e.is(0) | p.is(1)),
                || {
                    c.odd().select(
                        || big_q & (b.even() | p.at_least(n(2) + e)),
                        || {
                            b.at_least(1)
                                & p.at_most(b + c - n(2))
                                & (b.odd() | p.at_least(n(2) + e))
                        },
                    )
                },
            )
        },
        || ones_and_twos_with_a_one(mover, other, big_q),
    )
}

/// [`ones_and_twos_lost`] when the mover holds a 1 (`a ≥ 1`), given `Q`.
fn ones_and_twos_with_a_one<C: Count>(mover: [C; 5], other: [C; 5], big_q: C::Truth) -> C::Truth {
    let [a, b, c, _, e] = mover;
    let [p, ..] = other;
    let n = |v: i32| C::from(v);
    let even_ab = (a + b).even();
    // The last condition of the rows c = 1 and c = 2: `p ≤ b + 1` (c = 1) or
    // `p ≤ b` (c = 2) with a single 1, `Q` with more.
    let cap = |slack: i32| a.is(1).select(|| p.at_most(b + n(slack)), || big_q);
    if_zero_one_two(
        c,
        || {
            a.is(1).select(
                || {
                    p.below(b)
                        & (p.at_least(n(2) + e + C::indicator(b.even()))
                            | (e.is(0) & (b - p).odd()))
                },
                || (p.at_least(a + n(1) + e) & p.at_most(b)) | (b.is(0) & e.is(0) & p.is(1)),
            )
        },
        || {
            let main = p.at_least(a + n(1) + e - C::indicator(even_ab & b.below(a)))
                & !(b.is(0) & a.odd())
                & cap(1);
            let extra = e.is(0) & (b + n(2)).at_most(p) & p.at_most(a) & (p - b).even();
            main | extra
        },
        || p.at_least(a + n(1) + e + C::indicator(even_ab & b.at_least(a))) & cap(0),
        || p.at_least(a + n(2) + e) & big_q,
    )
}

/// A case split on `x` being 0, 1, 2, or at least 3 (`x ≥ 0`).
fn if_zero_one_two<C: Count>(
    x: C,
    zero: impl FnOnce() -> C::Truth,
    one: impl FnOnce() -> C::Truth,
    two: impl FnOnce() -> C::Truth,
    more: impl FnOnce() -> C::Truth,
) -> C::Truth {
    x.is(0)
        .select(zero, || x.is(1).select(one, || x.is(2).select(two, more)))
}

/// Whether the mover loses against 1s, 2s and 3s (all present). With
/// `k = r − c` (his 3s against hers: one of each destroys the other),
/// `K = k − d`, `J = K − e` (which equals `a + b − p − q`), `off = p − a − e`
/// (his 1s against her 1s and 5s) and `E` = "`a + b` is even":
///
/// * `a = 0`: when `e = 0`, `k ≥ 1`, `b > p` and `b − p` odd;
/// * `a ≥ 1` and `off < 0`: only when `b = p = 1`, `d = e = 0` and `k = 1`;
/// * `a = 1`: when `b > p` and, for `off = 0`, `K ≥ 2` and `E`; for `off = 1`,
///   `K ≥ 1`, or `d ≥ 1`, `k ≥ 0` and `E`; for `off ≥ 2`, `K ≥ 1`, or `d ≥ 1`, or
///   `e ≥ 1` and `off + K ≥ 2`;
/// * `a ≥ 2`: always when `J ≥ 3`; otherwise, for `off = 0`, when `e ≥ 1`,
///   `J = 2` and `b − p` odd, or `b > p` and (`K ≥ 3`, or `K = 2` and `E`); for
///   `off ≥ 1` with `J = 2` or (`e = 0` and `K ≥ 1`), when `b > p` or `b − p` is
///   odd; else when `b > p` and, for `off = 1`, `K ≥ 1`, or `d ≥ 1` and `k ≥ 0`,
///   or `d ≥ 1`, `k = −1` and not `E`; for `off ≥ 2`, `d ≥ 1`, or `e ≥ 1` and
///   `off + K ≥ 2`.
///
/// Proved with the rest of the closed form (docs/FIVE-FINGERS.md, "Proof").
pub fn ones_twos_and_threes_lost<C: Count>(mover: [C; 5], other: [C; 5]) -> C::Truth {
    let [a, b, c, d, e] = mover;
    let [p, _, r, _, _] = other;
    let k = r - c;
    let big_k = k - d;
    let j = big_k - e;
    let off = p - a - e;
    let even_ab = (a + b).even();
    let ahead = b.above(p);
    let ladder = (b - p).odd();
    let a_is_one = || {
        ahead
            & off.is(0).select(
                || big_k.at_least(2) & even_ab,
                || {
                    off.is(1).select(
                        || big_k.at_least(1) | (d.at_least(1) & k.at_least(0) & even_ab),
                        || {
                            big_k.at_least(1)
                                | d.at_least(1)
                                | (e.at_least(1) & (off + big_k).at_least(2))
                        },
                    )
                },
            )
    };
    let a_at_least_two = || {
        j.at_least(3).select(
            || C::Truth::constant(true),
            || {
                off.is(0).select(
                    || {
                        (e.at_least(1) & j.is(2) & ladder)
                            | (ahead & (big_k.at_least(3) | (big_k.is(2) & even_ab)))
                    },
                    || {
                        (j.is(2) | (e.is(0) & big_k.at_least(1))).select(
                            || ahead | ladder,
                            || {
                                ahead
                                    & off.is(1).select(
                                        || {
                                            big_k.at_least(1)
                                                | (d.at_least(1) & k.at_least(0))
                                                | (d.at_least(1) & k.is(-1) & !even_ab)
                                        },
                                        || {
                                            d.at_least(1)
                                                | (e.at_least(1) & (off + big_k).at_least(2))
                                        },
                                    )
                            },
                        )
                    },
                )
            },
        )
    };
    a.is(0).select(
        || e.is(0) & k.at_least(1) & ahead & ladder,
        || {
            off.below(0).select(
                || b.is(1) & d.is(0) & e.is(0) & p.is(1) & k.is(1),
                || a.is(1).select(a_is_one, a_at_least_two),
            )
        },
    )
}

/// The rules above for [`crate::equal_hands`]: they decide every pair.
fn decided(mover: Counts5, other: Counts5) -> Option<bool> {
    Some(loses_moving_first(mover, other))
}

/// The outcome of `(1^a 2^b 3^c 4^d 5^e | 1^p 2^q 3^r 4^s 5^t)_5` by the closed
/// form and Theorem 4 and Lemma 1 ([`crate::equal_hands`]).
pub fn outcome(left: Counts5, right: Counts5) -> Outcome {
    equal_hands::outcome(left, right, decided).expect("the rules at n = 5 decide every pair")
}
