//! # chopsticks-atlas: the outcome class of every Simple Chopsticks position
//!
//! The paper's game (Dailly, Gledel, Nowakowski, Santos): a position
//! `(x1,…,xl | y1,…,yr)_n` lists Left's and Right's live hands, each holding
//! `1..=n` fingers; Left moves by adding one of her hands to one of Right's, Right
//! the other way round, and a hand passing `n` is removed. A player who cannot move
//! (because a side has no hand left) loses. This crate finds the **outcome class**
//! (L, R, N or P) of every position with at most `H` hands a side, without canonical
//! forms, so it reaches sizes the value engine cannot (30 hands a side at `n = 3`
//! are about thirty million positions).
//!
//! ## The model
//!
//! * **A side** is a multiset of at most `H` values in `1..=n`; padded with dead
//!   hands (`0`) to exactly `H` values it is a sorted multiset over `0..=n`, ranked
//!   densely by [`chopsticks_rules::MultisetIndex`] (rank 0 is the empty side).
//!   [`Sides`] tabulates, per rank, the live values, the hand count, the finger sum
//!   and the rank reached when the hand `y` is hit by `x`.
//! * **A position** is an ordered pair of sides, Left's first, numbered
//!   `left · count + right`.
//! * **One bit per position**: `W(a, b)` = "the player whose side is `a` wins moving
//!   first when the opponent's side is `b`". Left moving first in `(a | b)` wins when
//!   `W(a, b)`; Right moving first wins when `W(b, a)`, since the rules treat the
//!   players alike. So `W(a, b)` holds iff some hit of a hand of `b` by a hand of `a`
//!   gives a side `b'` with `W(b', a)` false (a move leaving `b` empty is such a move:
//!   an empty side cannot move). The outcome of `(a | b)` is then L when only
//!   `W(a, b)`, R when only `W(b, a)`, N when both, P when neither.
//! * **Order**: every move either removes a hand, or keeps the hand counts and adds
//!   at least one finger. So positions are solved level by level, by total hand count
//!   ascending and, within it, total finger count descending; all positions of a
//!   level depend only on finished levels and are solved in parallel (`rayon`), their
//!   bits set in an atomic bit set.
//!
//! Memory: one bit per position plus the side tables (see [`Atlas::bytes`]).
//!
//! ```
//! use chopsticks_atlas::Atlas;
//! use chopsticks_cgt::Outcome;
//!
//! let atlas = Atlas::solve(2, 3, None).unwrap();
//! // Proposition 2 of the paper: (1,1|1,1)_2 has a, c even, so N; (1|1)_2 is P.
//! assert_eq!(atlas.outcome(&[1, 1], &[1, 1]).unwrap(), chopsticks_cgt::Outcome::N);
//! assert_eq!(atlas.outcome(&[1], &[1]).unwrap(), Outcome::P);
//! ```

pub mod equal_hands;
pub mod every_n;
pub mod five;
pub mod formula;
pub mod four;
pub mod levels;
pub mod smt;
pub mod three;

pub use levels::{LevelAtlas, LevelSize};

use std::sync::atomic::{AtomicU64, Ordering};

use chopsticks_cgt::Outcome;
use chopsticks_rules::MultisetIndex;
use rayon::prelude::*;
use thiserror::Error;

/// What can go wrong when building an atlas or asking it about a position.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtlasError {
    /// The finger count or hand bound is out of range.
    #[error("{0}")]
    Invalid(String),
    /// The atlas would be too large; says which table and by how much.
    #[error("{0}")]
    TooLarge(String),
    /// A position that is not in the atlas.
    #[error("{0}")]
    Position(String),
}

/// The largest finger count `n` accepted (values are stored in a byte).
pub const MAX_N: u32 = 250;
/// The largest number of positions accepted (a bit set of 8 GiB).
pub const MAX_POSITIONS: u64 = 1 << 36;
/// The largest side-transition table accepted (entries of four bytes).
pub(crate) const MAX_TRANSITIONS: u64 = 1 << 30;

/// The sides of an atlas: every multiset of at most `H` values in `1..=n`, by rank.
#[derive(Clone, Debug)]
pub struct Sides {
    n: u32,
    max_hands: usize,
    count: u32,
    index: MultisetIndex,
    /// Live values of each side, ascending, padded with 0 to `max_hands`.
    values: Vec<u8>,
    hands: Vec<u8>,
    sum: Vec<u32>,
    /// The distinct live values of each side, ascending, padded with 0 to `max_hands`.
    distinct: Vec<u8>,
    /// `hit[(rank · n + y - 1) · n + x - 1]`: the side after its hand `y` is hit by `x`.
    hit: Vec<u32>,
    /// Ranks by hand count, then live values in lexicographic order.
    order: Vec<u32>,
}

impl Sides {
    /// The number of sides with at most `max_hands` values in `1..=n`: `C(n + H, H)`.
    pub fn count_of(n: u32, max_hands: usize) -> Option<u64> {
        MultisetIndex::count_of(max_hands, n + 1).ok()
    }

    fn new(n: u32, max_hands: usize) -> Result<Sides, AtlasError> {
        let index =
            MultisetIndex::new(max_hands, n + 1).map_err(|e| AtlasError::Invalid(e.to_string()))?;
        let count = index.count() as usize;
        let nn = n as usize;
        let mut values = vec![0u8; count * max_hands];
        let mut hands = vec![0u8; count];
        let mut sum = vec![0u32; count];
        let mut distinct = vec![0u8; count * max_hands];
        let mut padded = vec![0u32; max_hands];
        for r in 0..count {
            index.unrank(r as u64, &mut padded);
            let live: Vec<u32> = padded.iter().copied().filter(|&v| v > 0).collect();
            hands[r] = live.len() as u8;
            sum[r] = live.iter().sum();
            let mut d = 0;
            for (k, &v) in live.iter().enumerate() {
                values[r * max_hands + k] = v as u8;
                if k == 0 || live[k - 1] != v {
                    distinct[r * max_hands + d] = v as u8;
                    d += 1;
                }
            }
        }
        let hit: Vec<u32> = (0..count)
            .into_par_iter()
            .flat_map_iter(|r| {
                let live: Vec<u32> = values[r * max_hands..(r + 1) * max_hands]
                    .iter()
                    .filter(|&&v| v > 0)
                    .map(|&v| v as u32)
                    .collect();
                let index = &index;
                (1..=n).flat_map(move |y| {
                    let live = live.clone();
                    (1..=n).map(move |x| {
                        let Some(k) = live.iter().position(|&v| v == y) else {
                            return u32::MAX; // no hand y: never read
                        };
                        let mut next = live.clone();
                        next.remove(k);
                        if x + y <= n {
                            next.push(x + y);
                        }
                        let mut padded = vec![0u32; max_hands - next.len()];
                        next.sort_unstable();
                        padded.extend(next);
                        index.rank(&padded) as u32
                    })
                })
            })
            .collect();
        debug_assert_eq!(hit.len(), count * nn * nn);
        let mut order: Vec<u32> = (0..count as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            hands[a].cmp(&hands[b]).then_with(|| {
                values[a * max_hands..(a + 1) * max_hands]
                    .cmp(&values[b * max_hands..(b + 1) * max_hands])
            })
        });
        Ok(Sides {
            n,
            max_hands,
            count: count as u32,
            index,
            values,
            hands,
            sum,
            distinct,
            hit,
            order,
        })
    }

    /// The number of sides.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The live values of side `rank`, ascending.
    pub fn values(&self, rank: u32) -> impl Iterator<Item = u32> + '_ {
        let h = self.max_hands;
        let r = rank as usize;
        self.values[r * h..(r + 1) * h]
            .iter()
            .take(self.hands[r] as usize)
            .map(|&v| v as u32)
    }

    /// The number of live hands of side `rank`.
    pub fn hands(&self, rank: u32) -> usize {
        self.hands[rank as usize] as usize
    }

    /// The finger sum of side `rank`.
    pub fn sum(&self, rank: u32) -> u32 {
        self.sum[rank as usize]
    }

    /// The distinct live values of side `rank`, ascending.
    pub fn distinct(&self, rank: u32) -> impl Iterator<Item = u32> + '_ {
        let h = self.max_hands;
        self.distinct[rank as usize * h..(rank as usize + 1) * h]
            .iter()
            .take_while(|&&v| v > 0)
            .map(|&v| v as u32)
    }

    /// The side `rank` after its hand `y` (which it must hold) is hit by a hand `x`.
    pub fn hit(&self, rank: u32, y: u32, x: u32) -> u32 {
        let n = self.n as usize;
        self.hit[(rank as usize * n + y as usize - 1) * n + x as usize - 1]
    }

    /// The rank of a side given by its hands (`0` = dead, any order).
    pub fn rank_of(&self, hands: &[u32]) -> Result<u32, AtlasError> {
        let mut live: Vec<u32> = hands.iter().copied().filter(|&v| v != 0).collect();
        if let Some(&v) = live.iter().find(|&&v| v > self.n) {
            return Err(AtlasError::Position(format!(
                "a hand holds {v} fingers, more than n = {}",
                self.n
            )));
        }
        if live.len() > self.max_hands {
            return Err(AtlasError::Position(format!(
                "{} hands on a side, more than this atlas's {}",
                live.len(),
                self.max_hands
            )));
        }
        live.sort_unstable();
        let mut padded = vec![0u32; self.max_hands - live.len()];
        padded.extend(live);
        Ok(self.index.rank(&padded) as u32)
    }

    /// Every rank, by hand count and then lexicographically by live values.
    pub fn in_order(&self) -> &[u32] {
        &self.order
    }
}

/// Outcome counts, in the order L, R, N, P.
pub type Counts = [u64; 4];

fn slot(o: Outcome) -> usize {
    match o {
        Outcome::L => 0,
        Outcome::R => 1,
        Outcome::N => 2,
        Outcome::P => 3,
    }
}

/// The size of an atlas, from [`Atlas::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Sides (multisets of at most `H` hands).
    pub sides: u64,
    /// Positions: sides squared.
    pub positions: u64,
    /// Bytes of the tables ([`Atlas::bytes`]).
    pub bytes: u64,
}

/// The outcome class of every position `(x | y)_n` with at most `H` hands a side.
#[derive(Debug)]
pub struct Atlas {
    sides: Sides,
    /// `W(a, b)` at bit `a · count + b` (see the crate documentation).
    wins: Vec<u64>,
}

impl Atlas {
    /// Positions of the atlas for `n` and `H`: the number of sides squared.
    pub fn positions(n: u32, max_hands: usize) -> Option<u128> {
        Sides::count_of(n, max_hands).map(|c| c as u128 * c as u128)
    }

    /// Bytes the atlas takes: a bit per position, and per side its values, counts
    /// and `n²` four-byte transitions.
    pub fn bytes(n: u32, max_hands: usize) -> Option<u128> {
        let c = Sides::count_of(n, max_hands)? as u128;
        let per_side = max_hands as u128 + 1 + 4 + 8 + 4 + 4 * (n as u128) * (n as u128);
        Some(c * c / 8 + c * per_side)
    }

    /// Checks that the atlas for `n` and `H` can be built (the bounds, the number of
    /// positions, the size of the transition table) and returns its size, without
    /// building anything: the errors [`Atlas::solve`] would return first.
    pub fn check(n: u32, max_hands: usize) -> Result<Size, AtlasError> {
        if n == 0 || n > MAX_N {
            return Err(AtlasError::Invalid(format!(
                "the finger count n must be between 1 and {MAX_N}, not {n}"
            )));
        }
        if max_hands == 0 || max_hands > 255 {
            return Err(AtlasError::Invalid(format!(
                "the number of hands a side must be between 1 and 255, not {max_hands}"
            )));
        }
        let Some(count) = Sides::count_of(n, max_hands) else {
            return Err(AtlasError::TooLarge(format!(
                "(x|y)_{n} with up to {max_hands} hands a side has more sides than a 64-bit count holds"
            )));
        };
        let positions = count as u128 * count as u128;
        let bytes = Atlas::bytes(n, max_hands);
        if positions > MAX_POSITIONS as u128 {
            return Err(AtlasError::TooLarge(format!(
                "(x|y)_{n} with up to {max_hands} hands a side has {positions} positions ({} bytes of tables); this solver handles at most {MAX_POSITIONS} (2^36)",
                bytes.map_or("more than 2^128".to_string(), |b| b.to_string())
            )));
        }
        let transitions = count as u128 * n as u128 * n as u128;
        if transitions > MAX_TRANSITIONS as u128 {
            return Err(AtlasError::TooLarge(format!(
                "(x|y)_{n} with up to {max_hands} hands a side needs {count} sides × n² = {transitions} hit transitions; this solver tables at most {MAX_TRANSITIONS} (2^30)"
            )));
        }
        Ok(Size {
            sides: count,
            positions: positions as u64,
            bytes: bytes.expect("bounded by the checks above") as u64,
        })
    }

    /// Solves every position with at most `max_hands` hands a side at finger count
    /// `n`. `progress` is called with the number of positions solved so far.
    pub fn solve(
        n: u32,
        max_hands: usize,
        progress: Option<&(dyn Fn(u64) + Sync)>,
    ) -> Result<Atlas, AtlasError> {
        let count = Atlas::check(n, max_hands)?.sides;
        let sides = Sides::new(n, max_hands)?;
        let total = count * count;
        let bits: Vec<AtomicU64> = (0..total.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();

        // Sides by (hand count, finger sum).
        let max_sum = max_hands * n as usize;
        let key = |h: usize, s: usize| h * (max_sum + 1) + s;
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); (max_hands + 1) * (max_sum + 1)];
        for r in 0..count as u32 {
            buckets[key(sides.hands(r), sides.sum(r) as usize)].push(r);
        }

        let wins = |a: u32, b: u32| -> bool {
            let i = a as u64 * count + b as u64;
            bits[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1
        };
        let mut done = 0u64;
        for t in 0..=2 * max_hands {
            for s in (0..=2 * max_sum).rev() {
                // Pairs of buckets (a's, b's) with hand counts summing to t and
                // finger sums summing to s.
                let mut units: Vec<(u32, usize)> = Vec::new();
                for ha in t.saturating_sub(max_hands)..=t.min(max_hands) {
                    let hb = t - ha;
                    for sa in ha..=(ha * n as usize).min(s) {
                        let sb = s - sa;
                        if sb < hb || sb > hb * n as usize {
                            continue;
                        }
                        let (ka, kb) = (key(ha, sa), key(hb, sb));
                        if buckets[kb].is_empty() {
                            continue;
                        }
                        units.extend(buckets[ka].iter().map(|&a| (a, kb)));
                    }
                }
                if units.is_empty() {
                    continue;
                }
                let solved: u64 = units
                    .par_iter()
                    .map(|&(a, kb)| {
                        for &b in &buckets[kb] {
                            let win = sides
                                .distinct(b)
                                .any(|y| sides.distinct(a).any(|x| !wins(sides.hit(b, y, x), a)));
                            if win {
                                let i = a as u64 * count + b as u64;
                                bits[(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
                            }
                        }
                        buckets[kb].len() as u64
                    })
                    .sum();
                done += solved;
                if let Some(p) = progress {
                    p(done);
                }
            }
        }
        debug_assert_eq!(done, total);
        Ok(Atlas {
            sides,
            wins: bits.into_iter().map(AtomicU64::into_inner).collect(),
        })
    }

    /// The finger count `n`.
    pub fn n(&self) -> u32 {
        self.sides.n
    }

    /// The largest number of hands a side.
    pub fn max_hands(&self) -> usize {
        self.sides.max_hands
    }

    /// The sides, for iterating and naming positions.
    pub fn sides(&self) -> &Sides {
        &self.sides
    }

    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.sides.count as u64 * self.sides.count as u64
    }

    /// Always false: an atlas holds at least the position with two empty sides.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether the player with side `a` wins moving first against side `b`.
    pub fn wins_first(&self, a: u32, b: u32) -> bool {
        let i = a as u64 * self.sides.count as u64 + b as u64;
        self.wins[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// The outcome of the position with Left's side `left` and Right's side `right`.
    pub fn outcome_at(&self, left: u32, right: u32) -> Outcome {
        match (self.wins_first(left, right), self.wins_first(right, left)) {
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (true, true) => Outcome::N,
            (false, false) => Outcome::P,
        }
    }

    /// The outcome of `(left | right)_n` (hands in any order, `0` = dead).
    pub fn outcome(&self, left: &[u32], right: &[u32]) -> Result<Outcome, AtlasError> {
        Ok(self.outcome_at(self.sides.rank_of(left)?, self.sides.rank_of(right)?))
    }

    /// Left's options of `(left | right)`: `(x, y, right')` for each distinct hit of
    /// Right's hand `y` by Left's hand `x`. Right's options are those of the swapped
    /// position `(right | left)`.
    pub fn options(&self, left: u32, right: u32) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.sides.distinct(right).flat_map(move |y| {
            self.sides
                .distinct(left)
                .map(move |x| (x, y, self.sides.hit(right, y, x)))
        })
    }

    /// The position in the paper's notation, `(1,1|2)_3` (an empty side is blank).
    pub fn paper(&self, left: u32, right: u32) -> String {
        let side = |r: u32| {
            self.sides
                .values(r)
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("({}|{})_{}", side(left), side(right), self.sides.n)
    }

    /// Outcome counts over every position, and by hand counts `[l][r]`.
    pub fn summary(&self) -> Summary {
        let h = self.sides.max_hands;
        let count = self.sides.count;
        let by_hands = (0..count)
            .into_par_iter()
            .fold(
                || vec![[0u64; 4]; (h + 1) * (h + 1)],
                |mut acc, a| {
                    let la = self.sides.hands(a);
                    for b in 0..count {
                        let o = self.outcome_at(a, b);
                        acc[la * (h + 1) + self.sides.hands(b)][slot(o)] += 1;
                    }
                    acc
                },
            )
            .reduce(
                || vec![[0u64; 4]; (h + 1) * (h + 1)],
                |mut x, y| {
                    for (u, v) in x.iter_mut().zip(&y) {
                        for k in 0..4 {
                            u[k] += v[k];
                        }
                    }
                    x
                },
            );
        let mut total = [0u64; 4];
        for c in &by_hands {
            for k in 0..4 {
                total[k] += c[k];
            }
        }
        Summary {
            n: self.sides.n,
            max_hands: h,
            total,
            by_hands: by_hands.chunks(h + 1).map(|r| r.to_vec()).collect(),
        }
    }
}

/// Outcome counts of an atlas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The finger count.
    pub n: u32,
    /// The largest number of hands a side.
    pub max_hands: usize,
    /// Counts of L, R, N, P over every position.
    pub total: Counts,
    /// `by_hands[l][r]`: counts of L, R, N, P among positions where Left has `l`
    /// hands and Right `r`.
    pub by_hands: Vec<Vec<Counts>>,
}

impl Summary {
    /// The count of one outcome in `counts`.
    pub fn get(counts: &Counts, o: Outcome) -> u64 {
        counts[slot(o)]
    }
}

/// The outcomes in the order of [`Counts`].
pub const OUTCOMES: [Outcome; 4] = [Outcome::L, Outcome::R, Outcome::N, Outcome::P];
