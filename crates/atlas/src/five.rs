//! Simple Chopsticks with five-fingered hands (`n = 5`): which side with as many
//! hands as its opponent loses moving first, a closed form in the counts, three
//! rows of it proved and the rest conjectured (docs/FIVE-FINGERS.md).
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
//! The rows against a 5, against `4^h` and against `3^h` are theorems; the others
//! are conjectures, checked against the level atlas on every pair
//! with at most 35 hands a side (`chopsticks verify --only five-fingers
//! --hands-n5 35`).

use crate::equal_hands;
use chopsticks_cgt::Outcome;

/// Counts of the values 1, 2, 3, 4 and 5 on one side.
pub type Counts5 = [u64; 5];

/// The values an opponent holds, as a bit set (`1 << (v − 1)` for each value `v`).
pub fn family(other: Counts5) -> u8 {
    (0..5)
        .filter(|&i| other[i] > 0)
        .fold(0, |f, i| f | (1 << i))
}

/// The nine families of opponents that a mover with as many hands can lose to:
/// every single value below 5, and 1s with 2s, 1s with 3s, 1s with 4s, 2s with
/// 3s, 1s with 2s and 3s (each value present).
pub const LOSABLE_FAMILIES: [u8; 9] = [
    0b00001, 0b00010, 0b00100, 0b01000, 0b00011, 0b00101, 0b01001, 0b00110, 0b00111,
];

/// Whether the side `mover` loses moving first against `other`, which has as
/// many hands (at least one), by the closed form.
pub fn loses_moving_first(mover: Counts5, other: Counts5) -> bool {
    let [a, b, c, d, e] = mover;
    let [p, _q, r, s, t] = other;
    let h = other.iter().sum::<u64>();
    let odd = |x: u64| x % 2 == 1;
    let f = family(other);
    if t > 0 {
        false
    } else if s == h {
        odd(a)
    } else if r == h {
        b >= 1 && odd(a + b)
    } else if f == 0b00010 {
        odd(b + c)
    } else if p == h {
        let wins = (c == 0 && !odd(a) && (d == 0 || (a == 0 && b == 0 && !odd(d))))
            || (a == 1 && c == 1 && d == 0)
            || (a == 1 && b == 0 && c == 0 && d == 1);
        !wins
    } else if f == 0b00110 {
        odd(b)
            && ((a == 0 && c < r)
                || c + 1 == r
                || (b == 1 && d == 0 && e == 0 && r >= c + 3 && odd(r - c)))
    } else if f == 0b01001 {
        a == 1 && e >= 1 && (b + e >= p || (b >= 1 && d >= 1))
    } else if f == 0b00101 {
        ones_and_threes_lost(mover, other)
    } else if f == 0b00011 {
        ones_and_twos_lost(mover, other)
    } else if f == 0b00111 {
        ones_twos_and_threes_lost(mover, other)
    } else {
        false
    }
}

/// Whether the mover loses moving first against 1s and 3s (both present), with
/// `x = a + b − p` (her 1s and 2s against his 1s) and `k = r − c − d` (his 3s
/// against her 3s and 4s; with equal hand counts `k = x + e`):
///
/// * `a = 0`: when `e = 0` and `k` is odd (and positive);
/// * `a` even (at least 2): when `p ≥ a + e` and `x ≥ 3`, or `e = 0`, `x = 1`
///   and `b ≥ 2`;
/// * `a = b = 1`: when `k = 1`, or `d ≥ 1`, `e ≥ 1` and `k ≤ 0`;
/// * `a = 1`, `b ≠ 1`: when `p ≥ 1 + e`, `x ≥ 2`, and `p > 1 + e` or `k` odd;
/// * `a` odd (at least 3): when `p ≥ a + e` and `x ≥ 2`, but not when `e = 0`,
///   `p = a` and `b = 2`.
///
/// A conjecture (docs/FIVE-FINGERS.md), checked on every pair of this family
/// with at most 35 hands a side.
pub fn ones_and_threes_lost(mover: Counts5, other: Counts5) -> bool {
    let [a, b, c, d, e] = mover.map(|v| v as i64);
    let [p, _, r, _, _] = other.map(|v| v as i64);
    let x = a + b - p;
    let k = r - c - d;
    let odd = |v: i64| v.rem_euclid(2) == 1;
    if a == 0 {
        e == 0 && k >= 1 && odd(k)
    } else if !odd(a) {
        (p >= a + e && x >= 3) || (e == 0 && x == 1 && b >= 2)
    } else if a == 1 && b == 1 {
        k == 1 || (d >= 1 && e >= 1 && k <= 0)
    } else if a == 1 {
        p > e && x >= 2 && (p > 1 + e || odd(k))
    } else {
        p >= a + e && x >= 2 && !(e == 0 && p == a && b == 2)
    }
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
/// A conjecture (docs/FIVE-FINGERS.md), checked on every pair of this family
/// with at most 35 hands a side.
pub fn ones_and_twos_lost(mover: Counts5, other: Counts5) -> bool {
    let [a, b, c, d, e] = mover.map(|v| v as i64);
    let [p, q, _, _, _] = other.map(|v| v as i64);
    let odd = |v: i64| v.rem_euclid(2) == 1;
    let big_q = e >= 1 || q > d;
    let one_if = |x: bool| x as i64;
    if a == 0 {
        return match c {
            0 => e == 0 && p < b && odd(b - p),
            1 => b == 0 && big_q,
            2 => p <= b && !odd(b - p) && (e == 0 || p == 1),
            _ if odd(c) => big_q && (!odd(b) || p >= 2 + e),
            _ => b >= 1 && p <= b + c - 2 && (odd(b) || p >= 2 + e),
        };
    }
    let even_ab = !odd(a + b);
    match c {
        0 if a == 1 => p < b && (p >= 2 + e + one_if(!odd(b)) || (e == 0 && odd(b - p))),
        0 => (a + 1 + e <= p && p <= b) || (b == 0 && e == 0 && p == 1),
        1 => {
            let main = p >= a + 1 + e - one_if(even_ab && b < a)
                && !(b == 0 && odd(a))
                && (if a == 1 { p <= b + 1 } else { big_q });
            let extra = e == 0 && b + 2 <= p && p <= a && !odd(p - b);
            main || extra
        }
        2 => p >= a + 1 + e + one_if(even_ab && b >= a) && (if a == 1 { p <= b } else { big_q }),
        _ => p >= a + 2 + e && big_q,
    }
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
/// A conjecture (docs/FIVE-FINGERS.md), checked on every pair of this family
/// with at most 35 hands a side.
pub fn ones_twos_and_threes_lost(mover: Counts5, other: Counts5) -> bool {
    let [a, b, c, d, e] = mover.map(|v| v as i64);
    let [p, _, r, _, _] = other.map(|v| v as i64);
    let odd = |v: i64| v.rem_euclid(2) == 1;
    let k = r - c;
    let big_k = k - d;
    let j = big_k - e;
    let off = p - a - e;
    let even_ab = !odd(a + b);
    let ahead = b > p;
    let ladder = odd(b - p);
    if a == 0 {
        return e == 0 && k >= 1 && ahead && ladder;
    }
    if off < 0 {
        return b == 1 && d == 0 && e == 0 && p == 1 && k == 1;
    }
    if a == 1 {
        return ahead
            && match off {
                0 => big_k >= 2 && even_ab,
                1 => big_k >= 1 || (d >= 1 && k >= 0 && even_ab),
                _ => big_k >= 1 || d >= 1 || (e >= 1 && off + big_k >= 2),
            };
    }
    if j >= 3 {
        return true;
    }
    if off == 0 {
        return (e >= 1 && j == 2 && ladder) || (ahead && (big_k >= 3 || (big_k == 2 && even_ab)));
    }
    if j == 2 || (e == 0 && big_k >= 1) {
        return ahead || ladder;
    }
    ahead
        && if off == 1 {
            big_k >= 1 || (d >= 1 && k >= 0) || (d >= 1 && k == -1 && !even_ab)
        } else {
            d >= 1 || (e >= 1 && off + big_k >= 2)
        }
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
