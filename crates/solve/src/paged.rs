//! A solution file's table read in place, a block at a time: never loaded whole,
//! each block checked against its checksum when it is read.
//!
//! A version 3 file ([`crate::file`]) ends with one CRC-32 per block of the table
//! (4 KiB each, a page). Opening a file reads its header and, up to
//! [`EAGER_CHECKSUM_BYTES`], that list (577 KiB for 591 million positions),
//! checked against its own checksum; a longer list (8.3 MiB for 8.5·10⁹
//! positions) is read a page of 1,024 checksums at a time when a block it
//! covers is first read. A checksum damaged in such a list is caught when a
//! block fails against it (the block is called damaged; it is never believed),
//! and the list's own checksum is checked when the whole table is
//! ([`PagedTable::check_all`]). The file is kept open; a query then reads the
//! blocks holding its position, the position's children and theirs (what
//! checking them against the rules needs), asking the operating system for all
//! of them at once ([`PagedTable::prefetch`]). Pages are the unit because those
//! positions are scattered over the index: a query touches hundreds of blocks,
//! and a larger block would read and checksum that many times more bytes (64 KiB
//! blocks made the slowest query 3 times slower). So a query answers in
//! milliseconds however large the file, and a damaged block is found when it is
//! read and named by the positions it holds ([`SolveError::Damaged`]), never
//! believed.
//!
//! **Why read, not map.** A memory-mapped file that another program truncates
//! kills the process that reads it (`SIGBUS` on a page past the new end), and
//! one rewritten in place changes under the reader's feet. Here every block is
//! read with `pread` into memory of this process, checked, and only then
//! decoded: a truncated file is a read error ("the file changed while it was
//! read"), a block rewritten in place fails its checksum, and a block kept is
//! kept as it was checked. A block read for the first time is checked in a
//! reused buffer and not kept (most blocks a query reads are read once); one
//! read again is kept in a cache of at most [`CACHE_BYTES`], cut into shards
//! each behind its own lock; a full shard is emptied (its blocks are read and
//! checked again when next needed).

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use crate::table::Encoding;
use crate::{Outcome, SolveError};

/// Block states.
const UNCHECKED: u8 = 0;
const GOOD: u8 = 1;
const DAMAGED: u8 = 2;

/// Where a table lies in a file and how it is cut into blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// The first byte of the table in the file.
    pub offset: usize,
    /// Bytes of the table.
    pub bytes: usize,
    /// Bytes per block (the last one may be shorter).
    pub block: usize,
    /// Outcomes in the table.
    pub entries: u64,
    /// Outcomes per position (seats of a coalition table, else 1).
    pub width: u64,
    pub encoding: Encoding,
}

impl Layout {
    pub fn blocks(&self) -> usize {
        self.bytes.div_ceil(self.block)
    }

    /// The byte range of block `b` in the table.
    pub fn block_range(&self, b: usize) -> std::ops::Range<usize> {
        b * self.block..((b + 1) * self.block).min(self.bytes)
    }

    /// The error naming block `b` as damaged, by the positions it holds.
    pub fn damaged(&self, path: &str, b: usize) -> SolveError {
        let range = self.block_range(b);
        let (first, last) = self.encoding.entries_in(
            range.start as u64,
            (range.end - range.start) as u64,
            self.entries,
        );
        SolveError::Damaged {
            path: path.to_string(),
            block: b,
            blocks: self.blocks(),
            first: first / self.width,
            last: last / self.width,
        }
    }
}

/// The first damaged block of `table` (the table's bytes), checked in parallel.
pub(crate) fn first_damaged(table: &[u8], layout: &Layout, crcs: &[u32]) -> Option<usize> {
    (0..layout.blocks())
        .into_par_iter()
        .find_first(|&b| crc32fast::hash(&table[layout.block_range(b)]) != crcs[b])
}

/// Bytes of checked blocks kept in memory by one table, at most (besides one
/// block per shard, when a block is larger than a shard's share).
pub const CACHE_BYTES: usize = 64 << 20;

/// Shards of the block cache (each behind its own lock).
const SHARDS: usize = 64;

/// Blocks read at once by the walks over the whole table.
const RUN_BLOCKS: usize = 256;

/// The longest list of block checksums read whole when a file is opened (1 MiB:
/// a table of a billion one-byte outcomes); longer ones are read a page at a time.
pub const EAGER_CHECKSUM_BYTES: u64 = 1 << 20;

/// Checksums in a page of the list read at a time.
const CHECKSUMS_PER_PAGE: usize = 1024;

/// The block checksums of a table.
pub(crate) enum Checksums {
    /// Read whole when the file was opened, and checked.
    Loaded(Vec<u32>),
    /// Read from `offset` in the file (`count` checksums, then the list's own
    /// checksum), a page at a time when first needed.
    Lazy {
        offset: u64,
        count: usize,
        pages: Vec<OnceLock<Box<[u32]>>>,
    },
}

impl Checksums {
    /// A list read a page at a time from `offset`.
    pub fn lazy(offset: u64, count: usize) -> Checksums {
        Checksums::Lazy {
            offset,
            count,
            pages: (0..count.div_ceil(CHECKSUMS_PER_PAGE))
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Checksums::Loaded(v) => v.len(),
            Checksums::Lazy { count, .. } => *count,
        }
    }
}

#[derive(Default)]
struct Shard {
    blocks: HashMap<usize, Box<[u8]>>,
    bytes: usize,
}

/// A table in a solution file, read a block at a time (see the module
/// documentation).
pub struct PagedTable {
    file: File,
    layout: Layout,
    crcs: Checksums,
    state: Vec<AtomicU8>,
    cache: Vec<Mutex<Shard>>,
    path: String,
}

impl std::fmt::Debug for PagedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PagedTable")
            .field("path", &self.path)
            .field("layout", &self.layout)
            .finish_non_exhaustive()
    }
}

impl PagedTable {
    /// The table of `file` (whose header and block checksums have been read and
    /// checked by the caller, or are to be read when needed: `layout` and `crcs`
    /// describe it), read in place.
    pub(crate) fn open(
        file: File,
        path: &Path,
        layout: Layout,
        crcs: Checksums,
    ) -> Result<PagedTable, SolveError> {
        let len = file
            .metadata()
            .map_err(|e| SolveError::File {
                path: path.display().to_string(),
                message: format!("cannot read: {e}"),
            })?
            .len();
        if len < (layout.offset + layout.bytes) as u64 || crcs.len() != layout.blocks() {
            return Err(SolveError::File {
                path: path.display().to_string(),
                message: "truncated: the file is shorter than its header says".into(),
            });
        }
        #[cfg(target_os = "linux")]
        advise(&file, 0, 0, libc::POSIX_FADV_RANDOM);
        Ok(PagedTable {
            state: (0..crcs.len()).map(|_| AtomicU8::new(UNCHECKED)).collect(),
            cache: (0..SHARDS).map(|_| Mutex::default()).collect(),
            file,
            layout,
            crcs,
            path: path.display().to_string(),
        })
    }

    /// The number of outcomes.
    pub fn len(&self) -> u64 {
        self.layout.entries
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.layout.entries == 0
    }

    pub fn encoding(&self) -> Encoding {
        self.layout.encoding
    }

    /// Bytes this table may hold in memory: the checksums, the block states and
    /// the cache of checked blocks at its fullest.
    pub fn bookkeeping_bytes(&self) -> u64 {
        self.crcs.len() as u64 * 5 + CACHE_BYTES as u64
    }

    /// Whether the list of block checksums is read a page at a time (it is
    /// longer than [`EAGER_CHECKSUM_BYTES`]).
    pub fn checksums_are_lazy(&self) -> bool {
        matches!(self.crcs, Checksums::Lazy { .. })
    }

    /// The byte range in the file of the page of checksums holding block `b`'s.
    fn checksum_page_range(&self, b: usize) -> Option<(u64, usize)> {
        match &self.crcs {
            Checksums::Loaded(_) => None,
            Checksums::Lazy { offset, count, .. } => {
                let page = b / CHECKSUMS_PER_PAGE;
                let first = page * CHECKSUMS_PER_PAGE;
                let n = CHECKSUMS_PER_PAGE.min(count - first);
                Some((offset + 4 * first as u64, 4 * n))
            }
        }
    }

    /// The checksum of block `b`, its page of the list read if needed.
    fn checksum(&self, b: usize) -> Result<u32, SolveError> {
        match &self.crcs {
            Checksums::Loaded(v) => Ok(v[b]),
            Checksums::Lazy { pages, .. } => {
                let slot = &pages[b / CHECKSUMS_PER_PAGE];
                if let Some(page) = slot.get() {
                    return Ok(page[b % CHECKSUMS_PER_PAGE]);
                }
                let (at, len) = self.checksum_page_range(b).expect("lazy");
                let mut bytes = vec![0u8; len];
                self.file
                    .read_exact_at(&mut bytes, at)
                    .map_err(|e| self.read_error(e))?;
                let page: Box<[u32]> = bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                    .collect();
                Ok(slot.get_or_init(|| page)[b % CHECKSUMS_PER_PAGE])
            }
        }
    }

    /// Reads the whole list of a lazy one and checks it against its own
    /// checksum (nothing to do for a list read when the file was opened).
    fn check_checksum_list(&self) -> Result<(), SolveError> {
        let Checksums::Lazy { offset, count, .. } = &self.crcs else {
            return Ok(());
        };
        let mut bytes = vec![0u8; 4 * count + 4];
        self.file
            .read_exact_at(&mut bytes, *offset)
            .map_err(|e| self.read_error(e))?;
        crate::file::read_crcs(&bytes, Path::new(&self.path)).map(|_| ())
    }

    fn read_error(&self, e: std::io::Error) -> SolveError {
        SolveError::File {
            path: self.path.clone(),
            message: if e.kind() == std::io::ErrorKind::UnexpectedEof {
                "the file changed while it was read: it is now shorter than its header says".into()
            } else {
                format!("cannot read: {e}")
            },
        }
    }

    /// Blocks checked so far (good or damaged).
    pub fn blocks_checked(&self) -> usize {
        self.state
            .iter()
            .filter(|s| s.load(Relaxed) != UNCHECKED)
            .count()
    }

    /// Asks the operating system to read the blocks holding these outcomes now,
    /// all at once (`posix_fadvise(POSIX_FADV_WILLNEED)`), so that a cold file is
    /// read with many requests in flight instead of one read after another. Only
    /// blocks not checked yet are asked for; the reads are not waited for.
    pub fn prefetch(&self, entries: impl IntoIterator<Item = u64>) {
        let mut blocks: Vec<usize> = entries
            .into_iter()
            .filter(|&k| k < self.layout.entries)
            .map(|k| self.block_of(k))
            .filter(|&b| self.state[b].load(Relaxed) == UNCHECKED)
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        #[cfg(target_os = "linux")]
        {
            let mut pages: Vec<(u64, usize)> = Vec::new();
            for &b in &blocks {
                let range = self.layout.block_range(b);
                advise(
                    &self.file,
                    (self.layout.offset + range.start) as i64,
                    (range.end - range.start) as i64,
                    libc::POSIX_FADV_WILLNEED,
                );
                // The checksums' page too, when it is still to be read.
                if let (Some(page), Checksums::Lazy { pages: read, .. }) =
                    (self.checksum_page_range(b), &self.crcs)
                {
                    if read[b / CHECKSUMS_PER_PAGE].get().is_none() {
                        pages.push(page);
                    }
                }
            }
            pages.dedup();
            for (at, len) in pages {
                advise(&self.file, at as i64, len as i64, libc::POSIX_FADV_WILLNEED);
            }
        }
    }

    /// Empties the cache of checked blocks (for a walk over the whole table that
    /// must stay within a memory budget; the blocks are read again if needed).
    pub fn release_cache(&self) {
        for shard in &self.cache {
            *shard.lock().expect("cache lock") = Shard::default();
        }
    }

    fn block_of(&self, k: u64) -> usize {
        (k * self.layout.encoding.bits() / 8) as usize / self.layout.block
    }

    /// Bytes per block (the last block may be shorter).
    pub(crate) fn block_bytes(&self) -> usize {
        self.layout.block
    }

    /// The number of blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.layout.blocks()
    }

    /// The blocks holding the outcomes `first .. first + count` (within the
    /// table; empty for `count` 0).
    pub(crate) fn blocks_of(&self, first: u64, count: u64) -> std::ops::Range<usize> {
        if count == 0 {
            return 0..0;
        }
        self.block_of(first)..self.block_of(first + count - 1) + 1
    }

    /// The bytes of blocks `blocks` (consecutive; the last block of the table
    /// may be shorter than the others).
    pub(crate) fn bytes_of(&self, blocks: std::ops::Range<usize>) -> usize {
        if blocks.is_empty() {
            return 0;
        }
        self.layout.block_range(blocks.end - 1).end - self.layout.block_range(blocks.start).start
    }

    /// Reads blocks `blocks` (consecutive) into `out` (exactly
    /// [`PagedTable::bytes_of`] them long) in one read, and checks each
    /// against its checksum.
    pub(crate) fn read_checked(
        &self,
        blocks: std::ops::Range<usize>,
        out: &mut [u8],
    ) -> Result<(), SolveError> {
        if blocks.is_empty() {
            return Ok(());
        }
        let start = self.layout.block_range(blocks.start).start;
        self.file
            .read_exact_at(out, (self.layout.offset + start) as u64)
            .map_err(|e| self.read_error(e))?;
        for b in blocks {
            let range = self.layout.block_range(b);
            self.check_bytes(b, &out[range.start - start..range.end - start])?;
        }
        Ok(())
    }

    /// Reads blocks `blocks` (consecutive) from the file into `buf`, in one read.
    fn read_blocks(
        &self,
        blocks: std::ops::Range<usize>,
        buf: &mut Vec<u8>,
    ) -> Result<(), SolveError> {
        let start = self.layout.block_range(blocks.start).start;
        let end = self.layout.block_range(blocks.end - 1).end;
        buf.resize(end - start, 0);
        self.file
            .read_exact_at(buf, (self.layout.offset + start) as u64)
            .map_err(|e| self.read_error(e))
    }

    /// Checks the bytes of block `b` against its checksum, recording the result.
    fn check_bytes(&self, b: usize, bytes: &[u8]) -> Result<(), SolveError> {
        if crc32fast::hash(bytes) == self.checksum(b)? {
            // Two threads checking the same block at once agree, unless the file
            // changed between their reads; then the block is damaged for both.
            let _ = self.state[b].compare_exchange(UNCHECKED, GOOD, Relaxed, Relaxed);
            if self.state[b].load(Relaxed) == DAMAGED {
                return Err(self.layout.damaged(&self.path, b));
            }
            Ok(())
        } else {
            self.state[b].store(DAMAGED, Relaxed);
            Err(self.layout.damaged(&self.path, b))
        }
    }

    /// Calls `read` with the checked bytes of block `b`: from the cache, or read
    /// from the file, checked and kept.
    fn with_block<T>(&self, b: usize, read: impl FnOnce(&[u8]) -> T) -> Result<T, SolveError> {
        thread_local! {
            /// A block read for the first time: checked and used from here, not
            /// kept (most blocks a query reads are read once; keeping each in
            /// fresh memory cost a page fault per block).
            static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let seen = match self.state[b].load(Relaxed) {
            DAMAGED => return Err(self.layout.damaged(&self.path, b)),
            GOOD => true,
            _ => false,
        };
        let shard = &self.cache[b % SHARDS];
        if seen {
            if let Some(bytes) = shard.lock().expect("cache lock").blocks.get(&b) {
                return Ok(read(bytes));
            }
        }
        SCRATCH.with_borrow_mut(|buf| {
            self.read_blocks(b..b + 1, buf)?;
            self.check_bytes(b, buf)?;
            let answer = read(buf);
            // Read before: kept from now on.
            if seen {
                let mut shard = shard.lock().expect("cache lock");
                if shard.bytes + buf.len() > CACHE_BYTES / SHARDS {
                    *shard = Shard::default();
                }
                shard.bytes += buf.len();
                shard.blocks.insert(b, buf.as_slice().into());
            }
            Ok(answer)
        })
    }

    /// Outcome `k`, its block checked first.
    #[inline]
    pub fn get(&self, k: u64) -> Result<Outcome, SolveError> {
        if k >= self.layout.entries {
            return Err(SolveError::Inconsistent(format!(
                "outcome #{k} is out of range ({} in the table)",
                self.layout.entries
            )));
        }
        let b = self.block_of(k);
        // Entries never straddle blocks: a block is a whole number of bytes
        // and at least two (`Layout::new`), an entry 2, 8 or 16 bits.
        let first = self.layout.block_range(b).start as u64 * 8 / self.layout.encoding.bits();
        self.with_block(b, |bytes| self.layout.encoding.decode(bytes, k - first))?
            .ok_or_else(|| {
                SolveError::Inconsistent(format!("outcome #{k} has a code no table holds"))
            })
    }

    /// Checks every block, reading the file in runs of blocks (in parallel),
    /// naming the first damaged one. Blocks are not kept.
    pub fn check_all(&self) -> Result<(), SolveError> {
        self.check_checksum_list()?;
        let runs = self.crcs.len().div_ceil(RUN_BLOCKS);
        let failed = (0..runs).into_par_iter().find_map_first(|run| {
            let blocks = run * RUN_BLOCKS..((run + 1) * RUN_BLOCKS).min(self.crcs.len());
            self.check_run(blocks).err()
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The outcomes `first .. first + count` as a table in memory, their blocks
    /// read and checked in parallel runs: for walks over the whole table, which
    /// would otherwise look each block up once per outcome. `None` when `first`
    /// does not start a block (or the range leaves the table).
    pub(crate) fn slice(
        &self,
        first: u64,
        count: u64,
    ) -> Result<Option<crate::table::Table>, SolveError> {
        let bits = self.layout.encoding.bits();
        let start = (first * bits / 8) as usize;
        if !(first * bits).is_multiple_of(8)
            || !start.is_multiple_of(self.layout.block)
            || first + count > self.layout.entries
        {
            return Ok(None);
        }
        let Some(len) = self.layout.encoding.bytes_for(count) else {
            return Ok(None);
        };
        let len = len as usize;
        let mut bytes = vec![0u8; len];
        let block = self.layout.block;
        let first_block = start / block;
        bytes
            .par_chunks_mut(RUN_BLOCKS * block)
            .enumerate()
            .try_for_each(|(run, out)| {
                let b0 = first_block + run * RUN_BLOCKS;
                let b1 = b0 + out.len().div_ceil(block);
                let mut buf = Vec::new();
                let mut at = 0;
                self.check_run_with(b0..b1, &mut buf, |checked| {
                    // The last block may hold outcomes past the slice.
                    let take = checked.len().min(out.len() - at);
                    out[at..at + take].copy_from_slice(&checked[..take]);
                    at += take;
                    Ok(())
                })
            })?;
        Ok(crate::table::Table::from_bytes(
            self.layout.encoding,
            &bytes,
            count,
        ))
    }

    /// Reads and checks consecutive blocks; calls `each` with every block's
    /// bytes in order.
    fn check_run_with(
        &self,
        blocks: std::ops::Range<usize>,
        buf: &mut Vec<u8>,
        mut each: impl FnMut(&[u8]) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        buf.resize(self.bytes_of(blocks.clone()), 0);
        self.read_checked(blocks.clone(), buf)?;
        let base = self.layout.block_range(blocks.start).start;
        for b in blocks {
            let range = self.layout.block_range(b);
            each(&buf[range.start - base..range.end - base])?;
        }
        Ok(())
    }

    fn check_run(&self, blocks: std::ops::Range<usize>) -> Result<(), SolveError> {
        self.check_run_with(blocks, &mut Vec::new(), |_| Ok(()))
    }

    /// Calls `write` with the table's bytes in order, each block checked first,
    /// in pieces of at most `chunk` bytes.
    pub(crate) fn for_each_chunk(
        &self,
        chunk: usize,
        mut write: impl FnMut(&[u8]) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        let mut buf = Vec::new();
        let mut run = 0;
        while run < self.crcs.len() {
            let end = (run + RUN_BLOCKS).min(self.crcs.len());
            self.check_run_with(run..end, &mut buf, |bytes| {
                for piece in bytes.chunks(chunk.max(1)) {
                    write(piece)?;
                }
                Ok(())
            })?;
            run = end;
        }
        Ok(())
    }
}

/// `posix_fadvise` on a range of `file` (advice only: a failure changes nothing
/// but speed, so it is ignored).
#[cfg(target_os = "linux")]
fn advise(file: &File, offset: i64, len: i64, advice: libc::c_int) {
    use std::os::fd::AsRawFd;
    // SAFETY: posix_fadvise only reads its integer arguments; the descriptor is
    // open for as long as `file` is borrowed, and an advice on a range of it
    // changes no memory of this process (only the kernel's page cache).
    unsafe {
        libc::posix_fadvise(file.as_raw_fd(), offset, len, advice);
    }
}
