//! Breadth-first exploration of the positions reachable from a start.
//!
//! The search runs layer by layer over bit sets (one bit per position for the
//! positions seen, for the current layer and for the next), so it needs 3 bits per
//! position plus the move tables, and each layer is expanded in parallel. Layer `d`
//! holds the positions whose shortest distance from the start is `d` plies.

use rayon::prelude::*;

use crate::bitset::{bits_of, AtomicBitSet, BitSet};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::graph::Graph;
use crate::tiles::{Tile, TileMap};

/// What the exploration found.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The index of the start position.
    pub start: u64,
    /// The positions reached (start included).
    pub reached: BitSet,
    /// Positions per layer: `layers[d]` positions are exactly `d` plies from the start.
    pub layers: Vec<u64>,
    /// Finished games per layer.
    pub terminal_layers: Vec<u64>,
    /// The largest number of moves from any reached position.
    pub max_branching: u32,
    /// A reached position with that many moves.
    pub max_branching_at: u64,
}

impl Exploration {
    /// Number of positions reachable from the start (the start included).
    pub fn reachable(&self) -> u64 {
        self.layers.iter().sum()
    }

    /// Number of reachable finished games.
    pub fn terminal(&self) -> u64 {
        self.terminal_layers.iter().sum()
    }

    /// The fewest plies from the start to a finished game, if one is reachable.
    pub fn shortest_game(&self) -> Option<u32> {
        self.terminal_layers
            .iter()
            .position(|&t| t > 0)
            .map(|d| d as u32)
    }

    /// The largest shortest distance from the start to a finished game: the longest
    /// game in which the loser delays the end while the winner takes the quickest way,
    /// when measured per endgame. (This is what Wikipedia calls the longest game
    /// "without revisitation" for 5-finger rollover; see docs/FINDINGS.md.)
    pub fn deepest_endgame(&self) -> Option<u32> {
        self.terminal_layers
            .iter()
            .rposition(|&t| t > 0)
            .map(|d| d as u32)
    }

    /// The eccentricity of the start: the largest shortest-path distance to any
    /// reachable position.
    pub fn eccentricity(&self) -> u32 {
        self.layers.len() as u32 - 1
    }
}

/// Progress reported after each layer.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Layers finished.
    pub depth: u32,
    /// Positions reached so far.
    pub reached: u64,
    /// Positions in the index.
    pub total: u64,
}

/// Bytes [`explore`] needs on top of the graph's tables for `count` positions.
pub fn explore_bytes(count: u64) -> u64 {
    3 * count.div_ceil(64) * 8
}

/// Explores every position reachable from `start`, calling `progress` after each layer.
/// Two-player indices are walked by tiles (see [`crate::TileMap`]), others in
/// index order.
pub fn explore(graph: &Graph, start: u64, progress: &(dyn Fn(Progress) + Sync)) -> Exploration {
    explore_by(graph, TileMap::new(graph), start, progress)
}

fn explore_by(
    graph: &Graph,
    tiles: Option<TileMap>,
    start: u64,
    progress: &(dyn Fn(Progress) + Sync),
) -> Exploration {
    let n = graph.count();
    let mut reached = BitSet::new(n);
    let mut frontier = BitSet::new(n);
    let mut next = AtomicBitSet::new(n);
    reached.insert(start);
    frontier.insert(start);
    let mut layers = Vec::new();
    let mut terminal_layers = Vec::new();
    let mut max_branching = 0u32;
    let mut max_branching_at = start;
    // With tiles: the last layer (depth) at which each tile had a position added.
    let marks: Vec<AtomicU32> = match &tiles {
        Some(map) => (0..map.tiles().len())
            .map(|_| AtomicU32::new(u32::MAX))
            .collect(),
        None => Vec::new(),
    };
    if let Some(map) = &tiles {
        marks[map.tile_of(start)].store(0, Relaxed);
    }
    loop {
        let depth = layers.len() as u32;
        let layer = match &tiles {
            Some(map) => expand_tiles(graph, map, &marks, depth, &frontier, &reached, &next),
            None => expand_words(graph, &frontier, &reached, &next),
        };
        let Layer {
            terminal,
            size,
            best: (branching, at),
        } = layer;
        layers.push(size);
        terminal_layers.push(terminal);
        if branching > max_branching {
            max_branching = branching;
            max_branching_at = at;
        }
        // The next layer: children not seen before.
        let fresh_total: u64 = reached
            .words_mut()
            .par_iter_mut()
            .zip(frontier.words_mut().par_iter_mut())
            .zip(next.words_mut().par_iter_mut())
            .with_min_len(1024)
            .map(|((seen, front), candidates)| {
                let new = std::mem::take(candidates.get_mut()) & !*seen;
                *seen |= new;
                *front = new;
                new.count_ones() as u64
            })
            .sum();
        progress(Progress {
            depth: layers.len() as u32,
            reached: reached.count(),
            total: n,
        });
        if fresh_total == 0 {
            break;
        }
    }
    Exploration {
        start,
        reached,
        layers,
        terminal_layers,
        max_branching,
        max_branching_at,
    }
}

/// What expanding one layer found.
pub(crate) struct Layer {
    /// Finished games in the layer.
    pub terminal: u64,
    /// Positions in the layer.
    pub size: u64,
    /// The most moves of a position of the layer, and the first such position.
    pub best: (u32, u64),
}

impl Layer {
    pub const EMPTY: Layer = Layer {
        terminal: 0,
        size: 0,
        best: (0, u64::MAX),
    };

    /// Counts position `i` of the layer, finished or with `moves` moves.
    #[inline]
    pub fn add(&mut self, i: u64, finished: bool, moves: u32) {
        self.size += 1;
        if finished {
            self.terminal += 1;
        } else if moves > self.best.0 || (moves == self.best.0 && i < self.best.1) {
            self.best = (moves, i);
        }
    }

    pub fn merge(self, other: Layer) -> Layer {
        let best = if other.best.0 > self.best.0
            || (other.best.0 == self.best.0 && other.best.1 < self.best.1)
        {
            other.best
        } else {
            self.best
        };
        Layer {
            terminal: self.terminal + other.terminal,
            size: self.size + other.size,
            best,
        }
    }
}

/// Expands the layer `frontier` in index order (any number of players): every
/// child not `seen` goes into `next`.
fn expand_words(graph: &Graph, frontier: &BitSet, seen: &BitSet, next: &AtomicBitSet) -> Layer {
    frontier
        .words()
        .par_iter()
        .enumerate()
        .with_min_len(256)
        .map(|(w, &word)| {
            let mut layer = Layer::EMPTY;
            for i in bits_of(word, w as u64 * 64) {
                if graph.is_terminal(i) {
                    layer.add(i, true, 0);
                    continue;
                }
                let mut moves = 0u32;
                graph.for_each_child(i, |c| {
                    moves += 1;
                    if !seen.contains(c) {
                        next.insert(c);
                    }
                });
                layer.add(i, false, moves);
            }
            layer
        })
        .reduce(|| Layer::EMPTY, Layer::merge)
}

/// Expands the layer `frontier` of a two-player index tile by tile (see
/// [`crate::TileMap`]): only the tiles marked with `depth` hold positions of the
/// layer; a tile that receives a new child is marked with `depth + 1`.
fn expand_tiles(
    graph: &Graph,
    map: &TileMap,
    marks: &[AtomicU32],
    depth: u32,
    frontier: &BitSet,
    seen: &BitSet,
    next: &AtomicBitSet,
) -> Layer {
    let todo: Vec<&Tile> = map
        .tiles()
        .iter()
        .zip(marks)
        .filter(|(_, m)| m.load(Relaxed) == depth)
        .map(|(tile, _)| tile)
        .collect();
    todo.par_iter()
        .map(|tile| {
            let mut layer = Layer::EMPTY;
            let width = (tile.cols.end - tile.cols.start) as u32;
            for r0 in tile.rows.clone() {
                let first = tile.row_start(r0) + tile.cols.start;
                for i in bits_of(frontier.bits_at(first, width), first) {
                    let ranks = [r0, i - first + tile.cols.start];
                    let (finished, _) = graph.classify(tile.seat, &ranks);
                    if finished {
                        layer.add(i, true, 0);
                        continue;
                    }
                    let mut moves = 0u32;
                    graph.for_each_child_at(tile.seat, &ranks, |c, _| {
                        moves += 1;
                        if !seen.contains(c) && next.insert_new(c) {
                            marks[map.tile_of(c)].store(depth + 1, Relaxed);
                        }
                    });
                    layer.add(i, false, moves);
                }
            }
            layer
        })
        .reduce(|| Layer::EMPTY, Layer::merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chopsticks_rules::{Position, Preset};

    /// The walk by tiles finds exactly what the walk in index order finds.
    #[test]
    fn tiles_and_index_order_agree() {
        let mut checked = 0;
        for preset in [
            Preset::Standard,
            Preset::Rollover,
            Preset::Rahman,
            Preset::Simple,
        ] {
            for hands in [vec![2, 2], vec![3, 2], vec![1, 3], vec![3, 3]] {
                for fingers in [3, 5, 7] {
                    let mut rules = preset.ruleset();
                    rules.hands = hands.clone();
                    rules.fingers = fingers;
                    if rules.validate().is_err() {
                        continue;
                    }
                    let graph = Graph::new(&rules).unwrap();
                    let start = graph.index_of(&Position::start(&rules));
                    let a = explore_by(&graph, TileMap::new(&graph), start, &|_| {});
                    let b = explore_by(&graph, None, start, &|_| {});
                    assert_eq!(a.reached.words(), b.reached.words(), "{rules:?}");
                    assert_eq!(a.layers, b.layers);
                    assert_eq!(a.terminal_layers, b.terminal_layers);
                    assert_eq!(
                        (a.max_branching, a.max_branching_at),
                        (b.max_branching, b.max_branching_at)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 30, "{checked}");
    }
}
