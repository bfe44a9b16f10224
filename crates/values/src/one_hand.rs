//! One hand each: the paper's Table 2 (`(1|1)_n` for every `n`) and Table 1
//! (`(i|j)_N` for `1 ≤ i, j ≤ N`).
//!
//! Three ways to compute them:
//!
//! * from scratch, one finger count at a time ([`crate::one_hand()`] on a fresh
//!   [`GameStore`]): about `0.3·n²` positions for `(1|1)_n`;
//! * incrementally with every position ([`OneHandSweep`]): the values of every
//!   `(a|b)_n` with `a + b ≤ n` are kept in a triangular table; going from
//!   `n - 1` to `n` only the positions with `a + b = n` change (from `*` to
//!   `{* | *} = 0`), and then their ancestors, which are recomputed in decreasing
//!   order of `a + b` until nothing changes. 2.5 bytes per position, `1.25·N²`
//!   bytes: Table 1 and small checks;
//! * incrementally with only the coprime positions that have no closed form
//!   ([`CoprimeSweep`], module
//!   [`coprime_sweep`](crate::coprime_sweep)): `N²/10` bytes, used by [`table2`]
//!   to check the conjecture on `±J` far beyond the paper's `n = 606`.

use chopsticks_cgt::{GameId, GameStore, Outcome};

use crate::coprime_sweep::CoprimeSweep;
use crate::error::ValueError;

/// A run of consecutive finger counts with the same value of `(1|1)_n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// First finger count of the run.
    pub from: u32,
    /// Last finger count of the run (inclusive).
    pub to: u32,
    /// The value in CGSuite notation.
    pub value: String,
    /// Its outcome class.
    pub outcome: Outcome,
}

/// Groups consecutive entries `(n, value text, outcome)` with equal values into
/// runs. The entries must be in increasing order of `n`.
pub fn runs(entries: impl IntoIterator<Item = (u32, String, Outcome)>) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (n, value, outcome) in entries {
        match out.last_mut() {
            Some(run) if run.value == value && run.to + 1 == n => run.to = n,
            _ => out.push(Run {
                from: n,
                to: n,
                value,
                outcome,
            }),
        }
    }
    out
}

/// The value and outcome of `(1|1)_n`, computed from scratch in a fresh store.
pub fn one_one_from_scratch(n: u32) -> (String, Outcome) {
    let mut store = GameStore::new();
    let g = crate::one_hand(&mut store, 1, 1, n);
    (store.format(g), store.outcome(g))
}

/// Table 2 up to `max_n`, every `n` computed from scratch (in a fresh store).
pub fn table2_from_scratch(max_n: u32) -> Vec<Run> {
    runs((1..=max_n).map(|n| {
        let (v, o) = one_one_from_scratch(n);
        (n, v, o)
    }))
}

/// Table 2 up to `max_n`, computed incrementally by a
/// [`CoprimeSweep`] (about `max_n²/10` bytes; refused with
/// [`ValueError::Memory`] above 16 GiB). `progress` is called with each finger
/// count as it is finished.
pub fn table2(max_n: u32, progress: Option<&dyn Fn(u32)>) -> Result<Vec<Run>, ValueError> {
    Ok(runs(crate::coprime_sweep::one_one_values(max_n, progress)?))
}

/// Table 1: the values of `(i|j)_n` for `1 ≤ i, j ≤ n`, rows `i`, columns `j`,
/// each computed from scratch by the one-hand tree evaluator in `store`.
pub fn grid(store: &mut GameStore, n: u32) -> Vec<Vec<GameId>> {
    (1..=n)
        .map(|i| (1..=n).map(|j| crate::one_hand(store, i, j, n)).collect())
        .collect()
}

/// The values of `(a|b)_n` for every `a + b ≤ n`, kept up to date while `n` grows
/// from 1 to `max_n` (see the module documentation).
pub struct OneHandSweep {
    max_n: u32,
    n: u32,
    store: GameStore,
    star: GameId,
    /// Value of `(a|b)` for `a + b ≤ n`, at [`tri`]`(a, b)`.
    table: Vec<GameId>,
    /// Dirty flags, same layout.
    dirty: Vec<bool>,
    /// Dirty positions by `a + b`.
    buckets: Vec<Vec<(u32, u32)>>,
    /// Positions recomputed so far (new positions included).
    work: u64,
}

/// Index of `(a, b)`, `a, b ≥ 1`, in the triangular table ordered by `a + b`.
fn tri(a: u32, b: u32) -> usize {
    let s = (a + b) as usize;
    (s - 1) * (s - 2) / 2 + (a as usize - 1)
}

/// The single parent of `(a, b)` in the one-hand game tree, if any.
fn parent(a: u32, b: u32) -> Option<(u32, u32)> {
    use std::cmp::Ordering::*;
    match a.cmp(&b) {
        Less => Some((a, b - a)),
        Greater => Some((a - b, b)),
        Equal => None,
    }
}

impl OneHandSweep {
    /// The largest `max_n` [`table2`] accepts: [`CoprimeSweep::MAX_N`], which
    /// computes it (the command line reads the limit of Table 2 here).
    pub const MAX_N: u32 = CoprimeSweep::MAX_N;

    /// The largest `max_n` this full-table sweep accepts (its table grows as
    /// `max_n²`, 2.5 bytes per position: 16 GB at this bound).
    pub const FULL_TABLE_MAX_N: u32 = 80_000;

    /// Bytes [`table2`] up to `max_n` takes, [`CoprimeSweep::bytes`] (the command
    /// line reads the estimate for Table 2 here); for this full-table sweep see
    /// [`OneHandSweep::full_table_bytes`].
    pub fn bytes(max_n: u32) -> u64 {
        CoprimeSweep::bytes(max_n)
    }

    /// Bytes the tables of this full-table sweep up to `max_n` take.
    pub fn full_table_bytes(max_n: u32) -> u64 {
        let m = max_n as u64 + 1;
        m * m / 2 * (std::mem::size_of::<GameId>() as u64 + 1)
    }

    /// A sweep that will go up to `max_n`, positioned before `n = 1`.
    pub fn new(max_n: u32) -> Result<OneHandSweep, ValueError> {
        if max_n > Self::FULL_TABLE_MAX_N {
            return Err(ValueError::TooLarge {
                limit: Self::FULL_TABLE_MAX_N as u64,
            });
        }
        let size = if max_n >= 2 {
            tri(1, max_n - 1) + max_n as usize - 1
        } else {
            0
        };
        let mut store = GameStore::new();
        let star = store.star();
        Ok(OneHandSweep {
            max_n,
            n: 0,
            store,
            star,
            table: vec![star; size],
            dirty: vec![false; size],
            buckets: vec![Vec::new(); max_n as usize + 1],
            work: 0,
        })
    }

    /// The current finger count (0 before the first [`OneHandSweep::advance`]).
    pub fn n(&self) -> u32 {
        self.n
    }

    /// How many positions were recomputed so far (new positions included).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The store holding the values.
    pub fn store_mut(&mut self) -> &mut GameStore {
        &mut self.store
    }

    /// The value of `(a|b)_n` for the current `n` (`*` when `a + b > n`).
    ///
    /// # Panics
    /// When `a` or `b` is 0 or `n` is 0.
    pub fn value(&self, a: u32, b: u32) -> GameId {
        assert!(
            a >= 1 && b >= 1 && self.n >= 1,
            "hands and n are at least 1"
        );
        if a as u64 + b as u64 > self.n as u64 {
            self.star
        } else {
            self.table[tri(a, b)]
        }
    }

    /// Value of `(a|b)` from the table, `*` past the current `n`.
    fn get(&self, a: u32, b: u32) -> GameId {
        if a + b > self.n {
            self.star
        } else {
            self.table[tri(a, b)]
        }
    }

    fn mark(&mut self, a: u32, b: u32) {
        let i = tri(a, b);
        if !self.dirty[i] {
            self.dirty[i] = true;
            self.buckets[(a + b) as usize].push((a, b));
        }
    }

    /// Moves to the next finger count; returns it, or `None` past `max_n`.
    pub fn advance(&mut self) -> Option<u32> {
        if self.n >= self.max_n {
            return None;
        }
        self.n += 1;
        let n = self.n;
        if n < 2 {
            return Some(n); // (1|1)_1 = *, no position has a + b <= 1
        }
        // New positions a + b = n: both options remove a hand, {* | *} = 0.
        for a in 1..n {
            let b = n - a;
            self.table[tri(a, b)] = GameId::ZERO;
            self.work += 1;
            if let Some((pa, pb)) = parent(a, b) {
                self.mark(pa, pb);
            }
        }
        for s in (2..n).rev() {
            let bucket = std::mem::take(&mut self.buckets[s as usize]);
            for &(a, b) in &bucket {
                let i = tri(a, b);
                self.dirty[i] = false;
                let left = self.get(a, a + b);
                let right = self.get(a + b, b);
                let g = self.store.simple_game(Some(left), Some(right));
                self.work += 1;
                if g != self.table[i] {
                    self.table[i] = g;
                    if let Some((pa, pb)) = parent(a, b) {
                        self.mark(pa, pb);
                    }
                }
            }
            let mut bucket = bucket;
            bucket.clear();
            self.buckets[s as usize] = bucket;
        }
        Some(n)
    }
}

/// Fibonacci numbers `f1 = f2 = 1` up to (and including the first one past) `limit`.
pub fn fibonacci(limit: u64) -> Vec<u64> {
    let mut f = vec![1u64, 1];
    while *f.last().expect("non-empty") <= limit {
        let k = f.len();
        f.push(f[k - 1] + f[k - 2]);
    }
    f
}

/// Theorem 3: `(1|1)_n` is N exactly when `f(2i) ≤ n < f(2i+1)` for some `i`.
pub fn theorem3_is_next(n: u32) -> bool {
    let f = fibonacci(n as u64);
    // f[k] is f(k+1); intervals [f(2i), f(2i+1)) = [f[2i-1], f[2i]).
    (1..)
        .take_while(|i| 2 * i < f.len())
        .any(|i| f[2 * i - 1] <= n as u64 && (n as u64) < f[2 * i])
}

/// OEIS A110035 (1, 2, 5, 12, 31, 80, 209, 546, 1429, 3740, …), the terms not
/// exceeding `limit`. Computed by `a(k) = 3·a(k-1) - a(k-2) - [k even]`
/// (with `a(1) = 1`, `a(2) = 2`), which reproduces the published terms.
pub fn a110035(limit: u64) -> Vec<u64> {
    let mut a = vec![1u64, 2];
    loop {
        let k = a.len() + 1; // 1-based index of the next term
        let next = 3 * a[k - 2] - a[k - 3] - u64::from(k % 2 == 0);
        if next > limit {
            break;
        }
        a.push(next);
    }
    a.retain(|&x| x <= limit);
    a
}

/// The value of `(1|1)_n` that Theorem 3 and the paper's conjecture predict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predicted {
    /// `0`, a P-position: `f(2i+1) ≤ n < f(2i+2)`.
    Zero,
    /// `*`: `f(2i) ≤ n < a(i+1)`, with `a` = OEIS A110035.
    Star,
    /// `±J`, `J = {0 | ↑^[2]}`: `a(i+1) ≤ n < f(2i+1)`.
    PlusMinusJ,
}

impl Predicted {
    /// The value in this crate's CGSuite notation.
    pub fn text(self) -> &'static str {
        match self {
            Predicted::Zero => "0",
            Predicted::Star => "*",
            Predicted::PlusMinusJ => "+-{0|^[2]}",
        }
    }
}

/// The conjectured value of `(1|1)_n` (`n ≥ 1`): Theorem 3 gives the P-positions
/// (`0`); on each interval of N-positions `[f(2i), f(2i+1))` the value is `*` up to
/// the A110035 term `a(i+1)` (which lies in `[f(2i), f(2i+1)]`) and `±J` from it on.
pub fn predicted(n: u32) -> Predicted {
    let n = n as u64;
    // Two Fibonacci numbers past n, and the A110035 terms up to them.
    let f = fibonacci(2 * n + 2);
    let a = a110035(f[f.len() - 1] * 3 + 3);
    // f[k] = f(k+1), a[k] = a(k+1).
    for i in 1.. {
        let (lo, hi) = (f[2 * i - 1], f[2 * i]);
        if n < lo {
            return Predicted::Zero; // between intervals: [f(2i-1), f(2i))
        }
        if n < hi {
            return if n < a[i] {
                Predicted::Star
            } else {
                Predicted::PlusMinusJ
            };
        }
    }
    unreachable!("the Fibonacci numbers pass n")
}
