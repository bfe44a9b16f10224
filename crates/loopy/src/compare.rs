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

use crate::game::Game;
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

/// Option lists in compressed form: the options of `v` are
/// `to[off[v]..off[v + 1]]`.
struct Csr {
    off: Vec<u32>,
    to: Vec<u32>,
}

impl Csr {
    fn from_lists<'l>(n: usize, lists: impl Fn(u32) -> &'l [u32]) -> Csr {
        let mut off = Vec::with_capacity(n + 1);
        let mut to = Vec::new();
        off.push(0);
        for v in 0..n as u32 {
            to.extend_from_slice(lists(v));
            off.push(to.len() as u32);
        }
        Csr { off, to }
    }

    fn reversed(&self, n: usize) -> Csr {
        let mut count = vec![0u32; n + 1];
        for &w in &self.to {
            count[w as usize + 1] += 1;
        }
        for v in 0..n {
            count[v + 1] += count[v];
        }
        let off = count.clone();
        let mut fill = count;
        let mut to = vec![0u32; self.to.len()];
        for v in 0..n {
            for &w in self.get(v as u32) {
                to[fill[w as usize] as usize] = v as u32;
                fill[w as usize] += 1;
            }
        }
        Csr { off, to }
    }

    /// The number of options of all vertices.
    fn len(&self) -> usize {
        self.to.len()
    }

    #[inline]
    fn get(&self, v: u32) -> &[u32] {
        &self.to[self.off[v as usize] as usize..self.off[v as usize + 1] as usize]
    }
}

/// A set of states as bits (one bit per state).
pub(crate) struct Bits {
    words: Vec<u64>,
}

impl Bits {
    fn new(n: usize) -> Bits {
        Bits {
            words: vec![0; n.div_ceil(64)],
        }
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 == 1
    }

    #[inline]
    fn set(&mut self, i: usize) {
        self.words[i >> 6] |= 1 << (i & 63);
    }

    fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// Complements every bit (the bits past the last state too; never read).
    fn invert(&mut self) {
        self.words.iter_mut().for_each(|w| *w = !*w);
    }
}

/// A counter of the moves left at a state, as narrow as the most moves allow.
trait Counter: Copy {
    const ZERO: Self;
    /// `c` must fit (the caller checked the most moves of any state).
    fn from_count(c: usize) -> Self;
    /// Subtracts one; true when it reaches zero.
    fn decrement(&mut self) -> bool;
}

impl Counter for u8 {
    const ZERO: u8 = 0;
    #[inline]
    fn from_count(c: usize) -> u8 {
        c as u8
    }
    #[inline]
    fn decrement(&mut self) -> bool {
        *self -= 1;
        *self == 0
    }
}

impl Counter for u32 {
    const ZERO: u32 = 0;
    #[inline]
    fn from_count(c: usize) -> u32 {
        c as u32
    }
    #[inline]
    fn decrement(&mut self) -> bool {
        *self -= 1;
        *self == 0
    }
}

/// The pair arena for `A - B`: the option lists of both graphs and their
/// reverses.
pub(crate) struct Arena {
    na: usize,
    nb: usize,
    a_left: Csr,
    a_right: Csr,
    b_left: Csr,
    b_right: Csr,
    ra_left: Csr,
    ra_right: Csr,
    rb_left: Csr,
    rb_right: Csr,
    mode: Mode,
}

/// One move: target state and whether it is marked.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    marked: bool,
}

impl Arena {
    pub(crate) fn new(a: &Game, b: &Game, mode: Mode) -> Result<Arena, LoopyError> {
        let states = 2u128 * a.len() as u128 * b.len() as u128;
        if states > MAX_PAIR_STATES as u128 {
            return Err(LoopyError::TooLarge {
                what: "comparison (pair states)",
                limit: MAX_PAIR_STATES,
            });
        }
        let (na, nb) = (a.len(), b.len());
        let a_left = Csr::from_lists(na, |v| a.left(v));
        let a_right = Csr::from_lists(na, |v| a.right(v));
        let b_left = Csr::from_lists(nb, |v| b.left(v));
        let b_right = Csr::from_lists(nb, |v| b.right(v));
        Ok(Arena {
            na,
            nb,
            ra_left: a_left.reversed(na),
            ra_right: a_right.reversed(na),
            rb_left: b_left.reversed(nb),
            rb_right: b_right.reversed(nb),
            a_left,
            a_right,
            b_left,
            b_right,
            mode,
        })
    }

    fn states(&self) -> usize {
        2 * self.na * self.nb
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

    /// Moves from state `(a, b, mover)`.
    #[inline]
    fn for_each_move_at(&self, a: u32, b: u32, mover: u32, mut f: impl FnMut(Edge)) {
        let (ma, mb) = (self.marked_a(), self.marked_b());
        let base_b = b as usize * 2;
        let nb2 = self.nb * 2;
        let (la, lb, next) = if mover == 0 {
            (self.a_left.get(a), self.b_right.get(b), 1)
        } else {
            (self.a_right.get(a), self.b_left.get(b), 0)
        };
        for &a2 in la {
            f(Edge {
                to: (a2 as usize * nb2 + base_b) as u32 + next,
                marked: ma,
            });
        }
        let base_a = a as usize * nb2;
        for &b2 in lb {
            f(Edge {
                to: (base_a + b2 as usize * 2) as u32 + next,
                marked: mb,
            });
        }
    }

    /// Moves into state `s`: (predecessor, marked).
    #[inline]
    fn for_each_pred(&self, s: u32, mut f: impl FnMut(Edge)) {
        let (a, b, mover) = self.split(s);
        let (ma, mb) = (self.marked_a(), self.marked_b());
        // Reached by a Left move (mover 1 now): Left in A, or Right in B; by a
        // Right move: Right in A, or Left in B.
        let (ra, rb, prev) = if mover == 1 {
            (self.ra_left.get(a), self.rb_right.get(b), 0)
        } else {
            (self.ra_right.get(a), self.rb_left.get(b), 1)
        };
        for &a0 in ra {
            f(Edge {
                to: self.id(a0, b, prev),
                marked: ma,
            });
        }
        for &b0 in rb {
            f(Edge {
                to: self.id(a, b0, prev),
                marked: mb,
            });
        }
    }

    /// For every state, whether Left wins (survives) from it.
    pub(crate) fn solve(&self) -> Result<Bits, LoopyError> {
        Ok(self.solve_watching(&[], None)?.0)
    }

    /// Whether Left wins from every state of `watch`, stopping as soon as one
    /// is found lost.
    pub(crate) fn wins_from_all(&self, watch: &[u32]) -> Result<bool, LoopyError> {
        Ok(self.solve_watching(watch, None)?.1)
    }

    /// The most moves from one state: a bound on the counters.
    fn max_moves(&self) -> usize {
        let most = |c: &Csr| {
            (0..c.off.len().saturating_sub(1))
                .map(|v| c.get(v as u32).len())
                .max()
                .unwrap_or(0)
        };
        (most(&self.a_left) + most(&self.b_right)).max(most(&self.a_right) + most(&self.b_left))
    }

    /// Solves; with watched states, stops early when one is found lost (the
    /// table is then incomplete). Returns the table and whether every watched
    /// state is won (false when none is watched). Each round is charged to the work budget
    /// ([`crate::work`]): the pair states and pair moves it visits.
    /// With `strategy`, also records a winning move of Right at each state he
    /// wins with Right to move: the state it leads to.
    ///
    /// The solve is bound by memory: most moves read a state far from the
    /// current one. So the two sets are bit sets and the move counters are
    /// bytes when every state has fewer than 256 moves: 1.25 bytes a state
    /// instead of 6 (a byte per flag, a word per counter), 35 MB instead of
    /// 166 MB for the 27.7 million pair states of the 3,723-vertex component of
    /// even revivals at `n = 10`).
    fn solve_watching(
        &self,
        watch: &[u32],
        strategy: Option<&mut Vec<u32>>,
    ) -> Result<(Bits, bool), LoopyError> {
        if self.max_moves() < 256 {
            self.solve_counting::<u8>(watch, strategy)
        } else {
            self.solve_counting::<u32>(watch, strategy)
        }
    }

    fn solve_counting<C: Counter>(
        &self,
        watch: &[u32],
        mut strategy: Option<&mut Vec<u32>>,
    ) -> Result<(Bits, bool), LoopyError> {
        let round_steps = self.states() as u64
            + 2 * (self.a_left.len() + self.a_right.len()) as u64 * self.nb as u64
            + 2 * (self.b_left.len() + self.b_right.len()) as u64 * self.na as u64;
        let n = self.states();
        // Right's winning region, grown round by round.
        let mut lost = Bits::new(n);
        let mut in_y = Bits::new(n);
        let mut count = vec![C::ZERO; n];
        let mut stack: Vec<u32> = Vec::new();
        loop {
            crate::work::charge(round_steps)?;
            // Y: states from which Left can force one more marked move (or Right is
            // stuck), within the states not lost.
            in_y.clear();
            stack.clear();
            for a in 0..self.na as u32 {
                for b in 0..self.nb as u32 {
                    let s = self.id(a, b, 0);
                    if !lost.get(s as usize) {
                        let mut good = false;
                        self.for_each_move_at(a, b, 0, |e| {
                            if e.marked && !lost.get(e.to as usize) {
                                good = true;
                            }
                        });
                        if good {
                            in_y.set(s as usize);
                            stack.push(s);
                        }
                    }
                    let s = s + 1;
                    if !lost.get(s as usize) {
                        // Right's moves all stay among states not lost (otherwise
                        // the state would be lost): count the unmarked ones.
                        let mut c = 0;
                        self.for_each_move_at(a, b, 1, |e| {
                            if !e.marked {
                                c += 1;
                            }
                        });
                        count[s as usize] = C::from_count(c);
                        if c == 0 {
                            in_y.set(s as usize);
                            stack.push(s);
                        }
                    }
                }
            }
            while let Some(t) = stack.pop() {
                self.for_each_pred(t, |e| {
                    let p = e.to as usize;
                    if e.marked || lost.get(p) || in_y.get(p) {
                        return;
                    }
                    if p & 1 == 0 || count[p].decrement() {
                        in_y.set(p);
                        stack.push(p as u32);
                    }
                });
            }
            // X = the rest: Right wins there. Add Right's attractor of X. First
            // count Left's moves to states not lost before this round.
            for a in 0..self.na as u32 {
                for b in 0..self.nb as u32 {
                    let s = self.id(a, b, 0) as usize;
                    if lost.get(s) {
                        continue;
                    }
                    let mut c = 0;
                    self.for_each_move_at(a, b, 0, |e| {
                        if !lost.get(e.to as usize) {
                            c += 1;
                        }
                    });
                    count[s] = C::from_count(c);
                }
            }
            if watch
                .iter()
                .any(|&w| !lost.get(w as usize) && !in_y.get(w as usize))
            {
                return Ok((Bits::new(0), false));
            }
            stack.clear();
            for s in 0..n {
                if !lost.get(s) && !in_y.get(s) {
                    lost.set(s);
                    stack.push(s as u32);
                    if let Some(strategy) = strategy.as_deref_mut() {
                        if s & 1 == 1 {
                            // Right keeps Left from one more marked move: an
                            // unmarked move out of Y.
                            let (a, b, _) = self.split(s as u32);
                            self.for_each_move_at(a, b, 1, |e| {
                                if !e.marked && !in_y.get(e.to as usize) {
                                    strategy[s] = e.to;
                                }
                            });
                        }
                    }
                }
            }
            if stack.is_empty() {
                break;
            }
            // Right states with a move into the newly lost set, Left states left
            // with no move outside it.
            while let Some(t) = stack.pop() {
                self.for_each_pred(t, |e| {
                    let p = e.to as usize;
                    if lost.get(p) {
                        return;
                    }
                    if p & 1 == 1 {
                        lost.set(p);
                        stack.push(p as u32);
                        if let Some(strategy) = strategy.as_deref_mut() {
                            strategy[p] = t;
                        }
                    } else if count[p].decrement() {
                        lost.set(p);
                        stack.push(p as u32);
                    }
                });
            }
            if watch.iter().any(|&w| lost.get(w as usize)) {
                return Ok((Bits::new(0), false));
            }
        }
        let won = !watch.is_empty() && watch.iter().all(|&w| !lost.get(w as usize));
        lost.invert();
        Ok((lost, won))
    }

    /// Whether Left wins from `(a, b)` with Right to move: `A ≥ B` at those
    /// vertices.
    pub(crate) fn right_to_move(&self, win: &Bits, a: u32, b: u32) -> bool {
        win.get(self.id(a, b, 1) as usize)
    }
}

/// `A ≥ B` at their start vertices, in the given mode (see the module
/// documentation). Errors when the pair states exceed [`MAX_PAIR_STATES`].
pub fn geq(a: &Game, b: &Game, mode: Mode) -> Result<bool, LoopyError> {
    let a = a.reachable();
    let b = b.reachable();
    let arena = Arena::new(&a, &b, mode)?;
    arena.wins_from_all(&[arena.id(a.start(), b.start(), 1)])
}

/// `A ≤ B` at their start vertices.
pub fn leq(a: &Game, b: &Game, mode: Mode) -> Result<bool, LoopyError> {
    geq(b, a, mode)
}

/// `A ≥ B` with `A` started at `x` and `B` at `y`, for every pair `(x, y)` of
/// `pairs` (one solve of the whole pair game).
pub(crate) fn pairs_geq(
    a: &Game,
    b: &Game,
    mode: Mode,
    pairs: &[(u32, u32)],
) -> Result<Vec<bool>, LoopyError> {
    let arena = Arena::new(a, b, mode)?;
    let win = arena.solve()?;
    Ok(pairs
        .iter()
        .map(|&(x, y)| arena.right_to_move(&win, x, y))
        .collect())
}

/// Whether `A ≥ B` with `A` started at `x` and `B` at `y` for every pair
/// `(x, y)` of `pairs`: the solve of [`pairs_geq`], stopped as soon as one pair
/// is found to fail.
pub(crate) fn pairs_all_geq(
    a: &Game,
    b: &Game,
    mode: Mode,
    pairs: &[(u32, u32)],
) -> Result<bool, LoopyError> {
    if pairs.is_empty() {
        return Ok(true);
    }
    let arena = Arena::new(a, b, mode)?;
    let watch: Vec<u32> = pairs.iter().map(|&(x, y)| arena.id(x, y, 1)).collect();
    arena.wins_from_all(&watch)
}

/// A move of one graph of a comparison: in `A` (true) or `B` (false), from, to.
pub(crate) type PairMove = (bool, u32, u32);

/// Like [`pairs_geq`], and where `A ≥ B` fails at a pair, the moves of `suspect`
/// that one winning strategy of Right plays from there: Right's moves in `A`
/// (`(true, from, to)`) and Left's moves in `B` (`(false, from, to)`, Right's
/// moves in `-B`). The side search reads from them which deleted moves Right
/// needs, so one solve tells it what to put back.
pub(crate) fn pairs_geq_witness(
    a: &Game,
    b: &Game,
    mode: Mode,
    pairs: &[(u32, u32)],
    suspect: &dyn Fn(bool, u32, u32) -> bool,
) -> Result<(Vec<bool>, Vec<PairMove>), LoopyError> {
    let arena = Arena::new(a, b, mode)?;
    let mut strategy = vec![u32::MAX; arena.states()];
    let (win, _) = arena.solve_watching(&[], Some(&mut strategy))?;
    let holds: Vec<bool> = pairs
        .iter()
        .map(|&(x, y)| arena.right_to_move(&win, x, y))
        .collect();
    let mut seen = vec![false; arena.states()];
    let mut stack: Vec<u32> = Vec::new();
    for (&(x, y), &ok) in pairs.iter().zip(&holds) {
        let s = arena.id(x, y, 1);
        if !ok && !seen[s as usize] {
            seen[s as usize] = true;
            stack.push(s);
        }
    }
    let mut used: Vec<PairMove> = Vec::new();
    while let Some(s) = stack.pop() {
        let (x, y, mover) = arena.split(s);
        let mut next: Vec<u32> = Vec::new();
        if mover == 1 {
            let t = strategy[s as usize];
            if t == u32::MAX {
                continue;
            }
            let (x2, y2, _) = arena.split(t);
            let in_a = y2 == y && arena.a_right.get(x).contains(&x2);
            let m = if in_a { (true, x, x2) } else { (false, y, y2) };
            if suspect(m.0, m.1, m.2) {
                used.push(m);
            }
            next.push(t);
        } else {
            arena.for_each_move_at(x, y, 0, |e| next.push(e.to));
        }
        for t in next {
            if !win.get(t as usize) && !seen[t as usize] {
                seen[t as usize] = true;
                stack.push(t);
            }
        }
    }
    used.sort_unstable();
    used.dedup();
    Ok((holds, used))
}

/// The classes of equal vertices read from an [`all_pairs`] table of `n`
/// vertices: each vertex's representative, the least vertex equal to it.
pub(crate) fn equal_classes(table: &[bool], n: usize) -> Vec<u32> {
    let mut rep: Vec<u32> = (0..n as u32).collect();
    for i in 0..n {
        if rep[i] != i as u32 {
            continue;
        }
        for j in i + 1..n {
            if rep[j] == j as u32 && table[i * n + j] && table[j * n + i] {
                rep[j] = i as u32;
            }
        }
    }
    rep
}

/// Every comparison between vertices of one graph: `table[i * n + j]` is
/// `G_i ≤ G_j` in the given mode.
pub fn all_pairs(g: &Game, mode: Mode) -> Result<Vec<bool>, LoopyError> {
    let arena = Arena::new(g, g, mode)?;
    let win = arena.solve()?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `-1 = { | 0 } ≥ 0` fails because of Right's move to 0, and the witness
    /// names that move; `1 = { 0 | } ≥ 0` holds and names nothing.
    #[test]
    fn witness_names_the_move_right_wins_with() {
        let minus_one = Game::new(vec![vec![], vec![]], vec![vec![1], vec![]], 0).unwrap();
        let zero = Game::zero();
        let any = |_: bool, _: u32, _: u32| true;
        let (holds, used) =
            pairs_geq_witness(&minus_one, &zero, Mode::Stopper, &[(0, 0)], &any).unwrap();
        assert_eq!(holds, vec![false]);
        assert_eq!(used, vec![(true, 0, 1)]);
        // Left's moves of the subtracted graph are Right's moves too: 0 ≥ 1 fails
        // by Right's move in -1, Left's move of 1 = { 0 | }.
        let one = minus_one.neg();
        let (holds, used) = pairs_geq_witness(&zero, &one, Mode::Stopper, &[(0, 0)], &any).unwrap();
        assert_eq!(holds, vec![false]);
        assert_eq!(used, vec![(false, 0, 1)]);
        let (holds, used) = pairs_geq_witness(&one, &zero, Mode::Stopper, &[(0, 0)], &any).unwrap();
        assert_eq!(holds, vec![true]);
        assert!(used.is_empty());
    }
}
