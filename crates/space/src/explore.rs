//! Breadth-first exploration of the positions reachable from a start.
//!
//! The search runs layer by layer over bit sets (one bit per position for the
//! positions seen, for the current layer and for the next), so it needs 3 bits per
//! position plus the move tables, and each layer is expanded in parallel. Layer `d`
//! holds the positions whose shortest distance from the start is `d` plies.

use rayon::prelude::*;

use crate::bitset::{bits_of, AtomicBitSet, BitSet};
use crate::graph::Graph;

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
pub fn explore(graph: &Graph, start: u64, progress: &(dyn Fn(Progress) + Sync)) -> Exploration {
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
    loop {
        let (terminal, size, (branching, at)) = {
            let seen = &reached;
            let next = &next;
            frontier
                .words()
                .par_iter()
                .enumerate()
                .with_min_len(256)
                .map(|(w, &word)| {
                    let mut terminal = 0u64;
                    let mut best = (0u32, u64::MAX);
                    for i in bits_of(word, w as u64 * 64) {
                        if graph.is_terminal(i) {
                            terminal += 1;
                            continue;
                        }
                        let mut moves = 0u32;
                        graph.for_each_child(i, |c| {
                            moves += 1;
                            if !seen.contains(c) {
                                next.insert(c);
                            }
                        });
                        if moves > best.0 || (moves == best.0 && i < best.1) {
                            best = (moves, i);
                        }
                    }
                    (terminal, word.count_ones() as u64, best)
                })
                .reduce(
                    || (0, 0, (0, u64::MAX)),
                    |a, b| {
                        let best = if b.2 .0 > a.2 .0 || (b.2 .0 == a.2 .0 && b.2 .1 < a.2 .1) {
                            b.2
                        } else {
                            a.2
                        };
                        (a.0 + b.0, a.1 + b.1, best)
                    },
                )
        };
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
