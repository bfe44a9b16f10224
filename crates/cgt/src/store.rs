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

/// The arena of canonical games: every canonical game is stored once and
/// referred to by its [`GameId`]. See the crate documentation for the model
/// and the invariants.
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
    fast_paths: bool,
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
            fast_paths: true,
            analysis: Default::default(),
            named: None,
        };
        let zero = store.intern(&[], &[]);
        debug_assert_eq!(zero, GameId::ZERO);
        store.numbers.insert(Dyadic::ZERO, zero);
        store.nimbers.push(zero);
        store
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
    /// deduplicated, no dominated or reversible options) and return its id.
    fn intern(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        let mut key = std::mem::take(&mut self.scratch);
        encode_key(&mut key, left, right);
        if let Some(&id) = self.by_options.get(key.as_slice()) {
            self.scratch = key;
            return id;
        }
        let id = GameId(u32::try_from(self.nodes.len()).expect("arena full"));
        let kind = self.recognise(left, right);
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
        self.by_options.insert(key.clone().into_boxed_slice(), id);
        self.scratch = key;
        if let Kind::Simple { number, ups, star } = kind {
            self.simples.insert((number, ups, star), id);
            if ups == 0 && star == 0 {
                self.numbers.insert(number, id);
            }
        }
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
            // Walk from 0 towards n, creating the missing links of the chain.
            let n = x.numerator();
            let step = n.signum();
            let (mut k, mut prev) = (0i64, GameId::ZERO);
            while k != n {
                k += step;
                prev = match self.numbers.get(&Dyadic::integer(k)) {
                    Some(&id) => id,
                    None if step > 0 => self.intern(&[prev], &[]),
                    None => self.intern(&[], &[prev]),
                };
            }
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

    /// `x + n·↑ + *m`.
    pub fn number_up_star(&mut self, x: Dyadic, n: i64, m: u32) -> GameId {
        if let Some(&id) = self.simples.get(&(x, n, m)) {
            return id;
        }
        if x != Dyadic::ZERO {
            let inf = self.number_up_star(Dyadic::ZERO, n, m);
            let num = self.number(x);
            return self.add_generic(num, inf);
        }
        if n == 0 {
            return self.nimber(m);
        }
        // Build n·↑ + *m as (n∓1)·↑ + *m  ± ↑, iteratively from the nearest
        // known multiple.
        let step = n.signum();
        let unit = if step > 0 { self.up() } else { self.down() };
        let mut k = 0;
        let mut acc = self.nimber(m);
        while k != n {
            k += step;
            acc = match self.simples.get(&(Dyadic::ZERO, k, m)) {
                Some(&id) => id,
                None => self.add_generic(acc, unit),
            };
        }
        acc
    }

    /// `↑^n` (Conway's "up-nth", CGSuite `^<n>`) for `n >= 1`:
    /// `↑^1 = ↑` and `↑^n = {0 | ↓^[n-1] + *}` where `↓^[k] = -↑^[k]`
    /// (see [`GameStore::up_power_sum`]). `↑^2 = {0 | ↓*}`.
    pub fn up_power(&mut self, n: u32) -> GameId {
        assert!(n >= 1, "up_power needs n >= 1");
        while self.up_powers.len() < n as usize {
            let k = self.up_powers.len() as u32 + 1;
            let id = if k == 1 {
                self.up()
            } else {
                let prev_sum = self.up_power_sum(k - 1);
                let down_sum = self.neg(prev_sum);
                let star = self.star();
                let right = self.add(down_sum, star);
                self.simple_game(Some(GameId::ZERO), Some(right))
            };
            self.up_powers.push(id);
        }
        self.up_powers[n as usize - 1]
    }

    /// `↑^[n] = ↑ + ↑^2 + ... + ↑^n` (CGSuite `^[n]`); `↑^[0] = 0`.
    pub fn up_power_sum(&mut self, n: u32) -> GameId {
        let mut acc = GameId::ZERO;
        for k in 1..=n {
            let p = self.up_power(k);
            acc = self.add(acc, p);
        }
        acc
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
        if left.len() <= 1 && right.len() <= 1 {
            return self.simple_game(left.first().copied(), right.first().copied());
        }
        let mut key = std::mem::take(&mut self.scratch);
        let mut l = left.to_vec();
        let mut r = right.to_vec();
        sort_dedup(&mut l);
        sort_dedup(&mut r);
        encode_key(&mut key, &l, &r);
        let found = self.by_options.get(key.as_slice()).copied();
        self.scratch = key;
        if let Some(id) = found {
            return id;
        }
        let raw_key = {
            let mut k = Vec::new();
            encode_key(&mut k, &l, &r);
            k.into_boxed_slice()
        };
        let id = self.canonicalize(l, r);
        self.by_options.insert(raw_key, id);
        id
    }

    /// `{left | right}` with at most one option on each side (`None` = no
    /// option): the fast path used by game solvers, a single hash lookup
    /// once the pair has been seen.
    pub fn simple_game(&mut self, left: Option<GameId>, right: Option<GameId>) -> GameId {
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
                    return GameId(v - 1);
                }
            }
        }
        let key = (left.map_or(NO_ID, |g| g.0), right.map_or(NO_ID, |g| g.0));
        let id = match self.single.get(&key) {
            Some(&id) => id,
            None => {
                let l: Vec<GameId> = left.into_iter().collect();
                let r: Vec<GameId> = right.into_iter().collect();
                let id = self.canonicalize(l, r);
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
        id
    }

    /// Reduce sorted, deduplicated option lists to canonical form and intern.
    fn canonicalize(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        // Fast path: all options numbers.
        let all_numbers = left.iter().chain(&right).all(|g| self.is_number(*g));
        if all_numbers {
            let best_left = left.iter().copied().max_by_key(|g| self.as_number(*g));
            let best_right = right.iter().copied().min_by_key(|g| self.as_number(*g));
            let lo = best_left.and_then(|g| self.as_number(g));
            let hi = best_right.and_then(|g| self.as_number(g));
            if let Some(x) = Dyadic::simplest_between(lo, hi) {
                return self.number(x);
            }
            // A hot game {a | b} with numbers a >= b: already canonical.
            let l: Vec<GameId> = best_left.into_iter().collect();
            let r: Vec<GameId> = best_right.into_iter().collect();
            return self.intern(&l, &r);
        }
        loop {
            self.remove_dominated(&mut left, true);
            self.remove_dominated(&mut right, false);
            let mut changed = false;
            // Bypass reversible Left options: G^L with some G^{LR} <= G.
            let mut new_left = Vec::with_capacity(left.len());
            for i in 0..left.len() {
                let gl = left[i];
                let mut reversed = None;
                for k in self.right_range(gl) {
                    let glr = self.options[k];
                    if self.le_id_virtual(glr, &left, &right) {
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
            for i in 0..right.len() {
                let gr = right[i];
                let mut reversed = None;
                for k in self.left_range(gr) {
                    let grl = self.options[k];
                    if self.le_virtual_id(&left, &right, grl) {
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
        self.intern(&left, &right)
    }

    /// Remove dominated options (for Left: smaller ones; for Right: larger).
    /// The list holds distinct canonical games, so no two are equal.
    fn remove_dominated(&mut self, opts: &mut Vec<GameId>, is_left: bool) {
        if opts.len() < 2 {
            return;
        }
        let mut keep = vec![true; opts.len()];
        for i in 0..opts.len() {
            for j in 0..opts.len() {
                if i == j || !keep[j] {
                    continue;
                }
                let dominated = if is_left {
                    self.le(opts[i], opts[j])
                } else {
                    self.le(opts[j], opts[i])
                };
                if dominated {
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
    }

    // ------------------------------------------------------------------
    // Comparison
    // ------------------------------------------------------------------

    /// `a <= b`. Memoized on the id pair, with fast paths for games of the
    /// form `x + n·↑ + *m`.
    pub fn le(&mut self, a: GameId, b: GameId) -> bool {
        if a == b {
            return true;
        }
        let (ka, kb) = (self.node(a).kind, self.node(b).kind);
        if !self.fast_paths {
        } else if let (
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
        ) = (ka, kb)
        {
            // b - a = (x2 - x1) + (n2 - n1)·↑ + *(m1 ^ m2) >= 0 ?
            return match x2.cmp(&x1) {
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal => up_star_nonnegative(n2 - n1, m1 ^ m2),
            };
        }
        if let Some(&r) = self.le_cache.get(&(a.0, b.0)) {
            return r;
        }
        let a_number = ka.as_number().is_some();
        let b_number = kb.as_number().is_some();
        // a <= b iff no b <= a^L and no b^R <= a. By number avoidance the
        // moves inside a number component can be skipped when the other
        // component is not a number.
        let skip_b_moves = b_number && !a_number;
        let skip_a_moves = a_number && !b_number;
        let mut result = true;
        if !skip_b_moves {
            for k in self.right_range(b) {
                let br = self.options[k];
                if self.le(br, a) {
                    result = false;
                    break;
                }
            }
        }
        if result && !skip_a_moves {
            for k in self.left_range(a) {
                let al = self.options[k];
                if self.le(b, al) {
                    result = false;
                    break;
                }
            }
        }
        if self.le_cache.len() >= MAX_CACHE_ENTRIES {
            self.le_cache.clear(); // a memo only: dropping it bounds memory
        }
        self.le_cache.insert((a.0, b.0), result);
        result
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

    /// `x <= G` where `G = {gl | gr}` is given by option lists (not interned).
    fn le_id_virtual(&mut self, x: GameId, gl: &[GameId], gr: &[GameId]) -> bool {
        // x <= G iff no G^R <= x and no G <= x^L.
        for &g in gr {
            if self.le(g, x) {
                return false;
            }
        }
        for k in self.left_range(x) {
            let xl = self.options[k];
            if self.le_virtual_id(gl, gr, xl) {
                return false;
            }
        }
        true
    }

    /// `G <= y` where `G = {gl | gr}` is given by option lists.
    fn le_virtual_id(&mut self, gl: &[GameId], gr: &[GameId], y: GameId) -> bool {
        // G <= y iff no y <= G^L and no y^R <= G.
        for &g in gl {
            if self.le(y, g) {
                return false;
            }
        }
        for k in self.right_range(y) {
            let yr = self.options[k];
            if self.le_id_virtual(yr, gl, gr) {
                return false;
            }
        }
        true
    }

    // ------------------------------------------------------------------
    // Negation and sums
    // ------------------------------------------------------------------

    /// `-g = {-g^R | -g^L}` (memoized; the negative of a canonical form is
    /// canonical).
    pub fn neg(&mut self, g: GameId) -> GameId {
        let cached = self.negatives[g.index()];
        if cached != NO_ID {
            return GameId(cached);
        }
        let mut left: Vec<GameId> = Vec::with_capacity(self.node(g).right_len as usize);
        for k in self.right_range(g) {
            let o = self.options[k];
            left.push(self.neg(o));
        }
        let mut right: Vec<GameId> = Vec::with_capacity(self.node(g).left_len as usize);
        for k in self.left_range(g) {
            let o = self.options[k];
            right.push(self.neg(o));
        }
        left.sort_unstable();
        right.sort_unstable();
        let id = self.intern(&left, &right);
        self.negatives[g.index()] = id.0;
        self.negatives[id.index()] = g.0;
        id
    }

    /// `a + b` (memoized on the unordered id pair).
    pub fn add(&mut self, a: GameId, b: GameId) -> GameId {
        if a == GameId::ZERO {
            return b;
        }
        if b == GameId::ZERO {
            return a;
        }
        if !self.fast_paths {
            return self.add_generic(a, b);
        }
        if let (Some((x1, n1, m1)), Some((x2, n2, m2))) =
            (self.simple_parts(a), self.simple_parts(b))
        {
            if n1 == 0 && n2 == 0 && m1 == 0 && m2 == 0 {
                return self.number(x1 + x2);
            }
            return self.number_up_star(x1 + x2, n1 + n2, m1 ^ m2);
        }
        self.add_generic(a, b)
    }

    /// `a - b`.
    pub fn sub(&mut self, a: GameId, b: GameId) -> GameId {
        let nb = self.neg(b);
        self.add(a, nb)
    }

    /// Sum of many games (0 for an empty list).
    pub fn sum_of(&mut self, games: &[GameId]) -> GameId {
        games.iter().fold(GameId::ZERO, |acc, g| self.add(acc, *g))
    }

    /// `n · g` for an integer `n` (negative `n` gives `|n|·(-g)`).
    pub fn multiple(&mut self, g: GameId, n: i64) -> GameId {
        let base = if n < 0 { self.neg(g) } else { g };
        let mut acc = GameId::ZERO;
        for _ in 0..n.unsigned_abs() {
            acc = self.add(acc, base);
        }
        acc
    }

    /// The sum by the definition `{a^L + b, a + b^L | a^R + b, a + b^R}`
    /// (skipping the options of a number summand, by number translation).
    fn add_generic(&mut self, a: GameId, b: GameId) -> GameId {
        if a == GameId::ZERO {
            return b;
        }
        if b == GameId::ZERO {
            return a;
        }
        let key = if a <= b { (a.0, b.0) } else { (b.0, a.0) };
        if let Some(&id) = self.sum_cache.get(&key) {
            return id;
        }
        let a_number = self.is_number(a);
        let b_number = self.is_number(b);
        let mut left = Vec::new();
        let mut right = Vec::new();
        if !a_number || b_number {
            for k in self.left_range(a) {
                let o = self.options[k];
                left.push(self.add(o, b));
            }
            for k in self.right_range(a) {
                let o = self.options[k];
                right.push(self.add(o, b));
            }
        }
        if !b_number || a_number {
            for k in self.left_range(b) {
                let o = self.options[k];
                left.push(self.add(a, o));
            }
            for k in self.right_range(b) {
                let o = self.options[k];
                right.push(self.add(a, o));
            }
        }
        let id = self.game(&left, &right);
        if self.sum_cache.len() >= MAX_CACHE_ENTRIES {
            self.sum_cache.clear(); // a memo only: dropping it bounds memory
        }
        self.sum_cache.insert(key, id);
        id
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
