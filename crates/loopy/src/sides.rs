//! Onsides and offsides of games that are not stoppers.
//!
//! The side of a game is found by editing its graph while its side value is
//! unchanged, until no alternating cycle is left; every edit is checked by two
//! side comparisons with the graph before the edit ([`crate::compare`] in
//! [`Mode::Onside`] or [`Mode::Offside`]), so a stopper found this way *is* the
//! side. The edits, each bounded:
//!
//! 0. condensation (every round, with a doubling wait after one that changes
//!    nothing): one all-pairs side
//!    comparison of the graph's vertices; the quotient by equal side values, with
//!    side-dominated options deleted, or the plain quotient, or else the classes
//!    of equal vertices fused in groups, a group halved when its fusion fails
//!    (at most 256 classes), each fusion kept only if the check passes (side-equal vertices cannot always be fused: a fusion can
//!    create alternating cycles that change the side);
//! 1. deletion of moves that lie on alternating cycles (the moves of the player
//!    the side does not favour first: Right's for the onside), all at once if
//!    the check passes, otherwise each half in turn, recursively;
//! 2. when no deletion is allowed, unravelling of one such move: the move is
//!    sent into a copy of the graph in which it is missing, so it can be used
//!    once more (at most [`MAX_UNRAVEL_COPIES`] nested copies, graphs up to
//!    [`MAX_SIDE_VERTICES`] vertices); then deletions are tried again.
//!
//! At most [`MAX_CHECKS`] checks are made per side.
//!
//! When no edit is left and alternating cycles remain, the side is reported as
//! not found: the game may not be stopper-sided (Bach's carousel), or the bounded
//! search may have missed the stopper. The simplified graph is returned.

use crate::compare::{self, Mode};
use crate::game::{Game, Player};
use crate::stopper::Stopper;
use crate::LoopyError;

/// Largest graph the side search works on (original or unravelled).
pub const MAX_SIDE_VERTICES: usize = 4096;

/// Most copies an unravelling may add in one step.
pub const MAX_UNRAVEL_COPIES: usize = 2;

/// Most rounds (deletion passes and unravellings) per side.
const MAX_ROUNDS: usize = 1024;

/// Most fusions of side-equal vertices tried per condensation.
const MAX_FUSIONS: usize = 256;

/// Most side comparisons (pairs of Büchi games) per side.
pub const MAX_CHECKS: usize = 4096;

/// Which side of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// `G⁺`: infinite play is won by Left.
    On,
    /// `G⁻`: infinite play is won by Right.
    Off,
}

impl Side {
    pub(crate) fn mode(self) -> Mode {
        match self {
            Side::On => Mode::Onside,
            Side::Off => Mode::Offside,
        }
    }
}

/// The result of a side computation ([`side`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SideValue {
    /// The side equals this stopper.
    Stopper(Stopper),
    /// No stopper found: the simplified graph (same side value).
    Graph(Game),
}

/// A move of a graph: from `v`, by `player`, to `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    v: u32,
    player: Player,
    w: u32,
}

/// Whether `a` and `b` have the same side value.
fn same_side(a: &Game, b: &Game, side: Side) -> Result<bool, LoopyError> {
    let mode = side.mode();
    Ok(compare::geq(a, b, mode)? && compare::geq(b, a, mode)?)
}

/// The onside or offside of a game graph (see the module documentation): a
/// stopper when one was found, otherwise a simplified graph with the same side
/// value. Errors past [`MAX_SIDE_VERTICES`] vertices.
pub fn side(g: &Game, side: Side) -> Result<SideValue, LoopyError> {
    side_within(g, side, MAX_SIDE_VERTICES)
}

/// Like [`side`], refusing graphs of more than `max_vertices` vertices.
pub fn side_within(g: &Game, side: Side, max_vertices: usize) -> Result<SideValue, LoopyError> {
    let max_vertices = max_vertices.min(MAX_SIDE_VERTICES);
    let original = g.reachable();
    if original.alternating_cycle_states().is_empty() {
        return Ok(SideValue::Stopper(Stopper::new(&original)?));
    }
    if original.len() > max_vertices {
        return Err(LoopyError::TooLarge {
            what: "game to take a side of",
            limit: max_vertices,
        });
    }
    let mut search = Search { side, checks: 0 };
    let mut work = original.clone();
    let (mut wait, mut backoff) = (0usize, 1usize);
    for _round in 0..MAX_ROUNDS {
        // Condense: after deletions, side-equal vertices can often be fused, and
        // every later check is on a smaller graph. After a condensation that
        // changed nothing, wait 1, 2, 4, … rounds before the next.
        if wait == 0 {
            let before = work.len();
            search.condense(&mut work)?;
            if work.len() < before {
                backoff = 1;
            } else {
                wait = backoff;
                backoff = (2 * backoff).min(64);
            }
        } else {
            wait -= 1;
        }
        let (moves, split) = cyclic_moves(&work, side);
        if moves.is_empty() {
            return Ok(SideValue::Stopper(Stopper::new(&work)?));
        }
        let mut progress = search.delete(&mut work, &moves[..split])?;
        progress |= search.delete(&mut work, &moves[split..])?;
        if progress {
            work = work.reachable();
            continue;
        }
        // No deletion: unravel one move, then delete again.
        let mut unravelled = false;
        'unravel: for &m in &moves {
            for copies in 1..=MAX_UNRAVEL_COPIES {
                if work.len() * (copies + 1) > max_vertices {
                    break;
                }
                let candidate = unravel(&work, m, copies);
                if !search.same(&work, &candidate)? {
                    continue;
                }
                let mut next = candidate.reachable();
                let (next_moves, _) = cyclic_moves(&next, side);
                if next_moves.is_empty() {
                    return Ok(SideValue::Stopper(Stopper::new(&next)?));
                }
                // Accept only if a deletion then succeeds (otherwise the graph
                // would only grow).
                if search.delete(&mut next, &next_moves)? {
                    work = next.reachable();
                    unravelled = true;
                    break 'unravel;
                }
            }
        }
        if !unravelled {
            break;
        }
    }
    Ok(SideValue::Graph(work))
}

/// The state of one side search: which side, and the checks made.
struct Search {
    side: Side,
    checks: usize,
}

impl Search {
    /// Whether `candidate` has the original's side value (false once the budget
    /// of checks is spent).
    fn same(&mut self, current: &Game, candidate: &Game) -> Result<bool, LoopyError> {
        if self.checks >= MAX_CHECKS {
            return Ok(false);
        }
        self.checks += 1;
        // Every accepted edit keeps the side value, so comparing with the current
        // graph (smaller than the original) is enough.
        same_side(current, candidate, self.side)
    }

    /// Whether `candidate` (`current` without some moves of `player`) has the
    /// same side value: the half of the comparison that can fail.
    fn one_way(
        &mut self,
        current: &Game,
        candidate: &Game,
        player: Player,
    ) -> Result<bool, LoopyError> {
        if self.checks >= MAX_CHECKS {
            return Ok(false);
        }
        self.checks += 1;
        let mode = self.side.mode();
        match player {
            // Fewer Right moves: candidate ≥ current holds; check current ≥ candidate.
            Player::Right => compare::geq(current, candidate, mode),
            Player::Left => compare::geq(candidate, current, mode),
        }
    }

    /// Replaces `work` by its quotient by equality of side values (one vertex per
    /// class, read from one all-pairs side comparison), with side-dominated
    /// options deleted, if that keeps the side value; else by the plain
    /// quotient if that does.
    fn condense(&mut self, work: &mut Game) -> Result<(), LoopyError> {
        let n = work.len();
        if n < 2 {
            return Ok(());
        }
        let table = compare::all_pairs(work, self.side.mode())?;
        let le = |i: u32, j: u32| table[i as usize * n + j as usize];
        let mut rep: Vec<u32> = (0..n as u32).collect();
        for i in 0..n as u32 {
            if rep[i as usize] != i {
                continue;
            }
            for j in i + 1..n as u32 {
                if rep[j as usize] == j && le(i, j) && le(j, i) {
                    rep[j as usize] = i;
                }
            }
        }
        let map = |list: &[u32]| -> Vec<u32> {
            let mut out: Vec<u32> = list.iter().map(|&w| rep[w as usize]).collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let left: Vec<Vec<u32>> = (0..n as u32).map(|v| map(work.left(v))).collect();
        let right: Vec<Vec<u32>> = (0..n as u32).map(|v| map(work.right(v))).collect();
        let start = rep[work.start() as usize];
        // Side-dominated options: a Left option below another, a Right option
        // above another.
        let prune = |list: &Vec<u32>, left_side: bool| -> Vec<u32> {
            list.iter()
                .copied()
                .filter(|&a| {
                    !list
                        .iter()
                        .any(|&b| b != a && if left_side { le(a, b) } else { le(b, a) })
                })
                .collect()
        };
        let pruned = Game::from_parts(
            left.iter().map(|l| prune(l, true)).collect(),
            right.iter().map(|r| prune(r, false)).collect(),
            start,
        )
        .reachable();
        let quotient = Game::from_parts(left, right, start).reachable();
        for candidate in [pruned, quotient] {
            if candidate.len() < work.len() && self.same(work, &candidate)? {
                *work = candidate;
                return Ok(());
            }
        }
        // Otherwise fuse groups of classes, halving a group whose fusion changes
        // the value.
        let mut classes: Vec<Vec<u32>> = vec![Vec::new(); n];
        for v in 0..n {
            classes[rep[v] as usize].push(v as u32);
        }
        let classes: Vec<Vec<u32>> = classes
            .into_iter()
            .filter(|c| c.len() > 1)
            .take(MAX_FUSIONS)
            .collect();
        let mut current = work.clone();
        self.fuse(&mut current, &classes)?;
        *work = current.reachable();
        Ok(())
    }

    /// Fuses the classes of `classes` (each into its first vertex) in `work`
    /// while the side value is unchanged: all at once if possible, otherwise each
    /// half in turn.
    fn fuse(&mut self, work: &mut Game, classes: &[Vec<u32>]) -> Result<bool, LoopyError> {
        if classes.is_empty() {
            return Ok(false);
        }
        let mut target: Vec<u32> = (0..work.len() as u32).collect();
        for class in classes {
            for &b in class {
                target[b as usize] = class[0];
            }
        }
        let redirect = |list: &[u32]| -> Vec<u32> {
            let mut out: Vec<u32> = list.iter().map(|&w| target[w as usize]).collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let m = work.len() as u32;
        let candidate = Game::from_parts(
            (0..m).map(|v| redirect(work.left(v))).collect(),
            (0..m).map(|v| redirect(work.right(v))).collect(),
            target[work.start() as usize],
        );
        if self.same(work, &candidate)? {
            *work = candidate;
            return Ok(true);
        }
        if classes.len() == 1 {
            return Ok(false);
        }
        let (a, b) = classes.split_at(classes.len() / 2);
        let x = self.fuse(work, a)?;
        let y = self.fuse(work, b)?;
        Ok(x || y)
    }

    /// Deletes moves of `moves` from `work` while the side value is unchanged:
    /// all at once if possible, otherwise each half in turn (recursively). True
    /// if anything was deleted.
    fn delete(&mut self, work: &mut Game, moves: &[Move]) -> Result<bool, LoopyError> {
        if moves.is_empty() {
            return Ok(false);
        }
        let candidate = without_moves(work, moves);
        if candidate == *work {
            return Ok(false);
        }
        // Deleting one player's moves can only help the other (Left mirrors
        // between the two graphs, and a mirrored infinite play moves in both), so
        // one direction of the comparison holds already.
        let same = if moves.iter().all(|m| m.player == moves[0].player) {
            self.one_way(work, &candidate, moves[0].player)?
        } else {
            self.same(work, &candidate)?
        };
        if same {
            *work = candidate;
            return Ok(true);
        }
        if moves.len() == 1 {
            return Ok(false);
        }
        let (a, b) = moves.split_at(moves.len() / 2);
        // Stop at the first success: the caller condenses the smaller graph
        // before looking further (checks on it are cheaper).
        Ok(self.delete(work, a)? || self.delete(work, b)?)
    }
}

/// The moves of `g` that lie on alternating cycles, in the order they are tried:
/// the moves of the player the side does not favour first (Right's for the
/// onside), then the others; and the number of the first kind.
fn cyclic_moves(g: &Game, side: Side) -> (Vec<Move>, usize) {
    let comp = state_components(g);
    let n = g.len();
    let mut first = Vec::new();
    let mut second = Vec::new();
    for v in 0..n as u32 {
        for (player, list, from, next) in [
            (Player::Left, g.left(v), 2 * v as usize, 1usize),
            (Player::Right, g.right(v), 2 * v as usize + 1, 0usize),
        ] {
            for &w in list {
                let to = 2 * w as usize + next;
                if comp[from] == comp[to] {
                    let m = Move { v, player, w };
                    let favoured = match side {
                        Side::On => Player::Right,
                        Side::Off => Player::Left,
                    };
                    if player == favoured {
                        first.push(m);
                    } else {
                        second.push(m);
                    }
                }
            }
        }
    }
    let split = first.len();
    first.extend(second);
    (first, split)
}

/// Strongly connected components of the state graph (states `2v + mover`),
/// by an iterative Tarjan's algorithm.
fn state_components(g: &Game) -> Vec<u32> {
    let n = 2 * g.len();
    let succ = |s: usize| -> &[u32] {
        if s & 1 == 0 {
            g.left((s / 2) as u32)
        } else {
            g.right((s / 2) as u32)
        }
    };
    let next_mover = |s: usize| -> usize { 1 - s % 2 };
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![u32::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut counter = 0u32;
    let mut ncomp = 0u32;
    for root in 0..n {
        if index[root] != u32::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&(s, i)) = call.last() {
            let list = succ(s);
            if i < list.len() {
                let t = 2 * list[i] as usize + next_mover(s);
                if let Some(top) = call.last_mut() {
                    top.1 += 1;
                }
                if index[t] == u32::MAX {
                    index[t] = counter;
                    low[t] = counter;
                    counter += 1;
                    stack.push(t);
                    on_stack[t] = true;
                    call.push((t, 0));
                } else if on_stack[t] {
                    low[s] = low[s].min(index[t]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p] = low[p].min(low[s]);
                }
                if low[s] == index[s] {
                    loop {
                        let t = stack.pop().expect("on stack");
                        on_stack[t] = false;
                        comp[t] = ncomp;
                        if t == s {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

fn without_moves(g: &Game, moves: &[Move]) -> Game {
    let (mut left, mut right, start) = g.clone().into_lists();
    for m in moves {
        let list = match m.player {
            Player::Left => &mut left[m.v as usize],
            Player::Right => &mut right[m.v as usize],
        };
        list.retain(|&w| w != m.w);
    }
    Game::from_parts(left, right, start)
}

/// `copies` copies of `g` after the original; the move `m` of copy `i` leads to
/// copy `i + 1`, and is missing from the last copy.
fn unravel(g: &Game, m: Move, copies: usize) -> Game {
    let n = g.len() as u32;
    let (left0, right0, start) = g.clone().into_lists();
    let mut left = Vec::with_capacity(left0.len() * (copies + 1));
    let mut right = Vec::with_capacity(right0.len() * (copies + 1));
    for c in 0..=copies as u32 {
        for v in 0..n {
            let shift = |list: &Vec<u32>, is_player: bool| -> Vec<u32> {
                let mut out = Vec::with_capacity(list.len());
                for &w in list {
                    if is_player && v == m.v && w == m.w {
                        if (c as usize) < copies {
                            out.push(w + (c + 1) * n);
                        }
                    } else {
                        out.push(w + c * n);
                    }
                }
                out
            };
            left.push(shift(&left0[v as usize], m.player == Player::Left));
            right.push(shift(&right0[v as usize], m.player == Player::Right));
        }
    }
    Game::from_unsorted(left, right, start)
}
