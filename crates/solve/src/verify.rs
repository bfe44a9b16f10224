//! Checking a solution against the rules, for tables that were not computed here
//! (read from a file, which may be damaged or forged though its checksum is valid).
//!
//! **Local consistency.** A position's outcome is right for its children when it is
//! what the best move gives: the fastest win if some child is a loss for the
//! opponent, else a draw if some child is a draw, else the slowest loss; a position
//! with no move has remoteness 0 and the value the rules give it (see
//! [`crate::retrograde`]). [`Solution::check_at`] checks one position that way.
//!
//! **Why checking every position proves the table right.** Wins and losses carry
//! remoteness, and a consistent win (loss) of remoteness `r` rests on a child's loss
//! (on children's wins) of remoteness `r - 1`: by induction on `r`, every consistent
//! win or loss is truly one. A position truly won or lost but stored as a draw would
//! contradict the smallest true remoteness among such positions: a true win has a
//! truly lost child, stored correctly (it is smaller), so the stored draw has a losing
//! child; a true loss has only truly won children, stored correctly, so the stored
//! draw has no drawn child. So [`Solution::verify`], which checks every position,
//! accepts exactly the table the solver computes.
//!
//! **Two passes, for tables whose positions are mostly draws.** Checking a draw
//! position against all its children is most of the work of a large drawn
//! variant (95 % of the 8.5 × 10⁹ positions of 2 × 10 hands at F = 10 are draws),
//! where the solver never visits the draws at all. So [`Solution::verify`] checks
//! a two-player table in two passes that together are the check above: the
//! first checks every position against its children, but a draw only until a
//! drawn child is met (stopping with an error at a lost one met first) and a win
//! without remoteness until a lost child is met; the second visits every lost
//! position's parents and requires none of them to be stored as a draw. A draw
//! then has a drawn child and no lost one, exactly as the full check requires;
//! a position the first pass does not settle that way (a finished game's win in
//! 0 has no child at all) is decided by the full rule. The work is the children
//! of the decided positions plus the parents of the lost ones, what the solver
//! itself touches.
//!
//! **Tables without remoteness** (`--no-remoteness`) are checked for their values
//! alone. That is weaker: the induction above rests on remoteness, and a cycle of
//! positions all stored as wins (or a draw stored as a loss whose children are
//! all stored as wins) can be locally consistent. So for such a table `verify`
//! finds every inconsistency but does not prove the table right.
//!
//! With three or more players the same holds state by state (a position and a
//! seat's slot, see [`crate::multi`]): each state's stored outcome must be the one
//! its side to move gets from its children's stored outcomes, or the one the rules
//! settle; the argument above is about any two-sided game, so it applies as it is.

use chopsticks_rules::{Notation, Position};
use chopsticks_space::{Graph, Tile, TileMap};
use rayon::prelude::*;

use crate::multi::{expected_state, States};
use crate::retrograde::end_outcome;
use crate::table::{ReadOutcome, WithReader};
use crate::{Concept, EvaluatedMove, Outcome, Solution, SolveError, Value};

/// The outcome the rules give a two-player position from its children's
/// stored outcomes.
fn expected(solution: &Solution, graph: &Graph, index: u64) -> Result<Outcome, SolveError> {
    let mut ranks = [0u64; 2];
    let seat = graph.index().split(index, &mut ranks);
    expected_at(solution.table(), graph, index, seat, &ranks)
}

/// [`expected`] of the position with index `i`, seat class `seat` and ranks
/// `ranks` (mover first), its children's outcomes read by `reader`: the best
/// of them through the move (the smallest [`Outcome::preference_key`]), or the
/// rules' value of a position with no move.
#[inline(always)]
fn expected_at<R: ReadOutcome>(
    reader: &R,
    graph: &Graph,
    i: u64,
    seat: usize,
    ranks: &[u64],
) -> Result<Outcome, SolveError> {
    let mut best = u64::MAX;
    let mut failed = None;
    graph.for_each_child_at(seat, ranks, |c, _| match reader.through_key(c) {
        Ok(key) => best = best.min(key),
        Err(e) => failed = Some(e),
    });
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(if best == u64::MAX {
        end_outcome(graph, i, graph.is_terminal(i))
    } else {
        Outcome::from_preference_key(best)
    })
}

impl Solution {
    fn check_graph(&self, graph: &Graph) -> Result<(), SolveError> {
        if graph.rules() != self.rules() || graph.count() != self.count() {
            return Err(SolveError::Inconsistent(
                "the move graph is not the solution's ruleset".into(),
            ));
        }
        Ok(())
    }

    /// Checks that the stored outcome of the position with this index is the one its
    /// children's stored outcomes give (see the module documentation). `graph` must
    /// be the move graph of this solution's ruleset.
    pub fn check_at(&self, graph: &Graph, index: u64) -> Result<(), SolveError> {
        self.check_graph(graph)?;
        if index >= self.count() {
            return Err(SolveError::Inconsistent(format!(
                "position #{index} is out of range ({} positions)",
                self.count()
            )));
        }
        match self.first_wrong_slot(graph, index)? {
            None => Ok(()),
            Some((slot, stored, expected)) => {
                let rules = self.rules();
                let position = graph
                    .position(index)
                    .to_notation(rules, Notation::default_for(rules))
                    .unwrap_or_else(|e| e.to_string());
                let whose = match self.concept() {
                    Concept::Coalition => format!(" for seat {slot}"),
                    _ => String::new(),
                };
                let source = if graph.has_child(index) {
                    "its moves give"
                } else {
                    "it has no move and the rules give"
                };
                Err(SolveError::Inconsistent(format!(
                    "the table says {stored}{whose} at {position} (#{index}), but {source} {expected}"
                )))
            }
        }
    }

    /// [`Solution::check_at`] for a two-player table, from the position and the
    /// rules alone (its moves by [`Position::moves_with_steps`]), with no move
    /// graph: what a query of a large saved file needs, the graph's tables taking
    /// longer to build than the query. Other concepts are refused.
    pub fn check_position(&self, position: &Position) -> Result<(), SolveError> {
        self.check_position_moves(position).map(|_| ())
    }

    /// [`Solution::check_position`], returning the position's evaluated moves
    /// (best first), which the check computes anyway.
    fn check_position_moves(&self, position: &Position) -> Result<Vec<EvaluatedMove>, SolveError> {
        if self.concept() != Concept::TwoPlayer {
            return Err(SolveError::Inconsistent(
                "check_position checks two-player tables; use check_at".into(),
            ));
        }
        let rules = self.rules();
        let stored = self.outcome(position)?;
        let moves = self.evaluate_moves(position)?;
        let source = if moves.is_empty() {
            "it has no move and the rules give"
        } else {
            "its moves give"
        };
        let expected = match moves.first() {
            Some(best) => best.outcome,
            None => {
                let finished = position.is_terminal(rules);
                let mover_alive = chopsticks_rules::hands::is_alive(&position.players()[0]);
                let mover_wins = if finished {
                    mover_alive != rules.misere
                } else {
                    rules.misere
                };
                if mover_wins {
                    Outcome::win(0)
                } else {
                    Outcome::lose(0)
                }
            }
        };
        if self.agrees(stored, expected) {
            return Ok(moves);
        }
        let text = position
            .to_notation(rules, Notation::default_for(rules))
            .unwrap_or_else(|e| e.to_string());
        Err(SolveError::Inconsistent(format!(
            "the table says {stored} at {text} (#{}), but {source} {expected}",
            self.index.rank(position)
        )))
    }

    /// Whether a stored outcome is the expected one: equal, or for tables
    /// without remoteness of the same value.
    fn agrees(&self, stored: Outcome, expected: Outcome) -> bool {
        if self.has_remoteness() {
            stored == expected
        } else {
            stored.value == expected.value
        }
    }

    /// The first slot of a position whose stored outcome is not what its moves
    /// give: `(slot, stored, expected)`.
    fn first_wrong_slot(
        &self,
        graph: &Graph,
        index: u64,
    ) -> Result<Option<(usize, Outcome, Outcome)>, SolveError> {
        match self.concept() {
            Concept::TwoPlayer => {
                let stored = self.outcome_at(index)?;
                let expected = expected(self, graph, index)?;
                Ok((!self.agrees(stored, expected)).then_some((0, stored, expected)))
            }
            concept => {
                let states = States::new(graph);
                let width = concept.width(self.rules().players());
                // A read that fails (a damaged block of a file) is kept and
                // reported; the draw standing in for it is never compared.
                let failed = std::cell::RefCell::new(None);
                let stored = |i: u64, slot: usize| {
                    self.table()
                        .get(i * width as u64 + slot as u64)
                        .unwrap_or_else(|e| {
                            failed.borrow_mut().get_or_insert(e);
                            Outcome::DRAW
                        })
                };
                let wrong = (0..width).find_map(|slot| {
                    let have = stored(index, slot);
                    let want = expected_state(&states, &stored, index, slot);
                    (!self.agrees(have, want)).then_some((slot, have, want))
                });
                match failed.into_inner() {
                    Some(e) => Err(e),
                    None => Ok(wrong),
                }
            }
        }
    }

    /// Checks every position (in parallel): `Ok` exactly when the table is the
    /// solution of its ruleset. Reports the inconsistency of smallest index.
    pub fn verify(&self, graph: &Graph) -> Result<(), SolveError> {
        self.verify_with_progress(graph, &|_| {})
    }
}

impl Solution {
    /// [`Solution::verify_with_progress`] of a two-player table, in the two
    /// passes of the module documentation, each walked a tile
    /// at a time (`chopsticks_space::tiles`) as the solver walks it: the
    /// children of a tile's positions lie in a few rows of the table, so they
    /// stay in cache instead of costing a miss each. Rows of tiles (whole index
    /// ranges, joined into ranges of about 4 M positions) are checked in index
    /// order, the tiles of a range in parallel, so the first range with an
    /// inconsistency in the first pass holds its smallest; the second pass looks
    /// at every lost position, and the smaller of the two passes' findings is
    /// the one reported, as a scan in index order would find it.
    fn verify_by_tiles(
        &self,
        graph: &Graph,
        map: &TileMap,
        in_place_bytes: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), SolveError> {
        let first_bad = match self.table() {
            crate::Table::Paged(table) => {
                let found = crate::banded::verify_in_bands(
                    self,
                    graph,
                    map,
                    table,
                    in_place_bytes,
                    progress,
                )?;
                debug_assert_eq!(found.misses, 0, "a read outside the bands");
                found.first_bad
            }
            _ => self.first_bad_by_tiles(graph, map, progress),
        };
        match first_bad {
            Some(i) => match self.check_at(graph, i) {
                Err(e) => Err(e),
                // Each pass confirms what it finds; a position found
                // inconsistent that the check of one position accepts is a
                // fault of this check, never a pass.
                Ok(()) => Err(SolveError::Inconsistent(format!(
                    "the check of every position stopped at #{i}, which its own check accepts (a fault of this program)"
                ))),
            },
            None => Ok(()),
        }
    }

    /// The smallest inconsistent index of the two passes over a table in
    /// memory, rows of tiles in index order (see [`Solution::verify_by_tiles`]).
    fn first_bad_by_tiles(
        &self,
        graph: &Graph,
        map: &TileMap,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Option<u64> {
        let tiles = map.tiles();
        // Consecutive rows of tiles joined into ranges of about 4 M positions,
        // so that a variant with few tiles a row (an opponent with few
        // multisets) still has work for every thread.
        const RANGE: u64 = 1 << 22;
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for (first, len) in map.rows() {
            match ranges.last_mut() {
                Some(r) if r.0 + r.1 == first && r.1 < RANGE => r.1 += len,
                _ => ranges.push((first, len)),
            }
        }
        let count = self.count();
        // First pass: every position against its children (a draw and a win
        // without remoteness only until the child they need is met).
        let mut done = 0u64;
        let mut first_bad = None;
        for &(first, len) in &ranges {
            first_bad = tiles[map.tiles_in(first, len)]
                .par_iter()
                .filter_map(|tile| {
                    self.table().read_with(TileCheck {
                        solution: self,
                        graph,
                        tile,
                    })
                })
                .min();
            if first_bad.is_some() {
                break;
            }
            done += len;
            progress(done / 2);
        }
        // Second pass: no lost position has a drawn parent (a draw with a lost
        // child, which the first pass may have left unread). Every parent is
        // looked at, so the smallest inconsistent index of both passes is the
        // one reported.
        done = 0;
        for &(first, len) in &ranges {
            let drawn = tiles[map.tiles_in(first, len)]
                .par_iter()
                .filter_map(|tile| self.table().read_with(DrawnParents { graph, tile }))
                .min();
            first_bad = match (first_bad, drawn) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            done += len;
            progress(count / 2 + done / 2);
        }
        first_bad
    }
}

/// The second pass of the tile check: the smallest parent of a lost position of
/// the tile that is stored as a draw (a draw one of whose children is lost, so
/// it should be a win), or whose outcome cannot be read. With the first pass,
/// which finds a drawn child for every draw, this checks each draw's children
/// fully while reading only the parents of the lost positions, far fewer than
/// the children of the draws in a large drawn variant.
pub(crate) struct DrawnParents<'a> {
    pub graph: &'a Graph,
    pub tile: &'a Tile,
}

impl WithReader for DrawnParents<'_> {
    type Output = Option<u64>;

    fn run<R: ReadOutcome>(self, reader: &R) -> Option<u64> {
        let DrawnParents { graph, tile } = self;
        let mut bad: Option<u64> = None;
        tile.for_each_ranks(|i, r0, r1| {
            if !matches!(reader.read(i), Ok(o) if o.value == Value::Lose) {
                return;
            }
            graph.for_each_parent_of_pair(tile.seat, r0, r1, |p, _, _| {
                if !matches!(reader.read(p), Ok(o) if o.value != Value::Draw) {
                    bad = Some(bad.map_or(p, |b| b.min(p)));
                }
            });
        });
        bad
    }
}

/// The check of one tile of a two-player table, compiled for the table's
/// encoding: the first position (the smallest index, as a tile is walked in
/// index order) whose stored outcome is not what its children's give, or
/// whose outcome or a child's cannot be read. What
/// [`Solution::first_wrong_slot`] does for one position, with the children
/// found from the tile's ranks (no index divided) and read without asking
/// the encoding each time.
pub(crate) struct TileCheck<'a> {
    pub solution: &'a Solution,
    pub graph: &'a Graph,
    pub tile: &'a Tile,
}

impl WithReader for TileCheck<'_> {
    type Output = Option<u64>;

    fn run<R: ReadOutcome>(self, reader: &R) -> Option<u64> {
        let TileCheck {
            solution,
            graph,
            tile,
        } = self;
        let draw_key = Outcome::DRAW.preference_key();
        let consistent = |i: u64, r0: u64, r1: u64| -> Result<bool, SolveError> {
            let stored = reader.read(i)?;
            // A draw needs a drawn child and no lost one, and a win without
            // remoteness a lost child: each looked for until found. A lost
            // child of a draw that comes after its drawn one is found from
            // the lost child's side, among the parents of the losses
            // (`DrawnParents`).
            // (Keys: wins through the move below the draw's, losses above.)
            let wanted = match (stored.value, stored.remoteness) {
                (Value::Draw, _) => Some(draw_key),
                (Value::Win, None) => Some(draw_key - 1),
                _ => None,
            };
            let Some(wanted) = wanted else {
                let expected = expected_at(reader, graph, i, tile.seat, &[r0, r1])?;
                return Ok(solution.agrees(stored, expected));
            };
            let mut failed = None;
            let mut met = draw_key + 1;
            graph.any_child_of_pair(tile.seat, r0, r1, |c| match reader.through_key(c) {
                Ok(key) if key <= wanted => {
                    met = key;
                    true
                }
                Ok(_) => false,
                Err(e) => {
                    failed = Some(e);
                    true
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            let found = match stored.value {
                Value::Draw => met == draw_key,
                _ => met < draw_key,
            };
            if found {
                return Ok(true);
            }
            // Not met: the full rule decides (a finished game's win in 0 has
            // no child at all; a lost child met before a draw's drawn one
            // makes it a win).
            let expected = expected_at(reader, graph, i, tile.seat, &[r0, r1])?;
            Ok(solution.agrees(stored, expected))
        };
        let mut bad = None;
        tile.for_each_ranks(|i, r0, r1| {
            if bad.is_none() && !matches!(consistent(i, r0, r1), Ok(true)) {
                bad = Some(i);
            }
        });
        bad
    }
}

/// The most plies [`Solution::check_line`] follows: more than any remoteness a
/// table stores (16,383), so a won or lost line always reaches its end.
pub const LINE_LIMIT: u32 = 20_000;

/// The most plies a drawn line is followed by [`Solution::check_lines_around`]:
/// none past the drawn position itself (checked against its moves). A drawn
/// line never reaches a finished game, so following it checks only that each
/// position on it is consistent with its moves; lines in large drawn variants
/// go on for about a hundred plies before they come back on themselves (2 × 8
/// hands, F = 10), and following every one to its loop made a query 50 times
/// slower (two plies: 4 times) for no check of the rules of finished games.
pub const DRAW_LINE_LIMIT: u32 = 0;

/// How a line followed by [`Solution::check_line`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// At a position with no move (a finished game), whose value the rules give.
    Finished,
    /// At a position already checked: earlier on this line (a drawn line come
    /// back on itself), or on a line checked before with the same set of visited
    /// positions (whose continuation was checked then).
    Joined,
    /// After the limit of plies, without an end or a loop.
    Limit,
}

/// What [`Solution::check_line`] followed, every position of it consistent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCheck {
    /// Plies from the position to the end of the line.
    pub plies: u32,
    pub end: LineEnd,
}

impl Solution {
    /// Follows the optimal line from `start` (each side's best move by the table:
    /// the fastest win, else a draw, else the slowest loss, the first of equals)
    /// and checks every position on it against its moves and, at the end, against
    /// the rules of a finished game: a won or lost line ends at a finished game
    /// (within its remoteness), a drawn one comes back to a position already on
    /// it, or stops after `draw_limit` plies.
    ///
    /// This is what a query of a file that may be forged relies on. Checking the
    /// position and its neighbours one move away catches a changed outcome there,
    /// but not a table that is consistent locally yet wrong as a whole, such as a
    /// table solved with other rules of finished games (a header edited from
    /// normal play to misère, with its checksums recomputed): every position with
    /// moves is then consistent with its children, and only finished games
    /// contradict the header. A won or lost line reaches one; so the position's
    /// value, its remoteness and the values on its line are all checked against
    /// the rules themselves. What a line does not reach (the alternatives at each
    /// step) is checked only where a caller follows their lines too.
    ///
    /// `visited` holds the positions checked by earlier lines: a line that
    /// reaches one stops there ([`LineEnd::Joined`]). That is sound for won and
    /// lost positions, whose line is followed to its end whichever line first
    /// reached them (a drawn line holds draws only).
    ///
    /// Two-player tables are checked from the positions' moves, with no move
    /// graph; tables of three or more players need `graph` (for
    /// [`Solution::check_at`]). The error names the position where the
    /// contradiction shows and how far along the line it is.
    pub fn check_line(
        &self,
        graph: Option<&Graph>,
        start: &Position,
        draw_limit: u32,
        visited: &mut std::collections::HashSet<u64>,
    ) -> Result<LineCheck, SolveError> {
        let rules = self.rules();
        let along = |e: SolveError, ply: u32| match e {
            SolveError::Inconsistent(message) if ply > 0 => {
                let from = start
                    .to_notation(rules, Notation::default_for(rules))
                    .unwrap_or_else(|e| e.to_string());
                let plies = if ply == 1 { "ply" } else { "plies" };
                SolveError::Inconsistent(format!(
                    "{message} ({ply} {plies} along the optimal line from {from})"
                ))
            }
            e => e,
        };
        let mut position = start.clone();
        let mut ply = 0;
        loop {
            let index = self.index.rank(&position);
            if !visited.insert(index) {
                return Ok(LineCheck {
                    plies: ply,
                    end: LineEnd::Joined,
                });
            }
            let moves = match (self.concept(), graph) {
                (Concept::TwoPlayer, _) => self.check_position_moves(&position),
                (_, Some(graph)) => self
                    .check_at(graph, index)
                    .and_then(|()| self.evaluate_moves(&position)),
                (_, None) => Err(SolveError::Inconsistent(
                    "checking a line of a table of three or more players needs the move graph"
                        .into(),
                )),
            }
            .map_err(|e| along(e, ply))?;
            let Some(best) = moves.into_iter().next() else {
                return Ok(LineCheck {
                    plies: ply,
                    end: LineEnd::Finished,
                });
            };
            let limit = if best.outcome.remoteness.is_some() {
                LINE_LIMIT
            } else {
                draw_limit.min(LINE_LIMIT)
            };
            if ply >= limit {
                return Ok(LineCheck {
                    plies: ply,
                    end: LineEnd::Limit,
                });
            }
            position = best.to;
            ply += 1;
        }
    }

    /// [`Solution::check_line`] from `position` and from every position one move
    /// away (drawn lines for at most [`DRAW_LINE_LIMIT`] plies): what showing a
    /// position with the values of its moves relies on. Returns the number of
    /// positions checked.
    pub fn check_lines_around(
        &self,
        graph: Option<&Graph>,
        position: &Position,
    ) -> Result<u64, SolveError> {
        self.prefetch_around(position);
        let mut visited = std::collections::HashSet::new();
        self.check_line(graph, position, DRAW_LINE_LIMIT, &mut visited)?;
        for m in self.evaluate_moves(position)? {
            self.check_line(graph, &m.to, DRAW_LINE_LIMIT, &mut visited)?;
        }
        Ok(visited.len() as u64)
    }

    /// [`Solution::verify`] with progress: `progress` is called with the number
    /// of positions checked so far, after each slice of the table (for a
    /// two-player table each of its two passes counts half of every position).
    /// The slices are checked in order, each in parallel; a two-player table a
    /// row of tiles at a time (its children then stay in cache). A two-player
    /// table read in place is read in ranges of rows within
    /// [`DEFAULT_IN_PLACE_BYTES`](crate::DEFAULT_IN_PLACE_BYTES)
    /// ([`Solution::verify_within`] takes another budget); `chopsticks check`
    /// reads a table into memory first when it fits.
    pub fn verify_with_progress(
        &self,
        graph: &Graph,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), SolveError> {
        self.verify_within(graph, crate::banded::DEFAULT_IN_PLACE_BYTES, progress)
    }

    /// For a two-player table read in place: the least memory its check holds
    /// (ranges of one row of tiles) and the most it holds with a budget of
    /// `budget` bytes ([`Solution::verify_within`]), in bytes; `None` for a
    /// table in memory or of three or more players.
    pub fn in_place_check_bytes(&self, graph: &Graph, budget: u64) -> Option<(u64, u64)> {
        let crate::Table::Paged(table) = self.table() else {
            return None;
        };
        if self.concept() != Concept::TwoPlayer {
            return None;
        }
        let map = TileMap::new(graph)?;
        Some(crate::banded::in_place_bytes(table, &map, budget))
    }

    /// [`Solution::verify_with_progress`], a two-player table read in place
    /// checked holding at most `in_place_bytes` of it (or the least it needs,
    /// [`Solution::in_place_check_bytes`], when more): ranges of rows as wide
    /// as that allows, each read once in long runs (see `banded`'s
    /// documentation in the source). A table in memory, or of three or more
    /// players, is checked as by [`Solution::verify_with_progress`].
    pub fn verify_within(
        &self,
        graph: &Graph,
        in_place_bytes: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), SolveError> {
        self.check_graph(graph)?;
        if self.concept() == Concept::TwoPlayer {
            if let Some(map) = TileMap::new(graph) {
                return self.verify_by_tiles(graph, &map, in_place_bytes, progress);
            }
        }
        const SLICE: u64 = 1 << 22;
        let count = self.count();
        let mut from = 0;
        while from < count {
            let to = (from + SLICE).min(count);
            let first_bad = (from as usize..to as usize)
                .into_par_iter()
                .with_min_len(4096)
                .map(|i| i as u64)
                .find_first(|&i| !matches!(self.first_wrong_slot(graph, i), Ok(None)));
            if let Some(i) = first_bad {
                return self.check_at(graph, i);
            }
            progress(to);
            from = to;
        }
        Ok(())
    }
}
