//! Onsides and offsides of games that are not stoppers.
//!
//! The side of a game is found by editing its graph while its side value is
//! unchanged, until no alternating cycle is left; every edit is checked by
//! side comparisons with the graph before the edit ([`crate::compare`] in
//! [`Mode::Onside`] or [`Mode::Offside`]), so a stopper found this way *is* the
//! side. Before any edit, bisimilar vertices (the same game) are merged, which
//! needs no check, and the vertices are numbered sinks first (by the strongly
//! connected components of the graph of both players' moves), so that the
//! edits, tried in vertex order, settle what cannot reach back before what
//! leads to it. The edits, each bounded:
//!
//! 0. condensation (every round, with a doubling wait after one that changes
//!    nothing): one all-pairs side
//!    comparison of the graph's vertices; the quotient by equal side values, with
//!    side-dominated options deleted, or the plain quotient, or else the classes
//!    of equal vertices fused in groups, a group halved when its fusion fails
//!    (at most 256 classes), each fusion kept only if the check passes (side-equal vertices cannot always be fused: a fusion can
//!    create alternating cycles that change the side); the quotient counts as
//!    smaller when it has fewer vertices, or as many and fewer moves (a
//!    side-dominated option deleted); when no quotient is kept, reversible
//!    options are bypassed, read from the same table (a Left option `G^L` with a
//!    Right option `G^{LR} <= G` is replaced by the Left options of `G^{LR}`, and
//!    dually), all at once or each half in turn, each bypass kept only if the check
//!    passes;
//! 1. deletion of moves that lie on alternating cycles (the moves of the player
//!    the side does not favour first: Right's for the onside), all at once if
//!    the check passes; on a graph that is one component, when the moves of one
//!    player fail at the top of a round, the solve of the failed check gives a
//!    winning strategy of Right in the comparison, and the deleted moves it
//!    plays are put back and the rest checked again (at most
//!    `MAX_GUIDED_ROUNDS` checks: revivals at `n = 7` took 196 s without this,
//!    78 s with it; on the components of even revivals it made `n = 7` slower,
//!    5 s to 87 s, so it is not used there); otherwise each half in turn,
//!    recursively;
//! 2. when no deletion is allowed, unravelling of one such move: the move is
//!    sent into a copy of the graph in which it is missing, so it can be used
//!    once more (at most [`MAX_UNRAVEL_COPIES`] nested copies, graphs up to
//!    [`MAX_SIDE_VERTICES`] vertices); then deletions are tried again.
//!
//! [`sides_within`] seeks the sides of several vertices of one graph at once:
//! an edit is kept only if it keeps the side of every target, which one solve
//! of the pair game checks for all of them. The positions of one variant share
//! most of their graph, so one search serves them all (the 729 rollover
//! positions with at most two hands a side at `n = 6` take about as long as
//! one of them alone); a target the joint search leaves on an alternating
//! cycle gets a search of its own, from the reduced graph.
//!
//! Before any of this, a graph of several strongly connected components (of
//! the graph of both players' moves) is searched component by component, sinks
//! first: each component on a small graph of its own, where every move out of
//! the component leads to the side already found for its target (a canonical
//! stopper, usually a few vertices, in place of everything below). One side
//! comparison of the whole graph against the union of the sides found then
//! checks every target at once; if it failed, the whole graph would be searched
//! instead (it has not failed on any graph tried: the tables and a property
//! test). Every check is then on a graph about the size of one component: the
//! splits table at `n = 10` (components of at most 25 vertices among 3,159)
//! fell from 213 s to 12.5 s, rollover at `n = 7` from 74 s to 2.1 s.
//!
//! At most [`MAX_CHECKS`] checks are made per side.
//!
//! The targets the search leaves on no alternating cycle get their canonical
//! stoppers together ([`Stopper::new_many`]: one simplification of the final
//! graph, where one per target took 400 of the 450 s of even revivals at
//! `n = 8`, 1,777 targets on a graph of 1,767 vertices).
//!
//! When no edit is left and alternating cycles remain, the side is reported as
//! not found: the game may not be stopper-sided (Bach's carousel), or the bounded
//! search may have missed the stopper. The simplified graph is returned.
//!
//! Past a caller's limit of side work ([`crate::work::Budget::with_side_limit`])
//! no edit is checked and nothing is unravelled: each search ends with the graph
//! it has, and the targets of one search left on alternating cycles share that
//! graph, which later components embed once (not once per target). Revivals
//! at `n = 8` with a limit of one step took 27 s when each search still
//! unravelled once past the limit, 7 s without.

use crate::compare::{self, Mode};
use crate::game::{Game, Player};
use crate::stopper::Stopper;
use crate::LoopyError;

/// Largest graph the side search works on by default (original or unravelled):
/// what [`crate::Value::from_game`] and [`crate::Value::add`] allow.
pub const MAX_SIDE_VERTICES: usize = 4096;

/// Largest graph the side search accepts when a caller asks for more than the
/// default ([`sides_within`]): a comparison on it has `2 · 8192²` (134 million)
/// pair states, about 800 MB.
pub const MAX_SIDE_VERTICES_LIMIT: usize = 8192;

/// Most copies an unravelling may add in one step.
pub const MAX_UNRAVEL_COPIES: usize = 2;

/// Most rounds (deletion passes and unravellings) per side.
const MAX_ROUNDS: usize = 1024;

/// Largest graph on which a joint deletion round (several targets) goes on
/// after a success (see `Search::delete`): past it a failed check costs too much
/// (revivals at n = 6, 730 vertices, take three times longer when it does;
/// rollover at n = 7, 342 vertices, three times shorter).
const MAX_GREEDY_VERTICES: usize = 512;

/// Most checks of one deletion guided by Right's strategies (see
/// `Search::delete_guided`).
const MAX_GUIDED_ROUNDS: usize = 4;

/// Most dominated options tried one at a time on a side left unreduced
/// (`Search::prune_each`, after the search's last round).
const MAX_PRUNES: usize = 64;

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

/// What the bounded side search tries before it leaves a side unreduced, in
/// words (what `chopsticks value` prints after "not reduced").
pub fn tried() -> String {
    format!(
        "fusing positions of equal side value, deleting dominated options and \
         bypassing reversible ones, deleting moves on alternating cycles, and \
         unravelling such a move into up to {MAX_UNRAVEL_COPIES} copies on graphs of up to \
         {MAX_SIDE_VERTICES} vertices, each edit kept only when a side comparison \
         shows the side unchanged, at most {MAX_CHECKS} comparisons a side (and none \
         past a table's limit of work for side searches)"
    )
}

impl Side {
    /// `"onside"` or `"offside"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::On => "onside",
            Side::Off => "offside",
        }
    }

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

/// The onside or offside of a game graph (see the module documentation): a
/// stopper when one was found, otherwise a simplified graph with the same side
/// value. Errors past [`MAX_SIDE_VERTICES`] vertices.
pub fn side(g: &Game, side: Side) -> Result<SideValue, LoopyError> {
    side_within(g, side, MAX_SIDE_VERTICES)
}

/// Like [`side`], refusing graphs of more than `max_vertices` vertices.
pub fn side_within(g: &Game, side: Side, max_vertices: usize) -> Result<SideValue, LoopyError> {
    let g = g.reachable();
    let mut found = sides_within(&g, side, &[g.start()], max_vertices)?;
    Ok(found.pop().expect("one side per target"))
}

/// The sides of several vertices of one graph, each taken as the start: one
/// search for all of them, in which every edit must keep the side of every
/// target (one solve of the pair game checks them all). A target the joint
/// search leaves on an alternating cycle gets a search of its own. Refuses
/// graphs of more than `max_vertices` vertices (after the exact reduction by
/// bisimilarity).
pub fn sides_within(
    g: &Game,
    side: Side,
    targets: &[u32],
    max_vertices: usize,
) -> Result<Vec<SideValue>, LoopyError> {
    let max_vertices = max_vertices.min(MAX_SIDE_VERTICES_LIMIT);
    if targets.iter().any(|&t| t as usize >= g.len()) {
        return Err(LoopyError::InvalidGraph(
            "target vertex out of range".into(),
        ));
    }
    if targets.is_empty() {
        return Ok(Vec::new());
    }
    // Bisimilar vertices are the same game: merging them needs no check.
    let (class, count) = g.bisimulation_classes();
    let quotient = g.quotient(&class, count);
    let targets: Vec<u32> = targets.iter().map(|&t| class[t as usize]).collect();
    if !quotient.alternating_cycle_states().is_empty() && quotient.len() > max_vertices {
        return Err(LoopyError::TooLarge {
            what: "game to take a side of",
            limit: max_vertices,
        });
    }
    if let Some(found) = by_components(&quotient, side, &targets, max_vertices)? {
        return Ok(found);
    }
    search_whole(&quotient, side, &targets, max_vertices, true)
}

/// The sides of `targets` in `g` (reduced by bisimilarity) found component by
/// component, or `None` when that does not apply or its result fails the final
/// check (the caller then searches the whole graph).
///
/// The strongly connected components of the graph of both players' moves are
/// taken sinks first. Each component is searched on its own small graph: its
/// vertices, with every move that leaves the component sent to the side already
/// found for its target (a canonical stopper, or a simplified graph), so every
/// check is on a graph of about the component's size instead of the whole. The
/// sides sought in a component are those of its targets and of the vertices
/// that moves from other components enter by. At the end one side comparison
/// of the whole graph against the union of the sides found checks every target
/// at once, so the result does not rest on the substitution being exact.
fn by_components(
    g: &Game,
    side: Side,
    targets: &[u32],
    max_vertices: usize,
) -> Result<Option<Vec<SideValue>>, LoopyError> {
    let n = g.len();
    let order = g.reachable_from(targets);
    let comp = vertex_components(g);
    let count = comp.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); count];
    for &v in &order {
        members[comp[v as usize] as usize].push(v);
    }
    if members.iter().filter(|m| !m.is_empty()).count() < 2 {
        return Ok(None);
    }
    // Vertices whose sides are needed: the targets, and every vertex entered by
    // a move from another component.
    let mut needed = vec![false; n];
    for &t in targets {
        needed[t as usize] = true;
    }
    for &v in &order {
        for &w in g.left(v).iter().chain(g.right(v)) {
            if comp[w as usize] != comp[v as usize] {
                needed[w as usize] = true;
            }
        }
    }
    let mut found: Vec<Option<Local>> = vec![None; n];
    // The searched graphs of components left with targets on alternating
    // cycles: each embedded once where its vertices are needed.
    let mut shared: Vec<Game> = Vec::new();
    let mut local_index = vec![u32::MAX; n];
    for part in members.iter().filter(|m| !m.is_empty()) {
        for (i, &v) in part.iter().enumerate() {
            local_index[v as usize] = i as u32;
        }
        let mut graph = Embedding::new(part.len());
        for (i, &v) in part.iter().enumerate() {
            for player in [Player::Left, Player::Right] {
                for &w in g.options(v, player) {
                    let to = if local_index[w as usize] != u32::MAX {
                        local_index[w as usize]
                    } else {
                        let value = found[w as usize].as_ref().expect("sinks come first");
                        graph.embed(w, value, &shared)
                    };
                    graph.lists(player)[i].push(to);
                }
            }
        }
        let local = graph.into_game();
        let wanted: Vec<u32> = part
            .iter()
            .filter(|&&v| needed[v as usize])
            .map(|&v| local_index[v as usize])
            .collect();
        let values: Vec<Local> = if local.alternating_cycle_states().is_empty() {
            Stopper::new_many(&local, &wanted)?
                .into_iter()
                .map(|s| Local::Side(SideValue::Stopper(s)))
                .collect()
        } else if local.len() > max_vertices {
            return Ok(None);
        } else {
            let (class, count) = local.bisimulation_classes();
            let reduced = local.quotient(&class, count);
            let wanted: Vec<u32> = wanted.iter().map(|&t| class[t as usize]).collect();
            // The guided deletion pays on a graph that is (almost) one
            // component (revivals, n = 7: 196 s to 75 s) and costs elsewhere
            // (even revivals, n = 7: 5 s to 87 s).
            let guided = 100 * part.len() >= 99 * order.len();
            let searched = search_graph(&reduced, side, &wanted, max_vertices, guided)?;
            let id = shared.len();
            let values: Vec<Local> = searched
                .found
                .into_iter()
                .zip(&searched.at)
                .map(|(f, &at)| match f {
                    Some(value) => Local::Side(value),
                    None => Local::Shared { graph: id, at },
                })
                .collect();
            if values.iter().any(|v| matches!(v, Local::Shared { .. })) {
                shared.push(searched.graph);
            }
            values
        };
        let mut values = values.into_iter();
        for &v in part {
            if needed[v as usize] {
                found[v as usize] = values.next();
            }
            local_index[v as usize] = u32::MAX;
        }
    }
    let locals: Vec<&Local> = targets
        .iter()
        .map(|&t| found[t as usize].as_ref().expect("every target is needed"))
        .collect();
    // The check: every target's side against the side found for it.
    let mut union = Embedding::new(0);
    let starts: Vec<u32> = targets
        .iter()
        .zip(&locals)
        .map(|(&t, value)| union.embed(t, value, &shared))
        .collect();
    let union = union.into_game();
    let (class, count) = union.bisimulation_classes();
    let union = union.quotient(&class, count);
    if 2 * g.len() as u128 * union.len() as u128 > compare::MAX_PAIR_STATES as u128 {
        return Ok(None);
    }
    let pairs: Vec<(u32, u32)> = targets
        .iter()
        .zip(&starts)
        .map(|(&t, &s)| (t, class[s as usize]))
        .collect();
    if !sides_hold(g, &union, side.mode(), &pairs, Need::Both)? {
        return Ok(None);
    }
    Ok(Some(
        locals
            .into_iter()
            .map(|local| match local {
                Local::Side(value) => value.clone(),
                &Local::Shared { graph, at } => {
                    SideValue::Graph(shared[graph].with_start(at).reachable())
                }
            })
            .collect(),
    ))
}

/// The side found for a vertex in [`by_components`]: a side value, or a vertex
/// of a component's searched graph left unreduced (shared by the targets of
/// that search).
#[derive(Clone, Debug)]
enum Local {
    Side(SideValue),
    Shared { graph: usize, at: u32 },
}

/// Whether `a` at `x` and `b` at `y` compare as `need` asks (`a ≥ b`, `b ≥ a`,
/// or both: equal sides) for every pair `(x, y)` of `pairs`: one solve of the
/// pair game per direction.
fn sides_hold(
    a: &Game,
    b: &Game,
    mode: Mode,
    pairs: &[(u32, u32)],
    need: Need,
) -> Result<bool, LoopyError> {
    if need != Need::CandidateGeq && !compare::pairs_all_geq(a, b, mode, pairs)? {
        return Ok(false);
    }
    if need != Need::CurrentGeq {
        let back: Vec<(u32, u32)> = pairs.iter().map(|&(x, y)| (y, x)).collect();
        if !compare::pairs_all_geq(b, a, mode, &back)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A graph being built from vertices of its own and copies of side graphs
/// (each stopper copied once, each shared searched graph once, each other
/// simplified graph once per vertex it stands for).
struct Embedding {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
    stoppers: std::collections::HashMap<Stopper, u32>,
    graphs: std::collections::HashMap<u32, u32>,
    /// Where each shared graph (by its index) was copied: its vertex 0.
    shared: std::collections::HashMap<usize, u32>,
}

impl Embedding {
    /// `own` vertices without options.
    fn new(own: usize) -> Embedding {
        Embedding {
            left: vec![Vec::new(); own],
            right: vec![Vec::new(); own],
            stoppers: std::collections::HashMap::new(),
            graphs: std::collections::HashMap::new(),
            shared: std::collections::HashMap::new(),
        }
    }

    /// Appends a copy of `h`'s vertices; returns where its vertex 0 went.
    fn copy(&mut self, h: &Game) -> u32 {
        let base = self.left.len() as u32;
        for x in 0..h.len() as u32 {
            self.left
                .push(h.left(x).iter().map(|&w| w + base).collect());
            self.right
                .push(h.right(x).iter().map(|&w| w + base).collect());
        }
        base
    }

    fn lists(&mut self, player: Player) -> &mut Vec<Vec<u32>> {
        match player {
            Player::Left => &mut self.left,
            Player::Right => &mut self.right,
        }
    }

    /// The vertex standing for `value`, the side of vertex `v` of the original
    /// graph (copied in on first use; a shared graph is `shared[graph]`).
    fn embed(&mut self, v: u32, value: &Local, shared: &[Game]) -> u32 {
        let value = match value {
            Local::Side(value) => value,
            &Local::Shared { graph, at } => {
                let base = match self.shared.get(&graph) {
                    Some(&base) => base,
                    None => {
                        let base = self.copy(&shared[graph]);
                        self.shared.insert(graph, base);
                        base
                    }
                };
                return base + at;
            }
        };
        let known = match value {
            SideValue::Stopper(s) => self.stoppers.get(s),
            SideValue::Graph(_) => self.graphs.get(&v),
        };
        if let Some(&at) = known {
            return at;
        }
        let h = match value {
            SideValue::Stopper(s) => s.game(),
            SideValue::Graph(h) => h,
        };
        let at = self.copy(h) + h.start();
        match value {
            SideValue::Stopper(s) => self.stoppers.insert(s.clone(), at),
            SideValue::Graph(_) => self.graphs.insert(v, at),
        };
        at
    }

    fn into_game(self) -> Game {
        Game::from_unsorted(self.left, self.right, 0)
    }
}

/// The side search of the module documentation on the whole graph `g`
/// (already reduced by bisimilarity), for the vertices `targets`.
fn search_whole(
    g: &Game,
    side: Side,
    targets: &[u32],
    max_vertices: usize,
    guided: bool,
) -> Result<Vec<SideValue>, LoopyError> {
    let searched = search_graph(g, side, targets, max_vertices, guided)?;
    Ok(searched.values())
}

/// What a search of one graph found ([`search_graph`]): for each target its
/// side, or `None` when it was left on an alternating cycle of the searched
/// graph with no search of its own: its side is then the side of vertex
/// `at[i]` of `graph`, which several targets share.
struct Searched {
    found: Vec<Option<SideValue>>,
    graph: Game,
    at: Vec<u32>,
}

impl Searched {
    /// Every target's side, a target left unreduced as the part of the
    /// searched graph it reaches.
    fn values(self) -> Vec<SideValue> {
        let Searched { found, graph, at } = self;
        found
            .into_iter()
            .zip(at)
            .map(|(f, t)| f.unwrap_or_else(|| SideValue::Graph(graph.with_start(t).reachable())))
            .collect()
    }
}

/// [`search_whole`], with the targets left unreduced kept as vertices of the
/// one searched graph (so that [`by_components`] embeds it once for all of
/// them, not once each).
fn search_graph(
    g: &Game,
    side: Side,
    targets: &[u32],
    max_vertices: usize,
    guided: bool,
) -> Result<Searched, LoopyError> {
    let mut search = Search {
        side,
        checks: 0,
        greedy: false,
        guided,
        deleted: 0,
        round_moves: 0,
        targets: targets.to_vec(),
    };
    let mut work = search.trim(g);
    let (mut wait, mut backoff) = (0usize, 1usize);
    for _round in 0..MAX_ROUNDS {
        // Past the caller's limit of side work no edit is checked any more:
        // stop before the next condensation's all-pairs comparison.
        if crate::work::side_limit_reached() || cyclic_moves(&work, side).0.is_empty() {
            break;
        }
        // Condense: after deletions, side-equal vertices can often be fused, and
        // every later check is on a smaller graph. After a condensation that
        // changed nothing, wait 1, 2, 4, … rounds before the next.
        if wait == 0 {
            let before = work.len();
            search.condense(&mut work)?;
            if work.len() < before {
                backoff = 1;
                search.greedy = false;
            } else {
                wait = backoff;
                backoff = (2 * backoff).min(64);
                search.greedy = search.targets.len() > 1 && work.len() <= MAX_GREEDY_VERTICES;
            }
        } else {
            wait -= 1;
        }
        let (moves, split) = cyclic_moves(&work, side);
        if moves.is_empty() {
            break;
        }
        search.deleted = 0;
        search.round_moves = moves.len();
        let mut progress = search.delete(&mut work, &moves[..split], true)?;
        progress |= search.delete(&mut work, &moves[split..], true)?;
        if progress {
            work = search.trim(&work);
            continue;
        }
        // No deletion: unravel one move, then delete again (not past the
        // limit of side work: no deletion would be checked, and the copies
        // would only grow the graph left unreduced).
        if crate::work::side_limit_reached() || !search.unravel(&mut work, &moves, max_vertices)? {
            break;
        }
    }
    if !crate::work::side_limit_reached() && !cyclic_moves(&work, side).0.is_empty() {
        // Not reduced to a stopper: what is printed is the graph, so its
        // dominated options are deleted one at a time (deleting all at once,
        // as condensing tries, can change a side where each alone does not).
        // Only here: in every condensation it tripled the time of the
        // rollover table at n = 6 and reduced nothing more.
        let n = work.len();
        let table = compare::all_pairs(&work, side.mode())?;
        if search.prune_each(&mut work, &|i, j| table[i as usize * n + j as usize])? {
            work = search.trim(&work);
        }
    }
    let found = search.finish(&work, max_vertices)?;
    Ok(Searched {
        found,
        at: search.targets,
        graph: work,
    })
}

/// The state of one side search: which side, the checks made, and the vertices
/// of the current graph whose sides are sought.
struct Search {
    side: Side,
    checks: usize,
    /// Whether a deletion round goes on after a success (set for a joint search
    /// of at most [`MAX_GREEDY_VERTICES`] vertices while condensing does not
    /// shrink the graph).
    greedy: bool,
    /// Whether a round's deletion is guided by Right's strategies
    /// (`Search::delete_guided`).
    guided: bool,
    /// Moves deleted in this round.
    deleted: usize,
    /// Moves on alternating cycles at the start of this round.
    round_moves: usize,
    /// Current vertices of the targets, in the caller's order (two targets can
    /// share a vertex).
    targets: Vec<u32>,
}

/// Which halves of a side comparison a check needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Both: the candidate has the same side value.
    Both,
    /// The current graph ≥ the candidate (the other half holds already).
    CurrentGeq,
    /// The candidate ≥ the current graph.
    CandidateGeq,
}

impl Need {
    /// The half that can fail when moves of `player` only are deleted (Left
    /// mirrors between the two graphs, and a mirrored infinite play moves in
    /// both, so fewer Right moves can only help Left).
    fn deleting(player: Player) -> Need {
        match player {
            Player::Right => Need::CurrentGeq,
            Player::Left => Need::CandidateGeq,
        }
    }
}

impl Search {
    /// Takes one check from the budget; false once it is spent (or the
    /// caller's work limit for side searches is passed,
    /// [`crate::work::Budget::with_side_limit`]).
    fn spend(&mut self) -> bool {
        if self.checks >= MAX_CHECKS || crate::work::side_limit_reached() {
            return false;
        }
        self.checks += 1;
        true
    }

    /// The part of `g` reachable from the targets, renumbered; the targets
    /// follow (the start is the first target).
    fn trim(&mut self, g: &Game) -> Game {
        let start = self.targets[0];
        let mut order = g.reachable_from(&self.targets);
        // Sinks first: deletions are tried in vertex order, and a part of the
        // graph that cannot reach back is best settled before what leads to it.
        let comp = vertex_components(g);
        order.sort_by_key(|&v| comp[v as usize]);
        let mut index = vec![u32::MAX; g.len()];
        for (i, &v) in order.iter().enumerate() {
            index[v as usize] = i as u32;
        }
        for t in &mut self.targets {
            *t = index[*t as usize];
        }
        g.with_start(start).renumber(&order)
    }

    /// Whether every target `t` keeps its side when `current` at `t` is replaced
    /// by `candidate` at `f[t]` (false once the budget is spent). With one
    /// target the comparison stops as soon as it fails.
    fn keeps(
        &mut self,
        current: &Game,
        candidate: &Game,
        f: &dyn Fn(u32) -> u32,
        need: Need,
    ) -> Result<bool, LoopyError> {
        if !self.spend() {
            return Ok(false);
        }
        let mode = self.side.mode();
        if let [t] = self.targets[..] {
            let (a, b) = (current.with_start(t), candidate.with_start(f(t)));
            return Ok(match need {
                Need::Both => compare::geq(&a, &b, mode)? && compare::geq(&b, &a, mode)?,
                Need::CurrentGeq => compare::geq(&a, &b, mode)?,
                Need::CandidateGeq => compare::geq(&b, &a, mode)?,
            });
        }
        let pairs: Vec<(u32, u32)> = self.targets.iter().map(|&t| (t, f(t))).collect();
        sides_hold(current, candidate, mode, &pairs, need)
    }

    /// Replaces `work` by its quotient by equality of side values (one vertex per
    /// class, read from one all-pairs side comparison), with side-dominated
    /// options deleted, if that keeps the targets' sides; else by the plain
    /// quotient if that does; else fuses groups of classes.
    fn condense(&mut self, work: &mut Game) -> Result<(), LoopyError> {
        let n = work.len();
        if n < 2 {
            return Ok(());
        }
        let table = compare::all_pairs(work, self.side.mode())?;
        let le = |i: u32, j: u32| table[i as usize * n + j as usize];
        let rep = compare::equal_classes(&table, n);
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
        );
        let quotient = Game::from_parts(left, right, start);
        let rep_of = |v: u32| rep[v as usize];
        for candidate in [pruned, quotient] {
            // Smaller: fewer vertices, or as many and fewer moves (a dominated
            // option deleted).
            let reached = candidate.reachable_from(&self.map_targets(&rep));
            let moves: usize = reached
                .iter()
                .map(|&v| candidate.left(v).len() + candidate.right(v).len())
                .sum();
            let size = (reached.len(), moves);
            if size < (work.len(), work.edge_count())
                && self.keeps(work, &candidate, &rep_of, Need::Both)?
            {
                self.targets = self.map_targets(&rep);
                *work = self.trim(&candidate);
                return Ok(());
            }
        }
        // Otherwise bypass reversible options (a Left option whose Right option
        // is at most the vertex: replaced by that option's Left options).
        if self.reverse(work, &table)? {
            *work = self.trim(work);
            return Ok(());
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
        if self.fuse(work, &classes)? {
            *work = self.trim(work);
        }
        Ok(())
    }

    /// Deletes the side-dominated options of `work` (a Left option below
    /// another of the same vertex, a Right option above another; of two equal
    /// options the later), read from `le`, the all-pairs side table of `work`,
    /// one at a time, each kept if the targets' sides are unchanged (at most
    /// [`MAX_PRUNES`]). True if any was deleted.
    fn prune_each(
        &mut self,
        work: &mut Game,
        le: &dyn Fn(u32, u32) -> bool,
    ) -> Result<bool, LoopyError> {
        let mut found: Vec<Move> = Vec::new();
        for v in 0..work.len() as u32 {
            for player in [Player::Left, Player::Right] {
                let list = work.options(v, player);
                for &a in list {
                    let dominated = list.iter().any(|&b| {
                        // `x <= y` with `a` the worse for `player`.
                        let (x, y) = match player {
                            Player::Left => (a, b),
                            Player::Right => (b, a),
                        };
                        b != a && le(x, y) && (!le(y, x) || a > b)
                    });
                    if dominated {
                        found.push(Move { v, player, w: a });
                    }
                }
            }
        }
        let mut changed = false;
        for m in found.into_iter().take(MAX_PRUNES) {
            let candidate = without_moves(work, &[m]);
            if candidate != *work
                && self.keeps(work, &candidate, &|v| v, Need::deleting(m.player))?
            {
                *work = candidate;
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Bypasses reversible options of `work` (read from the all-pairs side
    /// table `table` of `work`) while the targets' sides are unchanged: all at
    /// once, else each half in turn. True if anything changed.
    fn reverse(&mut self, work: &mut Game, table: &[bool]) -> Result<bool, LoopyError> {
        let n = work.len();
        let le = |i: u32, j: u32| table[i as usize * n + j as usize];
        // (vertex, player, option, replacement options)
        let mut found: Vec<(u32, Player, u32, Vec<u32>)> = Vec::new();
        for v in 0..n as u32 {
            for player in [Player::Left, Player::Right] {
                // The reply `x` to the option `w` reverses it when it is as good
                // as `v` for the player who made `w`: `x <= v` for Left, `v <= x`
                // for Right.
                let (reply, reverses): (Player, &dyn Fn(u32) -> bool) = match player {
                    Player::Left => (Player::Right, &|x| le(x, v)),
                    Player::Right => (Player::Left, &|x| le(v, x)),
                };
                for &w in work.options(v, player) {
                    if w == v {
                        continue;
                    }
                    let Some(&x) = work
                        .options(w, reply)
                        .iter()
                        .find(|&&x| x != w && reverses(x))
                    else {
                        continue;
                    };
                    let with = work.options(x, player);
                    if !with.contains(&v) && !with.contains(&x) {
                        found.push((v, player, w, with.to_vec()));
                    }
                }
            }
        }
        self.bypass(work, &found)
    }

    fn bypass(
        &mut self,
        work: &mut Game,
        found: &[(u32, Player, u32, Vec<u32>)],
    ) -> Result<bool, LoopyError> {
        if found.is_empty() {
            return Ok(false);
        }
        let (mut left, mut right, start) = work.clone().into_lists();
        for (v, player, w, with) in found {
            let list = match player {
                Player::Left => &mut left[*v as usize],
                Player::Right => &mut right[*v as usize],
            };
            if !list.contains(w) {
                continue;
            }
            list.retain(|o| o != w);
            list.extend(with.iter().copied());
            list.sort_unstable();
            list.dedup();
        }
        let candidate = Game::from_parts(left, right, start);
        if candidate != *work && self.keeps(work, &candidate, &|v| v, Need::Both)? {
            *work = candidate;
            return Ok(true);
        }
        if found.len() == 1 {
            return Ok(false);
        }
        let (a, b) = found.split_at(found.len() / 2);
        Ok(self.bypass(work, a)? || self.bypass(work, b)?)
    }

    /// The targets sent through a vertex map.
    fn map_targets(&self, f: &[u32]) -> Vec<u32> {
        self.targets.iter().map(|&t| f[t as usize]).collect()
    }

    /// Fuses the classes of `classes` (each into its first vertex) in `work`
    /// while the targets' sides are unchanged: all at once if possible,
    /// otherwise each half in turn.
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
        if self.keeps(work, &candidate, &|v| target[v as usize], Need::Both)? {
            *work = candidate;
            self.targets = self.map_targets(&target);
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

    /// Deletes moves of `moves` from `work` while the targets' sides are
    /// unchanged: all at once if possible (at the `top` of a round, with the
    /// moves Right's strategy needs put back, `delete_guided`), otherwise each
    /// half in turn (recursively). True if anything was deleted.
    fn delete(&mut self, work: &mut Game, moves: &[Move], top: bool) -> Result<bool, LoopyError> {
        if moves.is_empty() {
            return Ok(false);
        }
        let candidate = without_moves(work, moves);
        if candidate == *work {
            return Ok(false);
        }
        let one_player = moves.iter().all(|m| m.player == moves[0].player);
        let need = if one_player {
            Need::deleting(moves[0].player)
        } else {
            Need::Both
        };
        if top && self.guided && one_player && moves.len() > 1 {
            // A failed check shows which of the moves Right needs: put those
            // back and try again, a few times, before halving.
            match self.delete_guided(work, moves, need)? {
                Some(true) => return Ok(true),
                Some(false) => {}
                None => return Ok(false),
            }
        } else if self.targets.len() > 1 && one_player && moves.len() > 1 {
            // One solve tells which vertices keep their sides: try first the
            // moves from those.
            if !self.spend() {
                return Ok(false);
            }
            let all: Vec<(u32, u32)> = (0..work.len() as u32).map(|x| (x, x)).collect();
            let mode = self.side.mode();
            let kept = if need == Need::CurrentGeq {
                compare::pairs_geq(work, &candidate, mode, &all)?
            } else {
                compare::pairs_geq(&candidate, work, mode, &all)?
            };
            if self.targets.iter().all(|&t| kept[t as usize]) {
                *work = candidate;
                self.deleted += moves.len();
                return Ok(true);
            }
            let calm: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| kept[m.v as usize])
                .collect();
            if !calm.is_empty() && calm.len() < moves.len() && self.delete(work, &calm, false)? {
                return Ok(true);
            }
        } else if self.keeps(work, &candidate, &|v| v, need)? {
            *work = candidate;
            self.deleted += moves.len();
            return Ok(true);
        }
        if moves.len() == 1 {
            return Ok(false);
        }
        let (a, b) = moves.split_at(moves.len() / 2);
        // While condensing shrinks the graph, or once this round has deleted an
        // eighth of its moves, stop at the first success: the caller condenses
        // the smaller graph before looking further (checks on it are cheaper).
        // Otherwise try both halves whatever the first gives: a round of small
        // successes goes on, instead of starting again from the whole list after
        // each (rollover at n = 7: 264 s before, 74 s after).
        let first = self.delete(work, a, false)?;
        if first && (!self.greedy || self.deleted > self.round_moves / 8) {
            return Ok(true);
        }
        let second = self.delete(work, b, false)?;
        Ok(first || second)
    }

    /// Deletes `moves` (all of one player) but those a winning strategy of
    /// Right uses in the failed comparison, repeatedly (at most
    /// [`MAX_GUIDED_ROUNDS`] checks): `Some(true)` if a deletion passed its
    /// check, `Some(false)` if none did, `None` once the budget is spent.
    fn delete_guided(
        &mut self,
        work: &mut Game,
        moves: &[Move],
        need: Need,
    ) -> Result<Option<bool>, LoopyError> {
        let pairs: Vec<(u32, u32)> = self.targets.iter().map(|&t| (t, t)).collect();
        let mode = self.side.mode();
        let mut trying: Vec<Move> = moves.to_vec();
        for _ in 0..MAX_GUIDED_ROUNDS {
            if !self.spend() {
                return Ok(None);
            }
            let candidate = without_moves(work, &trying);
            let set: std::collections::HashSet<(u32, u32)> =
                trying.iter().map(|m| (m.v, m.w)).collect();
            // Deleted Right moves are Right's moves in `work - candidate`;
            // deleted Left moves are Right's moves in `candidate - work` (Left's
            // moves of the subtracted graph).
            let (holds, used) = if need == Need::CurrentGeq {
                compare::pairs_geq_witness(work, &candidate, mode, &pairs, &|in_a, v, w| {
                    in_a && set.contains(&(v, w))
                })?
            } else {
                compare::pairs_geq_witness(&candidate, work, mode, &pairs, &|in_a, v, w| {
                    !in_a && set.contains(&(v, w))
                })?
            };
            if holds.iter().all(|&x| x) {
                *work = candidate;
                self.deleted += trying.len();
                return Ok(Some(true));
            }
            let used: std::collections::HashSet<(u32, u32)> =
                used.into_iter().map(|(_, v, w)| (v, w)).collect();
            let before = trying.len();
            trying.retain(|m| !used.contains(&(m.v, m.w)));
            if trying.is_empty() || trying.len() == before {
                break;
            }
        }
        Ok(Some(false))
    }

    /// Unravels one of `moves` (the first that keeps the targets' sides and lets
    /// a deletion follow); false if none does.
    fn unravel(
        &mut self,
        work: &mut Game,
        moves: &[Move],
        max_vertices: usize,
    ) -> Result<bool, LoopyError> {
        for &m in moves {
            for copies in 1..=MAX_UNRAVEL_COPIES {
                if work.len() * (copies + 1) > max_vertices {
                    break;
                }
                // Copy 0 keeps the vertex numbers: the targets stay.
                let candidate = unravel(work, m, copies);
                if !self.keeps(work, &candidate, &|v| v, Need::Both)? {
                    continue;
                }
                let saved = self.targets.clone();
                let mut next = self.trim(&candidate);
                let (next_moves, _) = cyclic_moves(&next, self.side);
                // Accept only if the graph is now a stopper or a deletion
                // succeeds (otherwise it would only grow).
                if next_moves.is_empty() || self.delete(&mut next, &next_moves, true)? {
                    *work = self.trim(&next);
                    return Ok(true);
                }
                self.targets = saved;
            }
        }
        Ok(false)
    }

    /// The targets' sides: canonical stoppers, the result of a search of its
    /// own for a target left on an alternating cycle, or `None` for such a
    /// target when no search of its own is made (one target, or past the
    /// caller's limit of side work): its side is then `work`'s at the target.
    fn finish(
        &self,
        work: &Game,
        max_vertices: usize,
    ) -> Result<Vec<Option<SideValue>>, LoopyError> {
        let mut done: Vec<Option<SideValue>> = vec![None; work.len()];
        // The targets on no alternating cycle are stoppers: their canonical
        // forms are found together (one simplification of the graph for all;
        // one each took 400 s of the 450 s of even revivals at n = 8).
        let mut seen = vec![false; work.len()];
        let mut stoppers: Vec<u32> = Vec::new();
        let mut others: Vec<u32> = Vec::new();
        // A target is a stopper when no vertex it reaches (by moves of either
        // player) has a state on or leading to an alternating cycle: found for
        // all targets at once, backwards from those vertices.
        let cyclic: Vec<u32> = work
            .alternating_cycle_states()
            .into_iter()
            .map(|state| state / 2)
            .collect();
        let on_cycle = work.reaching(&cyclic);
        for &t in &self.targets {
            if std::mem::replace(&mut seen[t as usize], true) {
                continue;
            }
            if !on_cycle[t as usize] {
                stoppers.push(t);
            } else {
                others.push(t);
            }
        }
        for (&t, s) in stoppers.iter().zip(Stopper::new_many(work, &stoppers)?) {
            done[t as usize] = Some(SideValue::Stopper(s));
        }
        // A search of its own, unless the caller's limit of side work is
        // passed (it would check no edit), asked again before each target:
        // the limit can be passed during one of these searches, or by the
        // other side's thread.
        if self.targets.len() > 1 {
            for t in others {
                if crate::work::side_limit_reached() {
                    break;
                }
                let sub = work.with_start(t).reachable();
                done[t as usize] = Some(side_within(&sub, self.side, max_vertices)?);
            }
        }
        Ok(self
            .targets
            .iter()
            .map(|&t| done[t as usize].clone())
            .collect())
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

/// Strongly connected components of the state graph (states `2v + mover`).
fn state_components(g: &Game) -> Vec<u32> {
    strong_components(2 * g.len(), |s, i| {
        let list = if s % 2 == 0 {
            g.left((s / 2) as u32)
        } else {
            g.right((s / 2) as u32)
        };
        list.get(i).map(|&w| 2 * w as usize + 1 - s % 2)
    })
}

/// Strongly connected components of the graph of both players' moves.
fn vertex_components(g: &Game) -> Vec<u32> {
    strong_components(g.len(), |v, i| {
        let (left, right) = (g.left(v as u32), g.right(v as u32));
        left.get(i)
            .or_else(|| right.get(i.wrapping_sub(left.len())))
            .map(|&w| w as usize)
    })
}

/// Strongly connected components of a graph on `0..n` whose `i`-th successor
/// of `s` is `succ(s, i)` (`None` past the last), by an iterative Tarjan's
/// algorithm. Components are numbered in the order they are completed: a
/// component's successors have smaller numbers (sinks first).
fn strong_components(n: usize, succ: impl Fn(usize, usize) -> Option<usize>) -> Vec<u32> {
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
            if let Some(t) = succ(s, i) {
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

/// The stopper operations whose results are sides (see the module
/// documentation): here, so that `stopper` needs nothing of `sides`.
impl Stopper {
    /// The upsum `self ⊕ other`: the onside of the sum (which need not be a
    /// stopper: `on + off = dud`).
    pub fn upsum(&self, other: &Stopper) -> Result<SideValue, LoopyError> {
        let sum = self
            .game()
            .sum(other.game(), crate::game::MAX_SUM_VERTICES)?;
        side(&sum, Side::On)
    }

    /// The downsum `self ⊖ other`: the offside of the sum.
    pub fn downsum(&self, other: &Stopper) -> Result<SideValue, LoopyError> {
        let sum = self
            .game()
            .sum(other.game(), crate::game::MAX_SUM_VERTICES)?;
        side(&sum, Side::Off)
    }

    /// The degree of loopiness `G ⊕ (-G)` (`on` for `on` and `off`, `over` for
    /// `3/2under`).
    pub fn degree(&self) -> Result<SideValue, LoopyError> {
        self.upsum(&self.neg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random graph of two parts: `a` vertices above `b` vertices, each vertex
    /// with up to two Left and two Right options in its own part, and each
    /// vertex of the upper part with up to one more option of each player into
    /// the lower part (so the lower part is a union of sink components).
    fn layered() -> impl Strategy<Value = Game> {
        (1..=4usize, 1..=4usize).prop_flat_map(|(a, b)| {
            let n = a + b;
            let vertex = move |v: usize| {
                let own = if v < a {
                    0..a as u32
                } else {
                    a as u32..n as u32
                };
                let down = if v < a { 0..=1 } else { 0..=0 };
                (
                    proptest::collection::vec(own.clone(), 0..=2),
                    proptest::collection::vec(own, 0..=2),
                    proptest::collection::vec(a as u32..n as u32, down.clone()),
                    proptest::collection::vec(a as u32..n as u32, down),
                )
            };
            (0..n).map(vertex).collect::<Vec<_>>().prop_map(|lists| {
                let (mut left, mut right) = (Vec::new(), Vec::new());
                for (mut l, mut r, dl, dr) in lists {
                    l.extend(dl);
                    r.extend(dr);
                    left.push(l);
                    right.push(r);
                }
                Game::new(left, right, 0).expect("valid")
            })
        })
    }

    fn graph_of(value: &SideValue) -> Game {
        match value {
            SideValue::Stopper(s) => s.game().clone(),
            SideValue::Graph(g) => g.clone(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The search component by component passes its own final check and
        /// finds the same sides as the search of the whole graph: the same
        /// canonical stoppers, and side-equal graphs otherwise.
        #[test]
        fn components_agree_with_the_whole_search(g in layered(), on in any::<bool>()) {
            let side = if on { Side::On } else { Side::Off };
            let (class, count) = g.bisimulation_classes();
            let g = g.quotient(&class, count);
            let targets: Vec<u32> = (0..g.len() as u32).collect();
            let whole = search_whole(&g, side, &targets, MAX_SIDE_VERTICES, true).unwrap();
            let Some(parts) = by_components(&g, side, &targets, MAX_SIDE_VERTICES).unwrap() else {
                // One component only: nothing to compare.
                prop_assert!(vertex_components(&g).iter().all(|&c| c == vertex_components(&g)[0]));
                return Ok(());
            };
            for (x, y) in whole.iter().zip(&parts) {
                match (x, y) {
                    (SideValue::Stopper(s), SideValue::Stopper(t)) => prop_assert_eq!(s, t),
                    _ => {
                        let (a, b) = (graph_of(x), graph_of(y));
                        prop_assert!(compare::geq(&a, &b, side.mode()).unwrap());
                        prop_assert!(compare::geq(&b, &a, side.mode()).unwrap());
                    }
                }
            }
        }
    }
}
