//! Checking a two-player table read in place, in bands of its rows, within a
//! memory budget: every block read a bounded number of times, in long runs,
//! instead of once per child that lies in it.
//!
//! **Where a tile's reads fall.** A seat class of a two-player index is a
//! matrix: rows the mover's multiset ranks `r₀`, columns the opponent's `r₁`
//! (see `chopsticks_space::tiles`). The check of a position `(r₀, r₁)` (both
//! passes of [`crate::verify`]) reads
//!
//! - the position itself, in row `r₀` of its class `s`;
//! - its children by an attack, `(attacked(r₁), r₀)`, and its parents by the
//!   mover's own moves, `(own⁻¹(r₁), r₀)`, both in **column `r₀`** of the next
//!   class `t` (the class after `s`, which is also the one before: there are at
//!   most two);
//! - its children by its own moves, `(r₁, own(r₀))`, and its parents by an
//!   attack, `(r₁, attacked⁻¹(r₀))`, both in **row `r₁`** of class `t`.
//!
//! So the positions whose rows `r₀` lie in a range `A` need, of the whole table,
//! only rows `A` of class `s`, columns `A` of class `t` (a *stripe*), and for
//! each tile column `B` (64 values of `r₁`) rows `B` of class `t` (a *band*).
//!
//! **The walk.** Rows are taken a range `A` at a time, as wide as the budget
//! allows ([`Planner`]); the blocks holding rows `A` of `s` and the stripe
//! are read in long runs, in parallel, each block checked against its checksum,
//! into one buffer ([`Resident`]; overlapping blocks once). Then the tile
//! columns are checked in parallel, each with its band of 64 rows of `t` read
//! in one run ([`Band`]), every tile of the range in that column through a
//! reader that finds an outcome in the band or the resident blocks by the
//! block that holds it ([`BandReader`]). Both passes of the check run on each
//! range (the first only until a range has an inconsistency, as in memory),
//! so the smallest inconsistent index is reported as a scan in order finds it.
//!
//! **What it costs.** Each range reads its rows and stripe once and the whole
//! class `t` once (the bands, in runs of 64 rows); with `k` ranges, about
//! `k + 2` times the table. The stripe is read a row's piece at a time (one or
//! two blocks each when the range is narrower than a block's outcomes). The
//! least budget is the widest row of tiles with its stripe, counted block by
//! block ([`Planner`]); each range is then made as wide as the budget allows.
//! A read outside what is held (there should be none) falls back to the
//! table's own reader, correct but slow, and is counted. A block that fails
//! its checksum while a range is read stops the check with that block named
//! (so in a damaged file that error, not a smaller inconsistent index, is
//! reported).

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use chopsticks_space::{Graph, SeatShape, TileMap, TILE};
use rayon::prelude::*;

use crate::paged::PagedTable;
use crate::table::{Encoding, ReadOutcome, WithReader};
use crate::verify::{DrawnParents, TileCheck};
use crate::{Outcome, Solution, SolveError};

/// A slot not holding a block.
const NONE: u32 = u32::MAX;

/// Blocks read in one run when a stripe is loaded (1 MiB of 4 KiB blocks).
const RUN_BLOCKS: usize = 256;

/// The budget a check of a table read in place uses when none is given
/// ([`Solution::verify_with_progress`]): 1 GiB, or the least the table needs
/// when that is more.
pub const DEFAULT_IN_PLACE_BYTES: u64 = 1 << 30;

/// Blocks of a table held in memory for one range of rows: each in a slot of
/// one block's bytes, found by its block number.
#[derive(Default)]
struct Resident {
    /// The slot of each block of the table, or [`NONE`].
    slot: Vec<u32>,
    data: Vec<u8>,
    /// The blocks held, as runs (to clear `slot` for the next range).
    held: Vec<Range<usize>>,
}

impl Resident {
    /// Holds exactly the blocks of `runs` (sorted, disjoint), each read and
    /// checked, in parallel runs of at most [`RUN_BLOCKS`].
    fn load(&mut self, table: &PagedTable, runs: Vec<Range<usize>>) -> Result<(), SolveError> {
        let block = table.block_bytes();
        if self.slot.len() != table.blocks() {
            self.slot = vec![NONE; table.blocks()];
        }
        for run in self.held.drain(..) {
            self.slot[run].fill(NONE);
        }
        let total: usize = runs.iter().map(|r| r.len()).sum();
        assert!(
            total < NONE as usize,
            "a range of rows holds fewer blocks than u32"
        );
        // Exactly this range's blocks: a buffer grown in place could double
        // its capacity past the budget.
        self.data = Vec::new();
        self.data = vec![0; total * block];
        let mut next = 0usize;
        let mut rest: &mut [u8] = &mut self.data;
        let mut work = Vec::new();
        for run in &runs {
            for (k, b) in run.clone().enumerate() {
                self.slot[b] = (next + k) as u32;
            }
            next += run.len();
            let mut b = run.start;
            while b < run.end {
                let end = (b + RUN_BLOCKS).min(run.end);
                let (head, tail) = std::mem::take(&mut rest).split_at_mut((end - b) * block);
                work.push((b..end, head));
                rest = tail;
                b = end;
            }
        }
        self.held = runs;
        work.into_par_iter().try_for_each(|(blocks, out)| {
            let len = table.bytes_of(blocks.clone());
            table.read_checked(blocks, &mut out[..len])
        })
    }
}

/// Consecutive blocks held by one thread: a band of rows.
#[derive(Default)]
struct Band {
    first: usize,
    blocks: usize,
    data: Vec<u8>,
}

impl Band {
    /// A band whose buffer holds `bytes` without growing (every band of a
    /// class fits the largest).
    fn with_capacity(bytes: u64) -> Band {
        Band {
            data: Vec::with_capacity(bytes as usize),
            ..Band::default()
        }
    }

    fn load(&mut self, table: &PagedTable, blocks: Range<usize>) -> Result<(), SolveError> {
        let len = table.bytes_of(blocks.clone());
        self.data.resize(len, 0);
        // Unlabelled while it is read: a read that fails leaves no band.
        self.blocks = 0;
        table.read_checked(blocks.clone(), &mut self.data)?;
        self.first = blocks.start;
        self.blocks = blocks.len();
        Ok(())
    }
}

/// The encoding of `BITS`-bit outcomes.
#[inline(always)]
const fn encoding_of<const BITS: u64>() -> Encoding {
    match BITS {
        2 => Encoding::Values,
        8 => Encoding::Narrow,
        _ => Encoding::Wide,
    }
}

/// Reads the outcomes of a table read in place from a thread's [`Band`] or the
/// range's [`Resident`] blocks (compiled for one encoding, `BITS` bits an
/// outcome); anything else from the table itself, counted in `misses`.
struct BandReader<'a, const BITS: u64> {
    table: &'a PagedTable,
    band: &'a Band,
    resident: &'a Resident,
    misses: &'a AtomicU64,
    entries: u64,
    block: usize,
    /// `log₂ block` when the block is a power of two (as in every file
    /// written here), else `None`.
    shift: Option<u32>,
}

impl<const BITS: u64> BandReader<'_, BITS> {
    fn new<'a>(
        table: &'a PagedTable,
        band: &'a Band,
        resident: &'a Resident,
        misses: &'a AtomicU64,
    ) -> BandReader<'a, BITS> {
        let block = table.block_bytes();
        BandReader {
            table,
            band,
            resident,
            misses,
            entries: table.len(),
            block,
            shift: block.is_power_of_two().then(|| block.trailing_zeros()),
        }
    }

    /// The byte holding outcome `k` (its first, for two-byte outcomes) and
    /// the next one, from the band or the resident blocks; `None` when
    /// neither holds it (or `k` is past the table).
    #[inline(always)]
    fn bytes(&self, k: u64) -> Option<(u8, u8)> {
        if k >= self.entries {
            return None;
        }
        let byte = (k * BITS / 8) as usize;
        let (b, within) = match self.shift {
            Some(shift) => (byte >> shift, byte & (self.block - 1)),
            None => (byte / self.block, byte % self.block),
        };
        let (data, at) = if b.wrapping_sub(self.band.first) < self.band.blocks {
            (&self.band.data, (b - self.band.first) * self.block + within)
        } else {
            let slot = *self.resident.slot.get(b)?;
            if slot == NONE {
                return None;
            }
            (&self.resident.data, slot as usize * self.block + within)
        };
        // Entries never straddle blocks (a block is a whole, even number of
        // bytes), so a two-byte outcome's second byte is in the same block.
        let first = *data.get(at)?;
        let second = if BITS == 16 { *data.get(at + 1)? } else { 0 };
        Some((first, second))
    }

    /// Outcome `k` from the table's own reader (past the table: its error),
    /// counted as a miss when it is in the table.
    #[cold]
    fn missed(&self, k: u64) -> Result<Outcome, SolveError> {
        if k < self.entries {
            self.misses.fetch_add(1, Relaxed);
        }
        self.table.get(k)
    }
}

fn no_code(k: u64) -> SolveError {
    SolveError::Inconsistent(format!("outcome #{k} has a code no table holds"))
}

impl<const BITS: u64> ReadOutcome for BandReader<'_, BITS> {
    #[inline(always)]
    fn read(&self, k: u64) -> Result<Outcome, SolveError> {
        let Some((first, second)) = self.bytes(k) else {
            return self.missed(k);
        };
        let bytes = [first, second];
        let local = if BITS == 2 { k & 3 } else { 0 };
        encoding_of::<BITS>()
            .decode(&bytes, local)
            .ok_or_else(|| no_code(k))
    }

    #[inline(always)]
    fn through_key(&self, k: u64) -> Result<u64, SolveError> {
        if BITS == 8 {
            if let Some((code, _)) = self.bytes(k) {
                return crate::table::narrow_through_key(code).ok_or_else(|| no_code(k));
            }
        }
        Ok(self.read(k)?.through_move().preference_key())
    }
}

/// Counts the blocks a range of rows holds, exactly, for one seat class `s`
/// and the class `t` its moves lead to.
struct Planner<'a> {
    table: &'a PagedTable,
    s: SeatShape,
    t: SeatShape,
    period: usize,
    /// The most bytes of one thread's band (64 rows of `t`).
    band: u64,
    /// Bytes held whatever the range: the bands of the threads and the slots.
    fixed: u64,
}

impl Planner<'_> {
    fn new<'a>(table: &'a PagedTable, s: SeatShape, t: SeatShape, period: usize) -> Planner<'a> {
        let band = (0..s.tiles_per_row)
            .map(|j| table.bytes_of(band_blocks(table, &s, &t, j)) as u64)
            .max()
            .unwrap_or(0);
        let threads = rayon::current_num_threads() as u64;
        Planner {
            table,
            s,
            t,
            period,
            band,
            fixed: threads * band + table.blocks() as u64 * 4,
        }
    }

    /// The blocks holding the outcomes `first .. first + count`.
    fn blocks(&self, first: u64, count: u64) -> u64 {
        self.table.blocks_of(first, count).len() as u64
    }

    /// The bytes the range of rows `a0 .. a1` of `s` holds: the blocks of its
    /// rows and of the stripe of columns `a0 .. a1` of `t` (at most the whole
    /// of `t`; a block in both counted once when they are one class), the
    /// bands and the slots.
    fn held(&self, a0: u64, a1: u64) -> u64 {
        let t = &self.t;
        let (first, count) = self.rows_piece(a0, a1);
        let rows = self.blocks(first, count);
        let whole = self.blocks(t.base, t.rows * t.cols);
        let stripe: u64 = self
            .stripe_pieces(a0, a1)
            .map(|(first, count)| self.blocks(first, count))
            .sum::<u64>()
            .min(whole);
        let blocks = if self.period == 1 {
            (rows + stripe).min(whole)
        } else {
            rows + stripe
        };
        blocks * self.table.block_bytes() as u64 + self.fixed
    }

    /// The outcomes of rows `a0 .. a1` of `s` (first, count).
    fn rows_piece(&self, a0: u64, a1: u64) -> (u64, u64) {
        (self.s.base + a0 * self.s.cols, (a1 - a0) * self.s.cols)
    }

    /// The outcomes of the stripe of columns `a0 .. a1` of `t`, a row's
    /// piece at a time (first, count).
    fn stripe_pieces(&self, a0: u64, a1: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let t = self.t;
        (0..t.rows).map(move |x| (t.base + x * t.cols + a0, a1 - a0))
    }

    /// Rows `a0 .. a1` of tile rows `i .. j`.
    fn rows(&self, i: u64, j: u64) -> (u64, u64) {
        (i * TILE, (j * TILE).min(self.s.rows))
    }

    /// The most any one row of tiles holds: the least budget that checks `s`.
    fn least(&self) -> u64 {
        (0..self.s.rows.div_ceil(TILE))
            .into_par_iter()
            .map(|i| {
                let (a0, a1) = self.rows(i, i + 1);
                self.held(a0, a1)
            })
            .max()
            .unwrap_or(self.fixed)
    }

    /// The ranges of tile rows, each as wide as `budget` allows (at least one
    /// row of tiles), and the most bytes one holds.
    fn ranges(&self, budget: u64) -> (Vec<(u64, u64)>, u64) {
        let tile_rows = self.s.rows.div_ceil(TILE);
        let held = |i: u64, j: u64| {
            let (a0, a1) = self.rows(i, j);
            self.held(a0, a1)
        };
        let mut ranges = Vec::new();
        let mut most = 0;
        let mut from = 0;
        while from < tile_rows {
            // The bytes grow with the width: the widest that fits, by
            // bisection (one row of tiles at least).
            let (mut fits, mut over) = (from + 1, tile_rows + 1);
            if held(from, tile_rows) <= budget {
                fits = tile_rows;
            } else {
                while over - fits > 1 {
                    let mid = (fits + over) / 2;
                    if held(from, mid) <= budget {
                        fits = mid;
                    } else {
                        over = mid;
                    }
                }
            }
            most = most.max(held(from, fits));
            ranges.push((from, fits));
            from = fits;
        }
        (ranges, most)
    }
}

/// The blocks of the band of tile column `j` of class `s`: rows `64 j ..` of
/// class `t` (the opponent's ranks of `s` are the mover's of `t`).
fn band_blocks(table: &PagedTable, s: &SeatShape, t: &SeatShape, j: usize) -> Range<usize> {
    let b0 = j as u64 * TILE;
    let b1 = (b0 + TILE).min(s.cols);
    table.blocks_of(t.base + b0 * t.cols, (b1 - b0) * t.cols)
}

/// The shapes of the seat classes of `map`, each with the class its moves
/// lead to (`t`, which is also the one its parents come from).
fn classes(map: &TileMap) -> Vec<(SeatShape, SeatShape)> {
    let period = map.seats();
    (0..period)
        .map(|s| (map.seat_shape(s), map.seat_shape((s + 1) % period)))
        .collect()
}

/// The check's plan within a budget: for each class, its planner and its
/// ranges of tile rows; the least budget and the most bytes held.
struct Plan<'a> {
    classes: Vec<(Planner<'a>, Vec<(u64, u64)>)>,
    least: u64,
    most: u64,
}

/// The plan of a check within `budget` (or the least it needs, when more).
fn plan<'a>(table: &'a PagedTable, map: &TileMap, budget: u64) -> Plan<'a> {
    let period = map.seats();
    let planners: Vec<Planner> = classes(map)
        .into_iter()
        .map(|(s, t)| Planner::new(table, s, t, period))
        .collect();
    let least = planners.iter().map(Planner::least).max().unwrap_or(0);
    let budget = budget.max(least);
    let mut most = 0;
    let classes = planners
        .into_iter()
        .map(|p| {
            let (ranges, held) = p.ranges(budget);
            most = most.max(held);
            (p, ranges)
        })
        .collect();
    Plan {
        classes,
        least,
        most,
    }
}

/// The least memory for checking a two-player table read in place (its
/// widest row of tiles with its stripe) and the most its check holds of the
/// table within `budget`: what `chopsticks check` compares with the memory it
/// may use, and reports. Counted exactly from the blocks of each range, the
/// threads' bands and the block slots; the move graph, the tiles and the
/// file's own bookkeeping come on top.
pub(crate) fn in_place_bytes(table: &PagedTable, map: &TileMap, budget: u64) -> (u64, u64) {
    let plan = plan(table, map, budget);
    (plan.least, plan.most)
}

/// What [`verify_in_bands`] found.
pub(crate) struct BandsFound {
    /// The smallest inconsistent index of the first pass and of the second.
    pub first_bad: Option<u64>,
    /// Reads that fell outside the blocks held (a fault of the plan; 0).
    pub misses: u64,
}

/// The two passes of [`crate::verify`] over a two-player table read in place,
/// range of rows by range of rows (see the module documentation), holding at
/// most `budget` bytes (or the least the table needs, when more).
pub(crate) fn verify_in_bands(
    solution: &Solution,
    graph: &Graph,
    map: &TileMap,
    table: &PagedTable,
    budget: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<BandsFound, SolveError> {
    match table.encoding().bits() {
        2 => walk::<2>(solution, graph, map, table, budget, progress),
        8 => walk::<8>(solution, graph, map, table, budget, progress),
        _ => walk::<16>(solution, graph, map, table, budget, progress),
    }
}

/// The runs of blocks (sorted, merged) holding the outcomes `ranges`.
fn runs_of(table: &PagedTable, ranges: impl Iterator<Item = (u64, u64)>) -> Vec<Range<usize>> {
    let mut runs: Vec<Range<usize>> = ranges
        .map(|(first, count)| table.blocks_of(first, count))
        .filter(|r| !r.is_empty())
        .collect();
    runs.sort_unstable_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(runs.len());
    for r in runs {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

fn min_of(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn walk<const BITS: u64>(
    solution: &Solution,
    graph: &Graph,
    map: &TileMap,
    table: &PagedTable,
    budget: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<BandsFound, SolveError> {
    let tiles = map.tiles();
    let misses = AtomicU64::new(0);
    let mut resident = Resident::default();
    let mut first_bad: Option<u64> = None;
    let mut in_pass_one = true;
    let mut done = 0u64;
    let plan = plan(table, map, budget);
    for (planner, ranges) in &plan.classes {
        let (s, t) = (planner.s, planner.t);
        debug_assert_eq!((s.rows, s.cols), (t.cols, t.rows));
        for &(from, to) in ranges {
            let (a0, a1) = planner.rows(from, to);
            let rows = std::iter::once(planner.rows_piece(a0, a1));
            resident.load(
                table,
                runs_of(table, rows.chain(planner.stripe_pieces(a0, a1))),
            )?;
            let resident = &resident;
            let misses = &misses;
            let check_children = in_pass_one;
            let found = (0..s.tiles_per_row)
                .into_par_iter()
                .map_init(
                    || Band::with_capacity(planner.band),
                    |band, j| {
                        band.load(table, band_blocks(table, &s, &t, j))?;
                        let reader = BandReader::<BITS>::new(table, band, resident, misses);
                        let mut bad = (None, None);
                        for i in from..to {
                            let tile = &tiles[s.first_tile + i as usize * s.tiles_per_row + j];
                            if check_children {
                                let check = TileCheck {
                                    solution,
                                    graph,
                                    tile,
                                };
                                bad.0 = min_of(bad.0, check.run(&reader));
                            }
                            bad.1 = min_of(bad.1, DrawnParents { graph, tile }.run(&reader));
                        }
                        Ok::<_, SolveError>(bad)
                    },
                )
                .try_reduce(
                    || (None, None),
                    |a, b| Ok((min_of(a.0, b.0), min_of(a.1, b.1))),
                )?;
            if found.0.is_some() {
                // The first pass stops at the first range with an
                // inconsistency; the second goes on (a draw's lost child may
                // be anywhere).
                in_pass_one = false;
            }
            first_bad = min_of(first_bad, min_of(found.0, found.1));
            done += (a1 - a0) * s.cols;
            progress(done);
        }
    }
    Ok(BandsFound {
        first_bad,
        misses: misses.into_inner(),
    })
}

#[cfg(test)]
mod tests {
    //! The banded check against the check in memory, with blocks small enough
    //! (64 bytes) that small variants have rows of many blocks and a small
    //! budget cuts them into many ranges: the same verdict, the same first
    //! inconsistency, and no read outside the blocks held.

    use std::sync::Arc;

    use chopsticks_rules::Ruleset;
    use chopsticks_space::{Graph, TileMap};

    use super::*;
    use crate::paged::{Checksums, Layout};
    use crate::table::Table;

    const BLOCK: usize = 64;

    /// The bytes of `solution`'s table.
    fn table_bytes(solution: &Solution) -> Vec<u8> {
        let mut bytes = Vec::new();
        solution
            .table()
            .for_each_chunk(1 << 20, |chunk| {
                bytes.extend_from_slice(chunk);
                Ok(())
            })
            .unwrap();
        bytes
    }

    /// `solution`'s table, changed by `forge`, as a file read in place with
    /// blocks of [`BLOCK`] bytes.
    fn in_place(
        solution: &Solution,
        forge: impl Fn(&mut [u8]),
        dir: &std::path::Path,
    ) -> (Solution, Arc<PagedTable>) {
        let mut bytes = table_bytes(solution);
        forge(&mut bytes);
        let path = dir.join("table");
        std::fs::write(&path, &bytes).unwrap();
        let layout = Layout {
            offset: 0,
            bytes: bytes.len(),
            block: BLOCK,
            entries: solution.count(),
            width: 1,
            encoding: solution.table().encoding(),
        };
        let crcs = bytes.chunks(BLOCK).map(crc32fast::hash).collect();
        let file = std::fs::File::open(&path).unwrap();
        let table =
            Arc::new(PagedTable::open(file, &path, layout, Checksums::Loaded(crcs)).unwrap());
        let paged =
            Solution::from_table(solution.rules().clone(), Table::Paged(table.clone())).unwrap();
        (paged, table)
    }

    /// The verdict of the banded check with `budget`, its misses, and the
    /// number of ranges of the first class.
    fn banded(paged: &Solution, table: &PagedTable, graph: &Graph, budget: u64) -> String {
        let map = TileMap::new(graph).unwrap();
        let found = verify_in_bands(paged, graph, &map, table, budget, &|_| {}).unwrap();
        assert_eq!(found.misses, 0, "reads outside the blocks held");
        match paged.verify_within(graph, budget, &|_| {}) {
            Ok(()) => {
                assert_eq!(found.first_bad, None);
                "consistent".into()
            }
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn ranges_of_rows_check_as_the_table_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        // One seat class and two (the players' hands differ); one byte, and
        // values only.
        for id in ["standard.h5.f8", "standard.h4.f8", "rahman.h4.f8"] {
            let mut rules = Ruleset::from_variant_id(id).unwrap();
            if id == "standard.h4.f8" {
                rules.hands = vec![4, 5];
            }
            let graph = Graph::new(&rules).unwrap();
            let map = TileMap::new(&graph).unwrap();
            let full = Solution::solve(&graph, &|_| {}).unwrap();
            let (values, _) = Solution::solve_values(&graph, None, None, &|_| {}).unwrap();
            for solution in [&full, &values] {
                let (paged, table) = in_place(solution, |_| {}, dir.path());
                let (least, most) = paged.in_place_check_bytes(&graph, u64::MAX).unwrap();
                assert!(least <= most, "{id}: {least} {most}");
                // With the least budget, one-byte tables are cut into
                // several ranges (values-only rows are too short for that).
                let planned = plan(&table, &map, least);
                assert_eq!(planned.most, least, "{id}");
                let ranges: Vec<usize> = planned.classes.iter().map(|(_, r)| r.len()).collect();
                if solution.table().encoding() == Encoding::Narrow {
                    assert!(ranges.iter().all(|&r| r >= 3), "{id}: {ranges:?}");
                }
                for budget in [least, (least + most) / 2, most] {
                    assert_eq!(banded(&paged, &table, &graph, budget), "consistent");
                }
                // Below the least it needs, the least is used.
                assert_eq!(banded(&paged, &table, &graph, 0), "consistent");

                // Forged outcomes: the same first inconsistency as in memory.
                let bits = solution.table().encoding().bits() as usize;
                let count = solution.count() as usize;
                for at in [7, count / 3, count / 2 + 17, count - 3] {
                    let forge = |bytes: &mut [u8]| {
                        let (byte, shift) = (at * bits / 8, (at * bits % 8) as u32);
                        // Another code: a draw made a win in 0 (a loss's
                        // code, for values), anything else a draw.
                        let mask = if bits == 2 { 3u8 << shift } else { 0xFF };
                        let code = (bytes[byte] & mask) >> shift;
                        let other = match (bits, code) {
                            (2, 0) => 2,
                            (2, _) => 0,
                            (_, 0xFF) => 0,
                            _ => 0xFF,
                        };
                        bytes[byte] = (bytes[byte] & !mask) | (other << shift);
                    };
                    let (paged, table) = in_place(solution, forge, dir.path());
                    let mut bytes = table_bytes(solution);
                    forge(&mut bytes);
                    let memory = Solution::from_table(
                        solution.rules().clone(),
                        Table::from_bytes(solution.table().encoding(), &bytes, solution.count())
                            .unwrap(),
                    )
                    .unwrap();
                    let want = match memory.verify(&graph) {
                        Ok(()) => "consistent".to_string(),
                        Err(e) => e.to_string(),
                    };
                    for budget in [least, most] {
                        assert_eq!(
                            banded(&paged, &table, &graph, budget),
                            want,
                            "{id}, {} bits, forged at {at}",
                            bits
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_damaged_block_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Ruleset::from_variant_id("standard.h4.f8").unwrap();
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let (paged, table) = in_place(&solution, |_| {}, dir.path());
        // The file changed after its checksums were taken.
        let path = dir.path().join("table");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[5000] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (least, _) = paged.in_place_check_bytes(&graph, u64::MAX).unwrap();
        let err = paged.verify_within(&graph, least, &|_| {}).unwrap_err();
        assert!(matches!(err, SolveError::Damaged { .. }), "{err}");
        drop(table);
    }
}
