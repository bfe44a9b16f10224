//! Saved solutions: a versioned binary file with the ruleset in its header and
//! checksums over every part, the table's checked block by block.
//!
//! Version 3 (written):
//!
//! ```text
//! 8 bytes   magic "CHOPSOLV"
//! u32 LE    format version (3)
//! u32 LE    header length H
//! H bytes   header, JSON: {"ruleset": …, "positions": N, "encoding": "narrow"|"wide"|"values",
//!           "concept": "two-player"|"coalition"|"teams", "block_bytes": K}
//! u32 LE    CRC-32 of every byte before it
//! T bytes   the table (see `Table`): N outcomes, or N × players for coalition values,
//!           8, 16 or 2 bits each
//! B × u32   CRC-32 of each block of K bytes of the table (the last may be shorter)
//! u32 LE    CRC-32 of those B checksums
//! ```
//!
//! The checksum per block lets a reader that reads the file in place ([`open`],
//! [`crate::paged`]) check only the blocks it reads, and names a damaged block by
//! the positions it holds. Versions 1 and 2 (one CRC-32 over the whole file at its
//! end; version 1 has no `concept` and holds two-player tables) are still read.
//!
//! Files are written by `chopsticks_files::write_with`: to a temporary name
//! beside the target, then renamed, so a failed or interrupted save never leaves a
//! half-written file under the target name; links are written through and devices
//! or pipes refused. The table is written in pieces, never copied whole.

use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

use chopsticks_rules::{PositionIndex, Ruleset};
use serde::{Deserialize, Serialize};

use crate::paged::{first_damaged, Checksums, Layout, PagedTable};
use crate::table::Encoding;
use crate::{Concept, Solution, SolveError, Table};

/// The first bytes of every solution file.
pub const MAGIC: &[u8; 8] = b"CHOPSOLV";
/// The format version this code writes (it also reads versions 1 and 2).
pub const VERSION: u32 = 3;
/// Bytes per checksummed block of the table in the files written here.
pub const BLOCK_BYTES: u64 = 1 << 12;
/// The block sizes a file may declare (even, so that no two-byte entry straddles
/// two blocks; at most 1 MiB, so that the reader's cache of checked blocks
/// stays bounded, see [`crate::paged`]).
const BLOCK_RANGE: std::ops::RangeInclusive<u64> = 1 << 10..=1 << 20;

/// Whether a file may declare this block size.
fn valid_block(bytes: u64) -> bool {
    BLOCK_RANGE.contains(&bytes) && bytes.is_multiple_of(2)
}

#[derive(Serialize, Deserialize)]
struct Header {
    ruleset: Ruleset,
    positions: u64,
    encoding: String,
    /// Absent in version 1 files, which hold two-player tables.
    #[serde(default = "two_player")]
    concept: Concept,
    /// Version 3: bytes per checksummed block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    block_bytes: Option<u64>,
}

fn two_player() -> Concept {
    Concept::TwoPlayer
}

impl Header {
    /// Outcomes stored: one per position, or one per position and seat.
    fn entries(&self) -> Option<u64> {
        self.positions.checked_mul(self.width())
    }

    fn width(&self) -> u64 {
        self.concept.width(self.ruleset.players()) as u64
    }
}

fn error(path: &Path, message: impl Into<String>) -> SolveError {
    SolveError::File {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// Something that writes bytes, piece by piece.
type Sink<'a> = dyn FnMut(&[u8]) -> Result<(), SolveError> + 'a;
/// Something that gives a table's bytes to a [`Sink`], in order.
pub(crate) type Fill<'a> = dyn FnMut(&mut Sink<'_>) -> Result<(), SolveError> + 'a;

/// Writes a version 3 file to `out`: the prefix, then the table's bytes as
/// `fill` gives them (in pieces of any size), each block's checksum computed
/// on the way, then the checksums.
fn write_file(header: &Header, out: &mut dyn Write, fill: &mut Fill<'_>) -> Result<(), SolveError> {
    let header = serde_json::to_vec(header).expect("the header serialises");
    let mut head = Vec::with_capacity(20 + header.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&(header.len() as u32).to_le_bytes());
    head.extend_from_slice(&header);
    let crc = crc32fast::hash(&head);
    head.extend_from_slice(&crc.to_le_bytes());
    let io = |e: std::io::Error| SolveError::Io(e.to_string());
    out.write_all(&head).map_err(io)?;
    let block = BLOCK_BYTES as usize;
    let mut crcs = Vec::new();
    let mut hasher = crc32fast::Hasher::new();
    let mut in_block = 0usize;
    fill(&mut |mut bytes: &[u8]| {
        out.write_all(bytes).map_err(io)?;
        while !bytes.is_empty() {
            let take = (block - in_block).min(bytes.len());
            hasher.update(&bytes[..take]);
            in_block += take;
            bytes = &bytes[take..];
            if in_block == block {
                let done = std::mem::replace(&mut hasher, crc32fast::Hasher::new());
                crcs.extend_from_slice(&done.finalize().to_le_bytes());
                in_block = 0;
            }
        }
        Ok(())
    })?;
    if in_block > 0 {
        crcs.extend_from_slice(&hasher.finalize().to_le_bytes());
    }
    let crc = crc32fast::hash(&crcs);
    out.write_all(&crcs).map_err(io)?;
    out.write_all(&crc.to_le_bytes()).map_err(io)?;
    Ok(())
}

/// The header of a solution, as written.
fn header_of(solution: &Solution) -> Header {
    Header {
        ruleset: solution.rules().clone(),
        positions: solution.count(),
        encoding: solution.table().encoding().name().to_string(),
        concept: solution.concept(),
        block_bytes: Some(BLOCK_BYTES),
    }
}

/// Writes a file atomically (see [`save`]) with the table's bytes from `fill`.
fn save_with(header: &Header, path: &Path, fill: &mut Fill<'_>) -> Result<(), SolveError> {
    let mut failure = None;
    let written = chopsticks_files::write_with(path, |file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        match write_file(header, &mut out, fill) {
            Ok(()) => out.flush(),
            Err(e) => {
                let message = e.to_string();
                failure = Some(e);
                Err(std::io::Error::other(message))
            }
        }
    });
    match (written, failure) {
        // An I/O error of the writing itself (a full disk): said of the file.
        (_, Some(SolveError::Io(message))) => Err(SolveError::File {
            path: path.display().to_string(),
            message: format!("cannot save the solution: {message}"),
        }),
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(e.into()),
        (Ok(()), None) => Ok(()),
    }
}

/// Writes the file of a two-player solution whose table is produced piece by
/// piece by `fill` (the out-of-core solver's parts), `entries` outcomes in
/// `encoding`.
pub(crate) fn save_table(
    rules: &Ruleset,
    entries: u64,
    encoding: Encoding,
    path: &Path,
    fill: &mut Fill<'_>,
) -> Result<(), SolveError> {
    let header = Header {
        ruleset: rules.clone(),
        positions: entries,
        encoding: encoding.name().to_string(),
        concept: Concept::TwoPlayer,
        block_bytes: Some(BLOCK_BYTES),
    };
    let mut written = 0u64;
    let expected = encoding.bytes_for(entries).unwrap_or(u64::MAX);
    save_with(&header, path, &mut |write| {
        fill(&mut |bytes| {
            written += bytes.len() as u64;
            write(bytes)
        })?;
        if written != expected {
            return Err(SolveError::Io(format!(
                "the table came to {written} bytes, not {expected}"
            )));
        }
        Ok(())
    })
}

/// The bytes of a solution file.
pub fn encode(solution: &Solution) -> Vec<u8> {
    let mut out = Vec::new();
    write_file(&header_of(solution), &mut out, &mut |write| {
        solution
            .table()
            .for_each_chunk(1 << 20, |bytes| write(bytes))
    })
    .expect("writing to memory does not fail");
    out
}

/// Writes a solution to `path` (atomically, through symbolic links, never over
/// anything but a regular file: see `chopsticks_files`), the table streamed in
/// pieces so that no second copy of it is made.
pub fn save(solution: &Solution, path: &Path) -> Result<(), SolveError> {
    save_with(&header_of(solution), path, &mut |write| {
        solution
            .table()
            .for_each_chunk(1 << 20, |bytes| write(bytes))
    })
}

/// What the first bytes of a file say: its version and header.
struct Prefix {
    version: u32,
    header: Header,
    /// Where the table starts.
    table_start: usize,
}

/// Reads the prefix of a file from its first bytes (`bytes` may be just the start
/// of the file, at least 16 + H + 4 bytes for version 3), checking the magic, the
/// version, the header's checksum (version 3) and what the header says; `size` is
/// the whole file's length.
fn read_prefix(bytes: &[u8], size: u64, path: &Path) -> Result<Prefix, SolveError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(error(
            path,
            "not a chopsticks solution file (wrong magic bytes)",
        ));
    }
    if bytes.len() < 16 {
        return Err(error(path, "truncated: the file ends inside its header"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if !(1..=VERSION).contains(&version) {
        return Err(error(
            path,
            format!("format version {version}; this program reads versions 1 to {VERSION}"),
        ));
    }
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    if header_len > MAX_HEADER {
        return Err(error(
            path,
            "truncated or corrupted: impossible header length",
        ));
    }
    let header_end = 16 + header_len;
    let table_start = header_end + if version >= 3 { 4 } else { 0 };
    if (table_start as u64) + 4 > size || bytes.len() < table_start {
        return Err(error(path, "truncated: the file ends inside its header"));
    }
    if version >= 3 {
        let stored = u32::from_le_bytes(bytes[header_end..table_start].try_into().expect("4"));
        if crc32fast::hash(&bytes[..header_end]) != stored {
            return Err(error(path, "corrupted header: its checksum does not match"));
        }
    }
    let header: Header = serde_json::from_slice(&bytes[16..header_end])
        .map_err(|e| error(path, format!("corrupted header: {e}")))?;
    let concept = Concept::of(&header.ruleset);
    if header.concept != concept {
        return Err(error(
            path,
            format!(
                "corrupted header: a table of {} values, but its ruleset is solved as {}",
                header.concept.name(),
                concept.name()
            ),
        ));
    }
    let encoding = Encoding::from_name(&header.encoding).filter(|e| {
        // Value-only tables came with version 3.
        version >= 3 || *e != Encoding::Values
    });
    if encoding.is_none() {
        return Err(error(
            path,
            format!("corrupted header: unknown encoding `{}`", header.encoding),
        ));
    }
    if version >= 3 && !header.block_bytes.is_some_and(valid_block) {
        return Err(error(path, "corrupted header: impossible block size"));
    }
    let expected = expected_size(&header, version, table_start)
        .ok_or_else(|| error(path, "corrupted header: impossible size"))?;
    if size < expected {
        return Err(error(
            path,
            format!(
                "truncated: {size} bytes, but a solution of {} positions takes {expected}",
                header.positions
            ),
        ));
    }
    if size > expected {
        return Err(error(
            path,
            "corrupted: unexpected bytes after the checksum",
        ));
    }
    header
        .ruleset
        .validate()
        .map_err(|e| error(path, format!("corrupted header: {e}")))?;
    let count = PositionIndex::new(&header.ruleset)?.count();
    if count != header.positions {
        return Err(error(
            path,
            format!(
                "corrupted header: {} positions, but its ruleset has {count}",
                header.positions
            ),
        ));
    }
    Ok(Prefix {
        version,
        header,
        table_start,
    })
}

impl Prefix {
    fn layout(&self) -> Layout {
        let encoding = Encoding::from_name(&self.header.encoding).expect("checked");
        let entries = self.header.entries().expect("checked");
        Layout {
            offset: self.table_start,
            bytes: encoding.bytes_for(entries).expect("checked") as usize,
            block: self
                .header
                .block_bytes
                .unwrap_or(u64::MAX)
                .min(usize::MAX as u64) as usize,
            entries,
            width: self.header.width(),
            encoding,
        }
    }
}

/// The size of a file with this header, or `None` if it overflows.
fn expected_size(header: &Header, version: u32, table_start: usize) -> Option<u64> {
    let encoding = Encoding::from_name(&header.encoding)?;
    let table = encoding.bytes_for(header.entries()?)?;
    let tail = if version >= 3 {
        let blocks = table.div_ceil(header.block_bytes?);
        blocks.checked_mul(4)?.checked_add(4)?
    } else {
        4
    };
    (table_start as u64).checked_add(table)?.checked_add(tail)
}

/// The block checksums of a version 3 file, checked against their own checksum.
pub(crate) fn read_crcs(tail: &[u8], path: &Path) -> Result<Vec<u32>, SolveError> {
    let (list, last) = tail.split_at(tail.len() - 4);
    if crc32fast::hash(list) != u32::from_le_bytes(last.try_into().expect("4 bytes")) {
        return Err(error(
            path,
            "corrupted: the list of block checksums does not match its checksum",
        ));
    }
    Ok(list
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect())
}

/// Reads a solution back from its bytes, checking everything.
pub fn decode(bytes: &[u8], path: &Path) -> Result<Solution, SolveError> {
    let prefix = read_prefix(bytes, bytes.len() as u64, path)?;
    let layout = prefix.layout();
    let table_end = layout.offset + layout.bytes;
    if prefix.version >= 3 {
        let crcs = read_crcs(&bytes[table_end..], path)?;
        let table = &bytes[layout.offset..table_end];
        if let Some(b) = first_damaged(table, &layout, &crcs) {
            return Err(layout.damaged(&path.display().to_string(), b));
        }
    } else {
        let stored = u32::from_le_bytes(bytes[table_end..].try_into().expect("4 bytes"));
        if crc32fast::hash(&bytes[..table_end]) != stored {
            return Err(error(path, "corrupted: the checksum does not match"));
        }
    }
    let table = Table::from_bytes(
        layout.encoding,
        &bytes[layout.offset..table_end],
        layout.entries,
    )
    .ok_or_else(|| error(path, "corrupted table: a code no table holds"))?;
    Solution::from_table(prefix.header.ruleset, table)
}

/// The largest header this code accepts (the real ones are a few hundred bytes).
const MAX_HEADER: usize = 1 << 20;

/// Opens `path` and reads its prefix (magic, version, header and, version 3,
/// the header's checksum): a device, a pipe or a damaged file is refused before
/// anything large is read.
fn open_prefix(path: &Path) -> Result<(fs::File, u64, Prefix), SolveError> {
    let cannot = |e: std::io::Error| error(path, format!("cannot read: {e}"));
    let metadata = fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        return Err(error(path, "not a regular file"));
    }
    let mut file = fs::File::open(path).map_err(cannot)?;
    let mut start = Vec::with_capacity(16);
    (&mut file)
        .take(16)
        .read_to_end(&mut start)
        .map_err(cannot)?;
    if start.len() >= 16 && &start[..8] == MAGIC {
        let header_len = u32::from_le_bytes(start[12..16].try_into().expect("4 bytes")) as usize;
        if header_len <= MAX_HEADER {
            (&mut file)
                .take(header_len as u64 + 4)
                .read_to_end(&mut start)
                .map_err(cannot)?;
        }
    }
    let prefix = read_prefix(&start, metadata.len(), path)?;
    Ok((file, metadata.len(), prefix))
}

/// Reads a whole solution from `path` into memory, checking every block (see
/// [`open`] for reading a large file in place).
pub fn load(path: &Path) -> Result<Solution, SolveError> {
    let (mut file, size, _) = open_prefix(path)?;
    // The size its header announces and one byte more, however the file grows
    // meanwhile (a file of another size is refused by `decode`).
    let cannot = |e: std::io::Error| error(path, format!("cannot read: {e}"));
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0)).map_err(cannot)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(size + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    decode(&bytes, path)
}

/// Opens a solution for reading in place: a version 3 file is read a block at a
/// time, each block checked when it is read ([`crate::paged`]), so opening takes
/// milliseconds whatever the size; older files are loaded whole.
pub fn open(path: &Path) -> Result<Solution, SolveError> {
    open_with(path, crate::paged::EAGER_CHECKSUM_BYTES)
}

/// [`open`], the list of block checksums read whole when it is at most
/// `eager` bytes, else a page at a time.
fn open_with(path: &Path, eager: u64) -> Result<Solution, SolveError> {
    let (mut file, size, prefix) = open_prefix(path)?;
    if prefix.version < 3 {
        return load(path);
    }
    let layout = prefix.layout();
    let tail_start = (layout.offset + layout.bytes) as u64;
    // A long list of block checksums is read a page at a time, when needed.
    let crcs = if size - tail_start > eager + 4 {
        Checksums::lazy(tail_start, layout.blocks())
    } else {
        let mut tail = Vec::with_capacity((size - tail_start) as usize);
        let cannot = |e: std::io::Error| error(path, format!("cannot read: {e}"));
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(tail_start)).map_err(cannot)?;
        file.read_to_end(&mut tail).map_err(cannot)?;
        if tail.len() as u64 != size - tail_start {
            return Err(error(path, "truncated: the file changed while it was read"));
        }
        Checksums::Loaded(read_crcs(&tail, path)?)
    };
    let table = PagedTable::open(file, path, layout, crcs)?;
    Solution::from_table(prefix.header.ruleset, Table::Paged(Arc::new(table)))
}

/// Recomputes every checksum of a version 3 file's bytes in place, as a forger
/// would (for tests and fuzzing: what lies behind the checksums is then reached).
/// Returns `false`, changing nothing, when the bytes are not laid out as a
/// version 3 file whose header can be read.
pub fn reseal(bytes: &mut [u8]) -> bool {
    if bytes.len() < 16 || &bytes[..8] != MAGIC || bytes[8..12] != VERSION.to_le_bytes() {
        return false;
    }
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let header_end = 16 + header_len;
    if header_len > MAX_HEADER || header_end + 4 > bytes.len() {
        return false;
    }
    let Ok(header) = serde_json::from_slice::<Header>(&bytes[16..header_end]) else {
        return false;
    };
    let table_start = header_end + 4;
    let (Some(size), Some(encoding), Some(block)) = (
        expected_size(&header, VERSION, table_start),
        Encoding::from_name(&header.encoding),
        header.block_bytes.filter(|&b| valid_block(b)),
    ) else {
        return false;
    };
    if size != bytes.len() as u64 {
        return false;
    }
    let crc = crc32fast::hash(&bytes[..header_end]);
    bytes[header_end..table_start].copy_from_slice(&crc.to_le_bytes());
    let table_bytes = encoding
        .bytes_for(header.entries().expect("sized"))
        .expect("sized") as usize;
    let (table, tail) = bytes[table_start..].split_at_mut(table_bytes);
    let (list, last) = tail.split_at_mut(tail.len() - 4);
    for (chunk, slot) in table.chunks(block as usize).zip(list.chunks_exact_mut(4)) {
        slot.copy_from_slice(&crc32fast::hash(chunk).to_le_bytes());
    }
    last.copy_from_slice(&crc32fast::hash(list).to_le_bytes());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of block checksums read a page at a time gives the same outcomes
    /// as one read whole; a damaged checksum in it makes its block damaged,
    /// never believed, and the whole-table check names the list.
    #[test]
    fn checksums_read_a_page_at_a_time() {
        let rules = Ruleset {
            hands: vec![4, 4],
            fingers: 8,
            ..chopsticks_rules::Preset::Standard.ruleset()
        };
        let graph = chopsticks_space::Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sol");
        save(&solution, &path).unwrap();
        let lazy = open_with(&path, 0).unwrap();
        let Table::Paged(paged) = lazy.table() else {
            panic!("read in place")
        };
        assert!(paged.checksums_are_lazy());
        assert!(!match open(&path).unwrap().table() {
            Table::Paged(p) => p.checksums_are_lazy(),
            _ => true,
        });
        for i in (0..solution.count()).step_by(7) {
            assert_eq!(lazy.outcome_at(i).unwrap(), solution.outcome_at(i).unwrap());
        }
        paged.check_all().unwrap();
        // One checksum of the list changed (the last entry but one: block
        // `blocks - 2`), the list's own checksum left as it was.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 4 - 8;
        bytes[at] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let lazy = open_with(&path, 0).unwrap();
        let Table::Paged(paged) = lazy.table() else {
            panic!("read in place")
        };
        let per_block = BLOCK_BYTES * 8 / lazy.table().bits_per_entry();
        let blocks = solution.count().div_ceil(per_block);
        assert!(blocks > 3, "{blocks}");
        let inside = (blocks - 2) * per_block + 1;
        let err = lazy.outcome_at(inside).unwrap_err().to_string();
        assert!(err.contains("damaged"), "{err}");
        let err = paged.check_all().unwrap_err().to_string();
        assert!(err.contains("list of block checksums"), "{err}");
        // Read whole, the list is refused at once.
        let err = open(&path).unwrap_err().to_string();
        assert!(err.contains("list of block checksums"), "{err}");
    }
}
