//! A solution file's table read in place: memory-mapped, never loaded whole,
//! each block checked against its checksum the first time it is read.
//!
//! A version 3 file ([`crate::file`]) ends with one CRC-32 per block of the table
//! (4 KiB each, a page). Opening a file reads its header and that list (577 KiB
//! for 591 million positions), and maps the table; a query then reads the blocks
//! holding its position, the position's children and theirs (what checking the
//! children against the rules needs), asking for all of them at once, and
//! checks each block once. Pages are the unit because those positions are
//! scattered over the index: a query touches hundreds of blocks, and a larger
//! block would read and checksum that many times more bytes (64 KiB blocks made
//! the slowest query 3 times slower). So a
//! query answers in milliseconds however large the file, the operating system
//! pages the table in and out as memory allows, and a damaged block is found
//! when it is first read and named by the positions it holds
//! ([`SolveError::Damaged`]), never believed.

use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

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

/// A table in a mapped solution file (see the module documentation).
#[derive(Debug)]
pub struct MappedTable {
    map: memmap2::Mmap,
    layout: Layout,
    crcs: Vec<u32>,
    state: Vec<AtomicU8>,
    path: String,
}

impl MappedTable {
    /// Maps the table of `file` (whose header and block checksums have been read
    /// and checked by the caller: `layout` and `crcs` describe it).
    pub(crate) fn map(
        file: &File,
        path: &Path,
        layout: Layout,
        crcs: Vec<u32>,
    ) -> Result<MappedTable, SolveError> {
        // SAFETY: the mapping is read-only and only read through the slices
        // below. What the memory model asks of a mapping is that the file not
        // change while it is mapped. This program never changes a solution file
        // in place: every write goes to a temporary file renamed over the target
        // (`chopsticks_files`), so a file replaced while mapped keeps its old
        // contents for this mapping. Another program truncating or rewriting the
        // file in place is outside what a file-backed table can defend against
        // (every memory-mapped database shares this); the block checksums catch
        // contents changed by it before they are believed.
        let map =
            unsafe { memmap2::MmapOptions::new().map(file) }.map_err(|e| SolveError::File {
                path: path.display().to_string(),
                message: format!("cannot map the file: {e}"),
            })?;
        if map.len() < layout.offset + layout.bytes || crcs.len() != layout.blocks() {
            return Err(SolveError::File {
                path: path.display().to_string(),
                message: "truncated: the file is shorter than its header says".into(),
            });
        }
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Ok(MappedTable {
            state: (0..crcs.len()).map(|_| AtomicU8::new(UNCHECKED)).collect(),
            map,
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

    /// Bytes this process holds besides the mapping: the checksums and states.
    pub fn bookkeeping_bytes(&self) -> u64 {
        self.crcs.len() as u64 * 5
    }

    /// Blocks checked so far (good or damaged).
    pub fn blocks_checked(&self) -> usize {
        self.state
            .iter()
            .filter(|s| s.load(Relaxed) != UNCHECKED)
            .count()
    }

    fn table(&self) -> &[u8] {
        &self.map[self.layout.offset..self.layout.offset + self.layout.bytes]
    }

    /// Asks the operating system to read the blocks holding these outcomes now,
    /// all at once (`madvise(MADV_WILLNEED)`), so that a cold file is read with
    /// many requests in flight instead of one page fault after another. Only
    /// blocks not checked yet are asked for; the reads are not waited for.
    pub fn prefetch(&self, entries: impl IntoIterator<Item = u64>) {
        let mut blocks: Vec<usize> = entries
            .into_iter()
            .filter(|&k| k < self.layout.entries)
            .map(|k| (k * self.layout.encoding.bits() / 8) as usize / self.layout.block)
            .collect();
        blocks.sort_unstable();
        blocks.dedup();
        for b in blocks {
            self.prefetch_block(b);
        }
    }

    fn prefetch_block(&self, b: usize) {
        if self.state[b].load(Relaxed) == UNCHECKED {
            let range = self.layout.block_range(b);
            #[cfg(unix)]
            let _ = self.map.advise_range(
                memmap2::Advice::WillNeed,
                self.layout.offset + range.start,
                range.end - range.start,
            );
        }
    }

    /// Lets the operating system drop the pages of the file read so far from
    /// this process's memory (they are read again if needed), for a walk over
    /// the whole table that must stay within a memory budget.
    pub fn release_pages(&self) {
        // SAFETY: `MADV_DONTNEED` on a read-only shared mapping of a file only
        // drops this process's page table entries: the next read of a page
        // faults it in again from the page cache or the file, with the same
        // bytes (the file is not changed while mapped, see `map`). No memory
        // becomes invalid and no byte changes, so references into the mapping
        // held by other threads stay valid.
        #[cfg(unix)]
        let _ = unsafe {
            self.map
                .unchecked_advise(memmap2::UncheckedAdvice::DontNeed)
        };
    }

    /// Checks block `b` if it has not been checked yet.
    fn check(&self, b: usize) -> Result<(), SolveError> {
        match self.state[b].load(Relaxed) {
            GOOD => Ok(()),
            DAMAGED => Err(self.layout.damaged(&self.path, b)),
            _ => {
                // One request for the whole block rather than a fault per page.
                self.prefetch_block(b);
                let good =
                    crc32fast::hash(&self.table()[self.layout.block_range(b)]) == self.crcs[b];
                // Two threads checking the same block at once agree.
                self.state[b].store(if good { GOOD } else { DAMAGED }, Relaxed);
                if good {
                    Ok(())
                } else {
                    Err(self.layout.damaged(&self.path, b))
                }
            }
        }
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
        let byte = (k * self.layout.encoding.bits() / 8) as usize;
        self.check(byte / self.layout.block)?;
        self.layout.encoding.decode(self.table(), k).ok_or_else(|| {
            SolveError::Inconsistent(format!("outcome #{k} has a code no table holds"))
        })
    }

    /// Checks every block (in parallel), naming the first damaged one.
    pub fn check_all(&self) -> Result<(), SolveError> {
        match (0..self.crcs.len())
            .into_par_iter()
            .find_first(|&b| self.check(b).is_err())
        {
            Some(b) => Err(self.layout.damaged(&self.path, b)),
            None => Ok(()),
        }
    }

    /// Calls `write` with the table's bytes in order, each block checked first,
    /// in pieces of at most `chunk` bytes.
    pub(crate) fn for_each_chunk(
        &self,
        chunk: usize,
        mut write: impl FnMut(&[u8]) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        for b in 0..self.crcs.len() {
            self.check(b)?;
            for piece in self.table()[self.layout.block_range(b)].chunks(chunk.max(1)) {
                write(piece)?;
            }
        }
        Ok(())
    }
}
