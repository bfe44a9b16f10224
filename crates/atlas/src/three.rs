//! The outcome of every Simple Chopsticks position with three-fingered hands
//! (`n = 3`), the paper's open problem: a closed form in the counts of 1s, 2s
//! and 3s on each side.
//!
//! Write Left's hands as `1^a 2^b 3^c` and Right's as `1^d 2^e 3^f`, with
//! `ℓ = a + b + c` and `r = d + e + f` hands. Say that a side `A = (a, b, c)`
//! **loses moving first** against a side `B = (d, e, f)` with as many hands when
//!
//! * `B` has no 3 and no 2 (`B = 1^k`) and `A` holds an odd number of 2s; or
//! * `B` has no 3, no 1 (`B = 2^k`) and `A` holds an odd number of 1s; or
//! * `B` has no 3 but both 1s and 2s, `A` has no 3, and `a - d` is odd and positive.
//!
//! In every other case with equal hand counts the first player wins; in
//! particular a player facing a 3 always wins moving first. Then:
//!
//! * a side with no hand: the game is over, `P` (the value 0);
//! * `ℓ ≥ r + 2`: `L`; `r ≥ ℓ + 2`: `R` (Theorem 4);
//! * `ℓ = r`: Left wins moving first unless `A` loses moving first against `B`,
//!   Right unless `B` loses moving first against `A`;
//! * `ℓ = r + 1`: Left wins moving first (Theorem 4); Right wins moving first,
//!   making the position `N` rather than `L`, exactly when he can remove one of
//!   Left's hands and leave her a side that loses moving first: when `f = 0` and
//!   - `B = 1^k`: `c ≥ 1` and `b` is odd;
//!   - `B = 2^k`: `a` is odd and `b + c ≥ 1`;
//!   - `B` has 1s and 2s: `a - d` odd and positive, and `c = 1`, or `c = 0` and `b ≥ 1`;
//! * `r = ℓ + 1`: the mirror image.
//!
//! This is checked against the solver on every position with at most 60 hands a
//! side, and the closed form satisfies the game's recursion everywhere (see
//! `docs/THREE-FINGERS.md` for the proof and the figures).

use crate::formula::{Count, Truth};
use chopsticks_cgt::Outcome;

/// Counts of the values 1, 2 and 3 on one side.
pub type Counts3 = [u64; 3];

/// Whether the side `mover` loses moving first against `other`, which has as many
/// hands (at least one): [`closed_form`] computed.
pub fn loses_moving_first(mover: Counts3, other: Counts3) -> bool {
    closed_form(mover.map(|v| v as i64), other.map(|v| v as i64))
}

/// The closed form, written once over any [`Count`]: computed on `i64`, printed
/// for an SMT solver on [`crate::formula::Term`] (a second proof, beside the
/// one by hand in docs/THREE-FINGERS.md: `crates/atlas/tests/three_fingers.rs`).
pub fn closed_form<C: Count>(mover: [C; 3], other: [C; 3]) -> C::Truth {
    let [a, b, c] = mover;
    let [d, e, f] = other;
    f.above(0).select(
        || C::Truth::constant(false),
        || {
            e.is(0).select(
                || b.odd(),
                || {
                    d.is(0)
                        .select(|| a.odd(), || c.is(0) & a.above(d) & (a - d).odd())
                },
            )
        },
    )
}

/// Whether the side `fewer`, with one hand fewer than `more`, wins moving first:
/// it must remove a hand of `more` and leave a side that loses moving first.
pub fn fewer_wins_moving_first(fewer: Counts3, more: Counts3) -> bool {
    let [d, e, f] = fewer;
    let [a, b, c] = more;
    if f > 0 {
        false
    } else if e == 0 {
        c >= 1 && b % 2 == 1
    } else if d == 0 {
        a % 2 == 1 && b + c >= 1
    } else {
        a > d && (a - d) % 2 == 1 && (c == 1 || (c == 0 && b >= 1))
    }
}

/// Whether Left (`left`) wins moving first against Right (`right`).
pub fn left_wins_moving_first(left: Counts3, right: Counts3) -> bool {
    let l: u64 = left.iter().sum();
    let r: u64 = right.iter().sum();
    if l == 0 || r == 0 {
        false
    } else if l > r {
        true
    } else if l + 1 < r {
        false
    } else if l == r {
        !loses_moving_first(left, right)
    } else {
        fewer_wins_moving_first(left, right)
    }
}

/// The outcome of `(1^a 2^b 3^c | 1^d 2^e 3^f)_3` by the closed form.
pub fn outcome(left: Counts3, right: Counts3) -> Outcome {
    match (
        left_wins_moving_first(left, right),
        left_wins_moving_first(right, left),
    ) {
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (true, true) => Outcome::N,
        (false, false) => Outcome::P,
    }
}
