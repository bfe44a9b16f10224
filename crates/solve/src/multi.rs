//! Solving games of three or more players: coalition values for every seat, and
//! team play.
//!
//! # The two solution concepts
//!
//! A position lists its players mover first; **seat** `i` is the player `i` places
//! after the mover (seat 0 is the mover). See `docs/MULTIPLAYER.md` for the full
//! statement.
//!
//! * **Coalition values** ([`Concept::Coalition`], three or more players, no teams).
//!   For each seat `i`, seat `i` plays alone against a coalition of all the others:
//!   `win` when `i` can force being the last player with a live hand, `lose` when the
//!   others can force `i` out (or, misère, when they can force the game to end with
//!   another player's hands all dead), `draw` otherwise. A seat with no live hand has
//!   lost (remoteness 0); the last seat with a live hand has won (remoteness 0);
//!   misère, the game ends as the ruleset says (when some player has no live hand,
//!   and that player has won). Remoteness is seen from `i`: when `i` moves, a win is
//!   `1 +` the smallest remoteness of its winning moves and a loss `1 +` the largest;
//!   when a coalition member moves, a loss for `i` is `1 +` the smallest remoteness
//!   of the moves that make `i` lose and a win `1 +` the largest.
//! * **Team play** ([`Concept::Teams`], [`Ruleset::teams`] with four or more
//!   players): one value per position, for the mover's team (the seats of even
//!   index), with remoteness as in the two-player game; a move after which a
//!   teammate moves (an even step) keeps the side to move.
//!
//! Two players (with or without `teams`) are the ordinary game
//! ([`Concept::TwoPlayer`], solved by [`crate::retrograde`]).
//!
//! # The game over states
//!
//! Both concepts are two-sided games over **states**: a state is a position and a
//! *slot*, the seat whose value it holds (coalition: `width = players` slots per
//! position, each seat's own game against the rest; teams: one slot, the mover's
//! team). A state's value is for its *protagonist* (the seat, or the mover's team)
//! against the *opposition*; the side that moves is the protagonist when the slot is
//! the mover's (coalition slot 0; teams always) and the opposition otherwise. A move
//! from a position to a child with step `s` (the turn moved `s` seats on) takes slot
//! `j` to slot `j - s` (mod players) of the child, the same player; in team play it
//! takes the only slot to the child's, *flipped* (the other team moves) when `s` is
//! odd.
//!
//! # The algorithm
//!
//! Retrograde analysis level by level, one byte per state, no counters:
//!
//! * Level 0: every state the rules decide without a move (finished games, dead
//!   seats).
//! * For each level `k`, **phase A** visits the states resolved at level `k`, once
//!   per position, and every parent state (from [`Graph::for_each_parent_step`]): a
//!   parent for whose mover the child is good (a win for the side to move) becomes
//!   that side's win at `k + 1` (the first good child met, so the smallest
//!   remoteness); any other parent position is marked a *candidate* in a bit set.
//!   **Phase B** looks at every unresolved state of every candidate position and
//!   at its children: if every child is
//!   resolved at a level `≤ k` and bad for the side to move, the parent is that
//!   side's loss at `k + 1` (the largest remoteness, since a child of level `k` was
//!   the trigger).
//! * States never resolved are draws.
//!
//! Without counters, duplicate parents or children change nothing (every step is
//! idempotent), and the working memory is the result itself (one byte per state
//! while every remoteness is ≤ 126, two otherwise, chosen by restarting) plus one
//! bit per position for the candidates.
//!
//! A position whose mover is out while the game goes on never arises in play (the
//! turn skips players who are out); such a position gets the values of the position
//! with the turn passed on ([`Graph::with_live_mover`]) so that every index has a
//! meaning.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use chopsticks_rules::{Ruleset, MAX_PLAYERS};
use chopsticks_space::Graph;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::outcome::{Outcome, Value};
use crate::retrograde::SolveProgress;
use crate::table::{from_narrow, from_wide, narrow, wide, Table, NARROW_MAX};
use crate::SolveError;

/// Which solution concept a table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Concept {
    /// Two players: the mover's value.
    TwoPlayer,
    /// Three or more players, free for all: every seat's coalition value.
    Coalition,
    /// Team play with four or more players: the mover's team's value.
    Teams,
}

impl Concept {
    /// The concept the solver uses for a ruleset.
    pub fn of(rules: &Ruleset) -> Concept {
        if rules.players() == 2 {
            Concept::TwoPlayer
        } else if rules.teams {
            Concept::Teams
        } else {
            Concept::Coalition
        }
    }

    /// `two-player`, `coalition` or `teams` (as in saved files).
    pub fn name(self) -> &'static str {
        match self {
            Concept::TwoPlayer => "two-player",
            Concept::Coalition => "coalition",
            Concept::Teams => "teams",
        }
    }

    /// Outcomes stored per position: one per seat for coalition values, else one.
    pub fn width(self, players: usize) -> usize {
        match self {
            Concept::Coalition => players,
            _ => 1,
        }
    }
}

/// Bytes a solve of `count` positions needs besides the move tables (one byte per
/// state and one bit per position, twice that if remoteness goes past 126).
pub fn multi_solve_bytes(rules: &Ruleset, count: u64) -> u64 {
    let states = count.saturating_mul(Concept::of(rules).width(rules.players()) as u64);
    states.saturating_add(count / 8)
}

/// The states of one ruleset's game, as described in the module documentation.
pub(crate) struct States<'g> {
    graph: &'g Graph,
    concept: Concept,
    players: usize,
    width: usize,
    misere: bool,
}

impl<'g> States<'g> {
    pub(crate) fn new(graph: &'g Graph) -> States<'g> {
        let rules = graph.rules();
        let concept = Concept::of(rules);
        States {
            graph,
            concept,
            players: rules.players(),
            width: concept.width(rules.players()),
            misere: rules.misere,
        }
    }

    /// Whether the protagonist of this slot moves (else the opposition does).
    #[inline]
    pub(crate) fn protagonist_moves(&self, slot: usize) -> bool {
        slot == 0
    }

    /// The slot of the child after a move of this step, and whether its value is
    /// for the other side.
    #[inline]
    pub(crate) fn child_slot(&self, slot: usize, step: usize) -> (usize, bool) {
        match self.concept {
            Concept::Coalition => ((slot + self.players - step) % self.players, false),
            _ => (0, step % 2 == 1),
        }
    }

    /// The slot of the parent whose move of this step leads to this slot.
    #[inline]
    fn parent_slot(&self, slot: usize, step: usize) -> (usize, bool) {
        match self.concept {
            Concept::Coalition => ((slot + step) % self.players, false),
            _ => (0, step % 2 == 1),
        }
    }

    /// The value the rules give a state without a move (true: the protagonist has
    /// won), `None` if it must be played out (or, for a position whose mover is out
    /// while the game goes on, copied).
    #[inline]
    pub(crate) fn settled(&self, alive: &[bool], over: bool, slot: usize) -> Option<bool> {
        match self.concept {
            Concept::Coalition => {
                if over {
                    Some(alive[slot] != self.misere)
                } else if !alive[slot] {
                    Some(false)
                } else {
                    None
                }
            }
            _ => {
                if over {
                    let team_alive = alive.iter().step_by(2).any(|&a| a);
                    Some(team_alive != self.misere)
                } else {
                    None
                }
            }
        }
    }
}

/// Cell encodings: one byte (remoteness ≤ 126) or two.
trait Cells: Sync + Sized {
    const MAX_LEVEL: u32;
    fn new(states: u64) -> Self;
    /// `Some((protagonist wins, remoteness))` for a resolved state.
    fn load(&self, i: u64) -> Option<(bool, u32)>;
    /// Resolves an unresolved state; false if it already was.
    fn resolve(&self, i: u64, win: bool, level: u32) -> bool;
    fn into_table(self, states: u64) -> Table;
    /// Asks for the cache line of state `i` ([`crate::update::prefetch`]).
    fn prefetch(&self, i: u64);
}

/// `Some((protagonist wins, remoteness))`, or `None` for a draw (unresolved).
#[inline]
fn resolved(o: Outcome) -> Option<(bool, u32)> {
    o.remoteness.map(|r| (o.value == Value::Win, r))
}

/// A vector of `len` values made by `make`, filled in parallel.
fn filled<T: Send>(len: usize, make: impl Fn() -> T + Sync + Send) -> Vec<T> {
    (0..len)
        .into_par_iter()
        .with_min_len(4096)
        .map(|_| make())
        .collect()
}

/// One byte per state, two packed in each 16-bit word (the layout of
/// [`Table::Narrow`], so the cells become the table as they are). Unresolved is the
/// code of a draw, `0xFF`.
struct NarrowCells(Vec<AtomicU16>);

impl Cells for NarrowCells {
    const MAX_LEVEL: u32 = NARROW_MAX;

    fn new(states: u64) -> Self {
        NarrowCells(filled(states.div_ceil(2) as usize, || {
            AtomicU16::new(0xFFFF)
        }))
    }

    #[inline]
    fn load(&self, i: u64) -> Option<(bool, u32)> {
        resolved(from_narrow(
            (self.0[(i / 2) as usize].load(Relaxed) >> (8 * (i % 2))) as u8,
        ))
    }

    #[inline]
    fn resolve(&self, i: u64, win: bool, level: u32) -> bool {
        let code = narrow(if win {
            Outcome::win(level)
        } else {
            Outcome::lose(level)
        }) as u16;
        let word = &self.0[(i / 2) as usize];
        let shift = 8 * (i % 2);
        let mut cur = word.load(Relaxed);
        loop {
            if (cur >> shift) & 0xFF != 0xFF {
                return false;
            }
            let new = (cur & !(0xFF << shift)) | code << shift;
            match word.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(now) => cur = now,
            }
        }
    }

    #[inline(always)]
    fn prefetch(&self, i: u64) {
        crate::update::prefetch(&self.0[(i / 2) as usize]);
    }

    fn into_table(self, states: u64) -> Table {
        let mut packed: Vec<u16> = self.0.into_iter().map(AtomicU16::into_inner).collect();
        if states % 2 == 1 {
            // The unused high byte of the last word is zero in a built table.
            if let Some(last) = packed.last_mut() {
                *last &= 0x00FF;
            }
        }
        Table::Narrow {
            len: states,
            packed,
        }
    }
}

/// Two bytes per state, the layout of [`Table::Wide`]; unresolved is a draw, `3`.
struct WideCells(Vec<AtomicU16>);

impl Cells for WideCells {
    const MAX_LEVEL: u32 = crate::retrograde::MAX_LEVEL;

    fn new(states: u64) -> Self {
        WideCells(filled(states as usize, || AtomicU16::new(3)))
    }

    #[inline]
    fn load(&self, i: u64) -> Option<(bool, u32)> {
        resolved(from_wide(self.0[i as usize].load(Relaxed)))
    }

    #[inline]
    fn resolve(&self, i: u64, win: bool, level: u32) -> bool {
        let code = wide(if win {
            Outcome::win(level)
        } else {
            Outcome::lose(level)
        });
        self.0[i as usize]
            .compare_exchange(3, code, Relaxed, Relaxed)
            .is_ok()
    }

    #[inline(always)]
    fn prefetch(&self, i: u64) {
        crate::update::prefetch(&self.0[i as usize]);
    }

    fn into_table(self, _states: u64) -> Table {
        Table::Wide(self.0.into_iter().map(AtomicU16::into_inner).collect())
    }
}

/// A bit per position, set by many threads, taken word by word.
struct Candidates(Vec<AtomicU64>);

impl Candidates {
    fn new(positions: u64) -> Candidates {
        Candidates(filled(positions.div_ceil(64) as usize, || {
            AtomicU64::new(0)
        }))
    }

    #[inline]
    fn insert(&self, i: u64) {
        let word = &self.0[(i >> 6) as usize];
        let bit = 1u64 << (i & 63);
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }
}

/// Solves every position of a ruleset with three or more players (coalition
/// values, or team play). The table holds `width` outcomes per position, position
/// `i`'s slot `j` at `i · width + j`.
pub fn solve_multi(
    graph: &Graph,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<Table, SolveError> {
    let states = States::new(graph);
    if states.concept == Concept::TwoPlayer {
        return Err(SolveError::Players(2));
    }
    match run::<NarrowCells>(&states, progress)? {
        Some(table) => Ok(table),
        None => Ok(run::<WideCells>(&states, progress)?.expect("wide cells hold any level")),
    }
}

/// One run with one cell encoding; `None` when a remoteness does not fit it.
fn run<C: Cells>(
    s: &States<'_>,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<Option<Table>, SolveError> {
    let graph = s.graph;
    let n = graph.count();
    let width = s.width;
    let p = s.players;
    let total = n * width as u64;
    let cells = C::new(total);
    let resolved = AtomicU64::new(0);
    // Level 0.
    (0..n as usize)
        .into_par_iter()
        .with_min_len(1024)
        .for_each(|i| {
            let i = i as u64;
            let alive = graph.alive(i);
            let over = graph.rules().is_over(&alive[..p]);
            for slot in 0..width {
                if let Some(win) = s.settled(&alive[..p], over, slot) {
                    cells.resolve(i * width as u64 + slot as u64, win, 0);
                    resolved.fetch_add(1, Relaxed);
                }
            }
        });
    progress(SolveProgress {
        level: 0,
        resolved: resolved.load(Relaxed),
        total,
        part: None,
    });
    crate::stop::check()?;
    let candidates = Candidates::new(n);
    let mut level = 0u32;
    loop {
        let next = level + 1;
        if next > C::MAX_LEVEL {
            if C::MAX_LEVEL >= crate::retrograde::MAX_LEVEL {
                return Err(SolveError::Remoteness(next));
            }
            return Ok(None);
        }
        // Phase A: the states resolved at `level`, one position at a time.
        // Each thread counts what it resolves by itself (no cache line
        // written by every thread), summed after the phase.
        let (found, newly) = (0..n as usize)
            .into_par_iter()
            .with_min_len(1024)
            .map_init(Vec::new, |moves: &mut Vec<(u64, usize)>, i| {
                let i = i as u64;
                let mut here = [(0usize, false); MAX_PLAYERS];
                let mut count = 0;
                for slot in 0..width {
                    if let Some((win, r)) = cells.load(i * width as u64 + slot as u64) {
                        if r == level {
                            here[count] = (slot, win);
                            count += 1;
                        }
                    }
                }
                if count == 0 {
                    return (0, 0);
                }
                // The parents are gathered first, their cells asked for
                // meanwhile, so that their cache misses overlap.
                moves.clear();
                graph.for_each_parent_step(i, |parent, step| {
                    cells.prefetch(parent * width as u64);
                    moves.push((parent, step));
                });
                let mut newly = 0u64;
                for &(parent, step) in moves.iter() {
                    for &(slot, win) in &here[..count] {
                        let (pslot, flip) = s.parent_slot(slot, step);
                        let q = parent * width as u64 + pslot as u64;
                        if cells.load(q).is_some() {
                            continue;
                        }
                        // The value for the parent's protagonist, and whether that
                        // is good for the side to move there.
                        let win_there = win != flip;
                        if win_there == s.protagonist_moves(pslot) {
                            if cells.resolve(q, win_there, next) {
                                newly += 1;
                            }
                        } else {
                            candidates.insert(parent);
                        }
                    }
                }
                (count as u64, newly)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        resolved.fetch_add(newly, Relaxed);
        if found == 0 {
            break;
        }
        // Phase B: candidates whose every child is now known to be bad for the
        // side to move, at a level ≤ `level`, lose at `next`.
        let lost: u64 = candidates
            .0
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .map_init(Vec::new, |moves: &mut Vec<(u64, usize)>, (w, word)| {
                let mut newly = 0u64;
                let mut bits = word.swap(0, Relaxed);
                while bits != 0 {
                    let i = w as u64 * 64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    // Every unresolved slot of position `i` is tested: one that no
                    // child resolved at `level` cannot have every child bad at a
                    // level ≤ `level` without having been resolved before.
                    let mut slots = [false; MAX_PLAYERS];
                    let mut any = false;
                    for (slot, candidate) in slots.iter_mut().enumerate().take(width) {
                        if cells.load(i * width as u64 + slot as u64).is_none() {
                            *candidate = true;
                            any = true;
                        }
                    }
                    if !any {
                        continue;
                    }
                    let mut all_bad = slots;
                    // The children gathered first, their cells asked for.
                    moves.clear();
                    graph.for_each_child_step(i, |child, step| {
                        cells.prefetch(child * width as u64);
                        moves.push((child, step));
                    });
                    for &(child, step) in moves.iter() {
                        for (slot, still) in all_bad.iter_mut().enumerate().take(width) {
                            if !*still {
                                continue;
                            }
                            let (cslot, flip) = s.child_slot(slot, step);
                            let bad = match cells.load(child * width as u64 + cslot as u64) {
                                Some((win, r)) if r <= level => {
                                    (win != flip) != s.protagonist_moves(slot)
                                }
                                _ => false,
                            };
                            if !bad {
                                *still = false;
                            }
                        }
                    }
                    for (slot, &lost) in all_bad.iter().enumerate().take(width) {
                        if lost {
                            let st = i * width as u64 + slot as u64;
                            if cells.resolve(st, !s.protagonist_moves(slot), next) {
                                newly += 1;
                            }
                        }
                    }
                }
                newly
            })
            .sum();
        resolved.fetch_add(lost, Relaxed);
        progress(SolveProgress {
            level: next,
            resolved: resolved.load(Relaxed),
            total,
            part: None,
        });
        crate::stop::check()?;
        level = next;
    }
    // Positions whose mover is out while the game goes on: the values of the
    // position with the turn passed on.
    (0..n as usize)
        .into_par_iter()
        .with_min_len(1024)
        .for_each(|i| {
            let i = i as u64;
            let (live, step) = graph.with_live_mover(i);
            if step == 0 {
                return;
            }
            for slot in 0..width {
                let st = i * width as u64 + slot as u64;
                if cells.load(st).is_some() {
                    continue;
                }
                let (lslot, flip) = s.child_slot(slot, step);
                if let Some((win, r)) = cells.load(live * width as u64 + lslot as u64) {
                    cells.resolve(st, win != flip, r);
                }
            }
        });
    Ok(Some(cells.into_table(total)))
}

/// The outcome of one state that its children's stored outcomes give (for checking
/// tables read from files): the side to move picks its best child; states the rules
/// settle, and positions whose mover is out, as the module documentation says.
pub(crate) fn expected_state(
    s: &States<'_>,
    stored: &dyn Fn(u64, usize) -> Outcome,
    index: u64,
    slot: usize,
) -> Outcome {
    let graph = s.graph;
    let p = s.players;
    let alive = graph.alive(index);
    let over = graph.rules().is_over(&alive[..p]);
    if let Some(win) = s.settled(&alive[..p], over, slot) {
        return if win {
            Outcome::win(0)
        } else {
            Outcome::lose(0)
        };
    }
    let (live, step) = graph.with_live_mover(index);
    if step != 0 {
        let (lslot, flip) = s.child_slot(slot, step);
        let o = stored(live, lslot);
        return if flip { o.flipped() } else { o };
    }
    let mover = s.protagonist_moves(slot);
    let mut best: Option<Outcome> = None;
    graph.for_each_child_step(index, |child, step| {
        let (cslot, flip) = s.child_slot(slot, step);
        let o = stored(child, cslot);
        let o = if flip { o.flipped() } else { o }.later();
        // The side to move prefers, from its own point of view, the best child.
        let better = match best {
            None => true,
            Some(b) => {
                if mover {
                    o.preference(&b).is_lt()
                } else {
                    o.flipped().preference(&b.flipped()).is_lt()
                }
            }
        };
        if better {
            best = Some(o);
        }
    });
    best.unwrap_or(Outcome::DRAW)
}
