//! The state space of a Chopsticks variant.
//!
//! [`Graph`] turns a [`chopsticks_rules::Ruleset`] into a move graph over the dense
//! position index (children by table look-up, no allocation), and [`explore`] walks
//! it breadth-first from a start, in parallel, to measure the variant: reachable and
//! finished positions, shortest and deepest games, eccentricity, branching.
//! [`Statistics`] gathers every figure of `chopsticks stats`.

mod bitset;
mod explore;
mod graph;
mod on_disk;
mod stats;
mod tiles;

pub use bitset::{AtomicBitSet, BitSet};
pub use explore::{explore, explore_bytes, Exploration, Progress};
pub use graph::{Graph, MAX_TABLE_BYTES};
pub use on_disk::{explore_on_disk, explore_on_disk_bytes};
pub use stats::Statistics;
pub use tiles::{Tile, TileMap, TILE};

/// Human form of a byte count for messages: `916.6 MiB`, `23.1 GiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
