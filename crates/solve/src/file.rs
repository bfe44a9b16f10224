//! Saved solutions: a versioned binary file with the ruleset in its header and a
//! checksum over everything.
//!
//! ```text
//! 8 bytes   magic "CHOPSOLV"
//! u32 LE    format version (1)
//! u32 LE    header length H
//! H bytes   header, JSON: {"ruleset": …, "positions": N, "encoding": "narrow"|"wide",
//!           "concept": "two-player"|"coalition"|"teams"}
//! E or 2E   the table (see `Table`): E = N outcomes, or N × players for coalition values
//! u32 LE    CRC-32 of every byte before it
//! ```
//!
//! Version 2 added `concept` (which solution concept the table holds, see
//! [`crate::multi`]); version 1 files, all two-player, are still read.
//!
//! Files are written by `chopsticks_files::write_atomically`: to a temporary name
//! beside the target, then renamed, so a failed or interrupted save never leaves a
//! half-written file under the target name; links are written through and devices
//! or pipes refused.

use std::fs;
use std::io::Read;
use std::path::Path;

use chopsticks_rules::{PositionIndex, Ruleset};
use serde::{Deserialize, Serialize};

use crate::{Concept, Solution, SolveError, Table};

/// The first bytes of every solution file.
pub const MAGIC: &[u8; 8] = b"CHOPSOLV";
/// The format version this code writes (it also reads version 1).
pub const VERSION: u32 = 2;

#[derive(Serialize, Deserialize)]
struct Header {
    ruleset: Ruleset,
    positions: u64,
    encoding: String,
    /// Absent in version 1 files, which hold two-player tables.
    #[serde(default = "two_player")]
    concept: Concept,
}

fn two_player() -> Concept {
    Concept::TwoPlayer
}

impl Header {
    /// Outcomes stored: one per position, or one per position and seat.
    fn entries(&self) -> Option<u64> {
        self.positions
            .checked_mul(self.concept.width(self.ruleset.players()) as u64)
    }
}

fn error(path: &Path, message: impl Into<String>) -> SolveError {
    SolveError::File {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// The bytes of a solution file.
pub fn encode(solution: &Solution) -> Vec<u8> {
    let table = solution.table();
    let header = serde_json::to_vec(&Header {
        ruleset: solution.rules().clone(),
        positions: solution.count(),
        encoding: table.encoding().to_string(),
        concept: solution.concept(),
    })
    .expect("the header serialises");
    let mut out = Vec::with_capacity(16 + header.len() + table.len() as usize * 2 + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&table.to_bytes());
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Writes a solution to `path` (atomically, through symbolic links, never over
/// anything but a regular file: see `chopsticks_files`).
pub fn save(solution: &Solution, path: &Path) -> Result<(), SolveError> {
    Ok(chopsticks_files::write_atomically(path, &encode(solution))?)
}

/// Reads a solution back from its bytes, checking everything.
pub fn decode(bytes: &[u8], path: &Path) -> Result<Solution, SolveError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(error(
            path,
            "not a chopsticks solution file (wrong magic bytes)",
        ));
    }
    if bytes.len() < 20 {
        return Err(error(path, "truncated: the file ends inside its header"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION && version != 1 {
        return Err(error(
            path,
            format!("format version {version}; this program reads versions 1 and {VERSION}"),
        ));
    }
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let header_end = 16usize
        .checked_add(header_len)
        .filter(|&e| e + 4 <= bytes.len())
        .ok_or_else(|| error(path, "truncated: the file ends inside its header"))?;
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
    let width = match header.encoding.as_str() {
        "narrow" => 1,
        "wide" => 2,
        other => {
            return Err(error(
                path,
                format!("corrupted header: unknown encoding `{other}`"),
            ))
        }
    };
    let expected = header
        .entries()
        .and_then(|e| e.checked_mul(width))
        .and_then(|p| p.checked_add(header_end as u64 + 4))
        .ok_or_else(|| error(path, "corrupted header: impossible size"))?;
    if (bytes.len() as u64) < expected {
        return Err(error(
            path,
            format!(
                "truncated: {} bytes, but a solution of {} positions takes {expected}",
                bytes.len(),
                header.positions
            ),
        ));
    }
    if bytes.len() as u64 > expected {
        return Err(error(
            path,
            "corrupted: unexpected bytes after the checksum",
        ));
    }
    let body_end = bytes.len() - 4;
    let stored = u32::from_le_bytes(bytes[body_end..].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..body_end]) != stored {
        return Err(error(path, "corrupted: the checksum does not match"));
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
    let table = Table::from_bytes(&header.encoding, &bytes[header_end..body_end])
        .ok_or_else(|| error(path, "corrupted table"))?;
    Solution::from_table(header.ruleset, table)
}

/// The largest header this code accepts (the real ones are a few hundred bytes).
const MAX_HEADER: usize = 1 << 20;

/// Reads a solution from `path`. The prefix and header are read first and the file's
/// size is checked against what they announce, so a device, a pipe or a damaged
/// file is refused before anything large is read.
pub fn load(path: &Path) -> Result<Solution, SolveError> {
    let cannot = |e: std::io::Error| error(path, format!("cannot read: {e}"));
    let metadata = fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        return Err(error(path, "not a regular file"));
    }
    let mut file = fs::File::open(path).map_err(cannot)?;
    let mut prefix = Vec::with_capacity(16);
    (&mut file)
        .take(16)
        .read_to_end(&mut prefix)
        .map_err(cannot)?;
    if prefix.len() < 8 || &prefix[..8] != MAGIC {
        return Err(error(
            path,
            "not a chopsticks solution file (wrong magic bytes)",
        ));
    }
    if prefix.len() < 16 {
        return Err(error(path, "truncated: the file ends inside its header"));
    }
    let header_len = u32::from_le_bytes(prefix[12..16].try_into().expect("4 bytes")) as usize;
    if header_len > MAX_HEADER || 16 + header_len as u64 + 4 > metadata.len() {
        return Err(error(
            path,
            "truncated or corrupted: impossible header length",
        ));
    }
    let mut header_bytes = Vec::with_capacity(header_len);
    (&mut file)
        .take(header_len as u64)
        .read_to_end(&mut header_bytes)
        .map_err(cannot)?;
    if let Ok(header) = serde_json::from_slice::<Header>(&header_bytes) {
        let width = if header.encoding == "wide" { 2 } else { 1 };
        let expected = header
            .entries()
            .and_then(|e| e.checked_mul(width))
            .and_then(|p| p.checked_add(16 + header_len as u64 + 4));
        if expected != Some(metadata.len()) {
            let message = match expected {
                Some(e) if e > metadata.len() => format!(
                    "truncated: {} bytes, but a solution of {} positions takes {e}",
                    metadata.len(),
                    header.positions
                ),
                _ => "corrupted: the file's size does not match its header".to_string(),
            };
            return Err(error(path, message));
        }
    }
    // The rest is checked by `decode`, on the whole file.
    let bytes = fs::read(path).map_err(cannot)?;
    decode(&bytes, path)
}
