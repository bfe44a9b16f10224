//! Reviews: what each move of a game did to its mover's value.
//!
//! For each move the mover's value before it (the game's value: what the
//! best move gives) and after it (the move's value) are compared. Both are the
//! values of the game so far ([`crate::history`]): a move that lets a won game
//! be drawn by threefold repetition is a win thrown away, though the table's
//! value of the position it leads to is still a win.
//!
//! | verdict | before → after |
//! |---|---|
//! | [`Verdict::Best`] | the same value and remoteness: one of the best moves |
//! | [`Verdict::SlowerWin`] | a win → a slower win (`plies` more to the end) |
//! | [`Verdict::FasterLoss`] | a loss → a faster loss (`plies` fewer to the end) |
//! | [`Verdict::WinToDraw`] | a forced win thrown to a draw |
//! | [`Verdict::WinToLoss`] | a forced win thrown to a loss |
//! | [`Verdict::DrawToLoss`] | a draw thrown to a loss |
//!
//! Every move but a best one comes with the best moves instead, the optimal
//! line after the best move, and its **refutation**: the optimal line after
//! the move played (see [`crate::line`]), which shows how the opponent punishes
//! it. A player's accuracy is the share of their moves that kept their value
//! (best moves, slower wins and faster losses); the share of best moves is
//! given beside it.

use chopsticks_rules::SeatedPosition;
use chopsticks_solve::{Outcome, Solution, Value};
use serde::Serialize;

use crate::history::{History, Repetitions, Work, DEFAULT_BOUND};
use crate::line::{game_line_within, Line};
use crate::record::Replay;
use crate::{Checker, LearnError};

/// What a move did to its mover's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Verdict {
    Best,
    SlowerWin { plies: u32 },
    FasterLoss { plies: u32 },
    WinToDraw,
    WinToLoss,
    DrawToLoss,
}

impl Verdict {
    /// The verdict of a move of value `after` in a position of value `before`
    /// (both the mover's, with remoteness).
    pub fn of(before: Outcome, after: Outcome) -> Verdict {
        let r = |o: Outcome| o.remoteness.unwrap_or(0);
        match (before.value, after.value) {
            (Value::Win, Value::Win) if r(after) > r(before) => Verdict::SlowerWin {
                plies: r(after) - r(before),
            },
            (Value::Lose, Value::Lose) if r(after) < r(before) => Verdict::FasterLoss {
                plies: r(before) - r(after),
            },
            (Value::Win, Value::Draw) => Verdict::WinToDraw,
            (Value::Win, Value::Lose) => Verdict::WinToLoss,
            (Value::Draw, Value::Lose) => Verdict::DrawToLoss,
            _ => Verdict::Best,
        }
    }

    /// Whether the move kept the mover's value (win, draw or loss).
    pub fn kept_value(self) -> bool {
        matches!(
            self,
            Verdict::Best | Verdict::SlowerWin { .. } | Verdict::FasterLoss { .. }
        )
    }

    /// The verdict in words: `best`, `a slower win (2 plies lost)`, …
    pub fn words(self) -> String {
        let plies = |n: u32| {
            if n == 1 {
                "1 ply".to_string()
            } else {
                format!("{n} plies")
            }
        };
        match self {
            Verdict::Best => "best".into(),
            Verdict::SlowerWin { plies: n } => format!("a slower win ({} longer)", plies(n)),
            Verdict::FasterLoss { plies: n } => format!("a faster loss ({} sooner)", plies(n)),
            Verdict::WinToDraw => "a win thrown away: now a draw".into(),
            Verdict::WinToLoss => "a win thrown away: now a loss".into(),
            Verdict::DrawToLoss => "a draw thrown away: now a loss".into(),
        }
    }

    /// A short tag: `best`, `slower`, `faster-loss`, `win-to-draw`, …
    pub fn tag(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::SlowerWin { .. } => "slower-win",
            Verdict::FasterLoss { .. } => "faster-loss",
            Verdict::WinToDraw => "win-to-draw",
            Verdict::WinToLoss => "win-to-loss",
            Verdict::DrawToLoss => "draw-to-loss",
        }
    }
}

/// One move of a reviewed game.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewedMove {
    /// The ply, counted from 1.
    pub ply: usize,
    /// The player who moved: 1 = Player 1.
    pub player: usize,
    /// The position it moved in, as a seated text.
    pub from: String,
    #[serde(rename = "move")]
    pub name: String,
    /// The position it led to.
    pub to: String,
    /// The mover's value before the move and after it.
    pub before: Outcome,
    pub after: Outcome,
    pub verdict: Verdict,
    /// How many legal moves there were.
    pub choices: usize,
    /// The moves as good as the best (empty for a best move).
    pub best: Vec<String>,
    /// For a move that was not best: the optimal line after the first best move.
    pub best_line: Option<Line>,
    /// For a move that was not best: the optimal line after it.
    pub refutation: Option<Line>,
    /// The record's line the move was on (0 when not read from a record);
    /// `record_line` in JSON (`line` is an optimal line everywhere else).
    #[serde(rename = "record_line", skip_serializing_if = "is_zero")]
    pub line: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What one seat did over a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerSummary {
    /// The player: 1 = Player 1.
    pub player: usize,
    pub moves: usize,
    /// Best moves.
    pub best: usize,
    /// Moves that kept the value (best moves, slower wins, faster losses).
    pub kept: usize,
    pub slower_wins: usize,
    pub faster_losses: usize,
    /// Wins thrown away (to a draw or a loss).
    pub thrown_wins: usize,
    /// Draws thrown to a loss.
    pub thrown_draws: usize,
    /// `kept / moves` (1 for a player who did not move).
    pub accuracy: f64,
    /// `best / moves` (1 for a player who did not move).
    pub best_share: f64,
}

/// A reviewed game.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    pub variant: String,
    /// The start, as a seated text.
    pub start: String,
    /// The value at the start for its mover.
    pub start_value: Outcome,
    pub moves: Vec<ReviewedMove>,
    /// One summary per seat, Player 1 first.
    pub players: Vec<PlayerSummary>,
    /// The last position, and whether the game is over there (finished by the
    /// rules, or a draw by threefold repetition).
    pub last: String,
    pub finished: bool,
    /// The move (from 1) after which a position came up the third time: the
    /// game is a draw by threefold repetition there (`null` otherwise).
    pub repetition: Option<usize>,
    /// The value at the last position for its mover.
    pub last_value: Outcome,
    /// The player to move at the last position (from 1).
    pub last_player: usize,
    /// Whether every value and line is exact under the repetition rule: `false`
    /// once the review's bound on positions solved again with the game's
    /// history (shared by every move and line of the review) ran out, after
    /// which they are the table's.
    pub exact: bool,
}

/// Reviews a replayed game against `solution` (of the game's rules), checking
/// what it shows with `checker`. Tables without remoteness are refused. The
/// positions solved again with the game's history are at most
/// [`DEFAULT_BOUND`] for the whole review ([`review_within`]).
pub fn review(
    solution: &Solution,
    replay: &Replay,
    checker: &mut Checker,
) -> Result<Review, LearnError> {
    review_within(solution, replay, checker, DEFAULT_BOUND)
}

/// [`review`], solving again at most `bound` positions with the game's history
/// in all (every move's values and every line together): a record of any
/// length is reviewed within that work, its later values the table's once it
/// runs out ([`Review::exact`]).
pub fn review_within(
    solution: &Solution,
    replay: &Replay,
    checker: &mut Checker,
    bound: usize,
) -> Result<Review, LearnError> {
    let mut work = Work::new(bound);
    let rules = solution.rules();
    if *rules != replay.rules {
        return Err(LearnError::OtherVariant {
            record: replay.rules.variant_id(),
            solution: rules.variant_id(),
        });
    }
    if !solution.has_remoteness() {
        return Err(chopsticks_solve::SolveError::NoRemoteness.into());
    }
    let mut players: Vec<PlayerSummary> = (0..rules.players())
        .map(|seat| PlayerSummary {
            player: seat + 1,
            ..PlayerSummary::default()
        })
        .collect();
    let mut moves = Vec::with_capacity(replay.plies.len());
    let mut game = History::new(replay.start.clone(), Repetitions::default());
    for (k, ply) in replay.plies.iter().enumerate() {
        let from = ply.from.position();
        checker.around(solution, from)?;
        let values = work.evaluate(solution, &game)?;
        let before = values.mover(ply.from.turn());
        let played = values
            .moves
            .iter()
            .find(|m| m.mv == ply.mv)
            .ok_or_else(|| LearnError::Record {
                line: ply.line,
                message: format!("move {} `{}` is not legal", k + 1, ply.name),
            })?;
        let after = played.outcome;
        let verdict = Verdict::of(before, after);
        let (best, best_line, refutation) = if verdict == Verdict::Best {
            (Vec::new(), None, None)
        } else {
            let top = values.moves[0].outcome;
            let best: Vec<String> = values
                .moves
                .iter()
                .take_while(|m| m.outcome == top)
                .map(|m| ply.from.move_name(rules, &m.mv))
                .collect();
            let mut after_best = game.clone();
            after_best.push(values.moves[0].to.clone());
            let best_line = game_line_within(solution, &after_best, checker, &mut work)?;
            let mut after_played = game.clone();
            after_played.push(ply.to.clone());
            let refutation = game_line_within(solution, &after_played, checker, &mut work)?;
            (best, Some(best_line), Some(refutation))
        };
        let evaluated = &values.moves;
        game.push(ply.to.clone());
        let summary = &mut players[ply.from.turn()];
        summary.moves += 1;
        summary.best += usize::from(verdict == Verdict::Best);
        summary.kept += usize::from(verdict.kept_value());
        match verdict {
            Verdict::SlowerWin { .. } => summary.slower_wins += 1,
            Verdict::FasterLoss { .. } => summary.faster_losses += 1,
            Verdict::WinToDraw | Verdict::WinToLoss => summary.thrown_wins += 1,
            Verdict::DrawToLoss => summary.thrown_draws += 1,
            Verdict::Best => {}
        }
        moves.push(ReviewedMove {
            ply: k + 1,
            player: ply.from.turn() + 1,
            from: ply.from.to_text(rules)?,
            name: ply.name.clone(),
            to: ply.to.to_text(rules)?,
            before,
            after,
            verdict,
            choices: evaluated.len(),
            best,
            best_line,
            refutation,
            line: ply.line,
        });
    }
    for p in &mut players {
        let share = |n: usize| {
            if p.moves == 0 {
                1.0
            } else {
                n as f64 / p.moves as f64
            }
        };
        p.accuracy = share(p.kept);
        p.best_share = share(p.best);
    }
    let last: &SeatedPosition = replay.last();
    checker.around(solution, last.position())?;
    let last_value = work.evaluate(solution, &game)?.mover(last.turn());
    Ok(Review {
        variant: rules.variant_id(),
        start: replay.start.to_text(rules)?,
        start_value: solution.outcome(replay.start.position())?,
        moves,
        players,
        last: last.to_text(rules)?,
        finished: replay.is_over(),
        repetition: replay.repetition,
        last_value,
        last_player: last.mover().number(),
        exact: work.exact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_the_table_of_the_module() {
        use Outcome as O;
        assert_eq!(Verdict::of(O::win(5), O::win(5)), Verdict::Best);
        assert_eq!(
            Verdict::of(O::win(5), O::win(9)),
            Verdict::SlowerWin { plies: 4 }
        );
        assert_eq!(
            Verdict::of(O::lose(8), O::lose(2)),
            Verdict::FasterLoss { plies: 6 }
        );
        assert_eq!(Verdict::of(O::lose(8), O::lose(8)), Verdict::Best);
        assert_eq!(Verdict::of(O::win(3), O::DRAW), Verdict::WinToDraw);
        assert_eq!(Verdict::of(O::win(3), O::lose(4)), Verdict::WinToLoss);
        assert_eq!(Verdict::of(O::DRAW, O::lose(4)), Verdict::DrawToLoss);
        assert_eq!(Verdict::of(O::DRAW, O::DRAW), Verdict::Best);
        assert!(Verdict::SlowerWin { plies: 1 }.kept_value());
        assert!(!Verdict::DrawToLoss.kept_value());
        assert_eq!(
            Verdict::SlowerWin { plies: 1 }.words(),
            "a slower win (1 ply longer)"
        );
    }
}

#[cfg(test)]
mod bound {
    use super::*;
    use crate::record::GameRecord;
    use crate::solved;

    /// A three-player record whose review solves hundreds of thousands of
    /// positions again (783,630): within a small bound it is reviewed from the
    /// table once the bound runs out, and says so; a short one within the
    /// default bound, exactly.
    #[test]
    fn a_review_keeps_within_its_bound_and_says_when_it_ran_out() {
        let s = solved("standard.p3");
        let text = "variant standard.p3\ntap 1→1 P3\nself 1→1\nself 1→2\ntap 1→2 P2\n\
                    tap 3→3 P3\ntap 1→1 P2\ntap 1→2 P2\nself 3→3\ntap 1→3 P2\n";
        let record = GameRecord::parse(text).unwrap();
        let replay = record.replay(s.rules()).unwrap();
        let small = review_within(&s, &replay, &mut Checker::trusted(), 1000).unwrap();
        assert!(!small.exact);
        assert_eq!(small.moves.len(), 9);
        // Its first three moves, within the default bound: exactly.
        let record =
            GameRecord::parse("variant standard.p3\ntap 1→1 P3\nself 1→1\nself 1→2\n").unwrap();
        let replay = record.replay(s.rules()).unwrap();
        let whole = review(&s, &replay, &mut Checker::trusted()).unwrap();
        assert!(whole.exact);
    }
}
