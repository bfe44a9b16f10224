//! Checkpoints of a distributed solve, so that a solve that loses a process
//! resumes instead of starting over.
//!
//! **The cut.** A worker's state after level `k` is its cells and its tiles'
//! marks once the updates that resolve at `k` are applied, before it visits the
//! positions resolved at `k`. The updates it sends from that visit are a
//! function of that state alone, so the state of every worker after the same
//! level is a consistent cut: nothing in flight is lost, since whatever was in
//! flight is sent again by the visit of level `k` on resuming. The solve is
//! deterministic (the order of a level's updates never mattered), so the state
//! after level `k` is the same in every run: a checkpoint is valid whichever run
//! wrote it.
//!
//! **Which levels.** A worker whose last checkpoint is older than the interval
//! asks every worker (itself included) for one, with a message under the level
//! it is visiting; the message arrives with the updates of the next level, so
//! every worker sees the same requests at the same level and they all write a
//! checkpoint of that level, or none does. A worker processes level `k + 1`
//! only once every worker has finished level `k`, checkpoint included, so the
//! checkpoints written differ by one level at most between workers: each
//! keeps its last two, and the solve resumes from the last level every worker
//! has.
//!
//! **The file.** `checkpoint-W-K.bin` in the worker's directory: the magic
//! `CHOPSCKP`, a format version, the length of a JSON header ([`Header`]: the
//! ruleset, the worker's range, the level and its counters), the header, the
//! cells (16-bit little-endian), the marks (32-bit little-endian), and the
//! CRC-32 of everything before it. Written atomically (a temporary name, then
//! a rename), so a process killed while writing leaves the previous ones.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use chopsticks_rules::Ruleset;
use serde::{Deserialize, Serialize};

const MAGIC: &[u8; 8] = b"CHOPSCKP";
const VERSION: u32 = 1;
/// The largest header read (a ruleset and a few numbers).
const MAX_HEADER: u32 = 1 << 16;

/// What a checkpoint says of itself.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Header {
    pub ruleset: Ruleset,
    pub worker: usize,
    pub workers: usize,
    pub first: u64,
    pub len: u64,
    /// Tiles of the worker's range (the length of the marks).
    pub tiles: u64,
    /// The level after which the state was taken.
    pub level: u32,
    /// The worker's counters then: updates sent, levels visited.
    pub messages: u64,
    pub levels: u32,
}

/// A worker's state after a level.
pub struct State {
    pub header: Header,
    pub cells: Vec<u16>,
    pub marks: Vec<u32>,
}

/// The checkpoint of worker `worker` after `level`, in `dir`.
pub fn path(dir: &Path, worker: usize, level: u32) -> PathBuf {
    dir.join(format!("checkpoint-{worker}-{level}.bin"))
}

/// The checkpoint files in `dir`, by their names only (not read): each file's
/// worker and level. A name is read only as this solver writes it
/// (`checkpoint-1-12.bin`: no sign, no leading zero).
fn files(dir: &Path) -> Vec<(usize, u32)> {
    names(dir)
        .into_iter()
        .filter_map(|n| parse_name(&n))
        .collect()
}

/// The names in `dir` that look like checkpoints (`checkpoint-….bin`).
fn names(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with("checkpoint-") && n.ends_with(".bin"))
        .collect();
    found.sort();
    found
}

/// The worker and level a checkpoint's name says, if it is written as this
/// solver writes it.
fn parse_name(name: &str) -> Option<(usize, u32)> {
    let rest = name.strip_prefix("checkpoint-")?.strip_suffix(".bin")?;
    let (worker, level) = rest.split_once('-')?;
    let parsed: (usize, u32) = (worker.parse().ok()?, level.parse().ok()?);
    (format!("checkpoint-{}-{}.bin", parsed.0, parsed.1) == name).then_some(parsed)
}

/// The files in `dir` named like checkpoints but not as this solver names
/// them (`checkpoint-0-064.bin`): never read, so never resumed from.
pub fn misnamed(dir: &Path) -> Vec<PathBuf> {
    names(dir)
        .into_iter()
        .filter(|n| parse_name(n).is_none())
        .map(|n| dir.join(n))
        .collect()
}

/// The levels of worker `worker`'s checkpoint files in `dir`, by their names
/// only (not read), ascending.
pub fn levels(dir: &Path, worker: usize) -> Vec<u32> {
    let mut found: Vec<u32> = files(dir)
        .into_iter()
        .filter(|&(w, _)| w == worker)
        .map(|(_, level)| level)
        .collect();
    found.sort_unstable();
    found
}

/// The last level for which every one of `workers` workers has a checkpoint
/// file in `dir` (by the names: what `solve --workers`, whose workers share
/// one directory, tells the user it would resume from).
pub fn last_common_level(dir: &Path, workers: usize) -> Option<u32> {
    let mut common: Option<Vec<u32>> = None;
    for w in 0..workers {
        let mine = levels(dir, w);
        common = Some(match common {
            None => mine,
            Some(c) => c.into_iter().filter(|l| mine.contains(l)).collect(),
        });
    }
    common.and_then(|c| c.into_iter().max())
}

/// Writes a worker's state (`header`, `cells`, `marks`) to its file in `dir`,
/// then removes this worker's other checkpoints but the latest one before it.
/// Returns the bytes written.
pub fn write(dir: &Path, h: &Header, cells: &[u16], marks: &[u32]) -> Result<u64, String> {
    let target = path(dir, h.worker, h.level);
    let header = serde_json::to_vec(h).expect("a header serialises");
    let mut written = 0u64;
    chopsticks_files::write_with(&target, |file| {
        let mut crc = crc32fast::Hasher::new();
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let mut put = |bytes: &[u8]| -> std::io::Result<()> {
            crc.update(bytes);
            written += bytes.len() as u64;
            out.write_all(bytes)
        };
        put(MAGIC)?;
        put(&VERSION.to_le_bytes())?;
        put(&(header.len() as u32).to_le_bytes())?;
        put(&header)?;
        let mut buf = Vec::with_capacity(1 << 20);
        for chunk in cells.chunks(1 << 19) {
            buf.clear();
            buf.extend(chunk.iter().flat_map(|c| c.to_le_bytes()));
            put(&buf)?;
        }
        for chunk in marks.chunks(1 << 18) {
            buf.clear();
            buf.extend(chunk.iter().flat_map(|m| m.to_le_bytes()));
            put(&buf)?;
        }
        let sum = crc.clone().finalize();
        out.write_all(&sum.to_le_bytes())?;
        written += 4;
        out.flush()
    })
    .map_err(|e| format!("cannot write the checkpoint: {}", with_cause(&e)))?;
    // Keep this one and the one before it (another worker may not have
    // written this level yet when this process is lost).
    let mine = levels(dir, h.worker);
    let before = mine.iter().copied().filter(|&l| l < h.level).max();
    for l in mine {
        if l != h.level && Some(l) != before {
            let _ = std::fs::remove_file(path(dir, h.worker, l));
        }
    }
    Ok(written)
}

/// An error with its causes: `o.bin: cannot write: No space left on device`.
pub fn with_cause(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

/// Reads worker `expected.worker`'s checkpoint after `level` from `dir`,
/// checked against what this worker solves (`expected`, its level and
/// counters aside), or says why it is not resumed from: missing, damaged or
/// of another solve (other rules, another number of workers).
pub fn read(dir: &Path, expected: &Header, level: u32) -> Result<State, String> {
    let file = open(&path(dir, expected.worker, level))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot be read ({e})"))?
        .len();
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut crc = crc32fast::Hasher::new();
    let (header, header_len) = read_header(&mut input, &mut crc)?;
    let body = header
        .len
        .checked_mul(2)
        .and_then(|c| c.checked_add(header.tiles.checked_mul(4)?))
        .ok_or("damaged (its header does not read)")?;
    if header.ruleset != expected.ruleset {
        return Err(format!(
            "of another variant ({}, not {})",
            header.ruleset.variant_id(),
            expected.ruleset.variant_id()
        ));
    }
    if header.workers != expected.workers {
        return Err(format!(
            "of a solve with {} workers, not {}",
            header.workers, expected.workers
        ));
    }
    if header.worker != expected.worker || header.level != level {
        return Err(format!(
            "named after worker {} and level {level} but holding worker {}'s level {}",
            expected.worker, header.worker, header.level
        ));
    }
    if (header.first, header.len, header.tiles) != (expected.first, expected.len, expected.tiles) {
        return Err(format!(
            "of another share of the index (positions {} to {}, not {} to {})",
            header.first,
            (header.first + header.len).saturating_sub(1),
            expected.first,
            (expected.first + expected.len).saturating_sub(1)
        ));
    }
    let whole = 8 + 4 + 4 + u64::from(header_len) + body + 4;
    if size != whole {
        return Err(format!("cut short or damaged ({size} bytes, not {whole})"));
    }
    let damaged = || "damaged (it does not read to its end)".to_string();
    let mut take = |n: usize| -> Result<Vec<u8>, String> {
        let mut bytes = vec![0u8; n];
        input.read_exact(&mut bytes).map_err(|_| damaged())?;
        crc.update(&bytes);
        Ok(bytes)
    };
    let mut cells = Vec::with_capacity(header.len as usize);
    let mut left = header.len as usize;
    while left > 0 {
        let n = left.min(1 << 19);
        let bytes = take(n * 2)?;
        cells.extend(
            bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]])),
        );
        left -= n;
    }
    let marks_bytes = take(header.tiles as usize * 4)?;
    let marks = marks_bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        .collect();
    let sum = crc.finalize();
    let mut stored = [0u8; 4];
    input.read_exact(&mut stored).map_err(|_| damaged())?;
    if u32::from_le_bytes(stored) != sum {
        return Err("damaged (its checksum does not match)".into());
    }
    Ok(State {
        header,
        cells,
        marks,
    })
}

/// Opens a checkpoint file, refusing what is not a regular file (a FIFO would
/// block the solve for ever, a directory cannot be read).
fn open(path: &Path) -> Result<std::fs::File, String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("cannot be read ({e})"))?;
    if !metadata.is_file() {
        return Err("not a regular file".into());
    }
    std::fs::File::open(path).map_err(|e| format!("cannot be read ({e})"))
}

/// The header of a checkpoint from its start, its length, and the checksum
/// so far; or why it is not one.
fn read_header(
    input: &mut impl Read,
    crc: &mut crc32fast::Hasher,
) -> Result<(Header, u32), String> {
    // The magic first, as much of it as there is: a short file that does not
    // start like a checkpoint is not one.
    let mut magic = Vec::with_capacity(8);
    input
        .by_ref()
        .take(8)
        .read_to_end(&mut magic)
        .map_err(|e| format!("cannot be read ({e})"))?;
    if magic[..] != MAGIC[..magic.len()] {
        return Err("not a checkpoint of chopsticks".into());
    }
    crc.update(&magic);
    let mut take = |n: usize| -> Result<Vec<u8>, String> {
        let mut bytes = vec![0u8; n];
        input
            .read_exact(&mut bytes)
            .map_err(|_| "cut short (its header is incomplete)".to_string())?;
        crc.update(&bytes);
        Ok(bytes)
    };
    if magic.len() < 8 {
        return Err("cut short (its header is incomplete)".into());
    }
    let word = |b: Vec<u8>| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    let version = word(take(4)?);
    if version != VERSION {
        return Err(format!(
            "of format version {version}, not {VERSION} (another version of chopsticks)"
        ));
    }
    let header_len = word(take(4)?);
    if header_len > MAX_HEADER {
        return Err("damaged (its header does not read)".into());
    }
    let header: Header = serde_json::from_slice(&take(header_len as usize)?)
        .map_err(|_| "damaged (its header does not read)".to_string())?;
    Ok((header, header_len))
}

/// The workers of the checkpoint files in `dir` (by their names), ascending:
/// in a directory shared by every worker (`solve --workers`), those of an
/// earlier solve with more workers than this one show up here.
pub fn workers_in(dir: &Path) -> Vec<usize> {
    let mut found: Vec<usize> = files(dir).into_iter().map(|(w, _)| w).collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The number of workers of the solve that wrote the checkpoint at `path`
/// (its header alone is read), or why it is not known.
pub fn workers_of(path: &Path) -> Result<usize, String> {
    let file = open(path)?;
    let mut crc = crc32fast::Hasher::new();
    read_header(&mut BufReader::new(file), &mut crc).map(|(h, _)| h.workers)
}

/// Removes every checkpoint of worker `worker` in `dir` (the solve is done), or
/// those after `level` (resuming from it: they are written again).
pub fn remove(dir: &Path, worker: usize, after: Option<u32>) {
    for l in levels(dir, worker) {
        if after.is_none_or(|a| l > a) {
            let _ = std::fs::remove_file(path(dir, worker, l));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(level: u32) -> State {
        State {
            header: Header {
                ruleset: chopsticks_rules::Preset::Standard.ruleset(),
                worker: 1,
                workers: 3,
                first: 100,
                len: 5,
                tiles: 2,
                level,
                messages: 1234,
                levels: level + 1,
            },
            cells: vec![1, 2, 3, 0xfffe, 7],
            marks: vec![4, level],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_and_a_damaged_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let s = state(4);
        let bytes = write(dir.path(), &s.header, &s.cells, &s.marks).unwrap();
        assert_eq!(
            std::fs::metadata(path(dir.path(), 1, 4)).unwrap().len(),
            bytes
        );
        let back = read(dir.path(), &s.header, 4).unwrap();
        assert_eq!(workers_of(&path(dir.path(), 1, 4)), Ok(3));
        assert_eq!(workers_in(dir.path()), [1]);
        assert_eq!(back.header, s.header);
        assert_eq!(back.cells, s.cells);
        assert_eq!(back.marks, s.marks);
        // Another solve's worker, or another range: not resumed from.
        let mut other = s.header.clone();
        other.workers = 4;
        let why = |r: Result<State, String>| r.err().expect("refused");
        assert_eq!(
            why(read(dir.path(), &other, 4)),
            "of a solve with 3 workers, not 4"
        );
        other = s.header.clone();
        other.ruleset = chopsticks_rules::Preset::Rollover.ruleset();
        assert!(why(read(dir.path(), &other, 4)).starts_with("of another variant ("));
        other = s.header.clone();
        other.first = 0;
        assert!(why(read(dir.path(), &other, 4)).starts_with("of another share of the index"));
        assert!(why(read(dir.path(), &s.header, 5)).starts_with("cannot be read"));
        // A flipped byte, or a cut file: refused.
        let file = path(dir.path(), 1, 4);
        let mut data = std::fs::read(&file).unwrap();
        let k = data.len() - 7;
        data[k] ^= 1;
        std::fs::write(&file, &data).unwrap();
        assert_eq!(
            why(read(dir.path(), &s.header, 4)),
            "damaged (its checksum does not match)"
        );
        data[k] ^= 1;
        std::fs::write(&file, &data[..data.len() - 1]).unwrap();
        assert!(why(read(dir.path(), &s.header, 4)).starts_with("cut short or damaged"));
        std::fs::write(&file, b"CHOPSCKP\x01").unwrap();
        assert!(why(read(dir.path(), &s.header, 4)).starts_with("cut short (its header"));
        std::fs::write(&file, b"junk").unwrap();
        assert_eq!(
            why(read(dir.path(), &s.header, 4)),
            "not a checkpoint of chopsticks"
        );
        std::fs::write(&file, b"something else").unwrap();
        assert_eq!(
            why(read(dir.path(), &s.header, 4)),
            "not a checkpoint of chopsticks"
        );
    }

    #[test]
    fn each_worker_keeps_its_last_two_and_the_common_level_is_found() {
        let dir = tempfile::tempdir().unwrap();
        for level in [2, 5, 9] {
            let s = state(level);
            write(dir.path(), &s.header, &s.cells, &s.marks).unwrap();
        }
        assert_eq!(levels(dir.path(), 1), [5, 9]);
        // Names written otherwise are never read as checkpoints.
        for odd in [
            "checkpoint-1-09.bin",
            "checkpoint-+1-9.bin",
            "checkpoint-01-9.bin",
        ] {
            std::fs::write(dir.path().join(odd), "x").unwrap();
        }
        assert_eq!(levels(dir.path(), 1), [5, 9]);
        assert_eq!(misnamed(dir.path()).len(), 3);
        let fifo = dir.path().join("checkpoint-7-1.bin");
        std::fs::create_dir(&fifo).unwrap();
        assert_eq!(workers_of(&fifo), Err("not a regular file".to_string()));
        // Worker 0 is one level behind (it had not written 9 yet).
        for level in [2, 5] {
            let mut s = state(level);
            s.header.worker = 0;
            write(dir.path(), &s.header, &s.cells, &s.marks).unwrap();
        }
        let mut s = state(5);
        s.header.worker = 2;
        write(dir.path(), &s.header, &s.cells, &s.marks).unwrap();
        assert_eq!(last_common_level(dir.path(), 3), Some(5));
        assert_eq!(last_common_level(dir.path(), 4), None);
        remove(dir.path(), 1, Some(5));
        assert_eq!(levels(dir.path(), 1), [5]);
        remove(dir.path(), 1, None);
        assert!(levels(dir.path(), 1).is_empty());
    }
}
