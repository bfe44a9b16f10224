//! Table 2 far beyond `n = 75,100`: an incremental sweep over `n` that stores
//! only the positions it must, two bytes each.
//!
//! # The model
//!
//! Simple Chopsticks with one hand each: `(a|b)_n` has Left's hand `a`, Right's
//! hand `b`; Left's only option is `(a | a+b)`, Right's is `(a+b | b)`, a hand
//! passing `n` is removed and removing the opponent's last hand is a move to `0`.
//! So `(a|b)_n = *` when `a + b > n` (a *dead* position) and otherwise
//! `(a|b)_n = {(a|a+b)_n | (a+b|b)_n}`. Swapping the hands negates the value,
//! `(b|a)_n = -(a|b)_n`, so it is enough to know, for `a < b`,
//!
//! ```text
//! V(a,b) = (a|b)_n = { V(a, a+b) | -V(b, a+b) }
//! ```
//!
//! (the *small child* `S = (a, a+b)`, sum `s + a`, and the *big child*
//! `B = (b, a+b)`, sum `s + b`, where `s = a + b`), and the root
//! `(1|1)_n = {V(1,2) | -V(1,2)}`. The positions met from `(1|1)` are the coprime
//! pairs (the Calkin–Wilf tree), each with a unique parent: `(a, b-a)` when
//! `2a < b` (it is that position's small child) and `(b-a, a)` when `2a > b` (its
//! big child); `(1,2)` hangs from the root. Non-coprime pairs are never needed.
//!
//! # Closed forms
//!
//! Write `↑^[j]` for the chain `L_0 = 0`, `L_{j+1} = {L_j | *}` (CGSuite's
//! `^[j]`). For `a < b` with `s = a + b ≤ n`:
//!
//! * *C0*, `a + 2b > n` (the big child is dead): every big child along the chain
//!   of small children `(a, b + ka)` is dead too, so `V(a,b) = ↑^[⌊(n-s)/a⌋]`;
//! * *C1*, `a + 2b ≤ n < 3a + 2b`: both children are C0, so
//!   `V(a,b) = {↑^[⌊(n-2a-b)/a⌋] | -↑^[⌊(n-a-2b)/b⌋]}`;
//! * otherwise (`3a + 2b ≤ n`) the position is *stored*.
//!
//! A stored position's parent is stored, so the stored positions form a subtree
//! containing the root's child `(1,2)` (for `n ≥ 7`).
//!
//! # Memory
//!
//! The stored positions for `n ≤ N` are the pairs `a < b`, `3a + 2b ≤ N`, about
//! `N²/20` of them, laid out column by column (`a` fixed, `b` increasing). Each
//! holds a 16-bit index into a *palette* of the distinct canonical games met so
//! far (index `0xFFFF` means "look in a small overflow map", used once the palette
//! passes 65,535 games). So the table takes about `N²/10` bytes (4 GB for
//! `N = 200,000`); non-coprime pairs keep their slot but are never written or
//! read. Everything else (palette, its composition memo `{x | y}`, the work lists,
//! a sieve) is `O(N)` plus the number of distinct games and pairs composed; see
//! [`CoprimeSweep::bytes`].
//!
//! # One step, `n - 1 → n`
//!
//! A stored position must be recomputed when one of its children changes value.
//! A stored child is recomputed itself (and then reports a change to its parent);
//! a closed-form child changes exactly when one of the floors in its formula
//! steps up or its regime changes. Working this out for a stored parent `(a,b)`
//! (`3a + 2b ≤ n`) gives these *events* at `n`, each a line or a residue class:
//!
//! * `3a + 2b = n`: the position becomes stored (it was C1);
//! * `3a + 2b < n < 5a + 2b` and `b ≡ n (mod a)`: its small child is C1 and the
//!   floor `⌊(n-3a-b)/a⌋` of that child steps up;
//! * `n = a + 3b` (with `b ≥ 2a`): its big child is C0 and goes from `0` to `↑`;
//! * `n = 2a + 3b`: its big child goes from C0 to C1;
//! * `n = a + 4b`, `n = a + 5b`, `n = 3a + 4b`: its big child is C1 and one of
//!   that child's floors steps up.
//!
//! (A child that leaves C1 to become stored at `n` is itself an event.) Events are
//! kept only for coprime pairs: every event satisfies `xa + yb = n` for integers
//! `x, y`, so a common divisor of `a` and `b` divides `n` and it suffices to test
//! the primes of `n`. The events are bucketed by their sum `a + b` and processed
//! in decreasing order of sum, so a position is recomputed after its children;
//! a position whose value changes puts its parent (smaller sum) on the list. At
//! the end the root is `{V(1,2) | -V(1,2)}`.
//!
//! About `0.5·n` events are generated per step (before the coprime filter), so
//! a sweep to `N` does `O(N²)` work in total, each unit a few table reads and
//! one lookup in the composition memo.

use chopsticks_cgt::{GameId, GameStore, Outcome};
use rustc_hash::FxHashMap;

use crate::error::ValueError;

/// No palette index yet.
const NONE: u32 = u32::MAX;
/// A cell whose palette index does not fit in 16 bits (see the overflow map).
const OVERFLOW: u16 = u16::MAX;
/// Pairs of palette indices below this are composed through a dense table.
const SMALL: usize = 128;

/// The distinct canonical games met so far, numbered in order of appearance,
/// with memoised negation, `{x | y}` and the chain `↑^[j]`.
struct Palette {
    store: GameStore,
    games: Vec<GameId>,
    index: FxHashMap<GameId, u32>,
    neg: Vec<u32>,
    small: Vec<u32>,
    memo: FxHashMap<u64, u32>,
    ups: Vec<u32>,
    star: u32,
}

impl Palette {
    fn new() -> Palette {
        let mut store = GameStore::new();
        let star_id = store.star();
        let mut p = Palette {
            store,
            games: Vec::new(),
            index: FxHashMap::default(),
            neg: Vec::new(),
            small: vec![NONE; SMALL * SMALL],
            memo: FxHashMap::default(),
            ups: Vec::new(),
            star: 0,
        };
        let zero = p.intern(GameId::ZERO);
        p.star = p.intern(star_id);
        p.ups.push(zero);
        p
    }

    fn intern(&mut self, g: GameId) -> u32 {
        if let Some(&i) = self.index.get(&g) {
            return i;
        }
        let i = self.games.len() as u32;
        self.games.push(g);
        self.neg.push(NONE);
        self.index.insert(g, i);
        i
    }

    fn neg(&mut self, x: u32) -> u32 {
        let y = self.neg[x as usize];
        if y != NONE {
            return y;
        }
        let g = self.store.neg(self.games[x as usize]);
        let y = self.intern(g);
        self.neg[x as usize] = y;
        self.neg[y as usize] = x;
        y
    }

    /// `{x | y}` in canonical form.
    fn compose(&mut self, x: u32, y: u32) -> u32 {
        let dense = (x as usize) < SMALL && (y as usize) < SMALL;
        let slot = x as usize * SMALL + y as usize;
        if dense {
            let z = self.small[slot];
            if z != NONE {
                return z;
            }
        } else if let Some(&z) = self.memo.get(&(((x as u64) << 32) | y as u64)) {
            return z;
        }
        let (gx, gy) = (self.games[x as usize], self.games[y as usize]);
        let g = self.store.simple_game(Some(gx), Some(gy));
        let z = self.intern(g);
        if dense {
            self.small[slot] = z;
        } else {
            self.memo.insert(((x as u64) << 32) | y as u64, z);
        }
        z
    }

    /// `↑^[j]` (`L_0 = 0`, `L_{j+1} = {L_j | *}`).
    fn up(&mut self, j: u32) -> u32 {
        while self.ups.len() <= j as usize {
            let last = *self.ups.last().expect("L_0 is there");
            let next = self.compose(last, self.star);
            self.ups.push(next);
        }
        self.ups[j as usize]
    }
}

/// Counters of a [`CoprimeSweep`], for the write-up and for tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    /// Events generated (coprime stored positions whose child changed).
    pub events: u64,
    /// Stored positions recomputed (events and parents of changed positions,
    /// duplicates merged).
    pub recomputed: u64,
    /// Recomputations that changed the stored value.
    pub changed: u64,
}

/// The incremental sweep of the module documentation: the value of `(1|1)_n`
/// for `n = 1, 2, …, max_n`, and of every coprime `(a|b)_n` on the way.
pub struct CoprimeSweep {
    max_n: u32,
    n: u32,
    pal: Palette,
    /// Palette index of each stored position, column `a` from `col[a]`.
    cells: Vec<u16>,
    /// Palette indices ≥ `0xFFFF`, by cell index.
    overflow: FxHashMap<u64, u32>,
    /// `col[a]`: index of `(a, a+1)`; `col` has an entry past the last column.
    col: Vec<u64>,
    /// Positions to recompute, by sum `a + b` (the value stored is `a`).
    levels: Vec<Vec<u32>>,
    /// Bit `s` is set when `levels[s]` is not empty.
    nonempty: Vec<u64>,
    /// Smallest prime factor of every `k ≤ max_n`.
    spf: Vec<u32>,
    /// The distinct primes of the current `n`.
    primes: Vec<u32>,
    /// Palette index of `(1|1)_n`.
    root: u32,
    stats: SweepStats,
}

/// Number of stored positions of a sweep to `max_n`: `a < b`, `3a + 2b ≤ max_n`.
fn stored_count(max_n: u32) -> u64 {
    (1..)
        .map_while(|a: u64| column_len(max_n, a))
        .sum()
}

/// Length of column `a` (`b` from `a + 1` to `(max_n - 3a) / 2`), `None` past the
/// last column.
fn column_len(max_n: u32, a: u64) -> Option<u64> {
    let m = max_n as u64;
    if 5 * a + 2 > m {
        return None;
    }
    Some((m - 3 * a) / 2 - a)
}

impl CoprimeSweep {
    /// The largest `max_n` accepted (the table is `max_n²/10` bytes; at this
    /// bound about 100 GB, so the memory limit refuses first on most machines).
    pub const MAX_N: u32 = 1_000_000;

    /// Default memory limit of [`CoprimeSweep::new`]: 16 GiB.
    pub const DEFAULT_MEMORY_LIMIT: u64 = 16 << 30;

    /// Bytes a sweep to `max_n` takes, estimated before it starts: 2 bytes per
    /// stored position (about `max_n²/10` in all), 40 bytes per finger count for
    /// the work lists, sieve and column offsets, and an allowance of 200 bytes per
    /// finger count for the palette and its memo (measured: the palette grows
    /// about as `n/3` games).
    pub fn bytes(max_n: u32) -> u64 {
        2 * stored_count(max_n) + 240 * max_n as u64
    }

    /// A sweep that will go up to `max_n`, positioned before `n = 1`, within
    /// [`CoprimeSweep::DEFAULT_MEMORY_LIMIT`].
    pub fn new(max_n: u32) -> Result<CoprimeSweep, ValueError> {
        Self::with_memory_limit(max_n, Self::DEFAULT_MEMORY_LIMIT)
    }

    /// A sweep to `max_n` refusing to start if [`CoprimeSweep::bytes`] exceeds
    /// `limit`.
    pub fn with_memory_limit(max_n: u32, limit: u64) -> Result<CoprimeSweep, ValueError> {
        if max_n > Self::MAX_N {
            return Err(ValueError::TooLarge {
                limit: Self::MAX_N as u64,
            });
        }
        let bytes = Self::bytes(max_n);
        if bytes > limit {
            return Err(ValueError::Memory { bytes, limit });
        }
        let mut col = vec![0u64; 2];
        let mut a = 1u64;
        while let Some(len) = column_len(max_n, a) {
            let last = *col.last().expect("non-empty");
            col.push(last + len);
            a += 1;
        }
        let cells = vec![0u16; *col.last().expect("non-empty") as usize];
        let mut spf = vec![0u32; max_n as usize + 1];
        for k in 2..=max_n as usize {
            if spf[k] == 0 {
                for m in (k..=max_n as usize).step_by(k) {
                    if spf[m] == 0 {
                        spf[m] = k as u32;
                    }
                }
            }
        }
        let pal = Palette::new();
        let star = pal.star;
        Ok(CoprimeSweep {
            max_n,
            n: 0,
            pal,
            cells,
            overflow: FxHashMap::default(),
            col,
            levels: vec![Vec::new(); max_n as usize + 1],
            nonempty: vec![0; max_n as usize / 64 + 1],
            spf,
            primes: Vec::new(),
            root: star,
            stats: SweepStats::default(),
        })
    }

    /// The current finger count (0 before the first [`CoprimeSweep::advance`]).
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Counters so far.
    pub fn stats(&self) -> SweepStats {
        self.stats
    }

    /// Number of distinct canonical games met so far.
    pub fn palette_len(&self) -> usize {
        self.pal.games.len()
    }

    /// Number of stored positions whose palette index needs the overflow map.
    pub fn overflow_len(&self) -> usize {
        self.overflow.len()
    }

    /// The store holding the values.
    pub fn store_mut(&mut self) -> &mut GameStore {
        &mut self.pal.store
    }

    /// `(1|1)_n` for the current `n` (`*` before the first step, as for `n = 1`).
    pub fn root(&self) -> GameId {
        self.pal.games[self.root as usize]
    }

    /// `(a|b)_n` for the current `n ≥ 1` and coprime `a, b ≥ 1` (`*` when
    /// `a + b > n`); `None` when `a` and `b` are not coprime or `n = 0`.
    pub fn value(&mut self, a: u32, b: u32) -> Option<GameId> {
        if self.n == 0 || a == 0 || b == 0 || gcd(a, b) != 1 {
            return None;
        }
        use std::cmp::Ordering::*;
        let x = match a.cmp(&b) {
            Equal => self.root,
            Less => self.val(a, b, self.n),
            Greater => {
                let v = self.val(b, a, self.n);
                self.pal.neg(v)
            }
        };
        Some(self.pal.games[x as usize])
    }

    fn index(&self, a: u32, b: u32) -> usize {
        debug_assert!(a < b && 3 * a as u64 + 2 * b as u64 <= self.max_n as u64);
        (self.col[a as usize] + (b - a - 1) as u64) as usize
    }

    fn cell(&self, a: u32, b: u32) -> u32 {
        let i = self.index(a, b);
        match self.cells[i] {
            OVERFLOW => self.overflow[&(i as u64)],
            x => x as u32,
        }
    }

    fn set_cell(&mut self, a: u32, b: u32, v: u32) {
        let i = self.index(a, b);
        if self.cells[i] == OVERFLOW {
            self.overflow.remove(&(i as u64));
        }
        if v >= OVERFLOW as u32 {
            self.cells[i] = OVERFLOW;
            self.overflow.insert(i as u64, v);
        } else {
            self.cells[i] = v as u16;
        }
    }

    /// `V(a,b)` at finger count `m` (`a < b`): `*` if dead, the closed forms C0 and
    /// C1, else the table (which must hold `m`'s values).
    fn val(&mut self, a: u32, b: u32, m: u32) -> u32 {
        let s = a + b;
        if s > m {
            return self.pal.star;
        }
        if a + 2 * b > m {
            return self.pal.up((m - s) / a);
        }
        if 3 * a + 2 * b > m {
            let l = self.pal.up((m - 2 * a - b) / a);
            let r = self.pal.up((m - a - 2 * b) / b);
            let r = self.pal.neg(r);
            return self.pal.compose(l, r);
        }
        self.cell(a, b)
    }

    fn coprime_to_n(&self, a: u32, b: u32) -> bool {
        self.primes.iter().all(|&p| a % p != 0 || b % p != 0)
    }

    /// Puts `(a, b)` on the list if it is a coprime stored position (`a < b`).
    fn event(&mut self, a: u32, b: u32) {
        if a >= 1 && a < b && 3 * a + 2 * b <= self.n && self.coprime_to_n(a, b) {
            self.stats.events += 1;
            self.push(a, b);
        }
    }

    fn push(&mut self, a: u32, b: u32) {
        let s = (a + b) as usize;
        if self.levels[s].is_empty() {
            self.nonempty[s / 64] |= 1 << (s % 64);
        }
        self.levels[s].push(a);
    }

    /// Moves to the next finger count; returns it, or `None` past `max_n`.
    pub fn advance(&mut self) -> Option<u32> {
        if self.n >= self.max_n {
            return None;
        }
        self.n += 1;
        let n = self.n;
        self.primes.clear();
        let mut k = n;
        while k > 1 {
            let p = self.spf[k as usize];
            self.primes.push(p);
            while k % p == 0 {
                k /= p;
            }
        }
        self.generate_events();
        self.process();
        self.root = if n == 1 {
            self.pal.star
        } else {
            let v = self.val(1, 2, n);
            let w = self.pal.neg(v);
            self.pal.compose(v, w)
        };
        Some(n)
    }

    fn generate_events(&mut self) {
        let n = self.n;
        // 3a + 2b = n: newly stored.
        for b in n / 5..=n / 2 {
            if (n - 2 * b) % 3 == 0 {
                self.event((n - 2 * b) / 3, b);
            }
        }
        // Small child C1 and b ≡ n (mod a), 3a + 2b < n < 5a + 2b.
        let mut a = 1;
        while 5 * a + 2 < n {
            let lo = (a + 1).max((n - 5 * a) / 2 + 1);
            let hi = (n - 3 * a - 1) / 2;
            if lo <= hi {
                let b = lo + (n - lo) % a;
                if b <= hi {
                    self.event(a, b);
                }
            }
            a += 1;
        }
        // Big child: n = a + 3b (b ≥ 2a), n = 2a + 3b, n = a + 4b, n = a + 5b,
        // n = 3a + 4b.
        for b in n / 5..=n / 3 {
            let a = n - 3 * b;
            if 2 * a <= b {
                self.event(a, b);
            }
            if (n - 3 * b) % 2 == 0 {
                self.event((n - 3 * b) / 2, b);
            }
        }
        for b in n / 6..=n / 4 {
            self.event(n - 4 * b, b);
            if b <= n / 5 {
                self.event(n - 5 * b, b);
            }
        }
        for b in n / 7..=n / 4 {
            if (n - 4 * b) % 3 == 0 {
                self.event((n - 4 * b) / 3, b);
            }
        }
    }

    /// Recomputes the listed positions by decreasing sum, listing the parents of
    /// those that change.
    fn process(&mut self) {
        let n = self.n;
        for w in (0..self.nonempty.len()).rev() {
            while self.nonempty[w] != 0 {
                let bit = 63 - self.nonempty[w].leading_zeros() as usize;
                self.nonempty[w] &= !(1u64 << bit);
                let s = w * 64 + bit;
                let mut list = std::mem::take(&mut self.levels[s]);
                list.sort_unstable();
                list.dedup();
                for &a in &list {
                    let b = s as u32 - a;
                    self.recompute(a, b, n);
                }
                list.clear();
                self.levels[s] = list;
            }
        }
    }

    fn recompute(&mut self, a: u32, b: u32, n: u32) {
        self.stats.recomputed += 1;
        let fresh = 3 * a + 2 * b == n;
        let old = if fresh {
            self.val(a, b, n - 1)
        } else {
            self.cell(a, b)
        };
        let l = self.val(a, a + b, n);
        let r = self.val(b, a + b, n);
        let r = self.pal.neg(r);
        let v = self.pal.compose(l, r);
        if v != old || fresh {
            self.set_cell(a, b, v);
        }
        if v != old {
            self.stats.changed += 1;
            use std::cmp::Ordering::*;
            match (2 * a).cmp(&b) {
                Less => self.push(a, b - a),
                Greater => self.push(b - a, a),
                Equal => {} // (1,2): the root is recomputed every step
            }
        }
    }
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `(1|1)_n` for every `n ≤ max_n` by a [`CoprimeSweep`], as `(n, text, outcome)`;
/// `progress` is called with each finger count as it is finished.
pub fn one_one_values(
    max_n: u32,
    progress: Option<&dyn Fn(u32)>,
) -> Result<Vec<(u32, String, Outcome)>, ValueError> {
    let mut sweep = CoprimeSweep::new(max_n)?;
    let mut texts: FxHashMap<GameId, (String, Outcome)> = FxHashMap::default();
    let mut out = Vec::with_capacity(max_n as usize);
    while let Some(n) = sweep.advance() {
        let g = sweep.root();
        let (text, outcome) = match texts.get(&g) {
            Some(t) => t.clone(),
            None => {
                let store = sweep.store_mut();
                let t = (store.format(g), store.outcome(g));
                texts.insert(g, t.clone());
                t
            }
        };
        out.push((n, text, outcome));
        if let Some(p) = progress {
            p(n);
        }
    }
    Ok(out)
}
