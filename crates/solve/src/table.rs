//! The solved values of every position, one or two bytes each.

use rayon::prelude::*;

use crate::outcome::{Outcome, Value};

/// Every position's outcome, indexed like the ruleset's dense position index.
///
/// `Narrow` (one byte per position, every remoteness ≤ 126): `0xFF` is a draw, bit 7
/// marks a loss, the low 7 bits are the remoteness; two bytes are packed in each
/// 16-bit word, position `2k` in the low byte of word `k`. `Wide` (two bytes): bits
/// 0-1 are `1` win, `2` lose, `3` draw, bits 2-15 the remoteness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Table {
    Narrow { len: u64, packed: Vec<u16> },
    Wide(Vec<u16>),
}

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

impl Table {
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

    /// The number of positions.
    pub fn len(&self) -> u64 {
        match self {
            Table::Narrow { len, .. } => *len,
            Table::Wide(v) => v.len() as u64,
        }
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The outcome of the position with this index.
    #[inline]
    pub fn get(&self, index: u64) -> Outcome {
        match self {
            Table::Narrow { packed, .. } => {
                from_narrow((packed[(index / 2) as usize] >> (8 * (index % 2))) as u8)
            }
            Table::Wide(v) => from_wide(v[index as usize]),
        }
    }

    /// Bytes per position: 1 or 2.
    pub fn bytes_per_position(&self) -> u64 {
        match self {
            Table::Narrow { .. } => 1,
            Table::Wide(_) => 2,
        }
    }

    /// The encoding's name, as stored in saved files.
    pub fn encoding(&self) -> &'static str {
        match self {
            Table::Narrow { .. } => "narrow",
            Table::Wide(_) => "wide",
        }
    }

    /// The raw bytes (little-endian for the wide encoding).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Table::Narrow { len, packed } => packed
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(*len as usize)
                .collect(),
            Table::Wide(v) => v.iter().flat_map(|c| c.to_le_bytes()).collect(),
        }
    }

    /// Rebuilds a table from its encoding name and raw bytes; `None` if they do not fit.
    pub fn from_bytes(encoding: &str, bytes: &[u8]) -> Option<Table> {
        match encoding {
            "narrow" => Some(Table::from_narrow_bytes(bytes)),
            "wide" if bytes.len().is_multiple_of(2) => Some(Table::Wide(
                bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip() {
        let outcomes = [
            Outcome::win(0),
            Outcome::win(126),
            Outcome::lose(0),
            Outcome::lose(126),
            Outcome::DRAW,
        ];
        let t = Table::build(5, 126, |i| outcomes[i as usize]);
        assert_eq!(t.bytes_per_position(), 1);
        for (i, o) in outcomes.iter().enumerate() {
            assert_eq!(t.get(i as u64), *o);
        }
        let t = Table::build(5, 127, |i| outcomes[i as usize]);
        assert_eq!(t.bytes_per_position(), 2);
        for (i, o) in outcomes.iter().enumerate() {
            assert_eq!(t.get(i as u64), *o);
        }
        let back = Table::from_bytes(t.encoding(), &t.to_bytes()).unwrap();
        assert_eq!(back, t);
        let t = Table::build(5, 126, |i| outcomes[i as usize]);
        let back = Table::from_bytes(t.encoding(), &t.to_bytes()).unwrap();
        assert_eq!(back, t);
        assert_eq!(t.to_bytes().len(), 5);
    }
}
