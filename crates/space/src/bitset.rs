//! Plain and atomic bit sets over position indices.

use std::sync::atomic::{AtomicU64, Ordering};

/// A fixed-size set of indices `0..len`, one bit each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
    len: u64,
}

impl BitSet {
    /// An empty set over `0..len`.
    pub fn new(len: u64) -> BitSet {
        BitSet {
            words: vec![0; len.div_ceil(64) as usize],
            len,
        }
    }

    /// The full set `0..len`.
    pub fn full(len: u64) -> BitSet {
        let mut words = vec![u64::MAX; len.div_ceil(64) as usize];
        if !len.is_multiple_of(64) {
            if let Some(last) = words.last_mut() {
                *last = (1u64 << (len % 64)) - 1;
            }
        }
        BitSet { words, len }
    }

    /// The size of the universe `0..len`.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the universe is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn contains(&self, i: u64) -> bool {
        self.words[(i >> 6) as usize] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, i: u64) {
        self.words[(i >> 6) as usize] |= 1 << (i & 63);
    }

    /// The number of members.
    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        iter_word_bits(&self.words, 0)
    }

    /// The indices of `0..len` that are not members, in increasing order.
    pub fn iter_missing(&self) -> impl Iterator<Item = u64> + '_ {
        let len = self.len;
        (0..self.words.len()).flat_map(move |w| {
            let word = !self.words[w];
            bits_of(word, w as u64 * 64).take_while(move |&i| i < len)
        })
    }

    /// Members `start .. start + len` (`len` at most 64) as the low bits of a
    /// word: bit `k` is member `start + k`.
    #[inline]
    pub fn bits_at(&self, start: u64, len: u32) -> u64 {
        debug_assert!(len <= 64 && start + len as u64 <= self.len);
        if len == 0 {
            return 0;
        }
        let w = (start >> 6) as usize;
        let offset = start & 63;
        let mut bits = self.words[w] >> offset;
        if offset != 0 && offset + len as u64 > 64 {
            bits |= self.words[w + 1] << (64 - offset);
        }
        if len < 64 {
            bits &= (1u64 << len) - 1;
        }
        bits
    }

    /// The set as 64-bit words: bit `i % 64` of word `i / 64` holds member `i`.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// The number of bytes the set occupies.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }
}

/// The set bits of `word`, offset by `base`.
#[inline]
pub(crate) fn bits_of(mut word: u64, base: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if word == 0 {
            None
        } else {
            let t = word.trailing_zeros() as u64;
            word &= word - 1;
            Some(base + t)
        }
    })
}

/// The set bits of a slice of words whose first word holds indices from `base`.
pub(crate) fn iter_word_bits(words: &[u64], base: u64) -> impl Iterator<Item = u64> + '_ {
    words
        .iter()
        .enumerate()
        .flat_map(move |(w, &word)| bits_of(word, base + w as u64 * 64))
}

/// A bit set that many threads may add to at once.
#[derive(Debug)]
pub struct AtomicBitSet {
    words: Vec<AtomicU64>,
}

impl AtomicBitSet {
    pub fn new(len: u64) -> AtomicBitSet {
        AtomicBitSet {
            words: (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Adds `i`. Relaxed ordering suffices: the set is only read after the parallel
    /// section that writes it has been joined, which synchronises.
    #[inline]
    pub fn insert(&self, i: u64) {
        let word = &self.words[(i >> 6) as usize];
        let bit = 1u64 << (i & 63);
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// Adds `i`, telling whether it was new (the one caller that added it, when
    /// several threads add it at once).
    #[inline]
    pub fn insert_new(&self, i: u64) -> bool {
        let word = &self.words[(i >> 6) as usize];
        let bit = 1u64 << (i & 63);
        word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// Removes the members among `start .. start + len` (`len` at most 64),
    /// returning them as the bits of a word (bit `k`: `start + k`). Other
    /// threads may take or add other bits of the same words at once.
    #[inline]
    pub fn take_bits_at(&self, start: u64, len: u32) -> u64 {
        debug_assert!(len <= 64);
        if len == 0 {
            return 0;
        }
        let mask = if len == 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        let (w, shift) = ((start >> 6) as usize, (start & 63) as u32);
        let take = |word: &AtomicU64, bits: u64| -> u64 {
            // Only a word with a member to take is written.
            if word.load(Ordering::Relaxed) & bits == 0 {
                0
            } else {
                word.fetch_and(!bits, Ordering::Relaxed) & bits
            }
        };
        let low = take(&self.words[w], mask << shift) >> shift;
        if shift + len <= 64 {
            return low;
        }
        let rest = shift + len - 64;
        let high = take(&self.words[w + 1], (1u64 << rest) - 1);
        low | high << (64 - shift)
    }

    /// Whether the set has no member (read after the threads adding to it
    /// have been joined).
    pub fn is_clear(&self) -> bool {
        self.words.iter().all(|w| w.load(Ordering::Relaxed) == 0)
    }

    pub(crate) fn words_mut(&mut self) -> &mut [AtomicU64] {
        &mut self.words
    }

    pub(crate) fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The plain set of the same members, over `0..len`.
    pub fn into_bitset(self, len: u64) -> BitSet {
        BitSet {
            words: self.words.into_iter().map(AtomicU64::into_inner).collect(),
            len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_taken_once_across_word_boundaries() {
        for start in [0u64, 1, 30, 63, 64, 100] {
            for len in [0u32, 1, 5, 33, 63, 64] {
                let set = AtomicBitSet::new(300);
                let members = [0u64, 3, 63, 64, 65, 127, 128, 164, 200];
                for &m in &members {
                    set.insert(m);
                }
                let want = members
                    .iter()
                    .filter(|&&m| m >= start && m < start + len as u64)
                    .fold(0u64, |w, &m| w | 1 << (m - start));
                assert_eq!(set.take_bits_at(start, len), want, "{start} {len}");
                assert_eq!(set.take_bits_at(start, len), 0, "{start} {len}");
                let left = set.into_bitset(300);
                for &m in &members {
                    let taken = m >= start && m < start + len as u64;
                    assert_eq!(left.contains(m), !taken, "{m}");
                }
            }
        }
    }

    #[test]
    fn bitset_basics() {
        let mut s = BitSet::new(130);
        for i in [0, 5, 63, 64, 129] {
            s.insert(i);
        }
        assert_eq!(s.count(), 5);
        assert!(s.contains(64) && !s.contains(65));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 129]);
        assert_eq!(s.iter_missing().count(), 125);
        assert!(s.iter_missing().all(|i| i < 130 && !s.contains(i)));
        for start in 0..130u64 {
            for len in 0..=64u32.min((130 - start) as u32) {
                let want = (0..len as u64)
                    .filter(|&k| s.contains(start + k))
                    .fold(0u64, |w, k| w | 1 << k);
                assert_eq!(s.bits_at(start, len), want, "{start} {len}");
            }
        }
        let n = AtomicBitSet::new(70);
        assert!(n.insert_new(66) && !n.insert_new(66) && n.insert_new(3));
        let mut a = AtomicBitSet::new(130);
        a.insert(129);
        a.insert(129);
        assert_eq!(*a.words_mut()[2].get_mut(), 2);
    }
}
