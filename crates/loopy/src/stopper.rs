//! Stoppers in canonical (simplest) form.

use std::hash::{Hash, Hasher};

use chopsticks_cgt::GameStore;

use crate::compare::{self, Mode};
use crate::game::{Game, Player, MAX_VERTICES};
use crate::LoopyError;

/// The most vertices a graph may have to be simplified (the all-pairs table has
/// `2 · n²` states).
pub const MAX_SIMPLIFY_VERTICES: usize = 8192;

/// Bound on the leaves of the individualisation search of the canonical vertex
/// order. Rigid graphs (every canonical stopper) rarely need more than one; past
/// the bound the first order found is used (still a valid graph, but two
/// isomorphic graphs might then encode differently).
const MAX_ORDER_LEAVES: usize = 1024;

/// A stopper in canonical simplest form: no dominated or reversible options
/// anywhere, no two vertices equal, every vertex reachable from the start, and
/// the vertices in a canonical order, so that equal stoppers have identical
/// graphs. Equality and hashing use the canonical encoding ([`Stopper::encoding`]).
#[derive(Clone)]
pub struct Stopper {
    game: Game,
    code: Vec<u32>,
    hash: u64,
}

impl PartialEq for Stopper {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.code == other.code
    }
}

impl Eq for Stopper {}

impl Hash for Stopper {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// FNV-1a, 64 bits, over the words of an encoding (stable across platforms and
/// Rust versions).
fn fnv(code: &[u32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &w in code {
        for byte in w.to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

impl Stopper {
    /// The canonical form of a stopper graph. Loop-free graphs go through the short
    /// game engine (`chopsticks-cgt`), so they get exactly its canonical forms.
    /// Errors when the graph is not a stopper or is too large.
    pub fn new(game: &Game) -> Result<Stopper, LoopyError> {
        let g = game.reachable();
        if g.topological_order().is_some() {
            let mut store = GameStore::new();
            let id = g.to_short(&mut store).expect("loop-free");
            let short = Game::from_short(&store, id, MAX_VERTICES)?;
            return Ok(Stopper::from_canonical_graph(&short));
        }
        Stopper::new_generic(&g)
    }

    /// The canonical form computed by the loopy simplification even for loop-free
    /// graphs (for checking it against the short game engine).
    pub fn new_generic(game: &Game) -> Result<Stopper, LoopyError> {
        let g = game.reachable();
        if !g.alternating_cycle_states().is_empty() {
            return Err(LoopyError::NotStopper);
        }
        let simple = simplify(&g)?;
        Ok(Stopper::from_canonical_graph(&simple))
    }

    /// The canonical forms of several vertices of one stopper graph, each taken
    /// as the start: the same stoppers as [`Stopper::new`] on each (both are
    /// the simplest form, unique up to isomorphism; the property test
    /// `stoppers_of_many_vertices_at_once` compares them), for the cost of
    /// about one. The loop-free vertices go through the short game
    /// engine together (one store); the others share one simplification (one
    /// all-pairs comparison of the graph instead of one per vertex), after
    /// which each vertex's part is read off. A vertex whose part of the jointly
    /// simplified graph is not in simplest form (two equal vertices left
    /// unfused, because a fusion elsewhere in the graph was refused) is
    /// simplified on its own. Errors when the graph is not a stopper.
    pub fn new_many(game: &Game, starts: &[u32]) -> Result<Vec<Stopper>, LoopyError> {
        if starts.iter().any(|&t| t as usize >= game.len()) {
            return Err(LoopyError::InvalidGraph("start vertex out of range".into()));
        }
        if starts.len() < 2 {
            return starts
                .iter()
                .map(|&t| Stopper::new(&game.with_start(t)))
                .collect();
        }
        // The part reachable from the starts, renumbered.
        let order = game.reachable_from(starts);
        let mut index = vec![u32::MAX; game.len()];
        for (i, &v) in order.iter().enumerate() {
            index[v as usize] = i as u32;
        }
        let g = game.with_start(starts[0]).renumber(&order);
        let starts: Vec<u32> = starts.iter().map(|&t| index[t as usize]).collect();
        if !g.alternating_cycle_states().is_empty() {
            return Err(LoopyError::NotStopper);
        }
        let mut found: Vec<Option<Stopper>> = vec![None; starts.len()];
        // Loop-free vertices: the short game engine's canonical forms.
        let mut store = GameStore::new();
        let short = g.short_ids_partial(&mut store);
        for (k, &t) in starts.iter().enumerate() {
            if let Some(id) = short[t as usize] {
                let graph = Game::from_short(&store, id, MAX_VERTICES)?;
                found[k] = Some(Stopper::from_canonical_graph(&graph));
            }
        }
        let loopy: Vec<usize> = (0..starts.len()).filter(|&k| found[k].is_none()).collect();
        if loopy.len() == 1 || (!loopy.is_empty() && g.len() > MAX_SIMPLIFY_VERTICES) {
            for &k in &loopy {
                found[k] = Some(Stopper::new(&g.with_start(starts[k]))?);
            }
        } else if !loopy.is_empty() {
            let n = g.len();
            let le = compare::all_pairs(&g, Mode::Stopper)?;
            let loopy_starts: Vec<u32> = loopy.iter().map(|&k| starts[k]).collect();
            let (simple, moved, complete) = simplify_with(&g, &loopy_starts, &le);
            let class = compare::equal_classes(&le, n);
            let mut stamp = vec![usize::MAX; n];
            for (&k, &t) in loopy.iter().zip(&moved) {
                let part = simple.reachable_from(&[t]);
                let fused = part.iter().all(|&v| {
                    let c = class[v as usize] as usize;
                    let fresh = stamp[c] != k;
                    stamp[c] = k;
                    fresh
                });
                found[k] = Some(if complete && fused {
                    Stopper::from_canonical_graph(&simple.with_start(t))
                } else {
                    Stopper::new(&g.with_start(starts[k]))?
                });
            }
        }
        Ok(found
            .into_iter()
            .map(|s| s.expect("every start done"))
            .collect())
    }

    /// Wraps a graph already in simplest form (only reordered).
    pub(crate) fn from_canonical_graph(g: &Game) -> Stopper {
        let g = g.reachable();
        let order = canonical_order(&g);
        let game = g.renumber(&order);
        let code = encode(&game);
        let hash = fnv(&code);
        Stopper { game, code, hash }
    }

    /// The canonical graph (vertex 0 is not necessarily the start; see
    /// [`Game::start`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The canonical encoding: vertex count, start, then per vertex its Left and
    /// Right option lists (each preceded by its length). Equal stoppers, and only
    /// they, have equal encodings.
    pub fn encoding(&self) -> &[u32] {
        &self.code
    }

    /// A 64-bit hash of the encoding (FNV-1a), stable across runs and platforms.
    pub fn hash64(&self) -> u64 {
        self.hash
    }

    /// The stopper `0`.
    pub fn zero() -> Stopper {
        Stopper::from_canonical_graph(&Game::zero())
    }

    /// `on = {pass | }`.
    pub fn on() -> Stopper {
        Stopper::from_canonical_graph(&Game::on())
    }

    /// `off = { | pass}`.
    pub fn off() -> Stopper {
        Stopper::from_canonical_graph(&Game::off())
    }

    /// `over = {0 | pass}`.
    pub fn over() -> Stopper {
        Stopper::from_canonical_graph(&Game::over())
    }

    /// `under = {pass | 0}`.
    pub fn under() -> Stopper {
        Stopper::from_canonical_graph(&Game::under())
    }

    /// True when the stopper is a short game (no cycle).
    pub fn is_loop_free(&self) -> bool {
        self.game.topological_order().is_some()
    }

    /// The negative (canonical forms are closed under negation).
    pub fn neg(&self) -> Stopper {
        Stopper::from_canonical_graph(&self.game.neg())
    }

    /// `self ≤ other`: Left, moving second in `other - self`, survives.
    ///
    /// Panics when `2 · |self| · |other|` exceeds [`compare::MAX_PAIR_STATES`]
    /// (vertex counts of the canonical graphs); [`Stopper::try_le`] returns an
    /// error instead.
    pub fn le(&self, other: &Stopper) -> bool {
        compare::leq(&self.game, &other.game, Mode::Stopper)
            .expect("canonical stoppers are within the comparison bound")
    }

    /// `self ≥ other`.
    pub fn ge(&self, other: &Stopper) -> bool {
        other.le(self)
    }

    /// Like [`Stopper::le`], with an error instead of a panic on size.
    pub fn try_le(&self, other: &Stopper) -> Result<bool, LoopyError> {
        compare::leq(&self.game, &other.game, Mode::Stopper)
    }

    /// The vertex `v` of the canonical graph as a stopper of its own.
    pub(crate) fn subgame(&self, v: u32) -> Stopper {
        Stopper::from_canonical_graph(&self.game.with_start(v))
    }
}

/// The simplest form of a stopper graph (reachable, packed; not yet in canonical
/// order): fusion of equal vertices, deletion of dominated options, bypassing of
/// reversible options (only when the result stays a stopper), repeated until
/// nothing changes.
pub(crate) fn simplify(g: &Game) -> Result<Game, LoopyError> {
    let g = g.reachable();
    let n = g.len();
    if n > MAX_SIMPLIFY_VERTICES {
        return Err(LoopyError::TooLarge {
            what: "stopper to simplify",
            limit: MAX_SIMPLIFY_VERTICES,
        });
    }
    let le = compare::all_pairs(&g, Mode::Stopper)?;
    let (simple, _, _) = simplify_with(&g, &[g.start()], &le);
    Ok(simple.reachable())
}

/// The simplification of [`simplify`] for the part of `g` reachable from
/// `starts`, given the all-pairs stopper table `le` of `g`: the simplified
/// graph (same vertex numbers; vertices no start reaches any more are left in
/// place), where each start went (a fusion can move it), and whether the
/// domination and reversibility passes finished within their budget.
fn simplify_with(g: &Game, starts: &[u32], le: &[bool]) -> (Game, Vec<u32>, bool) {
    let n = g.len();
    let leq = |i: u32, j: u32| le[i as usize * n + j as usize];
    let (mut left, mut right, _) = g.clone().into_lists();
    let mut starts = starts.to_vec();
    let budget = 64 * (n + left.iter().chain(&right).map(Vec::len).sum::<usize>()) + 1024;
    let mut steps = 0usize;
    for _round in 0..8 {
        // Domination and reversibility, vertex by vertex, until stable.
        let mut changed = true;
        while changed && steps < budget {
            changed = false;
            for v in 0..n as u32 {
                for player in [Player::Left, Player::Right] {
                    steps += 1;
                    if prune(v, player, &mut left, &mut right, &leq) {
                        changed = true;
                    }
                    if steps < budget && bypass_one(v, player, &mut left, &mut right, &leq) {
                        changed = true;
                        steps += 1;
                    }
                }
            }
        }
        // Fusion of equal vertices reachable from the starts, class by class,
        // each kept only if it creates no alternating cycle.
        let reach =
            Game::from_parts(left.clone(), right.clone(), starts[0]).reachable_from(&starts);
        let mut fused_any = false;
        let mut done = vec![false; n];
        for (k, &a) in reach.iter().enumerate() {
            if done[a as usize] {
                continue;
            }
            let class: Vec<u32> = reach[k + 1..]
                .iter()
                .copied()
                .filter(|&b| !done[b as usize] && leq(a, b) && leq(b, a))
                .collect();
            done[a as usize] = true;
            if class.is_empty() {
                continue;
            }
            for &b in &class {
                done[b as usize] = true;
            }
            let redirect = |list: &Vec<u32>| -> Vec<u32> {
                let mut out: Vec<u32> = list
                    .iter()
                    .map(|&w| if class.contains(&w) { a } else { w })
                    .collect();
                out.sort_unstable();
                out.dedup();
                out
            };
            let new_left: Vec<Vec<u32>> = left.iter().map(redirect).collect();
            let new_right: Vec<Vec<u32>> = right.iter().map(redirect).collect();
            let new_starts: Vec<u32> = starts
                .iter()
                .map(|&t| if class.contains(&t) { a } else { t })
                .collect();
            let candidate = Game::from_parts(new_left, new_right, new_starts[0]);
            let order = candidate.reachable_from(&new_starts);
            if candidate
                .renumber(&order)
                .alternating_cycle_states()
                .is_empty()
            {
                let (l, r, _) = candidate.into_lists();
                left = l;
                right = r;
                starts = new_starts;
                fused_any = true;
            }
        }
        if !fused_any {
            break;
        }
    }
    let complete = steps < budget;
    (Game::from_parts(left, right, starts[0]), starts, complete)
}

/// Deletes the dominated options of `v` for `player`. True if any.
fn prune(
    v: u32,
    player: Player,
    left: &mut [Vec<u32>],
    right: &mut [Vec<u32>],
    leq: &impl Fn(u32, u32) -> bool,
) -> bool {
    let list = match player {
        Player::Left => &mut left[v as usize],
        Player::Right => &mut right[v as usize],
    };
    let before = list.len();
    let keep: Vec<u32> = list
        .iter()
        .copied()
        .filter(|&a| {
            // a is dropped when another option is better, or equal with a smaller
            // index (one of each class of equal options stays).
            !list.iter().any(|&b| {
                let (worse, better) = match player {
                    Player::Left => (leq(a, b), leq(b, a)),
                    Player::Right => (leq(b, a), leq(a, b)),
                };
                b != a && worse && (!better || b < a)
            })
        })
        .collect();
    *list = keep;
    list.len() != before
}

/// Bypasses one reversible option of `v` for `player`, if one can be bypassed
/// without creating an alternating cycle. True if done.
fn bypass_one(
    v: u32,
    player: Player,
    left: &mut [Vec<u32>],
    right: &mut [Vec<u32>],
    leq: &impl Fn(u32, u32) -> bool,
) -> bool {
    let options = match player {
        Player::Left => left[v as usize].clone(),
        Player::Right => right[v as usize].clone(),
    };
    for &a in &options {
        // A Left option a is reversible through a^R ≤ v; a Right option through
        // a^L ≥ v.
        let reversers: Vec<u32> = match player {
            Player::Left => right[a as usize]
                .iter()
                .copied()
                .filter(|&r| leq(r, v))
                .collect(),
            Player::Right => left[a as usize]
                .iter()
                .copied()
                .filter(|&l| leq(v, l))
                .collect(),
        };
        for r in reversers {
            let replacement: Vec<u32> = match player {
                Player::Left => left[r as usize].clone(),
                Player::Right => right[r as usize].clone(),
            };
            let mut new_list: Vec<u32> = options.iter().copied().filter(|&o| o != a).collect();
            new_list.extend(replacement.iter().copied());
            new_list.sort_unstable();
            new_list.dedup();
            let old = match player {
                Player::Left => std::mem::replace(&mut left[v as usize], new_list),
                Player::Right => std::mem::replace(&mut right[v as usize], new_list),
            };
            let added: Vec<u32> = replacement
                .iter()
                .copied()
                .filter(|w| !old.contains(w))
                .collect();
            if !creates_alternating_cycle(v, player, &added, left, right) {
                return true;
            }
            match player {
                Player::Left => left[v as usize] = old,
                Player::Right => right[v as usize] = old,
            }
        }
    }
    false
}

/// Whether one of the new edges `v → w` (`w` in `added`, a move by `player`) lies
/// on an alternating cycle: the state `(w, other player to move)` reaches
/// `(v, player to move)`.
fn creates_alternating_cycle(
    v: u32,
    player: Player,
    added: &[u32],
    left: &[Vec<u32>],
    right: &[Vec<u32>],
) -> bool {
    if added.is_empty() {
        return false;
    }
    let n = left.len();
    let target = 2 * v as usize + usize::from(player == Player::Right);
    let mut seen = vec![false; 2 * n];
    let other = usize::from(player == Player::Left);
    let mut stack: Vec<usize> = added.iter().map(|&w| 2 * w as usize + other).collect();
    for &s in &stack {
        seen[s] = true;
    }
    while let Some(s) = stack.pop() {
        if s == target {
            return true;
        }
        let u = s / 2;
        let (list, next_mover) = if s % 2 == 0 {
            (&left[u], 1)
        } else {
            (&right[u], 0)
        };
        for &w in list {
            let t = 2 * w as usize + next_mover;
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    false
}

/// A canonical order of the vertices of a packed graph (reachable from its
/// start): colour refinement from the start, then individualisation of the
/// smallest ambiguous class, keeping the order whose encoding is least.
pub(crate) fn canonical_order(g: &Game) -> Vec<u32> {
    let n = g.len();
    let mut colors: Vec<u32> = (0..n as u32).map(|v| u32::from(v != g.start())).collect();
    refine(g, &mut colors);
    let mut best: Option<(Vec<u32>, Vec<u32>)> = None;
    let mut leaves = 0usize;
    search(g, colors, &mut best, &mut leaves);
    best.expect("at least one leaf").1
}

fn search(g: &Game, colors: Vec<u32>, best: &mut Option<(Vec<u32>, Vec<u32>)>, leaves: &mut usize) {
    let n = g.len();
    let classes = colors.iter().copied().max().map_or(0, |m| m as usize + 1);
    if classes == n {
        *leaves += 1;
        let mut order = vec![0u32; n];
        for (v, &c) in colors.iter().enumerate() {
            order[c as usize] = v as u32;
        }
        let code = encode(&g.renumber(&order));
        if best.as_ref().is_none_or(|(b, _)| code < *b) {
            *best = Some((code, order));
        }
        return;
    }
    // The smallest colour shared by several vertices.
    let mut size = vec![0u32; classes];
    for &c in &colors {
        size[c as usize] += 1;
    }
    let target = (0..classes).find(|&c| size[c] > 1).expect("ambiguous") as u32;
    let members: Vec<u32> = (0..n as u32)
        .filter(|&v| colors[v as usize] == target)
        .collect();
    for m in members {
        if *leaves >= MAX_ORDER_LEAVES && best.is_some() {
            return;
        }
        let mut c2: Vec<u32> = colors
            .iter()
            .enumerate()
            .map(|(v, &c)| 2 * c + u32::from(v as u32 != m))
            .collect();
        refine(g, &mut c2);
        search(g, c2, best, leaves);
    }
}

/// Colour refinement: replace each colour by the rank of (colour, sorted Left
/// option colours, sorted Right option colours) until the number of classes is
/// stable. Colours stay ranks `0..classes`, an isomorphism-invariant function.
fn refine(g: &Game, colors: &mut [u32]) {
    let n = g.len();
    let mut classes = usize::MAX;
    // Normalise to ranks first.
    let mut distinct: Vec<u32> = colors.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    for c in colors.iter_mut() {
        *c = distinct.binary_search(c).expect("present") as u32;
    }
    loop {
        let count = colors.iter().copied().max().map_or(0, |m| m as usize + 1);
        if count == classes || count == n {
            break;
        }
        classes = count;
        let sigs: Vec<Vec<u32>> = (0..n as u32)
            .map(|v| {
                let mut l: Vec<u32> = g.left(v).iter().map(|&w| colors[w as usize]).collect();
                let mut r: Vec<u32> = g.right(v).iter().map(|&w| colors[w as usize]).collect();
                l.sort_unstable();
                r.sort_unstable();
                let mut s = Vec::with_capacity(l.len() + r.len() + 3);
                s.push(colors[v as usize]);
                s.push(l.len() as u32);
                s.extend(l);
                s.push(r.len() as u32);
                s.extend(r);
                s
            })
            .collect();
        let mut sorted: Vec<&Vec<u32>> = sigs.iter().collect();
        sorted.sort();
        sorted.dedup();
        for v in 0..n {
            colors[v] = sorted.binary_search(&&sigs[v]).expect("present") as u32;
        }
    }
}

/// The encoding of a graph in its current numbering.
pub(crate) fn encode(g: &Game) -> Vec<u32> {
    let mut code = Vec::with_capacity(2 + 2 * g.len() + g.edge_count());
    code.push(g.len() as u32);
    code.push(g.start());
    for v in 0..g.len() as u32 {
        code.push(g.left(v).len() as u32);
        code.extend_from_slice(g.left(v));
        code.push(g.right(v).len() as u32);
        code.extend_from_slice(g.right(v));
    }
    code
}
