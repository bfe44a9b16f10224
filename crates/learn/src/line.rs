//! Optimal lines: how a game goes on from a position when both sides play
//! their best.
//!
//! At each position the mover plays the first of its best moves by the table
//! (`Solution::evaluate_moves`, best first: the fastest win, else a move that
//! keeps a draw, else the slowest loss; equals in the order of the rules' move
//! list). A won or lost line ends at a finished game, its remoteness plies
//! later: the winner's remoteness drops by one at each ply. A drawn line never
//! ends; it is followed to the first position met again (the same hands and
//! the same seat to move), where play would go round again, or for at most
//! [`MAX_DRAW_PLIES`] plies. With three or more players every mover plays its
//! own best move, as the computer of `chopsticks play` does.

use std::collections::HashMap;

use chopsticks_rules::{Move, SeatedPosition};
use chopsticks_solve::{Outcome, Solution, SolveError, Value};
use serde::Serialize;

use crate::history::{GameEnd, History, Repetitions, Work, DEFAULT_BOUND};
use crate::{Checker, LearnError};

/// The most plies a drawn line is followed without meeting a position again.
pub const MAX_DRAW_PLIES: usize = 1000;

/// One ply of a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineStep {
    /// The player who moves: 1 = Player 1 (the seat's number plus one).
    pub player: usize,
    /// The move, by the name `chopsticks moves` prints.
    #[serde(rename = "move")]
    pub name: String,
    /// The position it leads to, as a seated text (`2_1213`).
    pub position: String,
    /// The mover's value of the move (its value of the position it moves in).
    pub value: Outcome,
    #[serde(skip)]
    pub mv: Move,
    #[serde(skip)]
    pub to: SeatedPosition,
}

/// How a line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum LineEnd {
    /// At a finished game.
    Finished,
    /// At a position already on the line (a draw going round): `ply` is the
    /// number of plies from the line's start to its first visit (0 = the start).
    Repeated { ply: usize },
    /// After [`MAX_DRAW_PLIES`] plies of a draw, no position met again.
    Limit,
    /// A game's line ([`game_line`]) that brought a position up for the last
    /// allowed time: a draw by repetition, the position having come up `times`
    /// times in the game.
    Repetition { times: usize },
}

/// An optimal line from a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The position the line starts from, as a seated text.
    pub start: String,
    /// Its value for the player to move there.
    pub value: Outcome,
    pub steps: Vec<LineStep>,
    pub end: LineEnd,
}

impl Line {
    /// The moves' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.steps.iter().map(|s| s.name.as_str()).collect()
    }

    /// The line as one line of text, each move with its player:
    /// `P2 tap 1→1, P1 tap 2→2 (game over)`.
    pub fn text(&self) -> String {
        let mut out: Vec<String> = self
            .steps
            .iter()
            .map(|s| format!("P{} {}", s.player, s.name))
            .collect();
        let end = match self.end {
            LineEnd::Finished if self.steps.is_empty() => "the game is over".to_string(),
            LineEnd::Finished => "game over".to_string(),
            LineEnd::Repeated { ply: 0 } => "back where the line started: a draw".to_string(),
            LineEnd::Repeated { ply } => {
                format!("back to the position after its move {ply}: a draw")
            }
            LineEnd::Limit => format!("a draw; its first {} plies", self.steps.len()),
            LineEnd::Repetition { times } => {
                format!("a draw by repetition: the position came up {times} times")
            }
        };
        match out.pop() {
            None => end,
            Some(last) => {
                out.push(format!("{last} ({end})"));
                out.join(", ")
            }
        }
    }
}

/// The optimal line from `start` (see the module documentation), checked
/// against the rules by `checker` first. Tables without remoteness are refused:
/// a line needs the remoteness to make progress.
pub fn optimal_line(
    solution: &Solution,
    start: &SeatedPosition,
    checker: &mut Checker,
) -> Result<Line, LearnError> {
    if !solution.has_remoteness() {
        return Err(SolveError::NoRemoteness.into());
    }
    let rules = solution.rules();
    checker.line(solution, start.position())?;
    let value = solution.outcome(start.position())?;
    let mut seen: HashMap<SeatedPosition, usize> = HashMap::new();
    let mut at = start.clone();
    let mut steps = Vec::new();
    let end = loop {
        if let Some(&ply) = seen.get(&at) {
            break LineEnd::Repeated { ply };
        }
        seen.insert(at.clone(), steps.len());
        let moves = solution.evaluate_moves(at.position())?;
        let Some(best) = moves.into_iter().next() else {
            break LineEnd::Finished;
        };
        if best.outcome.value == Value::Draw && steps.len() >= MAX_DRAW_PLIES {
            break LineEnd::Limit;
        }
        let next = at.after(best.to, best.step);
        steps.push(LineStep {
            player: at.turn() + 1,
            name: at.move_name(rules, &best.mv),
            position: next.to_text(rules)?,
            value: best.outcome,
            mv: best.mv,
            to: next.clone(),
        });
        at = next;
    };
    Ok(Line {
        start: start.to_text(rules)?,
        value,
        steps,
        end,
    })
}

/// The optimal line of a game in progress: from the current position of
/// `history`, both sides playing their best move by the game's values (its
/// history and repetition rule counted, [`crate::history`]), to the end of the
/// game: a finished game, or a draw by repetition; without a repetition rule a
/// drawn line ends at its first position met again, as [`optimal_line`]'s.
pub fn game_line(
    solution: &Solution,
    history: &History,
    checker: &mut Checker,
) -> Result<Line, LearnError> {
    game_line_within(solution, history, checker, &mut Work::new(DEFAULT_BOUND))
}

/// [`game_line`] within `work`, a bound on the positions solved again shared
/// by every ply of the line (and by whatever else the caller values with it):
/// once it runs out, the line follows the table's values.
pub fn game_line_within(
    solution: &Solution,
    history: &History,
    checker: &mut Checker,
    work: &mut Work,
) -> Result<Line, LearnError> {
    if !solution.has_remoteness() {
        return Err(SolveError::NoRemoteness.into());
    }
    let rules = solution.rules();
    let start = history.current().clone();
    checker.line(solution, start.position())?;
    let first = work.evaluate(solution, history)?;
    let value = first.mover(start.turn());
    let mut game = history.clone();
    let mut seen: HashMap<SeatedPosition, usize> = HashMap::new();
    let mut steps = Vec::new();
    let mut values = first;
    let end = loop {
        match values.end {
            Some(GameEnd::Finished) => break LineEnd::Finished,
            Some(GameEnd::Repetition { times }) => break LineEnd::Repetition { times },
            None => {}
        }
        let at = game.current().clone();
        if history.repetitions() == Repetitions::Never {
            if let Some(&ply) = seen.get(&at) {
                break LineEnd::Repeated { ply };
            }
            seen.insert(at.clone(), steps.len());
        }
        let Some(best) = values.moves.first() else {
            break LineEnd::Finished;
        };
        if best.outcome.value == Value::Draw && steps.len() >= MAX_DRAW_PLIES {
            break LineEnd::Limit;
        }
        steps.push(LineStep {
            player: at.turn() + 1,
            name: at.move_name(rules, &best.mv),
            position: best.to.to_text(rules)?,
            value: best.outcome,
            mv: best.mv.clone(),
            to: best.to.clone(),
        });
        game.push(best.to.clone());
        values = work.evaluate(solution, &game)?;
    };
    Ok(Line {
        start: start.to_text(rules)?,
        value,
        steps,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solved;

    #[test]
    fn a_won_line_ends_in_its_remoteness_and_a_drawn_one_comes_round() {
        let s = solved("standard");
        let rules = s.rules().clone();
        let start = SeatedPosition::start(&rules);
        let line = optimal_line(&s, &start, &mut Checker::trusted()).unwrap();
        assert_eq!(line.value, Outcome::win(23));
        assert_eq!(line.steps.len(), 23);
        assert_eq!(line.end, LineEnd::Finished);
        // The winner's remoteness drops by one each ply; the seats alternate.
        for (k, step) in line.steps.iter().enumerate() {
            assert_eq!(step.value.remoteness, Some(23 - k as u32));
            assert_eq!(step.player, k % 2 + 1);
        }
        assert!(line.steps.last().unwrap().to.position().is_terminal(&rules));

        // Rollover: the start is a draw.
        let s = solved("rollover");
        let start = SeatedPosition::start(s.rules());
        let line = optimal_line(&s, &start, &mut Checker::trusted()).unwrap();
        assert_eq!(line.value, Outcome::DRAW);
        let LineEnd::Repeated { ply } = line.end else {
            panic!("{:?}", line.end)
        };
        let last = &line.steps.last().unwrap().to;
        let again = if ply == 0 {
            &start
        } else {
            &line.steps[ply - 1].to
        };
        assert_eq!(last, again);
        assert!(line.steps.iter().all(|s| s.value == Outcome::DRAW));
    }
}
