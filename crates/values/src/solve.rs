//! Canonical values of two-player positions of a loop-free ruleset.
//!
//! A position seen as a combinatorial game ([`CgtPosition`]) has Left's hands and
//! Right's hands and no player to move. Left's options are the results of Left's
//! moves (the rules crate's [`Position`] with players `[Left, Right]`, Left to move),
//! Right's options those of Right's moves. A position where a player has no live hand
//! is over and has value `0 = { | }` (the paper's convention: removing the
//! opponent's last hand is a move to 0).
//!
//! Three evaluators, chosen by [`value`]:
//!
//! * **one hand each** under attack-only cutoff rules: the positions `(a|b)_n` form
//!   a tree (every `(a, b)` with `a ≠ b` has the single parent obtained by
//!   subtracting the smaller value from the larger), so no memo is needed; an
//!   explicit stack replaces recursion ([`one_hand`]);
//! * **attack-only cutoff** (Simple Chopsticks) with more hands: positions are the
//!   sorted lists of live hands, options computed directly (the paper's
//!   Definition 1), memoized;
//! * **any other ruleset**: options from [`Position::moves`], memoized.
//!
//! The memoized evaluators walk the positions in an iterative post-order
//! depth-first search. A position met again while it is still on the search path
//! means play can cycle: the computation stops with [`ValueError::Loop`].

use chopsticks_cgt::{GameId, GameStore};
use chopsticks_rules::{Position, Ruleset};
use rustc_hash::FxHashMap;

use crate::error::ValueError;

/// A two-player position as a combinatorial game: each side's hands (dead hands,
/// `0`, may be written or left out), no player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CgtPosition {
    /// Left's hands.
    pub left: Vec<u32>,
    /// Right's hands.
    pub right: Vec<u32>,
}

impl CgtPosition {
    /// A position from Left's and Right's hands.
    pub fn new(left: Vec<u32>, right: Vec<u32>) -> CgtPosition {
        CgtPosition { left, right }
    }

    /// The position in the paper's notation `(x1,…,xl | y1,…,yr)_n` (live hands only,
    /// ascending), for the finger count `F = n + 1`.
    pub fn paper(&self, fingers: u32) -> String {
        paper_text(&self.left, &self.right, fingers)
    }
}

fn paper_text(left: &[u32], right: &[u32], fingers: u32) -> String {
    let side = |h: &[u32]| {
        let mut live: Vec<u32> = h.iter().copied().filter(|&v| v != 0).collect();
        live.sort_unstable();
        live.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "({}|{})_{}",
        side(left),
        side(right),
        fingers.saturating_sub(1)
    )
}

/// Bounds on one computation. Every evaluator stops with an error at either bound,
/// so that no input runs away with time or memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest number of positions one value may visit. The one-hand
    /// evaluator refuses at once when its estimate ([`estimate`]) is beyond it.
    pub max_positions: u64,
    /// The most steps of work one value may take: game arithmetic in the
    /// [`GameStore`] (see [`GameStore::set_work_limit`]) plus, for the memoized
    /// evaluators, [`MEMO_STEPS`] and one step per hand for each position
    /// remembered, so that it bounds the memory of the memo too. Also the limit of
    /// the CGSuite part of an expression ([`crate::evaluate`]).
    pub max_work: u64,
}

impl Limits {
    /// The default bounds: 100 million positions of the one-hand tree (a few
    /// seconds, no memo), and [`DEFAULT_MAX_WORK`] steps of work.
    pub const DEFAULT: Limits = Limits {
        max_positions: 100_000_000,
        max_work: DEFAULT_MAX_WORK,
    };
}

/// The default work limit of a value, in steps ([`Limits::max_work`]): ten to
/// twenty-five million steps a second, so a few seconds, and a few hundred MB.
pub const DEFAULT_MAX_WORK: u64 = 1 << 25;

/// Steps charged for each position the memoized evaluators remember (a memo
/// entry takes about as much memory as this many option entries of a game).
pub const MEMO_STEPS: u64 = 16;

/// The size of a computation, estimated before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Positions to evaluate.
    pub positions: u64,
    /// Bytes of working memory (at most).
    pub bytes: u64,
}

/// The size of the one-hand computation of `(a|b)_n` ([`Method::OneHand`]), before
/// it starts; `None` for the memoized evaluators, whose size is not known in
/// advance (they are bounded by [`Limits`]).
///
/// The positions below `(a|b)` are `(a|b)·M` for the matrices `M` of `SL(2, ℕ)`,
/// one for each coprime pair `(u, v)` of row sums, and `(a|b)·M` has
/// `a·u + b·v` fingers: so they are the coprime `(u, v) ≥ 1` with
/// `a·u + b·v ≤ n`, about `6/π²` of the lattice points of that triangle,
/// `3(n − a − b)²/(π²·a·b)`. The memory is the deepest path, at most
/// `(n − a − b)/min(a, b) + 1` positions.
pub fn estimate(rules: &Ruleset, position: &CgtPosition) -> Option<Estimate> {
    if method(rules, position) != Method::OneHand {
        return None;
    }
    let live = |h: &[u32]| h.iter().copied().find(|&v| v != 0).unwrap_or(0);
    let (a, b) = (live(&position.left), live(&position.right));
    Some(one_hand_estimate(a, b, rules.fingers.saturating_sub(1)))
}

fn one_hand_estimate(a: u32, b: u32, n: u32) -> Estimate {
    let (a, b, n) = (u64::from(a), u64::from(b), u64::from(n));
    if a == 0 || b == 0 || a + b > n {
        return Estimate {
            positions: 0,
            bytes: 0,
        };
    }
    let room = (n - a - b) as f64;
    let positions =
        1 + (3.0 * room * room / (std::f64::consts::PI.powi(2) * (a * b) as f64)) as u64;
    let depth = (n - a - b) / a.min(b) + 1;
    Estimate {
        positions,
        bytes: depth * (std::mem::size_of::<OneHandFrame>() + std::mem::size_of::<GameId>()) as u64,
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Which evaluator [`value`] uses for a ruleset and position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Attack-only cutoff, one live hand each: the `(a|b)` tree.
    OneHand,
    /// Attack-only cutoff: sorted live hands, the paper's definition.
    AttackOnly,
    /// Any other ruleset: [`Position::moves`].
    General,
}

/// Whether the ruleset is the paper's Simple Chopsticks rule (attack-only cutoff,
/// any numbers of hands and fingers), where dead hands never matter
/// ([`Ruleset::is_attack_only`]).
pub fn is_attack_only(rules: &Ruleset) -> bool {
    rules.is_attack_only()
}

/// Checks that the ruleset has game values at all (two players, normal play, valid).
pub fn check_rules(rules: &Ruleset) -> Result<(), ValueError> {
    rules.validate()?;
    if rules.players() != 2 {
        return Err(ValueError::Players(rules.players()));
    }
    if rules.misere {
        return Err(ValueError::Misere);
    }
    Ok(())
}

/// Both sides of a position, checked, padded with dead hands and sorted.
pub(crate) fn padded(
    rules: &Ruleset,
    position: &CgtPosition,
) -> Result<(Vec<u32>, Vec<u32>), ValueError> {
    Ok((
        side(rules, 0, &position.left)?,
        side(rules, 1, &position.right)?,
    ))
}

/// Every option of the position with Left's hands `l` and Right's `r` under any
/// ruleset, as `f(side, Left's hands, Right's hands)` (side 0: a Left option,
/// all reported first; 1: a Right option), hands as the rules crate leaves them.
pub(crate) fn general_options(
    rules: &Ruleset,
    l: &[u32],
    r: &[u32],
    mut f: impl FnMut(usize, &[u32], &[u32]),
) -> Result<(), ValueError> {
    // Left to move: players [Left, Right]; a move leaves [Right', Left'].
    let p = Position::new(rules, vec![l.to_vec(), r.to_vec()])?;
    for (_, q) in p.moves(rules) {
        let players = q.players();
        f(0, &players[1], &players[0]);
    }
    // Right to move: players [Right, Left]; a move leaves [Left', Right'].
    let p = Position::new(rules, vec![r.to_vec(), l.to_vec()])?;
    for (_, q) in p.moves(rules) {
        let players = q.players();
        f(1, &players[0], &players[1]);
    }
    Ok(())
}

/// Pads (with dead hands) and checks one side of a position.
fn side(rules: &Ruleset, seat: usize, hands: &[u32]) -> Result<Vec<u32>, ValueError> {
    let name = ["Left", "Right"][seat];
    let h = rules.hands[seat];
    if hands.len() > h {
        return Err(ValueError::Position(format!(
            "{name} has {} hands, but the ruleset gives {h}",
            hands.len()
        )));
    }
    if let Some(&v) = hands.iter().find(|&&v| v >= rules.fingers) {
        return Err(ValueError::Position(format!(
            "{name} has a hand of {v}, but hands hold at most {} fingers (n = {})",
            rules.fingers - 1,
            rules.fingers - 1
        )));
    }
    let mut out = hands.to_vec();
    out.resize(h, 0);
    out.sort_unstable();
    Ok(out)
}

/// The evaluator [`value`] picks for this ruleset and position.
pub fn method(rules: &Ruleset, position: &CgtPosition) -> Method {
    if !is_attack_only(rules) {
        return Method::General;
    }
    let live = |h: &[u32]| h.iter().filter(|&&v| v != 0).count();
    if live(&position.left) == 1 && live(&position.right) == 1 {
        Method::OneHand
    } else {
        Method::AttackOnly
    }
}

/// The canonical value of `position` under `rules`, with the default [`Limits`].
pub fn value(
    store: &mut GameStore,
    rules: &Ruleset,
    position: &CgtPosition,
) -> Result<GameId, ValueError> {
    value_with(store, rules, position, Limits::DEFAULT, None)
}

/// The canonical value of `position` under `rules`, choosing the fastest evaluator
/// ([`method`]). `progress`, when given, is called now and then with the number of
/// positions evaluated so far. Stops with [`ValueError::TooLarge`],
/// [`ValueError::Estimated`] or [`ValueError::Work`] beyond the `limits`.
pub fn value_with(
    store: &mut GameStore,
    rules: &Ruleset,
    position: &CgtPosition,
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<GameId, ValueError> {
    let m = method(rules, position);
    value_by(store, rules, position, m, limits, progress)
}

/// The canonical value of `position` computed by the given evaluator. The
/// one-hand and attack-only evaluators need an attack-only cutoff ruleset (and one
/// live hand each for [`Method::OneHand`]); [`Method::General`] works for every
/// ruleset. Tests use this to check that the evaluators agree.
pub fn value_by(
    store: &mut GameStore,
    rules: &Ruleset,
    position: &CgtPosition,
    method: Method,
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<GameId, ValueError> {
    check_rules(rules)?;
    let left = side(rules, 0, &position.left)?;
    let right = side(rules, 1, &position.right)?;
    let live = |h: &[u32]| -> Vec<u32> { h.iter().copied().filter(|&v| v != 0).collect() };
    let (ll, rl) = (live(&left), live(&right));
    if ll.is_empty() || rl.is_empty() {
        return Ok(GameId::ZERO);
    }
    store.with_work_limit(limits.max_work, |store| {
        evaluate_by(
            store,
            rules,
            method,
            (ll, rl),
            (left, right),
            limits,
            progress,
        )
    })
}

/// [`value_by`] once the position is checked (live hands, then all hands).
fn evaluate_by(
    store: &mut GameStore,
    rules: &Ruleset,
    method: Method,
    (ll, rl): (Vec<u32>, Vec<u32>),
    (left, right): (Vec<u32>, Vec<u32>),
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<GameId, ValueError> {
    match method {
        Method::OneHand => {
            if !is_attack_only(rules) || ll.len() != 1 || rl.len() != 1 {
                return Err(ValueError::Position(
                    "the one-hand evaluator needs attack-only cutoff rules and one live hand each"
                        .into(),
                ));
            }
            one_hand_with(store, ll[0], rl[0], rules.fingers - 1, limits, progress)
        }
        Method::AttackOnly => {
            if !is_attack_only(rules) {
                return Err(ValueError::Position(
                    "the attack-only evaluator needs attack-only cutoff rules".into(),
                ));
            }
            let graph = AttackOnlyGraph {
                n: rules.fingers - 1,
            };
            let mut root = Vec::with_capacity(ll.len() + rl.len() + 1);
            root.push(ll.len() as u32);
            root.extend_from_slice(&ll);
            root.extend_from_slice(&rl);
            search(&graph, store, root, limits, progress)
        }
        Method::General => {
            let graph = GeneralGraph { rules };
            let mut root = left;
            root.extend_from_slice(&right);
            search(&graph, store, root, limits, progress)
        }
    }
}

/// The value of `(a|b)_n` (one hand each, attack-only cutoff; `1 ≤ a, b ≤ n`):
/// Left's option is `(a|a+b)_n`, Right's `(a+b|b)_n`, each `0` when `a + b > n`.
///
/// # Panics
/// When `a` or `b` is not in `1..=n`. (The positions visited number about
/// `0.3·n²`; use [`value`] for a checked, bounded computation.)
pub fn one_hand(store: &mut GameStore, a: u32, b: u32, n: u32) -> GameId {
    assert!(
        (1..=n).contains(&a) && (1..=n).contains(&b),
        "one_hand needs 1 <= a, b <= n"
    );
    let unlimited = Limits {
        max_positions: u64::MAX,
        max_work: u64::MAX,
    };
    one_hand_with(store, a, b, n, unlimited, None).expect("no limit to exceed")
}

fn one_hand_with(
    store: &mut GameStore,
    a: u32,
    b: u32,
    n: u32,
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<GameId, ValueError> {
    let star = store.star();
    // Refuse at once what would visit far more positions than allowed (the
    // estimate is within a fraction of a percent for large counts).
    let estimate = one_hand_estimate(a, b, n).positions;
    if estimate / 100 * 99 > limits.max_positions {
        return Err(ValueError::Estimated {
            positions: estimate,
            limit: limits.max_positions,
        });
    }
    // u64 arithmetic: a + b + a never overflows.
    let (a, b, n) = (a as u64, b as u64, n as u64);
    if a + b > n {
        return Ok(star);
    }
    // Frames (a, b, stage): stage 0 = Left child next, 1 = Right child next,
    // 2 = both children's values are on `values`. Hands fit in 32 bits.
    let mut frames: Vec<OneHandFrame> = vec![(a as u32, b as u32, 0)];
    let mut values: Vec<GameId> = Vec::new();
    let mut visited: u64 = 1;
    while let Some(top) = frames.last_mut() {
        let (a, b, stage) = *top;
        let (a, b) = (u64::from(a), u64::from(b));
        match stage {
            0 | 1 => {
                top.2 += 1;
                let (ca, cb) = if stage == 0 { (a, a + b) } else { (a + b, b) };
                if ca + cb > n {
                    values.push(star);
                } else {
                    visited += 1;
                    if visited > limits.max_positions {
                        return Err(ValueError::TooLarge {
                            limit: limits.max_positions,
                        });
                    }
                    if visited & 0xFFFF == 0 {
                        if let Some(p) = progress {
                            p(visited);
                        }
                    }
                    // ca, cb <= n < 2^32.
                    frames.push((ca as u32, cb as u32, 0));
                }
            }
            _ => {
                frames.pop();
                let right = values.pop().expect("right value");
                let left = values.pop().expect("left value");
                values.push(store.simple_game(Some(left), Some(right)));
            }
        }
    }
    Ok(values.pop().expect("root value"))
}

/// A frame of the one-hand evaluator: `(a, b, stage)`.
type OneHandFrame = (u32, u32, u8);

/// A game graph for the memoized search.
trait Graph {
    /// Whether the position is over (a player has no live hand): value 0.
    fn is_terminal(&self, key: &[u32]) -> bool;
    /// Appends Left's then Right's option keys; returns how many are Left's.
    fn options(&self, key: &[u32], out: &mut Vec<Vec<u32>>) -> Result<usize, ValueError>;
    /// The position in the paper's notation, for error messages.
    fn describe(&self, key: &[u32]) -> String;
}

/// Attack-only cutoff: key = `[#Left live, Left's live hands…, Right's live hands…]`,
/// both lists sorted.
struct AttackOnlyGraph {
    n: u32,
}

impl AttackOnlyGraph {
    /// The attacked side after its hand `y` is hit by `x` (removed past `n`).
    fn hit(&self, side: &[u32], y: u32, x: u32) -> Vec<u32> {
        let mut out = Vec::with_capacity(side.len());
        let i = side.iter().position(|&v| v == y).expect("hand present");
        out.extend_from_slice(&side[..i]);
        out.extend_from_slice(&side[i + 1..]);
        let s = x + y;
        if s <= self.n {
            let at = out.partition_point(|&v| v < s);
            out.insert(at, s);
        }
        out
    }
}

fn split_key(key: &[u32]) -> (&[u32], &[u32]) {
    let l = key[0] as usize;
    (&key[1..1 + l], &key[1 + l..])
}

fn make_key(left: &[u32], right: &[u32]) -> Vec<u32> {
    let mut k = Vec::with_capacity(1 + left.len() + right.len());
    k.push(left.len() as u32);
    k.extend_from_slice(left);
    k.extend_from_slice(right);
    k
}

fn distinct(values: &[u32]) -> impl Iterator<Item = u32> + '_ {
    values
        .iter()
        .enumerate()
        .filter(|(i, v)| *i == 0 || values[i - 1] != **v)
        .map(|(_, v)| *v)
}

impl Graph for AttackOnlyGraph {
    fn is_terminal(&self, key: &[u32]) -> bool {
        let (l, r) = split_key(key);
        l.is_empty() || r.is_empty()
    }

    fn options(&self, key: &[u32], out: &mut Vec<Vec<u32>>) -> Result<usize, ValueError> {
        let (l, r) = split_key(key);
        let start = out.len();
        for x in distinct(l) {
            for y in distinct(r) {
                out.push(make_key(l, &self.hit(r, y, x)));
            }
        }
        let lefts = out.len() - start;
        for y in distinct(r) {
            for x in distinct(l) {
                out.push(make_key(&self.hit(l, x, y), r));
            }
        }
        Ok(lefts)
    }

    fn describe(&self, key: &[u32]) -> String {
        let (l, r) = split_key(key);
        paper_text(l, r, self.n + 1)
    }
}

/// Any ruleset: key = Left's hands then Right's hands (sorted, dead hands included;
/// the lengths are the ruleset's hand counts).
struct GeneralGraph<'r> {
    rules: &'r Ruleset,
}

impl GeneralGraph<'_> {
    fn halves<'k>(&self, key: &'k [u32]) -> (&'k [u32], &'k [u32]) {
        key.split_at(self.rules.hands[0])
    }
}

impl Graph for GeneralGraph<'_> {
    fn is_terminal(&self, key: &[u32]) -> bool {
        let (l, r) = self.halves(key);
        l.iter().all(|&v| v == 0) || r.iter().all(|&v| v == 0)
    }

    fn options(&self, key: &[u32], out: &mut Vec<Vec<u32>>) -> Result<usize, ValueError> {
        let (l, r) = self.halves(key);
        let mut lefts = 0;
        general_options(self.rules, l, r, |side, left, right| {
            lefts += usize::from(side == 0);
            let mut k = left.to_vec();
            k.extend_from_slice(right);
            out.push(k);
        })?;
        Ok(lefts)
    }

    fn describe(&self, key: &[u32]) -> String {
        let (l, r) = self.halves(key);
        paper_text(l, r, self.rules.fingers)
    }
}

struct Frame {
    key: Vec<u32>,
    /// Where this frame's option keys start in the shared option stack.
    start: usize,
    /// How many of them are Left's.
    lefts: usize,
    /// The next option to look at.
    next: usize,
}

/// Iterative post-order depth-first search with memo and loop detection.
fn search<G: Graph>(
    graph: &G,
    store: &mut GameStore,
    root: Vec<u32>,
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<GameId, ValueError> {
    if graph.is_terminal(&root) {
        return Ok(GameId::ZERO);
    }
    // `None` marks a position whose value is being computed (on the search path).
    let mut memo: FxHashMap<Vec<u32>, Option<GameId>> = FxHashMap::default();
    let mut options: Vec<Vec<u32>> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut left_values: Vec<GameId> = Vec::new();
    let mut right_values: Vec<GameId> = Vec::new();

    let open = |key: Vec<u32>,
                store: &mut GameStore,
                memo: &mut FxHashMap<Vec<u32>, Option<GameId>>,
                options: &mut Vec<Vec<u32>>,
                frames: &mut Vec<Frame>|
     -> Result<(), ValueError> {
        if memo.len() as u64 >= limits.max_positions {
            return Err(ValueError::TooLarge {
                limit: limits.max_positions,
            });
        }
        store.try_charge(MEMO_STEPS + key.len() as u64)?;
        memo.insert(key.clone(), None);
        if memo.len() & 0xFFFF == 0 {
            if let Some(p) = progress {
                p(memo.len() as u64);
            }
        }
        let start = options.len();
        let lefts = graph.options(&key, options)?;
        store.try_charge((options.len() - start) as u64)?;
        frames.push(Frame {
            key,
            start,
            lefts,
            next: start,
        });
        Ok(())
    };

    open(root.clone(), store, &mut memo, &mut options, &mut frames)?;
    while let Some(frame) = frames.last_mut() {
        if frame.next < options.len() {
            let child = &options[frame.next];
            frame.next += 1;
            if graph.is_terminal(child) {
                continue;
            }
            match memo.get(child) {
                Some(None) => {
                    return Err(ValueError::Loop {
                        position: graph.describe(child),
                    })
                }
                Some(_) => continue,
                None => {
                    let child = child.clone();
                    open(child, store, &mut memo, &mut options, &mut frames)?;
                }
            }
            continue;
        }
        // Every option is evaluated: build this position's value.
        let frame = frames.pop().expect("a frame");
        left_values.clear();
        right_values.clear();
        for (i, k) in options[frame.start..].iter().enumerate() {
            let v = if graph.is_terminal(k) {
                GameId::ZERO
            } else {
                memo[k].expect("options are evaluated before their parent")
            };
            if i < frame.lefts {
                left_values.push(v);
            } else {
                right_values.push(v);
            }
        }
        options.truncate(frame.start);
        let g = store.try_game(&left_values, &right_values)?;
        if frames.is_empty() {
            return Ok(g);
        }
        memo.insert(frame.key, Some(g));
    }
    unreachable!("the root frame returns")
}

/// The options of a position (for tests and tools): Left's and Right's options as
/// positions (live hands only for attack-only rules).
pub fn options(
    rules: &Ruleset,
    position: &CgtPosition,
) -> Result<(Vec<CgtPosition>, Vec<CgtPosition>), ValueError> {
    check_rules(rules)?;
    let left = side(rules, 0, &position.left)?;
    let right = side(rules, 1, &position.right)?;
    let graph = GeneralGraph { rules };
    let mut key = left;
    key.extend_from_slice(&right);
    if graph.is_terminal(&key) {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut out = Vec::new();
    let lefts = graph.options(&key, &mut out)?;
    let h = rules.hands[0];
    let to_pos = |k: &Vec<u32>| CgtPosition::new(k[..h].to_vec(), k[h..].to_vec());
    let l = out[..lefts].iter().map(to_pos).collect();
    let r = out[lefts..].iter().map(to_pos).collect();
    Ok((l, r))
}
