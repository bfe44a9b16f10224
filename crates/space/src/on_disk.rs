//! Breadth-first exploration with one bit a position in memory, the layers on
//! disk.
//!
//! [`crate::explore`] keeps three bit sets in memory (seen, the layer, the
//! next layer): 3 bits a position, 32 GB for the 8.6·10¹⁰ positions of 2 × 12
//! hands at F = 10. This one keeps only the set of positions seen, `R`, in
//! memory, and finds each layer from two snapshots of `R` written to disk:
//!
//! 1. at the start of step `d`, `R` is written to a file, `S_d`;
//! 2. the layer `d` is `S_d \ S_(d−1)`: the positions first seen during the
//!    step before (for `d = 0`, the start). Both files are read a chunk at a
//!    time, in order, and each chunk's layer positions are expanded in
//!    parallel: every child is added to `R`;
//! 3. `S_(d−1)` is removed; the exploration ends with an empty layer.
//!
//! The children added to `R` during step `d` do not change the layer being
//! expanded, which comes from the files, so the layers are exactly those of
//! [`crate::explore`] (tested). Memory: `R` (one bit a position) and two
//! chunks; disk: two snapshots of `R` at a time, one written and two read per
//! layer, sequentially.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use crate::bitset::{bits_of, AtomicBitSet};
use crate::explore::{Exploration, Layer, Progress};
use crate::graph::Graph;

/// Words of the snapshots read and expanded at a time (8 MiB of each file).
const CHUNK_WORDS: usize = 1 << 20;

/// Words read at a time for an index of `words` words: at most
/// [`CHUNK_WORDS`], and at most a sixteenth of the index (from 4 Ki words),
/// so that the six chunks held take less than the bit a position does.
fn chunk_words(words: usize) -> usize {
    CHUNK_WORDS
        .min(words.div_ceil(16).max(1 << 12))
        .min(words)
        .max(1)
}

/// Bytes of memory [`explore_on_disk`] needs for `count` positions besides the
/// move tables: one bit a position, and the chunks and buffers (six chunks).
pub fn explore_on_disk_bytes(count: u64) -> u64 {
    let words = count.div_ceil(64);
    words * 8 + 6 * chunk_words(words as usize) as u64 * 8
}

fn snapshot_path(dir: &Path, depth: u32) -> PathBuf {
    dir.join(format!("reached-{depth}.bits"))
}

/// Writes the words of `seen` to `path`, little-endian; an error names the file.
fn write_snapshot(seen: &AtomicBitSet, path: &Path) -> std::io::Result<()> {
    write_snapshot_words(seen, path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
}

fn write_snapshot_words(seen: &AtomicBitSet, path: &Path) -> std::io::Result<()> {
    let chunk = chunk_words(seen.words().len());
    let mut out = BufWriter::with_capacity(chunk * 8, File::create(path)?);
    let mut buf = Vec::with_capacity(chunk * 8);
    for chunk in seen.words().chunks(chunk) {
        buf.clear();
        buf.extend(chunk.iter().flat_map(|w| w.load(Relaxed).to_le_bytes()));
        out.write_all(&buf)?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Reads the next `words.len()` words of a snapshot.
fn read_words(
    input: &mut impl Read,
    words: &mut [u64],
    bytes: &mut Vec<u8>,
) -> std::io::Result<()> {
    bytes.resize(words.len() * 8, 0);
    input.read_exact(bytes)?;
    for (w, b) in words.iter_mut().zip(bytes.chunks_exact(8)) {
        *w = u64::from_le_bytes(b.try_into().expect("8 bytes"));
    }
    Ok(())
}

/// Explores every position reachable from `start` with one bit a position in
/// memory and the layers found from snapshots in `dir` (created if missing;
/// its snapshot files are removed at the end, and on an error as far as
/// possible). The result is [`crate::explore`]'s.
pub fn explore_on_disk(
    graph: &Graph,
    start: u64,
    dir: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> std::io::Result<Exploration> {
    std::fs::create_dir_all(dir)?;
    let result = explore_in(graph, start, dir, progress);
    // Whatever happened, the snapshots go.
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("reached-") && name.ends_with(".bits") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    result
}

fn explore_in(
    graph: &Graph,
    start: u64,
    dir: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> std::io::Result<Exploration> {
    let n = graph.count();
    let seen = AtomicBitSet::new(n);
    seen.insert(start);
    let words = n.div_ceil(64) as usize;
    let mut layers = Vec::new();
    let mut terminal_layers = Vec::new();
    let mut max_branching = 0u32;
    let mut max_branching_at = start;
    let mut depth = 0u32;
    loop {
        let now = snapshot_path(dir, depth);
        write_snapshot(&seen, &now)?;
        let chunk = chunk_words(words);
        let mut current = BufReader::with_capacity(chunk * 8, File::open(&now)?);
        let mut before = match depth {
            0 => None,
            _ => Some(BufReader::with_capacity(
                chunk * 8,
                File::open(snapshot_path(dir, depth - 1))?,
            )),
        };
        let mut layer = Layer::EMPTY;
        let (mut cur, mut old) = (vec![0u64; chunk], vec![0u64; chunk]);
        let mut bytes = Vec::new();
        let mut first = 0usize;
        while first < words {
            let len = chunk.min(words - first);
            read_words(&mut current, &mut cur[..len], &mut bytes)?;
            match &mut before {
                Some(input) => read_words(input, &mut old[..len], &mut bytes)?,
                None => old[..len].fill(0),
            }
            let found = cur[..len]
                .par_iter()
                .zip(&old[..len])
                .enumerate()
                .with_min_len(256)
                .map(|(w, (&now, &then))| {
                    let mut layer = Layer::EMPTY;
                    for i in bits_of(now & !then, (first + w) as u64 * 64) {
                        if graph.is_terminal(i) {
                            layer.add(i, true, 0);
                            continue;
                        }
                        let mut moves = 0u32;
                        graph.for_each_child(i, |c| {
                            moves += 1;
                            seen.insert(c);
                        });
                        layer.add(i, false, moves);
                    }
                    layer
                })
                .reduce(|| Layer::EMPTY, Layer::merge);
            layer = layer.merge(found);
            first += len;
        }
        drop(before);
        if depth > 0 {
            std::fs::remove_file(snapshot_path(dir, depth - 1))?;
        }
        if layer.size == 0 {
            break;
        }
        layers.push(layer.size);
        terminal_layers.push(layer.terminal);
        if layer.best.0 > max_branching {
            max_branching = layer.best.0;
            max_branching_at = layer.best.1;
        }
        depth += 1;
        progress(Progress {
            depth,
            reached: layers.iter().sum(),
            total: n,
        });
    }
    Ok(Exploration {
        start,
        reached: seen.into_bitset(n),
        layers,
        terminal_layers,
        max_branching,
        max_branching_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chopsticks_rules::{Preset, Ruleset};

    /// The six chunks held take less than the bit a position once the index
    /// is past 64 Ki words, and never more than [`CHUNK_WORDS`] each.
    #[test]
    fn chunks_are_a_sixteenth_of_the_index_at_most() {
        for words in [1usize, 100, 4096, 65_536, 391_407, 1 << 24, 1 << 30] {
            let chunk = chunk_words(words);
            assert!((1..=words).contains(&chunk), "{words}");
            assert!(chunk <= CHUNK_WORDS);
            if words >= 1 << 16 {
                assert!(6 * chunk < words, "{words}: {chunk}");
            }
        }
    }

    /// The layers, the set reached and every figure are those of the
    /// exploration in memory, for two, three and four players.
    #[test]
    fn the_same_exploration_as_in_memory() {
        let dir = std::env::temp_dir().join(format!("chopsticks-on-disk-{}", std::process::id()));
        let rulesets = [
            Preset::Rollover.ruleset(),
            Preset::Standard.ruleset(),
            Ruleset {
                hands: vec![4, 4],
                fingers: 8,
                ..Preset::Standard.ruleset()
            },
            Ruleset {
                hands: vec![2, 2, 2],
                ..Preset::Rollover.ruleset()
            },
            Ruleset {
                hands: vec![1, 1, 1, 1],
                teams: true,
                ..Preset::Standard.ruleset()
            },
        ];
        for rules in rulesets {
            let graph = Graph::new(&rules).unwrap();
            let start = graph.index_of(&chopsticks_rules::Position::start(&rules));
            let want = crate::explore(&graph, start, &|_| {});
            let got = explore_on_disk(&graph, start, &dir, &|_| {}).unwrap();
            assert_eq!(got.reached, want.reached, "{}", rules.describe());
            assert_eq!(got.layers, want.layers, "{}", rules.describe());
            assert_eq!(got.terminal_layers, want.terminal_layers);
            assert_eq!(got.max_branching, want.max_branching);
            assert_eq!(got.max_branching_at, want.max_branching_at);
            // No snapshot is left behind.
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
