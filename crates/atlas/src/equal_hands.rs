//! From the pairs of equal-sized sides to every position, at any `n`.
//!
//! By Theorem 4 and Lemma 1 (see [`crate::levels`]) the outcome of a position of
//! Simple Chopsticks follows from the hand counts and from which pairs of
//! equal-sized sides the mover loses moving first: with two hands more a side
//! wins whoever starts; with one hand more it wins moving first, and moving
//! second it loses exactly when the side with one hand fewer can remove one of
//! its hands and leave it, with as many hands, losing moving first.
//!
//! A side is given by its counts of the values `1..=N` (`n = N`; a hit of `x` on
//! `y` kills when `x + y > n`). The functions take the rule for equal hand
//! counts as `loses(mover, opponent)`: `Some(lost)`, or `None` where it is not
//! known, which they pass on.
//!
//! [`level_recursion`] is the recursion that defines which pairs are lost, one
//! exchange deep; a rule that satisfies it at every pair is the true one
//! ([`crate::smt`] asks a solver to check that for all counts at once).

use crate::formula::{Count, Truth};
use chopsticks_cgt::Outcome;

/// Whether the side `fewer`, with one hand fewer than `more`, wins moving first:
/// by Lemma 1 it must remove a hand of `more` (a hit of `x` on `y` with
/// `x + y > n`) and leave a side that loses moving first against it. `None` when
/// no such hit is known to win and some hit leads to a pair `loses` does not
/// decide.
pub fn fewer_wins_moving_first<const N: usize>(
    fewer: [u64; N],
    more: [u64; N],
    loses: impl Fn([u64; N], [u64; N]) -> Option<bool>,
) -> Option<bool> {
    let mut open = false;
    for x in 1..=N {
        if fewer[x - 1] == 0 {
            continue;
        }
        for y in (N + 1 - x)..=N {
            if more[y - 1] == 0 {
                continue;
            }
            let mut rest = more;
            rest[y - 1] -= 1;
            match loses(rest, fewer) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => open = true,
            }
        }
    }
    if open {
        None
    } else {
        Some(false)
    }
}

/// Whether Left (`left`) wins moving first against Right (`right`): Theorem 4
/// when the hand counts differ by two or more or Left has one more, Lemma 1 when
/// she has one fewer, `loses` when they are equal.
pub fn left_wins_moving_first<const N: usize>(
    left: [u64; N],
    right: [u64; N],
    loses: impl Fn([u64; N], [u64; N]) -> Option<bool>,
) -> Option<bool> {
    let l: u64 = left.iter().sum();
    let r: u64 = right.iter().sum();
    if l == 0 || r == 0 {
        Some(false)
    } else if l > r {
        Some(true)
    } else if l + 1 < r {
        Some(false)
    } else if l == r {
        loses(left, right).map(|lost| !lost)
    } else {
        fewer_wins_moving_first(left, right, loses)
    }
}

/// The outcome of the position of Left's `left` against Right's `right`, or
/// `None` where it needs a pair `loses` does not decide.
pub fn outcome<const N: usize>(
    left: [u64; N],
    right: [u64; N],
    loses: impl Fn([u64; N], [u64; N]) -> Option<bool> + Copy,
) -> Option<Outcome> {
    let left_first = left_wins_moving_first(left, right, loses)?;
    let right_first = left_wins_moving_first(right, left, loses)?;
    Some(match (left_first, right_first) {
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (true, true) => Outcome::N,
        (false, false) => Outcome::P,
    })
}

/// The level recursion, one exchange deep: whether `mover` loses moving first
/// against `other` (as many hands, at least one) when `lost(mover', other')`
/// says which pairs with as many hands are lost by the side to move. The mover
/// hits a hand `y` of the opponent with her hand `x`:
///
/// * if `x + y ≤ n`, he keeps his hands and moves: the hit wins when `lost(his
///   side after the hit, hers)`;
/// * if `x + y > n`, he has one hand fewer and moves. A hit that removes none of
///   hers loses for him (Theorem 4: she moves with one hand more), so he wins
///   only by removing one of hers and leaving her, with as many hands as he,
///   losing moving first (Lemma 1); with no hand left he has lost.
///
/// She loses moving first when no hit wins. Hits that keep the hand counts add
/// fingers, so the recursion is well founded (by hand count, then by decreasing
/// finger total) and has one solution: a rule `lost` that satisfies it at every
/// pair is the true relation, by induction along that order.
///
/// Written over any [`Count`]: on `i64` it evaluates, and calls `lost` only on
/// pairs of real sides; on [`crate::formula::Term`] it prints the recursion as a
/// formula in the counts (every branch, each guarded by its hands being there).
pub fn level_recursion<C: Count, const N: usize>(
    mover: [C; N],
    other: [C; N],
    lost: impl Fn([C; N], [C; N]) -> C::Truth,
) -> C::Truth {
    let one = || C::from(1);
    let mut no_hit_wins = C::Truth::constant(true);
    for x in 1..=N {
        for y in 1..=N {
            let there = mover[x - 1].at_least(1) & other[y - 1].at_least(1);
            let mut his = other;
            his[y - 1] = his[y - 1] - one();
            let wins = || {
                if x + y <= N {
                    let mut hit = his;
                    hit[x + y - 1] = hit[x + y - 1] + one();
                    return lost(hit, mover);
                }
                let mut he_wins = C::Truth::constant(false);
                for x2 in 1..=N {
                    for y2 in (N + 1 - x2)..=N {
                        let can = his[x2 - 1].at_least(1) & mover[y2 - 1].at_least(1);
                        let mut hers = mover;
                        hers[y2 - 1] = hers[y2 - 1] - one();
                        he_wins = he_wins.or_else(|| {
                            can.select(|| lost(hers, his), || C::Truth::constant(false))
                        });
                    }
                }
                !he_wins
            };
            no_hit_wins =
                no_hit_wins.and_then(|| there.select(|| !wins(), || C::Truth::constant(true)));
        }
    }
    no_hit_wins
}
