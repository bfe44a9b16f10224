//! Game graphs: a finite bigraph with a start vertex, and the operations on the
//! graph itself (negation, disjunctive sum, reachability, the stopper test,
//! outcomes by retrograde analysis, conversion to and from short games).

use chopsticks_cgt::{GameId, GameStore};

use crate::LoopyError;

/// The most vertices a game graph built by this crate may have (sums, unravelled
/// graphs, short games expanded into graphs). Beyond it operations return
/// [`LoopyError::TooLarge`].
pub const MAX_VERTICES: usize = 1 << 20;

/// The most vertices of a sum graph built by [`crate::Value::add`] or a
/// stopper's upsum (before simplification).
pub const MAX_SUM_VERTICES: usize = 1 << 16;

/// A loopy game: a finite graph whose vertices are positions, with a list of Left
/// options and a list of Right options per vertex, and a start vertex.
///
/// Option lists are kept sorted and without repetition. A vertex listing itself
/// as an option has a `pass` move. Vertices need not all be reachable from the
/// start; [`Game::reachable`] drops the others.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
    start: u32,
}

/// Who wins a play from one position with one player to move, when infinite play
/// is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// Left wins.
    Left,
    /// Right wins.
    Right,
    /// Neither can force a win: the play goes on for ever.
    Draw,
}

impl Winner {
    /// `"left"`, `"right"` or `"draw"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::Left => "left",
            Winner::Right => "right",
            Winner::Draw => "draw",
        }
    }
}

/// Which player is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Left.
    Left,
    /// Right.
    Right,
}

impl Game {
    /// A game from its option lists (`left[v]`, `right[v]` are the options of vertex
    /// `v`) and its start vertex. Option lists are sorted and deduplicated. Errors
    /// when the lists differ in length, a vertex is out of range, there is no
    /// vertex, or the graph is larger than [`MAX_VERTICES`].
    pub fn new(
        mut left: Vec<Vec<u32>>,
        mut right: Vec<Vec<u32>>,
        start: u32,
    ) -> Result<Game, LoopyError> {
        let n = left.len();
        if n != right.len() {
            return Err(LoopyError::InvalidGraph(format!(
                "{} Left option lists but {} Right option lists",
                n,
                right.len()
            )));
        }
        if n == 0 {
            return Err(LoopyError::InvalidGraph("no vertex".into()));
        }
        if n > MAX_VERTICES {
            return Err(LoopyError::TooLarge {
                what: "game graph",
                limit: MAX_VERTICES,
            });
        }
        if start as usize >= n {
            return Err(LoopyError::InvalidGraph(format!(
                "start vertex {start} out of range (0..{n})"
            )));
        }
        for lists in [&mut left, &mut right] {
            for list in lists.iter_mut() {
                if let Some(&bad) = list.iter().find(|&&w| w as usize >= n) {
                    return Err(LoopyError::InvalidGraph(format!(
                        "option {bad} out of range (0..{n})"
                    )));
                }
                list.sort_unstable();
                list.dedup();
            }
        }
        Ok(Game { left, right, start })
    }

    /// Builds without checks (the lists are valid, sorted and deduplicated).
    pub(crate) fn from_parts(left: Vec<Vec<u32>>, right: Vec<Vec<u32>>, start: u32) -> Game {
        debug_assert_eq!(left.len(), right.len());
        debug_assert!((start as usize) < left.len());
        Game { left, right, start }
    }

    /// Builds after sorting and deduplicating the lists (indices are valid).
    pub(crate) fn from_unsorted(
        mut left: Vec<Vec<u32>>,
        mut right: Vec<Vec<u32>>,
        start: u32,
    ) -> Game {
        for list in left.iter_mut().chain(right.iter_mut()) {
            list.sort_unstable();
            list.dedup();
        }
        Game::from_parts(left, right, start)
    }

    /// The game `0 = { | }`.
    pub fn zero() -> Game {
        Game::from_parts(vec![vec![]], vec![vec![]], 0)
    }

    /// `on = {pass | }`.
    pub fn on() -> Game {
        Game::from_parts(vec![vec![0]], vec![vec![]], 0)
    }

    /// `off = { | pass}`.
    pub fn off() -> Game {
        Game::from_parts(vec![vec![]], vec![vec![0]], 0)
    }

    /// `dud = {pass | pass}`.
    pub fn dud() -> Game {
        Game::from_parts(vec![vec![0]], vec![vec![0]], 0)
    }

    /// `over = {0 | pass}`.
    pub fn over() -> Game {
        Game::from_parts(vec![vec![1], vec![]], vec![vec![0], vec![]], 0)
    }

    /// `under = {pass | 0}`.
    pub fn under() -> Game {
        Game::from_parts(vec![vec![0], vec![]], vec![vec![1], vec![]], 0)
    }

    /// Number of vertices (reachable or not).
    pub fn len(&self) -> usize {
        self.left.len()
    }

    /// Always false: a game has at least its start vertex.
    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    /// The start vertex.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// The Left options of vertex `v` (sorted).
    pub fn left(&self, v: u32) -> &[u32] {
        &self.left[v as usize]
    }

    /// The Right options of vertex `v` (sorted).
    pub fn right(&self, v: u32) -> &[u32] {
        &self.right[v as usize]
    }

    /// The options of `v` for `player`.
    pub fn options(&self, v: u32, player: Player) -> &[u32] {
        match player {
            Player::Left => self.left(v),
            Player::Right => self.right(v),
        }
    }

    /// Number of edges (Left and Right).
    pub fn edge_count(&self) -> usize {
        self.left.iter().chain(&self.right).map(Vec::len).sum()
    }

    /// The same graph with another start vertex (panics if out of range).
    pub fn with_start(&self, start: u32) -> Game {
        assert!((start as usize) < self.len(), "start vertex out of range");
        Game {
            left: self.left.clone(),
            right: self.right.clone(),
            start,
        }
    }

    pub(crate) fn into_lists(self) -> (Vec<Vec<u32>>, Vec<Vec<u32>>, u32) {
        (self.left, self.right, self.start)
    }

    /// The negative `-G`: Left and Right options swapped.
    pub fn neg(&self) -> Game {
        Game {
            left: self.right.clone(),
            right: self.left.clone(),
            start: self.start,
        }
    }

    /// The vertices reachable from the start, in breadth-first order (start first,
    /// then Left options before Right options, each list in its order).
    pub fn reachable_order(&self) -> Vec<u32> {
        self.reachable_from(&[self.start])
    }

    /// The subgraph reachable from the start, renumbered in breadth-first order
    /// (the start becomes vertex 0).
    pub fn reachable(&self) -> Game {
        let order = self.reachable_order();
        self.renumber(&order)
    }

    /// The graph restricted to `order` (which must be closed under options),
    /// vertex `order[i]` becoming `i`; the start must be in `order`.
    pub(crate) fn renumber(&self, order: &[u32]) -> Game {
        let mut index = vec![u32::MAX; self.len()];
        for (i, &v) in order.iter().enumerate() {
            index[v as usize] = i as u32;
        }
        let map = |list: &Vec<u32>| -> Vec<u32> {
            let mut out: Vec<u32> = list.iter().map(|&w| index[w as usize]).collect();
            debug_assert!(out.iter().all(|&w| w != u32::MAX));
            out.sort_unstable();
            out
        };
        let left = order.iter().map(|&v| map(&self.left[v as usize])).collect();
        let right = order
            .iter()
            .map(|&v| map(&self.right[v as usize]))
            .collect();
        Game {
            left,
            right,
            start: index[self.start as usize],
        }
    }

    /// For every vertex, whether it can reach one of `targets` by moves of
    /// either player (the targets themselves included).
    pub(crate) fn reaching(&self, targets: &[u32]) -> Vec<bool> {
        let mut seen = vec![false; self.len()];
        let mut stack: Vec<u32> = Vec::new();
        for &t in targets {
            if !std::mem::replace(&mut seen[t as usize], true) {
                stack.push(t);
            }
        }
        let back = [self.reverse(Player::Left), self.reverse(Player::Right)];
        while let Some(w) = stack.pop() {
            for &v in back[0][w as usize].iter().chain(&back[1][w as usize]) {
                if !std::mem::replace(&mut seen[v as usize], true) {
                    stack.push(v);
                }
            }
        }
        seen
    }

    /// The quotient by bisimilarity: vertices whose unfoldings are the same tree
    /// (the same Left and Right option classes, recursively) become one vertex.
    /// The game is unchanged (not just its value), so no check is needed. The
    /// result is reachable from its start.
    pub fn bisimulation_quotient(&self) -> Game {
        let (class, count) = self.bisimulation_classes();
        self.quotient(&class, count).reachable()
    }

    /// The classes of bisimilar vertices (numbered `0..count`) and their count,
    /// by partition refinement from the single class.
    pub(crate) fn bisimulation_classes(&self) -> (Vec<u32>, usize) {
        let n = self.len();
        let mut class = vec![0u32; n];
        let mut classes = 1usize;
        let mut signature: std::collections::HashMap<(u32, Vec<u32>, Vec<u32>), u32> =
            std::collections::HashMap::with_capacity(n);
        loop {
            signature.clear();
            let mut next = vec![0u32; n];
            for v in 0..n {
                let map = |list: &Vec<u32>| -> Vec<u32> {
                    let mut out: Vec<u32> = list.iter().map(|&w| class[w as usize]).collect();
                    out.sort_unstable();
                    out.dedup();
                    out
                };
                let key = (class[v], map(&self.left[v]), map(&self.right[v]));
                let fresh = signature.len() as u32;
                next[v] = *signature.entry(key).or_insert(fresh);
            }
            class = next;
            // Refinement only splits classes: an unchanged count is the fixpoint.
            if signature.len() == classes {
                return (class, classes);
            }
            classes = signature.len();
        }
    }

    /// The graph with vertex `v` sent to `class[v]` (classes `0..count`), each
    /// class taking the options of one of its vertices, mapped. Exact only when
    /// vertices of a class have the same mapped options (a bisimulation).
    pub(crate) fn quotient(&self, class: &[u32], count: usize) -> Game {
        let mut left = vec![Vec::new(); count];
        let mut right = vec![Vec::new(); count];
        let mut done = vec![false; count];
        for v in 0..self.len() {
            let c = class[v] as usize;
            if done[c] {
                continue;
            }
            done[c] = true;
            left[c] = self.left[v].iter().map(|&w| class[w as usize]).collect();
            right[c] = self.right[v].iter().map(|&w| class[w as usize]).collect();
        }
        Game::from_unsorted(left, right, class[self.start as usize])
    }

    /// The vertices reachable from any of `roots`, in breadth-first order.
    pub(crate) fn reachable_from(&self, roots: &[u32]) -> Vec<u32> {
        let mut seen = vec![false; self.len()];
        let mut order = Vec::new();
        for &r in roots {
            if !seen[r as usize] {
                seen[r as usize] = true;
                order.push(r);
            }
        }
        let mut i = 0;
        while i < order.len() {
            let v = order[i] as usize;
            i += 1;
            for &w in self.left[v].iter().chain(&self.right[v]) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    order.push(w);
                }
            }
        }
        order
    }

    /// Lists of predecessors: `rev[w]` holds every `v` with `w` among the options
    /// of `v` for `player`.
    pub(crate) fn reverse(&self, player: Player) -> Vec<Vec<u32>> {
        let mut rev = vec![Vec::new(); self.len()];
        let lists = match player {
            Player::Left => &self.left,
            Player::Right => &self.right,
        };
        for (v, list) in lists.iter().enumerate() {
            for &w in list {
                rev[w as usize].push(v as u32);
            }
        }
        rev
    }

    /// The disjunctive sum `G + H`: the product graph restricted to the pairs
    /// reachable from the pair of start vertices. Errors past `max_vertices`
    /// reachable pairs (or [`MAX_VERTICES`]).
    pub fn sum(&self, other: &Game, max_vertices: usize) -> Result<Game, LoopyError> {
        let limit = max_vertices.min(MAX_VERTICES);
        let nb = other.len() as u64;
        let total = self.len() as u64 * nb;
        // Pair -> new index: a flat table when the product is small, a sorted
        // search structure otherwise.
        let dense = total <= (1 << 24);
        let mut table: Vec<u32> = if dense {
            vec![u32::MAX; total as usize]
        } else {
            Vec::new()
        };
        let mut sparse: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut left: Vec<Vec<u32>> = Vec::new();
        let mut right: Vec<Vec<u32>> = Vec::new();
        let too_large = || LoopyError::TooLarge { what: "sum", limit };
        let mut lookup = |a: u32, b: u32, pairs: &mut Vec<(u32, u32)>| -> Result<u32, LoopyError> {
            let key = a as u64 * nb + b as u64;
            let slot = if dense {
                table[key as usize]
            } else {
                sparse.get(&key).copied().unwrap_or(u32::MAX)
            };
            if slot != u32::MAX {
                return Ok(slot);
            }
            if pairs.len() >= limit {
                return Err(too_large());
            }
            let id = pairs.len() as u32;
            pairs.push((a, b));
            if dense {
                table[key as usize] = id;
            } else {
                sparse.insert(key, id);
            }
            Ok(id)
        };
        lookup(self.start, other.start, &mut pairs)?;
        let mut i = 0;
        while i < pairs.len() {
            let (a, b) = pairs[i];
            let mut l = Vec::new();
            let mut r = Vec::new();
            for &a2 in self.left(a) {
                l.push(lookup(a2, b, &mut pairs)?);
            }
            for &b2 in other.left(b) {
                l.push(lookup(a, b2, &mut pairs)?);
            }
            for &a2 in self.right(a) {
                r.push(lookup(a2, b, &mut pairs)?);
            }
            for &b2 in other.right(b) {
                r.push(lookup(a, b2, &mut pairs)?);
            }
            left.push(l);
            right.push(r);
            i += 1;
        }
        Ok(Game::from_unsorted(left, right, 0))
    }

    /// True when no infinite *alternating* play starts anywhere in the graph: no
    /// cycle in the graph of states `(vertex, player to move)`, where a move by
    /// the player to move leads to the option with the other player to move.
    /// Checked on the vertices reachable from the start (a stopper).
    pub fn is_stopper(&self) -> bool {
        self.reachable().alternating_cycle_states().is_empty()
    }

    /// States `(v, mover)` (as `2v + mover`, mover 0 = Left) that lie on or lead to
    /// an alternating cycle, over the whole graph; empty for a stopper.
    pub(crate) fn alternating_cycle_states(&self) -> Vec<u32> {
        // Kahn's algorithm on the state graph: peel states with no successor left.
        let n = self.len();
        let mut out_deg = vec![0u32; 2 * n];
        for v in 0..n {
            out_deg[2 * v] = self.left[v].len() as u32;
            out_deg[2 * v + 1] = self.right[v].len() as u32;
        }
        let rev_l = self.reverse(Player::Left);
        let rev_r = self.reverse(Player::Right);
        let mut stack: Vec<u32> = (0..2 * n as u32)
            .filter(|&s| out_deg[s as usize] == 0)
            .collect();
        let mut done = vec![false; 2 * n];
        while let Some(s) = stack.pop() {
            done[s as usize] = true;
            let v = s / 2;
            // Predecessors of (v, mover m): (u, other) with v an option of u for other.
            let preds = if s % 2 == 0 {
                // v with Left to move: reached by a Right move.
                rev_r[v as usize]
                    .iter()
                    .map(|&u| 2 * u + 1)
                    .collect::<Vec<_>>()
            } else {
                rev_l[v as usize].iter().map(|&u| 2 * u).collect::<Vec<_>>()
            };
            for p in preds {
                out_deg[p as usize] -= 1;
                if out_deg[p as usize] == 0 {
                    stack.push(p);
                }
            }
        }
        (0..2 * n as u32).filter(|&s| !done[s as usize]).collect()
    }

    /// True when the graph reachable from the start has no cycle at all (a short
    /// game).
    pub fn is_loop_free(&self) -> bool {
        let g = self.reachable();
        g.topological_order().is_some()
    }

    /// The vertices with every option before the vertex itself, or `None` when
    /// there is a cycle.
    pub(crate) fn topological_order(&self) -> Option<Vec<u32>> {
        let order = self.peel_order();
        (order.len() == self.len()).then_some(order)
    }

    /// The vertices from which no cycle is reachable (the loop-free part), each
    /// after all of its options: peeled from the vertices without options.
    fn peel_order(&self) -> Vec<u32> {
        let n = self.len();
        let mut remaining: Vec<u32> = (0..n)
            .map(|v| (self.left[v].len() + self.right[v].len()) as u32)
            .collect();
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        for v in 0..n {
            for &w in self.left[v].iter().chain(&self.right[v]) {
                preds[w as usize].push(v as u32);
            }
        }
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&v| remaining[v as usize] == 0)
            .collect();
        let mut i = 0;
        while i < order.len() {
            let w = order[i];
            i += 1;
            for &v in &preds[w as usize] {
                remaining[v as usize] -= 1;
                if remaining[v as usize] == 0 {
                    order.push(v);
                }
            }
        }
        order
    }

    /// Who wins from the start with `first` to move, infinite play being a draw:
    /// retrograde analysis on the states `(vertex, player to move)`.
    pub fn winner(&self, first: Player) -> Winner {
        let table = self.winners();
        let s = 2 * self.start as usize + usize::from(first == Player::Right);
        table[s]
    }

    /// Who wins from every state `2v + mover` (mover 0 = Left), infinite play a
    /// draw.
    pub fn winners(&self) -> Vec<Winner> {
        let n = self.len();
        // For each state: None = unknown; counters of options not yet known to be
        // wins for the opponent.
        let mut result: Vec<Option<Winner>> = vec![None; 2 * n];
        let mut count = vec![0u32; 2 * n];
        let rev_l = self.reverse(Player::Left);
        let rev_r = self.reverse(Player::Right);
        let mut queue = Vec::new();
        for v in 0..n {
            count[2 * v] = self.left[v].len() as u32;
            count[2 * v + 1] = self.right[v].len() as u32;
            if count[2 * v] == 0 {
                result[2 * v] = Some(Winner::Right);
                queue.push(2 * v as u32);
            }
            if count[2 * v + 1] == 0 {
                result[2 * v + 1] = Some(Winner::Left);
                queue.push(2 * v as u32 + 1);
            }
        }
        while let Some(s) = queue.pop() {
            let v = (s / 2) as usize;
            let w = result[s as usize].expect("resolved");
            let (preds, mover) = if s % 2 == 0 {
                (&rev_r[v], 1u32)
            } else {
                (&rev_l[v], 0u32)
            };
            let mover_player = if mover == 0 {
                Winner::Left
            } else {
                Winner::Right
            };
            for &u in preds {
                let p = (2 * u + mover) as usize;
                if result[p].is_some() {
                    continue;
                }
                if w == mover_player {
                    result[p] = Some(w);
                    queue.push(p as u32);
                } else {
                    count[p] -= 1;
                    if count[p] == 0 {
                        result[p] = Some(w);
                        queue.push(p as u32);
                    }
                }
            }
        }
        result
            .into_iter()
            .map(|r| r.unwrap_or(Winner::Draw))
            .collect()
    }

    /// Who wins from the start with `first` to move when every infinite play is won
    /// by `infinite` (the outcome of the onside, `Player::Left`, or of the offside,
    /// `Player::Right`).
    pub fn winner_with_infinite(&self, first: Player, infinite: Player) -> Player {
        let w = self.winners()[2 * self.start as usize + usize::from(first == Player::Right)];
        match w {
            Winner::Left => Player::Left,
            Winner::Right => Player::Right,
            Winner::Draw => infinite,
        }
    }

    /// The graph of a short game of `store`: one vertex per distinct subgame, the
    /// start first. Errors past `max_vertices`.
    pub fn from_short(
        store: &GameStore,
        g: GameId,
        max_vertices: usize,
    ) -> Result<Game, LoopyError> {
        let mut index: std::collections::HashMap<GameId, u32> = std::collections::HashMap::new();
        let mut ids = vec![g];
        index.insert(g, 0);
        let mut left = Vec::new();
        let mut right = Vec::new();
        let mut i = 0;
        while i < ids.len() {
            let h = ids[i];
            i += 1;
            let mut sides = [Vec::new(), Vec::new()];
            for (k, list) in [store.left_options(h), store.right_options(h)]
                .into_iter()
                .enumerate()
            {
                for &o in list {
                    let id = match index.get(&o) {
                        Some(&id) => id,
                        None => {
                            if ids.len() >= max_vertices.min(MAX_VERTICES) {
                                return Err(LoopyError::TooLarge {
                                    what: "short game as a graph",
                                    limit: max_vertices.min(MAX_VERTICES),
                                });
                            }
                            let id = ids.len() as u32;
                            ids.push(o);
                            index.insert(o, id);
                            id
                        }
                    };
                    sides[k].push(id);
                }
            }
            let [l, r] = sides;
            left.push(l);
            right.push(r);
        }
        Ok(Game::from_unsorted(left, right, 0))
    }

    /// The short game of a loop-free graph in `store` (its canonical form), or
    /// `None` when a cycle is reachable from the start.
    pub fn to_short(&self, store: &mut GameStore) -> Option<GameId> {
        let ids = self.short_ids(store)?;
        Some(ids[self.start as usize].expect("start reachable"))
    }

    /// The canonical short game of every vertex from which no cycle is reachable
    /// (`None` for the others).
    pub(crate) fn short_ids_partial(&self, store: &mut GameStore) -> Vec<Option<GameId>> {
        // Options come first in the peel order of the loop-free part.
        let mut ids: Vec<Option<GameId>> = vec![None; self.len()];
        for v in self.peel_order() {
            let vi = v as usize;
            let l: Vec<GameId> = self.left[vi]
                .iter()
                .map(|&w| ids[w as usize].expect("done"))
                .collect();
            let r: Vec<GameId> = self.right[vi]
                .iter()
                .map(|&w| ids[w as usize].expect("done"))
                .collect();
            ids[vi] = Some(store.game(&l, &r));
        }
        ids
    }

    fn short_ids(&self, store: &mut GameStore) -> Option<Vec<Option<GameId>>> {
        let ids = self.reachable_short(store);
        ids[self.start as usize]?;
        Some(ids)
    }

    fn reachable_short(&self, store: &mut GameStore) -> Vec<Option<GameId>> {
        self.short_ids_partial(store)
    }
}
