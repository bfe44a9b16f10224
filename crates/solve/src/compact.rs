//! The two-player retrograde analysis for values alone, in one byte a position.
//!
//! **Why.** [`crate::retrograde`] keeps a 16-bit cell a position so that a
//! resolved position carries its remoteness, which is also how its level loop
//! recognises the positions of the level under way. When the remoteness is not
//! wanted (`solve --no-remoteness`), the loop only has to tell the positions
//! of the level under way from those of the next level and from those already
//! visited, and one byte is enough. The largest variants then fit in memory
//! where two bytes a position would have to go out of core: 2 × 10 hands at
//! F = 10 (8.5·10⁹ positions) needs 8.5 GB of cells instead of 17.1 GB.
//!
//! **The cell.**
//!
//! ```text
//! 0             unresolved, children not counted yet (as in retrograde)
//! 1 ..= 249     unresolved: the children not yet known to be wins for the opponent
//! 250, 251      win, loss, resolved at an even level and not visited yet
//! 252, 253      win, loss, resolved at an odd level and not visited yet
//! 254, 255      win, loss, visited (its parents were updated)
//! ```
//!
//! Level `k` visits the positions tagged with `k`'s parity, in the tiles that
//! had a position resolved at `k` (the tile marks of retrograde). A lost
//! position makes its unresolved parents wins, a won one counts its parents
//! down (a parent reaching zero is lost), both tagged with the parity of
//! `k + 1`, so the level under way never meets them; each visited position is
//! then retagged as visited, so when `k + 2` reuses the parity only its own
//! positions carry it. These are the updates of retrograde in the same levels,
//! so every position gets the same value (tested against it): a draw is a
//! position still unresolved when a level finds nothing to visit.
//!
//! A counter must hold every position's number of children, so the solver
//! refuses a ruleset whose positions may have more than [`COUNTER_MAX`] moves
//! ([`fits`]); F = 10 has at most a hundred or so.
//!
//! **Checkpoints.** With a work directory, the cells and the tile marks are
//! written at the end of a level when `checkpoint_every` has passed since the
//! last checkpoint: one file, [`CHECKPOINT`], written beside and renamed over
//! the last, ending with a CRC-32 of everything before it. A solve killed at
//! any moment and started again with the same directory resumes at the level
//! after the checkpoint, with the same result.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use chopsticks_rules::Ruleset;
use chopsticks_space::{Graph, Tile};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::parts::{holds_only_the_lock, io_error, lock_work_dir};
use crate::retrograde::{for_each_level_zero, raise_mark, WIN};
use crate::table::{Encoding, Table};
use crate::update::{gather_parents_of_pair, update_atomic, CellCode, Parent, Updated};
use crate::{SolveError, SolveProgress};

/// The largest counter a cell holds: rulesets whose positions may have more
/// moves are solved with two-byte cells.
pub const COUNTER_MAX: u8 = 249;
/// A win and a loss resolved at an even level (index 0) or an odd one (1), not
/// visited yet.
const WIN_AT: [u8; 2] = [250, 252];
const LOSE_AT: [u8; 2] = [251, 253];
/// A win and a loss whose parents were updated.
const WIN_DONE: u8 = 254;
const LOSE_DONE: u8 = 255;

/// The one-byte cells, for the parent update ([`crate::update`]): a counter
/// up to [`COUNTER_MAX`] (0: not counted), or a value with its level's parity.
pub struct OneByte;

impl CellCode for OneByte {
    type Cell = u8;
    #[inline(always)]
    fn is_unresolved(c: u8) -> bool {
        c <= COUNTER_MAX
    }
    #[inline(always)]
    fn remaining(c: u8) -> Option<u32> {
        (c != 0).then_some(u32::from(c))
    }
    #[inline(always)]
    fn win(level: u32) -> u8 {
        WIN_AT[(level % 2) as usize]
    }
    #[inline(always)]
    fn lose(level: u32) -> u8 {
        LOSE_AT[(level % 2) as usize]
    }
    #[inline(always)]
    fn counting(remaining: u32) -> u8 {
        remaining as u8
    }
}

/// The name of the checkpoint file in the work directory.
pub const CHECKPOINT: &str = "values.checkpoint";
const MAGIC: &[u8; 8] = b"CHOPVALS";
const FORMAT: u32 = 1;

/// Bytes the solve needs for `count` positions, besides the move tables: the
/// cells, then the two-bit result beside them.
pub fn values_solve_bytes(count: u64) -> u64 {
    count + count.div_ceil(4)
}

/// Whether this solver can solve the graph: two players, and no position with
/// more moves than a counter holds.
pub fn fits(graph: &Graph) -> bool {
    graph.rules().players() == 2 && graph.max_children_bound() <= COUNTER_MAX as usize
}

/// Where and how often a solve writes its checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoints {
    /// The work directory (created if missing; a checkpoint found there is
    /// resumed from, and the directory is removed when the solve has ended).
    pub dir: PathBuf,
    /// Write a checkpoint at the end of a level when this long has passed
    /// since the last one (or since the start).
    pub every: Duration,
}

/// How a solve went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuesReport {
    /// The level a checkpoint resumed from, if one did.
    pub resumed_from: Option<u32>,
    /// Checkpoints written.
    pub checkpoints: u32,
    /// The levels (the largest remoteness plus one, as in retrograde).
    pub levels: u32,
    /// Parent updates made at each level run here (a level resumed from a
    /// checkpoint is not counted again): what a distributed solve sends as
    /// messages, the fraction `(k − 1)/k` of it between `k` machines.
    pub updates: Vec<u64>,
}

/// What a checkpoint file says before its marks and cells.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header {
    format: u32,
    ruleset: Ruleset,
    positions: u64,
    tiles: u64,
    /// The level to run next.
    level: u32,
    resolved: u64,
}

/// The same bytes as atomic cells, in the same allocation (no copy).
fn into_atomic(bytes: Vec<u8>) -> Vec<AtomicU8> {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    let (ptr, len, cap) = (bytes.as_mut_ptr(), bytes.len(), bytes.capacity());
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as `u8`
    // (documented by the standard library), so the allocation of a `Vec<u8>`
    // with this pointer, length and capacity is a valid `Vec<AtomicU8>`; the
    // original vector is not dropped (ManuallyDrop), so the allocation has one
    // owner.
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU8>(), len, cap) }
}

/// `count` cells holding 0, from zeroed memory (the operating system's zero
/// pages: nothing is written until a cell is).
fn zeroed_bytes(count: usize) -> Vec<AtomicU8> {
    into_atomic(vec![0u8; count])
}

/// Solves the values of every position of a two-player variant, one byte a
/// position; with `checkpoints`, resumable from its work directory, and with
/// `save`, the solution file written (atomically) before the work directory
/// is removed.
pub fn solve_values(
    graph: &Graph,
    checkpoints: Option<&Checkpoints>,
    save: Option<&Path>,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<(Table, ValuesReport), SolveError> {
    let map = crate::retrograde::tiles_to_solve(graph)?;
    let bound = graph.max_children_bound();
    if bound > COUNTER_MAX as usize {
        return Err(SolveError::TooManyMoves(bound));
    }
    let lock = match checkpoints {
        Some(c) => {
            let lock = lock_work_dir(&c.dir)?;
            if c.dir.join("manifest.json").exists() {
                return Err(SolveError::Checkpoint(format!(
                    "{} holds the checkpoint of a solve with remoteness: run that command \
                     (without --no-remoteness) again to resume it, or remove the directory \
                     to start over",
                    c.dir.display()
                )));
            }
            Some(lock)
        }
        None => None,
    };
    let solved = (|| {
        let n = graph.count();
        let tiles = map.tiles();
        let mut report = ValuesReport {
            resumed_from: None,
            checkpoints: 0,
            levels: 0,
            updates: Vec::new(),
        };
        let found = match checkpoints {
            Some(c) => read_checkpoint(&c.dir.join(CHECKPOINT), graph.rules(), n, tiles.len())?,
            None => None,
        };
        let (cells, marks, mut level, resolved) = match found {
            Some((header, marks, cells)) => {
                report.resumed_from = Some(header.level);
                (cells, marks, header.level, header.resolved)
            }
            None => {
                let cells = zeroed_bytes(n as usize);
                tiles.par_iter().for_each(|tile| {
                    for_each_level_zero(graph, tile, |i, c| {
                        let code = if c & 3 == WIN { WIN_AT[0] } else { LOSE_AT[0] };
                        cells[i as usize].store(code, Relaxed);
                    });
                });
                let resolved = cells
                    .par_iter()
                    .filter(|c| c.load(Relaxed) > COUNTER_MAX)
                    .count() as u64;
                let marks: Vec<AtomicU32> = (0..tiles.len()).map(|_| AtomicU32::new(0)).collect();
                (cells, marks, 0, resolved)
            }
        };
        let resolved = AtomicU64::new(resolved);
        progress(SolveProgress {
            level,
            resolved: resolved.load(Relaxed),
            total: n,
            part: None,
        });
        crate::stop::check()?;
        let period = graph.index().period();
        let mut last_checkpoint = Instant::now();
        loop {
            let here = (level % 2) as usize;
            let next = level + 1;
            // A position of this level updates its parents, then is visited;
            // gives (positions visited, parents updated, parents resolved).
            // `batch`: the caller's buffer for the parents, reused.
            let visit = |(seat, r0, r1): (usize, u64, u64),
                         i: u64,
                         batch: &mut Vec<Parent>|
             -> (u64, u64, u64) {
                let c = &cells[i as usize];
                let v = c.load(Relaxed);
                let child_lost = v == LOSE_AT[here];
                if !child_lost && v != WIN_AT[here] {
                    return (0, 0, 0);
                }
                // The parents are gathered, their cells asked for as they
                // are, then updated: one position's parents at a time, so
                // less work overlaps the misses than in the batches of 64 of
                // `retrograde::solve`.
                batch.clear();
                gather_parents_of_pair(graph, &cells, (seat, r0, r1), child_lost, |p| {
                    batch.push(p)
                });
                let parent_seat = (seat + 1) % period;
                let mut newly = 0u64;
                for p in batch.iter() {
                    let children =
                        || graph.child_count_of_pair(parent_seat, p.r0 as u64, p.r1 as u64);
                    let cell = &cells[p.index as usize];
                    if update_atomic::<OneByte, _>(cell, p.child_lost, next, children)
                        == Updated::Resolved
                    {
                        newly += 1;
                        raise_mark(
                            &marks[map.tile_at(parent_seat, p.r0 as u64, p.r1 as u64)],
                            next,
                        );
                    }
                }
                // Only unresolved cells are ever compared and exchanged, so
                // this store races with nothing.
                c.store(if child_lost { LOSE_DONE } else { WIN_DONE }, Relaxed);
                (1, batch.len() as u64, newly)
            };
            let todo: Vec<&Tile> = tiles
                .iter()
                .zip(&marks)
                .filter(|(_, m)| m.load(Relaxed) == level)
                .map(|(tile, _)| tile)
                .collect();
            let (found, updates, newly) = todo
                .par_iter()
                .map(|tile| {
                    let mut sums = (0u64, 0u64, 0u64);
                    let mut batch = Vec::with_capacity(64);
                    tile.for_each_ranks(|i, r0, r1| {
                        let (f, u, r) = visit((tile.seat, r0, r1), i, &mut batch);
                        sums = (sums.0 + f, sums.1 + u, sums.2 + r);
                    });
                    sums
                })
                .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
            resolved.fetch_add(newly, Relaxed);
            report.updates.push(updates);
            progress(SolveProgress {
                level: next,
                resolved: resolved.load(Relaxed),
                total: n,
                part: None,
            });
            crate::stop::check()?;
            if found == 0 {
                break;
            }
            level = next;
            if let Some(c) = checkpoints {
                if last_checkpoint.elapsed() >= c.every {
                    let header = Header {
                        format: FORMAT,
                        ruleset: graph.rules().clone(),
                        positions: n,
                        tiles: tiles.len() as u64,
                        level,
                        resolved: resolved.load(Relaxed),
                    };
                    write_checkpoint(&c.dir, &header, &marks, &cells)?;
                    report.checkpoints += 1;
                    last_checkpoint = Instant::now();
                }
            }
        }
        report.levels = level;
        let table = into_values(cells);
        if let Some(path) = save {
            crate::file::save_table(graph.rules(), n, Encoding::Values, path, &mut |write| {
                table.for_each_chunk(1 << 20, |bytes| write(bytes))
            })?;
        }
        Ok((table, report))
    })();
    if let Some(c) = checkpoints {
        match &solved {
            Ok(_) => fs::remove_dir_all(&c.dir).map_err(io_error("cannot remove", &c.dir))?,
            // A failure before the first checkpoint leaves nothing to resume
            // from: the directory, holding only the lock, is removed.
            Err(_) if holds_only_the_lock(&c.dir) => {
                let _ = fs::remove_dir_all(&c.dir);
            }
            Err(_) => {}
        }
    }
    drop(lock);
    solved
}

/// The two-bit table of the cells (`Encoding::Values`: 0 draw, 1 win, 2 lose),
/// built in parallel; the cells are released when it is.
fn into_values(cells: Vec<AtomicU8>) -> Table {
    let len = cells.len();
    let code = |c: &AtomicU8| -> u8 {
        match c.load(Relaxed) {
            WIN_DONE | 250 | 252 => 1,
            LOSE_DONE | 251 | 253 => 2,
            _ => 0,
        }
    };
    let packed: Vec<u8> = cells
        .par_chunks(4)
        .with_min_len(4096)
        .map(|four| {
            four.iter()
                .enumerate()
                .fold(0u8, |byte, (j, c)| byte | code(c) << (2 * j))
        })
        .collect();
    drop(cells);
    Table::Values {
        len: len as u64,
        packed,
    }
}

/// Writes the checkpoint: header, marks and cells to a new file beside the last
/// checkpoint, synced, then renamed over it. A write that fails (a full disk)
/// removes the new file, so that it does not keep the disk full.
fn write_checkpoint(
    dir: &Path,
    header: &Header,
    marks: &[AtomicU32],
    cells: &[AtomicU8],
) -> Result<(), SolveError> {
    let written = write_checkpoint_to(dir, header, marks, cells);
    if written.is_err() {
        let _ = fs::remove_file(dir.join(format!("{CHECKPOINT}.new")));
    }
    written
}

fn write_checkpoint_to(
    dir: &Path,
    header: &Header,
    marks: &[AtomicU32],
    cells: &[AtomicU8],
) -> Result<(), SolveError> {
    let path = dir.join(CHECKPOINT);
    let temporary = dir.join(format!("{CHECKPOINT}.new"));
    let file = File::create(&temporary).map_err(io_error("cannot write", &temporary))?;
    let mut out = BufWriter::with_capacity(1 << 22, file);
    let mut crc = crc32fast::Hasher::new();
    let mut put = |bytes: &[u8]| -> Result<(), SolveError> {
        crc.update(bytes);
        out.write_all(bytes)
            .map_err(io_error("cannot write", &temporary))
    };
    let header = serde_json::to_vec(header).map_err(|e| SolveError::Io(e.to_string()))?;
    put(MAGIC)?;
    put(&(header.len() as u64).to_le_bytes())?;
    put(&header)?;
    let mark_bytes: Vec<u8> = marks
        .iter()
        .flat_map(|m| m.load(Relaxed).to_le_bytes())
        .collect();
    put(&mark_bytes)?;
    let mut buf = Vec::with_capacity(1 << 22);
    for chunk in cells.chunks(1 << 22) {
        buf.clear();
        buf.extend(chunk.iter().map(|c| c.load(Relaxed)));
        put(&buf)?;
    }
    let sum = crc.finalize();
    out.write_all(&sum.to_le_bytes())
        .map_err(io_error("cannot write", &temporary))?;
    let file = out
        .into_inner()
        .map_err(|e| SolveError::Io(format!("cannot write {}: {e}", temporary.display())))?;
    file.sync_all()
        .map_err(io_error("cannot write", &temporary))?;
    fs::rename(&temporary, &path).map_err(io_error("cannot rename", &temporary))?;
    // The rename is made durable with the directory.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

type Restored = (Header, Vec<AtomicU32>, Vec<AtomicU8>);

/// Reads the checkpoint at `path`, if there is one, refusing one of another
/// ruleset or a damaged one with a clear error.
fn read_checkpoint(
    path: &Path,
    rules: &Ruleset,
    n: u64,
    tiles: usize,
) -> Result<Option<Restored>, SolveError> {
    // A checkpoint being written when the solve was killed was never renamed:
    // it is removed, the last complete one is used.
    let _ = fs::remove_file(path.with_file_name(format!("{CHECKPOINT}.new")));
    if !path.exists() {
        return Ok(None);
    }
    chopsticks_files::check_regular(path)
        .map_err(|e| SolveError::Io(format!("cannot read {}: {e}", path.display())))?;
    let bad = |why: &str| {
        SolveError::Checkpoint(format!(
            "{} {why}: remove the work directory to start over",
            path.display()
        ))
    };
    let file = File::open(path).map_err(io_error("cannot read", path))?;
    let size = file
        .metadata()
        .map_err(io_error("cannot read", path))?
        .len();
    let mut input = BufReader::with_capacity(1 << 22, file);
    let mut crc = crc32fast::Hasher::new();
    let mut get = |buf: &mut [u8]| -> Result<(), SolveError> {
        input.read_exact(buf).map_err(|_| bad("is truncated"))?;
        crc.update(buf);
        Ok(())
    };
    let mut magic = [0u8; 8];
    get(&mut magic)?;
    if &magic != MAGIC {
        return Err(bad("is not a checkpoint of a solve without remoteness"));
    }
    let mut word = [0u8; 8];
    get(&mut word)?;
    let header_len = u64::from_le_bytes(word);
    if header_len > 1 << 20 {
        return Err(bad("has a damaged header"));
    }
    let mut header = vec![0u8; header_len as usize];
    get(&mut header)?;
    let header: Header =
        serde_json::from_slice(&header).map_err(|_| bad("has a damaged header"))?;
    if header.format != FORMAT {
        return Err(bad(&format!(
            "is of format {}, not {FORMAT}",
            header.format
        )));
    }
    if &header.ruleset != rules || header.positions != n || header.tiles != tiles as u64 {
        return Err(bad("belongs to another ruleset"));
    }
    let expected = 16 + header_len + 4 * tiles as u64 + n + 4;
    if size != expected {
        return Err(bad(&format!(
            "has {size} bytes, not the {expected} its header calls for"
        )));
    }
    let mut mark_bytes = vec![0u8; 4 * tiles];
    get(&mut mark_bytes)?;
    let marks: Vec<AtomicU32> = mark_bytes
        .chunks_exact(4)
        .map(|b| AtomicU32::new(u32::from_le_bytes(b.try_into().expect("4 bytes"))))
        .collect();
    let mut cells: Vec<u8> = vec![0u8; n as usize];
    for chunk in cells.chunks_mut(1 << 22) {
        get(chunk)?;
    }
    let mut sum = [0u8; 4];
    input
        .read_exact(&mut sum)
        .map_err(|_| bad("is truncated"))?;
    if crc.finalize() != u32::from_le_bytes(sum) {
        return Err(bad("is damaged (its checksum does not match)"));
    }
    Ok(Some((header, marks, into_atomic(cells))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_bytes_are_zero_and_writable() {
        let cells = zeroed_bytes(100_003);
        assert_eq!(cells.len(), 100_003);
        assert!(cells.iter().all(|c| c.load(Relaxed) == 0));
        cells[100_002].store(7, Relaxed);
        assert_eq!(cells[100_002].load(Relaxed), 7);
    }

    #[test]
    fn the_codes_are_distinct_and_above_every_counter() {
        let codes = [
            WIN_AT[0], WIN_AT[1], LOSE_AT[0], LOSE_AT[1], WIN_DONE, LOSE_DONE,
        ];
        for (k, a) in codes.iter().enumerate() {
            assert!(*a > COUNTER_MAX);
            assert!(codes[k + 1..].iter().all(|b| b != a));
        }
    }
}
