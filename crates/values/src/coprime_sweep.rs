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
//! in *batches*: whole levels taken from the highest sum down (up to 4,096
//! positions), so a position is normally recomputed after its children; a
//! position whose value changes puts its parent (smaller sum) on the list. A
//! position recomputed in the same batch as a descendant that then changes is
//! listed again by that change, so whatever the batches, every position is last
//! recomputed after its children's last change and the table is exact at the end
//! of the step. The root is then `{V(1,2) | -V(1,2)}`.
//!
//! A batch is read first (old value and both children of each position, in
//! chunks whose independent table reads overlap in memory; on all threads when
//! the batch is long), then written on one thread, which also makes any game the
//! memo has not seen yet. The closed forms `↑^[j]` and `{↑^[j] | -↑^[k]}` are
//! precomputed tables. On Linux the table is advised to use huge pages.
//!
//! # Work
//!
//! Measured: about `0.29·n` events and `1.3·n` recomputations per step (the
//! changes travel up chains of parents), so a sweep to `N` recomputes about
//! `0.65·N²` positions, nearly every one a cache miss once the table outgrows
//! the cache: the time grows faster than `N²` (see `docs/TABLE2-SWEEP.md`).

use chopsticks_cgt::{GameId, GameStore, Outcome};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::error::ValueError;

/// No palette index (or slot) yet.
const NONE: u32 = u32::MAX;
/// A cell whose slot does not fit in 16 bits (see the overflow map).
const OVERFLOW: u16 = u16::MAX;
/// The first games composed get a *rank* below this; pairs of ranked games are
/// composed through a dense table (1 MiB).
const SMALL: usize = 512;
/// Positions recomputed together (their table reads overlap in memory).
const BATCH: usize = 4096;
/// Marks a location that is a closed-form palette index, not a cell.
const CLOSED: u64 = 1 << 63;
/// Positions read together.
const CHUNK: usize = 256;
/// Batches at least this long are read on all threads.
const PARALLEL: usize = 1024;

/// The distinct canonical games met so far, numbered in order of appearance,
/// with memoised negation and `{x | y}`. The memos can be read from several
/// threads at once; only the single-threaded parts add to them.
struct Palette {
    store: GameStore,
    games: Vec<GameId>,
    index: FxHashMap<GameId, u32>,
    neg: Vec<u32>,
    /// Rank of each palette index (`NONE` if it has none).
    rank: Vec<u32>,
    ranked: usize,
    /// Whether new games get ranks (not while the closed forms are built).
    ranking: bool,
    small: Vec<u32>,
    memo: FxHashMap<u64, u32>,
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
            rank: Vec::new(),
            ranked: 0,
            ranking: false,
            small: vec![NONE; SMALL * SMALL],
            memo: FxHashMap::default(),
            star: 0,
        };
        p.intern(GameId::ZERO);
        p.star = p.intern(star_id);
        p
    }

    fn intern(&mut self, g: GameId) -> u32 {
        if let Some(&i) = self.index.get(&g) {
            return i;
        }
        let i = self.games.len() as u32;
        self.games.push(g);
        self.neg.push(NONE);
        self.rank.push(NONE);
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

    /// `{x | -y}` if both the negation and the composition are memoised.
    fn known(&self, x: u32, y: u32) -> Option<u32> {
        let ny = self.neg[y as usize];
        if ny == NONE {
            return None;
        }
        let (rx, ry) = (self.rank[x as usize], self.rank[ny as usize]);
        let z = if rx != NONE && ry != NONE {
            self.small[rx as usize * SMALL + ry as usize]
        } else {
            *self.memo.get(&(((x as u64) << 32) | ny as u64))?
        };
        (z != NONE).then_some(z)
    }

    fn rank_of(&mut self, x: u32) -> u32 {
        if self.ranking && self.rank[x as usize] == NONE && self.ranked < SMALL {
            self.rank[x as usize] = self.ranked as u32;
            self.ranked += 1;
        }
        self.rank[x as usize]
    }

    /// `{x | y}` in canonical form.
    fn compose(&mut self, x: u32, y: u32) -> u32 {
        let (rx, ry) = (self.rank_of(x), self.rank_of(y));
        let dense = rx != NONE && ry != NONE;
        let slot = rx as usize * SMALL + ry as usize;
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
}

/// Counters of a [`CoprimeSweep`], for the write-up and for tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    /// Events generated (coprime stored positions whose child changed).
    pub events: u64,
    /// Stored positions recomputed (events and parents of changed positions,
    /// duplicates within a batch merged).
    pub recomputed: u64,
    /// Recomputations that changed the stored value.
    pub changed: u64,
    /// Batches of recomputations.
    pub batches: u64,
}

/// The part of the sweep read (from several threads) while a batch is recomputed.
struct Table {
    max_n: u32,
    /// Slot of the value of each stored position, column `a` from `col[a]`.
    cells: Vec<u16>,
    /// Palette index of each slot.
    slots: Vec<u32>,
    /// Palette index of the cells whose slot is `0xFFFF` or more, by cell index.
    overflow: FxHashMap<u64, u32>,
    /// `col[a]`: index of `(a, a+1)`; `col` has an entry past the last column.
    col: Vec<u64>,
    /// `ups[j]` = palette index of `↑^[j]`, `j ≤ max_n`.
    ups: Vec<u32>,
    /// `c1[j][k]` = palette index of `{↑^[j] | -↑^[k]}`, `j ≤ max_n`, `k ≤ 1`.
    c1: Vec<[u32; 2]>,
    star: u32,
}

impl Table {
    fn index(&self, a: u32, b: u32) -> usize {
        debug_assert!(a < b && 3 * a as u64 + 2 * b as u64 <= self.max_n as u64);
        (self.col[a as usize] + (b - a - 1) as u64) as usize
    }

    #[inline]
    fn cell_at(&self, i: usize) -> u32 {
        match self.cells[i] {
            OVERFLOW => self.overflow[&(i as u64)],
            x => self.slots[x as usize],
        }
    }

    /// Where `V(a,b)` at `m` is: a cell index, or [`CLOSED`] plus the palette
    /// index of its closed form (see [`Table::val`]).
    fn locate(&self, a: u32, b: u32, m: u32) -> u64 {
        if 3 * a + 2 * b <= m {
            self.index(a, b) as u64
        } else {
            CLOSED | self.val(a, b, m) as u64
        }
    }

    fn fetch(&self, loc: u64) -> u32 {
        if loc & CLOSED != 0 {
            loc as u32
        } else {
            self.cell_at(loc as usize)
        }
    }

    /// `V(a,b)` at finger count `m` (`a < b`): `*` if dead, the closed forms C0 and
    /// C1, else the table (which must hold `m`'s values).
    fn val(&self, a: u32, b: u32, m: u32) -> u32 {
        let s = a + b;
        if s > m {
            self.star
        } else if a + 2 * b > m {
            self.ups[((m - s) / a) as usize]
        } else if 3 * a + 2 * b > m {
            self.c1[((m - 2 * a - b) / a) as usize][((m - a - 2 * b) / b) as usize]
        } else {
            self.cell_at(self.index(a, b))
        }
    }
}

/// One recomputation read from the table: old value, small child, big child and
/// (if memoised) the new value.
#[derive(Clone, Copy)]
struct Read {
    old: u32,
    left: u32,
    big: u32,
    new: u32,
}

/// The incremental sweep of the module documentation: the value of `(1|1)_n`
/// for `n = 1, 2, …, max_n`, and of every coprime `(a|b)_n` on the way.
pub struct CoprimeSweep {
    n: u32,
    pal: Palette,
    table: Table,
    /// Slot of each palette index (`NONE` if never stored).
    slot_of: Vec<u32>,
    /// Slots from this one on go to the overflow map (`0xFFFF`; less in tests).
    slot_limit: u32,
    /// Positions to recompute, by sum `a + b` (the value kept is `a`).
    levels: Vec<Vec<u32>>,
    /// Bit `s` is set when `levels[s]` is not empty.
    nonempty: Vec<u64>,
    /// Bit `k` is set when `nonempty[k]` is not zero.
    summary: Vec<u64>,
    /// Smallest prime factor of every `k ≤ max_n`.
    spf: Vec<u32>,
    /// The distinct primes of the current `n`.
    primes: Vec<u32>,
    /// Palette index of `(1|1)_n`.
    root: u32,
    stats: SweepStats,
    batch: Vec<(u32, u32)>,
    reads: Vec<Read>,
}

/// Number of stored positions of a sweep to `max_n`: `a < b`, `3a + 2b ≤ max_n`.
fn stored_count(max_n: u32) -> u64 {
    (1..).map_while(|a: u64| column_len(max_n, a)).sum()
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
    /// stored position (about `max_n²/10` in all) and an allowance of 400 bytes
    /// per finger count for the rest (work lists, sieve, column offsets, the
    /// closed forms `↑^[j]` and `{↑^[j] | -↑^[k]}`, and the palette of games with
    /// its memo, which grow about linearly with `n`).
    pub fn bytes(max_n: u32) -> u64 {
        2 * stored_count(max_n) + 400 * max_n as u64
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
        advise_huge_pages(&cells);
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
        // The closed forms: ↑^[0] = 0, ↑^[j+1] = {↑^[j] | *}; C1 = {↑^[j] | -↑^[k]}.
        let mut pal = Palette::new();
        let star = pal.star;
        let mut ups = vec![0u32];
        for _ in 0..max_n {
            let last = *ups.last().expect("non-empty");
            ups.push(pal.compose(last, star));
        }
        let neg_up = [pal.neg(ups[0]), pal.neg(ups[1])];
        let c1 = ups
            .iter()
            .map(|&u| [pal.compose(u, neg_up[0]), pal.compose(u, neg_up[1])])
            .collect();
        pal.ranking = true;
        Ok(CoprimeSweep {
            n: 0,
            pal,
            table: Table {
                max_n,
                cells,
                slots: Vec::new(),
                overflow: FxHashMap::default(),
                col,
                ups,
                c1,
                star,
            },
            slot_of: Vec::new(),
            slot_limit: OVERFLOW as u32,
            levels: vec![Vec::new(); max_n as usize + 1],
            nonempty: vec![0; max_n as usize / 64 + 1],
            summary: vec![0; max_n as usize / 4096 + 1],
            spf,
            primes: Vec::new(),
            root: star,
            stats: SweepStats::default(),
            batch: Vec::new(),
            reads: Vec::new(),
        })
    }

    /// Sends every stored value with slot `limit` or more to the overflow map,
    /// as happens past 65,535 distinct stored values (for tests of that path).
    #[doc(hidden)]
    pub fn set_slot_limit(&mut self, limit: u16) {
        self.slot_limit = (limit as u32).min(OVERFLOW as u32);
    }

    /// The current finger count (0 before the first [`CoprimeSweep::advance`]).
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Counters so far.
    pub fn stats(&self) -> SweepStats {
        self.stats
    }

    /// Number of distinct canonical games met so far (closed forms included).
    pub fn palette_len(&self) -> usize {
        self.pal.games.len()
    }

    /// Number of distinct games ever stored in the table.
    pub fn slots_len(&self) -> usize {
        self.table.slots.len()
    }

    /// Number of stored positions whose slot needs the overflow map.
    pub fn overflow_len(&self) -> usize {
        self.table.overflow.len()
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
            Less => self.table.val(a, b, self.n),
            Greater => {
                let v = self.table.val(b, a, self.n);
                self.pal.neg(v)
            }
        };
        Some(self.pal.games[x as usize])
    }

    /// Writes palette index `v` into cell `i`.
    fn set_cell(&mut self, i: usize, v: u32) {
        if self.slot_of.len() <= v as usize {
            self.slot_of
                .resize(self.pal.games.len().max(v as usize + 1), NONE);
        }
        let mut slot = self.slot_of[v as usize];
        if slot == NONE {
            slot = self.table.slots.len() as u32;
            self.table.slots.push(v);
            self.slot_of[v as usize] = slot;
        }
        let slot_limit = self.slot_limit;
        let t = &mut self.table;
        if t.cells[i] == OVERFLOW {
            t.overflow.remove(&(i as u64));
        }
        if slot >= slot_limit {
            t.cells[i] = OVERFLOW;
            t.overflow.insert(i as u64, v);
        } else {
            t.cells[i] = slot as u16;
        }
    }

    fn coprime_to_n(&self, a: u32, b: u32) -> bool {
        self.primes
            .iter()
            .all(|&p| !a.is_multiple_of(p) || !b.is_multiple_of(p))
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
            self.summary[s / 4096] |= 1 << (s / 64 % 64);
        }
        self.levels[s].push(a);
    }

    /// The highest sum with positions listed.
    fn highest_level(&self) -> Option<usize> {
        let k = self.summary.iter().rposition(|&x| x != 0)?;
        let w = k * 64 + 63 - self.summary[k].leading_zeros() as usize;
        Some(w * 64 + 63 - self.nonempty[w].leading_zeros() as usize)
    }

    /// Moves to the next finger count; returns it, or `None` past `max_n`.
    pub fn advance(&mut self) -> Option<u32> {
        if self.n >= self.table.max_n {
            return None;
        }
        self.n += 1;
        let n = self.n;
        self.primes.clear();
        let mut k = n;
        while k > 1 {
            let p = self.spf[k as usize];
            self.primes.push(p);
            while k.is_multiple_of(p) {
                k /= p;
            }
        }
        self.generate_events();
        self.process();
        self.root = if n == 1 {
            self.pal.star
        } else {
            let v = self.table.val(1, 2, n);
            let w = self.pal.neg(v);
            self.pal.compose(v, w)
        };
        Some(n)
    }

    fn generate_events(&mut self) {
        let n = self.n;
        // 3a + 2b = n: newly stored; the cell starts with its value at n - 1.
        for b in n / 5..=n / 2 {
            if (n - 2 * b).is_multiple_of(3) {
                let a = (n - 2 * b) / 3;
                if a >= 1 && a < b && self.coprime_to_n(a, b) {
                    let v = self.table.val(a, b, n - 1);
                    let i = self.table.index(a, b);
                    self.set_cell(i, v);
                    self.event(a, b);
                }
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
            if (n - 3 * b).is_multiple_of(2) {
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
            if (n - 4 * b).is_multiple_of(3) {
                self.event((n - 4 * b) / 3, b);
            }
        }
    }

    /// Recomputes the listed positions, in batches taken by decreasing sum (so
    /// usually after their children), listing the parents of those that change.
    /// A position recomputed in the same batch as one of its descendants is
    /// listed again when that descendant changes, so every position is last
    /// recomputed after its children's last change, whatever the batches.
    fn process(&mut self) {
        let n = self.n;
        let mut batch = std::mem::take(&mut self.batch);
        let mut reads = std::mem::take(&mut self.reads);
        loop {
            // Take whole levels from the top until the batch is full.
            batch.clear();
            while batch.len() < BATCH {
                let Some(s) = self.highest_level() else {
                    break;
                };
                let (w, bit) = (s / 64, s % 64);
                self.nonempty[w] &= !(1u64 << bit);
                if self.nonempty[w] == 0 {
                    self.summary[w / 64] &= !(1u64 << (w % 64));
                }
                let mut list = std::mem::take(&mut self.levels[s]);
                list.sort_unstable();
                list.dedup();
                batch.extend(list.iter().map(|&a| (a, s as u32 - a)));
                list.clear();
                self.levels[s] = list;
            }
            if batch.is_empty() {
                break;
            }
            self.stats.batches += 1;
            self.stats.recomputed += batch.len() as u64;
            let (table, pal) = (&self.table, &self.pal);
            // Three passes over a chunk, so that its table reads (cache misses on
            // a large table) are in flight together.
            let read = |chunk: &[(u32, u32)], out: &mut Vec<Read>| {
                let locs: Vec<u64> = chunk
                    .iter()
                    .flat_map(|&(a, b)| {
                        [
                            table.index(a, b) as u64,
                            table.locate(a, a + b, n),
                            table.locate(b, a + b, n),
                        ]
                    })
                    .collect();
                let vals: Vec<u32> = locs.iter().map(|&l| table.fetch(l)).collect();
                out.extend(vals.chunks_exact(3).map(|v| Read {
                    old: v[0],
                    left: v[1],
                    big: v[2],
                    new: pal.known(v[1], v[2]).unwrap_or(NONE),
                }));
            };
            reads.clear();
            if batch.len() >= PARALLEL {
                let parts: Vec<Vec<Read>> = batch
                    .par_chunks(CHUNK)
                    .map(|c| {
                        let mut v = Vec::with_capacity(c.len());
                        read(c, &mut v);
                        v
                    })
                    .collect();
                reads.extend(parts.into_iter().flatten());
            } else {
                for c in batch.chunks(CHUNK) {
                    read(c, &mut reads);
                }
            }
            for (&(a, b), r) in batch.iter().zip(&reads) {
                let v = if r.new != NONE {
                    r.new
                } else {
                    let nb = self.pal.neg(r.big);
                    self.pal.compose(r.left, nb)
                };
                if v != r.old {
                    let i = self.table.index(a, b);
                    self.set_cell(i, v);
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
        self.batch = batch;
        self.reads = reads;
    }
}

/// Asks Linux to back `cells` with transparent huge pages: the table is read at
/// random, and with 4 KiB pages nearly every read of a large table also misses
/// the TLB. Only a hint; nothing happens elsewhere or if it is refused.
#[cfg(target_os = "linux")]
fn advise_huge_pages(cells: &[u16]) {
    let bytes = std::mem::size_of_val(cells);
    if bytes < 1 << 22 {
        return;
    }
    // madvise needs a page-aligned start: the first 4 KiB boundary in the slice.
    let start = cells.as_ptr() as usize;
    let aligned = (start + 4095) & !4095;
    let len = (start + bytes).saturating_sub(aligned) & !4095;
    // SAFETY: madvise(MADV_HUGEPAGE) only changes how the kernel backs the pages
    // of [aligned, aligned + len), which lies inside the live allocation of
    // `cells` (aligned ≥ start, aligned + len ≤ start + bytes) and is page
    // aligned; it neither reads nor writes the memory, and does not change its
    // contents or validity. Its result is ignored (a refusal leaves 4 KiB pages).
    unsafe {
        libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_cells: &[u16]) {}

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
