//! Dense indexing: a bijection between the canonical positions of a ruleset and
//! `0..count`, so solvers can keep one flat array entry per position.
//!
//! A player's `h` hands with values in `0..F` form a sorted multiset; there are
//! `C(F + h - 1, h)` of them. [`MultisetIndex`] ranks them with the combinatorial
//! number system: the sorted values `a_0 ≤ … ≤ a_{h-1}` become the strictly increasing
//! `b_i = a_i + i`, whose rank is `Σ C(b_i, i + 1)` (colexicographic order, so the
//! all-dead multiset has rank 0).
//!
//! [`PositionIndex`] combines the players' ranks in mixed radix, mover first, and
//! puts the mover's seat class (see [`Ruleset::rotation_period`]) in the most
//! significant place:
//!
//! ```text
//! index = seat · block + r_0 · (n_1 · n_2 ⋯) + r_1 · (n_2 ⋯) + … + r_{p-1}
//! ```
//!
//! where `r_k` is the rank of the k-th player after the mover (player 0 is the mover)
//! and `n_k` the number of multisets of that player. For symmetric rules the seat is
//! always 0 and the index is plain mixed radix.

use crate::error::{Result, RulesError};
use crate::position::Position;
use crate::ruleset::{Ruleset, MAX_PLAYERS};

/// `C(n, k)` in 128 bits, or `None` on overflow.
fn binomial(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc.checked_mul((n - i) as u128)? / (i as u128 + 1);
    }
    Some(acc)
}

/// Ranks and unranks sorted multisets of `size` values drawn from `0..fingers`.
#[derive(Clone, Debug)]
pub struct MultisetIndex {
    size: usize,
    fingers: u32,
    count: u64,
    /// `table[i][b] = C(b, i + 1)` for `b < fingers + size - 1`.
    table: Vec<Vec<u64>>,
}

impl MultisetIndex {
    /// The number of multisets of `size` values below `fingers`, `C(fingers + size - 1,
    /// size)`, or an error beyond 2^64. Cheap: no table is built.
    pub fn count_of(size: usize, fingers: u32) -> Result<u64> {
        let top = fingers as u64 + size as u64 - 1;
        binomial(top, size as u64)
            .filter(|&c| c <= u64::MAX as u128)
            .map(|c| c as u64)
            .ok_or_else(|| {
                RulesError::TooLarge(format!(
                    "{size} hands with {fingers} finger values have more than 2^64 multisets"
                ))
            })
    }

    /// An index for multisets of `size` hands with values below `fingers`.
    pub fn new(size: usize, fingers: u32) -> Result<MultisetIndex> {
        let top = fingers as u64 + size as u64 - 1; // b_i ranges over 0..top
        let count = MultisetIndex::count_of(size, fingers)?;
        let table = (0..size)
            .map(|i| {
                (0..top)
                    .map(|b| {
                        binomial(b, i as u64 + 1)
                            .map_or(u64::MAX, |c| c.min(u64::MAX as u128) as u64)
                    })
                    .collect()
            })
            .collect();
        Ok(MultisetIndex {
            size,
            fingers,
            count,
            table,
        })
    }

    /// The number of multisets.
    #[inline]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The number of values in each multiset.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rank of a sorted multiset. The slice must be sorted, of length `size`, with
    /// every value below `fingers`.
    pub fn rank(&self, sorted: &[u32]) -> u64 {
        debug_assert_eq!(sorted.len(), self.size);
        debug_assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
        sorted
            .iter()
            .enumerate()
            .map(|(i, &a)| self.table[i][a as usize + i])
            .sum()
    }

    /// Writes the multiset of the given rank, sorted, into `out` (length `size`).
    pub fn unrank(&self, mut rank: u64, out: &mut [u32]) {
        debug_assert!(rank < self.count);
        for i in (0..self.size).rev() {
            let row = &self.table[i];
            // The largest b with C(b, i+1) <= rank; row is non-decreasing.
            let b = row.partition_point(|&c| c <= rank) - 1;
            rank -= row[b];
            out[i] = (b - i) as u32;
        }
        debug_assert!(out.iter().all(|&v| v < self.fingers));
    }

    /// Every multiset in rank order.
    pub fn all(&self) -> Vec<Vec<u32>> {
        (0..self.count)
            .map(|r| {
                let mut v = vec![0; self.size];
                self.unrank(r, &mut v);
                v
            })
            .collect()
    }
}

/// The dense index of all canonical positions of one ruleset.
#[derive(Clone, Debug)]
pub struct PositionIndex {
    hands: Vec<usize>,
    period: usize,
    /// One multiset index per distinct hand count, looked up by hand count.
    multisets: Vec<Option<MultisetIndex>>,
    /// For each seat class, the number of multisets of each player (mover
    /// first): the radices of [`PositionIndex::join`] and
    /// [`PositionIndex::split`], looked up once here.
    radices: Vec<[u64; crate::MAX_PLAYERS]>,
    block: u64,
    count: u64,
}

impl PositionIndex {
    /// Builds the index for a (valid) ruleset, or refuses a variant whose positions
    /// cannot be numbered in 64 bits.
    pub fn new(rules: &Ruleset) -> Result<PositionIndex> {
        rules.validate()?;
        let too_large =
            || RulesError::TooLarge(format!("{} has more than 2^64 positions", rules.describe()));
        // Count first; build the rank tables only for a variant that can be indexed.
        let mut block: u64 = 1;
        for &h in &rules.hands {
            let n = MultisetIndex::count_of(h, rules.fingers)?;
            block = block.checked_mul(n).ok_or_else(too_large)?;
        }
        let period = rules.rotation_period();
        let count = block.checked_mul(period as u64).ok_or_else(too_large)?;
        let max_hands = *rules.hands.iter().max().expect("at least two players");
        let mut multisets: Vec<Option<MultisetIndex>> = vec![None; max_hands + 1];
        for &h in &rules.hands {
            if multisets[h].is_none() {
                multisets[h] = Some(MultisetIndex::new(h, rules.fingers)?);
            }
        }
        let players = rules.hands.len();
        let radices = (0..period)
            .map(|seat| {
                let mut radix = [1u64; crate::MAX_PLAYERS];
                for (k, slot) in radix.iter_mut().enumerate().take(players) {
                    let hands = rules.hands[(seat + k) % players];
                    *slot = multisets[hands].as_ref().expect("built above").count();
                }
                radix
            })
            .collect();
        Ok(PositionIndex {
            hands: rules.hands.clone(),
            period,
            multisets,
            radices,
            block,
            count,
        })
    }

    /// The number of canonical positions (functionally distinct positions).
    #[inline]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The number of players.
    #[inline]
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// The number of seat classes (1 for symmetric rules).
    #[inline]
    pub fn period(&self) -> usize {
        self.period
    }

    /// The multiset index for players with `hands` hands.
    #[inline]
    pub fn multiset(&self, hands: usize) -> &MultisetIndex {
        self.multisets[hands]
            .as_ref()
            .expect("a hand count of this ruleset")
    }

    /// Number of hands of the k-th player after the mover when the mover sits in `seat`.
    #[inline]
    pub fn hands_of(&self, seat: usize, k: usize) -> usize {
        self.hands[(seat + k) % self.hands.len()]
    }

    /// Combines a seat class and the players' multiset ranks (mover first).
    #[inline]
    pub fn join(&self, seat: usize, ranks: &[u64]) -> u64 {
        let radix = &self.radices[seat];
        let mut idx = 0u64;
        for (k, &r) in ranks.iter().enumerate() {
            idx = idx * radix[k] + r;
        }
        seat as u64 * self.block + idx
    }

    /// Splits an index into its seat class and the players' ranks (mover first);
    /// `ranks` must have one slot per player.
    #[inline]
    pub fn split(&self, index: u64, ranks: &mut [u64]) -> usize {
        debug_assert!(index < self.count);
        let (seat, mut rest) = if self.period == 1 {
            (0, index)
        } else {
            ((index / self.block) as usize, index % self.block)
        };
        let radix = &self.radices[seat];
        for k in (1..self.players()).rev() {
            ranks[k] = rest % radix[k];
            rest /= radix[k];
        }
        // What is left is below the mover's radix: the mover's rank.
        ranks[0] = rest;
        seat
    }

    /// The index of a canonical position of this ruleset.
    pub fn rank(&self, pos: &Position) -> u64 {
        let mut ranks = [0u64; MAX_PLAYERS];
        let seat = pos.seat();
        for (k, hands) in pos.players().iter().enumerate() {
            ranks[k] = self.multiset(self.hands_of(seat, k)).rank(hands);
        }
        self.join(seat, &ranks[..self.players()])
    }

    /// The position with the given index.
    pub fn unrank(&self, index: u64) -> Position {
        let mut ranks = [0u64; MAX_PLAYERS];
        let p = self.players();
        let seat = self.split(index, &mut ranks[..p]);
        let players = (0..p)
            .map(|k| {
                let m = self.multiset(self.hands_of(seat, k));
                let mut v = vec![0; m.size()];
                m.unrank(ranks[k], &mut v);
                v
            })
            .collect();
        Position::from_canonical(seat, players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    #[test]
    fn multiset_counts() {
        assert_eq!(MultisetIndex::new(2, 5).unwrap().count(), 15);
        assert_eq!(MultisetIndex::new(6, 10).unwrap().count(), 5005);
        assert_eq!(MultisetIndex::new(1, 607).unwrap().count(), 607);
    }

    #[test]
    fn multiset_rank_is_colex_and_bijective() {
        let m = MultisetIndex::new(3, 4).unwrap();
        let all = m.all();
        assert_eq!(all.len() as u64, m.count());
        assert_eq!(all[0], vec![0, 0, 0]);
        assert_eq!(*all.last().unwrap(), vec![3, 3, 3]);
        for (r, v) in all.iter().enumerate() {
            assert!(v.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(m.rank(v), r as u64);
        }
    }

    #[test]
    fn wikipedia_distinct_count() {
        let idx = PositionIndex::new(&Preset::Rollover.ruleset()).unwrap();
        assert_eq!(idx.count(), 225);
    }

    #[test]
    fn too_large_is_refused() {
        let mut r = Preset::Rollover.ruleset();
        r.hands = vec![16; 8];
        r.fingers = 1 << 20;
        assert!(matches!(
            PositionIndex::new(&r),
            Err(RulesError::TooLarge(_))
        ));
    }
}
