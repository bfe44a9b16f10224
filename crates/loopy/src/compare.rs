//! Comparison by retrograde analysis on pair states.
//!
//! `A ≥ B` is decided on the difference `A - B`: a state is a pair `(a, b)` of
//! vertices (a position of `A` and one of `B`) and the player to move. Left's
//! moves are Left moves in `A` and Right moves in `B` (Left moves in `-B`);
//! Right's moves are Right moves in `A` and Left moves in `B`. Right moves first,
//! and `A ≥ B` holds when Left *survives* from the start state:
//!
//! * a player with no move loses;
//! * an infinite play is won by Left if it has infinitely many *marked* moves:
//!   every move for stoppers ([`Mode::Stopper`]: infinite play is survival),
//!   moves in `A` for onsides ([`Mode::Onside`]: `A⁺ ≥ B⁺`), moves in `B` for
//!   offsides ([`Mode::Offside`]: `A⁻ ≥ B⁻`).
//!
//! An infinite play that ends up in one component only is an infinite play of
//! that component, won as that component's side says (Left in `A⁺`, Right in
//! `(-B)⁻`, and so on); one that visits both components for ever is won by Left,
//! as for stoppers (Left, moving second, mirrors in the other component).
//!
//! This is a Büchi game for Left, solved by the classical iteration: the states
//! from which Left can force one more marked move (a backward attractor with
//! counters) are kept, the others are Right's, together with Right's attractor of
//! them; repeat until nothing is removed. States are numbered
//! `(a · |B| + b) · 2 + mover` (mover 0 = Left, 1 = Right) in flat arrays; moves
//! and predecessors are read from the two graphs and their reversed option lists,
//! so no state graph is stored. Every buffer belongs to one call.

use crate::game::{Game, Player};
use crate::LoopyError;

/// The most pair states (`2 · |A| · |B|`) one comparison may use.
pub const MAX_PAIR_STATES: usize = 1 << 28;

/// How infinite plays are scored in a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Stoppers: every infinite play is won by Left (survival).
    Stopper,
    /// Onsides: Left wins an infinite play iff it moves in `A` infinitely often.
    Onside,
    /// Offsides: Left wins an infinite play iff it moves in `B` infinitely often.
    Offside,
}

/// Reversed option lists of a graph.
struct Reversed {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
}

impl Reversed {
    fn of(g: &Game) -> Reversed {
        Reversed {
            left: g.reverse(Player::Left),
            right: g.reverse(Player::Right),
        }
    }
}

/// The pair arena for `A - B`.
pub(crate) struct Arena<'a> {
    a: &'a Game,
    b: &'a Game,
    ra: Reversed,
    rb: Reversed,
    nb: usize,
    mode: Mode,
}

/// One move: target state and whether it is marked.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    marked: bool,
}

impl<'a> Arena<'a> {
    pub(crate) fn new(a: &'a Game, b: &'a Game, mode: Mode) -> Result<Arena<'a>, LoopyError> {
        let states = 2u128 * a.len() as u128 * b.len() as u128;
        if states > MAX_PAIR_STATES as u128 {
            return Err(LoopyError::TooLarge {
                what: "comparison (pair states)",
                limit: MAX_PAIR_STATES,
            });
        }
        Ok(Arena {
            a,
            b,
            ra: Reversed::of(a),
            rb: Reversed::of(b),
            nb: b.len(),
            mode,
        })
    }

    fn states(&self) -> usize {
        2 * self.a.len() * self.nb
    }

    #[inline]
    fn id(&self, a: u32, b: u32, mover: u32) -> u32 {
        ((a as usize * self.nb + b as usize) * 2) as u32 + mover
    }

    #[inline]
    fn split(&self, s: u32) -> (u32, u32, u32) {
        let mover = s & 1;
        let p = (s >> 1) as usize;
        ((p / self.nb) as u32, (p % self.nb) as u32, mover)
    }

    #[inline]
    fn marked_a(&self) -> bool {
        self.mode != Mode::Offside
    }

    #[inline]
    fn marked_b(&self) -> bool {
        self.mode != Mode::Onside
    }

    /// Moves from state `s`.
    fn for_each_move(&self, s: u32, mut f: impl FnMut(Edge)) {
        let (a, b, mover) = self.split(s);
        let (ma, mb) = (self.marked_a(), self.marked_b());
        if mover == 0 {
            for &a2 in self.a.left(a) {
                f(Edge {
                    to: self.id(a2, b, 1),
                    marked: ma,
                });
            }
            for &b2 in self.b.right(b) {
                f(Edge {
                    to: self.id(a, b2, 1),
                    marked: mb,
                });
            }
        } else {
            for &a2 in self.a.right(a) {
                f(Edge {
                    to: self.id(a2, b, 0),
                    marked: ma,
                });
            }
            for &b2 in self.b.left(b) {
                f(Edge {
                    to: self.id(a, b2, 0),
                    marked: mb,
                });
            }
        }
    }

    /// Moves into state `s`: (predecessor, marked).
    fn for_each_pred(&self, s: u32, mut f: impl FnMut(Edge)) {
        let (a, b, mover) = self.split(s);
        let (ma, mb) = (self.marked_a(), self.marked_b());
        if mover == 1 {
            // Reached by a Left move: Left in A, or Right in B.
            for &a0 in &self.ra.left[a as usize] {
                f(Edge {
                    to: self.id(a0, b, 0),
                    marked: ma,
                });
            }
            for &b0 in &self.rb.right[b as usize] {
                f(Edge {
                    to: self.id(a, b0, 0),
                    marked: mb,
                });
            }
        } else {
            for &a0 in &self.ra.right[a as usize] {
                f(Edge {
                    to: self.id(a0, b, 1),
                    marked: ma,
                });
            }
            for &b0 in &self.rb.left[b as usize] {
                f(Edge {
                    to: self.id(a, b0, 1),
                    marked: mb,
                });
            }
        }
    }

    /// For every state, whether Left wins (survives) from it.
    pub(crate) fn solve(&self) -> Vec<bool> {
        let n = self.states();
        // Right's winning region, grown round by round.
        let mut lost = vec![false; n];
        let mut in_y = vec![false; n];
        let mut count = vec![0u32; n];
        let mut stack: Vec<u32> = Vec::new();
        loop {
            // Y: states from which Left can force one more marked move (or Right is
            // stuck), within the states not lost.
            in_y.iter_mut().for_each(|x| *x = false);
            stack.clear();
            for s in 0..n as u32 {
                if lost[s as usize] {
                    continue;
                }
                if s & 1 == 0 {
                    let mut good = false;
                    self.for_each_move(s, |e| {
                        if e.marked && !lost[e.to as usize] {
                            good = true;
                        }
                    });
                    if good {
                        in_y[s as usize] = true;
                        stack.push(s);
                    }
                } else {
                    // Right's moves all stay among states not lost (otherwise the
                    // state would be lost): count the unmarked ones.
                    let mut c = 0;
                    self.for_each_move(s, |e| {
                        if !e.marked {
                            c += 1;
                        }
                    });
                    count[s as usize] = c;
                    if c == 0 {
                        in_y[s as usize] = true;
                        stack.push(s);
                    }
                }
            }
            while let Some(t) = stack.pop() {
                self.for_each_pred(t, |e| {
                    let p = e.to as usize;
                    if e.marked || lost[p] || in_y[p] {
                        return;
                    }
                    if p & 1 == 0 {
                        in_y[p] = true;
                        stack.push(p as u32);
                    } else {
                        count[p] -= 1;
                        if count[p] == 0 {
                            in_y[p] = true;
                            stack.push(p as u32);
                        }
                    }
                });
            }
            // X = the rest: Right wins there. Add Right's attractor of X. First
            // count Left's moves to states not lost before this round.
            for s in (0..n as u32).step_by(2) {
                if lost[s as usize] {
                    continue;
                }
                let mut c = 0;
                self.for_each_move(s, |e| {
                    if !lost[e.to as usize] {
                        c += 1;
                    }
                });
                count[s as usize] = c;
            }
            stack.clear();
            for s in 0..n {
                if !lost[s] && !in_y[s] {
                    lost[s] = true;
                    stack.push(s as u32);
                }
            }
            if stack.is_empty() {
                break;
            }
            // Right states with a move into the newly lost set, Left states left
            // with no move outside it.
            let mut frontier = std::mem::take(&mut stack);
            while let Some(t) = frontier.pop() {
                self.for_each_pred(t, |e| {
                    let p = e.to as usize;
                    if lost[p] {
                        return;
                    }
                    if p & 1 == 1 {
                        lost[p] = true;
                        frontier.push(p as u32);
                    } else {
                        count[p] -= 1;
                        if count[p] == 0 {
                            lost[p] = true;
                            frontier.push(p as u32);
                        }
                    }
                });
            }
            stack = frontier;
        }
        lost.into_iter().map(|l| !l).collect()
    }

    /// Whether Left wins from `(a, b)` with Right to move: `A ≥ B` at those
    /// vertices.
    pub(crate) fn right_to_move(&self, win: &[bool], a: u32, b: u32) -> bool {
        win[self.id(a, b, 1) as usize]
    }
}

/// `A ≥ B` at their start vertices, in the given mode (see the module
/// documentation). Errors when the pair states exceed [`MAX_PAIR_STATES`].
pub fn geq(a: &Game, b: &Game, mode: Mode) -> Result<bool, LoopyError> {
    let a = a.reachable();
    let b = b.reachable();
    let arena = Arena::new(&a, &b, mode)?;
    let win = arena.solve();
    Ok(arena.right_to_move(&win, a.start(), b.start()))
}

/// `A ≤ B` at their start vertices.
pub fn leq(a: &Game, b: &Game, mode: Mode) -> Result<bool, LoopyError> {
    geq(b, a, mode)
}

/// Every comparison between vertices of one graph: `table[i * n + j]` is
/// `G_i ≤ G_j` in the given mode.
pub fn all_pairs(g: &Game, mode: Mode) -> Result<Vec<bool>, LoopyError> {
    let arena = Arena::new(g, g, mode)?;
    let win = arena.solve();
    let n = g.len();
    let mut table = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            // G_i ≤ G_j iff G_j ≥ G_i: A = G at j, B = G at i.
            table[i * n + j] = arena.right_to_move(&win, j as u32, i as u32);
        }
    }
    Ok(table)
}
