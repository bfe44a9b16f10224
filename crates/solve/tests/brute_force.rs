//! The fast solver agrees with a tiny, separately written solver on every ruleset
//! combination with two hands per player and F ≤ 6.

use std::collections::{HashMap, HashSet, VecDeque};

use chopsticks_rules::{Overflow, Position, Ruleset};
use chopsticks_solve::{Outcome, Solution};
use chopsticks_space::Graph;

/// Win/lose/draw with remoteness by sweeping levels over positions: a position is a
/// win at level k when some child is a loss at level k-1 (and it was not resolved
/// before), a loss at level k when every child is a win and the largest is k-1.
fn brute_force(rules: &Ruleset) -> HashMap<Position, Outcome> {
    let start = Position::start(rules);
    let mut all = vec![start.clone()];
    let mut seen: HashSet<Position> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    let mut children: HashMap<Position, Vec<Position>> = HashMap::new();
    while let Some(p) = queue.pop_front() {
        let kids: Vec<Position> = p.moves(rules).into_iter().map(|(_, q)| q).collect();
        for q in &kids {
            if seen.insert(q.clone()) {
                all.push(q.clone());
                queue.push_back(q.clone());
            }
        }
        children.insert(p, kids);
    }
    let mut known: HashMap<Position, Outcome> = HashMap::new();
    for p in &all {
        if p.is_terminal(rules) {
            let alive = p.mover().iter().any(|&v| v > 0);
            let won = alive != rules.misere;
            known.insert(
                p.clone(),
                if won {
                    Outcome::win(0)
                } else {
                    Outcome::lose(0)
                },
            );
        } else if children[p].is_empty() {
            let won = rules.misere;
            known.insert(
                p.clone(),
                if won {
                    Outcome::win(0)
                } else {
                    Outcome::lose(0)
                },
            );
        }
    }
    let mut level = 1;
    loop {
        let mut new = Vec::new();
        for p in &all {
            if known.contains_key(p) {
                continue;
            }
            let kids = &children[p];
            if kids
                .iter()
                .any(|q| known.get(q) == Some(&Outcome::lose(level - 1)))
            {
                new.push((p.clone(), Outcome::win(level)));
            } else if kids.iter().all(|q| {
                known
                    .get(q)
                    .is_some_and(|o| o.value == chopsticks_solve::Value::Win)
            }) {
                new.push((p.clone(), Outcome::lose(level)));
            }
        }
        if new.is_empty() && !known.values().any(|o| o.remoteness == Some(level - 1)) {
            break;
        }
        known.extend(new);
        level += 1;
    }
    for p in all {
        known.entry(p).or_insert(Outcome::DRAW);
    }
    known
}

fn combinations() -> Vec<Ruleset> {
    let mut out = Vec::new();
    for fingers in 2..=6u32 {
        for overflow in [Overflow::Cutoff, Overflow::Rollover] {
            for bits in 0u32..128 {
                let b = |k: u32| bits >> k & 1 == 1;
                let rules = Ruleset {
                    hands: vec![2, 2],
                    fingers,
                    overflow,
                    self_attack: b(0),
                    transfer: b(1),
                    divide: b(2),
                    even_divide: b(2) && b(3),
                    suicide: b(4),
                    pass_splits: b(5),
                    misere: b(6),
                };
                if !b(2) && b(3) {
                    continue; // same ruleset as without bit 3
                }
                if rules.validate().is_ok() {
                    out.push(rules);
                }
            }
        }
    }
    out
}

#[test]
fn agrees_with_brute_force_on_every_small_ruleset() {
    let mut rulesets = 0;
    let mut positions = 0;
    for rules in combinations() {
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        for (p, want) in brute_force(&rules) {
            assert_eq!(solution.outcome(&p), want, "{} at {p:?}", rules.describe());
            positions += 1;
        }
        rulesets += 1;
    }
    assert!(rulesets > 500, "{rulesets}");
    assert!(positions > 50_000, "{positions}");
}
