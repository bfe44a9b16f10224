//! The values of games in progress (`chopsticks_learn::history`) checked
//! against a brute-force search written here, over games with their whole
//! history: a state is the position with how often every position came up,
//! and a move that brings a position up for the `k`-th time is a draw. It
//! knows nothing of blocked positions, of the theorem that only they matter,
//! nor of the retrograde analysis of the module: it searches every game to its
//! end, remembering states. The table gives it the values of finished
//! positions only.
//!
//! Every history of up to a few plies from the start of small variants (two
//! players, coalitions, teams, misère), with `k = 2` and `k = 3`, is compared:
//! every player's value of the game and every move's value for every player.

use std::collections::HashMap;

use chopsticks_learn::history::{evaluate, History, Repetitions, DEFAULT_BOUND};
use chopsticks_rules::{Ruleset, SeatedPosition};
use chopsticks_solve::{Concept, Outcome, Solution};
use chopsticks_space::Graph;

struct Brute<'s> {
    solution: &'s Solution,
    rules: Ruleset,
    limit: usize,
    ids: HashMap<SeatedPosition, usize>,
    list: Vec<SeatedPosition>,
    children: Vec<Vec<usize>>,
    memo: HashMap<(usize, Vec<u8>, usize), Outcome>,
}

impl<'s> Brute<'s> {
    fn new(solution: &'s Solution, limit: usize) -> Brute<'s> {
        let rules = solution.rules().clone();
        let mut b = Brute {
            solution,
            rules,
            limit,
            ids: HashMap::new(),
            list: Vec::new(),
            children: Vec::new(),
            memo: HashMap::new(),
        };
        b.id(&SeatedPosition::start(&b.rules.clone()));
        b
    }

    /// The position's number, every position reachable from it numbered too.
    fn id(&mut self, at: &SeatedPosition) -> usize {
        if let Some(&id) = self.ids.get(at) {
            return id;
        }
        let mut stack = vec![at.clone()];
        self.ids.insert(at.clone(), self.list.len());
        self.list.push(at.clone());
        self.children.push(Vec::new());
        while let Some(p) = stack.pop() {
            let mut kids = Vec::new();
            if !p.position().is_terminal(&self.rules) {
                for (_, c, step) in p.position().moves_with_steps(&self.rules) {
                    let c = p.after(c, step);
                    let id = match self.ids.get(&c) {
                        Some(&id) => id,
                        None => {
                            let id = self.list.len();
                            self.ids.insert(c.clone(), id);
                            self.list.push(c.clone());
                            self.children.push(Vec::new());
                            stack.push(c);
                            id
                        }
                    };
                    kids.push(id);
                }
            }
            let pid = self.ids[&p];
            self.children[pid] = kids;
        }
        self.ids[at]
    }

    fn count(counts: &[u8], id: usize) -> usize {
        counts.get(id).copied().unwrap_or(0) as usize
    }

    fn with(counts: &[u8], id: usize) -> Vec<u8> {
        let mut c = counts.to_vec();
        if c.len() <= id {
            c.resize(id + 1, 0);
        }
        c[id] += 1;
        c
    }

    /// `seat`'s value of the game at `id` with these counts (the current
    /// position's visit counted).
    fn value(&mut self, seat: usize, id: usize, counts: &[u8]) -> Outcome {
        if let Some(&o) = self.memo.get(&(id, counts.to_vec(), seat)) {
            return o;
        }
        let at = self.list[id].clone();
        let p = self.rules.players();
        // A finished game, or (coalitions) a seat with no live hand left: a
        // loss for it however the others play on (docs/MULTIPLAYER.md).
        let out = out_of_game(self.solution, &at, seat);
        let result = if out || at.position().is_terminal(&self.rules) {
            let o = self.solution.seat_outcomes(at.position()).unwrap();
            let o = o[(seat + p - at.turn()) % p];
            assert_eq!(o.remoteness, Some(0));
            o
        } else {
            let own = self.rules.same_side(at.turn(), seat);
            let mut best: Option<Outcome> = None;
            for c in self.children[id].clone() {
                let times = Self::count(counts, c) + 1;
                let c_out = out_of_game(self.solution, &self.list[c], seat);
                // A player put out of the game has lost, even if the game of
                // the others ends there by repetition.
                let v = if times >= self.limit && !c_out {
                    Outcome::DRAW
                } else {
                    let next = Self::with(counts, c);
                    self.value(seat, c, &next).later()
                };
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        if (b.preference(&v).is_le()) == own {
                            b
                        } else {
                            v
                        }
                    }
                });
            }
            best.expect("a move")
        };
        self.memo.insert((id, counts.to_vec(), seat), result);
        result
    }
}

/// Whether `seat` is out of the game at `at` with three or more players each
/// for themselves: no live hand left, a loss for it however the others play on.
fn out_of_game(solution: &Solution, at: &SeatedPosition, seat: usize) -> bool {
    solution.concept() == Concept::Coalition && at.hands_by_seat()[seat].iter().all(|&v| v == 0)
}

fn solved(id: &str) -> Solution {
    let rules = Ruleset::from_variant_id(id).unwrap();
    let graph = Graph::new(&rules).unwrap();
    Solution::solve(&graph, &|_| {}).unwrap()
}

/// Compares every history of at most `plies` plies from every position
/// reachable from the start; returns the number of histories compared and how
/// many of them the history changed.
fn compare(variant: &str, limit: usize, plies: usize) -> (usize, usize) {
    let solution = solved(variant);
    let mut brute = Brute::new(&solution, limit);
    let mut compared = 0;
    let mut changed = 0;
    let mut stack: Vec<History> = brute
        .list
        .iter()
        .map(|q| History::new(q.clone(), Repetitions::Draw(limit as u32)))
        .collect();
    while let Some(h) = stack.pop() {
        let more = h.len() <= plies;
        let (values, differs) = check(&solution, &mut brute, &h, variant, limit);
        compared += 1;
        changed += usize::from(differs);
        if more {
            for m in &values.moves {
                let mut next = h.clone();
                next.push(m.to.clone());
                stack.push(next);
            }
        }
    }
    (compared, changed)
}

/// Compares one game in progress; returns its values and whether the history
/// changed one of them.
fn check(
    solution: &Solution,
    brute: &mut Brute,
    h: &History,
    variant: &str,
    limit: usize,
) -> (chopsticks_learn::GameValues, bool) {
    let rules = solution.rules().clone();
    let p = rules.players();
    {
        let values = evaluate(solution, h, DEFAULT_BOUND).unwrap();
        assert!(values.exact);
        let mut counts: Vec<u8> = Vec::new();
        for q in h.positions() {
            counts = Brute::with(&counts, brute.id(q));
        }
        let at = h.current().clone();
        let id = brute.id(&at);
        if values.end.is_some() {
            assert!(values.moves.is_empty());
            let differs = values.differs_from_table();
            return (values, differs);
        }
        for m in &values.moves {
            let c = brute.id(&m.to);
            let times = Brute::count(&counts, c) + 1;
            assert_eq!(m.repetition, times >= limit);
            for seat in 0..p {
                let c_out = out_of_game(solution, &m.to, seat);
                let truth = if times >= limit && !c_out {
                    Outcome::DRAW
                } else {
                    brute.value(seat, c, &Brute::with(&counts, c)).later()
                };
                assert_eq!(
                    m.seats[seat],
                    truth,
                    "{variant}, k = {limit}: Player {}'s value of the move to {} after {:?}",
                    seat + 1,
                    m.to.to_text(&rules).unwrap(),
                    h.positions()
                        .iter()
                        .map(|q| q.to_text(&rules).unwrap())
                        .collect::<Vec<_>>()
                );
            }
            assert_eq!(m.outcome, m.seats[at.turn()]);
        }
        for seat in 0..p {
            let truth = brute.value(seat, id, &counts);
            assert_eq!(
                values.seats[seat],
                truth,
                "{variant}, k = {limit}: Player {}'s value after {:?}",
                seat + 1,
                h.positions()
                    .iter()
                    .map(|q| q.to_text(&rules).unwrap())
                    .collect::<Vec<_>>()
            );
        }
        let differs = values.differs_from_table();
        (values, differs)
    }
}

/// Compares `samples` games in progress whose history is drawn at random: each
/// position reachable from the start seen 0, 1, … `limit - 1` times (a
/// history need not be a game to be valued; it is its counts that matter),
/// the current one at least once. Many blocked positions keep the brute
/// force's search small. Finished positions are never in the history (the
/// game ends at the first).
fn compare_random(variant: &str, limit: usize, samples: usize, seed: u64) -> (usize, usize) {
    let solution = solved(variant);
    let mut brute = Brute::new(&solution, limit);
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let list = brute.list.clone();
    let mut changed = 0;
    for _ in 0..samples {
        let current = list[next() % list.len()].clone();
        let mut positions = Vec::new();
        for q in &list {
            // A finished position ends the game: it is never seen before.
            let times = if *q == current || q.position().is_terminal(solution.rules()) {
                0
            } else {
                // Blocked more often than not.
                match next() % 10 {
                    0..=2 => 0,
                    3..=4 => 1 + next() % (limit - 1),
                    _ => limit - 1,
                }
            };
            positions.extend(std::iter::repeat_n(q.clone(), times));
        }
        let own = 1 + next() % (limit - 1);
        positions.extend(std::iter::repeat_n(current, own));
        let h = History::from_positions(positions, Repetitions::Draw(limit as u32)).unwrap();
        let (_, differs) = check(&solution, &mut brute, &h, variant, limit);
        changed += usize::from(differs);
        brute.memo.clear();
    }
    (samples, changed)
}

/// Runs the comparisons; every repetition count must meet histories the
/// history changes somewhere (so the check is not of the table alone).
///
/// A case is `(variant, k, n)`: every history of at most `n` plies for
/// `k = 2`, `n` random histories for larger `k` (a brute-force search of
/// whole games from the start with `k = 3` does not fit in memory even for
/// `standard.f3`).
fn compare_all(cases: &[(&str, usize, usize)]) {
    let mut changed_by_limit: HashMap<usize, usize> = HashMap::new();
    for &(variant, limit, n) in cases {
        let clock = std::time::Instant::now();
        let (compared, changed) = if limit == 2 {
            compare(variant, limit, n)
        } else {
            compare_random(variant, limit, n, 0x5EED + n as u64)
        };
        eprintln!(
            "{variant} k = {limit}: {compared} histories, {changed} changed by their history, {:.1} s",
            clock.elapsed().as_secs_f64()
        );
        *changed_by_limit.entry(limit).or_insert(0) += changed;
    }
    for (limit, changed) in changed_by_limit {
        assert!(changed > 0, "k = {limit}: no history changed a value");
    }
}

#[test]
fn two_players_match_the_brute_force_search() {
    compare_all(&[
        ("standard.f3", 2, 4),
        ("standard.f3", 3, 2000),
        ("standard.f3", 4, 1000),
        ("standard.f4", 3, 300),
        ("rollover.f3.no-divide", 2, 4),
        ("rollover.f3.no-divide", 3, 2000),
        ("rollover.f3.no-divide.misere", 3, 2000),
    ]);
}

#[test]
fn coalitions_and_teams_match_the_brute_force_search() {
    compare_all(&[
        ("rollover.p3.h1.f3", 2, 5),
        ("rollover.p3.h1.f3", 3, 2000),
        ("rollover.p3.h1.f4", 3, 2000),
        ("rollover.p3.h1.f4", 4, 500),
        ("rollover.p4.h1.f3.teams", 2, 4),
        ("rollover.p4.h1.f3.teams", 3, 2000),
    ]);
}
