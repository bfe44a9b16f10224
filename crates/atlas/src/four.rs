//! Simple Chopsticks with four-fingered hands (`n = 4`): the closed form of the
//! pairs of equal-sized sides in which the player to move loses, proved
//! (docs/FOUR-FINGERS.md).
//!
//! By Theorem 4 and Lemma 1 (see [`crate::levels`]) every outcome follows from
//! these pairs. Write the mover's side as `1^a 2^b 3^c 4^d` and the opponent's as
//! `1^p 2^q 3^r 4^s`, both with `h ≥ 1` hands. The mover **loses moving first**
//! exactly when:
//!
//! * the opponent is `1^h`: unless `c = 0` and (`a ≥ 1` and `b` odd, or `a = 1`
//!   and `b = 0`), or `a = b = 0` and `c` is even;
//! * the opponent is `2^h`: `b ≥ 1` and `a + b` is odd;
//! * the opponent is `3^h`: `a` is odd;
//! * the opponent holds only 1s and 2s, both (`p, q ≥ 1`), and
//!   - the mover no 1 (`a = 0`): `b` odd, and `d ≥ 1` or `c < q` (with `c = d = 0`
//!     too: `b = h` odd);
//!   - the mover a 1 (`a ≥ 1`): her 3s cancel as many of the opponent's 2s, leaving
//!     him `q' = q − c` of them; she loses when `q' > d`, `b > q'`, and `b` is odd
//!     or `q' ≥ d + 3`; and also, without 4s (`d = 0`), when `b = 1` and `q'` is odd;
//! * the opponent holds a 4, or a 3 beside another value: never.
//!
//! The proof (docs/FOUR-FINGERS.md, computer-assisted like the `n = 3` one) shows
//! that these rules satisfy the game's recursion at every pair; its finite checks
//! are `crates/atlas/tests/four_fingers_proof.rs`. The rules are also checked
//! against the level atlas on every pair with at most 60 hands a side
//! (`chopsticks verify --only four-fingers --hands-n4 60`).

use crate::equal_hands;
use crate::formula::{Count, Truth};
use chopsticks_cgt::Outcome;

/// Counts of the values 1, 2, 3 and 4 on one side.
pub type Counts4 = [u64; 4];

/// Whether the side `mover` loses moving first against `other`, which has as many
/// hands (at least one): [`closed_form`] computed.
pub fn loses_moving_first(mover: Counts4, other: Counts4) -> bool {
    closed_form(mover.map(|v| v as i64), other.map(|v| v as i64))
}

/// The closed form, written once over any [`Count`]: computed on `i64`, printed
/// for an SMT solver on [`crate::formula::Term`] (a second proof, beside the
/// box method's: `crates/atlas/tests/four_fingers_proof.rs`).
pub fn closed_form<C: Count>(mover: [C; 4], other: [C; 4]) -> C::Truth {
    let [a, b, c, d] = mover;
    let [p, q, r, s] = other;
    let h = p + q + r + s;
    let against_ones = || {
        let wins = (c.is(0) & ((a.at_least(1) & b.odd()) | (a.is(1) & b.is(0))))
            | (a.is(0) & b.is(0) & c.even());
        !wins
    };
    let ones_and_twos = || {
        a.is(0).select(
            || b.odd() & (d.at_least(1) | c.below(q)),
            || {
                // The 3s cancel as many of the opponent's 2s.
                let q = q - c;
                q.at_least(0)
                    & ((q.above(d) & b.above(q) & (b.odd() | q.at_least(d + 3.into())))
                        | (d.is(0) & b.is(1) & q.odd()))
            },
        )
    };
    p.is(h).select(against_ones, || {
        q.is(h).select(
            || b.at_least(1) & (a + b).odd(),
            || {
                r.is(h).select(
                    || a.odd(),
                    || {
                        (r.above(0) | s.above(0))
                            .select(|| C::Truth::constant(false), ones_and_twos)
                    },
                )
            },
        )
    })
}

/// The rule for equal hand counts, for [`crate::equal_hands`]: it decides every
/// pair.
fn decided(mover: Counts4, other: Counts4) -> Option<bool> {
    Some(loses_moving_first(mover, other))
}

/// Whether the side `fewer`, with one hand fewer than `more`, wins moving first:
/// by Lemma 1 it must remove a hand of `more` (a hit of `x` on `y` with
/// `x + y ≥ 5`) and leave a side that loses moving first against it.
pub fn fewer_wins_moving_first(fewer: Counts4, more: Counts4) -> bool {
    equal_hands::fewer_wins_moving_first(fewer, more, decided) == Some(true)
}

/// Whether Left (`left`) wins moving first against Right (`right`): Theorem 4
/// when the hand counts differ by two or more or Left has one more, Lemma 1 when
/// she has one fewer, the rules above when they are equal.
pub fn left_wins_moving_first(left: Counts4, right: Counts4) -> bool {
    equal_hands::left_wins_moving_first(left, right, decided) == Some(true)
}

/// The outcome of `(1^a 2^b 3^c 4^d | 1^p 2^q 3^r 4^s)_4` by the closed form.
pub fn outcome(left: Counts4, right: Counts4) -> Outcome {
    equal_hands::outcome(left, right, decided).expect("the rules at n = 4 decide every pair")
}
