//! Learning from a solved variant: what a player or a teacher needs beyond the
//! value of a position.
//!
//! Everything here reads a [`Solution`](chopsticks_solve::Solution) (solved now,
//! or read from a file and checked against the rules as it is read, see
//! [`Checker`]) and the rules; nothing is guessed.
//!
//! - [`record`]: a game as plain text (variant, optional start, the moves by the
//!   names `chopsticks moves` prints), read with errors that name the line, the
//!   move and the reason, and replayed into positions.
//! - [`history`]: **values that know the game so far**: a position's value
//!   under the game's rules with its history and its repetition rule (a win
//!   that must pass through a position seen too often is a draw), exact, by a
//!   retrograde analysis of the positions a blocked one can be reached from.
//! - [`level`]: the computer's levels (perfect, strong, casual, random), each
//!   defined once by the probability of its best move.
//! - [`mod@line`]: the **optimal line** from a position, both sides playing their
//!   best move by the table (the winner the fastest win, the loser the slowest
//!   loss, a drawn side a move that keeps the draw, the first of equals), to the
//!   end of the game or, for a draw, to the first position met again.
//! - [`mod@review`]: every move of a game with the mover's value before and after,
//!   classified (best; a slower win or a faster loss, with the plies lost; a win
//!   thrown to a draw or a loss; a draw thrown to a loss), the best moves instead
//!   and the refutation line of each mistake; a summary per player.
//! - [`puzzles`]: every position reachable from the start where at most half of
//!   the moves keep the win (or the draw), graded by what makes their moves hard
//!   to find, chosen deterministically from a seed.
//! - [`playout`]: puzzles **played to the end**: the solver replies, each step
//!   accepts every good move, until the game is won or the draw is safe.
//! - [`rating`]: the player's puzzle rating (Glicko-2).
//! - [`sheet`]: a winning strategy's configurations drawn with hands, as SVG or
//!   PNG, for printing.
//! - [`worksheet`]: puzzles for a class, drawn on A4 pages with room to write,
//!   the answers on pages of their own.
//! - [`board`]: one position drawn as SVG, its hands as the sheet draws them
//!   (what a notebook shows inline).
//!
//! **Whose value.** With two players a value is the mover's. With three or more
//! it is the mover's coalition value (the mover alone against all the others
//! together), or in team play the mover's team's, as `chopsticks query` shows
//! them; a move's value is the same seat's after it. So "a winning move" is one
//! that keeps a forced win for the mover whatever everybody else does.

pub mod board;
pub mod history;
pub mod level;
pub mod line;
pub mod playout;
pub mod puzzles;
pub mod rating;
pub mod record;
pub mod review;
pub mod sheet;
pub mod worksheet;

mod checker;

pub use checker::Checker;
pub use history::{evaluate, GameEnd, GameMove, GameValues, History, Repetitions, Work};
pub use level::{Level, Rng};
pub use line::{optimal_line, Line, LineEnd, LineStep};
pub use puzzles::{Difficulty, Puzzle, PuzzleKind, PuzzleSet};
pub use record::{GameRecord, Replay};
pub use review::{review, review_within, Review, ReviewedMove, Verdict};

use chopsticks_solve::SolveError;
use thiserror::Error;

/// What can go wrong while learning from a solution.
#[derive(Debug, Error)]
pub enum LearnError {
    /// A game record that cannot be read or replayed: the line (1-based), and
    /// the reason (naming the move when there is one).
    #[error("line {line}: {message}")]
    Record { line: usize, message: String },
    /// A record with no `variant` line, and no variant given otherwise.
    #[error("the game record names no variant: start it with a line `variant ID` (such as `variant standard`)")]
    NoVariant,
    /// A record of another variant than the solution's.
    #[error("the game record is of variant {record}, but the solution is of {solution}")]
    OtherVariant { record: String, solution: String },
    #[error(transparent)]
    Rules(#[from] chopsticks_rules::RulesError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A position asked for as a puzzle that is not one.
    #[error("{position} is not a puzzle: {reason}")]
    NotAPuzzle { position: String, reason: String },
    /// A game's history that cannot be followed (a position that does not
    /// follow the one before it, or one after the end of the game).
    #[error("the game's history: {0}")]
    History(String),
    /// A puzzle's moves that cannot be followed (a move after the end, after a
    /// slower win, or one that cannot be read).
    #[error("the puzzle: {0}")]
    Puzzle(String),
    /// A strategy sheet that cannot be drawn.
    #[error("{0}")]
    Sheet(String),
}

/// A variant solved in memory, for the unit tests of the modules.
#[cfg(test)]
pub(crate) fn solved(id: &str) -> chopsticks_solve::Solution {
    let rules = chopsticks_rules::Ruleset::from_variant_id(id).unwrap();
    let graph = chopsticks_space::Graph::new(&rules).unwrap();
    chopsticks_solve::Solution::solve(&graph, &|_| {}).unwrap()
}
