//! Checking what is shown against the rules, for tables read from a file.

use std::collections::HashSet;

use chopsticks_rules::Position;
use chopsticks_solve::{Concept, Solution, SolveError, LINE_LIMIT};
use chopsticks_space::Graph;

/// Checks the lines a review, a puzzle or a line shows, for a table that was
/// not solved here (a saved file, which may be damaged or forged though its
/// checksum is valid), as `chopsticks query` does: every position of an
/// optimal line against its moves, the line's end against the rules of a
/// finished game (`Solution::check_line`). A table solved here, or one checked
/// whole, needs nothing: [`Checker::trusted`].
///
/// Lines shown are checked to their end (a drawn line to its first repeated
/// position); the values of the moves listed beside a position are checked by
/// the line from each move's position, drawn ones at that position only (as
/// `query` does). Positions checked once are not checked again.
pub struct Checker<'a> {
    graph: Option<&'a Graph>,
    enabled: bool,
    /// Positions whose whole line was checked.
    lines: HashSet<u64>,
    /// Positions checked as a neighbour (drawn lines not followed).
    around: HashSet<u64>,
}

impl<'a> Checker<'a> {
    /// No checks: the table was solved here or checked whole.
    pub fn trusted() -> Checker<'a> {
        Checker {
            graph: None,
            enabled: false,
            lines: HashSet::new(),
            around: HashSet::new(),
        }
    }

    /// Checks against the rules. Tables of three or more players need the move
    /// graph; two-player tables are checked from the positions' moves.
    pub fn against_rules(graph: Option<&'a Graph>) -> Checker<'a> {
        Checker {
            graph,
            enabled: true,
            lines: HashSet::new(),
            around: HashSet::new(),
        }
    }

    /// Whether anything is checked.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    fn graph_for(&self, solution: &Solution) -> Result<Option<&'a Graph>, SolveError> {
        match (solution.concept(), self.graph) {
            (Concept::TwoPlayer, _) => Ok(None),
            (_, Some(g)) => Ok(Some(g)),
            (_, None) => Err(SolveError::Inconsistent(
                "checking a table of three or more players needs the move graph".into(),
            )),
        }
    }

    /// Checks the optimal line from `position` to its end.
    pub fn line(&mut self, solution: &Solution, position: &Position) -> Result<(), SolveError> {
        if !self.enabled {
            return Ok(());
        }
        let graph = self.graph_for(solution)?;
        solution.check_line(graph, position, LINE_LIMIT, &mut self.lines)?;
        Ok(())
    }

    /// Checks what showing `position` with its moves' values relies on: the line
    /// from it, and from every position one move away.
    pub fn around(&mut self, solution: &Solution, position: &Position) -> Result<(), SolveError> {
        if !self.enabled {
            return Ok(());
        }
        let graph = self.graph_for(solution)?;
        solution.check_line(
            graph,
            position,
            chopsticks_solve::DRAW_LINE_LIMIT,
            &mut self.around,
        )?;
        for m in solution.evaluate_moves(position)? {
            solution.check_line(
                graph,
                &m.to,
                chopsticks_solve::DRAW_LINE_LIMIT,
                &mut self.around,
            )?;
        }
        Ok(())
    }
}
