//! Puzzles played to the end: after the key move the solver replies and the
//! player goes on, move after move, until the puzzle's goal is reached, as on
//! lichess.
//!
//! **The player's steps.** At each of the player's turns every legal move is
//! judged ([`Verdict`]):
//!
//! - in a **win** puzzle, a move that keeps a forced win is *right* at the
//!   first step (the puzzle asks for a winning move, any of them); at the later
//!   steps a move is right when it wins as fast as the position allows, a
//!   slower win is *slower* (the move is not made and the player tries again:
//!   the puzzle has promised a win in so many moves, and a slower win could
//!   wander for ever), and a move that draws or loses is *wrong*;
//! - in a **hold** puzzle, a move that keeps the draw (or wins) is right, a
//!   losing move wrong.
//!
//! A wrong move fails the puzzle. The moves right at a step are listed as its
//! `accepted` moves, so a step with several good moves says so. The *expected*
//! move is the solver's choice among them (the fastest win, or the first
//! drawing move in the rules' order).
//!
//! **The replies.** Every other seat plays the table's best move for itself
//! (the fastest win, then a draw, then the slowest loss; the first of equals in
//! the rules' order), so the player always meets the strongest defence.
//!
//! **The end.** A win puzzle ends with the game (the player has won). A hold
//! puzzle ends when the draw is *safe*: at a later turn of the player's every
//! legal move keeps the draw, or the position comes round again (the player
//! can repeat it), or after [`HOLD_MOVES`] moves of the player's held. A
//! puzzle in which the player's value changes under the others' replies (with
//! three or more players a coalition can fall apart) ends there too, with what
//! the value has become.
//!
//! [`PuzzleGame`] is a puzzle being played: it judges a move, makes it and the
//! replies, and tells what comes next; [`PuzzleGame::solution`] plays the
//! expected moves out to give the whole solution.

use chopsticks_rules::{Move, SeatedPosition};
use chopsticks_solve::{EvaluatedMove, Outcome, Solution, SolveError, Value};
use serde::Serialize;

use crate::puzzles::PuzzleKind;
use crate::LearnError;

/// How many of the player's moves a hold puzzle lasts at most.
pub const HOLD_MOVES: usize = 8;

/// More plies than any puzzle's solution has (a guard against a line that
/// would not end, with three or more players).
const MAX_PLIES: usize = 400;

/// What a move at one of the player's steps is worth to the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Accepted: the move is made and the puzzle goes on.
    Right,
    /// A win, but slower than the position allows: not made; try again.
    Slower,
    /// The puzzle is failed.
    Wrong,
}

/// One of the player's steps: every legal move in the rules' order, with its
/// value and verdict.
#[derive(Clone, Debug)]
pub struct Choice {
    pub moves: Vec<EvaluatedMove>,
    pub verdicts: Vec<Verdict>,
    /// The expected move's place in `moves`.
    pub expected: usize,
}

impl Choice {
    fn new(
        solution: &Solution,
        kind: PuzzleKind,
        seated: &SeatedPosition,
        first: bool,
    ) -> Result<Choice, SolveError> {
        let rules = solution.rules();
        let position = seated.position();
        let mut moves = solution.evaluate_moves(position)?;
        let best = moves[0].outcome;
        let expected_move = moves[0].mv.clone();
        let order = position.moves(rules);
        moves.sort_by_key(|m| order.iter().position(|(o, _)| *o == m.mv));
        let verdicts = moves
            .iter()
            .map(|m| verdict(kind, first, &best, &m.outcome))
            .collect();
        let expected = moves
            .iter()
            .position(|m| m.mv == expected_move)
            .unwrap_or(0);
        Ok(Choice {
            moves,
            verdicts,
            expected,
        })
    }

    /// How many moves are right.
    pub fn right(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| **v == Verdict::Right)
            .count()
    }

    /// The verdict on `mv`, or `None` when it is not a legal move here.
    pub fn verdict_of(&self, mv: &Move) -> Option<Verdict> {
        self.moves
            .iter()
            .position(|m| m.mv == *mv)
            .map(|k| self.verdicts[k])
    }
}

fn verdict(kind: PuzzleKind, first: bool, best: &Outcome, outcome: &Outcome) -> Verdict {
    match (kind, outcome.value) {
        (PuzzleKind::Win, Value::Win) if first || outcome == best => Verdict::Right,
        (PuzzleKind::Win, Value::Win) => Verdict::Slower,
        (PuzzleKind::Win, _) => Verdict::Wrong,
        (PuzzleKind::Hold, Value::Lose) => Verdict::Wrong,
        (PuzzleKind::Hold, _) => Verdict::Right,
    }
}

/// How a puzzle ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PuzzleEnd {
    /// The game is over: the player has won (a win puzzle).
    Finished,
    /// Every move of the player's keeps the draw now (a hold puzzle).
    Safe,
    /// The position has come round again: the player can repeat it (a hold).
    Repeated,
    /// The draw held for this many of the player's moves (a hold).
    Held { moves: usize },
    /// The player's value became this under the others' replies (three or
    /// more players).
    Changed { value: Value },
    /// A wrong move was played.
    Failed,
}

impl PuzzleEnd {
    /// Whether the puzzle is solved (every end but a failure).
    pub fn solved(&self) -> bool {
        *self != PuzzleEnd::Failed
    }

    /// The end in words.
    pub fn text(&self) -> String {
        match self {
            PuzzleEnd::Finished => "the game is over: won".into(),
            PuzzleEnd::Safe => "the draw is safe: every move keeps it".into(),
            PuzzleEnd::Repeated => "the position has come round again: the draw holds".into(),
            PuzzleEnd::Held { moves } => format!("the draw held for {moves} moves"),
            PuzzleEnd::Changed { value } => format!(
                "the others' replies changed the value to {}",
                match value {
                    Value::Win => "a win",
                    Value::Draw => "a draw",
                    Value::Lose => "a loss",
                }
            ),
            PuzzleEnd::Failed => "a wrong move: the puzzle is failed".into(),
        }
    }
}

/// One ply of a puzzle: who moved, from where, what, to where.
#[derive(Clone, Debug)]
pub struct Ply {
    pub from: SeatedPosition,
    pub mv: Move,
    pub to: SeatedPosition,
    /// The player's move (else a reply).
    pub expected: bool,
}

/// A ply of a solution with, at the player's steps, the step's choice.
pub type StepPly = (Ply, Option<Choice>);

/// What playing a move did.
#[derive(Clone, Debug)]
pub struct Played {
    pub verdict: Verdict,
    /// The replies made after it (none after a slower or wrong move).
    pub replies: Vec<Ply>,
}

/// A puzzle being played.
#[derive(Clone, Debug)]
pub struct PuzzleGame {
    kind: PuzzleKind,
    /// The player's seat (0-based).
    player: usize,
    current: SeatedPosition,
    /// The positions met at the player's turns.
    seen: Vec<SeatedPosition>,
    /// The player's moves made.
    made: usize,
    plies: usize,
    choice: Option<Choice>,
    end: Option<PuzzleEnd>,
}

impl PuzzleGame {
    /// The puzzle of `kind` at `start` (the player to move is the puzzle's
    /// player).
    pub fn new(
        solution: &Solution,
        kind: PuzzleKind,
        start: SeatedPosition,
    ) -> Result<PuzzleGame, LearnError> {
        let mut game = PuzzleGame {
            kind,
            player: start.turn(),
            current: start,
            seen: Vec::new(),
            made: 0,
            plies: 0,
            choice: None,
            end: None,
        };
        game.settle(solution)?;
        Ok(game)
    }

    pub fn kind(&self) -> PuzzleKind {
        self.kind
    }

    /// The position now.
    pub fn position(&self) -> &SeatedPosition {
        &self.current
    }

    /// The player's step now, or `None` when the puzzle is over.
    pub fn choice(&self) -> Option<&Choice> {
        self.choice.as_ref()
    }

    /// How the puzzle ended, or `None` while it goes on.
    pub fn end(&self) -> Option<&PuzzleEnd> {
        self.end.as_ref()
    }

    /// The player's moves made so far.
    pub fn moves_made(&self) -> usize {
        self.made
    }

    /// Plays the replies until the player's turn, then finds the player's
    /// step or the end.
    fn settle(&mut self, solution: &Solution) -> Result<Vec<Ply>, LearnError> {
        let rules = solution.rules();
        let mut replies = Vec::new();
        loop {
            let position = self.current.position();
            if position.is_terminal(rules) || self.plies >= MAX_PLIES {
                self.end = Some(PuzzleEnd::Finished);
                return Ok(replies);
            }
            if self.current.hands_by_seat()[self.player]
                .iter()
                .all(|&h| h == 0)
            {
                self.end = Some(PuzzleEnd::Changed { value: Value::Lose });
                return Ok(replies);
            }
            if self.current.turn() == self.player {
                break;
            }
            let reply = solution.evaluate_moves(position)?.swap_remove(0);
            let to = self.current.after(reply.to, reply.step);
            replies.push(Ply {
                from: std::mem::replace(&mut self.current, to.clone()),
                mv: reply.mv,
                to,
                expected: false,
            });
            self.plies += 1;
        }
        let value = solution.outcome(self.current.position())?.value;
        let first = self.made == 0;
        let wanted = match self.kind {
            PuzzleKind::Win => value == Value::Win,
            PuzzleKind::Hold => value == Value::Draw,
        };
        if !wanted {
            self.end = Some(PuzzleEnd::Changed { value });
            return Ok(replies);
        }
        if self.kind == PuzzleKind::Hold && !first {
            if self.seen.contains(&self.current) {
                self.end = Some(PuzzleEnd::Repeated);
                return Ok(replies);
            }
            if self.made >= HOLD_MOVES {
                self.end = Some(PuzzleEnd::Held { moves: self.made });
                return Ok(replies);
            }
        }
        let choice = Choice::new(solution, self.kind, &self.current, first)?;
        if self.kind == PuzzleKind::Hold && !first && choice.right() == choice.moves.len() {
            self.end = Some(PuzzleEnd::Safe);
            return Ok(replies);
        }
        self.seen.push(self.current.clone());
        self.choice = Some(choice);
        Ok(replies)
    }

    /// Plays the player's move `mv`: judged, and when right made with the
    /// replies after it. An illegal move, or a move after the end, is refused.
    pub fn play(&mut self, solution: &Solution, mv: &Move) -> Result<Played, LearnError> {
        let rules = solution.rules();
        let Some(choice) = &self.choice else {
            return Err(LearnError::Puzzle("the puzzle is over".into()));
        };
        let Some(k) = choice.moves.iter().position(|m| m.mv == *mv) else {
            return Err(LearnError::Puzzle(format!(
                "{} is not a legal move at {}",
                self.current.move_name(rules, mv),
                self.current.to_text(rules)?
            )));
        };
        let verdict = choice.verdicts[k];
        match verdict {
            Verdict::Slower => {
                return Ok(Played {
                    verdict,
                    replies: Vec::new(),
                })
            }
            Verdict::Wrong => {
                self.choice = None;
                self.end = Some(PuzzleEnd::Failed);
                return Ok(Played {
                    verdict,
                    replies: Vec::new(),
                });
            }
            Verdict::Right => {}
        }
        let m = &choice.moves[k];
        self.current = self.current.after(m.to.clone(), m.step);
        self.choice = None;
        self.made += 1;
        self.plies += 1;
        let replies = self.settle(solution)?;
        Ok(Played { verdict, replies })
    }

    /// Plays a move given by name (as `chopsticks moves` prints it, or any
    /// form [`SeatedPosition::find_move`] reads).
    pub fn play_named(&mut self, solution: &Solution, text: &str) -> Result<Played, LearnError> {
        let (mv, _) = self.current.find_move(solution.rules(), text)?;
        self.play(solution, &mv)
    }

    /// The rest of the puzzle from here, the expected moves played out: every
    /// ply with the player's steps (each with its choice) and the end.
    pub fn play_out(&self, solution: &Solution) -> Result<(Vec<StepPly>, PuzzleEnd), LearnError> {
        let mut game = self.clone();
        let mut plies = Vec::new();
        while let Some(choice) = game.choice.clone() {
            let m = &choice.moves[choice.expected];
            let from = game.current.clone();
            let mv = m.mv.clone();
            let played = game.play(solution, &mv)?;
            let to = played
                .replies
                .first()
                .map(|r| r.from.clone())
                .unwrap_or_else(|| game.current.clone());
            plies.push((
                Ply {
                    from,
                    mv,
                    to,
                    expected: true,
                },
                Some(choice),
            ));
            plies.extend(played.replies.into_iter().map(|r| (r, None)));
        }
        Ok((plies, game.end.clone().unwrap_or(PuzzleEnd::Finished)))
    }

    /// The rest of the puzzle from here, by name (see [`PuzzleSolution`]).
    pub fn solution(&self, solution: &Solution) -> Result<PuzzleSolution, LearnError> {
        let (plies, end) = self.play_out(solution)?;
        PuzzleSolution::named(solution.rules(), &plies, end)
    }
}

impl PuzzleSolution {
    /// The solution of these plies (as [`PuzzleGame::play_out`] gives them)
    /// and this end, by name.
    pub fn named(
        rules: &chopsticks_rules::Ruleset,
        plies: &[StepPly],
        end: PuzzleEnd,
    ) -> Result<PuzzleSolution, LearnError> {
        let mut steps = Vec::with_capacity(plies.len());
        for (ply, choice) in plies {
            let accepted = choice
                .as_ref()
                .map(|c| {
                    let mut names: Vec<String> = vec![ply.from.move_name(rules, &ply.mv)];
                    for (m, v) in c.moves.iter().zip(&c.verdicts) {
                        if *v == Verdict::Right && m.mv != ply.mv {
                            names.push(ply.from.move_name(rules, &m.mv));
                        }
                    }
                    names
                })
                .unwrap_or_default();
            steps.push(SolutionStep {
                player: ply.from.turn() + 1,
                position: ply.from.to_text(rules)?,
                name: ply.from.move_name(rules, &ply.mv),
                to: ply.to.to_text(rules)?,
                expected: ply.expected,
                accepted,
                forced: choice.as_ref().is_some_and(|c| c.moves.len() == 1),
            });
        }
        let text = end.text();
        Ok(PuzzleSolution { steps, end, text })
    }
}

/// One ply of a puzzle's solution.
#[derive(Clone, Debug, Serialize)]
pub struct SolutionStep {
    /// Who moves: 1 = Player 1.
    pub player: usize,
    /// The position before the move, as a seated text.
    pub position: String,
    #[serde(rename = "move")]
    pub name: String,
    /// The position after it.
    pub to: String,
    /// The player's move (else the solver's reply).
    pub expected: bool,
    /// At the player's steps, every move accepted there, the expected one
    /// first; empty for a reply.
    pub accepted: Vec<String>,
    /// The player's only legal move.
    pub forced: bool,
}

/// A puzzle's solution: the expected moves and the replies, in order, to the
/// end.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleSolution {
    pub steps: Vec<SolutionStep>,
    pub end: PuzzleEnd,
    /// The end in words.
    pub text: String,
}

/// The player's moves as a list writes them, comma-separated
/// (`tap 2→2,split 13→22`); an empty text is no move, an empty entry is
/// refused.
pub fn split_moves(text: &str) -> Result<Vec<String>, LearnError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .enumerate()
        .map(|(k, m)| {
            let m = m.trim();
            if m.is_empty() {
                Err(LearnError::Puzzle(format!(
                    "move {} of the list is empty (two commas, or one at an end)",
                    k + 1
                )))
            } else {
                Ok(m.to_string())
            }
        })
        .collect()
}

/// One ply made by the solver, by name.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    /// Who moved: 1 = Player 1.
    pub player: usize,
    pub position: String,
    #[serde(rename = "move")]
    pub name: String,
    pub to: String,
}

/// Where a puzzle stands after the player's moves so far ([`follow`]).
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// The position now, as a seated text.
    pub position: String,
    /// The player's moves made (a slower win is not made).
    pub moves: usize,
    /// The verdict on the last move given, if any.
    pub verdict: Option<Verdict>,
    /// The solver's replies after it.
    pub replies: Vec<PlyView>,
    /// How the puzzle ended, or `None` while it goes on.
    pub end: Option<PuzzleEnd>,
    /// The end in words.
    pub text: Option<String>,
    /// The legal moves now, in the rules' order (none when it is over).
    pub legal: Vec<String>,
    /// A hint for the step now (see [`crate::puzzles::step_hint`]).
    pub hint: Option<String>,
    /// The rest of the solution from here (after a failure: from before the
    /// wrong move).
    pub rest: PuzzleSolution,
}

/// Follows the player's moves `played` (names) in the puzzle of `kind` at
/// `start`: every move but the last must be accepted; the last is judged.
pub fn follow(
    solution: &Solution,
    kind: PuzzleKind,
    start: &SeatedPosition,
    played: &[String],
) -> Result<Progress, LearnError> {
    let rules = solution.rules();
    let mut game = PuzzleGame::new(solution, kind, start.clone())?;
    let mut verdict = None;
    let mut replies = Vec::new();
    let mut before = game.clone();
    for (k, text) in played.iter().enumerate() {
        if verdict == Some(Verdict::Slower) {
            return Err(LearnError::Puzzle(format!(
                "move {k} was a slower win, not made: move {} ({text}) cannot follow it",
                k + 1
            )));
        }
        if game.end().is_some() {
            return Err(LearnError::Puzzle(format!(
                "it is over after move {k}: move {} ({text}) cannot follow",
                k + 1
            )));
        }
        before = game.clone();
        let done = game.play_named(solution, text).map_err(|e| {
            LearnError::Puzzle(format!(
                "move {} ({text}): {}",
                k + 1,
                match e {
                    LearnError::Puzzle(m) => m,
                    e => e.to_string(),
                }
            ))
        })?;
        verdict = Some(done.verdict);
        replies = done.replies;
    }
    let legal = game
        .choice()
        .map(|c| {
            c.moves
                .iter()
                .map(|m| game.position().move_name(rules, &m.mv))
                .collect()
        })
        .unwrap_or_default();
    let rest = if game.end() == Some(&PuzzleEnd::Failed) {
        before.solution(solution)?
    } else {
        game.solution(solution)?
    };
    Ok(Progress {
        position: game.position().to_text(rules)?,
        moves: game.moves_made(),
        verdict,
        replies: replies
            .iter()
            .map(|r| {
                Ok(PlyView {
                    player: r.from.turn() + 1,
                    position: r.from.to_text(rules)?,
                    name: r.from.move_name(rules, &r.mv),
                    to: r.to.to_text(rules)?,
                })
            })
            .collect::<Result<_, LearnError>>()?,
        end: game.end().cloned(),
        text: game.end().map(PuzzleEnd::text),
        legal,
        hint: crate::puzzles::step_hint(&game),
        rest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chopsticks_rules::SeatedPosition;

    #[test]
    fn a_win_is_played_to_the_end_of_the_game() {
        let solution = crate::solved("standard");
        let rules = solution.rules();
        let start = SeatedPosition::start(rules);
        let game = PuzzleGame::new(&solution, PuzzleKind::Win, start.clone()).unwrap();
        let s = game.solution(&solution).unwrap();
        assert_eq!(s.end, PuzzleEnd::Finished);
        // The start is a win in 23: 23 plies, 12 of them the player's.
        assert_eq!(s.steps.len(), 23);
        assert_eq!(s.steps.iter().filter(|s| s.expected).count(), 12);
        assert!(s.steps.iter().all(|s| s.expected == (s.player == 1)));
        let last = SeatedPosition::parse(&s.steps[22].to, rules).unwrap();
        assert!(last.position().is_terminal(rules));
        // Each step follows the one before it.
        for w in s.steps.windows(2) {
            assert_eq!(w[0].to, w[1].position);
        }
    }

    #[test]
    fn following_the_solution_solves_the_puzzle() {
        let solution = crate::solved("standard");
        let rules = solution.rules();
        let start = SeatedPosition::start(rules);
        let game = PuzzleGame::new(&solution, PuzzleKind::Win, start.clone()).unwrap();
        let s = game.solution(&solution).unwrap();
        let mine: Vec<String> = s
            .steps
            .iter()
            .filter(|s| s.expected)
            .map(|s| s.name.clone())
            .collect();
        let p = follow(&solution, PuzzleKind::Win, &start, &mine[..1]).unwrap();
        assert_eq!(p.verdict, Some(Verdict::Right));
        assert_eq!(p.replies.len(), 1);
        assert_eq!(p.position, s.steps[2].position);
        assert!(p.end.is_none() && !p.legal.is_empty());
        let p = follow(&solution, PuzzleKind::Win, &start, &mine).unwrap();
        assert_eq!(p.end, Some(PuzzleEnd::Finished));
        assert_eq!(p.moves, 12);
        assert!(p.legal.is_empty());
        // Past the end, or an illegal move: refused.
        let mut more = mine.clone();
        more.push("tap 1 1".into());
        assert!(follow(&solution, PuzzleKind::Win, &start, &more).is_err());
        assert!(follow(&solution, PuzzleKind::Win, &start, &["tap 9 9".into()]).is_err());
    }

    #[test]
    fn a_wrong_move_fails_and_a_slower_win_is_tried_again() {
        let solution = crate::solved("standard");
        let rules = solution.rules();
        let start = SeatedPosition::start(rules);
        let mut game = PuzzleGame::new(&solution, PuzzleKind::Win, start).unwrap();
        // Play the expected first move, then look for a slower win later.
        loop {
            let choice = game.choice().unwrap().clone();
            if let Some(k) = choice.verdicts.iter().position(|v| *v == Verdict::Slower) {
                let before = game.position().clone();
                let played = game.play(&solution, &choice.moves[k].mv).unwrap();
                assert_eq!(played.verdict, Verdict::Slower);
                assert_eq!(*game.position(), before);
                assert!(game.end().is_none());
                break;
            }
            game.play(&solution, &choice.moves[choice.expected].mv)
                .unwrap();
            assert!(game.end().is_none(), "no slower win met before the end");
        }
        let choice = game.choice().unwrap().clone();
        let wrong = choice.verdicts.iter().position(|v| *v == Verdict::Wrong);
        if let Some(k) = wrong {
            let played = game.play(&solution, &choice.moves[k].mv).unwrap();
            assert_eq!(played.verdict, Verdict::Wrong);
            assert_eq!(game.end(), Some(&PuzzleEnd::Failed));
            assert!(game.play(&solution, &choice.moves[0].mv).is_err());
        }
    }
}
