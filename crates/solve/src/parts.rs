//! The two-player retrograde solve over parts of the index, in memory or out
//! of core, resumable from checkpoints.
//!
//! **The model.** The level-by-level analysis of [`crate::retrograde`] (its
//! cells, counters and tiles) runs over *parts*: consecutive ranges of the
//! index made of whole rows of tiles. When the cells of every part fit in the
//! memory allowed, there is one part and every update is made in place: this
//! is the in-memory solver. When they do not, the parts live in files in a work
//! directory and one part at a time is in memory. A position of the part in
//! memory resolved at level `k` updates its parents there directly; a parent in
//! another part is *spooled*: appended to that part's spool file as
//! `(index, level of the update, win or count down)`. When a part is next
//! loaded, its spool is applied first. An update resolves a parent at level
//! `k + 1` whenever it is applied, before that parent's level is visited, and
//! the order of the updates of one level never mattered (see
//! [`crate::retrograde`]), so the table is the in-memory solver's, bit for bit.
//!
//! A *pass* handles one level: every part that has positions of that level or
//! a spool waiting is loaded, has its spool applied, visits its positions of
//! the level and is written back. An update for a part later in the pass goes
//! to the spool that part reads in this pass; for a part already done, to the
//! one it reads in the next pass. The solve ends after a pass that visited no
//! position. The parts are then turned into the solution file one by one.
//!
//! **Checkpoints.** Nothing is ever overwritten: a part written in pass `k` is
//! a new file (`part-I-K.cells`), spools are only appended to, and a manifest
//! (`manifest.json`, replaced atomically) names the part files, the length of
//! every spool and the tiles' marks at the start of a pass. A solve killed at
//! any moment and started again with the same work directory goes back to the
//! last manifest: it removes the files written after it, cuts the spools back
//! to the recorded lengths and runs the pass again, so the result is the same
//! as without the interruption. Out of core every pass ends with a manifest;
//! in memory the cells are written out when `checkpoint_every` has passed since
//! the last one. Part files and the marks carry a CRC-32 in the manifest, so a
//! damaged checkpoint is refused rather than resumed from.

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chopsticks_rules::Ruleset;
use chopsticks_space::{Graph, Tile, TileMap};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::retrograde::{
    cell, for_each_level_zero, narrow_cell, wide_cell, zeroed_cells, TwoBytes, LOSE, MAX_LEVEL, WIN,
};
use crate::table::Encoding;
use crate::update::{update_atomic, Updated};
use crate::{SolveError, SolveProgress};

/// How a solve may use the disk.
#[derive(Clone, Debug)]
pub struct DiskPlan {
    /// The work directory: parts, spools, the manifest. Created if missing; a
    /// manifest found there is resumed from.
    pub dir: PathBuf,
    /// Bytes of working cells allowed in memory at once (two per position).
    pub cell_bytes: u64,
    /// Bytes allowed for the spools' buffers, all together: each of the `2 k`
    /// spools of a pass (for `k` parts) buffers at most its share (between
    /// 4 KiB and [`SPOOL_BATCH`]) before writing. Only used out of core.
    pub spool_bytes: u64,
    /// In memory: write a checkpoint when this long has passed since the last
    /// (`None`: never). Out of core every pass is a checkpoint.
    pub checkpoint_every: Option<Duration>,
}

/// How a solve went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskReport {
    /// Parts of the index (1: in memory).
    pub parts: usize,
    /// The pass a previous run's checkpoint resumed from, if one did.
    pub resumed_from: Option<u32>,
    /// Checkpoints written.
    pub checkpoints: u32,
    /// Bytes spooled to other parts.
    pub spooled_bytes: u64,
    /// Out of core: how many times a part loaded in a pass had no cell changed
    /// and kept its file instead of being written again.
    pub kept_files: u64,
}

/// Update kinds in a spool entry: the child was lost (the parent wins), or won
/// (the parent counts down).
const CHILD_LOST: u64 = 0;
const CHILD_WON: u64 = 1;

#[inline]
fn entry(parent: u64, next: u32, kind: u64) -> u64 {
    parent << 16 | (next as u64) << 1 | kind
}

/// The manifest of a checkpoint (see the module documentation).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Manifest {
    format: u32,
    ruleset: Ruleset,
    positions: u64,
    /// `(first index, positions)` of every part.
    parts: Vec<(u64, u64)>,
    /// The pass (level) to run next.
    pass: u32,
    resolved: u64,
    /// The pass after which each part's file was written, and its CRC-32.
    part_files: Vec<(u32, u32)>,
    /// Bytes of the spool each part reads in `pass`, and their CRC-32.
    spools: Vec<(u64, u32)>,
    /// CRC-32 of the marks file of `pass`.
    marks_crc: u32,
}

const MANIFEST_FORMAT: u32 = 1;

pub(crate) fn io_error(what: &str, path: &Path) -> impl Fn(std::io::Error) -> SolveError {
    let what = format!("{what} {}", path.display());
    move |e| SolveError::Io(format!("{what}: {e}"))
}

/// The parts of the index for cells of at most `cell_bytes` in memory: whole
/// rows of tiles, in index order, as few parts as fit.
fn plan_parts(map: &TileMap, count: u64, cell_bytes: u64) -> Vec<(u64, u64)> {
    let most = (cell_bytes / 2).max(1);
    if count <= most {
        return vec![(0, count)];
    }
    let mut parts: Vec<(u64, u64)> = Vec::new();
    for (first, len) in map.rows() {
        match parts.last_mut() {
            Some(last) if last.1 + len <= most => last.1 += len,
            _ => parts.push((first, len)),
        }
    }
    parts
}

/// Where the files of a work directory are.
struct WorkDir {
    dir: PathBuf,
}

impl WorkDir {
    fn manifest(&self) -> PathBuf {
        self.dir.join("manifest.json")
    }
    fn part(&self, part: usize, pass: u32) -> PathBuf {
        self.dir.join(format!("part-{part}-{pass}.cells"))
    }
    fn spool(&self, part: usize, pass: u32) -> PathBuf {
        self.dir.join(format!("spool-{part}-{pass}.bin"))
    }
    fn marks(&self, pass: u32) -> PathBuf {
        self.dir.join(format!("marks-{pass}.bin"))
    }
}

/// The error of a damaged checkpoint file.
fn damaged(path: &Path) -> SolveError {
    SolveError::Checkpoint(format!(
        "{} is damaged (its checksum does not match the manifest's): remove the work directory to start over",
        path.display()
    ))
}

/// Writes `cells` to `path` (little-endian), returning their CRC-32; a write
/// that fails (a full disk) removes what it wrote, so that no half-written
/// file keeps the disk full.
fn write_cells(path: &Path, cells: &[AtomicU16]) -> Result<u32, SolveError> {
    let written = write_cells_to(path, cells);
    if written.is_err() {
        let _ = std::fs::remove_file(path);
    }
    written
}

fn write_cells_to(path: &Path, cells: &[AtomicU16]) -> Result<u32, SolveError> {
    let mut crc = crc32fast::Hasher::new();
    let file = File::create(path).map_err(io_error("cannot write", path))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut buf = Vec::with_capacity(1 << 20);
    for chunk in cells.chunks(1 << 19) {
        buf.clear();
        buf.extend(chunk.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()));
        crc.update(&buf);
        out.write_all(&buf)
            .map_err(io_error("cannot write", path))?;
    }
    let file = out
        .into_inner()
        .map_err(|e| io_error("cannot write", path)(e.into_error()))?;
    file.sync_all().map_err(io_error("cannot write", path))?;
    Ok(crc.finalize())
}

/// Reads a file of `len` little-endian 16-bit cells in pieces of whole cells,
/// giving each piece's bytes to `f`, and returns the CRC-32 of the file; a file
/// of another size is refused with `size_error(its size)`. I/O errors say
/// `cannot {what}`.
fn read_cell_file(
    path: &Path,
    len: u64,
    what: &str,
    size_error: impl FnOnce(u64) -> SolveError,
    mut f: impl FnMut(&[u8]) -> Result<(), SolveError>,
) -> Result<u32, SolveError> {
    // A FIFO or a device is refused before it is opened (opening a FIFO blocks).
    chopsticks_files::check_regular(path)
        .map_err(|e| SolveError::Io(format!("{what} {}: {e}", path.display())))?;
    let file = File::open(path).map_err(io_error(what, path))?;
    let size = file.metadata().map_err(io_error(what, path))?.len();
    if size != 2 * len {
        return Err(size_error(size));
    }
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut hasher = crc32fast::Hasher::new();
    let mut bytes = vec![0u8; 1 << 20];
    let mut left = 2 * len;
    while left > 0 {
        let n = (bytes.len() as u64).min(left) as usize;
        input
            .read_exact(&mut bytes[..n])
            .map_err(io_error(what, path))?;
        left -= n as u64;
        hasher.update(&bytes[..n]);
        f(&bytes[..n])?;
    }
    Ok(hasher.finalize())
}

/// The cells in little-endian bytes.
fn cells_of(bytes: &[u8]) -> impl Iterator<Item = u16> + '_ {
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
}

/// Appends the table codes of working cells in `encoding` (narrow or wide) to
/// `buf`.
fn encode_cells(encoding: Encoding, cells: impl Iterator<Item = u16>, buf: &mut Vec<u8>) {
    match encoding {
        Encoding::Narrow => buf.extend(cells.map(narrow_cell)),
        _ => buf.extend(cells.flat_map(|c| wide_cell(c).to_le_bytes())),
    }
}

/// Reads the cells of a part back, checking their CRC-32.
fn read_cells(path: &Path, len: u64, crc: u32) -> Result<Vec<AtomicU16>, SolveError> {
    let cells = zeroed_cells(len as usize);
    let mut next = 0;
    let size_error = |size: u64| {
        SolveError::Checkpoint(format!(
            "{}: {size} bytes, but the part holds {len} positions",
            path.display()
        ))
    };
    let read = read_cell_file(
        path,
        len,
        "cannot read the checkpoint",
        size_error,
        |bytes| {
            for v in cells_of(bytes) {
                cells[next].store(v, Relaxed);
                next += 1;
            }
            Ok(())
        },
    )?;
    if read != crc {
        return Err(damaged(path));
    }
    Ok(cells)
}

fn marks_bytes(marks: &[Vec<AtomicU32>; 2]) -> Vec<u8> {
    marks
        .iter()
        .flatten()
        .flat_map(|m| m.load(Relaxed).to_le_bytes())
        .collect()
}

/// A spool being appended to: entries gathered in memory (little-endian
/// bytes, at most `batch` of them), written in batches.
struct Spool {
    path: PathBuf,
    pending: Vec<u8>,
    /// Bytes buffered at most before they are written.
    batch: usize,
    written: u64,
    /// The CRC-32 of what this spool wrote (from an empty file).
    crc: crc32fast::Hasher,
}

impl Spool {
    fn new(path: PathBuf, written: u64, batch: usize) -> Spool {
        Spool {
            path,
            pending: Vec::new(),
            batch,
            written,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// Appends `entries`, writing the buffer whenever it would hold more than
    /// a batch: the buffer never grows past `batch` bytes.
    fn append(&mut self, entries: &[u64]) -> Result<(), SolveError> {
        for piece in entries.chunks(self.batch / 8) {
            if self.pending.len() + 8 * piece.len() > self.batch {
                self.flush()?;
            }
            if self.pending.capacity() < self.batch {
                self.pending.reserve_exact(self.batch - self.pending.len());
            }
            self.pending
                .extend(piece.iter().flat_map(|e| e.to_le_bytes()));
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), SolveError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(io_error("cannot write", &self.path))?;
        file.write_all(&self.pending)
            .map_err(io_error("cannot write", &self.path))?;
        self.crc.update(&self.pending);
        self.written += self.pending.len() as u64;
        self.pending.clear();
        Ok(())
    }
}

/// The most bytes one spool buffers in memory before writing them (64 Ki
/// entries); less when [`DiskPlan::spool_bytes`] shared between the spools
/// gives less.
pub const SPOOL_BATCH: usize = 8 << 16;

/// The bytes each of the `2 parts` spools of a pass buffers at most, within
/// `spool_bytes` in all: a whole number of entries, from 4 KiB to
/// [`SPOOL_BATCH`].
fn spool_batch(spool_bytes: u64, parts: usize) -> usize {
    let share = spool_bytes / (2 * parts.max(1) as u64);
    (share.clamp(4 << 10, SPOOL_BATCH as u64) as usize) / 8 * 8
}

/// The solve's state: parts, the cells of those in memory, the tiles' marks.
struct State<'g> {
    graph: &'g Graph,
    map: TileMap,
    parts: Vec<(u64, u64)>,
    /// For each part, its tiles (indices into `map.tiles()`).
    part_tiles: Vec<std::ops::Range<usize>>,
    cells: Vec<Option<Vec<AtomicU16>>>,
    /// Per tile and level parity: the last level `L` (of parity `L % 2`) at
    /// which a position of the tile was resolved. Out of core a part applies
    /// its spool, which may resolve positions at `k + 1`, before it visits
    /// level `k`: one mark per parity keeps both levels' tiles known (a single
    /// "last level" would forget the tile's level-`k` positions).
    marks: [Vec<AtomicU32>; 2],
    resolved: AtomicU64,
    /// Per part: whether a cell of it changed since the part was loaded. A part
    /// whose cells did not change keeps its file instead of being written again.
    changed: Vec<AtomicBool>,
}

impl State<'_> {
    #[inline]
    fn part_of(&self, i: u64) -> usize {
        if self.parts.len() == 1 {
            return 0;
        }
        self.parts.partition_point(|&(first, _)| first <= i) - 1
    }

    /// Applies one update to a parent whose cell is in memory: the child was lost
    /// (the parent wins at `next`) or won (the parent counts down, losing at
    /// `next` when none is left). Whether the parent was resolved by it.
    #[inline]
    fn update(&self, part: usize, c: &AtomicU16, p: u64, kind: u64, next: u32) -> bool {
        let children = || self.graph.child_count(p);
        let what = update_atomic::<TwoBytes, _>(c, kind == CHILD_LOST, next, children);
        if what != Updated::Unchanged && !self.changed[part].load(Relaxed) {
            self.changed[part].store(true, Relaxed);
        }
        if what == Updated::Resolved {
            self.resolved.fetch_add(1, Relaxed);
            self.marks[(next % 2) as usize][self.map.tile_of(p)].store(next, Relaxed);
        }
        what == Updated::Resolved
    }

    /// Visits the tiles of part `part` marked with `level`: every position
    /// resolved at `level` updates its parents, in memory or through
    /// `spooled(part, entry)`. Returns the number of positions visited.
    fn visit(&self, part: usize, level: u32, spooled: &(dyn Fn(usize, &[u64]) + Sync)) -> u64 {
        let win_here = cell(WIN, level);
        let lose_here = cell(LOSE, level);
        let next = level + 1;
        let tiles = &self.map.tiles()[self.part_tiles[part].clone()];
        let marks = &self.marks[(level % 2) as usize][self.part_tiles[part].clone()];
        // Chosen before any tile is visited (visits mark tiles for `next`).
        let todo: Vec<&Tile> = tiles
            .iter()
            .zip(marks)
            .filter(|(_, m)| m.load(Relaxed) == level)
            .map(|(tile, _)| tile)
            .collect();
        let (first, _) = self.parts[part];
        let cells = self.cells[part]
            .as_ref()
            .expect("the part visited is in memory");
        todo.par_iter()
            .map(|tile| {
                let mut found = 0u64;
                let mut away: Vec<(usize, u64)> = Vec::new();
                tile.for_each(|i| {
                    let v = cells[(i - first) as usize].load(Relaxed);
                    let kind = if v == lose_here {
                        CHILD_LOST
                    } else if v == win_here {
                        CHILD_WON
                    } else {
                        return;
                    };
                    found += 1;
                    self.graph.for_each_parent(i, |p| {
                        let j = self.part_of(p);
                        match &self.cells[j] {
                            Some(c) => {
                                self.update(j, &c[(p - self.parts[j].0) as usize], p, kind, next);
                            }
                            None => away.push((j, entry(p, next, kind))),
                        }
                    });
                });
                if !away.is_empty() {
                    away.sort_unstable_by_key(|&(j, _)| j);
                    for run in away.chunk_by(|a, b| a.0 == b.0) {
                        let entries: Vec<u64> = run.iter().map(|&(_, e)| e).collect();
                        spooled(run[0].0, &entries);
                    }
                }
                found
            })
            .sum()
    }

    /// Applies the entries of a spool file (its first `len` bytes) to part
    /// `part`, which is in memory.
    fn apply_spool(&self, part: usize, path: &Path, len: u64) -> Result<(), SolveError> {
        if len == 0 {
            return Ok(());
        }
        let (first, size) = self.parts[part];
        let cells = self.cells[part].as_ref().expect("in memory");
        chopsticks_files::check_regular(path).map_err(|e| SolveError::Checkpoint(e.to_string()))?;
        let file = File::open(path).map_err(io_error("cannot read the spool", path))?;
        let mut input = BufReader::with_capacity(1 << 20, file.take(len));
        let mut buf = vec![0u8; 8 << 16];
        let mut left = len;
        while left > 0 {
            let n = (buf.len() as u64).min(left) as usize;
            input
                .read_exact(&mut buf[..n])
                .map_err(io_error("cannot read the spool", path))?;
            left -= n as u64;
            let bad = buf[..n].par_chunks_exact(8).any(|b| {
                let e = u64::from_le_bytes(b.try_into().expect("8 bytes"));
                let (p, next, kind) = (e >> 16, ((e >> 1) & 0x7FFF) as u32, e & 1);
                if p < first || p >= first + size || next == 0 || next > MAX_LEVEL {
                    return true;
                }
                self.update(part, &cells[(p - first) as usize], p, kind, next);
                false
            });
            if bad {
                return Err(SolveError::Checkpoint(format!(
                    "{}: an entry for a position outside its part",
                    path.display()
                )));
            }
        }
        Ok(())
    }
}

/// Solves every position of a two-player variant with the cells of at most
/// `plan.cell_bytes` in memory at once, checkpointing into `plan.dir` and
/// resuming from a checkpoint found there, and writes the solution to `out`
/// (see [`crate::file`]); the work directory is removed when it is written.
pub fn solve_to_file(
    graph: &Graph,
    plan: &DiskPlan,
    out: &Path,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<DiskReport, SolveError> {
    let rules = graph.rules();
    let map = crate::retrograde::tiles_to_solve(graph)?;
    let n = graph.count();
    let work = WorkDir {
        dir: plan.dir.clone(),
    };
    let lock = lock_work_dir(&work.dir)?;
    if work.dir.join(crate::compact::CHECKPOINT).exists() {
        return Err(SolveError::Checkpoint(format!(
            "{} holds the checkpoint of a solve without remoteness (--no-remoteness): run that \
             command again to resume it, or remove the directory to start over",
            work.dir.display()
        )));
    }
    // A failure before the first checkpoint (a full disk at the final save)
    // leaves nothing to resume from: the directory, holding only the lock, is
    // removed rather than left behind.
    let solved = (|| -> Result<DiskReport, SolveError> {
        let found_manifest = read_manifest(&work, rules, n)?;
        let parts = match &found_manifest {
            Some(m) => m.parts.clone(),
            None => plan_parts(&map, n, plan.cell_bytes),
        };
        let part_tiles = tiles_of_parts(&map, &parts);
        let mut state = State {
            graph,
            marks: [0, u32::MAX].map(|start| {
                (0..map.tiles().len())
                    .map(|_| AtomicU32::new(start))
                    .collect()
            }),
            cells: parts.iter().map(|_| None).collect(),
            changed: parts.iter().map(|_| AtomicBool::new(false)).collect(),
            map,
            parts,
            part_tiles,
            resolved: AtomicU64::new(0),
        };
        let k = state.parts.len();
        let in_memory = k == 1;
        let batch = spool_batch(plan.spool_bytes, k);
        let mut report = DiskReport {
            parts: k,
            resumed_from: None,
            checkpoints: 0,
            spooled_bytes: 0,
            kept_files: 0,
        };
        // Where each part's cells are on disk: (pass written after, CRC).
        let mut part_files: Vec<Option<(u32, u32)>> = vec![None; k];
        let mut spool_lens: Vec<(u64, u32)> = vec![(0, 0); k];
        let mut level = 0u32;
        match found_manifest {
            Some(m) => {
                restore(&work, &m, &mut state)?;
                level = m.pass;
                part_files = m.part_files.iter().map(|&f| Some(f)).collect();
                spool_lens = m.spools.clone();
                report.resumed_from = Some(m.pass);
                if in_memory {
                    let (pass, crc) = m.part_files[0];
                    state.cells[0] = Some(read_cells(&work.part(0, pass), n, crc)?);
                }
            }
            None => {
                // Level 0, part by part (the marks start at 0: every tile is visited
                // at level 0).
                for (part, file) in part_files.iter_mut().enumerate() {
                    let cells = set_up(&state, part);
                    if in_memory {
                        state.cells[part] = Some(cells);
                    } else {
                        *file = Some((0, write_cells(&work.part(part, 0), &cells)?));
                    }
                    progress(SolveProgress {
                        level: 0,
                        resolved: state.resolved.load(Relaxed),
                        total: n,
                        part: (!in_memory).then_some((part + 1, k)),
                    });
                    crate::stop::check()?;
                }
                if !in_memory {
                    commit(&work, &state, 0, &part_files, &spool_lens)?;
                    report.checkpoints += 1;
                }
            }
        }
        let mut last_checkpoint = Instant::now();
        loop {
            let next = level + 1;
            if next > MAX_LEVEL {
                return Err(SolveError::Remoteness(next));
            }
            // Spools appended to in this pass: read in this pass (later parts) or
            // in the next (earlier parts).
            let spools: Vec<Mutex<Spool>> = (0..k)
                .map(|j| Mutex::new(Spool::new(work.spool(j, level), spool_lens[j].0, batch)))
                .collect();
            let later: Vec<Mutex<Spool>> = (0..k)
                .map(|j| Mutex::new(Spool::new(work.spool(j, next), 0, batch)))
                .collect();
            let failure: Mutex<Option<SolveError>> = Mutex::new(None);
            let mut found = 0u64;
            for part in 0..k {
                let has_level = state.marks[(level % 2) as usize][state.part_tiles[part].clone()]
                    .iter()
                    .any(|m| m.load(Relaxed) == level);
                let pending = {
                    let mut s = spools[part].lock().expect("spool");
                    s.flush()?;
                    s.written
                };
                if !in_memory {
                    if !has_level && pending == 0 {
                        continue;
                    }
                    let (pass, crc) = part_files[part].expect("every part is on disk");
                    let (_, len) = state.parts[part];
                    state.cells[part] = Some(read_cells(&work.part(part, pass), len, crc)?);
                    state.changed[part].store(false, Relaxed);
                    state.apply_spool(part, &work.spool(part, level), pending)?;
                }
                let spooled = |j: usize, entries: &[u64]| {
                    let target = if j > part { &spools[j] } else { &later[j] };
                    let mut s = target.lock().expect("spool");
                    if let Err(e) = s.append(entries) {
                        failure.lock().expect("failure").get_or_insert(e);
                    }
                };
                found += state.visit(part, level, &spooled);
                if let Some(e) = failure.lock().expect("failure").take() {
                    return Err(e);
                }
                if !in_memory {
                    let cells = state.cells[part].take().expect("loaded");
                    if state.changed[part].load(Relaxed) {
                        part_files[part] =
                            Some((next, write_cells(&work.part(part, next), &cells)?));
                    } else {
                        // Nothing changed: the file it was read from stays its file.
                        report.kept_files += 1;
                    }
                }
                progress(SolveProgress {
                    level,
                    resolved: state.resolved.load(Relaxed),
                    total: n,
                    part: (!in_memory).then_some((part + 1, k)),
                });
                crate::stop::check()?;
            }
            for s in later.iter() {
                s.lock().expect("spool").flush()?;
            }
            report.spooled_bytes += spools
                .iter()
                .zip(&spool_lens)
                .map(|(s, &(before, _))| s.lock().expect("spool").written - before)
                .sum::<u64>()
                + later
                    .iter()
                    .map(|s| s.lock().expect("spool").written)
                    .sum::<u64>();
            spool_lens = later
                .iter()
                .map(|s| {
                    let s = s.lock().expect("spool");
                    (s.written, s.crc.clone().finalize())
                })
                .collect();
            progress(SolveProgress {
                level: next,
                resolved: state.resolved.load(Relaxed),
                total: n,
                part: None,
            });
            crate::stop::check()?;
            if found == 0 {
                break;
            }
            level = next;
            let due = plan
                .checkpoint_every
                .is_some_and(|every| last_checkpoint.elapsed() >= every);
            if in_memory && due {
                let cells = state.cells[0].as_ref().expect("in memory");
                part_files[0] = Some((level, write_cells(&work.part(0, level), cells)?));
            }
            if !in_memory || due {
                commit(&work, &state, level, &part_files, &spool_lens)?;
                report.checkpoints += 1;
                last_checkpoint = Instant::now();
            }
        }
        let encoding = Encoding::for_remoteness(level.saturating_sub(1));
        crate::file::save_table(rules, n, encoding, out, &mut |write| {
            for (part, file) in part_files.iter().enumerate() {
                let cells = match state.cells[part].take() {
                    Some(cells) => cells,
                    None => {
                        let (pass, crc) = file.expect("on disk");
                        read_cells(&work.part(part, pass), state.parts[part].1, crc)?
                    }
                };
                let mut buf = Vec::with_capacity(1 << 20);
                for chunk in cells.chunks(1 << 19) {
                    buf.clear();
                    encode_cells(encoding, chunk.iter().map(|c| c.load(Relaxed)), &mut buf);
                    write(&buf)?;
                }
            }
            Ok(())
        })?;
        Ok(report)
    })();
    let report = match solved {
        Ok(report) => report,
        Err(e) => {
            if holds_only_the_lock(&work.dir) {
                let _ = fs::remove_dir_all(&work.dir);
            }
            return Err(e);
        }
    };
    fs::remove_dir_all(&work.dir).map_err(io_error("cannot remove", &work.dir))?;
    drop(lock);
    Ok(report)
}

/// Creates the work directory `dir` if needed and takes its lock: one solve at
/// a time in a work directory. The lock is advisory, held by the returned file
/// and released by the operating system however the process ends.
pub fn lock_work_dir(dir: &Path) -> Result<File, SolveError> {
    fs::create_dir_all(dir).map_err(io_error("cannot create", dir))?;
    let lock_path = dir.join("lock");
    let lock = File::create(&lock_path).map_err(io_error("cannot create", &lock_path))?;
    if let Err(e) = lock.try_lock() {
        return Err(match e {
            fs::TryLockError::WouldBlock => SolveError::Checkpoint(format!(
                "{} is in use by another solve of the same file; wait for it to end",
                dir.display()
            )),
            fs::TryLockError::Error(e) => io_error("cannot lock", &lock_path)(e),
        });
    }
    Ok(lock)
}

/// Whether a work directory holds nothing but its lock (no checkpoint).
pub(crate) fn holds_only_the_lock(dir: &Path) -> bool {
    fs::read_dir(dir)
        .is_ok_and(|entries| entries.flatten().all(|entry| entry.file_name() == "lock"))
}

/// The tiles of each part (parts are whole rows of tiles).
fn tiles_of_parts(map: &TileMap, parts: &[(u64, u64)]) -> Vec<std::ops::Range<usize>> {
    parts
        .iter()
        .map(|&(first, len)| map.tiles_in(first, len))
        .collect()
}

/// Level 0 of one part: its finished positions and those with no move.
fn set_up(state: &State, part: usize) -> Vec<AtomicU16> {
    let (first, len) = state.parts[part];
    let cells = zeroed_cells(len as usize);
    let graph = state.graph;
    let found: u64 = state.map.tiles()[state.part_tiles[part].clone()]
        .par_iter()
        .map(|tile| {
            let mut found = 0;
            for_each_level_zero(graph, tile, |i, c| {
                cells[(i - first) as usize].store(c, Relaxed);
                found += 1;
            });
            found
        })
        .sum();
    state.resolved.fetch_add(found, Relaxed);
    cells
}

/// Writes the marks and the manifest of the start of pass `pass`, then removes
/// what no manifest names any more.
fn commit(
    work: &WorkDir,
    state: &State,
    pass: u32,
    part_files: &[Option<(u32, u32)>],
    spools: &[(u64, u32)],
) -> Result<(), SolveError> {
    let marks = marks_bytes(&state.marks);
    let marks_path = work.marks(pass);
    chopsticks_files::write_atomically(&marks_path, &marks)?;
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        ruleset: state.graph.rules().clone(),
        positions: state.graph.count(),
        parts: state.parts.clone(),
        pass,
        resolved: state.resolved.load(Relaxed),
        part_files: part_files
            .iter()
            .map(|f| f.expect("every part written"))
            .collect(),
        spools: spools.to_vec(),
        marks_crc: crc32fast::hash(&marks),
    };
    let text = serde_json::to_vec_pretty(&manifest).expect("the manifest serialises");
    chopsticks_files::write_atomically(&work.manifest(), &text)?;
    clean(work, &manifest)
}

/// Removes the files of the work directory that the manifest does not name:
/// parts of other passes, spools of earlier passes, marks of other passes.
fn clean(work: &WorkDir, manifest: &Manifest) -> Result<(), SolveError> {
    let entries = fs::read_dir(&work.dir).map_err(io_error("cannot read", &work.dir))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let keep = if name == "manifest.json" {
            true
        } else if let Some(rest) = name.strip_prefix("part-") {
            manifest
                .part_files
                .iter()
                .enumerate()
                .any(|(i, (pass, _))| rest == format!("{i}-{pass}.cells"))
        } else if let Some(rest) = name.strip_prefix("spool-") {
            (0..manifest.parts.len()).any(|i| rest == format!("{i}-{}.bin", manifest.pass))
        } else if let Some(rest) = name.strip_prefix("marks-") {
            rest == format!("{}.bin", manifest.pass)
        } else {
            true // not ours: left alone
        };
        if !keep {
            fs::remove_file(entry.path()).map_err(io_error("cannot remove", &entry.path()))?;
        }
    }
    Ok(())
}

/// The largest manifest read (a few bytes per tile and part).
const MAX_MANIFEST: u64 = 256 << 20;

/// The manifest of the work directory, if there is one, checked against the
/// solve asked for.
fn read_manifest(work: &WorkDir, rules: &Ruleset, n: u64) -> Result<Option<Manifest>, SolveError> {
    let path = work.manifest();
    if !path.exists() && path.symlink_metadata().is_err() {
        return Ok(None);
    }
    let text = chopsticks_files::read_bounded(&path, MAX_MANIFEST, "a manifest")
        .map_err(|e| SolveError::Checkpoint(e.to_string()))?;
    decode_manifest(&text, &path, &work.dir, rules, n).map(Some)
}

/// Reads the bytes of a checkpoint's manifest and checks it against the solve
/// of `rules` and its `n` positions: what resuming from a work directory
/// believes of it (the files it names are checked against their checksums when
/// read). For the fuzz target of the file readers.
pub fn check_manifest(bytes: &[u8], rules: &Ruleset, n: u64) -> Result<(), SolveError> {
    let path = Path::new("manifest.json");
    decode_manifest(bytes, path, Path::new("."), rules, n).map(|_| ())
}

fn decode_manifest(
    text: &[u8],
    path: &Path,
    dir: &Path,
    rules: &Ruleset,
    n: u64,
) -> Result<Manifest, SolveError> {
    let m: Manifest = serde_json::from_slice(text).map_err(|e| {
        SolveError::Checkpoint(format!("{}: not a readable manifest: {e}", path.display()))
    })?;
    if m.format != MANIFEST_FORMAT {
        return Err(SolveError::Checkpoint(format!(
            "{}: manifest format {}, this program reads {MANIFEST_FORMAT}",
            path.display(),
            m.format
        )));
    }
    if &m.ruleset != rules || m.positions != n {
        return Err(SolveError::Checkpoint(format!(
            "{} holds a solve of {}, not of {}: remove it to start over",
            dir.display(),
            m.ruleset.describe(),
            rules.describe()
        )));
    }
    // Sums of forged numbers may overflow: checked.
    let end = |p: &(u64, u64)| p.0.checked_add(p.1);
    let covered = m.parts.windows(2).all(|w| end(&w[0]) == Some(w[1].0))
        && m.parts.first().is_some_and(|p| p.0 == 0)
        && m.parts.last().is_some_and(|p| end(p) == Some(n))
        && m.part_files.len() == m.parts.len()
        && m.spools.len() == m.parts.len();
    if !covered {
        return Err(SolveError::Checkpoint(format!(
            "{}: the parts do not cover the index",
            path.display()
        )));
    }
    Ok(m)
}

/// Brings the work directory back to the manifest (files written after it are
/// removed, spools cut back) and the state to its pass.
fn restore(work: &WorkDir, m: &Manifest, state: &mut State) -> Result<(), SolveError> {
    clean(work, m)?;
    for (j, &(len, crc)) in m.spools.iter().enumerate() {
        let path = work.spool(j, m.pass);
        match OpenOptions::new().read(true).write(true).open(&path) {
            Ok(mut file) => {
                let size = file
                    .metadata()
                    .map_err(io_error("cannot read", &path))?
                    .len();
                if size < len {
                    return Err(SolveError::Checkpoint(format!(
                        "{} is shorter than its manifest says",
                        path.display()
                    )));
                }
                file.set_len(len)
                    .map_err(io_error("cannot cut back", &path))?;
                // Checked a piece at a time: a spool may be larger than memory.
                let mut hasher = crc32fast::Hasher::new();
                let mut piece = vec![0u8; 1 << 16];
                loop {
                    let n = file
                        .read(&mut piece)
                        .map_err(io_error("cannot read the checkpoint", &path))?;
                    if n == 0 {
                        break;
                    }
                    hasher.update(&piece[..n]);
                }
                if hasher.finalize() != crc {
                    return Err(damaged(&path));
                }
            }
            Err(_) if len == 0 => {}
            Err(e) => return Err(io_error("cannot open", &path)(e)),
        }
    }
    let marks_path = work.marks(m.pass);
    let tiles = state.marks[0].len();
    // A regular file of the size the tiles give, read no further (never a FIFO
    // waited on, nor a device read without end).
    chopsticks_files::check_regular(&marks_path)
        .map_err(|e| SolveError::Checkpoint(e.to_string()))?;
    let mut bytes = Vec::new();
    File::open(&marks_path)
        .and_then(|f| f.take(2 * tiles as u64 * 4 + 1).read_to_end(&mut bytes))
        .map_err(io_error("cannot read the checkpoint", &marks_path))?;
    if bytes.len() != 2 * tiles * 4 || crc32fast::hash(&bytes) != m.marks_crc {
        return Err(damaged(&marks_path));
    }
    for (mark, b) in state.marks.iter().flatten().zip(bytes.chunks_exact(4)) {
        mark.store(u32::from_le_bytes(b.try_into().expect("4 bytes")), Relaxed);
    }
    state.resolved.store(m.resolved, Relaxed);
    Ok(())
}

/// Writes the solution file of a two-player ruleset from working cells kept in
/// files, little-endian 16-bit cells of consecutive ranges of the index in
/// order (what the distributed solver's workers leave): `files` are the paths
/// with their numbers of positions and the CRC-32 of their bytes (checked:
/// nothing is saved from a damaged file), `max_remoteness` the largest
/// remoteness in them (it chooses the encoding).
pub fn save_from_cell_files(
    rules: &Ruleset,
    files: &[(PathBuf, u64, u32)],
    max_remoteness: u32,
    out: &Path,
) -> Result<(), SolveError> {
    let entries: u64 = files.iter().map(|(_, n, _)| n).sum();
    let count = chopsticks_rules::PositionIndex::new(rules)?.count();
    if entries != count {
        return Err(SolveError::Io(format!(
            "the cell files hold {entries} positions, the ruleset has {count}"
        )));
    }
    let encoding = Encoding::for_remoteness(max_remoteness);
    crate::file::save_table(rules, entries, encoding, out, &mut |write| {
        let mut buf = Vec::with_capacity(1 << 20);
        for (path, len, crc) in files {
            let size_error = |size: u64| {
                SolveError::Io(format!(
                    "{}: {size} bytes, not the {len} cells expected",
                    path.display()
                ))
            };
            let read = read_cell_file(path, *len, "cannot read", size_error, |bytes| {
                buf.clear();
                encode_cells(encoding, cells_of(bytes), &mut buf);
                write(&buf)
            })?;
            if read != *crc {
                return Err(SolveError::Io(format!(
                    "{} is damaged: its checksum does not match its worker's report",
                    path.display()
                )));
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spool_batches_share_the_spools_bytes() {
        assert_eq!(spool_batch(0, 3), 4 << 10);
        assert_eq!(spool_batch(u64::MAX / 4, 1), SPOOL_BATCH);
        assert_eq!(spool_batch(6 << 20, 3), SPOOL_BATCH);
        assert_eq!(spool_batch(600_004, 3), 100_000);
        for (bytes, parts) in [(1u64 << 20, 7), (123_457, 2), (64 << 20, 45)] {
            let b = spool_batch(bytes, parts);
            assert_eq!(b % 8, 0);
            assert!((4 << 10..=SPOOL_BATCH).contains(&b));
            assert!(b as u64 * 2 * parts as u64 <= bytes.max(2 * parts as u64 * (4 << 10)));
        }
    }

    /// A spool's buffer never grows past its batch, whatever the appends,
    /// and the file gets every entry in order.
    #[test]
    fn a_spool_buffers_at_most_its_batch() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spool.bin");
        let batch = 4 << 10;
        let mut spool = Spool::new(path.clone(), 0, batch);
        let mut all = Vec::new();
        let mut next = 0u64;
        for n in [1usize, 511, 512, 513, 3000, 7, 0, 1024] {
            let entries: Vec<u64> = (next..next + n as u64).collect();
            next += n as u64;
            spool.append(&entries).unwrap();
            all.extend(entries);
            assert!(spool.pending.len() <= batch);
            assert!(
                spool.pending.capacity() <= batch,
                "{}",
                spool.pending.capacity()
            );
        }
        spool.flush().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let read: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(read, all);
        assert_eq!(spool.written, bytes.len() as u64);
        assert_eq!(spool.crc.clone().finalize(), crc32fast::hash(&bytes));
    }
}
