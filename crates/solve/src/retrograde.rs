//! Parallel retrograde analysis over the dense index.
//!
//! One 16-bit cell per position holds either a counter (the position is not yet
//! resolved; the counter is the number of its children not yet known to be wins for
//! the opponent) or a resolved value with its remoteness:
//!
//! ```text
//! bits 0-1: 0 = unresolved, 1 = win, 2 = lose
//! bits 2-15: the counter (unresolved) or the remoteness (resolved)
//! ```
//!
//! Counters are counted lazily: a position starts as *not counted* (counter 0,
//! which an unresolved counter never is) and its children are counted the first
//! time one of them is found a win. In variants where most positions are draws
//! (rollover with splits: 99.7 % at 5 hands) most positions are never counted,
//! and the solve generates few moves beyond the parents of resolved positions.
//!
//! Level 0 is every finished position (normal play: the player with live hands won;
//! misère: the player without won) and every position with no legal move (normal
//! play: the mover loses; misère: the mover wins). Then for `k = 0, 1, …` every
//! position resolved at remoteness `k` is visited in parallel: its parents become wins
//! at `k + 1` if it is a loss, and if it is a win each parent's counter drops by one,
//! the parent becoming a loss at `k + 1` when the counter reaches zero. This gives
//! exactly the remoteness of docs/REFERENCE.md §3.1: a win is `1 +` the smallest
//! remoteness of its losing children (the first losing child met, since levels
//! ascend), a loss `1 +` the largest remoteness of its children (the last child
//! resolved). A counter never reaches zero while a child is a loss, so the two rules
//! never race. Positions still unresolved when a level comes out empty are draws.
//!
//! Memory: two bytes per position while solving, and two bit sets of the positions
//! resolved at this level and the next (a quarter of a byte a position), then one
//! byte per position for the result when every remoteness is below 127 (two bytes
//! otherwise).

use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};

use chopsticks_space::{AtomicBitSet, Graph, Tile, TileMap};
use rayon::prelude::*;

use crate::outcome::{Outcome, Value};
use crate::table::{narrow, wide, Table, NARROW_MAX};
use crate::update::{gather_parents_of_pair, update_atomic, CellCode, Parent, Updated};
use crate::SolveError;

/// The tag of an unresolved cell (bits 0-1).
pub const UNRESOLVED: u16 = 0;
/// An unresolved position whose children are not counted yet (a counter is at
/// least 1 while unresolved, so 0 is free to mean this).
pub const NOT_COUNTED: u16 = 0;
/// The tag of a win for the mover.
pub const WIN: u16 = 1;
/// The tag of a loss for the mover.
pub const LOSE: u16 = 2;
/// The largest counter or remoteness a cell holds.
pub const MAX_LEVEL: u32 = (1 << 14) - 1;

/// A cell: `tag` (`WIN`, `LOSE`, `UNRESOLVED`) in bits 0-1, the counter or
/// remoteness above. For solvers built on this encoding (the distributed solver).
#[inline]
pub fn cell(tag: u16, level: u32) -> u16 {
    (level as u16) << 2 | tag
}

/// The 16-bit cells of the in-memory, out-of-core and distributed solvers, for
/// the parent update ([`crate::update`]).
pub struct TwoBytes;

impl CellCode for TwoBytes {
    type Cell = u16;
    #[inline(always)]
    fn is_unresolved(c: u16) -> bool {
        c & 3 == UNRESOLVED
    }
    #[inline(always)]
    fn remaining(c: u16) -> Option<u32> {
        (c != NOT_COUNTED).then_some((c >> 2) as u32)
    }
    #[inline(always)]
    fn win(level: u32) -> u16 {
        cell(WIN, level)
    }
    #[inline(always)]
    fn lose(level: u32) -> u16 {
        cell(LOSE, level)
    }
    #[inline(always)]
    fn counting(remaining: u32) -> u16 {
        cell(UNRESOLVED, remaining)
    }
}

/// Progress of a solve, reported after setting up and after each level.
#[derive(Clone, Copy, Debug)]
pub struct SolveProgress {
    /// Levels (remoteness values) finished; 0 while setting up.
    pub level: u32,
    /// Positions resolved so far (wins and losses).
    pub resolved: u64,
    /// Positions in the index.
    pub total: u64,
    /// Out of core: the parts done in this pass, of how many.
    pub part: Option<(usize, usize)>,
}

/// Bytes a solve needs for `count` positions, besides the move tables.
pub fn solve_bytes(count: u64) -> u64 {
    // The working cells, then the narrow result beside them while converting.
    3 * count
}

/// The tiles of a graph this solver can solve: two players, and no position
/// with more moves than a cell's counter holds.
pub fn tiles_to_solve(graph: &Graph) -> Result<TileMap, SolveError> {
    let players = graph.rules().players();
    if players != 2 {
        return Err(SolveError::Players(players));
    }
    let bound = graph.max_children_bound();
    if bound > MAX_LEVEL as usize {
        return Err(SolveError::TooManyMoves(bound));
    }
    TileMap::new(graph).ok_or(SolveError::Players(players))
}

/// Calls `f(index, cell)` for every position of the tile resolved at level 0
/// (finished, or with no move), with its cell; from the ranks, no division.
#[inline]
pub fn for_each_level_zero(graph: &Graph, tile: &Tile, mut f: impl FnMut(u64, u16)) {
    graph.for_each_ended_in_tile(tile, |i, finished| {
        let ended = end_outcome(graph, i, finished);
        let tag = if ended.value == Value::Win { WIN } else { LOSE };
        f(i, cell(tag, 0));
    });
}

/// Solves every position of a two-player variant.
///
/// The positions resolved at each level are kept in a bit set (one bit a
/// position), so a level visits only them: a tile marked for the level has its
/// rows' bits taken from the set, not its cells read. Each thread counts what
/// it resolves by itself and marks a tile only when its mark is behind, so no
/// cache line is written by every thread.
pub fn solve(
    graph: &Graph,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<Table, SolveError> {
    let map = tiles_to_solve(graph)?;
    let n = graph.count();
    let tiles = map.tiles();
    // Level 0; every other position starts with its children not counted (0, so
    // the zeroed allocation is already right for them). Walked by tiles, whose
    // ranks are known, so no index is divided.
    let cells: Vec<AtomicU16> = zeroed_cells(n as usize);
    // The positions resolved at the level visited, and at the next.
    let mut here = AtomicBitSet::new(n);
    let mut next_set = AtomicBitSet::new(n);
    let mut resolved: u64 = tiles
        .par_iter()
        .map(|tile| {
            let mut found = 0u64;
            for_each_level_zero(graph, tile, |i, c| {
                cells[i as usize].store(c, Relaxed);
                here.insert(i);
                found += 1;
            });
            found
        })
        .sum();
    progress(SolveProgress {
        level: 0,
        resolved,
        total: n,
        part: None,
    });
    crate::stop::check()?;
    // The last level at which each tile had a position resolved (level 0: all).
    let marks: Vec<AtomicU32> = (0..tiles.len()).map(|_| AtomicU32::new(0)).collect();
    let period = graph.index().period();
    let mut level = 0u32;
    loop {
        let lose_here = cell(LOSE, level);
        let next = level + 1;
        if next > MAX_LEVEL {
            return Err(SolveError::Remoteness(next));
        }
        // Only tiles where a position was resolved at this level are visited,
        // chosen before any is (the visits mark tiles for the next level).
        let todo: Vec<&Tile> = tiles
            .iter()
            .zip(&marks)
            .filter(|(_, m)| m.load(Relaxed) == level)
            .map(|(tile, _)| tile)
            .collect();
        // A position resolved at this level updates its parents; gives the
        // positions visited and the parents resolved.
        let (found, newly) = todo
            .par_iter()
            .map(|tile| {
                let (mut found, mut newly) = (0u64, 0u64);
                let width = (tile.cols.end - tile.cols.start) as u32;
                let parent_seat = (tile.seat + 1) % period;
                let mut parents: Vec<Parent> = Vec::with_capacity(PARENT_BATCH + 64);
                for r0 in tile.rows.clone() {
                    let first = tile.row_start(r0) + tile.cols.start;
                    let mut bits = here.take_bits_at(first, width);
                    while bits != 0 {
                        let col = bits.trailing_zeros() as u64;
                        let i = first + col;
                        bits &= bits - 1;
                        found += 1;
                        let lost = cells[i as usize].load(Relaxed) == lose_here;
                        let at = (tile.seat, r0, tile.cols.start + col);
                        gather_parents_of_pair(graph, &cells, at, lost, |p| parents.push(p));
                        if parents.len() < PARENT_BATCH && bits != 0 {
                            continue;
                        }
                        for p in &parents {
                            let children =
                                || graph.child_count_of_pair(parent_seat, p.r0 as u64, p.r1 as u64);
                            let cell = &cells[p.index as usize];
                            if update_atomic::<TwoBytes, _>(cell, p.child_lost, next, children)
                                == Updated::Resolved
                            {
                                newly += 1;
                                next_set.insert(p.index);
                                let tile = map.tile_at(parent_seat, p.r0 as u64, p.r1 as u64);
                                raise_mark(&marks[tile], next);
                            }
                        }
                        parents.clear();
                    }
                }
                (found, newly)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        resolved += newly;
        progress(SolveProgress {
            level: next,
            resolved,
            total: n,
            part: None,
        });
        crate::stop::check()?;
        if found == 0 {
            break;
        }
        // Every bit of this level was taken: the set is empty, ready for the
        // level after next.
        debug_assert!(here.is_clear());
        std::mem::swap(&mut here, &mut next_set);
        level = next;
    }
    drop((here, next_set));
    let max_remoteness = level.saturating_sub(1);
    Ok(into_table(cells, max_remoteness))
}

/// Parents gathered before their cells are updated: enough that the cache
/// lines asked for when they were gathered
/// ([`crate::update::gather_parents_of_pair`]) have come.
const PARENT_BATCH: usize = 64;

/// Marks a tile as having a position resolved at `level` (a tile's mark is
/// the last such level), written only when it is behind, so that a tile
/// resolved into by many threads is not a cache line every one writes.
#[inline(always)]
pub(crate) fn raise_mark(mark: &AtomicU32, level: u32) {
    if mark.load(Relaxed) < level {
        mark.fetch_max(level, Relaxed);
    }
}

/// `count` cells holding 0, from zeroed memory (the operating system's zero
/// pages: nothing is written until a cell is).
pub(crate) fn zeroed_cells(count: usize) -> Vec<AtomicU16> {
    let zeros: Vec<u16> = vec![0; count];
    let mut zeros = std::mem::ManuallyDrop::new(zeros);
    let (ptr, len, cap) = (zeros.as_mut_ptr(), zeros.len(), zeros.capacity());
    // SAFETY: `AtomicU16` has the same size, alignment and bit validity as
    // `u16` (documented by the standard library), so the allocation of a
    // `Vec<u16>` with this pointer, length and capacity is a valid
    // `Vec<AtomicU16>`; the original vector is not dropped (ManuallyDrop), so
    // the allocation has one owner.
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU16>(), len, cap) }
}

/// The outcome of a position with no move (level 0): a finished game is won by
/// the mover if alive (normal play) or dead (misère); a position where the mover,
/// though the game is not over, has no move is lost (normal) or won (misère).
pub fn end_outcome(graph: &Graph, index: u64, finished: bool) -> Outcome {
    let misere = graph.rules().misere;
    let mover_wins = if finished {
        graph.mover_alive(index) != misere
    } else {
        misere
    };
    if mover_wins {
        Outcome::win(0)
    } else {
        Outcome::lose(0)
    }
}

/// The one-byte code ([`crate::table`]'s narrow encoding) of a working cell.
#[inline]
pub(crate) fn narrow_cell(v: u16) -> u8 {
    narrow(decode(v))
}

/// The two-byte code (the wide encoding) of a working cell.
#[inline]
pub(crate) fn wide_cell(v: u16) -> u16 {
    wide(decode(v))
}

fn decode(v: u16) -> Outcome {
    match v & 3 {
        WIN => Outcome::win((v >> 2) as u32),
        LOSE => Outcome::lose((v >> 2) as u32),
        _ => Outcome::DRAW,
    }
}

/// Turns the working cells into the result in their own memory, so the peak stays at
/// two bytes per position: the narrow encoding packs position `i` into byte `i % 2`
/// of word `i / 2`, which (as `i / 2 ≤ i`) has already been read; then the words
/// past the half are released.
fn into_table(mut cells: Vec<AtomicU16>, max_remoteness: u32) -> Table {
    let n = cells.len();
    if max_remoteness <= NARROW_MAX {
        for i in 0..n {
            let byte = narrow(decode(*cells[i].get_mut())) as u16;
            let word = cells[i / 2].get_mut();
            *word = if i % 2 == 0 {
                byte
            } else {
                (*word & 0x00FF) | byte << 8
            };
        }
        cells.truncate(n.div_ceil(2));
        cells.shrink_to_fit();
        Table::Narrow {
            len: n as u64,
            packed: cells.into_iter().map(AtomicU16::into_inner).collect(),
        }
    } else {
        for c in cells.iter_mut() {
            let v = c.get_mut();
            *v = wide(decode(*v));
        }
        Table::Wide(cells.into_iter().map(AtomicU16::into_inner).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_cells_are_zero_and_writable() {
        let cells = zeroed_cells(100_003);
        assert_eq!(cells.len(), 100_003);
        assert!(cells.iter().all(|c| c.load(Relaxed) == 0));
        cells[100_002].store(7, Relaxed);
        assert_eq!(cells[100_002].load(Relaxed), 7);
        assert!(zeroed_cells(0).is_empty());
    }

    #[test]
    fn cells_become_tables_in_place() {
        let outcomes: Vec<Outcome> = (0..1001u32)
            .map(|i| match i % 3 {
                0 => Outcome::win(i % 127),
                1 => Outcome::lose(i % 126),
                _ => Outcome::DRAW,
            })
            .collect();
        let cells = || -> Vec<AtomicU16> {
            outcomes
                .iter()
                .map(|o| {
                    AtomicU16::new(match (o.value, o.remoteness) {
                        (crate::Value::Win, Some(r)) => cell(WIN, r),
                        (crate::Value::Lose, Some(r)) => cell(LOSE, r),
                        _ => cell(UNRESOLVED, 3), // an unresolved counter is a draw
                    })
                })
                .collect()
        };
        for max in [126, 1000] {
            let table = into_table(cells(), max);
            assert_eq!(table.len(), outcomes.len() as u64);
            assert_eq!(table.bits_per_entry(), if max == 126 { 8 } else { 16 });
            for (i, o) in outcomes.iter().enumerate() {
                assert_eq!(table.get(i as u64).unwrap(), *o, "{i}");
            }
        }
    }
}
