//! Values that know the game so far: a position's value under the game's own
//! rules, its history and its repetition rule included.
//!
//! **The rule.** A game that comes back to a position (the same hands, the same
//! player to move) for the `k`-th time ends there, a draw ([`Repetitions`]:
//! `k = 3`, threefold repetition, by default; `Repetitions::Never` plays on for
//! ever, and then the values are the table's). The solved table knows nothing of
//! a game's history: its value of a position is the value of a game that starts
//! there. During a game the two can differ. A win that can only be forced
//! through a position already seen `k - 1` times is a draw, not a win; a loser
//! who can bring such a position up again draws.
//!
//! **The model.** Call *blocked* the positions seen `k - 1` times so far (the
//! current one included): entering one ends the game, a draw. Let `G_B` be the
//! table's game in which entering a blocked position is a draw and nothing else
//! changes. Then the value of the game in progress, for every player, is the
//! value of the current position in `G_B`, remoteness included, whatever the
//! counts of the positions seen fewer than `k - 1` times:
//!
//! - a side that wins in `G_B` wins the real game as fast: it plays the moves
//!   of `G_B`'s fastest win, along which the remoteness falls at every ply, so
//!   no position comes up twice on the way and no count but a blocked one's
//!   could reach `k`; the loser can enter no blocked position (every move of a
//!   lost position leads to a won one);
//! - a side that holds the draw in `G_B` holds it in the real game: the real
//!   game only adds endings by repetition, and they are draws;
//! - the real game's extra endings can only help the side that would lose, so
//!   the loser of `G_B` cannot delay the end further, nor the winner hurry it.
//!
//! `G_B` differs from the table only where a blocked position can be reached:
//! only wins and losses can change (to slower ones, or to draws), draws stay
//! draws. So the positions to solve again are the ones reachable from the
//! current position through positions the table does not call a draw; they are
//! solved by a retrograde analysis of their own (levels in order of
//! remoteness, the winner's fastest win and the loser's slowest loss, as the
//! table's solver does), every other position keeping its table value. For a
//! move, the position it leads to is counted once more first: a move that
//! brings a position up for the `k`-th time is a draw at once, and one that
//! brings it up for the `(k - 1)`-th time blocks it for the rest of the game.
//!
//! With three or more players the same holds for each player's coalition value
//! (that player alone against all the others, a two-sided game), and in team
//! play for each team's. The positions solved again are bounded
//! ([`DEFAULT_BOUND`]): beyond it the values are the table's and
//! [`GameValues::exact`] says they may not be.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use chopsticks_rules::{Move, Ruleset, SeatedPosition};
use chopsticks_solve::{Concept, Outcome, Solution, SolveError, Value};
use serde::Serialize;

use crate::LearnError;

/// The most positions a valuation solves again (over every side and move)
/// before it gives up and answers the table's values, marked not exact.
pub const DEFAULT_BOUND: usize = 2_000_000;

/// When a game is drawn by repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Repetitions {
    /// A position that comes up this many times (the same hands, the same
    /// player to move; at least 2) ends the game, a draw.
    Draw(u32),
    /// No draw by repetition: the game plays on for ever, and the values are
    /// the table's (a draw is a game that never ends).
    Never,
}

impl Default for Repetitions {
    fn default() -> Self {
        Repetitions::Draw(crate::record::REPETITIONS as u32)
    }
}

impl Repetitions {
    /// Reads `3` (any count of at least 2) or `none` (also `never`, `off`).
    pub fn parse(text: &str) -> Result<Repetitions, String> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "none" | "never" | "off" => Ok(Repetitions::Never),
            _ => match t.parse::<u32>() {
                Ok(k) if k >= 2 => Ok(Repetitions::Draw(k)),
                Ok(k) => Err(format!(
                    "a game is drawn when a position comes up at least twice; {k} is too few (2 or more, or `none`)"
                )),
                Err(_) => Err(format!(
                    "`{}` is not a number of repetitions (2 or more, such as 3, or `none`)",
                    chopsticks_rules::quoted(text)
                )),
            },
        }
    }

    /// The count at which a game is drawn, if any.
    pub fn limit(self) -> Option<usize> {
        match self {
            Repetitions::Draw(k) => Some(k as usize),
            Repetitions::Never => None,
        }
    }

    /// `3` or `none`, as [`Repetitions::parse`] reads it.
    pub fn word(self) -> String {
        match self {
            Repetitions::Draw(k) => k.to_string(),
            Repetitions::Never => "none".to_string(),
        }
    }
}

/// The positions of a game so far, oldest first, with how often each came up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    positions: Vec<SeatedPosition>,
    counts: HashMap<SeatedPosition, usize>,
    repetitions: Repetitions,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum GameEnd {
    /// Finished by the rules (a player, or a side, has no live hand).
    Finished,
    /// A draw by repetition: the position came up `times` times.
    Repetition { times: usize },
}

impl History {
    /// A game at `start`, nothing played yet.
    pub fn new(start: SeatedPosition, repetitions: Repetitions) -> History {
        History {
            counts: HashMap::from([(start.clone(), 1)]),
            positions: vec![start],
            repetitions,
        }
    }

    /// A game through these positions, oldest first (not checked to follow
    /// each other by moves: [`History::check_moves`] does); `None` for no
    /// position at all.
    pub fn from_positions(
        positions: Vec<SeatedPosition>,
        repetitions: Repetitions,
    ) -> Option<History> {
        let mut it = positions.into_iter();
        let mut h = History::new(it.next()?, repetitions);
        for p in it {
            h.push(p);
        }
        Some(h)
    }

    /// Checks that each position follows the one before it by a legal move,
    /// and that none follows the end of the game; the error names the ply.
    pub fn check_moves(&self, rules: &Ruleset) -> Result<(), LearnError> {
        let mut counts: HashMap<&SeatedPosition, usize> = HashMap::new();
        for (k, pair) in self.positions.windows(2).enumerate() {
            let (from, to) = (&pair[0], &pair[1]);
            *counts.entry(from).or_insert(0) += 1;
            let ply = k + 1;
            let here = from.to_text(rules)?;
            if from.position().is_terminal(rules) {
                return Err(LearnError::History(format!(
                    "position {} follows {here}, where the game is already over",
                    ply + 1
                )));
            }
            if let Some(limit) = self.repetitions.limit() {
                if counts[from] >= limit {
                    return Err(LearnError::History(format!(
                        "position {} follows {here}, where the game is already over: a draw by repetition",
                        ply + 1
                    )));
                }
            }
            let follows = from
                .position()
                .moves_with_steps(rules)
                .into_iter()
                .any(|(_, c, step)| from.after(c, step) == *to);
            if !follows {
                return Err(LearnError::History(format!(
                    "position {} ({}) does not follow {here} by a legal move",
                    ply + 1,
                    to.to_text(rules)?
                )));
            }
        }
        Ok(())
    }

    /// Appends the position a move led to.
    pub fn push(&mut self, position: SeatedPosition) {
        *self.counts.entry(position.clone()).or_insert(0) += 1;
        self.positions.push(position);
    }

    /// Takes the last position back (never the first).
    pub fn pop(&mut self) -> Option<SeatedPosition> {
        if self.positions.len() < 2 {
            return None;
        }
        let p = self.positions.pop()?;
        if let Some(c) = self.counts.get_mut(&p) {
            *c -= 1;
            if *c == 0 {
                self.counts.remove(&p);
            }
        }
        Some(p)
    }

    /// Keeps the first `len` positions (at least one).
    pub fn truncate(&mut self, len: usize) {
        while self.positions.len() > len.max(1) {
            self.pop();
        }
    }

    pub fn positions(&self) -> &[SeatedPosition] {
        &self.positions
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Never: a history holds at least its start.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn current(&self) -> &SeatedPosition {
        self.positions.last().expect("a history is never empty")
    }

    pub fn repetitions(&self) -> Repetitions {
        self.repetitions
    }

    /// How often `position` came up so far.
    pub fn times_seen(&self, position: &SeatedPosition) -> usize {
        self.counts.get(position).copied().unwrap_or(0)
    }

    /// How the game has ended at the current position, if it has.
    pub fn end(&self, rules: &Ruleset) -> Option<GameEnd> {
        let at = self.current();
        if at.position().is_terminal(rules) {
            return Some(GameEnd::Finished);
        }
        let times = self.times_seen(at);
        match self.repetitions.limit() {
            Some(limit) if times >= limit => Some(GameEnd::Repetition { times }),
            _ => None,
        }
    }

    /// The positions one more visit to which ends the game (seen `k - 1`
    /// times).
    fn blocked(&self) -> HashSet<SeatedPosition> {
        match self.repetitions.limit() {
            None => HashSet::new(),
            Some(limit) => self
                .counts
                .iter()
                .filter(|(_, &c)| c + 1 >= limit)
                .map(|(p, _)| p.clone())
                .collect(),
        }
    }
}

/// A move of a game in progress with its value under the game's rules.
#[derive(Clone, Debug)]
pub struct GameMove {
    /// The move's place in the rules' order (`Position::moves`), from 0.
    pub index: usize,
    pub mv: Move,
    /// The position it leads to.
    pub to: SeatedPosition,
    /// The mover's value of the move (counted from the position it is made in).
    pub outcome: Outcome,
    /// Every player's value of the move, Player 1 first.
    pub seats: Vec<Outcome>,
    /// The table's value of the move for the mover (the value of the position
    /// alone, without the game's history).
    pub table: Outcome,
    /// The move brings a position up for the last allowed time: the game ends
    /// there, a draw by repetition.
    pub repetition: bool,
}

/// The values of a game in progress.
#[derive(Clone, Debug)]
pub struct GameValues {
    /// How the game has ended, if it has (then there are no moves).
    pub end: Option<GameEnd>,
    /// Every player's value of the game, Player 1 first.
    pub seats: Vec<Outcome>,
    /// The table's values of the current position, Player 1 first.
    pub table: Vec<Outcome>,
    /// The moves, best first for the mover (fastest win, draws, slowest loss;
    /// equals in the rules' order).
    pub moves: Vec<GameMove>,
    /// Whether the values are exact: false when the positions to solve again
    /// passed the bound, and the table's values are given instead.
    pub exact: bool,
    /// The positions solved again (0 when the history changes nothing).
    pub solved_again: usize,
}

impl GameValues {
    /// The mover's value (Player `turn + 1`'s).
    pub fn mover(&self, turn: usize) -> Outcome {
        self.seats[turn]
    }

    /// Whether the history changes a value shown: the game's and the table's
    /// differ somewhere.
    pub fn differs_from_table(&self) -> bool {
        self.seats != self.table || self.moves.iter().any(|m| m.outcome != m.table)
    }
}

/// Every seat's table value at a seated position, Player 1 first.
fn table_seats(solution: &Solution, at: &SeatedPosition) -> Result<Vec<Outcome>, SolveError> {
    let p = solution.rules().players();
    let o = solution.seat_outcomes(at.position())?;
    Ok((0..p).map(|seat| o[(seat + p - at.turn()) % p]).collect())
}

/// Whether `seat` is out of the game at `at` with three or more players each
/// for themselves: no live hand left, a loss for it however the others play
/// on, even if their game then ends by repetition (docs/MULTIPLAYER.md).
fn out_of_game(solution: &Solution, at: &SeatedPosition, seat: usize) -> bool {
    solution.concept() == Concept::Coalition && at.hands_by_seat()[seat].iter().all(|&v| v == 0)
}

/// The sides whose values are solved: one seat per side (two players and team
/// play: Player 1's side and the other; coalitions: every seat).
fn sides(solution: &Solution) -> Vec<usize> {
    match solution.concept() {
        Concept::Coalition => (0..solution.rules().players()).collect(),
        _ => vec![0],
    }
}

/// The better of two outcomes for a side: for the side's own move the best
/// for it, for the other side's the worst.
fn choose(own: bool, a: Outcome, b: Outcome) -> Outcome {
    let a_first = a.preference(&b).is_le();
    if a_first == own {
        a
    } else {
        b
    }
}

/// The game `G_B` for one side: the positions to solve again and their values.
struct SideGame<'a> {
    solution: &'a Solution,
    rules: &'a Ruleset,
    /// The seat whose side's values these are.
    side: usize,
    blocked: &'a HashSet<SeatedPosition>,
    /// Values solved again; positions not here keep the table's.
    solved: HashMap<SeatedPosition, Outcome>,
}

/// A child in the side game: a position solved again, or a fixed value.
#[derive(Clone, Copy)]
enum Child {
    Node(usize),
    Fixed(Outcome),
}

impl<'a> SideGame<'a> {
    /// The side's table value at a position.
    fn table(&self, at: &SeatedPosition) -> Result<Outcome, SolveError> {
        let p = self.rules.players();
        self.solution.seat_outcome_at(
            self.solution.rank(at.position()),
            (self.side + p - at.turn()) % p,
        )
    }

    /// Whether the side's game is over at `at`: the game is, or (coalitions)
    /// the side's seat has no live hand left, which is a loss for it however
    /// the others play on.
    fn over(&self, at: &SeatedPosition) -> bool {
        at.position().is_terminal(self.rules) || out_of_game(self.solution, at, self.side)
    }

    /// The side's value of a position in `G_B` (entering a blocked position:
    /// a draw).
    fn value(&self, at: &SeatedPosition) -> Result<Outcome, SolveError> {
        if self.over(at) {
            return self.table(at);
        }
        if self.blocked.contains(at) {
            return Ok(Outcome::DRAW);
        }
        match self.solved.get(at) {
            Some(o) => Ok(*o),
            None => self.table(at),
        }
    }

    /// The side's value of `root` as the current position: the best of its
    /// moves for whoever moves there (a move into a blocked position is a
    /// draw, `root` itself included).
    fn root_value(&self, root: &SeatedPosition) -> Result<Outcome, SolveError> {
        if self.over(root) {
            return self.table(root);
        }
        let own = self.rules.same_side(root.turn(), self.side);
        let mut best: Option<Outcome> = None;
        for (_, c, step) in root.position().moves_with_steps(self.rules) {
            let v = self.value(&root.after(c, step))?.later();
            best = Some(best.map_or(v, |b| choose(own, b, v)));
        }
        Ok(best.expect("a position that is not finished has a move"))
    }

    /// Solves `G_B` again over every position reachable from `starts` through
    /// positions that are neither blocked, finished, nor drawn by the table.
    /// Returns false when more than `bound` positions would be solved.
    fn solve(
        &mut self,
        starts: &[SeatedPosition],
        bound: usize,
    ) -> Result<Option<usize>, SolveError> {
        // Nothing can change when no blocked position is a win or a loss.
        let mut relevant = false;
        for b in self.blocked {
            if !self.over(b) && self.table(b)?.value != Value::Draw {
                relevant = true;
                break;
            }
        }
        if !relevant {
            return Ok(Some(0));
        }
        let mut ids: HashMap<SeatedPosition, usize> = HashMap::new();
        let mut nodes: Vec<SeatedPosition> = Vec::new();
        let mut children: Vec<Vec<Child>> = Vec::new();
        let admit = |at: &SeatedPosition, me: &Self| -> Result<bool, SolveError> {
            Ok(!me.blocked.contains(at) && !me.over(at) && me.table(at)?.value != Value::Draw)
        };
        for s in starts {
            if !ids.contains_key(s) && admit(s, self)? {
                ids.insert(s.clone(), nodes.len());
                nodes.push(s.clone());
            }
        }
        let mut next = 0;
        while next < nodes.len() {
            if nodes.len() > bound {
                return Ok(None);
            }
            let at = nodes[next].clone();
            let mut list: Vec<Child> = Vec::new();
            let mut seen_here: HashSet<SeatedPosition> = HashSet::new();
            for (_, c, step) in at.position().moves_with_steps(self.rules) {
                let child = at.after(c, step);
                if !seen_here.insert(child.clone()) {
                    continue;
                }
                if let Some(&id) = ids.get(&child) {
                    list.push(Child::Node(id));
                } else if admit(&child, self)? {
                    ids.insert(child.clone(), nodes.len());
                    list.push(Child::Node(nodes.len()));
                    nodes.push(child);
                } else {
                    list.push(Child::Fixed(self.value(&child)?));
                }
            }
            children.push(list);
            next += 1;
        }
        // Retrograde analysis over the nodes, in order of remoteness: a
        // resolved child tells its parents, the fastest win first and the
        // slowest loss last.
        let n = nodes.len();
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut waiting: Vec<usize> = vec![0; n];
        let mut value: Vec<Option<Outcome>> = vec![None; n];
        let own: Vec<bool> = nodes
            .iter()
            .map(|p| self.rules.same_side(p.turn(), self.side))
            .collect();
        // Events: (remoteness of the child, sequence, parent, whether the child
        // is a win for the side).
        let mut heap: BinaryHeap<Reverse<(u32, usize, usize, bool)>> = BinaryHeap::new();
        let mut seq = 0usize;
        for (id, list) in children.iter().enumerate() {
            waiting[id] = list.len();
            for c in list {
                match *c {
                    Child::Node(child) => parents[child].push(id),
                    Child::Fixed(o) => {
                        if let (Value::Win | Value::Lose, Some(r)) = (o.value, o.remoteness) {
                            heap.push(Reverse((r, seq, id, o.value == Value::Win)));
                            seq += 1;
                        } else if o.value != Value::Draw {
                            return Err(SolveError::NoRemoteness);
                        }
                    }
                }
            }
        }
        while let Some(Reverse((r, _, id, win))) = heap.pop() {
            let v = if win { Value::Win } else { Value::Lose };
            if value[id].is_some() {
                continue;
            }
            // `v` is the side's value of a child: good for the mover when it is
            // a win for the side on the side's move, a loss on the other's.
            let good = (v == Value::Win) == own[id];
            let resolved = if good {
                Some(Outcome {
                    value: v,
                    remoteness: Some(r + 1),
                })
            } else {
                waiting[id] -= 1;
                (waiting[id] == 0).then_some(Outcome {
                    value: v,
                    remoteness: Some(r + 1),
                })
            };
            if let Some(o) = resolved {
                value[id] = Some(o);
                for &p in &parents[id] {
                    heap.push(Reverse((r + 1, seq, p, o.value == Value::Win)));
                    seq += 1;
                }
            }
        }
        for (id, at) in nodes.into_iter().enumerate() {
            self.solved.insert(at, value[id].unwrap_or(Outcome::DRAW));
        }
        Ok(Some(n))
    }
}

/// What is left of a bound shared by many valuations (a review's every move
/// and line, a line's every ply), and whether every one of them was exact.
/// Once it runs out, the valuations answer the table's values at once, marked
/// not exact: a long record or line costs at most the bound's work in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// Positions that may still be solved again.
    pub left: usize,
    /// No valuation so far gave up.
    pub exact: bool,
}

impl Work {
    /// A budget of `bound` positions solved again in all.
    pub fn new(bound: usize) -> Work {
        Work {
            left: bound,
            exact: true,
        }
    }

    /// [`evaluate`] within what is left, which it then uses up: by the
    /// positions it solved again, or all of it when it gave up.
    pub fn evaluate(
        &mut self,
        solution: &Solution,
        history: &History,
    ) -> Result<GameValues, LearnError> {
        let values = evaluate(solution, history, self.left)?;
        if values.exact {
            self.left = self.left.saturating_sub(values.solved_again);
        } else {
            self.left = 0;
            self.exact = false;
        }
        Ok(values)
    }
}

/// The values of the game `history` under `solution`'s table and the
/// history's repetition rule (see the module documentation), solving again
/// at most `bound` positions.
pub fn evaluate(
    solution: &Solution,
    history: &History,
    bound: usize,
) -> Result<GameValues, LearnError> {
    let rules = solution.rules();
    let at = history.current();
    let players = rules.players();
    let table = table_seats(solution, at)?;
    let end = history.end(rules);
    if let Some(end) = end {
        let seats = match end {
            GameEnd::Finished => table.clone(),
            // A draw, except for the players already out of the game.
            GameEnd::Repetition { .. } => (0..players)
                .map(|seat| {
                    if out_of_game(solution, at, seat) {
                        table[seat]
                    } else {
                        Outcome::DRAW
                    }
                })
                .collect(),
        };
        return Ok(GameValues {
            end: Some(end),
            seats,
            table,
            moves: Vec::new(),
            exact: true,
            solved_again: 0,
        });
    }
    let limit = history.repetitions().limit();
    let blocked = history.blocked();
    let moves = at.position().moves_with_steps(rules);
    let children: Vec<(Move, SeatedPosition)> = moves
        .into_iter()
        .map(|(mv, c, step)| (mv, at.after(c, step)))
        .collect();
    // Per child: a draw at once, a game with the same blocked positions, or
    // one where the child is blocked too.
    let times = |c: &SeatedPosition| history.times_seen(c) + 1;
    let drawn_at_once = |c: &SeatedPosition| limit.is_some_and(|k| times(c) >= k);
    let blocks_itself = |c: &SeatedPosition| limit.is_some_and(|k| times(c) + 1 == k);
    let mut exact = true;
    let mut solved_again = 0usize;
    // child index -> every seat's value of the position it leads to.
    let mut child_values: Vec<Vec<Outcome>> = vec![vec![Outcome::DRAW; players]; children.len()];
    for side in sides(solution) {
        let mut game = SideGame {
            solution,
            rules,
            side,
            blocked: &blocked,
            solved: HashMap::new(),
        };
        let same: Vec<SeatedPosition> = children
            .iter()
            .filter(|(_, c)| !drawn_at_once(c) && !blocks_itself(c))
            .map(|(_, c)| c.clone())
            .collect();
        let mut side_values: Vec<Option<Outcome>> = vec![None; children.len()];
        match game.solve(&same, bound.saturating_sub(solved_again))? {
            Some(n) => solved_again += n,
            None => exact = false,
        }
        if exact {
            for (k, (_, c)) in children.iter().enumerate() {
                if drawn_at_once(c) {
                    // A draw, except for a player the move put out of the game.
                    side_values[k] = Some(if game.over(c) {
                        game.table(c)?
                    } else {
                        Outcome::DRAW
                    });
                } else if !blocks_itself(c) {
                    side_values[k] = Some(game.value(c)?);
                }
            }
            // A child seen `k - 2` times: blocked once it is reached again.
            for (k, (_, c)) in children.iter().enumerate() {
                if side_values[k].is_some() || !exact {
                    continue;
                }
                let mut with_child = blocked.clone();
                with_child.insert(c.clone());
                let mut own = SideGame {
                    solution,
                    rules,
                    side,
                    blocked: &with_child,
                    solved: HashMap::new(),
                };
                let grandchildren: Vec<SeatedPosition> = c
                    .position()
                    .moves_with_steps(rules)
                    .into_iter()
                    .map(|(_, g, step)| c.after(g, step))
                    .collect();
                match own.solve(&grandchildren, bound.saturating_sub(solved_again))? {
                    Some(n) => {
                        solved_again += n;
                        side_values[k] = Some(own.root_value(c)?);
                    }
                    None => exact = false,
                }
            }
        }
        if !exact {
            break;
        }
        for (row, v) in child_values.iter_mut().zip(side_values) {
            let v = v.expect("every child valued");
            for (seat, slot) in row.iter_mut().enumerate() {
                if seat == side || (solution.concept() != Concept::Coalition) {
                    *slot = if rules.same_side(seat, side) {
                        v
                    } else {
                        v.flipped()
                    };
                }
            }
        }
    }
    let mut list: Vec<GameMove> = Vec::with_capacity(children.len());
    for (k, (mv, c)) in children.into_iter().enumerate() {
        let table_child = table_seats(solution, &c)?;
        let seats: Vec<Outcome> = if exact {
            child_values[k].iter().map(|o| o.later()).collect()
        } else {
            table_child.iter().map(|o| o.later()).collect()
        };
        list.push(GameMove {
            index: k,
            outcome: seats[at.turn()],
            table: table_child[at.turn()].later(),
            repetition: drawn_at_once(&c),
            seats,
            mv,
            to: c,
        });
    }
    list.sort_by(|a, b| a.outcome.preference(&b.outcome));
    // Every seat's value: the mover's side takes its best move; a seat of
    // another side gets what the mover's best move for that seat... which is
    // the seat's value of the game: for sides of two, the flip of the
    // mover's; for coalitions, the value the seat's own game gives.
    let seats: Vec<Outcome> = (0..players)
        .map(|seat| {
            // A seat out of the game has lost, however the others play on.
            if out_of_game(solution, at, seat) {
                return table[seat];
            }
            let own = rules.same_side(at.turn(), seat);
            list.iter()
                .map(|m| m.seats[seat])
                .reduce(|a, b| choose(own, a, b))
                .expect("a position that is not finished has a move")
        })
        .collect();
    Ok(GameValues {
        end: None,
        seats,
        table,
        moves: list,
        exact,
        solved_again,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solved;

    fn game(rules: &Ruleset, ids: &[&str], repetitions: Repetitions) -> History {
        let positions = ids
            .iter()
            .map(|t| SeatedPosition::parse(t, rules).unwrap())
            .collect();
        let h = History::from_positions(positions, repetitions).unwrap();
        h.check_moves(rules).unwrap();
        h
    }

    /// The game: `s11 s31 s03 12 s31`, the computer answering; at
    /// 1_0311 for the second time the table's only winning move brings 2_1211
    /// up a third time.
    const GAME: [&str; 10] = [
        "1_1111", "2_1211", "1_1311", "2_3411", "1_0311", "2_1211", "1_1311", "2_3411", "1_0311",
        "2_1211",
    ];

    #[test]
    fn a_win_through_a_position_seen_too_often_is_a_draw() {
        let s = solved("standard");
        let rules = s.rules().clone();
        let h = game(&rules, &GAME[..9], Repetitions::default());
        let v = evaluate(&s, &h, DEFAULT_BOUND).unwrap();
        assert!(v.exact);
        assert_eq!(v.table[0], Outcome::win(23));
        // The table's win is a draw: the split repeats, the tap loses.
        assert_eq!(v.seats[0], Outcome::DRAW);
        assert_eq!(v.seats[1], Outcome::DRAW);
        let split = &v.moves[0];
        assert!(split.repetition);
        assert_eq!(split.outcome, Outcome::DRAW);
        assert_eq!(split.table, Outcome::win(23));
        assert_eq!(v.moves[1].outcome, Outcome::lose(2));
        // Played, the game is over.
        let h = game(&rules, &GAME, Repetitions::default());
        let v = evaluate(&s, &h, DEFAULT_BOUND).unwrap();
        assert_eq!(v.end, Some(GameEnd::Repetition { times: 3 }));
        assert!(v.moves.is_empty());
        // Without the repetition rule the values are the table's.
        let h = game(&rules, &GAME, Repetitions::Never);
        let v = evaluate(&s, &h, DEFAULT_BOUND).unwrap();
        assert_eq!(v.end, None);
        assert!(!v.differs_from_table());
        assert_eq!(v.solved_again, 0);
        // At a fresh start nothing is solved again.
        let h = History::new(SeatedPosition::start(&rules), Repetitions::default());
        let v = evaluate(&s, &h, DEFAULT_BOUND).unwrap();
        assert_eq!(v.seats[0], Outcome::win(23));
        assert_eq!(v.solved_again, 0);
    }

    #[test]
    fn a_bound_reached_says_so() {
        let s = solved("standard");
        let rules = s.rules().clone();
        let h = game(&rules, &GAME[..7], Repetitions::default());
        let exact = evaluate(&s, &h, DEFAULT_BOUND).unwrap();
        assert!(exact.exact && exact.solved_again > 0);
        let cut = evaluate(&s, &h, 1).unwrap();
        assert!(!cut.exact);
        assert_eq!(cut.seats, cut.table);
    }

    #[test]
    fn histories_are_checked_and_repetitions_read() {
        let rules = Ruleset::from_variant_id("standard").unwrap();
        let bad = History::from_positions(
            vec![
                SeatedPosition::parse("1_1111", &rules).unwrap(),
                SeatedPosition::parse("1_1311", &rules).unwrap(),
            ],
            Repetitions::default(),
        )
        .unwrap();
        let e = bad.check_moves(&rules).unwrap_err().to_string();
        assert_eq!(
            e,
            "the game's history: position 2 (1_1311) does not follow 1_1111 by a legal move"
        );
        assert_eq!(Repetitions::parse("3"), Ok(Repetitions::Draw(3)));
        assert_eq!(Repetitions::parse("none"), Ok(Repetitions::Never));
        assert!(Repetitions::parse("1").is_err());
        assert!(Repetitions::parse("x\u{1b}")
            .unwrap_err()
            .contains("\\u{1b}"));
    }
}
