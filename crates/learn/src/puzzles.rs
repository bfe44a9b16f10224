//! Puzzles: positions where few moves do the job, played to the end.
//!
//! A position reachable from the variant's start is a puzzle when the player
//! to move has at least two legal moves and
//!
//! - **win**: the mover can force a win, and at most half of the legal moves
//!   keep the forced win (every other move draws or loses); or
//! - **hold**: the mover can force a draw but not a win, and at most half of
//!   the legal moves keep the draw (every other move loses).
//!
//! Every move that keeps the value is accepted (usually there is one); the
//! puzzle then goes on, the solver replying, until its goal is reached (see
//! [`crate::playout`]: a win to the end of the game, a hold until the draw is
//! safe).
//!
//! **Difficulty.** A puzzle is hard when its moves are hard to find. Its
//! *score* adds, over the player's steps of its solution (the expected moves,
//! the solver replying):
//!
//! - for each step with a choice, the bits of a guess: the smallest `k` with
//!   `good · 2^k ≥ moves` (1 for one good move of two, 3 for one of seven, 0
//!   when every move is good);
//! - one for each **decoy**: a move that is not accepted and looks the same as
//!   the expected one (a tap onto the same hand of the same player, a self-tap
//!   onto the same hand, a split of the same kind);
//! - one for each move that **fails late**: a wrong move whose loss comes only
//!   after [`LATE_PLIES`] plies or more, or that only draws a won game (its
//!   refutation is far to see);
//! - one for each move that **looks natural and loses**: a wrong tap that
//!   takes a hand off the board.
//!
//! The grade, 1 to 5, comes from the score: 1 up to 2, 2 up to 5, 3 up to 10,
//! 4 up to 20, 5 beyond. The puzzle's rating, for the player's rating
//! ([`crate::rating`]), is `1000 + 300 × log2(1 + score)`, rounded. [`PuzzleView::why`] explains
//! the score in words. The *depth* shown beside it is, for a win, its
//! remoteness (plies to the end of the game); for a hold, the largest
//! remoteness among the losing moves.
//!
//! **Choosing.** [`PuzzleSet::find`] finds every puzzle (in parallel over the
//! reachable positions, first by the table alone, then the few candidates by
//! their moves and their solutions). [`PuzzleSet::choose`] picks some, filtered
//! by kind and grade, by a pseudo-random order fixed by a seed: the same seed
//! and the same variant give the same puzzles on every machine.

use chopsticks_rules::{Move, Position, SeatedPosition};
use chopsticks_solve::{Outcome, Solution, SolveError, Value};
use chopsticks_space::{explore, BitSet, Graph, TileMap};
use rayon::prelude::*;
use serde::Serialize;

use crate::line::{optimal_line, Line};
use crate::playout::{PuzzleGame, PuzzleSolution, StepPly, Verdict};
use crate::{Checker, LearnError};

/// A wrong move whose loss comes this many plies after it, or later, fails
/// late (see the module documentation).
pub const LATE_PLIES: u32 = 6;

/// The most good moves a puzzle's first step has counted in the table's first
/// pass (a superset of what at most half of the moves allows, with early exit).
const MAX_GOOD: u32 = 3;

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

    /// The grade of a puzzle of this score (see the module documentation).
    pub fn grade(score: u32) -> Difficulty {
        Difficulty(match score {
            0..=2 => 1,
            3..=5 => 2,
            6..=10 => 3,
            11..=20 => 4,
            _ => 5,
        })
    }

    /// A puzzle's rating from its score, beside the player's:
    /// `1000 + 300 · log2(1 + score)`, rounded (each doubling of the score
    /// adds 300 points).
    pub fn rating(score: u32) -> u32 {
        (1000.0 + 300.0 * f64::from(score + 1).log2()).round() as u32
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

/// A puzzle as stored: its position and its grading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position's index in the ruleset's dense index.
    pub index: u64,
    /// Depth in plies (see the module documentation), at most 65,535.
    pub depth: u16,
    /// Legal moves at the first step (at most 255 counted).
    pub moves: u8,
    /// Moves accepted at the first step.
    pub good: u8,
    /// The player's steps with a choice, in the solution.
    pub steps: u8,
    /// Decoys, late failures and natural-looking losing moves, over the steps.
    pub decoys: u8,
    pub late: u8,
    pub natural: u8,
    /// The score the grade comes from.
    pub score: u16,
    pub kind: PuzzleKind,
    pub difficulty: Difficulty,
}

impl Puzzle {
    /// The puzzle's rating (see [`Difficulty::rating`]).
    pub fn rating(&self) -> u32 {
        Difficulty::rating(self.score.into())
    }
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
/// one more than [`MAX_GOOD`]: past that the position is no puzzle and the
/// table is not read.
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
        if self.keeping > MAX_GOOD {
            return;
        }
        match mover_value_after(solution, players, child, step) {
            Ok(v) => self.keeping += u32::from(v == self.value),
            Err(e) => self.failed = Some(e),
        }
    }

    /// A candidate: some child keeps the value, some does not, and few keep it
    /// (two moves to the same child may be counted once: the moves decide).
    fn into_verdict(self) -> Result<bool, SolveError> {
        match self.failed {
            Some(e) => Err(e),
            None => {
                Ok(self.keeping >= 1 && self.keeping <= MAX_GOOD && self.keeping < self.children)
            }
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

/// What makes a move of a solution's step hard to tell from the right one.
#[derive(Clone, Debug)]
pub(crate) enum Trap {
    /// Not accepted, and looks like the expected move.
    Decoy,
    /// Wrong, and its loss comes late (or it only draws a win): this value.
    Late(Outcome),
    /// A wrong tap that takes a hand.
    Natural,
}

/// One move that makes a step hard: at the player's `step`-th move (1 first).
#[derive(Clone, Debug)]
pub(crate) struct Reason {
    pub step: usize,
    pub from: SeatedPosition,
    pub mv: Move,
    pub trap: Trap,
}

/// A puzzle's solution weighed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Assessment {
    pub score: u32,
    /// Steps with a choice: (the player's move number, good, moves) each.
    pub steps: Vec<(usize, usize, usize)>,
    pub decoys: u32,
    pub late: u32,
    pub natural: u32,
    pub reasons: Vec<Reason>,
}

/// Whether a tap takes a hand: the board has more empty hands after it.
fn takes_a_hand(from: &SeatedPosition, m: &chopsticks_solve::EvaluatedMove) -> bool {
    let empty = |p: &Position| p.players().iter().flatten().filter(|&&h| h == 0).count();
    matches!(m.mv, Move::Tap { .. }) && empty(&m.to) > empty(from.position())
}

/// Weighs the player's steps of a solution.
pub(crate) fn assess(kind: PuzzleKind, plies: &[StepPly]) -> Assessment {
    let mut a = Assessment::default();
    let mut step = 0;
    for (ply, choice) in plies {
        let Some(c) = choice else { continue };
        step += 1;
        let (good, n) = (c.right(), c.moves.len());
        if good == n {
            continue;
        }
        a.steps.push((step, good, n));
        let mut bits = 0;
        while good << bits < n {
            bits += 1;
        }
        a.score += bits;
        let expected = &c.moves[c.expected].mv;
        let mut note = |trap: Trap, mv: &Move| {
            a.reasons.push(Reason {
                step,
                from: ply.from.clone(),
                mv: mv.clone(),
                trap,
            })
        };
        for (m, v) in c.moves.iter().zip(&c.verdicts) {
            if *v == Verdict::Right {
                continue;
            }
            if looks_like(&m.mv, expected) {
                note(Trap::Decoy, &m.mv);
            }
            if *v != Verdict::Wrong {
                continue;
            }
            let late = match m.outcome.value {
                Value::Draw => kind == PuzzleKind::Win,
                Value::Lose => m.outcome.remoteness.unwrap_or(0) >= LATE_PLIES,
                Value::Win => false,
            };
            // Far refutations count at the key move: later, the player has
            // seen the line unfold.
            if late && step == 1 {
                note(Trap::Late(m.outcome), &m.mv);
            }
            if takes_a_hand(&ply.from, m) {
                note(Trap::Natural, &m.mv);
            }
        }
    }
    for r in &a.reasons {
        match r.trap {
            Trap::Decoy => a.decoys += 1,
            Trap::Late(_) => a.late += 1,
            Trap::Natural => a.natural += 1,
        }
    }
    a.score += a.decoys + a.late + a.natural;
    a
}

/// The graded puzzle at `position`, or `None` when it is not one; from its
/// moves and its solution.
fn grade(
    solution: &Solution,
    index: u64,
    position: &Position,
) -> Result<Option<Puzzle>, LearnError> {
    let value = solution.outcome_at(index)?;
    let kind = match value.value {
        Value::Win => PuzzleKind::Win,
        Value::Draw => PuzzleKind::Hold,
        Value::Lose => return Ok(None),
    };
    let moves = solution.evaluate_moves(position)?;
    let good = moves
        .iter()
        .filter(|m| m.outcome.value == value.value)
        .count();
    if moves.len() < 2 || good == 0 || 2 * good > moves.len() {
        return Ok(None);
    }
    let depth = match kind {
        PuzzleKind::Win => value.remoteness.unwrap_or(0),
        PuzzleKind::Hold => moves
            .iter()
            .filter_map(|m| m.outcome.remoteness)
            .max()
            .unwrap_or(0),
    };
    let seated = SeatedPosition::new(solution.rules(), position.seat(), position.clone())?;
    let game = PuzzleGame::new(solution, kind, seated)?;
    let (plies, _) = game.play_out(solution)?;
    let a = assess(kind, &plies);
    let small = |n: u32| n.min(255) as u8;
    Ok(Some(Puzzle {
        index,
        depth: depth.min(u16::MAX as u32) as u16,
        moves: small(moves.len() as u32),
        good: small(good as u32),
        steps: small(a.steps.len() as u32),
        decoys: small(a.decoys),
        late: small(a.late),
        natural: small(a.natural),
        score: a.score.min(u16::MAX as u32) as u16,
        kind,
        difficulty: Difficulty::grade(a.score),
    }))
}

/// The most bytes per position of the variant that [`PuzzleSet::find`] was
/// measured to take at its peak (the reachable set, the candidates, the
/// puzzles), with a margin: 8 bytes were the most measured (docs/RELIABILITY.md),
/// so 24 are assumed.
pub const FIND_BYTES_PER_POSITION: u64 = 24;

/// The memory [`PuzzleSet::find`] is estimated to take at its peak for a variant
/// of `count` positions, before anything is built.
pub fn find_memory(count: u64) -> u64 {
    count.saturating_mul(FIND_BYTES_PER_POSITION) + (1 << 20)
}

impl PuzzleSet {
    /// The bytes this set keeps on the heap.
    pub fn heap_bytes(&self) -> u64 {
        (self.puzzles.capacity() * std::mem::size_of::<Puzzle>()) as u64
    }

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
        // First pass, from the table alone: positions with a child keeping the
        // mover's value, one not, and at most `MAX_GOOD` keeping it. Two-player
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
        // Second pass, by the candidates' moves: at most half of the moves (not
        // only of the children) keep the value; the solution and the grade.
        let mut puzzles: Vec<Puzzle> = candidates
            .par_iter()
            .with_min_len(64)
            .map(|&i| grade(solution, i, &graph.position(i)))
            .filter_map(|r| r.transpose())
            .collect::<Result<Vec<_>, LearnError>>()?;
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
    /// Whether it is accepted (keeps the mover's value).
    pub answer: bool,
    /// Whether it is a decoy (looks like the expected move, fails).
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
    /// What to do: `Player 1 to move and win. Play it out to the end of the
    /// game.`
    pub goal: String,
    /// The mover's value.
    pub value: Outcome,
    /// The expected first move's name.
    pub answer: String,
    /// Every move accepted at the first step, the expected one first.
    pub accepted: Vec<String>,
    pub depth: u32,
    /// The player's steps with a choice in the solution.
    pub steps: u32,
    pub decoys: u32,
    /// Wrong moves whose loss comes late (or that only draw a win).
    pub late: u32,
    /// Wrong taps that take a hand.
    pub natural: u32,
    /// The score the grade comes from.
    pub score: u32,
    pub difficulty: Difficulty,
    /// The grade's name.
    pub grade: &'static str,
    /// The puzzle's rating, beside the player's.
    pub rating: u32,
    /// Why the puzzle is as hard as its grade says, a sentence each.
    pub why: Vec<String>,
    /// A hint: the hand to play with, or the kind of move.
    pub hint: String,
    /// Every legal move of the first step, in the rules' order, with its line.
    pub moves: Vec<PuzzleMove>,
    /// The moves expected and the replies, in order, to the puzzle's end.
    pub solution: PuzzleSolution,
}

/// The puzzle `puzzle` as shown to a player: its goal, its moves with their
/// values and lines, its hint, its solution. Lines are checked by `checker`.
pub fn view(
    solution: &Solution,
    puzzle: &Puzzle,
    position: &Position,
    checker: &mut Checker,
) -> Result<PuzzleView, LearnError> {
    let seated = SeatedPosition::new(solution.rules(), position.seat(), position.clone())?;
    view_seated(solution, puzzle, &seated, checker)
}

/// Counted: `1 move`, `3 moves`.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The sentences that explain a puzzle's score.
fn explain(
    rules: &chopsticks_rules::Ruleset,
    kind: PuzzleKind,
    a: &Assessment,
    difficulty: Difficulty,
) -> Vec<String> {
    let verb = match kind {
        PuzzleKind::Win => "win",
        PuzzleKind::Hold => "keep the draw",
    };
    let mut why = Vec::new();
    let steps: Vec<String> = a
        .steps
        .iter()
        .map(|(step, good, n)| format!("at move {step}, {good} of {n}"))
        .collect();
    why.push(match steps.len() {
        0 => "No move to find.".to_string(),
        1 => format!(
            "One move to find: {} of its {} moves {verb}.",
            a.steps[0].1, a.steps[0].2
        ),
        k => format!(
            "{k} moves to find, where few moves {verb} ({}).",
            steps.join("; ")
        ),
    });
    const SHOWN: usize = 6;
    for r in a.reasons.iter().take(SHOWN) {
        let name = r.from.move_name(rules, &r.mv);
        why.push(match r.trap {
            Trap::Decoy => format!(
                "At move {}, {name} looks like the right move and is not.",
                r.step
            ),
            Trap::Late(o) if o.value == Value::Draw => {
                format!(
                    "At move {}, {name} only draws, which is hard to see.",
                    r.step
                )
            }
            Trap::Late(o) => format!(
                "At move {}, {name} loses only after {} plies.",
                r.step,
                o.remoteness.unwrap_or(0)
            ),
            Trap::Natural => format!("At move {}, {name} takes a hand, and loses.", r.step),
        });
    }
    if a.reasons.len() > SHOWN {
        why.push(format!(
            "And {} more such.",
            counted(a.reasons.len() - SHOWN, "move")
        ));
    }
    why.push(format!(
        "Score {}: grade {} ({}), rated {}.",
        a.score,
        difficulty.0,
        difficulty.name(),
        Difficulty::rating(a.score)
    ));
    why
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
    let game = PuzzleGame::new(solution, puzzle.kind, seated.clone())?;
    let not_one = || LearnError::NotAPuzzle {
        position: seated.to_text(rules).unwrap_or_default(),
        reason: "no move keeps the mover's value".into(),
    };
    // In the rules' order (attacks, self-attacks, splits, pass), not best
    // first: the order of a list shown must not give the answer away.
    let choice = game.choice().ok_or_else(not_one)?.clone();
    let (plies, end) = game.play_out(solution)?;
    let a = assess(puzzle.kind, &plies);
    let expected = choice.moves[choice.expected].clone();
    let mut shown = Vec::with_capacity(choice.moves.len());
    let mut accepted = vec![seated.move_name(rules, &expected.mv)];
    for (m, v) in choice.moves.iter().zip(&choice.verdicts) {
        let to = seated.after(m.to.clone(), m.step);
        let right = *v == Verdict::Right;
        if right && m.mv != expected.mv {
            accepted.push(seated.move_name(rules, &m.mv));
        }
        shown.push(PuzzleMove {
            name: seated.move_name(rules, &m.mv),
            to: to.to_text(rules)?,
            value: m.outcome,
            answer: right,
            decoy: !right && looks_like(&m.mv, &expected.mv),
            line: optimal_line(solution, &to, checker)?,
        });
    }
    let player = format!("Player {}", seated.turn() + 1);
    let n = choice.moves.len();
    let good = accepted.len();
    let goal = match (puzzle.kind, good) {
        (PuzzleKind::Win, 1) => format!("{player} to move and win. Play it out to the end of the game."),
        (PuzzleKind::Win, _) => format!(
            "{player} to move and win: {good} of the {n} moves win, any of them is accepted. Play it out to the end of the game."
        ),
        (PuzzleKind::Hold, 1) => format!(
            "{player} to move: every move but one loses. Keep the draw until it is safe."
        ),
        (PuzzleKind::Hold, _) => format!(
            "{player} to move: {} of the {n} moves lose. Keep the draw until it is safe.",
            n - good
        ),
    };
    let hint = hint(
        &expected.mv,
        &choice.moves.iter().map(|m| &m.mv).collect::<Vec<_>>(),
        seated,
    );
    Ok(PuzzleView {
        position: seated.to_text(rules)?,
        player: seated.turn() + 1,
        kind: puzzle.kind,
        goal,
        value,
        answer: seated.move_name(rules, &expected.mv),
        accepted,
        depth: puzzle.depth.into(),
        steps: a.steps.len() as u32,
        decoys: a.decoys,
        late: a.late,
        natural: a.natural,
        score: a.score,
        difficulty: Difficulty::grade(a.score),
        grade: Difficulty::grade(a.score).name(),
        rating: Difficulty::rating(a.score),
        why: explain(rules, puzzle.kind, &a, Difficulty::grade(a.score)),
        hint,
        moves: shown,
        solution: PuzzleSolution::named(rules, &plies, end)?,
    })
}

/// A hint towards the expected move of a puzzle's step now (as
/// [`PuzzleView::hint`] is for its first), or `None` when it is over.
pub fn step_hint(game: &PuzzleGame) -> Option<String> {
    let c = game.choice()?;
    Some(hint(
        &c.moves[c.expected].mv,
        &c.moves.iter().map(|m| &m.mv).collect::<Vec<_>>(),
        game.position(),
    ))
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
    let n = moves.len();
    Err(not(match value.value {
        Value::Lose => format!("the player to move loses ({value}) whatever they do"),
        _ if n < 2 => "there is only one legal move".into(),
        Value::Win => {
            format!("{keeping} of its {n} moves win: a puzzle has at most half of its moves good")
        }
        Value::Draw => format!(
            "{keeping} of its {n} moves keep the draw: a puzzle has at most half of its moves good"
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_follow_the_score() {
        let grades: Vec<u8> = [0, 2, 3, 5, 6, 10, 11, 20, 21, 50]
            .iter()
            .map(|&s| Difficulty::grade(s).0)
            .collect();
        assert_eq!(grades, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        assert_eq!(Difficulty::rating(0), 1000);
        assert_eq!(Difficulty::rating(1), 1300);
        assert_eq!(Difficulty::rating(7), 1900);
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
