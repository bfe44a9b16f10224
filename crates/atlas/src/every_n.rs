//! What holds for every finger count `n`: the rows of nearly full opponents, in a
//! game that does not depend on `n` (docs/EVERY-N.md).
//!
//! Two sides with `h` hands each, the mover's side `A` and the opponent's `B`
//! (the level recursion of [`crate::levels`]: the mover hits, a side one hand
//! short must remove a hand at once, by Theorem 4).
//!
//! ## The reduced game
//!
//! Fix `k ≥ 1` and `n ≥ 2k`. Let every hand of `B` hold at least `n − k` fingers,
//! and call a hand of `A` *small* when it holds `x ≤ k` fingers, *big* otherwise.
//! Then every hit is decided by `k` alone, not by `n`:
//!
//! * `A`'s small `x` on `B`'s `n − j` (`0 ≤ j ≤ k`): `B`'s hand becomes `n − (j − x)`
//!   when `x ≤ j`, and dies when `x > j` (`x + n − j ≥ n + 1`);
//! * `A`'s big hand on any hand of `B`: dies (`x + n − j ≥ k + 1 + n − k`);
//! * `B`'s `n − j` on `A`'s small `x`: becomes `n − j + x ≥ n − k + 1 ≥ k + 1`, big,
//!   when `x ≤ j`; dies when `x > j`;
//! * `B`'s hand on `A`'s big hand: dies.
//!
//! `B`'s hands stay at least `n − k`, `A`'s small hands only turn big or die, and
//! which big value a hand holds never matters. So a position is the counts of
//! `A`'s `1..=k` and big hands and of `B`'s `n − k..=n` hands, and whether the
//! mover loses is the same for every `n ≥ 2k`: the row of the level atlas against
//! `(n − k)^h` does not depend on `n` once `n ≥ 2k`. [`ReducedGame`] solves this
//! game by the level recursion for every pair of sides with at most `H` hands.
//!
//! Two rows follow (docs/EVERY-N.md, with the proofs):
//!
//! * `k = 1`, every `n ≥ 2` (**proved for every `h`**): against `(n − 1)^h` the mover
//!   loses moving first exactly when she holds an odd number of 1s. The proof is an
//!   induction on the reduced game's closed form, which [`ReducedGame::k1_closed_form`]
//!   states for both players' positions and `cargo test` checks.
//! * `k = 2`, every `n ≥ 4` (**proved for every `h`**): against `(n − 2)^h` she
//!   loses exactly when she holds a 2 and her 1s and 2s together are odd; the
//!   proof is the same induction on [`ReducedGame::k2_closed_form`].

use std::collections::HashMap;

use crate::formula::{Count, Truth};

/// The largest `k` the reduced game handles (its counts are packed in a `u64`).
pub const MAX_K: usize = 3;
/// The largest number of hands a side the reduced game is checked for (its
/// counts are packed in bytes).
pub const MAX_CHECKED_HANDS: usize = 120;

/// One side of the reduced game: `counts[0..k]` are `A`'s hands of `1..=k` and
/// `counts[k]` her big hands, or `B`'s hands of `n − 0, n − 1, …, n − k` (index
/// `j` holds `n − j`).
pub type ReducedSide = Vec<u64>;

/// The reduced game against opponents of `n − k..=n` fingers, solved on demand
/// (memoised) by the level recursion.
#[derive(Debug)]
pub struct ReducedGame {
    k: usize,
    mover_loses: HashMap<u64, bool>,
    opponent_loses: HashMap<u64, bool>,
}

impl ReducedGame {
    /// The reduced game for `1 ≤ k ≤ MAX_K`.
    pub fn new(k: usize) -> ReducedGame {
        assert!((1..=MAX_K).contains(&k), "k must be between 1 and {MAX_K}");
        ReducedGame {
            k,
            mover_loses: HashMap::new(),
            opponent_loses: HashMap::new(),
        }
    }

    /// The `k` of this game.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The memo key: every count in a byte (`2(k + 1) ≤ 8` of them).
    fn key(&self, a: &[u64], b: &[u64]) -> u64 {
        assert!(
            a.len() == self.k + 1 && b.len() == self.k + 1,
            "a side of the k = {} game has {} counts",
            self.k,
            self.k + 1
        );
        a.iter().chain(b).fold(0u64, |acc, &c| {
            assert!(
                c <= 255,
                "the reduced game holds at most 255 hands of a kind"
            );
            (acc << 8) | c
        })
    }

    /// Every pair of a hand of `A` and a hand of `B` that can meet in a hit, as
    /// (`A`'s index: `x − 1` for a small `x`, `k` for big; `B`'s index `j` for
    /// `n − j`; whether the hit kills). A hit kills exactly when the reverse hit
    /// does: a big hand, or a small `x > j`.
    fn contacts(&self, a: &[u64], b: &[u64]) -> Vec<(usize, usize, bool)> {
        let k = self.k;
        let mut out = Vec::new();
        for (j, &held) in b.iter().enumerate() {
            if held == 0 {
                continue;
            }
            for (t, &mine) in a.iter().enumerate() {
                if mine > 0 {
                    out.push((t, j, t == k || t + 1 > j));
                }
            }
        }
        out
    }

    /// `B`'s sides after a hit of `A` (`A` unchanged), with whether it killed.
    fn mover_hits(&self, a: &[u64], b: &[u64]) -> Vec<(ReducedSide, bool)> {
        self.contacts(a, b)
            .into_iter()
            .map(|(t, j, kill)| {
                let mut nb = b.to_vec();
                nb[j] -= 1;
                if !kill {
                    // A small `x = t + 1 ≤ j` raises `n − j` to `n − (j − x)`.
                    nb[j - t - 1] += 1;
                }
                (nb, kill)
            })
            .collect()
    }

    /// `A`'s sides after a hit of `B` (`B` unchanged), with whether it killed.
    fn opponent_hits(&self, a: &[u64], b: &[u64]) -> Vec<(ReducedSide, bool)> {
        self.contacts(a, b)
            .into_iter()
            .map(|(t, _, kill)| {
                let mut na = a.to_vec();
                na[t] -= 1;
                if !kill {
                    // A small hand hit by `n − j` becomes big.
                    na[self.k] += 1;
                }
                (na, kill)
            })
            .collect()
    }

    /// Whether `A` (hands `a`), moving first against `B` (hands `b`, as many),
    /// loses. Each side has `k + 1` counts, each at most 255 (panics otherwise).
    pub fn mover_loses(&mut self, a: &[u64], b: &[u64]) -> bool {
        let key = self.key(a, b);
        if let Some(&v) = self.mover_loses.get(&key) {
            return v;
        }
        let mut loses = true;
        for (nb, kill) in self.mover_hits(a, b) {
            let wins = if kill {
                // B, a hand short, must remove one of A's at once (Theorem 4).
                nb.iter().sum::<u64>() == 0
                    || !self
                        .opponent_hits(a, &nb)
                        .into_iter()
                        .any(|(na, k)| k && self.mover_loses(&na, &nb))
            } else {
                self.opponent_loses(a, &nb)
            };
            if wins {
                loses = false;
                break;
            }
        }
        self.mover_loses.insert(key, loses);
        loses
    }

    /// Whether `B` (hands `b`), moving first against `A` (hands `a`, as many),
    /// loses.
    pub fn opponent_loses(&mut self, a: &[u64], b: &[u64]) -> bool {
        let key = self.key(a, b);
        if let Some(&v) = self.opponent_loses.get(&key) {
            return v;
        }
        let mut loses = true;
        for (na, kill) in self.opponent_hits(a, b) {
            let wins = if kill {
                na.iter().sum::<u64>() == 0
                    || !self
                        .mover_hits(&na, b)
                        .into_iter()
                        .any(|(nb, k)| k && self.opponent_loses(&na, &nb))
            } else {
                self.mover_loses(&na, b)
            };
            if wins {
                loses = false;
                break;
            }
        }
        self.opponent_loses.insert(key, loses);
        loses
    }

    /// The closed form of the `k = 1` game (`a` 1s and `r` big hands against `u`
    /// hands of `n − 1` and `w` of `n`), proved by induction in docs/EVERY-N.md:
    /// `A` moving first loses exactly when `w = 0` and `a` is odd; `B` moving first
    /// loses exactly when `r = 0` and `u` is odd. Returns (mover loses, opponent
    /// loses).
    pub fn k1_closed_form(a: &[u64], b: &[u64]) -> (bool, bool) {
        k1_rule(
            [a[0], a[1]].map(|v| v as i64),
            [b[0], b[1]].map(|v| v as i64),
        )
    }

    /// The `k = 2` row: against `(n − 2)^h`, `A` (`a` 1s, `b` 2s) loses moving first
    /// exactly when `b ≥ 1` and `a + b` is odd.
    pub fn k2_row_closed_form(a: &[u64]) -> bool {
        a[1] >= 1 && (a[0] + a[1]) % 2 == 1
    }

    /// The closed form of the whole `k = 2` game (`a` 1s, `b` 2s, `r` big hands
    /// against `w` hands of `n`, `v` of `n − 1`, `u` of `n − 2`; docs/EVERY-N.md):
    /// `A` moving first loses exactly when `w = 0` and ((`v = 0`, `b ≥ 1`, `a + b`
    /// odd) or (`u = 0`, `a` odd)); `B` moving first loses exactly when `r = 0` and
    /// ((`u` odd and (`w ≥ 1` or `a < u`)) or (`b = 0` and (`u ≥ 1` or `v` odd))).
    /// Returns (mover loses, opponent loses).
    pub fn k2_closed_form(a: &[u64], b: &[u64]) -> (bool, bool) {
        k2_rule(
            [a[0], a[1], a[2]].map(|v| v as i64),
            [b[0], b[1], b[2]].map(|v| v as i64),
        )
    }
}

/// [`ReducedGame::k1_closed_form`] written once over any [`Count`] (computed on
/// `i64`, printed for an SMT solver on [`crate::formula::Term`]): `A` = (1s, big
/// hands), `B` = (hands of `n`, of `n − 1`); (mover loses, opponent loses).
pub fn k1_rule<C: Count>(a: [C; 2], b: [C; 2]) -> (C::Truth, C::Truth) {
    let [ones, big] = a;
    let [full, near] = b;
    (full.is(0) & ones.odd(), big.is(0) & near.odd())
}

/// [`ReducedGame::k2_closed_form`] written once over any [`Count`]: `A` = (1s,
/// 2s, big hands), `B` = (hands of `n`, `n − 1`, `n − 2`); (mover loses,
/// opponent loses).
pub fn k2_rule<C: Count>(a: [C; 3], b: [C; 3]) -> (C::Truth, C::Truth) {
    let [ones, twos, big] = a;
    let [w, v, u] = b;
    (
        w.is(0) & ((v.is(0) & twos.at_least(1) & (ones + twos).odd()) | (u.is(0) & ones.odd())),
        big.is(0)
            & ((u.odd() & (w.at_least(1) | ones.below(u)))
                | (twos.is(0) & (u.at_least(1) | v.odd()))),
    )
}

/// The recursion [`ReducedGame`] solves, one exchange deep, over any [`Count`]:
/// (whether `A` moving first loses, whether `B` moving first loses) when
/// `mover_lost` and `opponent_lost` give those relations for the pairs one
/// exchange on. Sides have `K1 = k + 1` counts as in [`ReducedSide`]. A hit that
/// keeps the hands passes the move; a kill leaves the other side a hand short,
/// which must kill back at once (Theorem 4) and then moves second with as many
/// hands (Lemma 1); with no hand left it has lost. Each call is guarded by the
/// hands it needs being there, so on `i64` it calls the relations only on real
/// sides.
pub fn reduced_recursion<C: Count, const K1: usize>(
    a: [C; K1],
    b: [C; K1],
    mover_lost: impl Fn([C; K1], [C; K1]) -> C::Truth,
    opponent_lost: impl Fn([C; K1], [C; K1]) -> C::Truth,
) -> (C::Truth, C::Truth) {
    let k = K1 - 1;
    let one = || C::from(1);
    let no = || C::Truth::constant(false);
    // Every contact (A's index t, B's index j) and whether a hit there kills
    // (either way round): a big hand, or a small x = t + 1 > j.
    let contacts: Vec<(usize, usize, bool)> = (0..K1)
        .flat_map(|t| (0..K1).map(move |j| (t, j, t == k || t + 1 > j)))
        .collect();
    let there = |a: &[C; K1], b: &[C; K1], t: usize, j: usize| a[t].at_least(1) & b[j].at_least(1);
    // B after A's hand t hits B's hand j, and A after B's hand j hits A's hand t.
    let b_hit = |b: [C; K1], t: usize, j: usize, kill: bool| {
        let mut nb = b;
        nb[j] = nb[j] - one();
        if !kill {
            nb[j - t - 1] = nb[j - t - 1] + one();
        }
        nb
    };
    let a_hit = |a: [C; K1], t: usize, kill: bool| {
        let mut na = a;
        na[t] = na[t] - one();
        if !kill {
            na[k] = na[k] + one();
        }
        na
    };
    let mut mover = C::Truth::constant(true);
    let mut opponent = C::Truth::constant(true);
    for &(t, j, kill) in &contacts {
        // A moves: her hand t on his hand j.
        let a_wins = || {
            let nb = b_hit(b, t, j, kill);
            if !kill {
                return opponent_lost(a, nb);
            }
            let mut he_wins = no();
            for &(t2, j2, kill2) in contacts.iter().filter(|c| c.2) {
                he_wins = he_wins.or_else(|| {
                    there(&a, &nb, t2, j2).select(|| mover_lost(a_hit(a, t2, kill2), nb), no)
                });
            }
            !he_wins
        };
        mover = mover
            .and_then(|| there(&a, &b, t, j).select(|| !a_wins(), || C::Truth::constant(true)));
        // B moves: his hand j on her hand t.
        let b_wins = || {
            let na = a_hit(a, t, kill);
            if !kill {
                return mover_lost(na, b);
            }
            let mut she_wins = no();
            for &(t2, j2, kill2) in contacts.iter().filter(|c| c.2) {
                she_wins = she_wins.or_else(|| {
                    there(&na, &b, t2, j2).select(|| opponent_lost(na, b_hit(b, t2, j2, kill2)), no)
                });
            }
            !she_wins
        };
        opponent = opponent
            .and_then(|| there(&a, &b, t, j).select(|| !b_wins(), || C::Truth::constant(true)));
    }
    (mover, opponent)
}

/// Every way to write `h` as `parts` ordered counts.
pub fn compositions(h: u64, parts: usize) -> Vec<Vec<u64>> {
    if parts == 1 {
        return vec![vec![h]];
    }
    let mut out = Vec::new();
    for first in 0..=h {
        for mut rest in compositions(h - first, parts - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The reduced side of a mover's hands (values `1..=n`): values above `k` are big.
pub fn reduce_mover(values: &[u32], k: usize) -> ReducedSide {
    let mut side = vec![0u64; k + 1];
    for &v in values {
        side[(v as usize).min(k + 1) - 1] += 1;
    }
    side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_big_hand_wins_against_any_single_hand() {
        let mut g = ReducedGame::new(2);
        for j in 0..3 {
            let mut b = vec![0; 3];
            b[j] = 1;
            assert!(!g.mover_loses(&[0, 0, 1], &b));
        }
    }

    #[test]
    fn compositions_count() {
        assert_eq!(compositions(4, 3).len(), 15);
        assert!(compositions(4, 3)
            .iter()
            .all(|c| c.iter().sum::<u64>() == 4));
    }
}
