//! The solved values of every position, one or two bytes each.

use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::outcome::{Outcome, Value};
use crate::paged::PagedTable;
use crate::SolveError;

/// Every position's outcome, indexed like the ruleset's dense position index.
///
/// `Narrow` (one byte per position, every remoteness ≤ 126): `0xFF` is a draw, bit 7
/// marks a loss, the low 7 bits are the remoteness; two bytes are packed in each
/// 16-bit word, position `2k` in the low byte of word `k`. `Wide` (two bytes): bits
/// 0-1 are `1` win, `2` lose, `3` draw, bits 2-15 the remoteness. `Values` (two
/// bits, no remoteness: `solve --no-remoteness`): `0` draw, `1` win, `2` lose, four
/// positions a byte, position `4k + j` in bits `2j, 2j + 1` of byte `k`. `Paged`:
/// any of these in a solution file read in place a block at a time, each block
/// checked against its checksum when it is read ([`crate::paged`]).
#[derive(Clone, Debug)]
pub enum Table {
    Narrow { len: u64, packed: Vec<u16> },
    Wide(Vec<u16>),
    Values { len: u64, packed: Vec<u8> },
    Paged(Arc<PagedTable>),
}

/// How a table stores each outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// One byte: value and remoteness up to 126.
    Narrow,
    /// Two bytes: value and remoteness up to 16383.
    Wide,
    /// Two bits: the value alone.
    Values,
}

impl Encoding {
    /// The encoding with remoteness for a table whose largest remoteness is
    /// `max_remoteness`: one byte up to a remoteness of 126, else two.
    pub fn for_remoteness(max_remoteness: u32) -> Encoding {
        if max_remoteness <= NARROW_MAX {
            Encoding::Narrow
        } else {
            Encoding::Wide
        }
    }

    /// The name stored in solution files.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Narrow => "narrow",
            Encoding::Wide => "wide",
            Encoding::Values => "values",
        }
    }

    /// The encoding of a stored name.
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name {
            "narrow" => Some(Encoding::Narrow),
            "wide" => Some(Encoding::Wide),
            "values" => Some(Encoding::Values),
            _ => None,
        }
    }

    /// Bits per outcome: 8, 16 or 2.
    pub fn bits(self) -> u64 {
        match self {
            Encoding::Narrow => 8,
            Encoding::Wide => 16,
            Encoding::Values => 2,
        }
    }

    /// Bytes taken by `entries` outcomes.
    pub fn bytes_for(self, entries: u64) -> Option<u64> {
        entries.checked_mul(self.bits()).map(|b| b.div_ceil(8))
    }

    /// The first and last outcome stored in the `bytes` bytes from byte `start`
    /// of a table of `entries` outcomes (`start` a multiple of 2).
    pub fn entries_in(self, start: u64, bytes: u64, entries: u64) -> (u64, u64) {
        let per = |b: u64| b * 8 / self.bits();
        let first = per(start);
        let last = (per(start + bytes)).min(entries).saturating_sub(1);
        (first, last)
    }

    /// Decodes entry `k` of the raw bytes `bytes` (the whole table); `None` for a
    /// code no table holds.
    #[inline]
    pub(crate) fn decode(self, bytes: &[u8], k: u64) -> Option<Outcome> {
        match self {
            Encoding::Narrow => {
                let b = bytes[k as usize];
                narrow_code_held(b).then(|| from_narrow(b))
            }
            Encoding::Wide => {
                let i = 2 * k as usize;
                let c = u16::from_le_bytes([bytes[i], bytes[i + 1]]);
                (c & 3 != 0 && (c & 3 != 3 || c == 3)).then(|| from_wide(c))
            }
            Encoding::Values => from_values((bytes[(k / 4) as usize] >> (2 * (k % 4))) & 3),
        }
    }
}

/// The outcome a [`Encoding::Values`] code stands for.
#[inline]
fn from_values(code: u8) -> Option<Outcome> {
    match code {
        0 => Some(Outcome::DRAW),
        1 => Some(Outcome::unknown(Value::Win)),
        2 => Some(Outcome::unknown(Value::Lose)),
        _ => None,
    }
}

/// The [`Encoding::Values`] code of an outcome.
fn values_code(o: Outcome) -> u8 {
    match o.value {
        Value::Draw => 0,
        Value::Win => 1,
        Value::Lose => 2,
    }
}

impl PartialEq for Table {
    /// Tables are equal when they hold the same outcomes in the same encoding
    /// (tables read in place: when they are the same table).
    fn eq(&self, other: &Table) -> bool {
        match (self, other) {
            (Table::Paged(a), Table::Paged(b)) => Arc::ptr_eq(a, b),
            (Table::Paged(_), _) | (_, Table::Paged(_)) => false,
            _ => self.encoding() == other.encoding() && self.to_bytes() == other.to_bytes(),
        }
    }
}

impl Eq for Table {}

/// The largest remoteness the narrow encoding holds.
pub const NARROW_MAX: u32 = 126;

pub(crate) fn narrow(o: Outcome) -> u8 {
    match (o.value, o.remoteness) {
        (Value::Win, Some(r)) => r as u8,
        (Value::Lose, Some(r)) => 0x80 | r as u8,
        _ => 0xFF,
    }
}

pub(crate) fn wide(o: Outcome) -> u16 {
    match (o.value, o.remoteness) {
        (Value::Win, Some(r)) => (r as u16) << 2 | 1,
        (Value::Lose, Some(r)) => (r as u16) << 2 | 2,
        _ => 3,
    }
}

/// The outcome a [`narrow`] code stands for.
#[inline]
pub(crate) fn from_narrow(b: u8) -> Outcome {
    match b {
        0xFF => Outcome::DRAW,
        b if b & 0x80 != 0 => Outcome::lose((b & 0x7F) as u32),
        b => Outcome::win(b as u32),
    }
}

/// The outcome a [`wide`] code stands for.
#[inline]
pub(crate) fn from_wide(c: u16) -> Outcome {
    match c & 3 {
        1 => Outcome::win((c >> 2) as u32),
        2 => Outcome::lose((c >> 2) as u32),
        _ => Outcome::DRAW,
    }
}

/// Reads the outcome at an index in one encoding of a table, for loops
/// compiled once for each encoding ([`Table::read_with`]) instead of asking
/// [`Table::get`] which encoding at every read.
pub(crate) trait ReadOutcome: Sync {
    fn read(&self, index: u64) -> Result<Outcome, SolveError>;

    /// [`Outcome::preference_key`] of the outcome at `index` seen from the
    /// parent, through the move ([`Outcome::through_move`]).
    #[inline(always)]
    fn through_key(&self, index: u64) -> Result<u64, SolveError> {
        Ok(self.read(index)?.through_move().preference_key())
    }
}

/// [`ReadOutcome::through_key`] of every one-byte code, looked up instead of
/// decoded.
static NARROW_THROUGH_KEYS: std::sync::LazyLock<[u64; 256]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|b| from_narrow(b as u8).through_move().preference_key())
});

/// Whether a table can hold this one-byte code (a draw, or a remoteness of at
/// most [`NARROW_MAX`]).
#[inline(always)]
fn narrow_code_held(code: u8) -> bool {
    code == 0xFF || code & 0x7F <= NARROW_MAX as u8
}

/// [`ReadOutcome::through_key`] of a one-byte code, or `None` for a code no
/// table holds.
#[inline(always)]
pub(crate) fn narrow_through_key(code: u8) -> Option<u64> {
    narrow_code_held(code).then(|| NARROW_THROUGH_KEYS[code as usize])
}

/// A computation over a table's outcomes, generic in the table's encoding
/// ([`Table::read_with`]).
pub(crate) trait WithReader {
    type Output;
    fn run<R: ReadOutcome>(self, reader: &R) -> Self::Output;
}

struct NarrowReader<'a>(&'a [u16]);
struct WideReader<'a>(&'a [u16]);
struct ValuesReader<'a>(&'a [u8]);

impl NarrowReader<'_> {
    #[inline(always)]
    fn code(&self, index: u64) -> u8 {
        (self.0[(index / 2) as usize] >> (8 * (index % 2))) as u8
    }
}

impl ReadOutcome for NarrowReader<'_> {
    #[inline(always)]
    fn read(&self, index: u64) -> Result<Outcome, SolveError> {
        Ok(from_narrow(self.code(index)))
    }

    #[inline(always)]
    fn through_key(&self, index: u64) -> Result<u64, SolveError> {
        Ok(NARROW_THROUGH_KEYS[self.code(index) as usize])
    }
}

impl ReadOutcome for WideReader<'_> {
    #[inline(always)]
    fn read(&self, index: u64) -> Result<Outcome, SolveError> {
        Ok(from_wide(self.0[index as usize]))
    }
}

impl ReadOutcome for ValuesReader<'_> {
    #[inline(always)]
    fn read(&self, index: u64) -> Result<Outcome, SolveError> {
        Ok(
            from_values((self.0[(index / 4) as usize] >> (2 * (index % 4))) & 3)
                .unwrap_or(Outcome::DRAW),
        )
    }
}

/// [`Table::get`]: one outcome, read by the reader of the table's encoding.
struct ReadOne(u64);

impl WithReader for ReadOne {
    type Output = Result<Outcome, SolveError>;
    #[inline(always)]
    fn run<R: ReadOutcome>(self, reader: &R) -> Result<Outcome, SolveError> {
        reader.read(self.0)
    }
}

impl ReadOutcome for Table {
    #[inline]
    fn read(&self, index: u64) -> Result<Outcome, SolveError> {
        self.get(index)
    }
}

impl ReadOutcome for PagedTable {
    #[inline]
    fn read(&self, index: u64) -> Result<Outcome, SolveError> {
        self.get(index)
    }
}

impl Table {
    /// Runs `work` with a reader of this table's encoding (what
    /// [`Table::get`] reads, for every index below [`Table::len`]).
    pub(crate) fn read_with<W: WithReader>(&self, work: W) -> W::Output {
        match self {
            Table::Narrow { packed, .. } => work.run(&NarrowReader(packed)),
            Table::Wide(v) => work.run(&WideReader(v)),
            Table::Values { packed, .. } => work.run(&ValuesReader(packed)),
            Table::Paged(m) => work.run(&**m),
        }
    }

    /// Builds the table of `count` outcomes; `max_remoteness` chooses the encoding.
    pub fn build(
        count: u64,
        max_remoteness: u32,
        outcome: impl Fn(u64) -> Outcome + Sync,
    ) -> Table {
        if max_remoteness <= NARROW_MAX {
            let bytes: Vec<u8> = (0..count as usize)
                .into_par_iter()
                .with_min_len(4096)
                .map(|i| narrow(outcome(i as u64)))
                .collect();
            Table::from_narrow_bytes(&bytes)
        } else {
            Table::Wide(
                (0..count as usize)
                    .into_par_iter()
                    .with_min_len(4096)
                    .map(|i| wide(outcome(i as u64)))
                    .collect(),
            )
        }
    }

    fn from_narrow_bytes(bytes: &[u8]) -> Table {
        Table::Narrow {
            len: bytes.len() as u64,
            packed: bytes
                .chunks(2)
                .map(|c| u16::from(c[0]) | u16::from(c.get(1).copied().unwrap_or(0)) << 8)
                .collect(),
        }
    }

    /// The number of outcomes.
    pub fn len(&self) -> u64 {
        match self {
            Table::Narrow { len, .. } | Table::Values { len, .. } => *len,
            Table::Wide(v) => v.len() as u64,
            Table::Paged(m) => m.len(),
        }
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The outcome with this index; for a table read in place the read of a block
    /// checks it ([`SolveError::Damaged`] when its checksum fails).
    #[inline]
    pub fn get(&self, index: u64) -> Result<Outcome, SolveError> {
        self.read_with(ReadOne(index))
    }

    /// The draws among the outcomes `first .. first + len` (`len` at most 64,
    /// past the end left out) as the low bits of a word, read straight from the
    /// packed codes; `None` for a table read in place (use [`Table::get`]).
    pub fn draw_mask(&self, first: u64, len: u32) -> Option<u64> {
        debug_assert!(len <= 64);
        let end = self.len().min(first + len as u64);
        let mut mask = 0u64;
        match self {
            Table::Narrow { packed, .. } => {
                for i in first..end {
                    let b = (packed[(i / 2) as usize] >> (8 * (i % 2))) as u8;
                    mask |= u64::from(from_narrow(b).value == Value::Draw) << (i - first);
                }
            }
            Table::Wide(v) => {
                for i in first..end {
                    mask |= u64::from(from_wide(v[i as usize]).value == Value::Draw) << (i - first);
                }
            }
            Table::Values { packed, .. } => {
                for i in first..end {
                    let code = (packed[(i / 4) as usize] >> (2 * (i % 4))) & 3;
                    mask |= u64::from(from_values(code).is_none_or(|o| o.value == Value::Draw))
                        << (i - first);
                }
            }
            Table::Paged(_) => return None,
        }
        Some(mask)
    }

    /// How the outcomes are stored.
    pub fn encoding(&self) -> Encoding {
        match self {
            Table::Narrow { .. } => Encoding::Narrow,
            Table::Wide(_) => Encoding::Wide,
            Table::Values { .. } => Encoding::Values,
            Table::Paged(m) => m.encoding(),
        }
    }

    /// Whether outcomes carry their remoteness (every encoding but `Values`).
    pub fn has_remoteness(&self) -> bool {
        self.encoding() != Encoding::Values
    }

    /// Bits per outcome: 8, 16 or 2.
    pub fn bits_per_entry(&self) -> u64 {
        self.encoding().bits()
    }

    /// Bytes held in memory: the table, or for a table read in place its block
    /// checksums and states and its cache of checked blocks at its fullest.
    pub fn resident_bytes(&self) -> u64 {
        match self {
            Table::Paged(m) => m.bookkeeping_bytes(),
            _ => self.encoding().bytes_for(self.len()).unwrap_or(u64::MAX),
        }
    }

    /// Whether the table is read in place from a file rather than held in memory.
    pub fn is_paged(&self) -> bool {
        matches!(self, Table::Paged(_))
    }

    /// The same values without remoteness ([`Encoding::Values`]), built in
    /// parallel; the table itself is released as soon as it is read.
    pub fn without_remoteness(self) -> Result<Table, SolveError> {
        if self.encoding() == Encoding::Values {
            return Ok(self);
        }
        let len = self.len();
        if let Table::Paged(m) = &self {
            // Read in place: a slice of the file at a time, its cache emptied
            // after each, so that the values take what they take and no more
            // (not the whole table, nor the cache at its fullest).
            const STEP: u64 = crate::SLICE_POSITIONS;
            let mut packed = Vec::with_capacity(len.div_ceil(4) as usize);
            let mut first = 0;
            while first < len {
                let count = STEP.min(len - first);
                let Some(slice) = m.slice(first, count)? else {
                    break;
                };
                match slice.without_remoteness()? {
                    Table::Values { packed: part, .. } => packed.extend_from_slice(&part),
                    _ => unreachable!("values are values"),
                }
                m.release_cache();
                first += count;
            }
            if first >= len {
                return Ok(Table::Values { len, packed });
            }
        }
        let packed: Result<Vec<u8>, SolveError> = (0..len.div_ceil(4) as usize)
            .into_par_iter()
            .with_min_len(4096)
            .map(|k| {
                let k = k as u64;
                let mut byte = 0u8;
                for j in 0..4u64.min(len - 4 * k) {
                    byte |= values_code(self.get(4 * k + j)?) << (2 * j);
                }
                Ok(byte)
            })
            .collect();
        Ok(Table::Values {
            len,
            packed: packed?,
        })
    }

    /// The raw bytes as stored in files (little-endian for the wide encoding); a
    /// table read in place reads (and checks) every block.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.for_each_chunk(1 << 20, |bytes| {
            out.extend_from_slice(bytes);
            Ok(())
        })
        .expect("writing to memory does not fail");
        out
    }

    /// Calls `write` with the raw bytes of the table, in order, in pieces of at
    /// most `chunk` bytes (so a large table is written without a second copy).
    pub fn for_each_chunk(
        &self,
        chunk: usize,
        mut write: impl FnMut(&[u8]) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        let chunk = chunk.max(2) & !1;
        match self {
            Table::Narrow { len, packed } => {
                let mut left = *len as usize;
                let mut buf = Vec::with_capacity(chunk);
                for words in packed.chunks(chunk / 2) {
                    buf.clear();
                    buf.extend(words.iter().flat_map(|w| w.to_le_bytes()));
                    let take = buf.len().min(left);
                    write(&buf[..take])?;
                    left -= take;
                }
                Ok(())
            }
            Table::Wide(v) => {
                let mut buf = Vec::with_capacity(chunk);
                for codes in v.chunks(chunk / 2) {
                    buf.clear();
                    buf.extend(codes.iter().flat_map(|c| c.to_le_bytes()));
                    write(&buf)?;
                }
                Ok(())
            }
            Table::Values { packed, .. } => {
                for bytes in packed.chunks(chunk) {
                    write(bytes)?;
                }
                Ok(())
            }
            Table::Paged(m) => m.for_each_chunk(chunk, write),
        }
    }

    /// Rebuilds a table from its encoding and raw bytes holding `entries`
    /// outcomes; `None` if they do not fit or hold a code no table holds.
    pub fn from_bytes(encoding: Encoding, bytes: &[u8], entries: u64) -> Option<Table> {
        if encoding.bytes_for(entries)? != bytes.len() as u64 {
            return None;
        }
        let valid = (0..entries as usize)
            .into_par_iter()
            .with_min_len(1 << 16)
            .all(|k| encoding.decode(bytes, k as u64).is_some());
        if !valid {
            return None;
        }
        Some(match encoding {
            Encoding::Narrow => Table::from_narrow_bytes(bytes),
            Encoding::Wide => Table::Wide(
                bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            ),
            Encoding::Values => Table::Values {
                len: entries,
                packed: bytes.to_vec(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTCOMES: [Outcome; 5] = [
        Outcome {
            value: Value::Win,
            remoteness: Some(0),
        },
        Outcome {
            value: Value::Win,
            remoteness: Some(126),
        },
        Outcome {
            value: Value::Lose,
            remoteness: Some(0),
        },
        Outcome {
            value: Value::Lose,
            remoteness: Some(126),
        },
        Outcome::DRAW,
    ];

    fn check(t: &Table, bits: u64) {
        assert_eq!(t.bits_per_entry(), bits);
        assert_eq!(t.len(), 5);
        for (i, o) in OUTCOMES.iter().enumerate() {
            let got = t.get(i as u64).unwrap();
            if t.has_remoteness() {
                assert_eq!(got, *o);
            } else {
                assert_eq!(got, Outcome::unknown(o.value));
            }
        }
        let bytes = t.to_bytes();
        assert_eq!(bytes.len() as u64, t.encoding().bytes_for(5).unwrap());
        let back = Table::from_bytes(t.encoding(), &bytes, 5).unwrap();
        assert_eq!(&back, t);
        // Written in small pieces, the same bytes.
        let mut pieces = Vec::new();
        t.for_each_chunk(2, |b| {
            pieces.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        assert_eq!(pieces, bytes);
    }

    #[test]
    fn encodings_round_trip() {
        let narrow = Table::build(5, 126, |i| OUTCOMES[i as usize]);
        check(&narrow, 8);
        let wide = Table::build(5, 127, |i| OUTCOMES[i as usize]);
        check(&wide, 16);
        check(&narrow.clone().without_remoteness().unwrap(), 2);
        check(&wide.without_remoteness().unwrap(), 2);
        assert_eq!(narrow.to_bytes().len(), 5);
    }

    #[test]
    fn codes_no_table_holds_are_refused() {
        assert!(Table::from_bytes(Encoding::Narrow, &[0x7F], 1).is_none());
        assert!(Table::from_bytes(Encoding::Wide, &[0, 0], 1).is_none());
        assert!(Table::from_bytes(Encoding::Wide, &[7, 0], 1).is_none());
        assert!(Table::from_bytes(Encoding::Values, &[0b11], 1).is_none());
        assert!(Table::from_bytes(Encoding::Values, &[0b10_01], 2).is_some());
        // The wrong length.
        assert!(Table::from_bytes(Encoding::Values, &[0, 0], 9).is_none());
        assert!(Table::from_bytes(Encoding::Wide, &[3, 0, 3], 2).is_none());
    }

    #[test]
    fn entries_of_a_byte_range() {
        assert_eq!(Encoding::Narrow.entries_in(0, 4, 10), (0, 3));
        assert_eq!(Encoding::Wide.entries_in(4, 4, 10), (2, 3));
        assert_eq!(Encoding::Values.entries_in(2, 2, 10), (8, 9));
    }
}
