//! The hash-consed arena of canonical games and the core operations:
//! construction of canonical forms, comparison, negation and sums.

use crate::dyadic::Dyadic;
use rustc_hash::FxHashMap;
use std::ops::Range;

/// Identifier of a canonical game inside one [`GameStore`].
///
/// Two ids of the same store are equal exactly when the games are equal
/// (canonical forms are unique). Ids are meaningless across stores.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GameId(u32);

impl GameId {
    /// The game `0 = { | }`, always id 0 in every store.
    pub const ZERO: GameId = GameId(0);

    /// Position of the game in its store's arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What kind of value a canonical game is, recorded when its node is created.
///
/// Every canonical game equal to `x + n·↑ + *m` (x a number, n an integer,
/// m a nim-heap size) is tagged [`Kind::Simple`]; everything else is
/// [`Kind::Other`]. Numbers are `Simple` with `ups == 0 && star == 0`,
/// nimbers are `Simple` with `number == 0 && ups == 0`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    /// The game `number + ups·↑ + *star`.
    Simple {
        /// The number part `x`.
        number: Dyadic,
        /// The multiple `n` of ↑ (negative for ↓).
        ups: i64,
        /// The nimber part `m` of `*m`.
        star: u32,
    },
    /// Any other canonical game.
    Other,
}

impl Kind {
    /// `Some(x)` when the game is the number `x`.
    pub fn as_number(self) -> Option<Dyadic> {
        match self {
            Kind::Simple {
                number,
                ups: 0,
                star: 0,
            } => Some(number),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    left_start: u32,
    left_len: u32,
    right_start: u32,
    right_len: u32,
    kind: Kind,
    birthday: u32,
}

const NO_ID: u32 = u32::MAX;

/// Ids below this bound get a direct-mapped table for [`GameStore::simple_game`].
const DENSE: usize = 512;

/// The most entries kept in each memo table (comparisons, sums); a full table is
/// emptied and refilled, which keeps results exact and memory bounded (about 150 MiB
/// per table).
pub const MAX_CACHE_ENTRIES: usize = 1 << 23;

/// Work charged for storing a new game, on top of one step per option: a game
/// costs about as much memory as this many option entries, so the work limit
/// also bounds the memory of the arena.
const NODE_STEPS: u64 = 16;

/// A computation stopped because it needed more work than the store's work limit
/// ([`GameStore::set_work_limit`], [`GameStore::with_work_limit`]). Nothing wrong
/// was stored: every game and memo entry made before the stop is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the games grew too large: more than {limit} steps of work (comparing, adding \
     and reducing games; that is the work limit)"
)]
pub struct WorkLimit {
    /// The limit that was reached, in steps.
    pub limit: u64,
}

/// One side of a comparison: a game of the arena, or the game `{L | R}` whose
/// option lists are being reduced to canonical form (not stored yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operand {
    Id(GameId),
    Virtual,
}

/// The option lists of the [`Operand::Virtual`] game of a comparison.
#[derive(Clone, Copy)]
struct Virtual<'v> {
    left: &'v [GameId],
    right: &'v [GameId],
}

const NO_VIRTUAL: Virtual<'static> = Virtual {
    left: &[],
    right: &[],
};

/// A pending comparison `a <= b` on the explicit stack of [`GameStore::le`]. It is
/// refuted by some `b^R <= a` (`b`'s Right options, side B) or some `b <= a^L`
/// (`a`'s Left options, side A). `phase` 0 and 1 scan the two sides (A first when
/// `a_first`), phase 2 means nothing refuted it; a skipped side is not scanned.
#[derive(Clone, Copy, Debug)]
struct LeFrame {
    a: Operand,
    b: Operand,
    phase: u8,
    a_first: bool,
    skip_a: bool,
    skip_b: bool,
    index: u32,
}

/// A pending sum on the explicit stack of [`GameStore::add`]: the option sums to
/// form (`jobs`, the first `lefts` of them Left's) and those already formed.
#[derive(Debug)]
struct AddFrame {
    a: GameId,
    b: GameId,
    jobs: Vec<(GameId, GameId)>,
    lefts: usize,
    results: Vec<GameId>,
}

/// The arena of canonical games: every canonical game is stored once and
/// referred to by its [`GameId`]. See the crate documentation for the model
/// and the invariants.
///
/// No operation recurses on the structure of games (comparisons, sums and
/// negatives use explicit stacks), so deep games cannot overflow the call stack.
/// The `try_` operations stop with a [`WorkLimit`] error when the work limit is
/// reached; the others are not limited.
#[derive(Clone, Debug)]
pub struct GameStore {
    nodes: Vec<Node>,
    /// Option lists of all nodes, concatenated; nodes refer to ranges of it.
    options: Vec<GameId>,
    /// Option lists (canonical or not, encoded by [`encode_key`]) -> value.
    by_options: FxHashMap<Box<[u32]>, GameId>,
    /// `{l | r}` with single options (`NO_ID` for an empty side) -> value.
    single: FxHashMap<(u32, u32), GameId>,
    /// `{l | r}` for `l, r < DENSE`, as `id + 1` (0 = unknown), allocated on first use.
    single_dense: Vec<u32>,
    le_cache: FxHashMap<(u32, u32), bool>,
    sum_cache: FxHashMap<(u32, u32), GameId>,
    negatives: Vec<u32>,
    numbers: FxHashMap<Dyadic, GameId>,
    simples: FxHashMap<(Dyadic, i64, u32), GameId>,
    nimbers: Vec<GameId>,
    up_powers: Vec<GameId>,
    scratch: Vec<u32>,
    /// Every integer from `.0` to `.1` is in the arena (the chains built by
    /// [`GameStore::number`]).
    integers: (i64, i64),
    /// Spare explicit stack of [`GameStore::le`] (kept for its capacity).
    le_stack: Vec<LeFrame>,
    fast_paths: bool,
    /// Steps of work done since the work limit was set.
    work: u64,
    /// The most steps the `try_` operations may take ([`u64::MAX`]: no limit).
    work_limit: u64,
    pub(crate) analysis: crate::analysis::AnalysisCache,
    /// Games printed by name (`^[2]`, `v<3>*`, …), built on first use by `format`.
    pub(crate) named: Option<Vec<(GameId, String)>>,
}

impl Default for GameStore {
    fn default() -> Self {
        Self::new()
    }
}

fn encode_key(buf: &mut Vec<u32>, left: &[GameId], right: &[GameId]) {
    buf.clear();
    buf.push(left.len() as u32);
    buf.extend(left.iter().map(|g| g.0));
    buf.extend(right.iter().map(|g| g.0));
}

fn sort_dedup(v: &mut Vec<GameId>) {
    v.sort_unstable();
    v.dedup();
}

impl GameStore {
    /// A store containing only the game 0 (id [`GameId::ZERO`]).
    pub fn new() -> GameStore {
        let mut store = GameStore {
            nodes: Vec::new(),
            options: Vec::new(),
            by_options: FxHashMap::default(),
            single: FxHashMap::default(),
            single_dense: Vec::new(),
            le_cache: FxHashMap::default(),
            sum_cache: FxHashMap::default(),
            negatives: Vec::new(),
            numbers: FxHashMap::default(),
            simples: FxHashMap::default(),
            nimbers: Vec::new(),
            up_powers: Vec::new(),
            scratch: Vec::new(),
            integers: (0, 0),
            le_stack: Vec::new(),
            fast_paths: true,
            work: 0,
            work_limit: u64::MAX,
            analysis: Default::default(),
            named: None,
        };
        let zero = store.intern(&[], &[]);
        debug_assert_eq!(zero, GameId::ZERO);
        store.numbers.insert(Dyadic::ZERO, zero);
        store.nimbers.push(zero);
        store
    }

    // ------------------------------------------------------------------
    // The work limit
    // ------------------------------------------------------------------

    /// Limits the work of the `try_` operations ([`GameStore::try_add`],
    /// [`GameStore::try_le`], [`GameStore::try_game`], …) to `limit` steps from
    /// now (`u64::MAX`: no limit, the default). A step is one comparison or sum
    /// looked at, one option handled, or a share of a new game's memory, so the
    /// limit bounds both time (tens of millions of steps per second) and the growth
    /// of the arena. The operations without `try_` are never limited.
    pub fn set_work_limit(&mut self, limit: u64) {
        self.work_limit = limit;
        self.work = 0;
    }

    /// Steps of work done since the work limit was last set.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Runs `f` with the work limit set to `limit`, then puts back the previous
    /// limit and count.
    pub fn with_work_limit<T>(&mut self, limit: u64, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = (self.work_limit, self.work);
        self.set_work_limit(limit);
        let result = f(self);
        (self.work_limit, self.work) = saved;
        result
    }

    /// Charges `steps` of work done outside the store (a solver's own memory,
    /// say) to the work limit; an error once the limit is passed.
    pub fn try_charge(&mut self, steps: u64) -> Result<(), WorkLimit> {
        self.spend(steps)
    }

    /// Charges `steps` of work; an error once the limit is passed.
    fn spend(&mut self, steps: u64) -> Result<(), WorkLimit> {
        self.work = self.work.saturating_add(steps);
        if self.work > self.work_limit {
            Err(WorkLimit {
                limit: self.work_limit,
            })
        } else {
            Ok(())
        }
    }

    /// An error when `steps` more steps would pass the limit (nothing is charged).
    fn ensure_room(&self, steps: u64) -> Result<(), WorkLimit> {
        if self.work.saturating_add(steps) > self.work_limit {
            Err(WorkLimit {
                limit: self.work_limit,
            })
        } else {
            Ok(())
        }
    }

    /// Runs a limited operation without a limit (its result cannot be an error).
    fn unlimited<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, WorkLimit>) -> T {
        let saved = (self.work_limit, self.work);
        self.work_limit = u64::MAX;
        let result = f(self);
        (self.work_limit, self.work) = saved;
        match result {
            Ok(value) => value,
            // `spend` saturates at u64::MAX, which is never more than the limit.
            Err(_) => unreachable!("no work limit was set"),
        }
    }
    /// Number of canonical games in the arena.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// All games of the arena, in creation order (options before games).
    pub fn ids(&self) -> impl Iterator<Item = GameId> {
        (0..self.nodes.len() as u32).map(GameId)
    }

    /// Always false: the store holds at least the game 0.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Enable or disable the arithmetic shortcuts for games of the form
    /// `x + n·↑ + *m` in [`GameStore::le`] and [`GameStore::add`] (enabled by
    /// default). Disabling them makes every comparison and sum go through
    /// the definitions, which the tests use to cross-check the shortcuts.
    /// The memo tables are cleared.
    pub fn set_fast_paths(&mut self, enabled: bool) {
        self.fast_paths = enabled;
        self.clear_caches();
    }

    /// Drop the memo tables of comparisons and sums (the arena stays).
    pub fn clear_caches(&mut self) {
        self.le_cache.clear();
        self.sum_cache.clear();
    }

    fn node(&self, g: GameId) -> &Node {
        &self.nodes[g.index()]
    }

    fn left_range(&self, g: GameId) -> Range<usize> {
        let n = self.node(g);
        n.left_start as usize..(n.left_start + n.left_len) as usize
    }

    fn right_range(&self, g: GameId) -> Range<usize> {
        let n = self.node(g);
        n.right_start as usize..(n.right_start + n.right_len) as usize
    }

    /// Canonical Left options of `g`, sorted by id.
    pub fn left_options(&self, g: GameId) -> &[GameId] {
        &self.options[self.left_range(g)]
    }

    /// Canonical Right options of `g`, sorted by id.
    pub fn right_options(&self, g: GameId) -> &[GameId] {
        &self.options[self.right_range(g)]
    }

    /// The kind tag of `g`.
    pub fn kind(&self, g: GameId) -> Kind {
        self.node(g).kind
    }

    /// `Some(x)` if `g` is the number `x`.
    pub fn as_number(&self, g: GameId) -> Option<Dyadic> {
        self.node(g).kind.as_number()
    }

    /// Whether `g` is a number.
    pub fn is_number(&self, g: GameId) -> bool {
        self.as_number(g).is_some()
    }

    /// `Some(m)` if `g` is the nimber `*m` (`*0 = 0`).
    pub fn as_nimber(&self, g: GameId) -> Option<u32> {
        match self.node(g).kind {
            Kind::Simple {
                number,
                ups: 0,
                star,
            } if number == Dyadic::ZERO => Some(star),
            _ => None,
        }
    }

    /// Birthday of `g` (the height of its canonical game tree; 0 has birthday 0).
    pub fn birthday(&self, g: GameId) -> u32 {
        self.node(g).birthday
    }

    // ------------------------------------------------------------------
    // Interning and the kind tags
    // ------------------------------------------------------------------

    /// Store the game with the given *canonical* option lists (sorted,
    /// Store the game with the given *canonical* option lists (sorted,
    /// deduplicated, no dominated or reversible options) and return its id.
    /// A new game is charged to the work count (see [`NODE_STEPS`]).
    fn intern(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        // Games x + n·↑ + *m are found by their tag (canonical forms are unique),
        // the others by their option lists.
        let kind = self.recognise(left, right);
        let mut key = std::mem::take(&mut self.scratch);
        match kind {
            Kind::Simple { number, ups, star } => {
                if let Some(&id) = self.simples.get(&(number, ups, star)) {
                    self.scratch = key;
                    return id;
                }
            }
            Kind::Other => {
                encode_key(&mut key, left, right);
                if let Some(&id) = self.by_options.get(key.as_slice()) {
                    self.scratch = key;
                    return id;
                }
            }
        }
        self.work = self
            .work
            .saturating_add(NODE_STEPS + (left.len() + right.len()) as u64);
        let id = GameId(u32::try_from(self.nodes.len()).expect("arena full"));
        let birthday = left
            .iter()
            .chain(right)
            .map(|g| self.birthday(*g) + 1)
            .max()
            .unwrap_or(0);
        let left_start = self.options.len() as u32;
        self.options.extend_from_slice(left);
        let right_start = self.options.len() as u32;
        self.options.extend_from_slice(right);
        self.nodes.push(Node {
            left_start,
            left_len: left.len() as u32,
            right_start,
            right_len: right.len() as u32,
            kind,
            birthday,
        });
        self.negatives.push(NO_ID);
        match kind {
            Kind::Simple { number, ups, star } => {
                self.simples.insert((number, ups, star), id);
                if ups == 0 && star == 0 {
                    self.numbers.insert(number, id);
                }
            }
            Kind::Other => {
                self.by_options.insert(key.clone().into_boxed_slice(), id);
            }
        }
        self.scratch = key;
        id
    }

    fn simple_parts(&self, g: GameId) -> Option<(Dyadic, i64, u32)> {
        match self.node(g).kind {
            Kind::Simple { number, ups, star } => Some((number, ups, star)),
            Kind::Other => None,
        }
    }

    /// Kind of the canonical game `{left | right}`, from the kinds of its
    /// options. The patterns are the canonical forms of `x + n·↑ + *m`
    /// (see the crate documentation); they are complete, which the tests
    /// check against generic construction.
    fn recognise(&self, left: &[GameId], right: &[GameId]) -> Kind {
        // Numbers: at most one option each side, all numbers, l < r.
        if left.len() <= 1 && right.len() <= 1 {
            let l = left.first().map(|g| self.as_number(*g));
            let r = right.first().map(|g| self.as_number(*g));
            if l != Some(None) && r != Some(None) {
                let (l, r) = (l.flatten(), r.flatten());
                if let Some(x) = Dyadic::simplest_between(l, r) {
                    return Kind::Simple {
                        number: x,
                        ups: 0,
                        star: 0,
                    };
                }
            }
        }
        let parts = |gs: &[GameId]| -> Option<Vec<(Dyadic, i64, u32)>> {
            gs.iter().map(|g| self.simple_parts(*g)).collect()
        };
        let (Some(mut lp), Some(mut rp)) = (parts(left), parts(right)) else {
            return Kind::Other;
        };
        if lp.is_empty() || rp.is_empty() {
            return Kind::Other;
        }
        let x = lp[0].0;
        if lp.iter().chain(&rp).any(|p| p.0 != x) {
            return Kind::Other;
        }
        lp.sort_unstable_by_key(|p| (p.1, p.2));
        rp.sort_unstable_by_key(|p| (p.1, p.2));
        let simple = |ups: i64, star: u32| Kind::Simple {
            number: x,
            ups,
            star,
        };
        // x + *m = {x, x*1, ..., x*(m-1) | same}.
        if lp == rp
            && lp
                .iter()
                .enumerate()
                .all(|(i, p)| p.1 == 0 && p.2 == i as u32)
        {
            return simple(0, lp.len() as u32);
        }
        match recognise_up_star(&lp, &rp) {
            Some((n, m)) => simple(n, m),
            None => Kind::Other,
        }
    }

    // ------------------------------------------------------------------
    // Basic constructors
    // ------------------------------------------------------------------

    /// The game 0.
    pub fn zero(&self) -> GameId {
        GameId::ZERO
    }

    /// The number `x` in canonical form: `n = {n-1 | }` for integers `n > 0`,
    /// `-n = { | -n+1}`, and `m/2^k = {(m-1)/2^k | (m+1)/2^k}` for odd `m`.
    pub fn number(&mut self, x: Dyadic) -> GameId {
        if let Some(&id) = self.numbers.get(&x) {
            return id;
        }
        let id = if x.is_integer() {
            // Walk from the end of the chain built so far towards n, creating the
            // missing links.
            let n = x.numerator();
            let step = n.signum();
            let start = if step > 0 {
                self.integers.1.min(n)
            } else {
                self.integers.0.max(n)
            };
            let (mut k, mut prev) = (start, self.numbers[&Dyadic::integer(start)]);
            while k != n {
                k += step;
                prev = match self.numbers.get(&Dyadic::integer(k)) {
                    Some(&id) => id,
                    None if step > 0 => self.intern(&[prev], &[]),
                    None => self.intern(&[], &[prev]),
                };
            }
            self.integers = (self.integers.0.min(n), self.integers.1.max(n));
            prev
        } else {
            let e = x.exponent();
            let lo = self.number(Dyadic::new(x.numerator() - 1, e));
            let hi = self.number(Dyadic::new(x.numerator() + 1, e));
            self.intern(&[lo], &[hi])
        };
        self.numbers.insert(x, id);
        id
    }

    /// Games [`GameStore::number`] would make for `x` (an upper bound).
    fn missing_numbers(&self, x: Dyadic) -> u64 {
        if self.numbers.contains_key(&x) {
            return 0;
        }
        let (lo, hi) = self.integers;
        // The integers from floor(x) to ceil(x) not yet in the chain, then two
        // games per binary place of x.
        let above = x.ceil().saturating_sub(hi).max(0) as u64;
        let below = lo.saturating_sub(x.floor()).max(0) as u64;
        above + below + 2 * u64::from(x.exponent())
    }

    /// The integer `n`.
    pub fn integer(&mut self, n: i64) -> GameId {
        self.number(Dyadic::integer(n))
    }

    /// The nimber `*m = {0, *1, ..., *(m-1) | 0, *1, ..., *(m-1)}`.
    pub fn nimber(&mut self, m: u32) -> GameId {
        while self.nimbers.len() <= m as usize {
            let mut sorted = self.nimbers.clone();
            sorted.sort_unstable();
            let id = self.intern(&sorted, &sorted);
            self.nimbers.push(id);
        }
        self.nimbers[m as usize]
    }

    /// `*` = `*1`.
    pub fn star(&mut self) -> GameId {
        self.nimber(1)
    }

    /// `↑ = {0 | *}`.
    pub fn up(&mut self) -> GameId {
        let star = self.star();
        self.simple_game(Some(GameId::ZERO), Some(star))
    }

    /// `↓ = {* | 0}`.
    pub fn down(&mut self) -> GameId {
        let star = self.star();
        self.simple_game(Some(star), Some(GameId::ZERO))
    }
    /// `x + n·↑ + *m`, built directly from its canonical form (see the crate
    /// documentation): `x + *m = {x, x*, …, x*(m-1) | x, x*, …, x*(m-1)}`, and for
    /// `n ≠ 0` the chain `x + n·↑ + *m = {x | x + (n-1)·↑ + *(m⊕1)}` down to
    /// `x + ↑* = {x, x* | x}` or `x + ↑ + *k = {x | x + *(k⊕1)}` (negatives
    /// mirrored). The games made are about `|n|` plus `m²` option entries.
    pub fn number_up_star(&mut self, x: Dyadic, n: i64, m: u32) -> GameId {
        self.unlimited(|s| s.number_up_star_in(x, n, m))
    }

    /// [`GameStore::number_up_star`] within the work limit.
    pub fn try_number_up_star(&mut self, x: Dyadic, n: i64, m: u32) -> Result<GameId, WorkLimit> {
        self.number_up_star_in(x, n, m)
    }

    fn number_up_star_in(&mut self, x: Dyadic, n: i64, m: u32) -> Result<GameId, WorkLimit> {
        if let Some(&id) = self.simples.get(&(x, n, m)) {
            return Ok(id);
        }
        self.spend(1)?;
        // Refuse before building a long chain of integers.
        self.ensure_room(self.missing_numbers(x).saturating_mul(NODE_STEPS + 1))?;
        if n == 0 && m == 0 {
            return Ok(self.number(x));
        }
        if n == 0 && x == Dyadic::ZERO {
            // *k has 2k options: refuse before building a long chain of nimbers.
            let (have, m64) = (self.nimbers.len() as u64, u64::from(m));
            let count = (m64 + 1).saturating_sub(have);
            self.ensure_room(count * NODE_STEPS + count * (have + m64))?;
            return Ok(self.nimber(m));
        }
        let base = self.number(x);
        if n == 0 {
            // x + *k for k = k0 + 1..=m from the largest x + *k0 already built
            // (x itself for k0 = 0): its options and itself are the options of the
            // next, already in id order (each was made after the ones before it).
            let mut k0 = m - 1;
            while k0 > 0 && !self.simples.contains_key(&(x, 0, k0)) {
                k0 -= 1;
            }
            let (mut options, mut last) = if k0 == 0 {
                (Vec::new(), base)
            } else {
                let below = self.simples[&(x, 0, k0)];
                (self.left_options(below).to_vec(), below)
            };
            for k in k0 + 1..=m {
                options.push(last);
                self.ensure_room(NODE_STEPS + 2 * u64::from(k))?;
                debug_assert!(options.windows(2).all(|w| w[0] < w[1]));
                last = self.intern(&options, &options);
            }
            return Ok(last);
        }
        let sign = n.signum();
        let size = n.unsigned_abs();
        // The star part of x + k·↑ (times the sign) on the way to n·↑ + *m.
        let star_at = |k: u64| m ^ ((size - k) & 1) as u32;
        // Build from the highest link of the chain already there.
        let mut k0 = size - 1;
        while k0 > 0
            && !self
                .simples
                .contains_key(&(x, sign * k0 as i64, star_at(k0)))
        {
            k0 -= 1;
        }
        self.ensure_room((size - k0).saturating_mul(NODE_STEPS + 2))?;
        let mut last = match k0 {
            0 => base,
            k => self.simples[&(x, sign * k as i64, star_at(k))],
        };
        for k in k0 + 1..=size {
            let star = star_at(k);
            self.spend(1)?;
            last = if k == 1 && star == 1 {
                let x_star = self.number_up_star_in(x, 0, 1)?;
                let mut pair = [base, x_star];
                pair.sort_unstable();
                if sign > 0 {
                    self.intern(&pair, &[base])
                } else {
                    self.intern(&[base], &pair)
                }
            } else {
                let below = if k == 1 {
                    self.number_up_star_in(x, 0, star ^ 1)?
                } else {
                    last
                };
                if sign > 0 {
                    self.intern(&[base], &[below])
                } else {
                    self.intern(&[below], &[base])
                }
            };
            debug_assert_eq!(
                self.kind(last),
                Kind::Simple {
                    number: x,
                    ups: sign * k as i64,
                    star
                }
            );
        }
        Ok(last)
    }

    /// `↑^n` (Conway's "up-nth", CGSuite `^<n>`) for `n >= 1`:
    /// `↑^1 = ↑` and `↑^n = {0 | ↓^[n-1] + *}` where `↓^[k] = -↑^[k]`
    /// (see [`GameStore::up_power_sum`]). `↑^2 = {0 | ↓*}`.
    ///
    /// # Panics
    /// When `n` is 0.
    pub fn up_power(&mut self, n: u32) -> GameId {
        self.unlimited(|s| s.try_up_power(n))
    }

    /// [`GameStore::up_power`] within the work limit.
    ///
    /// # Panics
    /// When `n` is 0.
    pub fn try_up_power(&mut self, n: u32) -> Result<GameId, WorkLimit> {
        assert!(n >= 1, "up_power needs n >= 1");
        while self.up_powers.len() < n as usize {
            let k = self.up_powers.len() as u32 + 1;
            let id = if k == 1 {
                self.up()
            } else {
                let prev_sum = self.try_up_power_sum(k - 1)?;
                let down_sum = self.neg(prev_sum);
                let star = self.star();
                let right = self.add_in(down_sum, star)?;
                self.simple_game_in(Some(GameId::ZERO), Some(right))?
            };
            self.up_powers.push(id);
        }
        Ok(self.up_powers[n as usize - 1])
    }

    /// `↑^[n] = ↑ + ↑^2 + ... + ↑^n` (CGSuite `^[n]`); `↑^[0] = 0`.
    pub fn up_power_sum(&mut self, n: u32) -> GameId {
        self.unlimited(|s| s.try_up_power_sum(n))
    }

    /// [`GameStore::up_power_sum`] within the work limit.
    pub fn try_up_power_sum(&mut self, n: u32) -> Result<GameId, WorkLimit> {
        let mut acc = GameId::ZERO;
        for k in 1..=n {
            let p = self.try_up_power(k)?;
            acc = self.add_in(acc, p)?;
        }
        Ok(acc)
    }

    /// `n·↑`.
    pub fn ups(&mut self, n: i64) -> GameId {
        self.number_up_star(Dyadic::ZERO, n, 0)
    }

    // ------------------------------------------------------------------
    // Canonical forms from arbitrary option lists
    // ------------------------------------------------------------------

    /// The canonical form of `{left | right}` where the options are
    /// canonical games (ids of this store) in any order, possibly repeated,
    /// dominated or reversible. Option lists seen before are a hash lookup.
    pub fn game(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        self.unlimited(|s| s.game_in(left, right))
    }

    /// [`GameStore::game`] within the work limit.
    pub fn try_game(&mut self, left: &[GameId], right: &[GameId]) -> Result<GameId, WorkLimit> {
        self.game_in(left, right)
    }

    fn game_in(&mut self, left: &[GameId], right: &[GameId]) -> Result<GameId, WorkLimit> {
        if left.len() <= 1 && right.len() <= 1 {
            return self.simple_game_in(left.first().copied(), right.first().copied());
        }
        self.spend((left.len() + right.len()) as u64)?;
        let mut key = std::mem::take(&mut self.scratch);
        let mut l = left.to_vec();
        let mut r = right.to_vec();
        sort_dedup(&mut l);
        sort_dedup(&mut r);
        encode_key(&mut key, &l, &r);
        let found = self.by_options.get(key.as_slice()).copied();
        self.scratch = key;
        if let Some(id) = found {
            return Ok(id);
        }
        let raw_key = {
            let mut k = Vec::new();
            encode_key(&mut k, &l, &r);
            k.into_boxed_slice()
        };
        let id = self.canonicalize(l, r)?;
        self.by_options.insert(raw_key, id);
        Ok(id)
    }

    /// `{left | right}` with at most one option on each side (`None` = no
    /// option): the fast path used by game solvers, a single hash lookup
    /// once the pair has been seen.
    pub fn simple_game(&mut self, left: Option<GameId>, right: Option<GameId>) -> GameId {
        self.unlimited(|s| s.simple_game_in(left, right))
    }

    fn simple_game_in(
        &mut self,
        left: Option<GameId>,
        right: Option<GameId>,
    ) -> Result<GameId, WorkLimit> {
        // Both options among the first DENSE ids: a direct table lookup.
        let dense_index = match (left, right) {
            (Some(l), Some(r)) if l.index() < DENSE && r.index() < DENSE => {
                Some(l.index() * DENSE + r.index())
            }
            _ => None,
        };
        if let Some(i) = dense_index {
            if let Some(&v) = self.single_dense.get(i) {
                if v != 0 {
                    return Ok(GameId(v - 1));
                }
            }
        }
        let key = (left.map_or(NO_ID, |g| g.0), right.map_or(NO_ID, |g| g.0));
        let id = match self.single.get(&key) {
            Some(&id) => id,
            None => {
                let l: Vec<GameId> = left.into_iter().collect();
                let r: Vec<GameId> = right.into_iter().collect();
                let id = self.canonicalize(l, r)?;
                self.single.insert(key, id);
                id
            }
        };
        if let Some(i) = dense_index {
            if self.single_dense.is_empty() {
                // Zeroed allocation: pages are only touched when used.
                self.single_dense = vec![0; DENSE * DENSE];
            }
            self.single_dense[i] = id.0 + 1;
        }
        Ok(id)
    }

    /// Reduce sorted, deduplicated option lists to canonical form and intern.
    fn canonicalize(
        &mut self,
        mut left: Vec<GameId>,
        mut right: Vec<GameId>,
    ) -> Result<GameId, WorkLimit> {
        // Fast path: all options numbers.
        let all_numbers = left.iter().chain(&right).all(|g| self.is_number(*g));
        if all_numbers {
            let best_left = left.iter().copied().max_by_key(|g| self.as_number(*g));
            let best_right = right.iter().copied().min_by_key(|g| self.as_number(*g));
            let lo = best_left.and_then(|g| self.as_number(g));
            let hi = best_right.and_then(|g| self.as_number(g));
            if let Some(x) = Dyadic::simplest_between(lo, hi) {
                return Ok(self.number(x));
            }
            // A hot game {a | b} with numbers a >= b: already canonical.
            let l: Vec<GameId> = best_left.into_iter().collect();
            let r: Vec<GameId> = best_right.into_iter().collect();
            return Ok(self.intern(&l, &r));
        }
        loop {
            self.remove_dominated(&mut left, true)?;
            self.remove_dominated(&mut right, false)?;
            let mut changed = false;
            // Bypass reversible Left options: G^L with some G^{LR} <= G.
            let mut new_left = Vec::with_capacity(left.len());
            for &gl in &left {
                let mut reversed = None;
                for k in self.right_range(gl) {
                    let glr = self.options[k];
                    let virt = Virtual {
                        left: &left,
                        right: &right,
                    };
                    if self.le_in(Operand::Id(glr), Operand::Virtual, virt)? {
                        reversed = Some(glr);
                        break;
                    }
                }
                match reversed {
                    Some(glr) => {
                        changed = true;
                        new_left.extend_from_slice(self.left_options(glr));
                    }
                    None => new_left.push(gl),
                }
            }
            // Bypass reversible Right options: G^R with some G^{RL} >= G.
            let mut new_right = Vec::with_capacity(right.len());
            for &gr in &right {
                let mut reversed = None;
                for k in self.left_range(gr) {
                    let grl = self.options[k];
                    let virt = Virtual {
                        left: &left,
                        right: &right,
                    };
                    if self.le_in(Operand::Virtual, Operand::Id(grl), virt)? {
                        reversed = Some(grl);
                        break;
                    }
                }
                match reversed {
                    Some(grl) => {
                        changed = true;
                        new_right.extend_from_slice(self.right_options(grl));
                    }
                    None => new_right.push(gr),
                }
            }
            if !changed {
                break;
            }
            left = new_left;
            right = new_right;
            sort_dedup(&mut left);
            sort_dedup(&mut right);
        }
        Ok(self.intern(&left, &right))
    }

    /// Remove dominated options (for Left: smaller ones; for Right: larger).
    /// The list holds distinct canonical games, so no two are equal.
    fn remove_dominated(&mut self, opts: &mut Vec<GameId>, is_left: bool) -> Result<(), WorkLimit> {
        if opts.len() < 2 {
            return Ok(());
        }
        let mut keep = vec![true; opts.len()];
        for i in 0..opts.len() {
            for j in 0..opts.len() {
                if i == j || !keep[j] {
                    continue;
                }
                let (a, b) = if is_left {
                    (opts[i], opts[j])
                } else {
                    (opts[j], opts[i])
                };
                if self.le_in(Operand::Id(a), Operand::Id(b), NO_VIRTUAL)? {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut idx = 0;
        opts.retain(|_| {
            let k = keep[idx];
            idx += 1;
            k
        });
        Ok(())
    }

    // ------------------------------------------------------------------
    // Comparison
    // ------------------------------------------------------------------

    /// `a <= b`. Memoized on the id pair, with fast paths for games of the
    /// form `x + n·↑ + *m`.
    pub fn le(&mut self, a: GameId, b: GameId) -> bool {
        self.unlimited(|s| s.le_in(Operand::Id(a), Operand::Id(b), NO_VIRTUAL))
    }

    /// [`GameStore::le`] within the work limit.
    pub fn try_le(&mut self, a: GameId, b: GameId) -> Result<bool, WorkLimit> {
        self.le_in(Operand::Id(a), Operand::Id(b), NO_VIRTUAL)
    }

    /// `a >= b`.
    pub fn ge(&mut self, a: GameId, b: GameId) -> bool {
        self.le(b, a)
    }

    /// `a < b`.
    pub fn lt(&mut self, a: GameId, b: GameId) -> bool {
        a != b && self.le(a, b)
    }

    /// `a || b` (incomparable, "confused with").
    pub fn confused(&mut self, a: GameId, b: GameId) -> bool {
        !self.le(a, b) && !self.le(b, a)
    }

    /// `a <= b` when it is known without looking at options: equal ids, games of
    /// the form `x + n·↑ + *m`, or the memo. One step of work.
    fn le_known(&mut self, a: Operand, b: Operand) -> Result<Option<bool>, WorkLimit> {
        self.spend(1)?;
        let (Operand::Id(a), Operand::Id(b)) = (a, b) else {
            return Ok(None);
        };
        if a == b {
            return Ok(Some(true));
        }
        if self.fast_paths {
            if let (
                Kind::Simple {
                    number: x1,
                    ups: n1,
                    star: m1,
                },
                Kind::Simple {
                    number: x2,
                    ups: n2,
                    star: m2,
                },
            ) = (self.node(a).kind, self.node(b).kind)
            {
                // b - a = (x2 - x1) + (n2 - n1)·↑ + *(m1 ^ m2) >= 0 ?
                return Ok(Some(match x2.cmp(&x1) {
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Equal => up_star_nonnegative(n2 - n1, m1 ^ m2),
                }));
            }
        }
        Ok(self.le_cache.get(&(a.0, b.0)).copied())
    }

    /// A new frame for `a <= b`. Number avoidance: the moves inside a number can
    /// be skipped when the other game (of the arena) is not a number.
    fn le_frame(&self, a: Operand, b: Operand) -> LeFrame {
        let (skip_a, skip_b) = match (a, b) {
            (Operand::Id(a), Operand::Id(b)) => {
                let (a_number, b_number) = (self.is_number(a), self.is_number(b));
                (a_number && !b_number, b_number && !a_number)
            }
            _ => (false, false),
        };
        LeFrame {
            a,
            b,
            phase: 0,
            // Comparisons of arena games (memoized, often known) before those
            // with the game being reduced.
            a_first: a == Operand::Virtual,
            skip_a,
            skip_b,
            index: 0,
        }
    }

    /// The `i`-th Left (or Right) option of an operand.
    fn operand_option(&self, x: Operand, virt: Virtual, left: bool, i: u32) -> Option<GameId> {
        let list = match (x, left) {
            (Operand::Id(g), true) => self.left_options(g),
            (Operand::Id(g), false) => self.right_options(g),
            (Operand::Virtual, true) => virt.left,
            (Operand::Virtual, false) => virt.right,
        };
        list.get(i as usize).copied()
    }

    /// `a <= b` iff no `b^R <= a` and no `b <= a^L`, evaluated depth first on an
    /// explicit stack (deep games do not use the call stack), memoized on pairs
    /// of arena games.
    fn le_in(&mut self, a: Operand, b: Operand, virt: Virtual) -> Result<bool, WorkLimit> {
        if let Some(known) = self.le_known(a, b)? {
            return Ok(known);
        }
        let mut stack = std::mem::take(&mut self.le_stack);
        stack.clear();
        let result = self.le_search(&mut stack, a, b, virt);
        self.le_stack = stack;
        result
    }

    fn le_search(
        &mut self,
        stack: &mut Vec<LeFrame>,
        a: Operand,
        b: Operand,
        virt: Virtual,
    ) -> Result<bool, WorkLimit> {
        stack.push(self.le_frame(a, b));
        // The answer of the frame that just finished, for the frame below it.
        let mut answer: Option<bool> = None;
        loop {
            let top = stack.len() - 1;
            // A child `x <= y` that holds refutes its parent.
            let mut result = (answer.take() == Some(true)).then_some(false);
            let mut pushed = false;
            while result.is_none() {
                let f = stack[top];
                if f.phase >= 2 {
                    result = Some(true);
                    break;
                }
                let side_a = (f.phase == 0) == f.a_first;
                let query = if side_a {
                    (!f.skip_a)
                        .then(|| self.operand_option(f.a, virt, true, f.index))
                        .flatten()
                        .map(|al| (f.b, Operand::Id(al)))
                } else {
                    (!f.skip_b)
                        .then(|| self.operand_option(f.b, virt, false, f.index))
                        .flatten()
                        .map(|br| (Operand::Id(br), f.a))
                };
                let Some((x, y)) = query else {
                    stack[top].phase += 1;
                    stack[top].index = 0;
                    continue;
                };
                stack[top].index += 1;
                match self.le_known(x, y)? {
                    Some(true) => result = Some(false),
                    Some(false) => {}
                    None => {
                        let child = self.le_frame(x, y);
                        stack.push(child);
                        pushed = true;
                        break;
                    }
                }
            }
            if pushed {
                continue;
            }
            let r = result.expect("a result or a child");
            let f = stack.pop().expect("the frame just examined");
            if let (Operand::Id(x), Operand::Id(y)) = (f.a, f.b) {
                if self.le_cache.len() >= MAX_CACHE_ENTRIES {
                    self.le_cache.clear(); // a memo only: dropping it bounds memory
                }
                self.le_cache.insert((x.0, y.0), r);
            }
            if stack.is_empty() {
                return Ok(r);
            }
            answer = Some(r);
        }
    }

    // ------------------------------------------------------------------
    // Negation and sums
    // ------------------------------------------------------------------

    /// `-g = {-g^R | -g^L}` (memoized; the negative of a canonical form is
    /// canonical). Built bottom-up on an explicit stack; it makes at most as many
    /// games as `g` has subgames.
    pub fn neg(&mut self, g: GameId) -> GameId {
        if self.negatives[g.index()] != NO_ID {
            return GameId(self.negatives[g.index()]);
        }
        let mut stack = vec![g];
        while let Some(&h) = stack.last() {
            if self.negatives[h.index()] != NO_ID {
                stack.pop();
                continue;
            }
            let before = stack.len();
            for k in self.left_range(h).chain(self.right_range(h)) {
                let o = self.options[k];
                if self.negatives[o.index()] == NO_ID {
                    stack.push(o);
                }
            }
            if stack.len() > before {
                continue;
            }
            stack.pop();
            let negative = |s: &Self, o: &GameId| GameId(s.negatives[o.index()]);
            let mut left: Vec<GameId> = self
                .right_options(h)
                .iter()
                .map(|o| negative(self, o))
                .collect();
            let mut right: Vec<GameId> = self
                .left_options(h)
                .iter()
                .map(|o| negative(self, o))
                .collect();
            left.sort_unstable();
            right.sort_unstable();
            let id = self.intern(&left, &right);
            self.negatives[h.index()] = id.0;
            self.negatives[id.index()] = h.0;
        }
        GameId(self.negatives[g.index()])
    }

    /// `a + b` (memoized on the unordered id pair).
    pub fn add(&mut self, a: GameId, b: GameId) -> GameId {
        self.unlimited(|s| s.add_in(a, b))
    }

    /// [`GameStore::add`] within the work limit.
    pub fn try_add(&mut self, a: GameId, b: GameId) -> Result<GameId, WorkLimit> {
        self.add_in(a, b)
    }

    /// `a - b`.
    pub fn sub(&mut self, a: GameId, b: GameId) -> GameId {
        let nb = self.neg(b);
        self.add(a, nb)
    }

    /// [`GameStore::sub`] within the work limit.
    pub fn try_sub(&mut self, a: GameId, b: GameId) -> Result<GameId, WorkLimit> {
        let nb = self.neg(b);
        self.add_in(a, nb)
    }

    /// Sum of many games (0 for an empty list).
    pub fn sum_of(&mut self, games: &[GameId]) -> GameId {
        games.iter().fold(GameId::ZERO, |acc, g| self.add(acc, *g))
    }

    /// `n · g` for an integer `n` (negative `n` gives `|n|·(-g)`).
    pub fn multiple(&mut self, g: GameId, n: i64) -> GameId {
        self.unlimited(|s| s.try_multiple(g, n))
    }

    /// [`GameStore::multiple`] within the work limit.
    pub fn try_multiple(&mut self, g: GameId, n: i64) -> Result<GameId, WorkLimit> {
        let base = if n < 0 { self.neg(g) } else { g };
        if let Some((x, ups, star)) = self.simple_parts(base) {
            if self.fast_paths {
                // Arithmetic on the parts, when it cannot overflow.
                let k = n.unsigned_abs();
                let x_k = i64::try_from(k)
                    .ok()
                    .and_then(|k| x.numerator().checked_mul(k))
                    .map(|num| Dyadic::new(num, x.exponent()));
                let ups_k = i64::try_from(k).ok().and_then(|k| ups.checked_mul(k));
                if let (Some(x_k), Some(ups_k)) = (x_k, ups_k) {
                    let star_k = if k % 2 == 1 { star } else { 0 };
                    return self.number_up_star_in(x_k, ups_k, star_k);
                }
            }
        }
        let mut acc = GameId::ZERO;
        for _ in 0..n.unsigned_abs() {
            acc = self.add_in(acc, base)?;
        }
        Ok(acc)
    }

    /// `a + b` when it is known without forming option sums: a summand 0, two
    /// games of the form `x + n·↑ + *m` (added on their parts), or the memo.
    /// One step of work (and the parts' game when it is new).
    fn add_known(&mut self, a: GameId, b: GameId) -> Result<Option<GameId>, WorkLimit> {
        self.spend(1)?;
        if a == GameId::ZERO {
            return Ok(Some(b));
        }
        if b == GameId::ZERO {
            return Ok(Some(a));
        }
        if self.fast_paths {
            if let (Some((x1, n1, m1)), Some((x2, n2, m2))) =
                (self.simple_parts(a), self.simple_parts(b))
            {
                return self.number_up_star_in(x1 + x2, n1 + n2, m1 ^ m2).map(Some);
            }
        }
        let key = if a <= b { (a.0, b.0) } else { (b.0, a.0) };
        Ok(self.sum_cache.get(&key).copied())
    }

    /// The option sums of `a + b` by the definition `{a^L + b, a + b^L | a^R + b,
    /// a + b^R}`, skipping the options of a number summand (number translation).
    fn add_frame(&mut self, a: GameId, b: GameId) -> Result<AddFrame, WorkLimit> {
        let a_number = self.is_number(a);
        let b_number = self.is_number(b);
        let with_a = !a_number || b_number;
        let with_b = !b_number || a_number;
        let mut jobs = Vec::new();
        let mut lefts = 0;
        for left in [true, false] {
            if with_a {
                let opts = if left {
                    self.left_options(a)
                } else {
                    self.right_options(a)
                };
                jobs.extend(opts.iter().map(|&o| (o, b)));
            }
            if with_b {
                let opts = if left {
                    self.left_options(b)
                } else {
                    self.right_options(b)
                };
                jobs.extend(opts.iter().map(|&o| (a, o)));
            }
            if left {
                lefts = jobs.len();
            }
        }
        self.spend(jobs.len() as u64)?;
        Ok(AddFrame {
            a,
            b,
            results: Vec::with_capacity(jobs.len()),
            jobs,
            lefts,
        })
    }

    /// `a + b` on an explicit stack of pending sums (deep games do not use the
    /// call stack), memoized on the unordered pair.
    fn add_in(&mut self, a: GameId, b: GameId) -> Result<GameId, WorkLimit> {
        if let Some(known) = self.add_known(a, b)? {
            return Ok(known);
        }
        let mut stack = vec![self.add_frame(a, b)?];
        loop {
            let top = stack.last_mut().expect("a pending sum");
            if let Some(&(x, y)) = top.jobs.get(top.results.len()) {
                match self.add_known(x, y)? {
                    Some(g) => top.results.push(g),
                    None => {
                        let frame = self.add_frame(x, y)?;
                        stack.push(frame);
                    }
                }
                continue;
            }
            let frame = stack.pop().expect("a pending sum");
            let (left, right) = frame.results.split_at(frame.lefts);
            let g = self.game_in(left, right)?;
            let (a, b) = (frame.a, frame.b);
            let key = if a <= b { (a.0, b.0) } else { (b.0, a.0) };
            if self.sum_cache.len() >= MAX_CACHE_ENTRIES {
                self.sum_cache.clear(); // a memo only: dropping it bounds memory
            }
            self.sum_cache.insert(key, g);
            match stack.last_mut() {
                Some(parent) => parent.results.push(g),
                None => return Ok(g),
            }
        }
    }
}

/// `n·↑ + *m >= 0`.
///
/// `n·↑ + *m` is 0 iff `n = m = 0`; for `n >= 1` it is positive except
/// `↑* || 0` (n = 1, m = 1); symmetrically negative for `n <= -1` except
/// `↓* || 0`; `*m || 0` for `m >= 1`.
fn up_star_nonnegative(n: i64, m: u32) -> bool {
    match n {
        0 => m == 0,
        1 => m != 1,
        n => n > 1,
    }
}

/// Recognise the canonical form of `n·↑ + *m` (`n != 0`) from the parts of
/// its options, all with the same number part (already checked), sorted by
/// `(ups, star)`. Returns `(n, m)`.
fn recognise_up_star(lp: &[(Dyadic, i64, u32)], rp: &[(Dyadic, i64, u32)]) -> Option<(i64, u32)> {
    // Canonical forms (x omitted; every option carries the same x):
    //   ↑* = {0, * | 0},  ↓* = {0 | 0, *},
    //   n·↑ + *m = {0 | (n-1)·↑ + *(m^1)}  for n >= 1, (n, m) != (1, 1),
    //   n·↑ + *m = {(n+1)·↑ + *(m^1) | 0}  for n <= -1, (n, m) != (-1, 1).
    let zero = |p: &(Dyadic, i64, u32)| p.1 == 0 && p.2 == 0;
    let star = |p: &(Dyadic, i64, u32)| p.1 == 0 && p.2 == 1;
    match (lp, rp) {
        ([a, b], [c]) if zero(a) && star(b) && zero(c) => Some((1, 1)),
        ([a], [b, c]) if zero(a) && zero(b) && star(c) => Some((-1, 1)),
        ([a], [b]) if zero(a) && b.1 >= 0 && !zero(b) => Some((b.1 + 1, b.2 ^ 1)),
        ([a], [b]) if zero(b) && a.1 <= 0 && !zero(a) => Some((a.1 - 1, a.2 ^ 1)),
        _ => None,
    }
}
