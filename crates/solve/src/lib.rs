//! Exact solutions of Chopsticks variants, any number of players.
//!
//! [`Solution::solve`] runs a parallel retrograde analysis over the move graph of
//! [`chopsticks_space::Graph`], loops included, and gives every position of the
//! ruleset's dense index its value: for two players ([`retrograde`]) win, loss or
//! draw for the player to move, with its remoteness; for three or more players
//! ([`multi`]) every seat's **coalition value** (the seat alone against all the
//! others), or with team play the mover's team's value. A solution answers queries
//! ([`Solution::outcome`], [`Solution::seat_outcomes`], [`Solution::evaluate_moves`]),
//! summarises what is reachable from a start ([`Summary`]), extracts strategies
//! ([`strategy`]) and is saved to and loaded from a checksummed file ([`mod@file`]).

mod banded;
pub mod compact;
pub mod export;
pub mod file;
pub mod multi;
mod outcome;
pub mod paged;
pub mod parts;
pub mod retrograde;
mod solved;
pub mod stop;
pub mod strategy;
mod table;
pub mod update;
mod verify;

use chopsticks_rules::{Move, Position, PositionIndex, RulesError, Ruleset};
use chopsticks_space::{BitSet, Graph};
use rayon::prelude::*;
pub use solved::Solved;
use thiserror::Error;

pub use multi::{multi_solve_bytes, Concept};

/// The memory a solve of `count` positions of `rules` needs in memory, besides
/// the move tables: the one estimate the command line (to plan a solve, or
/// refuse it) and the server (to budget its cache) size solves by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveMemory {
    /// The common case: the working cells ([`solve_bytes`] for two players,
    /// [`multi_solve_bytes`] for more) and the reachable set (two bits a
    /// position).
    pub bytes: u64,
    /// The most it can take: with more than two players the cells widen to two
    /// bytes when a remoteness passes 126, which is not known in advance; and a
    /// mebibyte of bookkeeping.
    pub at_most: u64,
}

/// [`SolveMemory`] of `count` positions of `rules`.
pub fn solve_memory(rules: &Ruleset, count: u64) -> SolveMemory {
    let (cells, widest) = match Concept::of(rules) {
        Concept::TwoPlayer => (solve_bytes(count), solve_bytes(count)),
        _ => {
            let narrow = multi_solve_bytes(rules, count);
            (narrow, narrow.saturating_mul(2))
        }
    };
    let reachable = count / 4;
    SolveMemory {
        bytes: cells.saturating_add(reachable),
        at_most: widest.saturating_add(reachable).saturating_add(1 << 20),
    }
}
pub use banded::DEFAULT_IN_PLACE_BYTES;
pub use outcome::{Outcome, Value};
pub use retrograde::{solve_bytes, SolveProgress};
pub use table::{Encoding, Table};
pub use verify::{LineCheck, LineEnd, DRAW_LINE_LIMIT, LINE_LIMIT};

/// What can stop a solve, a query or a file operation.
#[derive(Debug, Error)]
pub enum SolveError {
    #[error("this solver is for another number of players; this ruleset has {0}")]
    Players(usize),
    #[error("positions may have up to {0} moves, more than the solver's counters hold (16383)")]
    TooManyMoves(usize),
    #[error("a remoteness of {0} plies exceeds what the solver stores (16383)")]
    Remoteness(u32),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("{path}: {message}")]
    File { path: String, message: String },
    /// A table that contradicts the rules (see [`Solution::check_at`]).
    #[error("inconsistent solution: {0}")]
    Inconsistent(String),
    #[error("cannot save the solution")]
    Save(#[from] chopsticks_files::WriteError),
    #[error("{0}")]
    Io(String),
    /// A stop was asked for ([`stop::request`]) while solving.
    #[error("the solve was stopped before it finished")]
    Stopped,
    /// A checkpoint that cannot be resumed from.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    #[error("this solution holds values without remoteness (solved with --no-remoteness); strategies and the computer's moves need the remoteness: solve again without --no-remoteness")]
    NoRemoteness,
    /// A block of a solution file's table whose checksum does not match.
    #[error("{path}: block {block} of {blocks} of the table (positions {first} to {last}) is damaged: its checksum does not match")]
    Damaged {
        path: String,
        block: usize,
        blocks: usize,
        first: u64,
        last: u64,
    },
}

/// Every position of a ruleset, solved.
#[derive(Clone, Debug)]
pub struct Solution {
    rules: Ruleset,
    index: PositionIndex,
    concept: Concept,
    table: Table,
}

/// A legal move with the position it leads to and the outcome it gives the mover.
#[derive(Clone, Debug)]
pub struct EvaluatedMove {
    pub mv: Move,
    pub to: Position,
    /// How many seats the turn moves on (the mover sits at seat `players - step`
    /// of `to`).
    pub step: usize,
    /// The outcome for the player making the move.
    pub outcome: Outcome,
    /// Every seat's outcome after the move, seats numbered as in the position the
    /// move is made from (seat 0 is the mover: `seats[0] == outcome`).
    pub seats: Vec<Outcome>,
}

impl Solution {
    /// Solves every position of the graph's ruleset: two players by
    /// [`retrograde`], more by [`multi`].
    pub fn solve(
        graph: &Graph,
        progress: &(dyn Fn(SolveProgress) + Sync),
    ) -> Result<Solution, SolveError> {
        let concept = Concept::of(graph.rules());
        let table = match concept {
            Concept::TwoPlayer => retrograde::solve(graph, progress)?,
            _ => multi::solve_multi(graph, progress)?,
        };
        Ok(Solution {
            rules: graph.rules().clone(),
            index: graph.index().clone(),
            concept,
            table,
        })
    }

    /// Solves the values alone (no remoteness) of every position of a
    /// two-player ruleset, one byte a position while solving
    /// ([`compact`]); resumable from `checkpoints`, and saved to `save` when
    /// given.
    pub fn solve_values(
        graph: &Graph,
        checkpoints: Option<&compact::Checkpoints>,
        save: Option<&std::path::Path>,
        progress: &(dyn Fn(SolveProgress) + Sync),
    ) -> Result<(Solution, compact::ValuesReport), SolveError> {
        let (table, report) = compact::solve_values(graph, checkpoints, save, progress)?;
        let solution = Solution {
            rules: graph.rules().clone(),
            index: graph.index().clone(),
            concept: Concept::TwoPlayer,
            table,
        };
        Ok((solution, report))
    }

    /// Wraps a table read back from a file.
    pub(crate) fn from_table(rules: Ruleset, table: Table) -> Result<Solution, SolveError> {
        let index = PositionIndex::new(&rules)?;
        Ok(Solution {
            concept: Concept::of(&rules),
            rules,
            index,
            table,
        })
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The solution concept of the table.
    pub fn concept(&self) -> Concept {
        self.concept
    }

    /// The table of outcomes (`concept().width(players)` per position).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The number of positions solved.
    pub fn count(&self) -> u64 {
        self.index.count()
    }

    /// The outcome of the position with this index for its mover (coalition
    /// values: the mover's own value against everybody else; team play: the
    /// mover's team's). Fails only for a table read from a file whose block is damaged.
    pub fn outcome_at(&self, index: u64) -> Result<Outcome, SolveError> {
        self.seat_outcome_at(index, 0)
    }

    /// The outcome for `seat` (0 = the mover, in turn order) of the position with
    /// this index: its coalition value, or for two players and team play the value of
    /// the seat's side.
    pub fn seat_outcome_at(&self, index: u64, seat: usize) -> Result<Outcome, SolveError> {
        match self.concept {
            Concept::Coalition => self
                .table
                .get(index * self.rules.players() as u64 + seat as u64),
            _ => {
                let o = self.table.get(index)?;
                Ok(if seat.is_multiple_of(2) {
                    o
                } else {
                    o.flipped()
                })
            }
        }
    }

    /// Every seat's outcome of the position with this index, mover first.
    pub fn seat_outcomes_at(&self, index: u64) -> Result<Vec<Outcome>, SolveError> {
        (0..self.rules.players())
            .map(|seat| self.seat_outcome_at(index, seat))
            .collect()
    }

    /// The index of a position in the ruleset's dense index (what
    /// [`Solution::outcome_at`] takes).
    pub fn rank(&self, position: &Position) -> u64 {
        self.index.rank(position)
    }

    /// The outcome of a position for its mover.
    pub fn outcome(&self, position: &Position) -> Result<Outcome, SolveError> {
        self.outcome_at(self.index.rank(position))
    }

    /// Every seat's outcome of a position, mover first.
    pub fn seat_outcomes(&self, position: &Position) -> Result<Vec<Outcome>, SolveError> {
        self.seat_outcomes_at(self.index.rank(position))
    }

    /// For a table read in place: starts reading, all at once, the blocks holding the
    /// outcomes of `position`, of the positions one move away and of those two
    /// moves away (what showing and checking a position reads), so that a cold
    /// file is read with many requests in flight. Nothing for a table in memory.
    pub fn prefetch_around(&self, position: &Position) {
        let Table::Paged(table) = &self.table else {
            return;
        };
        let width = self.concept.width(self.rules.players()) as u64;
        let mut indices = vec![self.index.rank(position)];
        for (_, child, _) in position.moves_with_steps(&self.rules) {
            indices.push(self.index.rank(&child));
            for (_, grandchild, _) in child.moves_with_steps(&self.rules) {
                indices.push(self.index.rank(&grandchild));
            }
        }
        table.prefetch(
            indices
                .into_iter()
                .flat_map(|i| (0..width).map(move |slot| i * width + slot)),
        );
    }

    /// Whether outcomes carry their remoteness (not for tables solved with
    /// `--no-remoteness`, which hold values alone).
    pub fn has_remoteness(&self) -> bool {
        self.table.has_remoteness()
    }

    /// The same solution without remoteness (two bits per outcome).
    pub fn without_remoteness(self) -> Result<Solution, SolveError> {
        Ok(Solution {
            table: self.table.without_remoteness()?,
            ..self
        })
    }

    /// Every legal move of the position with the outcome it gives the mover, best
    /// first: fastest win, then draws, then slowest loss. Ties keep the order of
    /// [`Position::moves`].
    pub fn evaluate_moves(&self, position: &Position) -> Result<Vec<EvaluatedMove>, SolveError> {
        let p = self.rules.players();
        let mut moves = position
            .moves_with_steps(&self.rules)
            .into_iter()
            .map(|(mv, to, step)| {
                let child = self.index.rank(&to);
                let seats = (0..p)
                    .map(|seat| {
                        self.seat_outcome_at(child, (seat + p - step) % p)
                            .map(Outcome::later)
                    })
                    .collect::<Result<Vec<Outcome>, SolveError>>()?;
                Ok(EvaluatedMove {
                    mv,
                    to,
                    step,
                    outcome: seats[0],
                    seats,
                })
            })
            .collect::<Result<Vec<EvaluatedMove>, SolveError>>()?;
        moves.sort_by(|a, b| a.outcome.preference(&b.outcome));
        Ok(moves)
    }
}

/// Positions of a table read in place that are read at once before its cache
/// of blocks is emptied, by a summary and by [`Table::without_remoteness`]: a
/// slice (2 Mi positions, at most 4 MiB of the file read into memory, and as
/// much again decoded).
pub const SLICE_POSITIONS: u64 = 1 << 21;

/// Words of the reachable set a summary walks for one slice.
const SUMMARY_SLICE_WORDS: usize = (SLICE_POSITIONS / 64) as usize;

/// The most memory one slice of a table of `count` positions read in place
/// holds: the bytes read and the table they decode to, at two bytes a
/// position each (a plan counts it beside the reachable set).
pub fn slice_bytes(count: u64) -> u64 {
    4 * SLICE_POSITIONS.min(count)
}

/// Win, loss and draw counts for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatCounts {
    pub win: u64,
    pub lose: u64,
    pub draw: u64,
}

impl SeatCounts {
    /// Every seat's counts of `players` seats in two sides (two players, or
    /// team play) from the mover's `win`, `lose` and `draw`: the seats of the
    /// mover's side (0, 2, …) share her outcome, the others have its opposite.
    pub fn of_sides(win: u64, lose: u64, draw: u64, players: usize) -> Vec<SeatCounts> {
        (0..players)
            .map(|seat| {
                let (win, lose) = if seat.is_multiple_of(2) {
                    (win, lose)
                } else {
                    (lose, win)
                };
                SeatCounts { win, lose, draw }
            })
            .collect()
    }

    fn add(&mut self, o: Outcome) {
        match o.value {
            Value::Win => self.win += 1,
            Value::Lose => self.lose += 1,
            Value::Draw => self.draw += 1,
        }
    }
}

/// What a solution says about the positions reachable from a start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub reachable: u64,
    /// Reachable positions the mover wins (finished games excluded); with team play,
    /// the mover's team.
    pub win: u64,
    /// Reachable positions the mover loses (finished games excluded).
    pub lose: u64,
    pub draw: u64,
    /// Reachable finished games.
    pub terminal: u64,
    pub start: Outcome,
    /// Every seat's outcome at the start, mover first.
    pub start_seats: Vec<Outcome>,
    /// For each seat (0 = the mover of each position), how many reachable positions
    /// in play are wins, losses and draws for that seat.
    pub seats: Vec<SeatCounts>,
    /// The reachable win with the largest remoteness, and that remoteness.
    pub longest_win: Option<(u64, u32)>,
}

impl Summary {
    /// Counts the outcomes of the reachable positions (in parallel). Fails only
    /// for a file with a damaged block.
    pub fn new(
        graph: &Graph,
        solution: &Solution,
        reached: &BitSet,
        start: u64,
    ) -> Result<Summary, SolveError> {
        let players = solution.rules().players();
        let start_outcome = solution.outcome_at(start)?;
        let start_seats = solution.seat_outcomes_at(start)?;
        let empty = || Summary {
            reachable: 0,
            win: 0,
            lose: 0,
            draw: 0,
            terminal: 0,
            start: start_outcome,
            start_seats: start_seats.clone(),
            seats: vec![SeatCounts::default(); players],
            longest_win: None,
        };
        // A table read in place is read a slice at a time, its cache emptied after
        // each, so that walking it takes no more memory than a slice.
        let words = reached.words();
        let slice = if solution.table.is_paged() {
            SUMMARY_SLICE_WORDS
        } else {
            words.len().max(1)
        };
        let mut total: Option<Summary> = None;
        for (k, chunk) in words.chunks(slice).enumerate() {
            // Two players or teams: the slice of a table read in place is read
            // into memory whole (its blocks checked), not looked up outcome by
            // outcome. (A coalition table has one outcome a seat.)
            let first = (k * slice * 64) as u64;
            let in_memory = match &solution.table {
                Table::Paged(table) if solution.concept != Concept::Coalition => {
                    let count = (chunk.len() as u64 * 64).min(solution.count() - first);
                    table.slice(first, count)?
                }
                _ => None,
            };
            let (table, base) = match &in_memory {
                Some(t) => (t, first),
                None => (&solution.table, 0),
            };
            let part = Self::count_words(graph, solution, table, base, chunk, k * slice, &empty)?;
            if let Table::Paged(table) = &solution.table {
                table.release_cache();
            }
            total = Some(match total {
                None => part,
                Some(t) => Self::merge(t, part),
            });
        }
        let mut total = total.unwrap_or_else(empty);
        if solution.concept != Concept::Coalition {
            total.seats = SeatCounts::of_sides(total.win, total.lose, total.draw, players);
        }
        Ok(total)
    }

    /// Counts the outcomes of the reachable positions among `words` (the first
    /// holding positions from `64 · first_word`), reading two-player and team
    /// outcomes from `table`, whose entry 0 is position `base` (the
    /// solution's table, or a slice of it read into memory).
    fn count_words(
        graph: &Graph,
        solution: &Solution,
        table: &Table,
        base: u64,
        words: &[u64],
        first_word: usize,
        empty: &(dyn Fn() -> Summary + Sync),
    ) -> Result<Summary, SolveError> {
        words
            .par_iter()
            .enumerate()
            .with_min_len(1024)
            .map(|(w, word)| (w + first_word, word))
            .try_fold(empty, |mut s, (w, &word)| {
                if word == 0 {
                    return Ok(s);
                }
                let terminal = graph.terminal_mask(w as u64 * 64, 64) & word;
                s.reachable += word.count_ones() as u64;
                s.terminal += terminal.count_ones() as u64;
                let mut bits = word & !terminal;
                // Draws straight from the packed codes, when the seats follow
                // from the mover's outcome (the common case: most positions of
                // the largest rollover variants are draws).
                if solution.concept != Concept::Coalition {
                    if let Some(draws) = table.draw_mask(w as u64 * 64 - base, 64) {
                        let draws = draws & bits;
                        s.draw += draws.count_ones() as u64;
                        bits &= !draws;
                    }
                }
                while bits != 0 {
                    let i = w as u64 * 64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let o = if solution.concept == Concept::Coalition {
                        solution.outcome_at(i)?
                    } else {
                        table.get(i - base)?
                    };
                    // Two players or two teams: the seats follow from the mover's
                    // counts (see `new`).
                    if solution.concept == Concept::Coalition {
                        for (seat, counts) in s.seats.iter_mut().enumerate() {
                            counts.add(solution.seat_outcome_at(i, seat)?);
                        }
                    }
                    match o.value {
                        Value::Win => {
                            s.win += 1;
                            // Tables without remoteness have no longest win.
                            if let Some(r) = o.remoteness {
                                if s.longest_win.is_none_or(|(at, best)| {
                                    (r, u64::MAX - i) > (best, u64::MAX - at)
                                }) {
                                    s.longest_win = Some((i, r));
                                }
                            }
                        }
                        Value::Lose => s.lose += 1,
                        Value::Draw => s.draw += 1,
                    }
                }
                Ok::<Summary, SolveError>(s)
            })
            .try_reduce(empty, |a, b| Ok(Self::merge(a, b)))
    }

    fn merge(a: Summary, b: Summary) -> Summary {
        Summary {
            reachable: a.reachable + b.reachable,
            win: a.win + b.win,
            lose: a.lose + b.lose,
            draw: a.draw + b.draw,
            terminal: a.terminal + b.terminal,
            start: a.start,
            start_seats: a.start_seats,
            seats: a
                .seats
                .iter()
                .zip(&b.seats)
                .map(|(x, y)| SeatCounts {
                    win: x.win + y.win,
                    lose: x.lose + y.lose,
                    draw: x.draw + y.draw,
                })
                .collect(),
            longest_win: match (a.longest_win, b.longest_win) {
                (Some((ia, ra)), Some((ib, rb))) => {
                    // The largest remoteness; ties go to the smaller index.
                    if (rb, u64::MAX - ib) > (ra, u64::MAX - ia) {
                        Some((ib, rb))
                    } else {
                        Some((ia, ra))
                    }
                }
                (x, None) | (None, x) => x,
            },
        }
    }
}
