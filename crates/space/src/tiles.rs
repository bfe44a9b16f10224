//! The index of a two-player variant cut into 64 × 64 tiles, for walks that
//! stay in cache.
//!
//! A two-player index is `seat · block + r₀ · n₁ + r₁` (the mover's multiset
//! rank `r₀`, the opponent's `r₁`). A move changes one player's hands and passes
//! the turn, so the children of `(r₀, r₁)` are `(attacked(r₁), r₀)` and
//! `(r₁, own(r₀))`, and its parents by an attack are `(r₁, r)`. Walked in index
//! order, consecutive positions have consecutive `r₁`, so their attack children
//! and parents fall in a new row each time: a cache miss per edge. Walked a tile
//! at a time (64 values of `r₀` by 64 of `r₁`), the attack parents of a tile
//! lie in its 64 rows `r₁`, and its attack children in the 64 columns `r₀` of a
//! few rows: the memory a tile touches stays in cache. The solver
//! (`chopsticks-solve`'s retrograde analysis) and [`crate::explore`] both walk
//! the index this way.

use crate::graph::Graph;

/// Side of a tile: 64 × 64 = 4,096 positions.
pub const TILE: u64 = 64;

/// A rectangle of the index of two players: the positions `seat · block + r₀ ·
/// n₁ + r₁` with `r₀` in `rows` and `r₁` in `cols`.
#[derive(Clone, Debug)]
pub struct Tile {
    /// The mover's seat class.
    pub seat: usize,
    /// The first index of the seat class.
    pub base: u64,
    /// `n₁`, the number of multisets of the opponent.
    pub row_len: u64,
    /// The mover's ranks.
    pub rows: std::ops::Range<u64>,
    /// The opponent's ranks.
    pub cols: std::ops::Range<u64>,
}

impl Tile {
    /// Calls `f(index)` for every position of the tile, row by row.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(u64)) {
        self.for_each_ranks(|i, _, _| f(i));
    }

    /// Calls `f(index, r₀, r₁)` for every position of the tile, row by row.
    #[inline]
    pub fn for_each_ranks(&self, mut f: impl FnMut(u64, u64, u64)) {
        for r0 in self.rows.clone() {
            let row = self.row_start(r0);
            for r1 in self.cols.clone() {
                f(row + r1, r0, r1);
            }
        }
    }

    /// The index of `(r₀, 0)`: row `r₀` of the tile's seat class.
    #[inline]
    pub fn row_start(&self, r0: u64) -> u64 {
        self.base + r0 * self.row_len
    }

    /// The number of positions in the tile.
    pub fn len(&self) -> u64 {
        (self.rows.end - self.rows.start) * (self.cols.end - self.cols.start)
    }

    /// Whether the tile is empty (never, for the tiles of a [`TileMap`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The index of a two-player variant cut into tiles (see [`Tile`]), covering
/// every index exactly once, and the way back from an index to its tile.
#[derive(Clone, Debug)]
pub struct TileMap {
    tiles: Vec<Tile>,
    /// Positions per seat class.
    block: u64,
    /// Per seat class: its first tile, the row length `n₁`, tiles per row.
    seats: Vec<(usize, u64, usize)>,
}

/// One seat class of a [`TileMap`]: the matrix of its positions (rows the
/// mover's ranks, columns the opponent's) and how its tiles are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatShape {
    /// The first index of the class.
    pub base: u64,
    /// `n₀`: the mover's multisets (rows).
    pub rows: u64,
    /// `n₁`: the opponent's multisets (columns, the length of a row).
    pub cols: u64,
    /// The class's first tile in [`TileMap::tiles`].
    pub first_tile: usize,
    /// Tiles per row of tiles: tile `(i, j)` of the class (rows `64 i ..`,
    /// columns `64 j ..`) is `first_tile + i · tiles_per_row + j`.
    pub tiles_per_row: usize,
}

impl TileMap {
    /// How many tiles the map of a two-player index has, before building it
    /// (a plan counts their memory: `size_of::<Tile>()` each).
    pub fn count_for(index: &chopsticks_rules::PositionIndex) -> u64 {
        (0..index.period())
            .map(|seat| {
                let n0 = index.multiset(index.hands_of(seat, 0)).count();
                let n1 = index.multiset(index.hands_of(seat, 1)).count();
                n0.div_ceil(TILE) * n1.div_ceil(TILE)
            })
            .sum()
    }

    /// The tiles of a two-player graph's index (`None` for more players).
    pub fn new(graph: &Graph) -> Option<TileMap> {
        if graph.players() != 2 {
            return None;
        }
        let index = graph.index();
        let period = index.period();
        let block = graph.count() / period as u64;
        let mut tiles = Vec::new();
        let mut seats = Vec::new();
        for seat in 0..period {
            let n0 = index.multiset(index.hands_of(seat, 0)).count();
            let n1 = index.multiset(index.hands_of(seat, 1)).count();
            debug_assert_eq!(n0 * n1, block);
            seats.push((tiles.len(), n1, n1.div_ceil(TILE) as usize));
            let base = seat as u64 * block;
            for r0 in (0..n0).step_by(TILE as usize) {
                for r1 in (0..n1).step_by(TILE as usize) {
                    tiles.push(Tile {
                        seat,
                        base,
                        row_len: n1,
                        rows: r0..(r0 + TILE).min(n0),
                        cols: r1..(r1 + TILE).min(n1),
                    });
                }
            }
        }
        Some(TileMap {
            tiles,
            block,
            seats,
        })
    }

    /// The number of seat classes (1, or 2 when the players have different
    /// numbers of hands: the mover's hands then alternate).
    pub fn seats(&self) -> usize {
        self.seats.len()
    }

    /// The shape of seat class `seat`.
    pub fn seat_shape(&self, seat: usize) -> SeatShape {
        let (first_tile, cols, tiles_per_row) = self.seats[seat];
        SeatShape {
            base: seat as u64 * self.block,
            rows: self.block / cols,
            cols,
            first_tile,
            tiles_per_row,
        }
    }

    /// The tiles, seat class by seat class, row of tiles by row of tiles.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The rows of tiles in index order (tiles sharing their rows `r₀`): the
    /// first index of each and its number of positions. Cutting the index
    /// between rows of tiles keeps every tile whole.
    pub fn rows(&self) -> Vec<(u64, u64)> {
        let mut rows: Vec<(u64, u64)> = Vec::new();
        for tile in &self.tiles {
            let first = tile.row_start(tile.rows.start);
            let end = tile.row_start(tile.rows.end);
            if rows.last().is_none_or(|r| r.0 != first) {
                rows.push((first, end - first));
            }
        }
        rows
    }

    /// The tiles (indices into [`TileMap::tiles`]) of the positions
    /// `first..first + len`, a range made of whole rows of tiles.
    pub fn tiles_in(&self, first: u64, len: u64) -> std::ops::Range<usize> {
        let start_of = |t: &Tile| t.row_start(t.rows.start) + t.cols.start;
        let a = self.tiles.partition_point(|t| start_of(t) < first);
        let b = self.tiles.partition_point(|t| start_of(t) < first + len);
        a..b
    }

    /// The tile holding the position of seat class `seat` and ranks `(r0, r1)`
    /// (mover first): [`TileMap::tile_of`] without dividing an index.
    #[inline]
    pub fn tile_at(&self, seat: usize, r0: u64, r1: u64) -> usize {
        let (first, _, per_row) = self.seats[seat];
        first + (r0 / TILE) as usize * per_row + (r1 / TILE) as usize
    }

    /// The tile holding index `i`.
    #[inline]
    pub fn tile_of(&self, i: u64) -> usize {
        let seat = (i / self.block) as usize;
        let (first, n1, per_row) = self.seats[seat];
        let rest = i % self.block;
        first + (rest / n1 / TILE) as usize * per_row + (rest % n1 / TILE) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_index_once() {
        for hands in [vec![1, 1], vec![2, 3], vec![3, 3], vec![4, 2]] {
            let mut rules = chopsticks_rules::Preset::Standard.ruleset();
            rules.hands = hands;
            let graph = Graph::new(&rules).unwrap();
            let mut seen = vec![0u8; graph.count() as usize];
            let map = TileMap::new(&graph).unwrap();
            assert_eq!(
                TileMap::count_for(graph.index()),
                map.tiles().len() as u64,
                "{:?}",
                rules.hands
            );
            // The tables' estimate bounds what they take.
            let estimate = Graph::tables_estimate(&rules).unwrap();
            assert!(graph.table_bytes() <= estimate, "{:?}", rules.hands);
            for (k, t) in map.tiles().iter().enumerate() {
                assert!(!t.is_empty());
                let mut len = 0;
                t.for_each_ranks(|i, r0, r1| {
                    seen[i as usize] += 1;
                    assert_eq!(map.tile_of(i), k);
                    assert_eq!(map.tile_at(t.seat, r0, r1), k);
                    let shape = map.seat_shape(t.seat);
                    assert_eq!(i, shape.base + r0 * shape.cols + r1);
                    assert!(r0 < shape.rows);
                    assert_eq!(
                        k,
                        shape.first_tile
                            + (r0 / TILE) as usize * shape.tiles_per_row
                            + (r1 / TILE) as usize
                    );
                    assert_eq!(graph.index().join(t.seat, &[r0, r1]), i);
                    len += 1;
                });
                assert_eq!(len, t.len());
            }
            assert!(seen.iter().all(|&k| k == 1), "{:?}", graph.rules().hands);
            // Rows cover the index in order; the tiles of each row are its own.
            let rows = map.rows();
            let mut next = 0;
            for &(first, len) in &rows {
                assert_eq!(first, next);
                for t in map.tiles_in(first, len) {
                    let tile = &map.tiles()[t];
                    tile.for_each(|i| assert!(i >= first && i < first + len));
                }
                next += len;
            }
            assert_eq!(next, graph.count());
            assert_eq!(map.tiles_in(0, graph.count()), 0..map.tiles().len());
        }
    }

    #[test]
    fn no_tiles_for_three_players() {
        let mut rules = chopsticks_rules::Preset::Standard.ruleset();
        rules.hands = vec![2, 2, 2];
        assert!(TileMap::new(&Graph::new(&rules).unwrap()).is_none());
    }
}
