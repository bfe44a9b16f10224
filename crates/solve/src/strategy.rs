//! Strategies a person can follow, extracted from a solution and checked.
//!
//! **Winning strategy.** When one seat can force a win from the start (with two
//! players or in team play: one side; with three or more players otherwise: one
//! seat against a coalition of all the others, docs/MULTIPLAYER.md), the strategy is
//! a list of *configurations*: positions to reach after each of your moves, in order
//! of preference. The rule is Wikipedia's: after each of your moves, reach the first
//! configuration of the list that you can reach (in team play both partners follow
//! the same list). The list is built from the policy "take the fastest win; among
//! equally fast ones, the smallest node", applied at every position the winner can
//! face against any defence; sorting the chosen configurations by (remoteness, node)
//! makes "the first reachable one" exactly that policy's choice, so the list is
//! complete.
//!
//! A node is a position with the seat played for ([`Seated`]): seats are counted in
//! each position's own turn order, so the seat moves round with every move.
//!
//! [`verify`] then replays the list against every defence without looking at the
//! solution: at every position the winner faces some configuration of the list must
//! be reachable, and the game graph so followed must have no cycle and end only in
//! the winner's victories (as the rules, not the solution, judge them).
//!
//! **When nobody can force a win.** [`traps`] lists the positions to avoid: for
//! every position reachable from the start that is a draw for its mover, the moves
//! that lose for that mover. Making one of them loses.

use std::collections::{HashMap, HashSet};

use chopsticks_space::Graph;

use crate::multi::{Concept, States};
use crate::{Solution, SolveError, Value};

/// A position together with the seat a strategy plays for, counted in the
/// position's turn order (0 = the player to move). Seats move round after every
/// move, so the same position is a different node for different seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seated {
    pub index: u64,
    pub seat: usize,
}

/// `first`, `second`, … : the name of a seat counted from the start's first player.
pub fn seat_name(seat: usize) -> String {
    const NAMES: [&str; 8] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ];
    NAMES
        .get(seat)
        .map_or_else(|| format!("{}th", seat + 1), |n| n.to_string())
}

/// A complete winning strategy as an ordered list of configurations.
#[derive(Clone, Debug)]
pub struct Strategy {
    /// The seat at the start (0 = the first player) the strategy wins for; in team
    /// play, for that seat's whole team (partners follow the same list).
    pub seat: usize,
    /// Positions to reach after each of the winner's moves, best first, each with
    /// the seat of the player who just moved. Finished games come first.
    pub configurations: Vec<Seated>,
    /// The positions the winner faces when following the list, for the record.
    pub decisions: u64,
}

/// The game seen from one seat: whose turn it is, what the rules and the solution
/// say about it, and where moves lead, the seat following the position round.
struct View<'a> {
    graph: &'a Graph,
    states: States<'a>,
    players: usize,
    coalition: bool,
}

impl<'a> View<'a> {
    fn new(graph: &'a Graph) -> View<'a> {
        View {
            graph,
            states: States::new(graph),
            players: graph.players(),
            coalition: Concept::of(graph.rules()) == Concept::Coalition,
        }
    }

    /// Whether the seat's side moves: the seat itself, or in team play and with
    /// two players, any player of its team.
    fn ours(&self, n: Seated) -> bool {
        if self.coalition {
            n.seat == 0
        } else {
            n.seat.is_multiple_of(2)
        }
    }

    /// What the rules alone say: `Some(true)` if the seat has won, `Some(false)` if
    /// it has lost, `None` while it plays on.
    fn settled(&self, n: Seated) -> Option<bool> {
        let alive = self.graph.alive(n.index);
        let alive = &alive[..self.players];
        let over = self.graph.rules().is_over(alive);
        if self.coalition {
            self.states.settled(alive, over, n.seat)
        } else {
            self.states
                .settled(alive, over, 0)
                .map(|w| w == n.seat.is_multiple_of(2))
        }
    }

    fn children(&self, n: Seated, mut emit: impl FnMut(Seated)) {
        let p = self.players;
        self.graph.for_each_child_step(n.index, |index, step| {
            emit(Seated {
                index,
                seat: (n.seat + p - step % p) % p,
            })
        });
    }

    fn children_vec(&self, n: Seated) -> Vec<Seated> {
        let mut out = Vec::new();
        self.children(n, |c| out.push(c));
        out
    }
}

/// The seat's outcome at a node, from the solution.
fn value(solution: &Solution, n: Seated) -> Result<crate::Outcome, SolveError> {
    solution.seat_outcome_at(n.index, n.seat)
}

/// The fastest move to a win for the seat (ties: the smallest node).
fn best_child(
    view: &View,
    solution: &Solution,
    x: Seated,
) -> Result<Option<(u32, Seated)>, SolveError> {
    let mut best: Option<(u32, Seated)> = None;
    let mut failed = None;
    view.children(x, |c| match value(solution, c) {
        Ok(o) if o.value == Value::Win => match o.remoteness {
            Some(r) => {
                if best.is_none_or(|b| (r, c) < b) {
                    best = Some((r, c));
                }
            }
            None => failed = Some(SolveError::NoRemoteness),
        },
        Ok(_) => {}
        Err(e) => failed = Some(e),
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(best),
    }
}

/// The seat at `start` (0 = its mover) that can force a win: with two players or
/// in team play seat 0 or 1 (for its team), otherwise the one seat, if any, that
/// wins against a coalition of all the others.
pub fn winning_seat(
    graph: &Graph,
    solution: &Solution,
    start: u64,
) -> Result<Option<usize>, SolveError> {
    let seats = match Concept::of(graph.rules()) {
        Concept::Coalition => graph.players(),
        _ => 2,
    };
    for seat in 0..seats {
        if solution.seat_outcome_at(start, seat)?.value == Value::Win {
            return Ok(Some(seat));
        }
    }
    Ok(None)
}

/// Builds the winning strategy from `start`, or `None` when no seat can force a
/// win. Needs a table with remoteness ([`SolveError::NoRemoteness`] otherwise).
pub fn winning_strategy(
    graph: &Graph,
    solution: &Solution,
    start: u64,
) -> Result<Option<Strategy>, SolveError> {
    if !solution.has_remoteness() {
        return Err(SolveError::NoRemoteness);
    }
    let Some(seat) = winning_seat(graph, solution, start)? else {
        return Ok(None);
    };
    let view = View::new(graph);
    let mut seen: HashSet<Seated> = HashSet::new();
    let mut faced: Vec<Seated> = Vec::new();
    // Every node from `n` on that the winner's opponents choose, up to the
    // positions where the winner moves again.
    let reach = |n: Seated, seen: &mut HashSet<Seated>, faced: &mut Vec<Seated>| {
        let mut todo = vec![n];
        while let Some(y) = todo.pop() {
            if view.settled(y).is_some() {
                continue;
            }
            if view.ours(y) {
                faced.push(y);
            } else {
                view.children(y, |c| {
                    if seen.insert(c) {
                        todo.push(c);
                    }
                });
            }
        }
    };
    let root = Seated { index: start, seat };
    seen.insert(root);
    reach(root, &mut seen, &mut faced);
    let mut chosen: HashMap<Seated, u32> = HashMap::new();
    let mut decisions = 0;
    while let Some(x) = faced.pop() {
        decisions += 1;
        let (r, c) = best_child(&view, solution, x)?.ok_or_else(|| {
            SolveError::Inconsistent(format!(
                "position #{} is stored as a win but has no winning move",
                x.index
            ))
        })?;
        chosen.insert(c, r);
        if seen.insert(c) {
            reach(c, &mut seen, &mut faced);
        }
    }
    let mut configurations: Vec<(u32, Seated)> = chosen.into_iter().map(|(c, r)| (r, c)).collect();
    configurations.sort_unstable();
    Ok(Some(Strategy {
        seat,
        configurations: configurations.into_iter().map(|(_, c)| c).collect(),
        decisions,
    }))
}

/// Makes a checked strategy shorter: drops configurations one at a time (the slowest
/// wins first) whenever the list without them still passes [`verify`]. The result
/// passes [`verify`] and no single configuration can be dropped from it. Costs one
/// verification per configuration, so it is meant for lists of human size.
pub fn minimise(graph: &Graph, start: u64, strategy: &Strategy) -> Strategy {
    let mut kept = strategy.clone();
    let mut k = kept.configurations.len();
    while k > 0 {
        k -= 1;
        let mut trial = kept.clone();
        trial.configurations.remove(k);
        if let Ok(faced) = verify(graph, start, &trial) {
            trial.decisions = faced;
            kept = trial;
        }
    }
    kept
}

/// Checks a strategy against every defence using only the move graph and the
/// rules: returns the number of positions the winner faces, or a description of
/// the first failure. The winner (every player of the winning team) moves to the
/// first configuration of the list it can reach; every other player may do
/// anything. The game so followed must have no cycle and end only in the winner's
/// victories.
pub fn verify(graph: &Graph, start: u64, strategy: &Strategy) -> Result<u64, String> {
    let view = View::new(graph);
    let order: HashMap<Seated, usize> = strategy
        .configurations
        .iter()
        .enumerate()
        .map(|(k, &c)| (c, k))
        .collect();
    let pick = |x: Seated| -> Option<Seated> {
        let mut best: Option<(usize, Seated)> = None;
        view.children(x, |c| {
            if let Some(&k) = order.get(&c) {
                if best.is_none_or(|(b, _)| k < b) {
                    best = Some((k, c));
                }
            }
        });
        best.map(|(_, c)| c)
    };
    if strategy.seat >= view.players {
        return Err(format!("there is no seat {} in this game", strategy.seat));
    }
    let root = Seated {
        index: start,
        seat: strategy.seat,
    };
    // The nodes that follow `n` in the game the strategy allows.
    let next = |n: Seated| -> Result<Vec<Seated>, String> {
        match view.settled(n) {
            Some(true) => return Ok(Vec::new()),
            Some(false) => {
                return Err(format!(
                    "the opponents can win: the game is lost at index {}",
                    n.index
                ))
            }
            None => {}
        }
        if view.ours(n) {
            let c = pick(n).ok_or_else(|| {
                format!(
                    "no configuration of the list is reachable from index {}",
                    n.index
                )
            })?;
            return Ok(vec![c]);
        }
        let replies = view.children_vec(n);
        if replies.is_empty() {
            return Err(format!(
                "index {} leaves the opponent without a move but not beaten",
                n.index
            ));
        }
        Ok(replies)
    };
    // Depth-first search with cycle detection.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<Seated, Mark> = HashMap::new();
    let mut stack: Vec<(Seated, Vec<Seated>)> = Vec::new();
    marks.insert(root, Mark::Open);
    stack.push((root, next(root)?));
    while let Some(top) = stack.last_mut() {
        let x = top.0;
        match top.1.pop() {
            None => {
                marks.insert(x, Mark::Done);
                stack.pop();
            }
            Some(y) => match marks.get(&y) {
                Some(Mark::Open) => {
                    let from = stack.iter().position(|(z, _)| *z == y).unwrap_or(0);
                    let cycle: Vec<String> = stack[from..]
                        .iter()
                        .filter(|(z, _)| view.ours(*z))
                        .map(|(z, _)| z.index.to_string())
                        .collect();
                    return Err(format!(
                        "the opponents can repeat positions for ever: the winner faces indices {} again and again",
                        cycle.join(" → ")
                    ));
                }
                Some(Mark::Done) => {}
                None => {
                    let after = next(y)?;
                    marks.insert(y, Mark::Open);
                    stack.push((y, after));
                }
            },
        }
    }
    Ok(marks.keys().filter(|&&n| view.ours(n)).count() as u64)
}

/// Positions to avoid when nobody can force a win: for every position reachable
/// from the start (`reached`) that is a draw for its mover, the moves that lose for
/// the mover (against everybody else, or for the mover's team), as the position
/// they lead to and the seat of the player who made them. The slowest losses last.
pub fn traps(
    graph: &Graph,
    solution: &Solution,
    reached: impl Iterator<Item = u64>,
) -> Result<Vec<Seated>, SolveError> {
    let view = View::new(graph);
    let mut out: HashSet<Seated> = HashSet::new();
    for x in reached {
        let x = Seated { index: x, seat: 0 };
        if value(solution, x)?.value != Value::Draw || view.settled(x).is_some() {
            continue;
        }
        let mut failed = None;
        view.children(x, |c| match value(solution, c) {
            Ok(o) if o.value == Value::Lose => {
                out.insert(c);
            }
            Ok(_) => {}
            Err(e) => failed = Some(e),
        });
        if let Some(e) = failed {
            return Err(e);
        }
    }
    let mut v = out
        .into_iter()
        .map(|c| Ok((value(solution, c)?.remoteness, c)))
        .collect::<Result<Vec<_>, SolveError>>()?;
    v.sort_unstable();
    Ok(v.into_iter().map(|(_, c)| c).collect())
}

/// Lists of up to this many configurations are shortened by [`minimise`] in
/// [`advice`] (one check per entry).
pub const MINIMISE_UP_TO: usize = 2000;

/// What a person needs to play a variant from a start: a checked winning strategy
/// (configurations written as text), or the traps when nobody can force a win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advice {
    /// One seat (with two players or in team play: one side) can force a win.
    Win {
        /// The winning seat at the start, 0 = the first player (see [`seat_name`]).
        seat: usize,
        /// Some finished configuration is in the list: win at once when you can.
        win_immediately: bool,
        /// The other configurations, in order, as [`configuration_text`] writes them.
        configurations: Vec<String>,
        /// Configurations in the checked list, finished ones included.
        listed: usize,
        /// Positions the winner faces when following the list against every defence.
        positions_faced: u64,
    },
    /// Nobody can force a win: the configurations never to leave yourself in when
    /// you move in a position you can hold, with how fast you then lose, fastest
    /// first.
    Draw { avoid: Vec<(String, u32)> },
}

/// The most bytes per position of the variant that [`advice`] was measured
/// to take at its peak (the search's sets and the list's texts), with a
/// margin: 20 bytes were the most measured (standard.h6.f8, rollover.h6.f10;
/// docs/RELIABILITY.md), so 48 are assumed.
pub const ADVICE_BYTES_PER_POSITION: u64 = 48;

/// The memory [`advice`] is estimated to take at its peak for a variant of
/// `count` positions, before anything is built (its move graph and solution
/// not counted: they are there already).
pub fn advice_memory(count: u64) -> u64 {
    count.saturating_mul(ADVICE_BYTES_PER_POSITION) + (1 << 20)
}

impl Advice {
    /// The bytes this advice keeps on the heap (its texts and lists).
    pub fn heap_bytes(&self) -> u64 {
        use std::mem::size_of;
        match self {
            Advice::Win { configurations, .. } => configurations
                .iter()
                .map(|s| (size_of::<String>() + s.capacity()) as u64)
                .sum(),
            Advice::Draw { avoid } => avoid
                .iter()
                .map(|(s, _)| (size_of::<(String, u32)>() + s.capacity()) as u64)
                .sum(),
        }
    }

    /// The configurations listed: those to play into (a win) or to avoid (a draw).
    pub fn len(&self) -> usize {
        match self {
            Advice::Win { configurations, .. } => configurations.len(),
            Advice::Draw { avoid } => avoid.len(),
        }
    }

    /// Whether no configuration is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `[1,2],[1,1]`: the hands of the seat's player (ascending, as every position is
/// printed; Wikipedia's list writes them largest first), then those of the
/// players after it in turn order. For a
/// configuration (the seat just moved) with two players: your hands, then your
/// opponent's.
pub fn configuration_text(p: &chopsticks_rules::Position, seat: usize) -> String {
    let write = |h: &[u32]| {
        let v: Vec<String> = h.iter().map(u32::to_string).collect();
        format!("[{}]", v.join(","))
    };
    let players = p.players();
    let n = players.len();
    (0..n)
        .map(|k| write(&players[(seat + k) % n]))
        .collect::<Vec<_>>()
        .join(",")
}

/// The advice for playing from `start`: the winning strategy, checked by [`verify`]
/// and shortened by [`minimise`] when it is of human size (and checked again), or,
/// when nobody can force a win, the [`traps`] among the positions `reachable()`
/// lists. An error only when a check fails, which would be a bug.
pub fn advice(
    graph: &Graph,
    solution: &Solution,
    start: u64,
    reachable: impl FnOnce() -> Vec<u64>,
) -> Result<Advice, String> {
    let text = |c: Seated| configuration_text(&graph.position(c.index), c.seat);
    let strategy = winning_strategy(graph, solution, start).map_err(|e| e.to_string())?;
    let Some(strategy) = strategy else {
        let avoid = traps(graph, solution, reachable().into_iter())
            .and_then(|cs| {
                cs.into_iter()
                    .map(|c| Ok((text(c), value(solution, c)?.remoteness.unwrap_or(0))))
                    .collect::<Result<Vec<_>, SolveError>>()
            })
            .map_err(|e| e.to_string())?;
        return Ok(Advice::Draw { avoid });
    };
    verify(graph, start, &strategy)
        .map_err(|e| format!("the extracted strategy fails its check: {e}"))?;
    let strategy = if strategy.configurations.len() <= MINIMISE_UP_TO {
        minimise(graph, start, &strategy)
    } else {
        strategy
    };
    let positions_faced = verify(graph, start, &strategy)
        .map_err(|e| format!("the shortened strategy fails its check: {e}"))?;
    let (finished, rest): (Vec<Seated>, Vec<Seated>) = strategy
        .configurations
        .iter()
        .partition(|c| graph.is_terminal(c.index));
    Ok(Advice::Win {
        seat: strategy.seat,
        win_immediately: !finished.is_empty(),
        configurations: rest.into_iter().map(text).collect(),
        listed: strategy.configurations.len(),
        positions_faced,
    })
}
