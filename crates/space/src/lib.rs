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
pub use tiles::{SeatShape, Tile, TileMap, TILE};

pub use chopsticks_rules::text::human_bytes;
