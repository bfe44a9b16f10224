//! The move graph of a ruleset over its dense position index.
//!
//! A move changes exactly one player's multiset of hands (see
//! [`chopsticks_rules::hands`]). So for every hand count of the ruleset we tabulate,
//! once, for every multiset rank: whether it is alive, its distinct live values, the
//! ranks it can become when attacked by each value, and the ranks the mover can turn
//! it into with their own moves (self-attacks, splits, pass). A position's children
//! are then table look-ups and a mixed-radix recombination, with no allocation:
//! this is what makes exploring and solving tens of millions of positions fast.
//!
//! The tables are built from the same functions as [`Position::moves`], and the tests
//! check that both give the same children for every position of many rulesets.

use chopsticks_rules::hands::{
    attack_results, can_pass, is_alive, live_values, self_attack_results, split_results,
};
use chopsticks_rules::{Position, PositionIndex, RulesError, Ruleset, MAX_PLAYERS};

use crate::tiles::Tile;
use rayon::prelude::*;

/// A compressed list of lists: list `i` is `data[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, Default)]
struct Lists {
    offsets: Vec<u32>,
    data: Vec<u32>,
}

impl Lists {
    fn from_lists(lists: impl Iterator<Item = Vec<u32>>) -> Result<Lists, RulesError> {
        let mut offsets = vec![0u32];
        let mut data = Vec::new();
        for list in lists {
            data.extend_from_slice(&list);
            let end = u32::try_from(data.len())
                .map_err(|_| RulesError::TooLarge("move tables exceed 2^32 entries".into()))?;
            offsets.push(end);
        }
        Ok(Lists { offsets, data })
    }

    #[inline]
    fn get(&self, i: usize) -> &[u32] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    fn bytes(&self) -> u64 {
        (self.offsets.len() + self.data.len()) as u64 * 4
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The inverse relation: list `key_of(i, x)` of the result holds `source_of(i)`
    /// for every member `x` of list `i`. `keys` is the number of result lists.
    fn invert(
        &self,
        keys: usize,
        key_of: impl Fn(usize, u32) -> usize,
        source_of: impl Fn(usize) -> u32,
    ) -> Lists {
        self.invert_carrying(keys, key_of, source_of, &[]).0
    }

    /// [`Lists::invert`], with a payload beside the data (`payload[k]` belongs to
    /// `data[k]`; empty for none) carried to the entries of the inverse.
    fn invert_carrying(
        &self,
        keys: usize,
        key_of: impl Fn(usize, u32) -> usize,
        source_of: impl Fn(usize) -> u32,
        payload: &[u32],
    ) -> (Lists, Vec<u32>) {
        let mut offsets = vec![0u32; keys + 1];
        for i in 0..self.len() {
            for &x in self.get(i) {
                offsets[key_of(i, x) + 1] += 1;
            }
        }
        for k in 0..keys {
            offsets[k + 1] += offsets[k];
        }
        let mut fill = offsets.clone();
        let mut data = vec![0u32; self.data.len()];
        let mut carried = vec![0u32; payload.len()];
        for i in 0..self.len() {
            let start = self.offsets[i] as usize;
            for (k, &x) in self.get(i).iter().enumerate() {
                let key = key_of(i, x);
                data[fill[key] as usize] = source_of(i);
                if !payload.is_empty() {
                    carried[fill[key] as usize] = payload[start + k];
                }
                fill[key] += 1;
            }
        }
        (Lists { offsets, data }, carried)
    }
}

/// The tables for players with one particular number of hands.
#[derive(Clone, Debug, Default)]
struct PlayerTables {
    alive: Vec<bool>,
    /// Distinct live values of each rank.
    live: Lists,
    /// Key `rank * (F - 1) + (v - 1)`: ranks after being attacked by a hand of value `v`.
    attacked: Lists,
    /// Ranks the mover can reach by their own moves (self-attacks, splits, pass).
    own: Lists,
    /// The inverse of `attacked`: key `rank * (F - 1) + (v - 1)` lists the ranks that
    /// become `rank` when attacked by a hand of value `v`.
    attacked_from: Lists,
    /// The inverse of `own`: the ranks whose own moves reach `rank`.
    own_from: Lists,
    /// Beside each entry of `attacked` (when attacks may repeat, else empty): the
    /// smallest attacking value that gives the same result, the attacking
    /// values that do forming a run up to this entry's (see [`first_repeat`]).
    attacked_lo: Vec<u32>,
    /// The same beside each entry of `attacked_from`.
    attacked_from_lo: Vec<u32>,
    /// The ranks with no live hand.
    dead: Vec<u32>,
}

impl PlayerTables {
    /// Calls `emit(rank)` for every distinct rank this player's multiset at
    /// `base / (F - 1)` becomes when attacked by one of `values` (the mover's
    /// distinct live values, increasing; `base` is the multiset's rank times
    /// `F - 1`), a repeated rank where it first occurs.
    #[inline(always)]
    fn for_each_attacked(&self, values: &[u32], base: usize, mut emit: impl FnMut(u32)) {
        let repeats = !self.attacked_lo.is_empty();
        for (j, &v) in values.iter().enumerate() {
            let key = base + v as usize - 1;
            let start = self.attacked.offsets[key] as usize;
            for (k, &r) in self.attacked.get(key).iter().enumerate() {
                if repeats && first_repeat(values, j, self.attacked_lo[start + k]) {
                    continue;
                }
                emit(r);
            }
        }
    }
}

/// Whether an attack by `values[j]` (a mover's distinct live values, increasing)
/// repeats the result of an attack by an earlier value, given `lo`, the smallest
/// value giving that result: the values giving it form a run `lo ..= values[j]`
/// (proved at [`first_values`], asserted there in debug builds, and the graph's
/// children and parents tested against `Position::moves` on cutoff rulesets
/// with long runs), so an earlier one gives it when the one
/// just before is at least `lo`. One comparison instead of a search of the
/// earlier values' results (under cutoff the results repeat only for attacks
/// that kill, by every value from `F - y` up).
#[inline(always)]
fn first_repeat(values: &[u32], j: usize, lo: u32) -> bool {
    j > 0 && values[j - 1] >= lo
}

/// Bytes the tables of one hand count take, before building them (an upper bound).
fn table_bytes_estimate(count: u64, hands: usize, rules: &Ruleset) -> u128 {
    let f = rules.fingers as u128 - 1;
    let distinct = (hands as u128).min(f);
    let n = count as u128;
    // Offsets and entries of the attacks and their inverse, and under cutoff
    // beside each entry the value that starts its run.
    let beside = if rules.attacks_may_repeat() { 2 } else { 1 };
    let attacked = 2 * n * f * (1 + beside * distinct);
    let own_bound = (hands * hands) as u128 * f + 1;
    let own = 2 * n * (1 + own_bound.min(n));
    (attacked + own + n * (3 + distinct)) * 4 + n
}

/// The largest tables [`Graph::new`] will build (bytes).
pub const MAX_TABLE_BYTES: u128 = 4 << 30;

/// The move graph of one ruleset: children of any position by index.
#[derive(Clone, Debug)]
pub struct Graph {
    rules: Ruleset,
    index: PositionIndex,
    /// Indexed by hand count.
    tables: Vec<PlayerTables>,
    players: usize,
    period: usize,
    fingers_minus_one: usize,
    /// Whether attacks by different values can give the same result (cutoff kills).
    attacks_may_repeat: bool,
    /// Two players: for each seat class, its first index and its row length
    /// (the opponent's multisets), so `(r₀, r₁)` is `first + r₀ · len + r₁`.
    pair_rows: Vec<(u64, u64)>,
}

impl Graph {
    /// Builds the tables for a ruleset, refusing (with the estimate) tables larger
    /// than [`MAX_TABLE_BYTES`].
    pub fn new(rules: &Ruleset) -> Result<Graph, RulesError> {
        let index = PositionIndex::new(rules)?;
        let max_hands = *rules.hands.iter().max().expect("two players at least");
        let estimate = Self::tables_estimate_of(rules, &index);
        if estimate > MAX_TABLE_BYTES {
            return Err(RulesError::TooLarge(format!(
                "the move tables of {} would take about {:.1} GiB (limit {} GiB)",
                rules.describe(),
                estimate as f64 / (1u64 << 30) as f64,
                MAX_TABLE_BYTES >> 30
            )));
        }
        let mut tables = vec![PlayerTables::default(); max_hands + 1];
        for (h, slot) in tables.iter_mut().enumerate() {
            if rules.hands.contains(&h) {
                *slot = build_tables(rules, &index, h)?;
            }
        }
        let pair_rows = (0..index.period())
            .map(|seat| {
                let first = seat as u64 * (index.count() / index.period() as u64);
                (first, index.multiset(index.hands_of(seat, 1)).count())
            })
            .collect();
        Ok(Graph {
            pair_rows,
            rules: rules.clone(),
            players: rules.players(),
            period: index.period(),
            fingers_minus_one: rules.fingers as usize - 1,
            attacks_may_repeat: rules.attacks_may_repeat(),
            index,
            tables,
        })
    }

    /// Bytes the move tables of `rules` would take, before building them: an
    /// upper bound of [`Graph::table_bytes`] (a plan counts it before the
    /// graph is built).
    pub fn tables_estimate(rules: &Ruleset) -> Result<u64, RulesError> {
        let index = PositionIndex::new(rules)?;
        Ok(Self::tables_estimate_of(rules, &index).min(u64::MAX as u128) as u64)
    }

    fn tables_estimate_of(rules: &Ruleset, index: &PositionIndex) -> u128 {
        let max_hands = *rules.hands.iter().max().expect("two players at least");
        let mut seen = vec![false; max_hands + 1];
        let mut total = 0;
        for &h in &rules.hands {
            if !std::mem::replace(&mut seen[h], true) {
                total += table_bytes_estimate(index.multiset(h).count(), h, rules);
            }
        }
        total
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The dense index of positions.
    pub fn index(&self) -> &PositionIndex {
        &self.index
    }

    /// The number of positions (the index's count).
    pub fn count(&self) -> u64 {
        self.index.count()
    }

    /// Bytes taken by the move tables.
    pub fn table_bytes(&self) -> u64 {
        self.tables
            .iter()
            .map(|t| {
                t.live.bytes()
                    + t.attacked.bytes()
                    + t.own.bytes()
                    + t.attacked_from.bytes()
                    + t.own_from.bytes()
                    + 4 * (t.attacked_lo.len() + t.attacked_from_lo.len() + t.dead.len()) as u64
                    + t.alive.len() as u64
            })
            .sum()
    }

    /// The position of an index.
    pub fn position(&self, index: u64) -> Position {
        self.index.unrank(index)
    }

    /// The index of a position.
    pub fn index_of(&self, position: &Position) -> u64 {
        self.index.rank(position)
    }

    #[inline]
    fn tables_of(&self, seat: usize, k: usize) -> &PlayerTables {
        &self.tables[self.index.hands_of(seat, k)]
    }

    #[inline]
    fn over(&self, alive: &[bool]) -> bool {
        self.rules.is_over(alive)
    }

    /// A position's seat class, its players' multiset ranks (mover first) and
    /// whether each player has a live hand.
    #[inline]
    fn unpack(&self, index: u64) -> (usize, [u64; MAX_PLAYERS], [bool; MAX_PLAYERS]) {
        let p = self.players;
        let mut ranks = [0u64; MAX_PLAYERS];
        let seat = self.index.split(index, &mut ranks[..p]);
        let mut alive = [false; MAX_PLAYERS];
        for k in 0..p {
            alive[k] = self.tables_of(seat, k).alive[ranks[k] as usize];
        }
        (seat, ranks, alive)
    }

    /// Whether the game is over at this position (see [`Position::is_terminal`]).
    pub fn is_terminal(&self, index: u64) -> bool {
        let (_, _, alive) = self.unpack(index);
        self.over(&alive[..self.players])
    }

    /// The finished games among the positions `first .. first + len` (`len` at most
    /// 64, positions past the end left out), as the low bits of a word: what
    /// [`Graph::is_terminal`] says of each, with the index divided once and the
    /// multiset ranks then counted up, so a walk over the whole index costs a few
    /// table reads per position.
    pub fn terminal_mask(&self, first: u64, len: u32) -> u64 {
        debug_assert!(len <= 64);
        let count = self.count();
        if first >= count {
            return 0;
        }
        let p = self.players;
        let last = p - 1;
        let mut ranks = [0u64; MAX_PLAYERS];
        let mut seat = self.index.split(first, &mut ranks[..p]);
        let end = (count - first).min(len as u64) as u32;
        let mut mask = 0u64;
        let mut alive = [false; MAX_PLAYERS];
        for k in 0..last {
            alive[k] = self.tables_of(seat, k).alive[ranks[k] as usize];
        }
        let mut last_alive = &self.tables_of(seat, last).alive;
        for bit in 0..end {
            alive[last] = last_alive[ranks[last] as usize];
            if self.over(&alive[..p]) {
                mask |= 1 << bit;
            }
            // The next index: the last player's rank counts fastest, then the
            // others, then the seat class.
            ranks[last] += 1;
            if ranks[last] < last_alive.len() as u64 {
                continue;
            }
            ranks[last] = 0;
            let mut k = last;
            loop {
                if k == 0 {
                    seat += 1;
                    break;
                }
                k -= 1;
                ranks[k] += 1;
                if ranks[k] < self.tables_of(seat, k).alive.len() as u64 {
                    break;
                }
                ranks[k] = 0;
            }
            if seat < self.index.period() {
                for k in 0..last {
                    alive[k] = self.tables_of(seat, k).alive[ranks[k] as usize];
                }
                last_alive = &self.tables_of(seat, last).alive;
            }
        }
        mask
    }

    /// Calls `emit` with the index of every child of the position, each distinct
    /// child once (two cutoff taps that kill hands of the same value are one child).
    /// Nothing is emitted for a finished game. Children come in the order of
    /// [`Position::moves`], a repeated child where it first occurs.
    #[inline]
    pub fn for_each_child(&self, index: u64, mut emit: impl FnMut(u64)) {
        self.for_each_child_step(index, |c, _| emit(c));
    }

    /// [`Graph::for_each_child`] with each child's step: how many seats the turn
    /// moved on (see [`Position::moves_with_steps`]).
    #[inline]
    pub fn for_each_child_step(&self, index: u64, emit: impl FnMut(u64, usize)) {
        let mut ranks = [0u64; MAX_PLAYERS];
        let seat = self.index.split(index, &mut ranks[..self.players]);
        self.for_each_child_at(seat, &ranks[..self.players], emit);
    }

    /// [`Graph::for_each_child_step`] for the position of seat class `seat` and
    /// multiset ranks `ranks` (mover first), for callers that walk the index by
    /// ranks: no index is divided.
    #[inline]
    pub fn for_each_child_at(&self, seat: usize, ranks: &[u64], mut emit: impl FnMut(u64, usize)) {
        let p = self.players;
        if p == 2 {
            return self.for_each_child_of_pair(seat, ranks[0], ranks[1], |c| emit(c, 1));
        }
        let mut alive = [false; MAX_PLAYERS];
        for k in 0..p {
            alive[k] = self.tables_of(seat, k).alive[ranks[k] as usize];
        }
        let ranks = {
            let mut r = [0u64; MAX_PLAYERS];
            r[..p].copy_from_slice(&ranks[..p]);
            r
        };
        if self.over(&alive[..p]) || !alive[0] {
            return;
        }
        let mover = self.tables_of(seat, 0);
        let r0 = ranks[0] as usize;
        let mut child = |k: usize, rank: u32| {
            let mut r = ranks;
            let mut a = alive;
            r[k] = rank as u64;
            a[k] = self.tables_of(seat, k).alive[rank as usize];
            let (c, step) = self.advance(seat, &r[..p], &a[..p]);
            emit(c, step);
        };
        for t in 1..p {
            if !alive[t] || self.rules.same_side(0, t) {
                continue;
            }
            let target = self.tables_of(seat, t);
            let base = ranks[t] as usize * self.fingers_minus_one;
            target.for_each_attacked(mover.live.get(r0), base, |r| child(t, r));
        }
        for &r in mover.own.get(r0) {
            child(0, r);
        }
    }

    /// [`Graph::for_each_child_at`] for two players, where every move passes
    /// the turn to the opponent (step 1) and the child's index is one
    /// multiply-add: `(r₀, r₁)` becomes `(attacked(r₁), r₀)` or `(r₁, own(r₀))`
    /// in the next seat class.
    #[inline]
    fn for_each_child_of_pair(&self, seat: usize, r0: u64, r1: u64, mut emit: impl FnMut(u64)) {
        let (mover, target) = (self.tables_of(seat, 0), self.tables_of(seat, 1));
        if !mover.alive[r0 as usize] || !target.alive[r1 as usize] {
            return; // the game is over (two players: over when either is out)
        }
        let next = (seat + 1) % self.period;
        let first = next as u64 * (self.count() / self.period as u64);
        // The child's mover is the opponent; its opponent has the mover's hands.
        let row_len = self.index.multiset(self.index.hands_of(next, 1)).count();
        let base = r1 as usize * self.fingers_minus_one;
        target.for_each_attacked(mover.live.get(r0 as usize), base, |r| {
            emit(first + r as u64 * row_len + r0)
        });
        let row = first + r1 * row_len;
        for &r in mover.own.get(r0 as usize) {
            emit(row + r as u64);
        }
    }

    /// Whether `found` holds for some child of the two-player position of seat
    /// class `seat` and ranks `(r0, r1)` (mover first): the children are
    /// generated as by [`Graph::for_each_child_at`], own moves first (their
    /// children lie in one row of the table), and no child is read after the
    /// first for which `found` holds. What a check that needs one child of a
    /// kind (a drawn child of a draw) asks.
    #[inline]
    pub fn any_child_of_pair(
        &self,
        seat: usize,
        r0: u64,
        r1: u64,
        mut found: impl FnMut(u64) -> bool,
    ) -> bool {
        debug_assert_eq!(self.players, 2);
        let (mover, target) = (self.tables_of(seat, 0), self.tables_of(seat, 1));
        if !mover.alive[r0 as usize] || !target.alive[r1 as usize] {
            return false;
        }
        let next = (seat + 1) % self.period;
        let first = next as u64 * (self.count() / self.period as u64);
        let row_len = self.index.multiset(self.index.hands_of(next, 1)).count();
        let row = first + r1 * row_len;
        if mover
            .own
            .get(r0 as usize)
            .iter()
            .any(|&r| found(row + r as u64))
        {
            return true;
        }
        let base = r1 as usize * self.fingers_minus_one;
        let mut any = false;
        target.for_each_attacked(mover.live.get(r0 as usize), base, |r| {
            any = any || found(first + r as u64 * row_len + r0);
        });
        any
    }

    /// Whether the position has a child ([`Graph::for_each_child`] emits at
    /// least one), found without generating the children: the first attack or
    /// own move in the move tables answers.
    #[inline]
    pub fn has_child(&self, index: u64) -> bool {
        let (seat, ranks, _) = self.unpack(index);
        self.classify(seat, &ranks[..self.players]).1
    }

    /// Whether the position of seat class `seat` and multiset ranks `ranks`
    /// (mover first) is finished, and whether it has a child (see
    /// [`Graph::has_child`]); for callers that walk the index by ranks, with
    /// no division.
    #[inline]
    pub fn classify(&self, seat: usize, ranks: &[u64]) -> (bool, bool) {
        let p = self.players;
        let mut alive = [false; MAX_PLAYERS];
        for k in 0..p {
            alive[k] = self.tables_of(seat, k).alive[ranks[k] as usize];
        }
        if self.over(&alive[..p]) {
            return (true, false);
        }
        if !alive[0] {
            return (false, false);
        }
        let mover = self.tables_of(seat, 0);
        let r0 = ranks[0] as usize;
        if !mover.own.get(r0).is_empty() {
            return (false, true);
        }
        let attack = (1..p).any(|t| {
            if !alive[t] || self.rules.same_side(0, t) {
                return false;
            }
            let target = self.tables_of(seat, t);
            let base = ranks[t] as usize * self.fingers_minus_one;
            mover
                .live
                .get(r0)
                .iter()
                .any(|&v| !target.attacked.get(base + v as usize - 1).is_empty())
        });
        (false, attack)
    }

    /// The number of distinct children ([`Graph::for_each_child`]).
    #[inline]
    pub fn child_count(&self, index: u64) -> u32 {
        let mut c = 0u32;
        self.for_each_child(index, |_| c += 1);
        c
    }

    /// [`Graph::child_count`] of the two-player position of seat class `seat`
    /// and ranks `(r0, r1)` (mover first): the lengths of its attack lists, less
    /// the repeats, and of its own moves; no child is formed.
    #[inline]
    pub fn child_count_of_pair(&self, seat: usize, r0: u64, r1: u64) -> u32 {
        let (mover, target) = (self.tables_of(seat, 0), self.tables_of(seat, 1));
        if !mover.alive[r0 as usize] || !target.alive[r1 as usize] {
            return 0;
        }
        let base = r1 as usize * self.fingers_minus_one;
        let values = mover.live.get(r0 as usize);
        let mut count = mover.own.get(r0 as usize).len();
        for (j, &v) in values.iter().enumerate() {
            let key = base + v as usize - 1;
            let (start, end) = (
                target.attacked.offsets[key] as usize,
                target.attacked.offsets[key + 1] as usize,
            );
            if self.attacks_may_repeat {
                count += target.attacked_lo[start..end]
                    .iter()
                    .filter(|&&lo| !first_repeat(values, j, lo))
                    .count();
            } else {
                count += end - start;
            }
        }
        count as u32
    }

    /// Calls `f(index, finished)` for every position of the two-player tile
    /// that has no move: finished (a player has no live hand) or the mover
    /// stuck. Walks the tile's rows, not its positions: a row whose mover is
    /// alive and has an own move (a split, a self-attack, a pass) can end
    /// only where the opponent is dead, which a list of the dead ranks gives.
    pub fn for_each_ended_in_tile(&self, tile: &Tile, mut f: impl FnMut(u64, bool)) {
        debug_assert_eq!(self.players, 2);
        let (mover, target) = (self.tables_of(tile.seat, 0), self.tables_of(tile.seat, 1));
        let cols = tile.cols.clone();
        let dead_from = target.dead.partition_point(|&r| (r as u64) < cols.start);
        let dead_cols = target.dead[dead_from..]
            .iter()
            .map(|&r| r as u64)
            .take_while(|r| cols.contains(r));
        for r0 in tile.rows.clone() {
            let row = tile.row_start(r0);
            if !mover.alive[r0 as usize] {
                for r1 in cols.clone() {
                    f(row + r1, true);
                }
            } else if !mover.own.get(r0 as usize).is_empty() {
                for r1 in dead_cols.clone() {
                    f(row + r1, true);
                }
            } else {
                let values = mover.live.get(r0 as usize);
                for r1 in cols.clone() {
                    if !target.alive[r1 as usize] {
                        f(row + r1, true);
                        continue;
                    }
                    let base = r1 as usize * self.fingers_minus_one;
                    let attack = values
                        .iter()
                        .any(|&v| !target.attacked.get(base + v as usize - 1).is_empty());
                    if !attack {
                        f(row + r1, false);
                    }
                }
            }
        }
    }

    /// The index after the mover changed the players' ranks: the turn passes to the
    /// next live player (or the next player, when the game is over).
    #[inline]
    fn advance(&self, seat: usize, ranks: &[u64], alive: &[bool]) -> (u64, usize) {
        let p = ranks.len();
        let step = if self.over(alive) {
            1
        } else {
            (1..p).find(|&k| alive[k]).expect("a live opponent")
        };
        let mut rotated = [0u64; MAX_PLAYERS];
        for k in 0..p {
            rotated[k] = ranks[(k + step) % p];
        }
        (
            self.index.join((seat + step) % self.period, &rotated[..p]),
            step,
        )
    }

    /// The position with the turn passed on to the next player with a live hand, and
    /// the step (0 when the mover has a live hand or the game is over); see
    /// [`Position::with_live_mover`].
    pub fn with_live_mover(&self, index: u64) -> (u64, usize) {
        let p = self.players;
        let (seat, ranks, alive) = self.unpack(index);
        if alive[0] || self.over(&alive[..p]) {
            return (index, 0);
        }
        let step = (1..p).find(|&k| alive[k]).expect("a live player");
        let mut rotated = [0u64; MAX_PLAYERS];
        for k in 0..p {
            rotated[k] = ranks[(k + step) % p];
        }
        (
            self.index.join((seat + step) % self.period, &rotated[..p]),
            step,
        )
    }

    /// Whether each player has a live hand, mover first (the first `players` entries).
    #[inline]
    pub fn alive(&self, index: u64) -> [bool; MAX_PLAYERS] {
        self.unpack(index).2
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Calls `emit(parent, step)` for every parent of the position, any number of
    /// players, team play included: every position one of whose moves leads here,
    /// with that move's step (the parent's mover sits at seat `players - step`
    /// here). A parent reached by two moves with different steps (possible only when
    /// the players' hands repeat around the table) is emitted once per step; two
    /// cutoff taps by different values that give the same parent, once.
    ///
    /// How: the turn passed over `step - 1` players who are out here, to a live
    /// mover (or, when the game is over, by one seat). Undoing the rotation gives the
    /// position right after the move, whose mover is alive; the move changed either
    /// the mover's own hands (then the game was not over before and is not now) or
    /// one opposing player's hands (an attack by one of the mover's live values),
    /// and the position before must not be over.
    pub fn for_each_parent_step(&self, index: u64, mut emit: impl FnMut(u64, usize)) {
        let p = self.players;
        let (seat, ranks, alive) = self.unpack(index);
        let over_here = self.over(&alive[..p]);
        if !over_here && !alive[0] {
            return; // the mover is out while the game goes on: no move leads here
        }
        for step in 1..p {
            // The parent's mover sits at seat p - step here and has a live hand;
            // the seats after it were skipped, so are out.
            let mover_here = p - step;
            if !alive[mover_here] {
                continue;
            }
            if over_here {
                if step != 1 {
                    break;
                }
            } else if (mover_here + 1..p).any(|k| alive[k]) {
                continue;
            }
            // The position right after the move, parent's mover first.
            let mut after = [0u64; MAX_PLAYERS];
            let mut after_alive = [false; MAX_PLAYERS];
            for k in 0..p {
                after[k] = ranks[(k + mover_here) % p];
                after_alive[k] = alive[(k + mover_here) % p];
            }
            let parent_seat = (seat + self.period - step % self.period) % self.period;
            let mover = self.tables_of(parent_seat, 0);
            // Own moves (self-attacks, splits, pass) never end the game.
            if !over_here {
                for &r in mover.own_from.get(after[0] as usize) {
                    let mut before = after;
                    before[0] = r as u64;
                    emit(self.index.join(parent_seat, &before[..p]), step);
                }
            }
            // Attacks on an opposing player t by one of the mover's live values.
            let values = mover.live.get(after[0] as usize);
            for t in 1..p {
                if self.rules.same_side(0, t) {
                    continue;
                }
                let target = self.tables_of(parent_seat, t);
                let base = after[t] as usize * self.fingers_minus_one;
                for (j, &v) in values.iter().enumerate() {
                    let key = base + v as usize - 1;
                    let start = target.attacked_from.offsets[key] as usize;
                    for (k, &r) in target.attacked_from.get(key).iter().enumerate() {
                        if self.attacks_may_repeat
                            && first_repeat(values, j, target.attacked_from_lo[start + k])
                        {
                            continue;
                        }
                        // The target was alive before (attacks hit live hands only).
                        if !target.alive[r as usize] {
                            continue;
                        }
                        let mut before_alive = after_alive;
                        before_alive[t] = true;
                        if self.over(&before_alive[..p]) {
                            continue;
                        }
                        let mut before = after;
                        before[t] = r as u64;
                        emit(self.index.join(parent_seat, &before[..p]), step);
                    }
                }
            }
        }
    }

    /// Calls `emit` with the index of every parent of the position: every position
    /// one of whose children it is, each once. **Two players only** (the solver's
    /// case); with more players nothing is emitted.
    #[inline]
    pub fn for_each_parent(&self, index: u64, mut emit: impl FnMut(u64)) {
        if self.players != 2 {
            return;
        }
        let mut ranks = [0u64; 2];
        let seat = self.index.split(index, &mut ranks);
        self.for_each_parent_of_pair(seat, ranks[0], ranks[1], |p, _, _| emit(p));
    }

    /// [`Graph::for_each_parent`] for the two-player position of seat class
    /// `seat` and ranks `(ra, rb)` (mover first), for callers that walk the
    /// index by ranks: no index is divided. Emits each parent's index with its
    /// ranks (its mover first; its seat class is the next one, `(seat + 1) %`
    /// the period), so that its children can be counted without dividing
    /// either ([`Graph::child_count_of_pair`]).
    #[inline]
    pub fn for_each_parent_of_pair(
        &self,
        seat: usize,
        ra: u64,
        rb: u64,
        mut emit: impl FnMut(u64, u64, u64),
    ) {
        debug_assert_eq!(self.players, 2);
        let (a, b) = (self.tables_of(seat, 0), self.tables_of(seat, 1));
        // The player who just moved (b) has a live hand after any move, and the
        // parent (b to move) was not finished: both players alive there.
        if !b.alive[rb as usize] {
            return;
        }
        let parent_seat = (seat + 1) % self.period;
        let base = ra as usize * self.fingers_minus_one;
        // b attacked a: a was one of the ranks that become `ra` under b's values.
        // Under cutoff, taps by two values can give the same parent; keep the first.
        let values = b.live.get(rb as usize);
        let (first, row_len) = self.pair_rows[parent_seat];
        let row = first + rb * row_len;
        for (j, &v) in values.iter().enumerate() {
            let key = base + v as usize - 1;
            let start = a.attacked_from.offsets[key] as usize;
            for (k, &r) in a.attacked_from.get(key).iter().enumerate() {
                if self.attacks_may_repeat && first_repeat(values, j, a.attacked_from_lo[start + k])
                {
                    continue;
                }
                emit(row + r as u64, rb, r as u64);
            }
        }
        // b moved alone (self-attack, split, pass): a is unchanged and was alive.
        if a.alive[ra as usize] {
            for &r in b.own_from.get(rb as usize) {
                emit(first + r as u64 * row_len + ra, r as u64, ra);
            }
        }
    }

    /// The parents of a position (two players only), in emission order.
    pub fn parents(&self, index: u64) -> Vec<u64> {
        let mut out = Vec::new();
        self.for_each_parent(index, |c| out.push(c));
        out
    }

    /// Whether the mover has a live hand.
    pub fn mover_alive(&self, index: u64) -> bool {
        self.unpack(index).2[0]
    }

    /// An upper bound on the number of children of any position.
    pub fn max_children_bound(&self) -> usize {
        let mut own = 0;
        let mut live = 0;
        let mut attacked = 0;
        for (h, t) in self.tables.iter().enumerate() {
            if !self.rules.hands.contains(&h) {
                continue;
            }
            own = own.max(
                (0..t.own.len())
                    .map(|i| t.own.get(i).len())
                    .max()
                    .unwrap_or(0),
            );
            live = live.max(
                (0..t.live.len())
                    .map(|i| t.live.get(i).len())
                    .max()
                    .unwrap_or(0),
            );
            attacked = attacked.max(
                (0..t.attacked.len())
                    .map(|i| t.attacked.get(i).len())
                    .max()
                    .unwrap_or(0),
            );
        }
        own + (self.players - 1) * live * attacked
    }

    /// The children of a position, in the order [`Graph::for_each_child`] emits them.
    pub fn children(&self, index: u64) -> Vec<u64> {
        let mut out = Vec::new();
        self.for_each_child(index, |c| out.push(c));
        out
    }
}

fn build_tables(
    rules: &Ruleset,
    index: &PositionIndex,
    h: usize,
) -> Result<PlayerTables, RulesError> {
    let m = index.multiset(h);
    let n = m.count();
    if n > u32::MAX as u64 {
        return Err(RulesError::TooLarge(format!(
            "{n} multisets of {h} hands do not fit the move tables"
        )));
    }
    let f = rules.fingers;
    let rank = |hands: &[u32]| m.rank(hands) as u32;
    struct Row {
        alive: bool,
        live: Vec<u32>,
        attacked: Vec<Vec<u32>>,
        lo: Vec<u32>,
        own: Vec<u32>,
    }
    let rows: Vec<Row> = (0..n)
        .into_par_iter()
        .map(|r| {
            let mut hands = vec![0; h];
            m.unrank(r, &mut hands);
            let attacked: Vec<Vec<u32>> = (1..f)
                .map(|v| {
                    attack_results(rules, &hands, v)
                        .into_iter()
                        .map(|(_, after)| rank(&after))
                        .collect()
                })
                .collect();
            let mut own: Vec<u32> = self_attack_results(rules, &hands)
                .into_iter()
                .map(|(_, _, after)| rank(&after))
                .chain(
                    split_results(rules, &hands)
                        .into_iter()
                        .map(|(_, after)| rank(&after)),
                )
                .collect();
            if can_pass(rules, &hands) {
                own.push(r as u32);
            }
            // Cutoff self-attacks that kill a hand of the same value coincide.
            let mut seen = Vec::with_capacity(own.len());
            own.retain(|&c| {
                let fresh = !seen.contains(&c);
                seen.push(c);
                fresh
            });
            let lo = if rules.attacks_may_repeat() {
                first_values(&attacked)
            } else {
                Vec::new()
            };
            Row {
                alive: is_alive(&hands),
                live: live_values(&hands),
                attacked,
                lo,
                own,
            }
        })
        .collect();
    let live = Lists::from_lists(rows.iter().map(|r| r.live.clone()))?;
    let attacked = Lists::from_lists(rows.iter().flat_map(|r| r.attacked.iter().cloned()))?;
    let attacked_lo: Vec<u32> = rows.iter().flat_map(|r| r.lo.iter().copied()).collect();
    let alive: Vec<bool> = rows.iter().map(|r| r.alive).collect();
    let dead = (0..n as u32).filter(|&r| !alive[r as usize]).collect();
    let own = Lists::from_lists(rows.into_iter().map(|r| r.own))?;
    let values = f as usize - 1;
    let (attacked_from, attacked_from_lo) = attacked.invert_carrying(
        n as usize * values,
        |i, target| target as usize * values + i % values,
        |i| (i / values) as u32,
        &attacked_lo,
    );
    let own_from = own.invert(n as usize, |_, target| target as usize, |i| i as u32);
    Ok(PlayerTables {
        alive,
        live,
        attacked,
        own,
        attacked_from,
        own_from,
        attacked_lo,
        attacked_from_lo,
        dead,
    })
}

/// For the attacks on one multiset (`attacked[v - 1]`: the ranks it becomes
/// when attacked by value `v`), beside each entry the smallest value giving the
/// same rank ([`first_repeat`]). The values giving one rank form a run: under
/// cutoff an attack by `v` on a live `y` gives `y + v` or, from `F - y` up, kills
/// `y`; two attacks on different values `y ≠ y'` give different multisets
/// (`{y + v, y'}` or `{0, y'}` against `{y' + w, y}` or `{0, y}`), so only the
/// kills of one `y` repeat, by the run of values `F - y ..= F - 1`.
fn first_values(attacked: &[Vec<u32>]) -> Vec<u32> {
    // (rank, first value, values seen so far)
    let mut seen: Vec<(u32, u32, u32)> = Vec::new();
    let mut lo = Vec::new();
    for (v, list) in (1u32..).zip(attacked) {
        for &rank in list {
            match seen.iter_mut().find(|(r, _, _)| *r == rank) {
                Some((_, first, count)) => {
                    *count += 1;
                    debug_assert_eq!(
                        *first + *count - 1,
                        v,
                        "the values giving a rank form a run"
                    );
                    lo.push(*first);
                }
                None => {
                    seen.push((rank, v, 1));
                    lo.push(v);
                }
            }
        }
    }
    lo
}
