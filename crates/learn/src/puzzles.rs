//! Puzzles: positions where exactly one move does the job.
//!
//! A position reachable from the variant's start is a puzzle when the player
//! to move has at least two legal moves and
//!
//! - **win**: the mover can force a win, and exactly one legal move keeps the
//!   forced win (every other move draws or loses); or
//! - **hold**: the mover can force a draw but not a win, and exactly one legal
//!   move keeps the draw (every other move loses).
//!
//! (Under cutoff two taps can kill hands of the same value and lead to the same
//! position; they are two moves, so such a position is not a puzzle.)
//!
//! **Difficulty.** Two things make a puzzle hard: how far one must look, and
//! how many moves look like the answer. The *depth* is, for a win, the
//! remoteness of the win (plies to the end of the game); for a hold, the
//! largest remoteness among the losing moves (how far one must look to see
//! that the slowest-losing alternative loses). The *decoys* are the moves that
//! look the same as the answer but fail: taps onto the same hand of the same
//! player, self-taps onto the same hand, or splits of the same kind. The
//! grade, 1 to 5, comes from the score `ceil(depth / 2) + decoys` (the
//! mover's own moves to look ahead, plus one for each decoy): 1 for a score of
//! at most 1, 2 up to 3, 3 up to 6, 4 up to 10, 5 beyond.
//!
//! **Choosing.** [`PuzzleSet::find`] finds every puzzle (in parallel over the
//! reachable positions, first by the table alone, then the few candidates by
//! their moves). [`PuzzleSet::choose`] picks some, filtered by kind and grade,
//! by a pseudo-random order fixed by a seed: the same seed and the same
//! variant give the same puzzles on every machine.

use chopsticks_rules::{Move, Position, SeatedPosition};
use chopsticks_solve::{Outcome, Solution, SolveError, Value};
use chopsticks_space::{explore, BitSet, Graph, TileMap};
use rayon::prelude::*;
use serde::Serialize;

use crate::line::{optimal_line, Line};
use crate::{Checker, LearnError};

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleKind {
    /// Find the only move that keeps the win.
    Win,
    /// Find the only move that keeps the draw.
    Hold,
}

impl PuzzleKind {
    pub fn name(self) -> &'static str {
        match self {
            PuzzleKind::Win => "win",
            PuzzleKind::Hold => "hold",
        }
    }
}

/// A grade from 1 (one move to see, nothing that looks the same) to 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Difficulty(pub u8);

impl Difficulty {
    /// The grades' names, 1 to 5.
    pub const NAMES: [&'static str; 5] = ["beginner", "easy", "medium", "hard", "expert"];

    /// The grade of a puzzle of this depth (plies) and these decoys (see the
    /// module documentation).
    pub fn grade(depth: u32, decoys: u32) -> Difficulty {
        let score = depth.div_ceil(2) + decoys;
        Difficulty(match score {
            0..=1 => 1,
            2..=3 => 2,
            4..=6 => 3,
            7..=10 => 4,
            _ => 5,
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[(self.0.clamp(1, 5) - 1) as usize]
    }

    /// Reads a grade: `1`…`5` or its name (`easy`).
    pub fn parse(text: &str) -> Option<Difficulty> {
        let t = text.trim().to_ascii_lowercase();
        if let Ok(n) = t.parse::<u8>() {
            return (1..=5).contains(&n).then_some(Difficulty(n));
        }
        Self::NAMES
            .iter()
            .position(|n| *n == t)
            .map(|k| Difficulty(k as u8 + 1))
    }
}

/// A puzzle as stored: its position and its grading (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position's index in the ruleset's dense index.
    pub index: u64,
    /// Depth in plies (see the module documentation), at most 65,535.
    pub depth: u16,
    /// Legal moves (at most 255 counted).
    pub moves: u8,
    pub decoys: u8,
    pub kind: PuzzleKind,
    pub difficulty: Difficulty,
}

/// Which puzzles to choose.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Only this kind (any when `None`).
    pub kind: Option<PuzzleKind>,
    /// Grades from `min` to `max` (inclusive); `None`: any.
    pub difficulty: Option<(Difficulty, Difficulty)>,
}

impl Filter {
    fn accepts(&self, p: &Puzzle) -> bool {
        self.kind.is_none_or(|k| k == p.kind)
            && self
                .difficulty
                .is_none_or(|(lo, hi)| lo <= p.difficulty && p.difficulty <= hi)
    }
}

/// Every puzzle of a variant, sorted by position index.
#[derive(Clone, Debug)]
pub struct PuzzleSet {
    pub puzzles: Vec<Puzzle>,
    /// Positions reachable from the start (finished games included).
    pub reachable: u64,
}

/// The mover's value after a move to `child` that moved the turn on `step`
/// seats: the value of the seat the mover sits at in the child (for two
/// players and teams, the other side's value flipped at an odd step).
fn mover_value_after(
    solution: &Solution,
    players: usize,
    child: u64,
    step: usize,
) -> Result<Value, SolveError> {
    if players == 2 {
        return Ok(solution.outcome_at(child)?.value.flip());
    }
    Ok(solution
        .seat_outcome_at(child, (players - step % players) % players)?
        .value)
}

/// Counts a position's children and those keeping the mover's value, up to
/// two: past that the position is no puzzle and the table is not read.
struct Keeping {
    value: Value,
    children: u32,
    keeping: u32,
    failed: Option<SolveError>,
}

impl Keeping {
    fn new(value: Value) -> Keeping {
        Keeping {
            value,
            children: 0,
            keeping: 0,
            failed: None,
        }
    }

    #[inline]
    fn see(&mut self, solution: &Solution, players: usize, child: u64, step: usize) {
        self.children += 1;
        if self.keeping >= 2 {
            return;
        }
        match mover_value_after(solution, players, child, step) {
            Ok(v) => self.keeping += u32::from(v == self.value),
            Err(e) => self.failed = Some(e),
        }
    }

    /// Exactly one child keeps the value, and there are at least two.
    fn into_verdict(self) -> Result<bool, SolveError> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.keeping == 1 && self.children >= 2),
        }
    }
}

/// Whether two moves look alike (see the module documentation).
fn looks_like(a: &Move, b: &Move) -> bool {
    match (a, b) {
        (
            Move::Tap { target, to, .. },
            Move::Tap {
                target: t2,
                to: to2,
                ..
            },
        ) => target == t2 && to == to2,
        (Move::SelfTap { to, .. }, Move::SelfTap { to: to2, .. }) => to == to2,
        (Move::Split { kind, .. }, Move::Split { kind: k2, .. }) => kind == k2,
        _ => false,
    }
}

/// The graded puzzle at `position` (of value `value` for its mover), or `None`
/// when it is not one; from its moves.
fn grade(
    solution: &Solution,
    index: u64,
    position: &Position,
) -> Result<Option<Puzzle>, SolveError> {
    let value = solution.outcome_at(index)?;
    let kind = match value.value {
        Value::Win => PuzzleKind::Win,
        Value::Draw => PuzzleKind::Hold,
        Value::Lose => return Ok(None),
    };
    let moves = solution.evaluate_moves(position)?;
    if moves.len() < 2 {
        return Ok(None);
    }
    let good: Vec<usize> = (0..moves.len())
        .filter(|&k| moves[k].outcome.value == value.value)
        .collect();
    let [answer] = good[..] else {
        return Ok(None);
    };
    let answer = &moves[answer];
    let decoys = moves
        .iter()
        .filter(|m| m.outcome.value != value.value && looks_like(&m.mv, &answer.mv))
        .count() as u32;
    let depth = match kind {
        PuzzleKind::Win => value.remoteness.unwrap_or(0),
        PuzzleKind::Hold => moves
            .iter()
            .filter_map(|m| m.outcome.remoteness)
            .max()
            .unwrap_or(0),
    };
    Ok(Some(Puzzle {
        index,
        depth: depth.min(u16::MAX as u32) as u16,
        moves: moves.len().min(255) as u8,
        decoys: decoys.min(255) as u8,
        kind,
        difficulty: Difficulty::grade(depth, decoys),
    }))
}

impl PuzzleSet {
    /// Finds every puzzle among the positions reachable from `start` (an index
    /// of `graph`, the move graph of the solution's ruleset). `progress` is
    /// told the exploration's layers as they are done. Tables without
    /// remoteness are refused (puzzles are graded by it).
    pub fn find(
        graph: &Graph,
        solution: &Solution,
        start: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<PuzzleSet, LearnError> {
        if !solution.has_remoteness() {
            return Err(SolveError::NoRemoteness.into());
        }
        let reached = explore(graph, start, &|p| progress(p.reached)).reached;
        Self::among(graph, solution, &reached)
    }

    /// [`PuzzleSet::find`] among the positions of `reached` (those reachable
    /// from a start, found by `chopsticks_space::explore`).
    pub fn among(
        graph: &Graph,
        solution: &Solution,
        reached: &BitSet,
    ) -> Result<PuzzleSet, LearnError> {
        if !solution.has_remoteness() {
            return Err(SolveError::NoRemoteness.into());
        }
        Ok(PuzzleSet {
            puzzles: Self::find_among(graph, solution, reached)?,
            reachable: reached.count(),
        })
    }

    fn find_among(
        graph: &Graph,
        solution: &Solution,
        reached: &BitSet,
    ) -> Result<Vec<Puzzle>, LearnError> {
        let players = solution.rules().players();
        // First pass, from the table alone: positions with exactly one child
        // keeping the mover's value and at least two children. Two-player
        // indices are walked a 64 × 64 tile at a time, so that the children's
        // outcomes read stay in cache (see `chopsticks_space::TileMap`).
        // The position's value, or `None` for a loss (never a puzzle).
        let value_of = |i: u64| -> Result<Option<Value>, SolveError> {
            let value = solution.outcome_at(i)?.value;
            Ok((value != Value::Lose).then_some(value))
        };
        let candidates: Vec<u64> = match TileMap::new(graph) {
            Some(map) => map
                .tiles()
                .par_iter()
                .map(|tile| -> Result<Vec<u64>, SolveError> {
                    let mut found = Vec::new();
                    let width = (tile.cols.end - tile.cols.start) as u32;
                    for r0 in tile.rows.clone() {
                        let first = tile.row_start(r0) + tile.cols.start;
                        let mut bits = reached.bits_at(first, width);
                        while bits != 0 {
                            let k = bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            let i = first + k;
                            // A finished game has no child, so is never counted.
                            let Some(value) = value_of(i)? else { continue };
                            let ranks = [r0, tile.cols.start + k];
                            let mut count = Keeping::new(value);
                            graph.for_each_child_at(tile.seat, &ranks, |c, step| {
                                count.see(solution, players, c, step)
                            });
                            if count.into_verdict()? {
                                found.push(i);
                            }
                        }
                    }
                    Ok(found)
                })
                .try_reduce(Vec::new, |mut a, b| {
                    a.extend(b);
                    Ok(a)
                })?,
            None => reached
                .words()
                .par_iter()
                .enumerate()
                .with_min_len(256)
                .map(|(w, &word)| -> Result<Vec<u64>, SolveError> {
                    let mut found = Vec::new();
                    let mut bits = word;
                    while bits != 0 {
                        let i = w as u64 * 64 + bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        let Some(value) = value_of(i)? else { continue };
                        let mut count = Keeping::new(value);
                        graph.for_each_child_step(i, |c, step| {
                            count.see(solution, players, c, step)
                        });
                        if count.into_verdict()? {
                            found.push(i);
                        }
                    }
                    Ok(found)
                })
                .try_reduce(Vec::new, |mut a, b| {
                    a.extend(b);
                    Ok(a)
                })?,
        };
        // Second pass, by the candidates' moves: one move (not only one child)
        // keeps the value; the grade.
        let mut puzzles: Vec<Puzzle> = candidates
            .par_iter()
            .with_min_len(64)
            .map(|&i| grade(solution, i, &graph.position(i)))
            .filter_map(|r| r.transpose())
            .collect::<Result<Vec<_>, SolveError>>()?;
        puzzles.sort_unstable_by_key(|p| p.index);
        Ok(puzzles)
    }

    /// The puzzle at this index, if the position is one.
    pub fn get(&self, index: u64) -> Option<&Puzzle> {
        self.puzzles
            .binary_search_by_key(&index, |p| p.index)
            .ok()
            .map(|k| &self.puzzles[k])
    }

    /// How many puzzles of each kind and grade: `counts[kind][grade - 1]`
    /// (kind 0 = win, 1 = hold).
    pub fn counts(&self) -> [[u64; 5]; 2] {
        let mut c = [[0u64; 5]; 2];
        for p in &self.puzzles {
            let k = usize::from(p.kind == PuzzleKind::Hold);
            c[k][(p.difficulty.0.clamp(1, 5) - 1) as usize] += 1;
        }
        c
    }

    /// Up to `count` puzzles passing `filter`, in an order fixed by `seed`.
    pub fn choose(&self, filter: &Filter, count: usize, seed: u64) -> Vec<Puzzle> {
        let mut pool: Vec<Puzzle> = self
            .puzzles
            .iter()
            .filter(|p| filter.accepts(p))
            .copied()
            .collect();
        let mut rng = SplitMix64(seed);
        let take = count.min(pool.len());
        for k in 0..take {
            let j = k + (rng.next() % (pool.len() - k) as u64) as usize;
            pool.swap(k, j);
        }
        pool.truncate(take);
        pool
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small generator whose output
/// depends on the seed alone, the same on every machine.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// One move of a shown puzzle, with what it gives.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleMove {
    #[serde(rename = "move")]
    pub name: String,
    /// The position it leads to, as a seated text (`to`, as in `query`, `moves`
    /// and `review`).
    pub to: String,
    /// The mover's value of the move.
    pub value: Outcome,
    /// Whether it is the answer.
    pub answer: bool,
    /// Whether it is a decoy (looks like the answer, fails).
    pub decoy: bool,
    /// The optimal line after the move: the answer's winning (or drawing)
    /// line, or a wrong move's refutation.
    pub line: Line,
}

/// A puzzle as shown to a player.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleView {
    /// The position, as a seated text; a link opens the puzzle by it.
    pub position: String,
    /// The player to move: 1 = Player 1.
    pub player: usize,
    pub kind: PuzzleKind,
    /// What to do: `Player 1 to move and win.`
    pub goal: String,
    /// The mover's value.
    pub value: Outcome,
    /// The answer's name.
    pub answer: String,
    pub depth: u32,
    pub decoys: u32,
    pub difficulty: Difficulty,
    /// The grade's name.
    pub grade: &'static str,
    /// A hint: the hand to play with, or the kind of move.
    pub hint: String,
    /// Every legal move, best first, with its line.
    pub moves: Vec<PuzzleMove>,
}

/// The puzzle `puzzle` as shown to a player: its goal, its moves with their
/// values and lines, its hint. Lines are checked by `checker`.
pub fn view(
    solution: &Solution,
    puzzle: &Puzzle,
    position: &Position,
    checker: &mut Checker,
) -> Result<PuzzleView, LearnError> {
    let seated = SeatedPosition::new(solution.rules(), position.seat(), position.clone())?;
    view_seated(solution, puzzle, &seated, checker)
}

/// [`view`] of a position whose player to move is known (a puzzle opened by its
/// seated id, `2_1212`): shown with that player to move.
pub fn view_seated(
    solution: &Solution,
    puzzle: &Puzzle,
    seated: &SeatedPosition,
    checker: &mut Checker,
) -> Result<PuzzleView, LearnError> {
    let rules = solution.rules();
    let position = seated.position();
    checker.around(solution, position)?;
    let value = solution.outcome(position)?;
    let mut moves = solution.evaluate_moves(position)?;
    // In the rules' order (attacks, self-attacks, splits, pass), not best
    // first: the order of a list shown must not give the answer away.
    let order = position.moves(rules);
    moves.sort_by_key(|m| order.iter().position(|(o, _)| *o == m.mv));
    let answer = moves
        .iter()
        .find(|m| m.outcome.value == value.value)
        .ok_or_else(|| LearnError::NotAPuzzle {
            position: seated.to_text(rules).unwrap_or_default(),
            reason: "no move keeps the mover's value".into(),
        })?
        .clone();
    let mut shown = Vec::with_capacity(moves.len());
    for m in &moves {
        let to = seated.after(m.to.clone(), m.step);
        let is_answer = m.mv == answer.mv;
        shown.push(PuzzleMove {
            name: seated.move_name(rules, &m.mv),
            to: to.to_text(rules)?,
            value: m.outcome,
            answer: is_answer,
            decoy: !is_answer && looks_like(&m.mv, &answer.mv),
            line: optimal_line(solution, &to, checker)?,
        });
    }
    let player = format!("Player {}", seated.turn() + 1);
    let goal = match puzzle.kind {
        PuzzleKind::Win => format!("{player} to move and win."),
        PuzzleKind::Hold => format!("{player} to move: every move but one loses. Keep the draw."),
    };
    let hint = hint(
        &answer.mv,
        &moves.iter().map(|m| &m.mv).collect::<Vec<_>>(),
        seated,
    );
    Ok(PuzzleView {
        position: seated.to_text(rules)?,
        player: seated.turn() + 1,
        kind: puzzle.kind,
        goal,
        value,
        answer: seated.move_name(rules, &answer.mv),
        depth: puzzle.depth.into(),
        decoys: puzzle.decoys.into(),
        difficulty: puzzle.difficulty,
        grade: puzzle.difficulty.name(),
        hint,
        moves: shown,
    })
}

/// A hint towards `answer` among `moves`: the hand to play with when no other
/// move uses a hand of that value, else the hand to tap; for splits, their kind.
fn hint(answer: &Move, moves: &[&Move], seated: &SeatedPosition) -> String {
    let from_of = |m: &Move| match m {
        Move::Tap { from, .. } | Move::SelfTap { from, .. } => Some(*from),
        _ => None,
    };
    let shared = |from: u32| {
        moves
            .iter()
            .filter(|m| ***m != *answer && from_of(m) == Some(from))
            .count()
            > 0
    };
    match answer {
        Move::Tap { from, target, to } if shared(*from) => {
            if seated.position().players().len() == 2 {
                format!("Tap your opponent's hand of {to}.")
            } else {
                format!("Tap Player {}'s hand of {to}.", seated.seat_of(*target) + 1)
            }
        }
        Move::SelfTap { from, to } if shared(*from) => format!("Tap your own hand of {to}."),
        Move::Tap { from, .. } | Move::SelfTap { from, .. } => {
            format!("Play with your hand of {from}.")
        }
        Move::Split { kind, .. } => format!("Look at the {}s.", kind.name()),
        Move::Pass => "Look at the passes.".to_string(),
    }
}

/// The puzzle at `position` graded from its moves, or why it is not one
/// (for a link to a puzzle: no need for the whole set).
pub fn puzzle_at(solution: &Solution, position: &Position) -> Result<Puzzle, LearnError> {
    let seated = SeatedPosition::new(solution.rules(), position.seat(), position.clone())?;
    puzzle_at_seated(solution, &seated)
}

/// [`puzzle_at`] of a position whose player to move is known: a refusal names it
/// by its seated id.
pub fn puzzle_at_seated(
    solution: &Solution,
    seated: &SeatedPosition,
) -> Result<Puzzle, LearnError> {
    let rules = solution.rules();
    let position = seated.position();
    let text = seated.to_text(rules).unwrap_or_default();
    let not = |reason: String| LearnError::NotAPuzzle {
        position: text.clone(),
        reason,
    };
    if position.is_terminal(rules) {
        return Err(not("the game is over".into()));
    }
    let index = solution.rank(position);
    if let Some(p) = grade(solution, index, position)? {
        return Ok(p);
    }
    let value = solution.outcome(position)?;
    let moves = solution.evaluate_moves(position)?;
    let keeping = moves
        .iter()
        .filter(|m| m.outcome.value == value.value)
        .count();
    Err(not(match value.value {
        Value::Lose => format!("the player to move loses ({value}) whatever they do"),
        _ if moves.len() < 2 => "there is only one legal move".into(),
        Value::Win => format!("{keeping} of its {} moves win", moves.len()),
        Value::Draw => format!("{keeping} of its {} moves keep the draw", moves.len()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_follow_the_score() {
        assert_eq!(Difficulty::grade(1, 0), Difficulty(1));
        assert_eq!(Difficulty::grade(3, 0), Difficulty(2));
        assert_eq!(Difficulty::grade(1, 1), Difficulty(2));
        assert_eq!(Difficulty::grade(1, 3), Difficulty(3));
        assert_eq!(Difficulty::grade(11, 0), Difficulty(3));
        assert_eq!(Difficulty::grade(9, 2), Difficulty(4));
        assert_eq!(Difficulty::grade(23, 1), Difficulty(5));
        assert_eq!(Difficulty::parse("hard"), Some(Difficulty(4)));
        assert_eq!(Difficulty::parse("2"), Some(Difficulty(2)));
        assert_eq!(Difficulty::parse("6"), None);
        assert_eq!(Difficulty(3).name(), "medium");
    }

    #[test]
    fn the_generator_is_fixed() {
        let mut g = SplitMix64(0);
        // The first outputs of SplitMix64 from seed 0, as published with it.
        assert_eq!(g.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next(), 0x6E78_9E6A_A1B9_65F4);
    }
}
