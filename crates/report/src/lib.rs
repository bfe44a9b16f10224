//! The JSON documents of the analyses, built once.
//!
//! `chopsticks query --json`, `moves --json`, `review --json` and `puzzles
//! --json` print what this crate builds, and the Python package
//! (`crates/python`) returns the same documents as dictionaries, so that a
//! field has one name and one meaning for scripts in every language. The
//! documents are described, key by key, in `docs/JSON.md` (checked by
//! `tests/json_reference.rs`).
//!
//! The model: every function takes what the caller already has (a ruleset, a
//! [`SeatedPosition`] read by the one reader of positions, a [`Solved`]
//! table) and returns a [`serde_json::Value`] object; nothing here prints,
//! reads files or solves. A document about one variant carries `variant`,
//! `description` and `ruleset` ([`with_variant`]). Positions are written as
//! seated ids unless a mover-first notation is asked for (`printed`), and
//! players are numbered from 1.
//!
//! A table read from a file is not believed blindly: [`query`] checks the
//! optimal lines around the position first, and the lines that reviews and
//! puzzles show are checked against the rules ([`checker`]), as the command
//! line always did.

pub mod value;

use chopsticks_learn::history::DEFAULT_BOUND;
use chopsticks_learn::{
    evaluate, optimal_line, puzzles, review as review_game, Checker, History, LearnError, Line,
    PuzzleSet, Replay,
};
use chopsticks_rules::{Notation, Player, Position, RulesError, Ruleset, SeatedPosition};
use chopsticks_solve::{Outcome, SolveError, Solved};
use serde_json::{json, Value};
use thiserror::Error;

/// The most moves [`moves`] lists (checked against a bound before listing them).
pub const MAX_LISTED_MOVES: u64 = 100_000;

/// Why a document cannot be built.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Learn(#[from] LearnError),
    /// A position with more moves than a list holds.
    #[error(
        "this position may have up to {bound} moves (F = {fingers} allows that many transfers); \
         `moves` lists at most {MAX_LISTED_MOVES}"
    )]
    TooManyMoves { bound: u64, fingers: u32 },
    /// A notation that cannot be read or cannot write the ruleset.
    #[error("{0}")]
    Notation(String),
}

/// The largest index a summary explores from the start unless asked: the
/// exploration (6–12 million positions a second) would otherwise take longer
/// than the solve itself, which on the largest variants touches only the
/// decided positions.
pub const EXPLORE_BY_DEFAULT: u64 = 100_000_000;

/// How positions are printed, from a notation's name: `None` (or `seated`)
/// for the seated id, else `compact`, `dashed` or `paper`, refused when it
/// cannot write the positions of `rules`.
pub fn printed_notation(
    name: Option<&str>,
    rules: &Ruleset,
) -> Result<Option<Notation>, ReportError> {
    let Some(name) = name else {
        return Ok(None);
    };
    if name.eq_ignore_ascii_case("seated") {
        return Ok(None);
    }
    let Some(notation) = Notation::from_name(name) else {
        return Err(ReportError::Notation(format!(
            "unknown notation `{}`; use seated, compact, dashed or paper",
            chopsticks_rules::quoted(name)
        )));
    };
    // Whether a notation can write a ruleset's positions depends on the rules
    // only, so the start tells.
    Position::start(rules).to_notation(rules, notation)?;
    Ok(Some(notation))
}

/// Adds the keys every document about one variant carries to `value` (an
/// object): `variant` (its id, as `--variant` reads it), `description` (the
/// ruleset in words) and `ruleset` (every rule as a field).
pub fn with_variant(rules: &Ruleset, mut value: Value) -> Value {
    if let Some(map) = value.as_object_mut() {
        map.insert("variant".into(), rules.variant_id().into());
        map.insert("description".into(), rules.describe().into());
        map.insert(
            "ruleset".into(),
            serde_json::to_value(rules).expect("rulesets serialise"),
        );
    }
    value
}

/// An outcome: `{"value": "win", "remoteness": 5}`.
pub fn outcome_json(o: &Outcome) -> Value {
    json!({"value": o.value.name(), "remoteness": o.remoteness})
}

/// Writes a position reached by one move from `parent`, a `step` of seats on: as
/// its seated id by default (`printed` is `None`), else in the mover-first
/// notation asked for, the child's mover first as in every notation (in the
/// paper's, its mover is Left), so that the text reads back as the child.
pub fn child_text(
    rules: &Ruleset,
    printed: Option<Notation>,
    parent: &SeatedPosition,
    child: &Position,
    step: usize,
) -> Result<String, RulesError> {
    let Some(notation) = printed else {
        return parent.after(child.clone(), step).to_text(rules);
    };
    child.to_notation(rules, notation)
}

/// The outcomes of `seats` (counted from the mover of `seated`) by player,
/// Player 1 first.
pub fn by_player<'a>(seated: &SeatedPosition, seats: &'a [Outcome]) -> Vec<(Player, &'a Outcome)> {
    let mut list: Vec<(Player, &Outcome)> = seats
        .iter()
        .enumerate()
        .map(|(k, o)| (Player::from_seat(seated.seat_of(k)), o))
        .collect();
    list.sort_by_key(|(p, _)| *p);
    list
}

/// `[{"player": 1, "value": "win", "remoteness": 5}, …]`, Player 1 first.
pub fn players_json(seated: &SeatedPosition, seats: &[Outcome]) -> Value {
    by_player(seated, seats)
        .into_iter()
        .map(|(p, o)| {
            let mut entry = outcome_json(o);
            entry["player"] = json!(p.number());
            entry
        })
        .collect()
}

/// The values of a game in progress (`chopsticks_learn::history`): the game's
/// history, oldest first, under its repetition rule. The mover's and every
/// player's value of the game, the table's beside them, and every move, best
/// first, with the game's and the table's value. A table read from a
/// file is checked whole first (the positions solved again may lie anywhere).
pub fn game(solved: &Solved, history: &History) -> Result<Value, ReportError> {
    let rules = &solved.rules;
    history.check_moves(rules)?;
    if solved.needs_line_checks() {
        solved.check_whole(&|_| {})?;
    }
    let values = evaluate(&solved.solution, history, DEFAULT_BOUND)?;
    let at = history.current();
    let turn = at.turn();
    // Best first by the game's values, as `query` lists its moves (`order`:
    // the rules' order).
    let moves = {
        values
            .moves
            .iter()
            .map(|m| {
                let mut entry = outcome_json(&m.outcome);
                entry["move"] = json!(at.move_name(rules, &m.mv));
                entry["order"] = json!(m.index);
                entry["to"] = json!(m.to.to_text(rules)?);
                entry["table_value"] = json!(m.table.value.name());
                entry["table_remoteness"] = json!(m.table.remoteness);
                entry["repetition"] = json!(m.repetition);
                Ok(entry)
            })
            .collect::<Result<Vec<_>, RulesError>>()?
    };
    let mover = values.seats[turn];
    let table = values.table[turn];
    let mut value = outcome_json(&mover);
    value["position"] = json!(at.to_text(rules)?);
    value["player"] = json!(turn + 1);
    value["plies"] = json!(history.len() - 1);
    value["repetitions"] = json!(history.repetitions().word());
    value["times_seen"] = json!(history.times_seen(at));
    value["end"] = serde_json::to_value(values.end).expect("an end serialises");
    value["exact"] = json!(values.exact);
    value["solved_again"] = json!(values.solved_again);
    value["table_value"] = json!(table.value.name());
    value["table_remoteness"] = json!(table.remoteness);
    value["players"] = values
        .seats
        .iter()
        .enumerate()
        .map(|(seat, o)| {
            let mut entry = outcome_json(o);
            entry["player"] = json!(seat + 1);
            entry
        })
        .collect();
    value["moves"] = json!(moves);
    Ok(with_variant(rules, value))
}

/// What checks the lines a review, a puzzle or a query shows: for a table read
/// from a file, against the rules; for one solved here (or checked whole),
/// nothing.
pub fn checker(solved: &Solved) -> Result<Checker<'_>, SolveError> {
    if !solved.needs_line_checks() {
        return Ok(Checker::trusted());
    }
    Ok(Checker::against_rules(solved.graph_for_checks()?))
}

/// `moves --json`: the legal moves of a position and the positions they lead
/// to, without a solution.
pub fn moves(
    rules: &Ruleset,
    seated: &SeatedPosition,
    printed: Option<Notation>,
) -> Result<Value, ReportError> {
    let position = seated.position();
    let bound = position.move_count_bound(rules);
    if bound > MAX_LISTED_MOVES {
        return Err(ReportError::TooManyMoves {
            bound,
            fingers: rules.fingers,
        });
    }
    let list = position
        .moves_with_steps(rules)
        .iter()
        .map(|(m, q, step)| {
            Ok(json!({
                "move": seated.move_name(rules, m),
                "kind": m.kind(),
                "to": child_text(rules, printed, seated, q, *step)?,
            }))
        })
        .collect::<Result<Vec<_>, RulesError>>()?;
    Ok(with_variant(
        rules,
        json!({
            "position": seated.write(rules, printed)?,
            "player": seated.mover().number(),
            "hands": seated.hands_by_seat(),
            "terminal": position.is_terminal(rules),
            "moves": list,
        }),
    ))
}

/// What a query shows of a position: every move with its outcomes (best
/// first), every seat's outcome (seat 0 the mover), and with lines the optimal
/// line from the position and after each move.
pub struct Analysis {
    pub moves: Vec<chopsticks_solve::EvaluatedMove>,
    pub seats: Vec<Outcome>,
    pub line: Option<Line>,
    pub move_lines: Vec<Line>,
}

/// The [`Analysis`] of a position, for the text and the JSON of `query`. A
/// table read from a file has the lines around the position checked first.
pub fn analyse(
    solved: &Solved,
    seated: &SeatedPosition,
    lines: bool,
) -> Result<Analysis, ReportError> {
    let position = seated.position();
    solved.check_lines(position)?;
    let moves = solved.solution.evaluate_moves(position)?;
    let seats = solved.solution.seat_outcomes(position)?;
    let (line, move_lines) = if lines {
        let mut checker = checker(solved)?;
        let here = optimal_line(&solved.solution, seated, &mut checker)?;
        let after = moves
            .iter()
            .map(|m| {
                optimal_line(
                    &solved.solution,
                    &seated.after(m.to.clone(), m.step),
                    &mut checker,
                )
            })
            .collect::<Result<Vec<Line>, _>>()?;
        (Some(here), after)
    } else {
        (None, Vec::new())
    };
    Ok(Analysis {
        moves,
        seats,
        line,
        move_lines,
    })
}

/// `query --json`: a position's value for every player and every move's value,
/// best first; with `lines`, the optimal line from the position and after each
/// move ([`analyse`]).
pub fn query(
    solved: &Solved,
    seated: &SeatedPosition,
    printed: Option<Notation>,
    lines: bool,
) -> Result<Value, ReportError> {
    let rules = &solved.rules;
    let position = seated.position();
    let Analysis {
        moves,
        seats,
        line,
        move_lines,
    } = analyse(solved, seated, lines)?;
    let list = moves
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let mut entry = json!({
                "move": seated.move_name(rules, &m.mv),
                "kind": m.mv.kind(),
                "to": child_text(rules, printed, seated, &m.to, m.step)?,
                "value": m.outcome.value.name(),
                "remoteness": m.outcome.remoteness,
                "players": players_json(seated, &m.seats),
            });
            if let Some(l) = move_lines.get(k) {
                entry["line"] = serde_json::to_value(l).expect("lines serialise");
            }
            Ok(entry)
        })
        .collect::<Result<Vec<_>, RulesError>>()?;
    let mut value = outcome_json(&seats[0]);
    value["position"] = json!(seated.write(rules, printed)?);
    value["player"] = json!(seated.mover().number());
    value["hands"] = json!(seated.hands_by_seat());
    value["terminal"] = json!(position.is_terminal(rules));
    value["concept"] = json!(solved.solution.concept());
    value["players"] = players_json(seated, &seats);
    value["moves"] = json!(list);
    if let Some(l) = &line {
        value["line"] = serde_json::to_value(l).expect("lines serialise");
    }
    Ok(with_variant(rules, value))
}

/// The optimal line from a position, both sides playing their best (`query
/// --line`'s `line`, on its own), with the variant's keys.
pub fn line(solved: &Solved, seated: &SeatedPosition) -> Result<Value, ReportError> {
    solved.check_lines(seated.position())?;
    let mut checker = checker(solved)?;
    let line = optimal_line(&solved.solution, seated, &mut checker)?;
    Ok(with_variant(
        &solved.rules,
        serde_json::to_value(&line).expect("lines serialise"),
    ))
}

/// How `review --json` is shaped.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReviewShape {
    /// Only the moves that were not best (`--mistakes`).
    pub mistakes_only: bool,
    /// Without the best lines and refutations (`--no-lines`: their keys stay,
    /// `null`).
    pub no_lines: bool,
}

/// `review --json`: every move of a replayed game with its value before and
/// after, classified, with the best moves instead and the refutation lines.
pub fn review(solved: &Solved, replay: &Replay, shape: ReviewShape) -> Result<Value, ReportError> {
    let mut checker = checker(solved)?;
    let r = review_game(&solved.solution, replay, &mut checker)?;
    let mut value = serde_json::to_value(&r).expect("reviews serialise");
    if let Some(moves) = value["moves"].as_array_mut() {
        if shape.mistakes_only {
            moves.retain(|m| m["verdict"]["kind"] != "best");
        }
        if shape.no_lines {
            for m in moves.iter_mut() {
                m["best_line"] = Value::Null;
                m["refutation"] = Value::Null;
            }
        }
    }
    Ok(with_variant(&solved.rules, value))
}

/// A puzzle as JSON; `hide_answers` leaves the answers out (the expected and
/// accepted moves, the solution, the reasons for the grade, which name moves)
/// and lists the moves without what they give, in the rules' order.
pub fn puzzle_json(v: &puzzles::PuzzleView, hide_answers: bool) -> Value {
    let mut value = serde_json::to_value(v).expect("puzzles serialise");
    if hide_answers {
        if let Some(map) = value.as_object_mut() {
            for key in ["answer", "accepted", "solution", "why"] {
                map.remove(key);
            }
        }
        if let Some(moves) = value["moves"].as_array_mut() {
            for m in moves.iter_mut() {
                if let Some(map) = m.as_object_mut() {
                    map.retain(|k, _| k == "move" || k == "to");
                }
            }
        }
    }
    value
}

/// `puzzles --position --json`: the puzzle at one position (an error if it is
/// not one); with `played` (the player's moves so far, by name) its
/// `progress`, as the API's `played=` gives it.
pub fn puzzle_at(
    solved: &Solved,
    seated: &SeatedPosition,
    hide_answers: bool,
    played: Option<&[String]>,
) -> Result<Value, ReportError> {
    if !solved.solution.has_remoteness() {
        return Err(SolveError::NoRemoteness.into());
    }
    // A puzzle's solution reads the table far from its position: a table
    // read from a file is checked whole first.
    if solved.needs_line_checks() {
        solved.check_whole(&|_| {})?;
    }
    let mut checker = checker(solved)?;
    checker.around(&solved.solution, seated.position())?;
    let puzzle = puzzles::puzzle_at_seated(&solved.solution, seated)?;
    let v = puzzles::view_seated(&solved.solution, &puzzle, seated, &mut checker)?;
    let mut value = puzzle_json(&v, hide_answers);
    if let Some(played) = played {
        let progress =
            chopsticks_learn::playout::follow(&solved.solution, puzzle.kind, seated, played)?;
        value["progress"] = serde_json::to_value(progress).expect("a progress serialises");
    }
    Ok(with_variant(&solved.rules, value))
}

/// What [`puzzle_set`] chooses.
#[derive(Clone, Debug)]
pub struct PuzzleChoice {
    pub filter: puzzles::Filter,
    pub count: usize,
    pub seed: u64,
    pub hide_answers: bool,
}

/// `puzzles --json`: `count` puzzles chosen by `seed` among every puzzle
/// reachable from the start (found in `set`), with the counts by grade.
pub fn puzzle_set(
    solved: &Solved,
    set: &PuzzleSet,
    choice: &PuzzleChoice,
) -> Result<Value, ReportError> {
    let graph = solved.graph()?;
    let chosen = set.choose(&choice.filter, choice.count, choice.seed);
    let mut checker = checker(solved)?;
    let views = chosen
        .iter()
        .map(|p| puzzles::view(&solved.solution, p, &graph.position(p.index), &mut checker))
        .collect::<Result<Vec<_>, _>>()?;
    let counts = set.counts();
    Ok(with_variant(
        &solved.rules,
        json!({
            "reachable": set.reachable,
            "total": set.puzzles.len(),
            "win_by_grade": counts[0],
            "hold_by_grade": counts[1],
            "seed": choice.seed,
            "puzzles": views.iter().map(|v| puzzle_json(v, choice.hide_answers)).collect::<Vec<_>>(),
        }),
    ))
}

/// `table outcomes --json`: the outcome counts of an atlas of Simple
/// Chopsticks, in all and by the hand counts of the two sides.
pub fn atlas_summary(s: &chopsticks_atlas::Summary) -> Value {
    let counts = |c: &chopsticks_atlas::Counts| json!({"L": c[0], "R": c[1], "N": c[2], "P": c[3]});
    let mut by_hands = Vec::new();
    for (l, row) in s.by_hands.iter().enumerate() {
        for (r, c) in row.iter().enumerate() {
            let mut v = counts(c);
            v["left"] = json!(l);
            v["right"] = json!(r);
            by_hands.push(v);
        }
    }
    json!({
        "n": s.n,
        "max_hands": s.max_hands,
        "positions": s.total.iter().sum::<u64>(),
        "counts": counts(&s.total),
        "by_hands": by_hands,
    })
}

/// The summary of a solve (`solve --json`'s counts and start, without how the
/// solve ran): the outcomes of the positions counted (those reachable from the
/// start when `explored`, else every position of the index), the start's
/// outcome for every player, and the longest win (written by the caller, in
/// the notation asked for).
pub fn solve_summary(
    solved: &Solved,
    summary: &chopsticks_solve::Summary,
    explored: bool,
    start: &SeatedPosition,
    start_text: &str,
    longest_win: Option<(String, u32)>,
) -> Value {
    json!({
        "positions": solved.solution.count(),
        "reachable": explored.then_some(summary.reachable),
        "counted": if explored { "reachable" } else { "index" },
        "win": summary.win,
        "lose": summary.lose,
        "draw": summary.draw,
        "terminal": summary.terminal,
        "start_position": start_text,
        "start": outcome_json(&summary.start),
        "concept": solved.solution.concept(),
        "start_player": start.mover().number(),
        "start_players": players_json(start, &summary.start_seats),
        "by_turn": summary.seats.iter().enumerate().map(|(after, c)| json!({
            "after_mover": after, "win": c.win, "lose": c.lose, "draw": c.draw,
        })).collect::<Vec<_>>(),
        "longest_win": longest_win.map(|(p, r)| json!({"position": p, "remoteness": r})),
        "encoding": solved.solution.table().encoding(),
    })
}
