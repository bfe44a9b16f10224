//! Strategies a person can follow, extracted from a solution and checked.
//!
//! **Winning strategy.** When one side can force a win from the start, the strategy
//! is a list of *configurations*: positions to leave the opponent in after each of
//! your moves, in order of preference. The rule is Wikipedia's: after each of your
//! moves, reach the first configuration of the list that you can reach. The list is
//! built from the policy "take the fastest win; among equally fast ones, the child
//! with the smallest index", applied at every position the winner can face against
//! any defence; sorting the chosen configurations by (remoteness, index) makes "the
//! first reachable one" exactly that policy's choice, so the list is complete.
//!
//! [`verify`] then replays the list against every defence without looking at the
//! solution: at every position the winner faces some configuration of the list must
//! be reachable, and the game graph so followed must have no cycle and end only in
//! the winner's victories.
//!
//! **Drawn variants.** [`traps`] lists the positions to avoid: positions reachable
//! from the start that are wins for the player to move, reachable by one move from a
//! drawn position. Leaving your opponent in one of them loses.

use std::collections::{HashMap, HashSet};

use chopsticks_space::Graph;

use crate::{Solution, Value};

/// Which player can force a win from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}

impl Winner {
    /// `first` or `second`.
    pub fn name(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
        }
    }
}

/// A complete winning strategy as an ordered list of configurations.
#[derive(Clone, Debug)]
pub struct Strategy {
    pub winner: Winner,
    /// Positions (opponent to move) to reach after each of the winner's moves, best
    /// first. Finished games (the opponent has no hand) come first.
    pub configurations: Vec<u64>,
    /// The positions the winner faces when following the list, for the record.
    pub decisions: u64,
}

/// The fastest winning child of `x` (ties: the smallest index).
fn best_child(graph: &Graph, solution: &Solution, x: u64) -> Option<(u32, u64)> {
    let mut best: Option<(u32, u64)> = None;
    graph.for_each_child(x, |c| {
        let o = solution.outcome_at(c);
        if o.value == Value::Lose {
            let key = (o.remoteness.expect("losses have a remoteness"), c);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
    });
    best
}

/// Builds the winning strategy from `start`, or `None` when the start is a draw.
pub fn winning_strategy(graph: &Graph, solution: &Solution, start: u64) -> Option<Strategy> {
    let winner = match solution.outcome_at(start).value {
        Value::Win => Winner::First,
        Value::Lose => Winner::Second,
        Value::Draw => return None,
    };
    // Positions the winner faces.
    let mut faced: Vec<u64> = match winner {
        Winner::First => vec![start],
        Winner::Second => graph.children(start),
    };
    let mut seen: HashSet<u64> = faced.iter().copied().collect();
    let mut chosen: HashMap<u64, u32> = HashMap::new();
    while let Some(x) = faced.pop() {
        if graph.is_terminal(x) {
            // Already won by the winner (in misère, by losing their last hand).
            continue;
        }
        let (r, c) = best_child(graph, solution, x).expect("a faced position is a win");
        chosen.insert(c, r);
        graph.for_each_child(c, |y| {
            if seen.insert(y) {
                faced.push(y);
            }
        });
    }
    let mut configurations: Vec<(u32, u64)> = chosen.into_iter().map(|(c, r)| (r, c)).collect();
    configurations.sort_unstable();
    Some(Strategy {
        winner,
        configurations: configurations.into_iter().map(|(_, c)| c).collect(),
        decisions: seen.len() as u64,
    })
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

/// Checks a strategy against every defence using only the move graph: returns the
/// number of positions the winner faces, or a description of the first failure.
pub fn verify(graph: &Graph, start: u64, strategy: &Strategy) -> Result<u64, String> {
    let order: HashMap<u64, usize> = strategy
        .configurations
        .iter()
        .enumerate()
        .map(|(k, &c)| (c, k))
        .collect();
    let pick = |x: u64| -> Option<u64> {
        let mut best: Option<(usize, u64)> = None;
        graph.for_each_child(x, |c| {
            if let Some(&k) = order.get(&c) {
                if best.is_none_or(|(b, _)| k < b) {
                    best = Some((k, c));
                }
            }
        });
        best.map(|(_, c)| c)
    };
    let roots: Vec<u64> = match strategy.winner {
        Winner::First => vec![start],
        Winner::Second => {
            if graph.is_terminal(start) {
                return Err("the game is over before the second player moves".into());
            }
            graph.children(start)
        }
    };
    // Depth-first search over the positions the winner faces, with cycle detection.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<u64, Mark> = HashMap::new();
    for root in roots {
        if marks.contains_key(&root) {
            continue;
        }
        // Stack of (faced position, its replies still to visit).
        let mut stack: Vec<(u64, Vec<u64>)> = Vec::new();
        // Enters a position the winner faces; `None` when the game is already won.
        let enter = |x: u64, marks: &mut HashMap<u64, Mark>| -> Result<Vec<u64>, String> {
            if graph.is_terminal(x) {
                // The winner is to move in a finished game: won only in misère with
                // the winner's hands all dead (the mover won iff alive != misère).
                if graph.mover_alive(x) != graph.rules().misere {
                    marks.insert(x, Mark::Done);
                    return Ok(Vec::new());
                }
                return Err(format!("the opponent can win: finished game at index {x}"));
            }
            let c = pick(x).ok_or_else(|| {
                format!("no configuration of the list is reachable from index {x}")
            })?;
            marks.insert(x, Mark::Open);
            if graph.is_terminal(c) {
                // The opponent is to move in a finished game: the winner won iff the
                // opponent did not (mover won iff alive != misère).
                if graph.mover_alive(c) != graph.rules().misere {
                    return Err(format!(
                        "configuration {c} ends the game in the opponent's favour"
                    ));
                }
                return Ok(Vec::new());
            }
            let replies = graph.children(c);
            if replies.is_empty() {
                return Err(format!(
                    "configuration {c} leaves the opponent without a move but not beaten"
                ));
            }
            Ok(replies)
        };
        let replies = enter(root, &mut marks)?;
        stack.push((root, replies));
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
                        let cycle: Vec<String> =
                            stack[from..].iter().map(|(z, _)| z.to_string()).collect();
                        return Err(format!(
                            "the opponent can repeat positions for ever: the winner faces indices {} again and again",
                            cycle.join(" → ")
                        ));
                    }
                    Some(Mark::Done) => {}
                    None => {
                        let next = enter(y, &mut marks)?;
                        stack.push((y, next));
                    }
                },
            }
        }
    }
    Ok(marks.len() as u64)
}

/// Positions to avoid in a drawn variant: wins for the player to move, reachable by
/// one move from a drawn position reachable from the start. `reached` lists the
/// positions reachable from the start.
pub fn traps(graph: &Graph, solution: &Solution, reached: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut out: HashSet<u64> = HashSet::new();
    for x in reached {
        if solution.outcome_at(x).value != Value::Draw {
            continue;
        }
        graph.for_each_child(x, |c| {
            if solution.outcome_at(c).value == Value::Win {
                out.insert(c);
            }
        });
    }
    let mut v: Vec<u64> = out.into_iter().collect();
    v.sort_unstable_by_key(|&c| (solution.outcome_at(c).remoteness, c));
    v
}

/// Lists of up to this many configurations are shortened by [`minimise`] in
/// [`advice`] (one check per entry).
pub const MINIMISE_UP_TO: usize = 2000;

/// What a person needs to play a variant from a start: a checked winning strategy
/// (configurations written as text), or the traps of a drawn variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advice {
    /// One side can force a win.
    Win {
        winner: Winner,
        /// Some finished configuration is in the list: win at once when you can.
        win_immediately: bool,
        /// The other configurations, in order, as [`configuration_text`] writes them.
        configurations: Vec<String>,
        /// Configurations in the checked list, finished ones included.
        listed: usize,
        /// Positions the winner faces when following the list against every defence.
        positions_faced: u64,
    },
    /// Nobody can force a win: the positions never to leave your opponent in, with
    /// how fast the opponent then wins, fastest first.
    Draw { avoid: Vec<(String, u32)> },
}

/// `[2,1],[1,1]`: the hands of the player who just moved (largest first, as
/// Wikipedia writes them), then the hands of the player to move, for a two-player
/// position.
pub fn configuration_text(p: &chopsticks_rules::Position) -> String {
    let write = |h: &[u32]| {
        let v: Vec<String> = h.iter().rev().map(u32::to_string).collect();
        format!("[{}]", v.join(","))
    };
    format!("{},{}", write(&p.players()[1]), write(&p.players()[0]))
}

/// The advice for playing from `start`: the winning strategy, checked by [`verify`]
/// and shortened by [`minimise`] when it is of human size (and checked again), or,
/// when the start is a draw, the [`traps`] among the positions `reachable()` lists.
/// An error only when a check fails, which would be a bug.
pub fn advice(
    graph: &Graph,
    solution: &Solution,
    start: u64,
    reachable: impl FnOnce() -> Vec<u64>,
) -> Result<Advice, String> {
    let Some(strategy) = winning_strategy(graph, solution, start) else {
        let avoid = traps(graph, solution, reachable().into_iter())
            .into_iter()
            .map(|c| {
                let wins_in = solution.outcome_at(c).remoteness.unwrap_or(0);
                (configuration_text(&graph.position(c)), wins_in)
            })
            .collect();
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
    let (finished, rest): (Vec<u64>, Vec<u64>) = strategy
        .configurations
        .iter()
        .partition(|&&c| graph.is_terminal(c));
    Ok(Advice::Win {
        winner: strategy.winner,
        win_immediately: !finished.is_empty(),
        configurations: rest
            .iter()
            .map(|&c| configuration_text(&graph.position(c)))
            .collect(),
        listed: strategy.configurations.len(),
        positions_faced,
    })
}
