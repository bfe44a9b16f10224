//! The outcome of every position from the positions with equal hand counts.
//!
//! The full [`crate::Atlas`] stores a bit for every pair of sides. The paper's
//! Theorem 4 and Lemma 1 say that almost all of them are decided by the hand counts
//! alone, so this atlas stores only the pairs of sides with **equal** hand counts,
//! one *level* per count `h`, and reads everything else off those:
//!
//! * `ℓ ≥ r + 2`: Left wins whoever starts (Theorem 4: more hands wins for the
//!   first player, and after any first move of Right, Left still has at least one
//!   hand more and moves). `r ≥ ℓ + 2`: Right.
//! * `ℓ = r + 1`: Left wins moving first (Theorem 4). Right wins moving first
//!   exactly when some hit of his removes a hand of Left's and leaves her, with
//!   `r` hands against his `r`, lost moving first (Lemma 1: any other move leaves
//!   her a hand ahead and to move).
//! * `ℓ = r`: the level `r`.
//! * A side without hands: the game is over, `P`.
//!
//! Within a level, `W(A, B)` ("the side `A` wins moving first against `B`") holds
//! iff some hit of a hand `y` of `B` by a hand `x` of `A`
//!
//! * keeps the hand (`x + y ≤ n`), giving `B'` in the same level with
//!   `W(B', A)` false; or
//! * removes it, giving `B − y` one level down, from which the opponent, a hand
//!   short and moving first, cannot win: he would have to remove a hand of `A` in
//!   turn and leave `A − y'` lost against `B − y`, a pair of the level below.
//!
//! So level `h` needs only level `h − 1` and itself, at positions with more fingers.
//! It is solved in layers of the total finger count, highest first. Its sides are
//! numbered by finger sum, so that the pairs of one layer form blocks, and the
//! reads of a row `A` (`W(B', A)` for many `B'`) go to one row of the transposed
//! table, which each finished layer updates block by block; the removals read one
//! row of a table `V` computed a word (64 sides) at a time from at most `n` rows of
//! the level below.
//!
//! Memory: a bit per pair of equal-sized sides, kept for every level (`Σ C(h + n −
//! 1, h)²` bits: 1.8 GB for `n = 4` and 60 hands, against 50 GB for the full
//! atlas), plus two tables of the largest level while it is solved.
//!
//! The full atlas does not use Theorem 4 or Lemma 1; the tests check that both
//! atlases agree on every position of small sizes.

use chopsticks_cgt::Outcome;
use chopsticks_rules::MultisetIndex;
use rayon::prelude::*;

use crate::{slot, AtlasError, Counts, Summary, MAX_N, MAX_TRANSITIONS};

/// The largest number of bits the level atlas keeps (2^35: 4 GiB; `n = 4` with
/// 60 hands a side keeps 1.5·10^10 and takes about four minutes on two cores).
pub const MAX_LEVEL_BITS: u128 = 1 << 35;

/// The sides with exactly `hands` live hands, numbered by finger sum, then
/// lexicographically, and the outcome bits of every pair of them.
#[derive(Debug)]
struct Level {
    hands: usize,
    count: usize,
    index: MultisetIndex,
    /// Level number of each side, by its rank in `index` (values `v − 1`).
    from_lex: Vec<u32>,
    /// Live values of each side, ascending (`hands` bytes a side).
    values: Vec<u8>,
    /// The distinct values of each side, ascending, padded with 0 (`n` bytes a side).
    distinct: Vec<u8>,
    /// Finger sum of each side.
    sum: Vec<u32>,
    /// `start[s - hands]..start[s - hands + 1]`: the sides with finger sum `s`.
    start: Vec<u32>,
    /// `hit[(side · n + y − 1) · n + x − 1]`: the side after its hand `y` is hit by
    /// `x`: in this level when `x + y ≤ n`, in the level below otherwise.
    hit: Vec<u32>,
    /// Words per row of a table over this level's sides.
    stride: usize,
    /// `W(a, b)` at bit `b` of row `a` (rows of `stride` words).
    wins: Vec<u64>,
    /// Per pair (`a` of this level, `b` of the level below): whether `b`, a hand
    /// short and moving first, wins against `a` (the `ℓ = r + 1` positions).
    /// Kept only as their number.
    fewer_wins: u64,
    /// Outcome counts of the pairs of this level (Left's side first).
    counts: Counts,
}

impl Level {
    fn new(n: u32, hands: usize, below: Option<&Level>) -> Result<Level, AtlasError> {
        let nn = n as usize;
        let index = MultisetIndex::new(hands, n).map_err(|e| AtlasError::Invalid(e.to_string()))?;
        let count = index.count() as usize;
        let mut all: Vec<(u32, Vec<u8>)> = (0..count as u64)
            .map(|r| {
                let mut v = vec![0u32; hands];
                index.unrank(r, &mut v);
                let live: Vec<u8> = v.iter().map(|&x| x as u8 + 1).collect();
                (live.iter().map(|&x| x as u32).sum(), live)
            })
            .collect();
        all.sort();
        let mut from_lex = vec![0u32; count];
        let mut values = Vec::with_capacity(count * hands);
        let mut distinct = vec![0u8; count * nn];
        let mut sum = Vec::with_capacity(count);
        let mut start = vec![0u32; hands * (nn - 1) + 2];
        for (i, (s, live)) in all.iter().enumerate() {
            let lex: Vec<u32> = live.iter().map(|&x| x as u32 - 1).collect();
            from_lex[index.rank(&lex) as usize] = i as u32;
            values.extend_from_slice(live);
            let mut d = 0;
            for (k, &v) in live.iter().enumerate() {
                if k == 0 || live[k - 1] != v {
                    distinct[i * nn + d] = v;
                    d += 1;
                }
            }
            sum.push(*s);
            start[*s as usize - hands + 1] += 1;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let rank_here = |live: &[u32]| -> u32 {
            let lex: Vec<u32> = live.iter().map(|&x| x - 1).collect();
            from_lex[index.rank(&lex) as usize]
        };
        let mut hit = vec![u32::MAX; count * nn * nn];
        for i in 0..count {
            let live: Vec<u32> = values[i * hands..(i + 1) * hands]
                .iter()
                .map(|&v| v as u32)
                .collect();
            for &y in distinct[i * nn..(i + 1) * nn]
                .iter()
                .take_while(|&&v| v > 0)
            {
                let y = y as u32;
                let k = live.iter().position(|&v| v == y).expect("a hand y");
                for x in 1..=n {
                    let mut next = live.clone();
                    next.remove(k);
                    let to = if x + y <= n {
                        next.push(x + y);
                        next.sort_unstable();
                        rank_here(&next)
                    } else {
                        let below = below.expect("a level below a level with hands");
                        below.rank_of_sorted(&next)
                    };
                    hit[(i * nn + y as usize - 1) * nn + x as usize - 1] = to;
                }
            }
        }
        let stride = count.div_ceil(64);
        Ok(Level {
            hands,
            count,
            index,
            from_lex,
            values,
            distinct,
            sum,
            start,
            hit,
            stride,
            wins: Vec::new(),
            fewer_wins: 0,
            counts: [0; 4],
        })
    }

    fn rank_of_sorted(&self, live: &[u32]) -> u32 {
        let lex: Vec<u32> = live.iter().map(|&x| x - 1).collect();
        self.from_lex[self.index.rank(&lex) as usize]
    }

    fn distinct(&self, n: usize, side: usize) -> impl Iterator<Item = u32> + '_ {
        self.distinct[side * n..(side + 1) * n]
            .iter()
            .take_while(|&&v| v > 0)
            .map(|&v| v as u32)
    }

    fn wins(&self, a: u32, b: u32) -> bool {
        self.wins[a as usize * self.stride + b as usize / 64] >> (b % 64) & 1 == 1
    }

    /// The sides with finger sum `s`, as a range of numbers.
    fn bucket(&self, s: u32) -> std::ops::Range<usize> {
        let lo = self.hands as u32;
        if s < lo || s as usize >= lo as usize + self.start.len() - 1 {
            return 0..0;
        }
        let k = (s - lo) as usize;
        self.start[k] as usize..self.start[k + 1] as usize
    }

    /// Solves the level from the level below (`None` for level 0).
    fn solve(&mut self, n: u32, below: Option<&Level>) {
        let nn = n as usize;
        let count = self.count;
        let stride = self.stride;
        if self.hands == 0 {
            // The empty side against the empty side: nobody can move.
            self.wins = vec![0; stride];
            self.counts[slot(Outcome::P)] = 1;
            return;
        }
        let below = below.expect("a level below");
        // `fewer[a]`: row `a` over the level below: whether `b` (a hand short,
        // moving first) wins against `a`: some hand `x'` of `b` removes a hand `y'`
        // of `a` (`x' + y' > n`) and `a − y'` loses moving first against `b`.
        let below_stride = below.stride;
        // `reach[k]`: the sides of the level below holding a value `≥ k`.
        let mut reach = vec![vec![0u64; below_stride]; nn + 2];
        for b in 0..below.count {
            let top = if below.hands == 0 {
                0
            } else {
                below.values[(b + 1) * below.hands - 1] as usize
            };
            for row in reach.iter_mut().take(top + 1).skip(1) {
                row[b / 64] |= 1 << (b % 64);
            }
        }
        let mut fewer = vec![0u64; count * below_stride];
        fewer
            .par_chunks_mut(below_stride)
            .enumerate()
            .for_each(|(a, row)| {
                for y in self.distinct(nn, a) {
                    let removed = self.hit[(a * nn + y as usize - 1) * nn + nn - 1] as usize;
                    let lost = &below.wins[removed * below_stride..(removed + 1) * below_stride];
                    let killers = &reach[nn + 1 - y as usize];
                    for (w, word) in row.iter_mut().enumerate() {
                        *word |= killers[w] & !lost[w];
                    }
                }
                if !below.count.is_multiple_of(64) {
                    row[below_stride - 1] &= (1u64 << (below.count % 64)) - 1;
                }
            });
        self.fewer_wins = fewer.iter().map(|w| w.count_ones() as u64).sum();

        let mut wins = vec![0u64; count * stride];
        // `flipped[a]`: row `a` holds `W(b, a)` for the layers finished so far.
        let mut flipped = vec![0u64; count * stride];
        let lo = self.hands as u32;
        let hi = self.hands as u32 * n;
        for s in (2 * lo..=2 * hi).rev() {
            {
                let flipped = &flipped;
                let fewer = &fewer;
                let this = &*self;
                wins.par_chunks_mut(stride)
                    .enumerate()
                    .for_each(|(a, row)| {
                        let sa = this.sum[a];
                        if s < sa {
                            return;
                        }
                        let range = this.bucket(s - sa);
                        if range.is_empty() {
                            return;
                        }
                        let back = &flipped[a * stride..(a + 1) * stride];
                        let down = &fewer[a * below_stride..(a + 1) * below_stride];
                        for b in range {
                            let win = this.distinct(nn, b).any(|y| {
                                this.distinct(nn, a).any(|x| {
                                    let to = this.hit
                                        [(b * nn + y as usize - 1) * nn + x as usize - 1]
                                        as usize;
                                    if x + y <= n {
                                        back[to / 64] >> (to % 64) & 1 == 0
                                    } else {
                                        down[to / 64] >> (to % 64) & 1 == 0
                                    }
                                })
                            });
                            if win {
                                row[b / 64] |= 1 << (b % 64);
                            }
                        }
                    });
            }
            // The layer's blocks, transposed into `flipped`.
            let wins = &wins;
            let this = &*self;
            flipped
                .par_chunks_mut(stride)
                .enumerate()
                .for_each(|(b, row)| {
                    let sb = this.sum[b];
                    if s < sb {
                        return;
                    }
                    for a in this.bucket(s - sb) {
                        if wins[a * stride + b / 64] >> (b % 64) & 1 == 1 {
                            row[a / 64] |= 1 << (a % 64);
                        }
                    }
                });
        }
        // Outcomes: `W(a, b)` for Left moving first, `W(b, a)` (the transposed
        // table) for Right.
        let (mut l, mut r, mut both) = (0u64, 0u64, 0u64);
        for (w, t) in wins.iter().zip(&flipped) {
            l += (w & !t).count_ones() as u64;
            r += (!w & t).count_ones() as u64;
            both += (w & t).count_ones() as u64;
        }
        let total = count as u64 * count as u64;
        self.counts = [l, r, both, total - l - r - both];
        self.wins = wins;
    }
}

/// The size of a level atlas, from [`LevelAtlas::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSize {
    /// Sides (multisets of at most `H` hands).
    pub sides: u64,
    /// Positions with at most `H` hands a side (all of them are answered).
    pub positions: u128,
    /// Pairs of sides with equal hand counts (the bits stored).
    pub stored: u128,
    /// Bytes: the stored bits, and the two working tables of the largest level.
    pub bytes: u128,
}

/// The outcome of every position `(x | y)_n` with at most `H` hands a side, stored
/// for equal hand counts only (see the module documentation).
#[derive(Debug)]
pub struct LevelAtlas {
    n: u32,
    max_hands: usize,
    levels: Vec<Level>,
}

fn binomial(n: u64, k: u64) -> Option<u128> {
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c.checked_mul((n - i) as u128)? / (i as u128 + 1);
    }
    Some(c)
}

impl LevelAtlas {
    /// Checks the bounds and the memory the atlas for `n` and `H` needs, without
    /// building anything: the errors [`LevelAtlas::solve`] would return first.
    pub fn check(n: u32, max_hands: usize) -> Result<LevelSize, AtlasError> {
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
        let too_large = || {
            AtlasError::TooLarge(format!(
                "(x|y)_{n} with up to {max_hands} hands a side has more sides than a 128-bit count holds"
            ))
        };
        let mut sides: u128 = 0;
        let mut stored: u128 = 0;
        let mut largest: u128 = 0;
        let mut largest_sides: u128 = 0;
        for h in 0..=max_hands as u64 {
            let c = binomial(h + n as u64 - 1, h).ok_or_else(too_large)?;
            largest_sides = largest_sides.max(c);
            sides += c;
            let words = c.div_ceil(64);
            stored = stored.checked_add(c * words * 64).ok_or_else(too_large)?;
            largest = largest.max(c * words * 64);
        }
        let positions = sides.checked_mul(sides).ok_or_else(too_large)?;
        let bytes = stored / 8 + 2 * largest / 8 + sides * (16 + 4 * n as u128 * n as u128);
        if stored > MAX_LEVEL_BITS || sides > u32::MAX as u128 {
            return Err(AtlasError::TooLarge(format!(
                "(x|y)_{n} with up to {max_hands} hands a side has {positions} positions, and its pairs of equal hand counts take {stored} bits (about {} MB with the working tables); the level atlas keeps at most {MAX_LEVEL_BITS} bits (4 GiB)",
                bytes / 1_000_000
            )));
        }
        let transitions = largest_sides * n as u128 * n as u128;
        if transitions > MAX_TRANSITIONS as u128 {
            return Err(AtlasError::TooLarge(format!(
                "(x|y)_{n} with up to {max_hands} hands a side needs {largest_sides} sides × n² = {transitions} hit transitions for its largest hand count; the level atlas tables at most {MAX_TRANSITIONS} (2^30)"
            )));
        }
        Ok(LevelSize {
            sides: sides as u64,
            positions,
            stored,
            bytes,
        })
    }

    /// Solves every position with at most `max_hands` hands a side at finger count
    /// `n`, level by level. `progress` is called with the number of levels done.
    pub fn solve(
        n: u32,
        max_hands: usize,
        progress: Option<&(dyn Fn(usize) + Sync)>,
    ) -> Result<LevelAtlas, AtlasError> {
        LevelAtlas::check(n, max_hands)?;
        let mut levels: Vec<Level> = Vec::with_capacity(max_hands + 1);
        for h in 0..=max_hands {
            let mut level = Level::new(n, h, levels.last())?;
            level.solve(n, levels.last());
            levels.push(level);
            if let Some(p) = progress {
                p(h + 1);
            }
        }
        Ok(LevelAtlas {
            n,
            max_hands,
            levels,
        })
    }

    /// The finger count `n`.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The largest number of hands a side.
    pub fn max_hands(&self) -> usize {
        self.max_hands
    }

    /// The level number of a side given by its hands (`0` = dead, any order), and
    /// its hand count.
    fn locate(&self, hands: &[u32]) -> Result<(usize, u32), AtlasError> {
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
        let h = live.len();
        Ok((h, self.levels[h].rank_of_sorted(&live)))
    }

    /// Whether the side `mover` wins moving first against `other` (hands in any
    /// order, `0` = dead).
    pub fn wins_first(&self, mover: &[u32], other: &[u32]) -> Result<bool, AtlasError> {
        let (ha, a) = self.locate(mover)?;
        let (hb, b) = self.locate(other)?;
        Ok(self.wins_at(ha, a, hb, b))
    }

    fn wins_at(&self, ha: usize, a: u32, hb: usize, b: u32) -> bool {
        if ha == 0 || hb == 0 {
            false
        } else if ha > hb {
            true
        } else if ha + 1 < hb {
            false
        } else if ha == hb {
            self.levels[ha].wins(a, b)
        } else {
            // One hand short: remove a hand `y` of the opponent (`x + y > n`) and
            // leave him lost moving first.
            let nn = self.n as usize;
            let (mine, theirs) = (&self.levels[ha], &self.levels[hb]);
            let top = mine.values[(a as usize + 1) * ha - 1] as u32;
            theirs.distinct(nn, b as usize).any(|y| {
                top + y > self.n && {
                    let removed = theirs.hit[(b as usize * nn + y as usize - 1) * nn + nn - 1];
                    !mine.wins(removed, a)
                }
            })
        }
    }

    /// The outcome of `(left | right)_n` (hands in any order, `0` = dead).
    pub fn outcome(&self, left: &[u32], right: &[u32]) -> Result<Outcome, AtlasError> {
        let (hl, l) = self.locate(left)?;
        let (hr, r) = self.locate(right)?;
        Ok(
            match (self.wins_at(hl, l, hr, r), self.wins_at(hr, r, hl, l)) {
                (true, false) => Outcome::L,
                (false, true) => Outcome::R,
                (true, true) => Outcome::N,
                (false, false) => Outcome::P,
            },
        )
    }

    /// The number of sides with exactly `hands` hands.
    pub fn sides_with(&self, hands: usize) -> u64 {
        self.levels.get(hands).map_or(0, |l| l.count as u64)
    }

    /// Outcome counts over every position, and by hand counts `[l][r]` (the same
    /// as [`crate::Atlas::summary`]).
    pub fn summary(&self) -> Summary {
        let h = self.max_hands;
        let mut by_hands = vec![vec![[0u64; 4]; h + 1]; h + 1];
        for (l, row) in by_hands.iter_mut().enumerate() {
            for (r, c) in row.iter_mut().enumerate() {
                let pairs = self.sides_with(l) * self.sides_with(r);
                if l == 0 || r == 0 {
                    c[slot(Outcome::P)] = pairs;
                } else if l >= r + 2 {
                    c[slot(Outcome::L)] = pairs;
                } else if r >= l + 2 {
                    c[slot(Outcome::R)] = pairs;
                } else if l == r {
                    *c = self.levels[l].counts;
                } else if l == r + 1 {
                    let n = self.levels[l].fewer_wins;
                    c[slot(Outcome::N)] = n;
                    c[slot(Outcome::L)] = pairs - n;
                } else {
                    let n = self.levels[r].fewer_wins;
                    c[slot(Outcome::N)] = n;
                    c[slot(Outcome::R)] = pairs - n;
                }
            }
        }
        let mut total = [0u64; 4];
        for c in by_hands.iter().flatten() {
            for k in 0..4 {
                total[k] += c[k];
            }
        }
        Summary {
            n: self.n,
            max_hands: h,
            total,
            by_hands,
        }
    }

    /// The live values of side `i` of the level `hands` (sides numbered by finger
    /// sum, then lexicographically; `i < sides_with(hands)`).
    pub fn level_side(&self, hands: usize, i: usize) -> Vec<u32> {
        let level = &self.levels[hands];
        level.values[i * hands..(i + 1) * hands]
            .iter()
            .map(|&v| v as u32)
            .collect()
    }

    /// How many hands of each value side `i` of the level `hands` holds: entry
    /// `v − 1` counts the hands of `v` fingers, for `v = 1..=n`.
    pub fn level_counts(&self, hands: usize, i: usize) -> Vec<u64> {
        let mut counts = vec![0u64; self.n as usize];
        for v in self.level_side(hands, i) {
            counts[v as usize - 1] += 1;
        }
        counts
    }

    /// Whether side `a` of the level `hands` wins moving first against its side `b`.
    pub fn level_wins(&self, hands: usize, a: usize, b: usize) -> bool {
        self.levels[hands].wins(a as u32, b as u32)
    }

    /// The pairs of sides with `hands` hands each where the first loses moving
    /// first, as (mover's values, opponent's values): the set every outcome
    /// follows from.
    pub fn lost_first(&self, hands: usize) -> Vec<(Vec<u32>, Vec<u32>)> {
        let Some(level) = self.levels.get(hands) else {
            return Vec::new();
        };
        let side = |i: usize| -> Vec<u32> {
            level.values[i * hands..(i + 1) * hands]
                .iter()
                .map(|&v| v as u32)
                .collect()
        };
        let mut out = Vec::new();
        if hands == 0 {
            return out;
        }
        for a in 0..level.count {
            for b in 0..level.count {
                if !level.wins(a as u32, b as u32) {
                    out.push((side(a), side(b)));
                }
            }
        }
        out
    }
}
